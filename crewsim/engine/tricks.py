"""The tricks of one game, from wherever it stands to its end, in numba.

``play_tricks`` keeps its place in the game's scalar vector (``G_T``, ``G_NIN``, ``G_PLAYING``),
so a game can stop at a decision and go on later: the search crew stops the real game at each
of its card plays, plays copies of it forward in sampled worlds (``engine.search``), then
resumes it with the card it chose (``G_FORCE``).
"""

import numpy as np

from crewsim.bots.crew import choose_comm, choose_play
from crewsim.kernel.bits import (
    BEATS,
    FULL,
    SUIT,
    follow_suit,
    highest,
    lowest,
    popcount,
    rand_card,
    seat_after,
    suit_of,
    value_of,
)
from crewsim.kernel.jit import compiled, copy_into, inlined
from crewsim.kernel.judge import judge_deep, judge_trick
from crewsim.kernel.layout import (
    BP_COMM,
    BP_SEARCH_COMM,
    COMM_DEAD_ZONE,
    COMM_NONE,
    COMM_RAPTURE,
    DEC_COMM,
    DEC_PLAY,
    G_CMD,
    G_COMM,
    G_COMM_K,
    G_COMM_LEFT,
    G_COMM_UNTIL,
    G_D_TRUMP,
    G_DUMMY,
    G_FIRST_CMD,
    G_FIRST_WINNER,
    G_FORCE,
    G_FORCE_COMM,
    G_LEADER,
    G_NCOMMS,
    G_NIN,
    G_NPLAYS,
    G_NT,
    G_ONES_WINS,
    G_PLAYED,
    G_PLAYING,
    G_PROBED,
    G_SEATS,
    G_SILENCED,
    G_T,
    G_TRICKMASK,
    G_TRUMP_WINS,
    G_UNCOVER,
    MP_COMM_FROM,
    MP_DRAW_AFTER,
    PR_VALUE,
)
from crewsim.kernel.probe_point import probe_point


@compiled
def _true_claim(hand, c):
    """0 highest, 1 only, 2 lowest, -1 neither (the kernel's twin of rules.game.true_claim)."""
    same = hand & SUIT[suit_of(c)]
    if popcount(same) == 1:
        return 1
    if same >> (c + 1) == 0:
        return 0
    if same & ((np.int64(1) << c) - 1) == 0:
        return 2
    return -1


@compiled
def showable(hand):
    """The cards a seat may communicate: the highest, only or lowest of a colour it holds."""
    out = np.int64(0)
    for suit in range(4):
        same = hand & SUIT[suit]
        if same:
            out |= (np.int64(1) << lowest(same)) | (np.int64(1) << highest(same))
    return out


@compiled
def _communicate(S, bp, mp, stop, record, ri, r_comms):
    """Each seat in turn from the leader may show a card before the trick; True when it
    stopped instead at a seat with a choice (``stop``: the search crew decides those)."""
    g, hands, comm_used = S.g, S.hands, S.comm_used
    seats = g[G_SEATS]
    for k in range(g[G_COMM_K], seats):
        g[G_COMM_K] = k
        s = seat_after(g[G_LEADER], k, seats)
        if s == g[G_DUMMY] or s == g[G_SILENCED]:
            continue
        if g[G_COMM] == COMM_RAPTURE:
            if g[G_COMM_LEFT] == 0:
                continue
        elif comm_used[s]:
            continue
        if g[G_FORCE_COMM]:
            c = _take_forced(S, G_FORCE_COMM, 2)
        else:
            probed = probe_point(S, DEC_COMM, s, g[G_NCOMMS])
            if stop and bp[BP_SEARCH_COMM] and bp[BP_COMM] and showable(hands[s]) & ~S.known[s]:
                g[G_PROBED] = probed
                return True
            c = choose_comm(S, bp, g, mp, s, hands[s], S.known[s])
            if probed:
                S.probe[PR_VALUE] = c
        if c >= 0:
            comm_used[s] = 1
            _tell(S, s, c, record, ri, r_comms)
    g[G_COMM_K] = 0
    return False


@inlined
def _take_forced(S, slot, offset):
    """The choice the search made at the decision the game stopped at (``g[slot]`` holds it
    plus ``offset``), noted for the honesty probe when it watches that decision."""
    g = S.g
    c = g[slot] - offset
    g[slot] = 0
    if g[G_PROBED]:
        S.probe[PR_VALUE] = c
        g[G_PROBED] = 0
    return c


@compiled
def _tell(S, s, c, record, ri, r_comms):
    """Seat ``s`` shows ``c`` with the claim its hand makes true; everyone learns from it."""
    g = S.g
    n_comms = g[G_NCOMMS]
    claim = _true_claim(S.hands[s], c)
    g[G_COMM_LEFT] -= 1
    _reveal(g, S.possible, S.known, s, c, claim)
    if record and n_comms < r_comms.shape[1]:
        r_comms[ri, n_comms, 0], r_comms[ri, n_comms, 1] = s, c
        r_comms[ri, n_comms, 2], r_comms[ri, n_comms, 3] = claim, g[G_T]
    g[G_NCOMMS] = n_comms + 1


@inlined
def _reveal(g, possible, known, s, c, claim):
    """What everyone learns when seat ``s`` shows ``c``: where it lies and, but in the dead
    zone, which cards of its colour the claim rules out of that hand."""
    known[s] |= np.int64(1) << c
    for q in range(g[G_SEATS]):
        if q != s:
            possible[q] &= ~(np.int64(1) << c)
    if g[G_COMM] != COMM_DEAD_ZONE:
        same = SUIT[suit_of(c)]
        if claim == 0:
            possible[s] &= ~(same & BEATS[c])
        elif claim == 2:
            possible[s] &= ~(same & ((np.int64(1) << c) - 1))
        else:
            possible[s] &= ~(same & ~(np.int64(1) << c))


@inlined
def legal_cards(S):
    """The cards the seat to play may play now (it must follow the led suit if it can)."""
    g = S.g
    hand = S.hands[seat_after(g[G_LEADER], g[G_NIN], g[G_SEATS])]
    return follow_suit(hand, SUIT[suit_of(S.trick[0])] if g[G_NIN] > 0 else np.int64(0))


@inlined
def _play_card(S, s, k, c, record, ri, r_plays):
    """Seat ``s`` plays ``c`` as the ``k``-th card of the trick; what everyone learns from it."""
    g, possible = S.g, S.possible
    seats = g[G_SEATS]
    bit = np.int64(1) << c
    S.hands[s] &= ~bit
    S.trick[k] = c
    g[G_PLAYED] |= bit
    g[G_TRICKMASK] |= bit
    for q in range(seats):
        possible[q] &= ~bit
    S.known[s] &= ~bit
    if k > 0 and suit_of(c) != suit_of(S.trick[0]):
        possible[s] &= ~SUIT[suit_of(S.trick[0])]
    if s == g[G_DUMMY] and S.under[c] >= 0:
        g[G_UNCOVER] = S.under[c]
        S.under[c] = -1
    if record:
        r_plays[ri, g[G_NPLAYS]] = c
    g[G_NPLAYS] += 1


@inlined
def _end_trick(S, mp, deep):
    """The trick's winner takes it, the dummy turns up its card, the judges look."""
    g, won, trick, desig, possible = S.g, S.won, S.trick, S.desig, S.possible
    seats = g[G_SEATS]
    g[G_NIN] = seats
    wi = 0
    for k in range(1, seats):
        if BEATS[trick[wi]] >> trick[k] & 1:
            wi = k
    leader = g[G_LEADER]
    winner = seat_after(leader, wi, seats)
    wcard = trick[wi]
    won[winner] += 1
    S.won_cards[winner] |= g[G_TRICKMASK]
    if g[G_T] == 0:
        g[G_FIRST_WINNER] = winner
        if winner == g[G_CMD]:
            g[G_FIRST_CMD] = 1
    if wcard >= 36:
        g[G_TRUMP_WINS] += 1
        if winner == desig[0]:
            g[G_D_TRUMP] = 1
    elif value_of(wcard) == 1:
        g[G_ONES_WINS] += 1
    g[G_LEADER] = winner
    uncover = g[G_UNCOVER]
    if uncover >= 0:
        ub = np.int64(1) << uncover
        S.hands[g[G_DUMMY]] |= ub
        possible[g[G_DUMMY]] |= ub
        for q in range(seats):
            if q != g[G_DUMMY]:
                possible[q] &= ~ub
    judge_trick(
        g,
        mp,
        trick,
        winner,
        wcard,
        S.tcard,
        S.towner,
        S.tpred,
        S.ttok,
        won,
        S.won_cards,
        desig,
        S.obj_done,
        S.res,
    )
    if deep:
        judge_deep(S, g, trick, leader, winner, wcard, won, S.hands, S.res)


@compiled
def _before_trick(S, bp, mp, t, stop, record, ri, r_comms, r_draws):
    """Trick ``t``'s communications and pn-12's draw, then the trick opens; True when a
    communication stopped it (``stop``)."""
    g = S.g
    open_now = g[G_COMM_UNTIL] == 0 or t < g[G_COMM_UNTIL]
    talk = g[G_COMM] != COMM_NONE and t + 1 >= mp[MP_COMM_FROM] and open_now
    if talk and _communicate(S, bp, mp, stop, record, ri, r_comms):
        return True
    if mp[MP_DRAW_AFTER] > 0 and t == mp[MP_DRAW_AFTER]:
        _draw_round(g, S.hands, S.under, S.known, S.possible, S.passes, S.rng)
        if record:
            copy_into(r_draws[ri, : g[G_SEATS]], S.passes[: g[G_SEATS]])
    g[G_UNCOVER] = -1
    g[G_TRICKMASK] = 0
    g[G_NIN] = 0
    g[G_PLAYING] = 1
    return False


@compiled
def play_tricks(S, deep, stop, record, ri, r_comms, r_draws, r_plays, until):
    """Play on from where the game stands until it is decided, or ``until`` tricks are left
    (at a trick's start); True when it stopped instead at a card play or a communication with
    a choice (``stop``: the search crew decides those itself; ``G_PLAYING`` tells which)."""
    mp, bp, g = S.mp, S.bp, S.g
    seats = g[G_SEATS]
    for t in range(g[G_T], g[G_NT]):
        g[G_T] = t
        if not g[G_PLAYING]:
            if g[G_NT] - t <= until:
                return False
            if _before_trick(S, bp, mp, t, stop, record, ri, r_comms, r_draws):
                return True
        for k in range(g[G_NIN], seats):
            s = seat_after(g[G_LEADER], k, seats)
            g[G_NIN] = k
            if g[G_FORCE]:
                c = _take_forced(S, G_FORCE, 1)
            else:
                probed = probe_point(S, DEC_PLAY, s, g[G_NCOMMS])  # (it may re-deal the hands)
                legal = legal_cards(S)
                if stop and legal & (legal - 1):
                    g[G_PROBED] = probed
                    return True
                c = crew_card(S, bp, mp, g, s, legal, deep)
                if probed:
                    S.probe[PR_VALUE] = c
            _play_card(S, s, k, c, record, ri, r_plays)
        _end_trick(S, mp, deep)
        g[G_PLAYING] = 0
        if S.res[0] != 0:
            break
    return False


@inlined
def crew_card(S, bp, mp, g, s, legal, deep):
    """The card the crew's own policy plays (the random or heuristic crew's), always legal
    (``deep``: a Deep Sea game, a constant where the game loop is compiled for one game)."""
    viewer = S.hands[g[G_CMD]] if s == g[G_DUMMY] else np.int64(0)
    c = choose_play(
        S,
        bp,
        mp,
        g,
        s,
        S.hands[s],
        legal,
        viewer,
        S.trick,
        S.won,
        S.desig,
        S.possible,
        S.known,
        S.ct,
        S.tpred,
        S.want,
        S.rng,
        deep,
    )
    if c < 0 or not (legal >> c & 1):
        c = lowest(legal)
    return c


@compiled
def _draw_round(g, hands, under, known, possible, drawn, st):
    """Every seat takes one random card from the hand of the seat on its right, all at once.

    A communicated card (``known``: face up on the table) stays with its holder.  The dummy
    gives one of its face-down cards and takes the new card face down in its place.  What the
    crew knew stays true but for the one card each seat drew from its right."""
    seats, dummy = g[G_SEATS], g[G_DUMMY]
    hidden = FULL & ~g[G_PLAYED]
    face_down = np.int64(0)
    for c in range(40):
        if under[c] >= 0:
            face_down |= np.int64(1) << under[c]
    for s in range(seats):
        right = (s - 1) % seats
        pool = face_down if right == dummy else hands[right] & ~known[right]
        if pool == 0:  # a search rollout's world can leave only known cards; draw one of them
            pool = hands[right]
        drawn[s] = rand_card(st, pool)
    for s in range(seats):
        hands[(s - 1) % seats] &= ~(np.int64(1) << drawn[s])
    for s in range(seats):
        if s == dummy:
            gave = drawn[(s + 1) % seats]
            for c in range(40):
                if under[c] == gave:
                    under[c] = drawn[s]
        else:
            hands[s] |= np.int64(1) << drawn[s]
    wrapped = possible[seats - 1]  # seat 0's right, before it changes
    for s in range(seats - 1, -1, -1):  # each seat reads its right neighbour's old knowledge
        right = (s - 1) % seats
        if s == dummy:
            continue
        if right == dummy:  # one of the face-down cards, which nobody has seen
            possible[s] |= hidden & ~hands[dummy]
        else:
            possible[s] |= (wrapped if s == 0 else possible[right]) & ~known[right]
