"""The plain perfect-information Monte Carlo crew (``--bot pimc``), in numba.

At each card play with a choice the seat samples ``pimc_worlds`` deals of the cards it cannot
see (``bots.worlds``: uniform over the deals consistent with what it knows, as the search
crew) and asks the numba DFS (``solver.search``) of each world and each legal card whether a
crew that sees every card can still win after that card.  It plays the card that wins in the
most worlds (a world the DFS's ``pimc_budget`` plays leave open counts as half a win), ties to
the heuristic's card.  Set-up and communication are the heuristic's.

The DFS solves a hand from its first trick; the kernel keeps no history of the tricks before,
so a position is written as a hand of its own from the trick in progress on
(``encode_position``): each seat's cards of the world plus the card it put in the trick, the
trick's leader leading, the tricks left, the tasks still open with their owners and the order
among them, and the cards of the trick already played as the line's ``prefix``.  That is the
same position exactly when nothing that decides the rest depends on the tricks before: tasks
and order tokens (a done task has no say in what is left), and the special objectives whose
state the kernel keeps in a form the DFS can take (``SUPPORTED_OBJECTIVES``).  A mission
with another objective, a card draw mid-hand (pn-12) or Deep Sea is refused
(``check_mission``).

The engine cannot import the solver (``tests/test_layers.py``), so this module plays its own
chunks (``pimc_chunk``, the engine's ``play_chunk`` with a PIMC decision at each stop) and
``run_pimc_chunk`` is its ``engine.run.run_chunk``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from crewsim.bots.registry import KINDS
from crewsim.bots.worlds import (
    MAX_HOLDERS,
    decider,
    holders_of,
    place_world,
    sample_holders,
    uncovered_of,
)
from crewsim.engine.run import play_with
from crewsim.engine.setup import set_up_game
from crewsim.engine.tricks import crew_card, legal_cards, play_tricks
from crewsim.errors import CrewsimError
from crewsim.kernel.bits import lowest, popcount, seat_after
from crewsim.kernel.layout import (
    BP_KIND,
    BP_PIMC_BUDGET,
    BP_PIMC_WORLDS,
    G_DONE,
    G_DUMMY,
    G_FORCE,
    G_LEADER,
    G_NIN,
    G_NPLAYS,
    G_NT,
    G_NTASK,
    G_ONES_WINS,
    G_PINK_TARGET,
    G_REDEALS,
    G_REPAIRS,
    G_SEATS,
    G_T,
    G_UNCOVER,
    MAX_DS,
    MAX_TASKS,
    MP_DRAW_AFTER,
    MP_GAME,
    MP_NOBJ,
    MP_OBJ,
    MP_OMEGA_LAST,
    OBJ_NAMES,
    OBJ_NO_RANK,
    OBJ_NO_TRICKS,
    OBJ_ONES,
    OBJ_PINK,
    OMEGA_CODE,
    SS_CHAINED,
    SS_DECISIONS,
    SS_ROLLOUTS,
    SS_WORLDS,
)
from crewsim.solver.dfs_layout import FEASIBLE, INFEASIBLE, KEY_W, MAXD, NCOL, SCR, UNKNOWN
from crewsim.solver.search import search

PIMC = KINDS["pimc"]  # ``bp[BP_KIND]`` of this crew
REJECTION_TRIES = 64  # as the search crew: shuffled deals tried per world before the chain
TABLE_ROWS = 1 << 16  # the DFS's failure memo, one per chunk (4 MiB)
# the special objectives whose state at a trick boundary the DFS can start from: none kept
# (a player wins no trick, no trick won with a rank, pink won by the seat left of pink 9) or
# a count the crew still needs (colour ones)
SUPPORTED_OBJECTIVES = (OBJ_NO_TRICKS, OBJ_ONES, OBJ_NO_RANK, OBJ_PINK)


def check_mission(mp: np.ndarray, mission_id: str) -> None:
    """Refuse, in one line naming the mission, what the PIMC crew's solver cannot model."""
    why = ""
    if mp[MP_GAME] == 1:
        why = "Deep Sea is not modelled (the DFS cannot start mid-hand from a task's state)"
    elif mp[MP_DRAW_AFTER] > 0:
        why = "a random card draw mid-hand is not modelled"
    elif mp[MP_NOBJ] > 1:
        why = "two special objectives are not modelled"
    elif mp[MP_NOBJ] == 1 and int(mp[MP_OBJ]) not in SUPPORTED_OBJECTIVES:
        why = f"objective {OBJ_NAMES[int(mp[MP_OBJ])]} is not modelled mid-hand"
    if why:
        where = f"mission '{mission_id}'" if mission_id else "this mission"
        raise CrewsimError(f"{where}: the pimc crew cannot play it: {why}")


@njit(cache=True)
def encode_position(
    S, hands_w, under_w, up, hands0, under0, tcard, towner, tpred, prefix, obj, table_pos
):
    """Write the position of game ``S`` in the world ``hands_w``/``under_w`` as a DFS problem
    starting at the current trick (see the module's docstring).

    ``up``: the card beneath the dummy's face-up card played in this trick (-1: none or no
    dummy play yet).  Fills ``hands0`` (5), ``under0`` (40), the open tasks' ``tcard``,
    ``towner``, ``tpred`` (predecessor masks over the open tasks), the trick's cards in
    ``prefix``, ``obj`` = (kind, p1, p2, d1, d2, omega_mask, omega_last) and ``table_pos`` =
    (seats, tricks left, leader, dummy, open tasks, cards in the trick).  False when the
    mission's objective cannot be stated (``check_mission`` refuses those first)."""
    g = S.g
    seats, leader, nin, dummy = g[G_SEATS], g[G_LEADER], g[G_NIN], g[G_DUMMY]
    _hands_and_trick(S, hands_w, under_w, up, hands0, under0, prefix)
    n, omega_mask = _open_tasks(S, tcard, towner, tpred)
    kind, p1 = _objective(S)
    if kind < 0:
        return False
    obj[0], obj[1], obj[2] = kind, p1, 0
    obj[3], obj[4] = S.desig[0], S.desig[1]
    obj[5], obj[6] = omega_mask, S.mp[MP_OMEGA_LAST]
    table_pos[0], table_pos[1], table_pos[2] = seats, g[G_NT] - g[G_T], leader
    table_pos[3], table_pos[4], table_pos[5] = dummy, n, nin
    return True


@njit(cache=True)
def _hands_and_trick(S, hands_w, under_w, up, hands0, under0, prefix):
    """The world's hands with each seat's card of the trick in progress back in its hand (the
    dummy's with ``up`` beneath it), and those cards in order as the line's prefix."""
    g = S.g
    seats, leader, dummy = g[G_SEATS], g[G_LEADER], g[G_DUMMY]
    for s in range(5):
        hands0[s] = hands_w[s] if s < seats else 0
    for c in range(40):
        under0[c] = under_w[c]
    for k in range(g[G_NIN]):
        s = seat_after(leader, k, seats)
        c = S.trick[k]
        hands0[s] |= np.int64(1) << c
        prefix[k] = c
        if s == dummy and up >= 0:
            under0[c] = up


@njit(cache=True)
def _open_tasks(S, tcard, towner, tpred):
    """The tasks not done yet, in draw order, with the order among them (a done task has no
    say in the rest); returns their count and the mask of the omega task among them."""
    g = S.g
    index = np.full(MAX_TASKS, -1, dtype=np.int64)
    n = 0
    omega_mask = np.int64(0)
    for i in range(g[G_NTASK]):
        if g[G_DONE] >> i & 1:
            continue
        index[i] = n
        tcard[n], towner[n] = S.tcard[i], S.towner[i]
        if S.ttok[i] == OMEGA_CODE:
            omega_mask |= np.int64(1) << n
        n += 1
    for i in range(g[G_NTASK]):
        if index[i] < 0:
            continue
        pred = np.int64(0)
        for j in range(g[G_NTASK]):
            if index[j] >= 0 and S.tpred[i] >> j & 1:
                pred |= np.int64(1) << index[j]
        tpred[index[i]] = pred
    return n, omega_mask


@njit(cache=True)
def _objective(S):
    """(kind, p1) of the special objective still to meet from this trick on (0: none); kind
    -1 for one whose state the DFS cannot start from."""
    g, mp = S.g, S.mp
    if mp[MP_NOBJ] != 1 or S.obj_done[0]:
        return 0, 0
    kind, a = mp[MP_OBJ], mp[MP_OBJ + 1]
    if kind == OBJ_NO_TRICKS:
        return kind, 0
    if kind == OBJ_NO_RANK:
        return kind, a
    if kind == OBJ_PINK:
        return kind, g[G_PINK_TARGET]
    if kind == OBJ_ONES:  # the colour ones still to win
        left = a - g[G_ONES_WINS]
        return (kind, left) if left > 0 else (0, 0)
    return -1, 0


@njit(cache=True)
def solve_position(
    hands0,
    under0,
    tcard,
    towner,
    tpred,
    prefix,
    n_prefix,
    obj,
    table_pos,
    budget,
    tkeys,
    gen,
    st,
    tof,
    line,
    scr,
):
    """The DFS's verdict (``FEASIBLE``/``INFEASIBLE``/``UNKNOWN``) on an encoded position whose
    line starts with ``prefix[:n_prefix]``; memo stamp ``gen[0]`` (raised by one)."""
    v, _nodes = search(
        hands0,
        under0,
        table_pos[0],
        table_pos[1],
        table_pos[2],
        table_pos[3],
        tcard,
        towner,
        tpred,
        table_pos[4],
        obj[5],
        obj[6] != 0,
        obj[0],
        obj[1],
        obj[2],
        obj[3],
        obj[4],
        budget,
        tkeys,
        gen[0],
        st,
        tof,
        line,
        1,
        scr,
        prefix,
        n_prefix,
    )
    gen[0] += 1
    return v


@njit(cache=True)
def new_scratch():
    """The DFS's arrays and the encoder's, allocated once per chunk."""
    return (
        np.zeros((TABLE_ROWS, KEY_W), dtype=np.int64),  # tkeys
        np.ones(1, dtype=np.int64),  # gen
        np.zeros((MAXD, NCOL), dtype=np.int64),  # st
        np.zeros(40, dtype=np.int64),  # tof
        np.full(64, -1, dtype=np.int64),  # line
        np.zeros(SCR, dtype=np.int64),  # scr
        np.zeros(5, dtype=np.int64),  # hands0
        np.zeros(40, dtype=np.int64),  # under0
        np.zeros(MAX_TASKS, dtype=np.int64),  # tcard
        np.zeros(MAX_TASKS, dtype=np.int64),  # towner
        np.zeros(MAX_TASKS, dtype=np.int64),  # tpred
        np.full(MAXD, -1, dtype=np.int64),  # prefix
        np.zeros(7, dtype=np.int64),  # obj
        np.zeros(6, dtype=np.int64),  # table_pos
    )


@njit(cache=True)
def world_values(S, scratch, hands_w, under_w, up, options, budget, values):
    """Per option, 1 when the crew can still win in this world after playing it, 0 when it
    cannot, 0.5 when the DFS's budget left it open (``values``).  One DFS of the position
    before the play first: a lost position loses with every card, a won one names a winning
    card."""
    tkeys, gen, st, tof, line, scr = (
        scratch[0],
        scratch[1],
        scratch[2],
        scratch[3],
        scratch[4],
        scratch[5],
    )
    hands0, under0, tcard, towner = scratch[6], scratch[7], scratch[8], scratch[9]
    tpred, prefix, obj, tp = scratch[10], scratch[11], scratch[12], scratch[13]
    if not encode_position(
        S, hands_w, under_w, up, hands0, under0, tcard, towner, tpred, prefix, obj, tp
    ):
        for i in range(len(options)):
            values[i] = 0.5
        return
    nin = tp[5]
    base = solve_position(
        hands0, under0, tcard, towner, tpred, prefix, nin, obj, tp, budget, tkeys, gen, st,
        tof, line, scr,
    )  # fmt: skip
    if base == INFEASIBLE:
        for i in range(len(options)):
            values[i] = 0.0
        return
    winner = line[nin] if base == FEASIBLE else -1
    for i in range(len(options)):
        if options[i] == winner:
            values[i] = 1.0
            continue
        prefix[nin] = options[i]
        v = solve_position(
            hands0, under0, tcard, towner, tpred, prefix, nin + 1, obj, tp, budget, tkeys,
            gen, st, tof, line, scr,
        )  # fmt: skip
        values[i] = 1.0 if v == FEASIBLE else (0.5 if v == UNKNOWN else 0.0)


@njit(cache=True)
def pimc_decision(S, scratch, oracle):
    """The card the PIMC crew plays where the game ``S`` stopped, into ``G_FORCE``.

    ``oracle`` (tests): one world, the real deal, instead of the sampled ones."""
    g, bp, mp = S.g, S.bp, S.mp
    seat = seat_after(g[G_LEADER], g[G_NIN], g[G_SEATS])
    legal = legal_cards(S)
    preferred = crew_card(S, bp, mp, g, seat, legal, mp[MP_GAME] == 1)  # the heuristic's
    n = popcount(legal)
    options = np.zeros(n, dtype=np.int64)
    rest = legal
    for i in range(n):
        options[i] = lowest(rest)
        rest &= rest - 1
    holder = np.zeros(MAX_HOLDERS, dtype=np.int64)
    need = np.zeros(MAX_HOLDERS, dtype=np.int64)
    allowed = np.zeros(MAX_HOLDERS, dtype=np.int64)
    dealt = np.zeros(MAX_HOLDERS, dtype=np.int64)
    m, pool = holders_of(S, decider(S, seat), holder, need, allowed)
    total = np.zeros(n)
    values = np.zeros(n)
    world_hands = np.zeros(5, dtype=np.int64)
    world_under = np.zeros(40, dtype=np.int64)
    worlds, budget = int(bp[BP_PIMC_WORLDS]), int(bp[BP_PIMC_BUDGET])
    done = 0
    chained = False
    if oracle:
        worlds = 0
        world_values(S, scratch, S.hands, S.under, g[G_UNCOVER], options, budget, total)
        done = 1
    for _ in range(worlds):
        how = sample_holders(pool, need, allowed, m, REJECTION_TRIES, chained, dealt, S.rng)
        if how == 0:
            break
        chained = True
        S.search_stats[SS_CHAINED] += how == 2
        world_hands[:] = S.hands
        world_under[:] = S.under
        place_world(S, holder, m, dealt, world_hands, world_under, S.rng)
        up = uncovered_of(holder, m, dealt)
        world_values(S, scratch, world_hands, world_under, up, options, budget, values)
        for i in range(n):
            total[i] += values[i]
        done += 1
    S.search_stats[SS_DECISIONS] += 1
    S.search_stats[SS_WORLDS] += done
    S.search_stats[SS_ROLLOUTS] += done * n
    best, top = preferred, -1.0
    for i in range(n):
        score = total[i] + (0.25 if options[i] == preferred else 0.0)  # ties: the heuristic's
        if score > top:
            best, top = options[i], score
    g[G_FORCE] = 1 + best


@njit(cache=True)
def pimc_chunk(
    state,
    mp_in,
    bp_in,
    ds_tab_in,
    ds_code_in,
    n,
    seed,
    success,
    fail_trick,
    fail_kind,
    fail_detail,
    distress,
    record,
    r_hands,
    r_under,
    r_tasks,
    r_pick,
    r_setup,
    r_comms,
    r_draws,
    r_plays,
    r_ds,
    redeals,
    repairs,
    ds_cards,
    ds_owners,
    oracle,
):
    """``engine.play.play_chunk`` for the PIMC crew: every card play with a choice stops the
    game and is decided by ``pimc_decision``."""
    S = state[0]
    S.mp[:] = mp_in
    S.bp[:] = bp_in
    S.ds_tab[:] = ds_tab_in
    S.ds_code[:] = ds_code_in
    scratch = new_scratch()
    deep = mp_in[MP_GAME] == 1
    g, res = S.g, S.res
    S.rng[0] = seed
    for gi in range(n):
        ri = gi if record else 0
        d = set_up_game(
            S,
            seed,
            gi,
            record,
            ri,
            r_hands,
            r_under,
            r_tasks,
            r_pick,
            r_setup,
            r_ds,
            ds_cards,
            ds_owners,
        )
        distress[gi] = d != 0
        while play_tricks(S, deep, True, record, ri, r_comms, r_draws, r_plays, 0):
            pimc_decision(S, scratch, oracle)
        success[gi] = res[0] == 1
        redeals[gi] = g[G_REDEALS]
        repairs[gi] = g[G_REPAIRS]
        fail_trick[gi] = g[G_T]
        fail_kind[gi] = res[1] if res[0] == 2 else 0
        fail_detail[gi] = res[2] if res[0] == 2 else -1
        if record:
            for k in range(g[G_NPLAYS], r_plays.shape[1]):
                r_plays[ri, k] = -1


def run_pimc_chunk(
    mp: np.ndarray,
    bp: np.ndarray,
    n: int,
    seed: int,
    record: bool = False,
    state: np.recarray | None = None,
    oracle: bool = False,
) -> dict[str, np.ndarray]:
    """``engine.run.run_chunk`` for the PIMC crew: the same arguments and result arrays
    (``oracle``, for tests: each decision sees the real deal instead of sampled worlds).
    Raises CrewsimError for a mission the crew cannot play (``check_mission``)."""
    check_mission(mp, "")
    return play_with(pimc_chunk, mp, bp, n, seed, record, state, oracle)


@njit(cache=True)
def position_verdicts(state, mp_in, bp_in, ds_tab_in, ds_code_in, n, seed, budget, out):
    """Tests: play ``n`` games of the crew ``bp_in`` (the heuristic or random crew: their
    games come out as ``engine.run.run_chunk`` plays them) and at each card play with a choice
    ask the encoder and DFS, on the real deal, about each legal card.  Row ``k`` of ``out``:
    (game, cards played before, card, verdict); returns the rows written."""
    S = state[0]
    S.mp[:] = mp_in
    S.bp[:] = bp_in
    S.ds_tab[:] = ds_tab_in
    S.ds_code[:] = ds_code_in
    scratch = new_scratch()
    deep = mp_in[MP_GAME] == 1
    g = S.g
    S.rng[0] = seed
    e = np.zeros((1, 1), dtype=np.int64)
    e8 = np.zeros((1, MAX_DS), dtype=np.int8)
    e3 = np.zeros((1, 1, 1), dtype=np.int64)
    rows = 0
    for gi in range(n):
        set_up_game(S, seed, gi, False, 0, e, e3, e3, e, e, e, e8, e8)
        while play_tricks(S, deep, True, False, 0, e3, e, e, 0):
            seat = seat_after(g[G_LEADER], g[G_NIN], g[G_SEATS])
            legal = legal_cards(S)
            k = popcount(legal)
            options = np.zeros(k, dtype=np.int64)
            values = np.zeros(k)
            rest = legal
            for i in range(k):
                options[i] = lowest(rest)
                rest &= rest - 1
            world_values(S, scratch, S.hands, S.under, g[G_UNCOVER], options, budget, values)
            for i in range(k):
                if rows < out.shape[0]:
                    out[rows, 0], out[rows, 1], out[rows, 2] = gi, g[G_NPLAYS], options[i]
                    out[rows, 3] = int(2 * values[i])  # 0 lost, 1 open, 2 winnable
                    rows += 1
            g[G_FORCE] = 1 + crew_card(S, S.bp, S.mp, g, seat, legal, deep)
    return rows


def runner(bp: np.ndarray) -> Callable[..., dict[str, np.ndarray]]:
    """The chunk function that plays crew ``bp``: this module's for the PIMC crew, else the
    engine's ``run_chunk``."""
    if int(bp[BP_KIND]) == PIMC:
        return run_pimc_chunk
    from crewsim.engine.run import run_chunk

    return run_chunk
