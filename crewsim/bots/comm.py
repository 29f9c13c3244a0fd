"""Communication: the card a seat shows now, or none (the claim follows from its hand)."""

import numpy as np

from crewsim.bots.hand import best_card
from crewsim.bots.objectives import one_to_show, takes_first
from crewsim.bots.weights import (
    COMM_ALL_ABOVE,
    COMM_CAN_DUCK,
    COMM_HOLD_OWN,
    COMM_MIN,
    COMM_ONLY_CARD,
    COMM_OTHERS_TASK,
    COMM_OVER_MY_TASK,
    COMM_OVER_VALUE,
    COMM_TOP_TOPPED,
)
from crewsim.kernel.bits import (
    BEATS,
    SUIT,
    TRUMPS,
    highest,
    lowest,
    popcount,
    suit_of,
    value_of,
)
from crewsim.kernel.deep_sea_tables import C_FAMILY, C_LAST, C_TRICKS, FAM_COUNT, FAM_WIN, N_COLS
from crewsim.kernel.jit import inlined
from crewsim.kernel.layout import (
    G_LEADER,
    G_NDS,
    G_OWNED,
    G_PLAYED,
    G_T,
    G_TASKMASK,
    MP_NOBJ,
    MP_OBJ,
)


@inlined
def heuristic_comm(S, g, mp, me, hand, told):
    """The heuristic's card to communicate now, or -1.  The claim follows from the hand.

    Open task cards (``G_OWNED``: each seat's) are Planet Nine tasks and the Deep Sea cards that
    name exact cards; only they make a communication worth a token, and so does the card that
    must come last (Deep Sea 27): the seat after its holder has to lead the final trick.  A
    seat whose task card needs the first trick, or that is named to win it (pn-41, pn-50),
    shows before it a high card that at most one other card tops, so the leader can lead that
    colour to it."""
    for k in range(mp[MP_NOBJ]):
        a = mp[MP_OBJ + 3 * k + 1]
        if mp[MP_OBJ + 3 * k] == 13 and hand >> a & 1 and not told >> a & 1:
            same = hand & SUIT[suit_of(a)]
            if a == lowest(same) or a == highest(same):
                return a
    first = (1 << FAM_WIN) | (1 << FAM_COUNT)  # a card of mine needing the first trick
    if (
        g[G_T] == 0
        and g[G_LEADER] != me
        and (_owns_open(S, g, me, C_TRICKS, first) or takes_first(mp, S.desig, me))
    ):
        top = _top_card(g, hand)
        if top >= 0:
            return top
    if hand & TRUMPS == 0 and _owns_open(S, g, me, C_LAST, 1 << FAM_COUNT):  # only the last
        return best_card(hand)
    one = one_to_show(g, mp, hand)
    if one >= 0:
        return one
    open_cards = g[G_TASKMASK] & ~g[G_PLAYED]
    if open_cards == 0:
        return -1
    best, best_c = COMM_MIN, np.int64(-1)
    own = g[G_OWNED + me]
    for suit in range(4):  # only a colour's lowest and highest card can be claimed
        same = hand & SUIT[suit]
        tasks = open_cards & SUIT[suit]  # task cards of other colours never score here
        if same == 0 or tasks == 0:
            continue
        lo, hi = lowest(same), highest(same)
        sc = _comm_score(hand, same, lo, lo == hi, True, tasks, own)
        if sc > best:
            best, best_c = sc, lo
        if hi != lo:
            sc = _comm_score(hand, same, hi, True, False, tasks, own)
            if sc > best:
                best, best_c = sc, hi
    return best_c


@inlined
def _owns_open(S, g, me, col, families):
    """Does one of my open Deep Sea task cards have bit 0 of column ``col`` set (``C_TRICKS``:
    the first trick; ``C_LAST``: the last) and a family in the ``families`` bits?"""
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        if (
            S.ds_owner[k] == me
            and not S.ds_done[k]
            and S.ds_tab[row + col] & 1
            and families >> S.ds_tab[row + C_FAMILY] & 1
        ):
            return True
    return False


@inlined
def _top_card(g, hand):
    """My highest card of a colour that at most one other card tops, the fewest such cards
    first, then the colour the others hold most of (the least likely to be ruffed); or -1."""
    best, best_c = -1000, np.int64(-1)
    for suit in range(4):
        same = hand & SUIT[suit]
        if same == 0:
            continue
        hi = highest(same)
        rest = SUIT[suit] & ~hand & ~g[G_PLAYED]
        above = popcount(rest & BEATS[hi])
        sc = popcount(rest) - COMM_TOP_TOPPED * above
        if above <= 1 and sc > best:
            best, best_c = sc, hi
    return best_c


@inlined
def _comm_score(hand, same, c, is_hi, is_lo, tasks, own):
    """Worth of communicating ``c`` (my highest and/or lowest of its colour) given the open
    task cards ``tasks`` of that colour (``own``: the task cards I own, of any colour).  A task
    card is worth the first rule it meets; no two rules meet one card, so the worth is the best
    rule any task card meets, each rule tested on all of them at once."""
    bit = np.int64(1) << c
    below = bit - 1
    above = ~below & ~bit
    mine, others = tasks & own, tasks & ~own
    sc = 0.0
    if others & bit:
        sc = max(sc, COMM_OTHERS_TASK + (COMM_ONLY_CARD if popcount(same) == 1 else 0.0))
    if is_lo and others & below:  # warn: all my cards of the colour lie above it
        sc = max(sc, COMM_ALL_ABOVE)
    # I hold cards above the task card but can duck under it (a colour: trumps never duck)
    if is_lo and c < 36 and others & above & ((np.int64(1) << highest(same)) - 1):
        sc = max(sc, COMM_CAN_DUCK)
    if is_hi and mine & below & ~hand:
        sc = max(sc, COMM_OVER_MY_TASK + COMM_OVER_VALUE * value_of(c))
    if mine & bit and popcount(same) > 1:  # tell the crew I hold my own task card and can duck
        sc = max(sc, COMM_HOLD_OWN)
    return sc
