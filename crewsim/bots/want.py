"""Who the crew wants to take the current trick: ``want[s]`` per seat, from the task cards
already in it, an owner that can cash its own task card, and the special objectives.  Deep
Sea's task cards add theirs (``deep_sea.deep_sea_want``); the card scores start from it."""

import numpy as np

from crewsim.bots.objectives import ones_want, rank_spread
from crewsim.bots.view import holder
from crewsim.bots.weights import (
    BALANCE_AHEAD,
    BALANCE_BEHIND,
    BALANCE_CATCH_UP,
    BIG,
    CASH_WANT,
    FIRST_WINNER_WANT,
    ONE_TRICK_LATE,
    ONE_TRICK_WANT,
    PINK_TARGET_WANT,
    RANK_NEEDY,
)
from crewsim.kernel.bits import BEATS, ONES, SUIT, lowest, popcount, seat_after, suit_of
from crewsim.kernel.jit import inlined
from crewsim.kernel.layout import (
    G_CMD,
    G_DONE,
    G_FIRST_WINNER,
    G_NT,
    G_ONES_WINS,
    G_OWNED,
    G_PINK_TARGET,
    G_PLAYED,
    G_SEATS,
    G_T,
    G_TASKMASK,
    G_TRICKMASK,
    MP_NOBJ,
    MP_OBJ,
    OBJ_BALANCED,
    OBJ_CARD_LAST,
    OBJ_FIRST_LAST,
    OBJ_FIRST_MOST,
    OBJ_NO_TRICKS,
    OBJ_ONE_TRICK,
    OBJ_ONES,
    OBJ_PINK,
    OBJ_RANK,
    OBJ_ROLES,
)


@inlined
def fill_want(S, g, mp, me, won, desig, ct, want, hand, possible, omega):
    """Fill ``want[s]``: how much the crew wants seat ``s`` to win the current trick."""
    seats, t, nt = g[G_SEATS], g[G_T], g[G_NT]
    for s in range(seats):
        want[s] = 0.0
    m = g[G_TASKMASK] & g[G_TRICKMASK]  # task cards already lying in this trick
    while m:
        c = lowest(m)
        m &= m - 1
        for s in range(seats):
            want[s] += BIG if s == ct[c] else -BIG
    _cash_want(g, me, ct, S.tpred, omega, want, hand, possible)
    if mp[MP_NOBJ] == 0:
        return
    mn, mx = won[0], won[0]
    for s in range(seats):
        mn = min(mn, won[s])
        mx = max(mx, won[s])
    for k in range(mp[MP_NOBJ]):
        kind, a, b = mp[MP_OBJ + 3 * k], mp[MP_OBJ + 3 * k + 1], mp[MP_OBJ + 3 * k + 2]
        d = desig[0]
        if kind == OBJ_NO_TRICKS:
            want[d] -= BIG
        elif kind == OBJ_BALANCED:
            for s in range(seats):
                mn_after = mn
                if won[s] == mn:  # s may have been the only one at the minimum
                    cnt = 0
                    for q in range(seats):
                        if won[q] == mn:
                            cnt += 1
                    if cnt == 1:
                        mn_after = mn + 1
                if max(mx, won[s] + 1) - mn_after > a:
                    want[s] -= BIG
                elif won[s] == mn:  # the trick must go to someone behind; the last one most
                    want[s] += BALANCE_CATCH_UP * BIG if mn_after > mn else BALANCE_BEHIND
                want[s] -= BALANCE_AHEAD * (won[s] - mn)
            if b and (t == 0 or t == nt - 1):
                for s in range(seats):
                    want[s] += BIG if s == g[G_CMD] else -BIG
        elif kind == OBJ_ONE_TRICK:
            if won[d] >= 1:
                want[d] -= BIG
            else:
                want[d] += ONE_TRICK_WANT + ONE_TRICK_LATE * t / nt
        elif kind == OBJ_FIRST_LAST:
            must = t == 0 or t == nt - 1
            for s in range(seats):
                if must:
                    want[s] += BIG if s == d else -BIG
                elif s == d:
                    want[s] -= BIG
        elif kind == OBJ_RANK:  # Deep Sea 8/21: wins of rank-a cards stay within b of each other
            rank_cards = ONES << (a - 1)
            inside = popcount(g[G_TRICKMASK] & rank_cards)
            if inside:
                for s in range(seats):  # no seat past the spread; one with the fewest catches up
                    spread, needy = rank_spread(S, g, rank_cards, s, inside)
                    want[s] += -BIG if spread > b else (RANK_NEEDY if needy else 0.0)
        elif kind == OBJ_ONES and g[G_ONES_WINS] < a:
            ones_want(g, me, hand, possible, want)
        elif kind == OBJ_PINK and g[G_TRICKMASK] & SUIT[0]:  # a pink lies in the trick: the target
            for s in range(seats):
                want[s] += BIG if s == g[G_PINK_TARGET] else -BIG
        elif kind == OBJ_PINK and SUIT[0] & ~g[G_PLAYED]:  # a trick the target wins may catch pinks
            want[g[G_PINK_TARGET]] += PINK_TARGET_WANT
        elif kind == OBJ_FIRST_MOST and t > 0:  # Deep Sea 23: the first trick's winner stays ahead
            w0 = g[G_FIRST_WINNER]
            want[w0] += FIRST_WINNER_WANT
            for s in range(seats):
                if s != w0 and won[s] + 1 >= won[w0]:
                    want[s] -= BIG
        elif kind == OBJ_CARD_LAST and t == nt - 2 and not g[G_PLAYED] >> a & 1:
            # Deep Sea 27: card a
            h = holder(hand, possible, me, seats, a)  # comes last in the final trick if the
            if h >= 0:  # seat after its holder leads it, i.e. wins this trick
                for s in range(seats):
                    want[s] += BIG if s == seat_after(h, 1, seats) else -BIG
        elif kind == OBJ_ROLES:
            target = desig[0] if t < a else (desig[1] if t >= nt - b else -1)
            for s in range(seats):
                if target >= 0:
                    want[s] += BIG if s == target else -BIG
                elif s == desig[0] or s == desig[1]:
                    want[s] -= BIG


@inlined
def _cash_want(g, me, ct, tpred, omega, want, hand, possible):
    """An owner known to hold its own open task card, which no other hand can top in its
    colour, wins it by leading it: the crew wants that owner to get the lead.  The holder is
    found with masks (``holder`` per card was a tenth of the kernel's time on pn-10)."""
    open_cards = g[G_TASKMASK] & ~g[G_PLAYED] & ~g[G_TRICKMASK]
    if open_cards == 0:
        return
    one, two = np.int64(0), np.int64(0)  # cards that one / two or more other seats may hold
    theirs = np.int64(0)  # others' task cards their owners may hold
    for q in range(g[G_SEATS]):
        if q != me:
            two |= one & possible[q]
            one |= possible[q]
            theirs |= g[G_OWNED + q] & possible[q]
    # the open task cards whose owner is known to hold them: mine in my hand, or another's
    # that no other seat may hold
    held = hand & g[G_OWNED + me] | one & ~two & ~hand & theirs
    m = open_cards & held
    while m:
        tc = lowest(m)
        m &= m - 1
        o = ct[tc]
        if tc == omega or tpred[ct[40 + tc]] & ~g[G_DONE]:
            continue
        above = SUIT[suit_of(tc)] & BEATS[tc] & ~g[G_PLAYED]
        if o != me and hand & above:
            continue
        # the cards a seat other than the owner and me may hold (``only_with``, from the masks)
        elsewhere = one if o == me else one & ~possible[o] | two & possible[o]
        if above & elsewhere == 0:
            want[o] += CASH_WANT
