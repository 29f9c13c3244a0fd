"""Which leads the Planet Nine search tries first: those that can complete a task in this
trick, then those that help a seat shed a suit it must get void in."""

import numpy as np
from numba import njit

from crewsim.kernel.bits import BEATS, SUIT, TRUMPS, lowest
from crewsim.solver.dfs_layout import C_COV, C_MV


@njit(cache=True)
def _safe_lead(st, d, seats, seat, x):
    """Whether every other seat can let ``x`` (led by ``seat``) win: it holds a lower card of
    the suit, or no card of the suit at all but a colour card to discard."""
    sx = SUIT[x // 9]
    below = (np.int64(1) << x) - 1
    for p in range(seats):
        if p == seat:
            continue
        hp = st[d, p]
        if hp == 0:
            continue
        ins = hp & sx
        if ins != 0:
            if (ins & below) == 0:
                return False
        elif (hp & ~TRUMPS) == 0:
            return False
    return True


@njit(cache=True)
def shedding_leads(st, d, seats, seat, legal):
    """The leads (of ``legal``) of a suit another seat must shed (``must_void``), or of a suit
    a seat with a suit to shed is void in (it can discard): tried before the other leads."""
    mv = st[d, C_MV]
    out = np.int64(0)
    for u in range(5):
        lu = legal & SUIT[u]
        if lu == 0:
            continue
        for p in range(seats):
            if p == seat:
                continue
            hp = st[d, p]
            mp = (mv >> (5 * p)) & 31
            if (hp & SUIT[u]) != 0:
                if (mp >> u) & 1:
                    out |= lu
                    break
            elif mp != 0:
                out |= lu
                break
    return out


@njit(cache=True)
def good_leads(st, d, seats, seat, legal, tof, task_owner, taskmask):
    """The leads (of ``legal``) that can complete a task in this trick, tried first.

    The leader's own task card when every other seat can let it win (``_safe_lead``); another
    owner's task card when that owner can beat it in suit; any other card when the owner of a
    task card held by another seat can win the trick (the leader's card is safe, or the owner
    beats it, and the task card too when it is of the same suit, or ruffs it) and the task card
    can fall into it (same suit, or its holder is void in the suit led).  Only an order: every
    legal card is still tried.
    """
    rest = st[d, C_COV]
    for s in range(seats):
        rest |= st[d, s]
    good = np.int64(0)
    m = legal
    while m != 0:
        c = lowest(m)
        m &= m - 1
        i = tof[c]
        su = SUIT[c // 9]
        if i >= 0:
            o = task_owner[i]
            if o == seat:
                if _safe_lead(st, d, seats, seat, c):
                    good |= np.int64(1) << c
            elif (st[d, o] & su & BEATS[c]) != 0:
                good |= np.int64(1) << c
        else:
            ot = rest & taskmask & ~st[d, seat]
            while ot != 0:
                x = lowest(ot)
                ot &= ot - 1
                o = task_owner[tof[x]]
                ho = st[d, o]
                if o == seat:
                    win = _safe_lead(st, d, seats, seat, c) and (
                        c >= 36 or c > x or c // 9 != x // 9
                    )
                elif (ho & su) != 0:
                    win = (ho & su & BEATS[c] & BEATS[x]) != 0 or (
                        x // 9 != c // 9 and (ho & su & BEATS[c]) != 0
                    )
                else:
                    win = c < 36 and (ho & TRUMPS) != 0
                if not win:
                    continue
                h = 0
                for s in range(seats):
                    if (st[d, s] >> x) & 1:
                        h = s
                if x // 9 == c // 9 or (st[d, h] & su) == 0:
                    good |= np.int64(1) << c
                    break
    return good
