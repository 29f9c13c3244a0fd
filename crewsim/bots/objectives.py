"""The special objectives (``mp[MP_OBJ]``: colour 1s must win, a rank kept balanced, the pink
target, the omega task last, the members named for given tricks, Deep Sea's mission rules):
which ones a mission has, and what each makes of a card led or played.  How they steer who
takes the trick is in ``want``."""

import numpy as np

from crewsim.bots.hand import spent
from crewsim.bots.view import holder, only_with
from crewsim.bots.weights import (
    BIG,
    FAIL,
    FORBIDDEN_RANK_GONE,
    FORCE_HOLDER,
    FORCE_HOLDER_SHORT,
    OMEGA_HOLDER_SHED,
    OMEGA_HOLDER_SHED_SUB,
    ONE_LOST,
    ONE_WINS,
    ONES_CLEAR,
    ONES_KEEP_GUARD,
    ONES_SHED,
    ONES_SHED_OTHER,
    ONES_SHED_VALUE,
    ONES_SHOWN,
    PINK_TO_TARGET,
    PINK_TO_TARGET_VALUE,
    RANK_LED,
    RANK_NEEDY,
    RANK_NEEDY_FOLLOW,
    RANK_TO_OTHER,
    RANK_TOPPED_PAST,
    TRAIL_SHED,
    TRAIL_SHED_SUB,
    TRUMP_TRICK,
)
from crewsim.kernel.bits import (
    BEATS,
    ONES,
    SUIT,
    TRUMPS,
    highest,
    popcount,
    seat_after,
    suit_of,
    value_of,
)
from crewsim.kernel.jit import compiled, inlined
from crewsim.kernel.layout import (
    G_FIRST_WINNER,
    G_LEADER,
    G_NIN,
    G_NT,
    G_NTASK,
    G_ONES_WINS,
    G_PINK_TARGET,
    G_PLAYED,
    G_SEATS,
    G_T,
    G_TRICKMASK,
    G_TRUMP_WINS,
    MP_NOBJ,
    MP_OBJ,
    MP_OMEGA_LAST,
    OBJ_CARD_LAST,
    OBJ_FIRST_LAST,
    OBJ_FIRST_MOST,
    OBJ_NO_RANK,
    OBJ_NO_TRICKS,
    OBJ_ONE_TRICK,
    OBJ_ONES,
    OBJ_PINK,
    OBJ_ROLES,
    OBJ_TRUMPS,
    OMEGA_CODE,
)


@compiled
def objective_of(mp, kind):
    """The index of the mission's objective of ``kind``, or -1."""
    for k in range(mp[MP_NOBJ]):
        if mp[MP_OBJ + 3 * k] == kind:
            return k
    return -1


@inlined
def names_member(mp):
    """Whether an objective names crew members who must win given tricks and no others
    (missions 5, 33, 41 and 50): seats to keep from being forced to take a trick."""
    for k in range(mp[MP_NOBJ]):
        kind = mp[MP_OBJ + 3 * k]
        if (
            kind == OBJ_NO_TRICKS
            or kind == OBJ_ONE_TRICK
            or kind == OBJ_FIRST_LAST
            or kind == OBJ_ROLES
        ):
            return True
    return False


@inlined
def takes_first(mp, desig, me):
    """Am I the member named to win the first trick (pn-41 first and last only, pn-50's first
    tricks)?"""
    return me == desig[0] and (objective_of(mp, 7) >= 0 or objective_of(mp, 9) >= 0)


@inlined
def one_to_show(g, mp, hand):
    """Missions 9 and 26: my 1 of the colour I hold most of (at least ``ONES_SHOWN`` of a hand's
    cards), or -1.  Shown, it tells the crew whose colour to strip and whom to give the lead."""
    k = objective_of(mp, 2)
    if k < 0 or g[G_ONES_WINS] >= mp[MP_OBJ + 3 * k + 1]:
        return np.int64(-1)
    best, best_c = np.ceil(ONES_SHOWN * g[G_NT]) - 1, np.int64(-1)
    for u in range(4):
        same = hand & SUIT[u]
        if same >> (9 * u) & 1 and popcount(same) > best:
            best, best_c = popcount(same), np.int64(9 * u)
    return best_c


@inlined
def ones_want(g, me, hand, possible, want):
    """Missions 9 and 26: the holder of a 1 whose colour the others no longer hold should get
    the lead (public knowledge only: my own 1, or a 1 whose holder is shown or given away by
    the play, no other hand I can tell may hold its colour)."""
    played = g[G_PLAYED]
    for u in range(4):
        one = np.int64(1) << (9 * u)
        if played & one:
            continue
        rest = SUIT[u] & ~one & ~played
        if hand & one:
            if rest & ~hand == 0:
                want[me] += ONES_CLEAR
        elif rest & hand == 0:
            h = holder(hand, possible, me, g[G_SEATS], 9 * u)
            if h >= 0 and only_with(possible, me, g[G_SEATS], h, rest):
                want[h] += ONES_CLEAR


@inlined
def _ones_length(g, hand, c, shown):
    """Missions 9 and 26 (colour 1s must win): a 1 wins only once the others are void in its colour,
    so I shed the colour of another seat's 1 (first a shown one's), and keep the length guarding
    my own."""
    one = 9 * suit_of(c)
    if hand >> one & 1:
        return -ONES_KEEP_GUARD
    if g[G_PLAYED] >> one & 1:
        return 0.0
    return (ONES_SHED if shown >> one & 1 else ONES_SHED_OTHER) + ONES_SHED_VALUE * value_of(c)


@inlined
def _keeps_last_pink(g, hand, c):
    """Mission 46 with three players: the seat dealt 14 cards never plays one, and a pink
    kept to the end need not be won, so it keeps its last pink ``c`` as that card."""
    spare = popcount(hand) > g[G_NT] - g[G_T]
    return spare and hand & SUIT[0] == np.int64(1) << c


@inlined
def pink_target(g, mp):
    """The seat that must win every pink (mission 46), or -1."""
    for k in range(mp[MP_NOBJ]):
        if mp[MP_OBJ + 3 * k] == 8:
            return g[G_PINK_TARGET]
    return -1


@inlined
def sheds_high(mp, me, desig, won):
    """Whether I am the chosen member who must win exactly one trick (pn-33) and have won
    it: every high card left could win another."""
    for k in range(mp[MP_NOBJ]):
        if mp[MP_OBJ + 3 * k] == 6 and me == desig[0] and won[me] >= 1:
            return True
    return False


@inlined
def sheds_trumps(g, mp, me, desig, ct, omega):
    """Whether my trumps should go before the last trick, where one could beat the seat that
    must take it: the omega task's owner (pn-48), the chosen member who may not win it with a
    rocket (pn-41)."""
    if omega >= 0:
        return ct[omega] != me
    if g[G_NT] - 4 <= g[G_T] < g[G_NT] - 1:  # (earlier they keep the lead away from it)
        for k in range(mp[MP_NOBJ]):
            if mp[MP_OBJ + 3 * k] == 7 and mp[MP_OBJ + 3 * k + 1] and me != desig[0]:
                return True
    return False


@inlined
def omega_early(S, g, mp):
    """Mission 48: the card of the omega task, which falls too early before the last trick;
    -1 in the last trick or without that rule."""
    if mp[MP_OMEGA_LAST] and g[G_T] < g[G_NT] - 1:
        for i in range(g[G_NTASK]):
            if S.ttok[i] == OMEGA_CODE:
                return S.tcard[i]
    return -1


@inlined
def omega_keeper(ct, me, hand, omega):
    """Mission 48: the card the omega task's owner keeps to take the last trick with (its top
    trump, else its top card above the task card), or -1."""
    if omega < 0 or ct[omega] != me or hand >> omega & 1:
        return -1
    if hand & TRUMPS:
        return highest(hand & TRUMPS)
    above = hand & SUIT[suit_of(omega)] & BEATS[omega]
    return highest(above) if above else -1


@compiled
def rank_spread(S, g, rank, s, n):
    """(the spread of rank-card wins if seat ``s`` took ``n`` more, whether ``s`` has fewest)."""
    lo, hi, least = np.int64(99), np.int64(0), np.int64(99)
    for q in range(g[G_SEATS]):
        k = popcount(S.won_cards[q] & rank)
        least = min(least, k)
        if q == s:
            k += n
        lo = min(lo, k)
        hi = max(hi, k)
    return hi - lo, popcount(S.won_cards[s] & rank) == least


@compiled
def rank_follow(S, g, mp, k, me, c, wseat, risk):
    """Playing rank card ``c`` into a trick ``wseat`` would take: never past the allowed
    spread; best to a seat with the fewest such wins, which must catch up anyway, unless a
    seat still to play (``risk``: that one overtakes) has no room for it."""
    a, b = mp[MP_OBJ + 3 * k + 1], mp[MP_OBJ + 3 * k + 2]
    if c >= 36 or value_of(c) != a:
        return 0.0
    rank = ONES << (a - 1)
    n = popcount(g[G_TRICKMASK] & rank) + 1
    spread, needy = rank_spread(S, g, rank, wseat, n)
    if spread > b:
        return -FAIL * BIG
    sc = (RANK_NEEDY_FOLLOW if needy else 0.0) + (RANK_TO_OTHER if wseat != me else 0.0)
    if risk > 0.0:
        for j in range(g[G_NIN] + 1, g[G_SEATS]):
            if rank_spread(S, g, rank, seat_after(g[G_LEADER], j, g[G_SEATS]), n)[0] > b:
                return sc * (1.0 - risk) - FAIL * BIG * risk
    return sc


@compiled
def rank_lead(S, g, mp, k, me, c, mine, possible, top, short):
    """Leading colour card ``c`` under the rank balance: a ``top`` card takes its colour's rank
    card if that is forced out (likely when the colour is ``short`` in the other hands), a rank
    card led goes to whoever tops it; either must not stretch the spread."""
    a, b = mp[MP_OBJ + 3 * k + 1], mp[MP_OBJ + 3 * k + 2]
    rank = ONES << (a - 1)
    s = suit_of(c)
    if value_of(c) == a:
        if top:
            spread, needy = rank_spread(S, g, rank, me, 1)
            return -BIG if spread > b else (RANK_NEEDY if needy else 0.0)
        for q in range(g[G_SEATS]):  # someone tops it: each seat that may must have room
            if q != me and possible[q] & ~g[G_PLAYED] & SUIT[s] & BEATS[c]:
                if rank_spread(S, g, rank, q, 1)[0] > b:
                    return -RANK_TOPPED_PAST
        return RANK_LED
    r = 9 * s + a - 1  # the colour's rank card, out in another hand
    if (mine | g[G_PLAYED]) >> r & 1:
        return 0.0
    penalty = FORCE_HOLDER_SHORT if short else FORCE_HOLDER
    if SUIT[s] & BEATS[r] & ~g[G_PLAYED] == 0:  # the top one left: its holder takes it
        for q in range(g[G_SEATS]):
            if q != me and possible[q] >> r & 1 and rank_spread(S, g, rank, q, 1)[0] > b:
                return -penalty
        return 0.0
    if top and rank_spread(S, g, rank, me, 1)[0] > b:  # dropped under my top card
        return -penalty
    return 0.0


@inlined
def objective_score(g, mp, me, c, winner, wcard, desig, risk, hand, shown):
    """Special objectives' view of card ``c`` going to ``winner`` with ``wcard`` on top
    (``risk``: that a seat still to play takes the trick over; ``shown``: cards the others
    have shown and still hold)."""
    sc = 0.0
    for k in range(mp[MP_NOBJ]):
        kind, a = mp[MP_OBJ + 3 * k], mp[MP_OBJ + 3 * k + 1]
        if kind == OBJ_ONES:
            wins = g[G_ONES_WINS]
            if wcard < 36 and value_of(wcard) == 1:
                sc += ONE_WINS
                wins += 1
            if c < 36 and wins < a:
                if value_of(c) > 1:
                    sc += _ones_length(g, hand, c, shown)
                elif c != wcard:
                    sc -= ONE_LOST  # a 1 that does not win the trick is lost for good
        elif kind == OBJ_NO_TRICKS and me == desig[0]:
            sc += spent(c)  # shed what could win later
        elif kind == OBJ_TRUMPS and c >= 36:
            if wcard != c or a and value_of(c) != g[G_TRUMP_WINS] + 1:
                sc -= FAIL * BIG
            else:
                sc += TRUMP_TRICK
        elif (
            kind == OBJ_CARD_LAST and c == a and (g[G_T] < g[G_NT] - 1 or g[G_NIN] < g[G_SEATS] - 1)
        ):
            sc -= FAIL * BIG
        elif kind == OBJ_FIRST_MOST and g[G_T] > 0 and me != g[G_FIRST_WINNER]:
            # Deep Sea 23: the others
            sc += TRAIL_SHED * value_of(c) + (
                TRAIL_SHED_SUB if c >= 36 else 0.0
            )  # shed what could win later
        elif kind == OBJ_CARD_LAST and hand >> a & 1 and g[G_T] >= g[G_NT] - 4:
            # its holder must lose
            sc += OMEGA_HOLDER_SHED * value_of(c) + (
                OMEGA_HOLDER_SHED_SUB if c >= 36 else 0.0
            )  # the second-to-last trick
        elif kind == OBJ_NO_RANK:
            if wcard < 36 and value_of(wcard) == a:
                sc -= FAIL * BIG
            elif c < 36 and value_of(c) == a:
                # a card of the forbidden rank gone without winning: one less danger
                sc += FORBIDDEN_RANK_GONE
        elif kind == OBJ_PINK and c < 9:
            if _keeps_last_pink(g, hand, c):
                sc -= BIG
            elif winner != g[G_PINK_TARGET]:
                sc -= FAIL * BIG
            else:  # pinks go to the target while it surely wins
                sc += PINK_TO_TARGET + PINK_TO_TARGET_VALUE * value_of(c)
                if not g[G_TRICKMASK] & SUIT[0]:  # the first pink in: the target must keep it
                    sc -= FAIL * BIG * risk
        elif (
            (kind == OBJ_ONE_TRICK or kind == OBJ_FIRST_LAST)
            and a
            and wcard >= 36
            and winner == desig[0]
        ):
            sc -= FAIL * BIG
    return sc
