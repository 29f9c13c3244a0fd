"""The search crew's decisions: each option judged by the heuristic crew's own play to the end
of the hand, in worlds the deciding seat cannot tell from the real one (in numba).

At each card play with a choice (and, with ``search_communication``, before each
communication: no card, or a card the seat may show), the seat samples a deal of the cards it
cannot see (``bots.worlds``), and for each option copies the game into the rollout record
``R``, plays the option there and lets the heuristic crew play on, every seat from its own
view of that world.  A won rollout is worth 1, a lost one a little by the progress it made
(tasks done, tricks survived); with ``search_exact`` its last tricks are decided by the
endgame search instead, every hand of the world seen.  Every option meets the same worlds, so
the comparison is paired; after ``search_min_worlds`` a sequential test stops as soon as the
best option leads every other by ``search_z`` standard errors of their paired difference,
else at ``search_max_worlds``.  Ties go to the heuristic's own choice.

With ``search_setup``, the set-up's draft picks, yes/no answers and Deep Sea's task selection
(with ``search_distress`` also the distress signal's passes) are searched the same way, each
rollout dealing the game again with the world's hands and replaying the set-up's decisions so
far (``kernel.script``); the other set-up steps are the heuristic's.
"""

import numpy as np
from numba import njit

from crewsim.bots.crew import choose_comm
from crewsim.bots.endgame import LOST, exact_line
from crewsim.bots.registry import KINDS
from crewsim.bots.worlds import (
    MAX_HOLDERS,
    decider,
    holders_of,
    place_world,
    sample_holders,
    set_up_holders,
    uncovered_of,
)
from crewsim.engine.setup import deal_game, decide_set_up
from crewsim.engine.tricks import crew_card, legal_cards, play_tricks, showable
from crewsim.kernel.bits import lowest, popcount, seat_after
from crewsim.kernel.layout import (
    BP_KIND,
    BP_SEARCH_CREDIT,
    BP_SEARCH_EXACT,
    BP_SEARCH_MAX,
    BP_SEARCH_MIN,
    BP_SEARCH_Z,
    G_COMM_K,
    G_DONE,
    G_FORCE,
    G_FORCE_COMM,
    G_LEADER,
    G_NDS,
    G_NIN,
    G_NT,
    G_NTASK,
    G_PLAYING,
    G_SEATS,
    G_SU_OPTIONS,
    G_SU_PREF,
    G_SU_PREFIX,
    G_SU_SEAT,
    G_SU_STOP,
    G_T,
    G_UNCOVER,
    MAX_DS,
    SS_CHAINED,
    SS_DECISIONS,
    SS_EARLY,
    SS_ROLLOUTS,
    SS_SETUP,
    SS_WORLDS,
)

SEARCH = KINDS["search"]  # ``bp[BP_KIND]`` of the search crew
HEURISTIC = KINDS["heuristic"]
REJECTION_TRIES = 64  # shuffled deals tried per world before the chain takes over
BATCH = 8  # worlds between two looks of the sequential test


@njit(cache=True)
def copy_game(S, R):
    """Everything of a game in progress that play may read or change, from ``S`` into ``R``
    (the mission, bot and task tables are set once per chunk)."""
    R.g[:] = S.g
    R.rng[:] = S.rng
    R.deal_rng[:] = S.deal_rng  # names the game for the endgame's memo
    R.endgame[LOST] = S.endgame[LOST]
    R.hands[:] = S.hands
    R.possible[:] = S.possible
    R.known[:] = S.known
    R.won[:] = S.won
    R.trick[:] = S.trick
    R.passes[:] = S.passes
    R.comm_used[:] = S.comm_used
    R.count[:] = S.count
    R.under[:] = S.under
    R.tcard[:] = S.tcard
    R.towner[:] = S.towner
    R.tpred[:] = S.tpred
    R.ttok[:] = S.ttok
    R.pick[:] = S.pick
    R.desig[:] = S.desig
    R.obj_done[:] = S.obj_done
    R.want[:] = S.want
    R.ct[:] = S.ct
    R.res[:] = S.res
    R.won_cards[:] = S.won_cards
    R.ds_task[:] = S.ds_task
    R.ds_owner[:] = S.ds_owner
    R.ds_pred[:] = S.ds_pred
    R.ds_state[:] = S.ds_state
    R.ds_done[:] = S.ds_done
    R.ds_base[:] = S.ds_base
    R.score[:] = S.score


@njit(cache=True)
def prepare_rollouts(S, R):
    """Once per chunk: the rollout record plays the mission of ``S`` with the heuristic crew."""
    R.mp[:] = S.mp
    R.bp[:] = S.bp
    R.bp[BP_KIND] = HEURISTIC
    R.ds_tab[:] = S.ds_tab
    R.ds_code[:] = S.ds_code


@njit(cache=True)
def _roll_out(R, deep, exact, credit, r_comms, r_draws, r_plays):
    """The heuristic crew plays the rollout on; with ``exact``, its last ``exact`` tricks are
    decided by the endgame search instead, every hand of the world seen (a line that completes
    every task wins), where that search judges the game.  The rollout's value."""
    play_tricks(R, deep, False, False, 0, r_comms, r_draws, r_plays, exact)
    if R.res[0] == 0:
        line = exact_line(R)
        if line < 0:
            play_tricks(R, deep, False, False, 0, r_comms, r_draws, r_plays, 0)
        elif line == 1:
            return 1.0
    return _value(R, credit)


@njit(cache=True)
def _value(R, credit):
    """1 for a won rollout; a lost one earns up to ``credit`` by its share of tasks done and
    of tricks played before it failed."""
    if R.res[0] == 1:
        return 1.0
    g = R.g
    parts = 1 + g[G_NTASK] + g[G_NDS]
    done = popcount(g[G_DONE]) + (g[G_T] / g[G_NT])
    for k in range(g[G_NDS]):
        done += R.ds_done[k]
    return credit * done / parts


@njit(cache=True)
def search_decision(S, R, deep, r_comms, r_draws, r_plays):
    """Decide by search where the game ``S`` stopped: a card play (``G_PLAYING``), else a
    communication; the choice goes to ``G_FORCE`` / ``G_FORCE_COMM`` for the game to go on."""
    g, bp, mp = S.g, S.bp, S.mp
    if g[G_PLAYING]:
        seat = seat_after(g[G_LEADER], g[G_NIN], g[G_SEATS])
        legal = legal_cards(S)
        preferred = crew_card(S, bp, mp, g, seat, legal, deep)  # as the heuristic crew would
        options = _cards(legal, 0)
        g[G_FORCE] = 1 + _search(
            S, R, deep, decider(S, seat), options, preferred, G_FORCE, 1, r_comms, r_draws, r_plays
        )
    else:
        seat = seat_after(g[G_LEADER], g[G_COMM_K], g[G_SEATS])
        hand, told = S.hands[seat], S.known[seat]
        preferred = choose_comm(S, bp, g, mp, seat, hand, told)
        options = _cards(showable(hand) & ~told, 1)
        options[0] = -1  # no communication
        g[G_FORCE_COMM] = 2 + _search(
            S, R, deep, seat, options, preferred, G_FORCE_COMM, 2, r_comms, r_draws, r_plays
        )


@njit(cache=True)
def _cards(mask, first):
    """The cards of ``mask`` in order, after ``first`` free slots."""
    out = np.zeros(first + popcount(mask), dtype=np.int64)
    for i in range(first, len(out)):
        out[i] = lowest(mask)
        mask &= mask - 1
    return out


@njit(cache=True)
def set_up_decision(S, R, seed, gi, deep, r_comms, r_draws, r_plays):
    """Decide by search the set-up decision where the pass over game ``gi`` of ``seed``
    stopped (``kernel.script``): each option is played in worlds of the deciding seat from
    the deal on, through the rest of the set-up and the hand, by the heuristic crew."""
    g = S.g
    S.search_stats[SS_SETUP] += 1
    return _search(
        S,
        R,
        deep,
        decider(S, g[G_SU_SEAT]),
        _cards(g[G_SU_OPTIONS], 0),
        g[G_SU_PREF],
        g[G_SU_STOP],
        g[G_SU_PREFIX],
        r_comms,
        r_draws,
        r_plays,
        seed,
        gi,
    )


@njit(cache=True)
def _search(
    S, R, deep, me, options, preferred, slot, offset, r_comms, r_draws, r_plays, seed=0, gi=-1
):
    """The option the rollouts rate best in worlds of seat ``me``'s knowledge.  In play
    (``gi`` < 0) each rollout plays on from ``S`` with ``options[i] + offset`` in
    ``R.g[slot]``; in the set-up, ``slot`` is 1 + the set-up decision, and each rollout deals
    game ``gi`` of ``seed`` again, replays the set-up's script before decision ``offset`` and
    takes ``options[i]`` at the decision."""
    bp = S.bp
    holder = np.zeros(MAX_HOLDERS, dtype=np.int64)
    need = np.zeros(MAX_HOLDERS, dtype=np.int64)
    allowed = np.zeros(MAX_HOLDERS, dtype=np.int64)
    dealt = np.zeros(MAX_HOLDERS, dtype=np.int64)
    setting_up = gi >= 0
    if setting_up:
        m, pool = set_up_holders(S, me, holder, need, allowed)
    else:
        m, pool = holders_of(S, me, holder, need, allowed)
    e2 = np.zeros((1, 1), dtype=np.int64)  # the set-up's record arrays, never written
    e3 = np.zeros((1, 1, 1), dtype=np.int64)
    e8 = np.zeros((1, MAX_DS), dtype=np.int8)
    n = len(options)
    total = np.zeros(n)
    cross = np.zeros((n, n))  # sums of products, for the paired differences' variance
    value = np.zeros(n)
    world_hands = np.zeros(5, dtype=np.int64)
    world_under = np.zeros(40, dtype=np.int64)
    lo, hi = int(bp[BP_SEARCH_MIN]), int(bp[BP_SEARCH_MAX])
    credit, z = bp[BP_SEARCH_CREDIT], bp[BP_SEARCH_Z]
    exact = int(bp[BP_SEARCH_EXACT])
    worlds = 0
    chained = False
    while worlds < hi:
        how = sample_holders(pool, need, allowed, m, REJECTION_TRIES, chained, dealt, S.rng)
        if how == 0:
            break
        chained = True
        S.search_stats[SS_CHAINED] += how == 2
        world_hands[:] = S.hands
        world_under[:] = S.under
        place_world(S, holder, m, dealt, world_hands, world_under, S.rng)
        up = uncovered_of(holder, m, dealt)
        for i in range(n):
            if setting_up:
                R.rng[:] = S.rng
                R.endgame[LOST] = S.endgame[LOST]
                deal_game(R, seed, gi)
                R.hands[:] = world_hands
                R.under[:] = world_under
                R.script[:offset] = S.script[:offset]
                decide_set_up(
                    R, 0, False, 0, e2, e3, e3, e2, e2, e2, e8, e8, offset, False, slot, options[i]
                )
            else:
                copy_game(S, R)
                R.hands[:] = world_hands
                R.under[:] = world_under
                if up >= 0:  # the world's card turned up after this trick, not the real one
                    R.g[G_UNCOVER] = up
                R.g[slot] = options[i] + offset
            value[i] = _roll_out(R, deep, exact, credit, r_comms, r_draws, r_plays)
        for i in range(n):
            total[i] += value[i]
            for j in range(n):
                cross[i, j] += value[i] * value[j]
        worlds += 1
        if worlds >= lo and worlds % BATCH == 0 and _settled(total, cross, n, worlds, z):
            S.search_stats[SS_EARLY] += worlds < hi
            break
    S.search_stats[SS_DECISIONS] += 1
    S.search_stats[SS_WORLDS] += worlds
    S.search_stats[SS_ROLLOUTS] += worlds * n
    best, top = -1, -1.0
    for i in range(n):
        score = total[i] + (1e-6 if options[i] == preferred else 0.0)  # ties: the heuristic's
        if score > top:
            best, top = i, score
    return options[best]


@njit(cache=True)
def _settled(total, cross, n, worlds, z):
    """True when the best card leads every other by ``z`` standard errors of the paired
    difference (or every card has had the very same value in every world)."""
    best = 0
    for i in range(1, n):
        if total[i] > total[best]:
            best = i
    for j in range(n):
        if j == best:
            continue
        mean = (total[best] - total[j]) / worlds
        sq = (cross[best, best] - 2 * cross[best, j] + cross[j, j]) / worlds
        var = max(sq - mean * mean, 0.0)
        if var == 0.0 and mean == 0.0:
            continue  # the same value in every world: a tie, not a reason to go on
        if mean * mean * worlds <= z * z * var or mean <= 0.0:
            return False
    return True
