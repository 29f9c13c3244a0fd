"""Cards a seat may not open a trick with (Deep Sea 12's objective, the "I will not open a
trick with ..." task cards): shed them when void, and let a trick go only to a seat that still
holds a card it may lead."""

import numpy as np

from crewsim.bots.weights import (
    BAN_EMPTY_COLOUR,
    BAN_SHED,
    BAN_SPARE,
    BAN_STRANDED,
    BAN_STRANDED_VALUE,
    BAN_VOID_SHED,
    BIG,
    FAIL,
)
from crewsim.kernel.bits import SUIT, lowest, popcount, suit_of, value_of
from crewsim.kernel.deep_sea_tables import C_NEVER_LEAD, N_COLS
from crewsim.kernel.jit import compiled
from crewsim.kernel.layout import G_NDS, G_NT, G_SEATS, G_T, MP_NOBJ, MP_OBJ, TK_NEVER


@compiled
def lead_bans(S, g, mp, seat, me):
    """The cards ``seat`` may not open a trick with: Deep Sea 12's objective's suits and the
    colours of its "I will not open a trick with ..." task cards (only ``me`` knows when mine
    is settled early: the judge settles it once its owner holds none of those colours)."""
    m = np.int64(0)
    for k in range(mp[MP_NOBJ]):
        if mp[MP_OBJ + 3 * k] == 11:
            bits = mp[MP_OBJ + 3 * k + 1]
            for u in range(5):
                if (bits >> u) & 1:
                    m |= SUIT[u]
    slots = S.ds_open[TK_NEVER] if g[G_NDS] else np.int64(0)  # (Deep Sea: ``deep_sea_scores``)
    while slots:
        k = lowest(slots)
        slots &= slots - 1
        if S.ds_owner[k] == seat and not (seat == me and S.ds_done[k]):
            m |= S.ds_tab[S.ds_task[k] * N_COLS + C_NEVER_LEAD]
    return m


@compiled
def banned_follow(g, me, c, hand, winner, bans, wbans, possible, unseen):
    """Following with cards that may not lead (``bans``: mine, ``wbans``: the winner's): such
    a card leaves a hand only as a discard, so shed one whenever void; whoever takes the trick
    must still hold a card it may lead, and a seat with more banned cards than others left
    had better not take it.  ``hand``: my own cards (the dummy's, not its commander's);
    ``unseen``: the cards I do not hold and nobody played."""
    if g[G_T] == g[G_NT] - 1:
        return 0.0
    sc = BAN_SHED if bans >> c & 1 else 0.0
    if winner == me:
        rest = hand & ~(np.int64(1) << c)
        safe = popcount(rest & ~bans)
        if safe == 0:
            return sc - FAIL * BIG
        sc += BAN_SPARE * (safe - popcount(rest & bans))
    elif possible[winner] & unseen & ~wbans == 0:
        sc -= FAIL * BIG
    return sc


@compiled
def banned_lead(S, g, mp, me, c, hand, bans, possible, unseen):
    """Leading when some cards may not lead (``bans``: mine): never one of those; open a
    colour that seats still holding their banned cards lack (they shed them on it) or that I
    empty (to shed mine later); with my last card I may lead, go low: taking the trick would
    strand me.  ``hand`` and ``unseen`` as for ``banned_follow``."""
    if bans >> c & 1:
        return -FAIL * BIG
    if g[G_T] == g[G_NT] - 1:
        return 0.0
    su = SUIT[suit_of(c)]
    sc = 0.0
    for q in range(g[G_SEATS]):
        if q != me and possible[q] & unseen & su == 0:
            if possible[q] & unseen & lead_bans(S, g, mp, q, me):
                sc += BAN_VOID_SHED
    rest = hand & ~(np.int64(1) << c)
    if hand & bans and rest & su == 0 and rest & ~bans:
        sc += BAN_EMPTY_COLOUR
    if rest & ~bans == 0:
        sc -= BAN_STRANDED + BAN_STRANDED_VALUE * value_of(c)
    return sc
