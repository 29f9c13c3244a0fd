"""Setting up a Deep Sea game inside the kernel: terrain, task draw, redeal and repair (rules
10, 15, 16).  Reads the per-crew-size card table in ``S.ds_tab``.  Who takes which card and
the owners' predictions are the crew's decisions (``crewsim.bots.deep_sea_setup``).
"""

import numpy as np
from numba import njit

from crewsim.kernel.bits import popcount, rand_below
from crewsim.kernel.deep_sea_tables import (
    C_CMP,
    C_REDEAL0,
    C_THI,
    C_TLO,
    C_TLOSE,
    C_TWIN,
    C_VALUE,
    CMP_EQUAL_CAPT,
    CMP_FEWER_CAPT,
    CMP_FEWER_EACH,
    CMP_MORE_CAPT,
    CMP_MORE_EACH,
    N_COLS,
    clashes,
    contradiction,
    may_take,
)
from crewsim.kernel.layout import (
    COMM_DEAD_ZONE,
    COMM_NORMAL,
    COMM_RAPTURE,
    G_CMD,
    G_NDS,
    G_NT,
    G_REPAIRS,
    G_SEATS,
    MAX_DS,
    MP_DIFFICULTY,
    MP_FIXED,
    MP_NFIXED,
)


@njit(cache=True)
def terrain(st):
    """Unfamiliar terrain: a random colour card sets this game's communication mode."""
    v = rand_below(st, 9) + 1
    if v <= 3:
        return COMM_NORMAL
    return COMM_DEAD_ZONE if v <= 6 else COMM_RAPTURE


@njit(cache=True)
def draw(S, mp, st):
    """Reveal task cards one at a time, keeping those that fit the difficulty left."""
    tab, deck, task = S.ds_tab, S.ds_deck, S.ds_task
    n = 0
    if mp[MP_NFIXED] > 0:
        for k in range(mp[MP_NFIXED]):
            task[k] = mp[MP_FIXED + k]
        n = mp[MP_NFIXED]
    else:
        for i in range(96):
            deck[i] = i
        for i in range(95, 0, -1):
            j = rand_below(st, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        left = mp[MP_DIFFICULTY]
        for k in range(96):
            if left == 0 or n == MAX_DS:
                break
            v = tab[deck[k] * N_COLS + C_VALUE]
            if v <= left:
                task[n] = deck[k]
                n += 1
                left -= v
    S.g[G_NDS] = n
    for k in range(MAX_DS):
        S.ds_pred[k] = -1
        S.ds_done[k] = 0
    for k in range(MAX_DS * 4):
        S.ds_state[k] = 0
    return n


@njit(cache=True)
def needs_redeal(S, hands, under, seats):
    """A drawn card's redeal set held entirely by one hand (e.g. all four submarines); the
    two-player dummy's covered cards count as its hand."""
    covered = _covered(under)
    for k in range(S.g[G_NDS]):
        if _redeal_met(S.ds_tab, S.ds_task[k] * N_COLS, hands, covered, seats):
            return True
    return False


@njit(cache=True)
def _covered(under):
    """The two-player dummy's face-down cards (``under[c]``: the card beneath ``c``)."""
    covered = np.int64(0)
    for c in range(40):
        if under[c] >= 0:
            covered |= np.int64(1) << under[c]
    return covered


@njit(cache=True)
def _redeal_met(tab, row, hands, covered, seats):
    """Whether one hand (the dummy's with its ``covered`` cards) holds every card of one of
    this task card's redeal sets."""
    for j in range(2):
        m = tab[row + C_REDEAL0 + j]
        if m == 0:
            continue
        for s in range(seats):
            full = hands[s] | (covered if s == 2 else np.int64(0))
            if full & m == m:
                return True
    return False


@njit(cache=True)
def _counts_clash(tab, task, owner, n, seats, cap, nt):
    """Whether the seats' trick counts cannot all hold: each seat's bounds from its cards, their
    sums against the hand's ``nt`` tricks, and the cards comparing counts between seats,
    propagated as ``deep_sea_setup._trick_counts`` does (from coarser bounds: never more).
    Most draws hold no card that bounds a count: those are settled without a look."""
    return _counts_asked(tab, task, owner, n, nt) and _bounds_clash(
        tab, task, owner, n, seats, cap, nt
    )


@njit(cache=True)
def _bounds_clash(tab, task, owner, n, seats, cap, nt):
    """``_counts_clash`` for a draw with a card that bounds a count."""
    lo = np.zeros(seats, np.int64)
    hi = np.full(seats, nt, np.int64)
    win = np.zeros(seats, np.int64)  # tricks each seat must win / must not win
    lose = np.zeros(seats, np.int64)
    rel = np.zeros((3 * n * seats, 3), np.int64)  # (a, b, 0: a < b | 1: a = b)
    n_rel = 0
    for k in range(n):
        o = owner[k]
        if o < 0:
            continue
        row = task[k] * N_COLS
        lo[o] = max(lo[o], tab[row + C_TLO])
        hi[o] = min(hi[o], tab[row + C_THI])
        win[o] |= tab[row + C_TWIN]
        lose[o] |= tab[row + C_TLOSE]
        kind = tab[row + C_CMP]
        for s in range(seats):
            a, b, eq = -1, -1, 0
            if kind == CMP_MORE_EACH and s != o:
                a, b = s, o
            elif kind == CMP_FEWER_EACH and s != o:
                a, b = o, s
            elif s == 0 and kind == CMP_MORE_CAPT:
                a, b = cap, o
            elif s == 0 and kind == CMP_FEWER_CAPT:
                a, b = o, cap
            elif s == 0 and kind == CMP_EQUAL_CAPT:
                a, b, eq = o, cap, 1
            if a >= 0:
                rel[n_rel, 0], rel[n_rel, 1], rel[n_rel, 2] = a, b, eq
                n_rel += 1
    for s in range(seats):
        for s2 in range(s):
            if win[s] & win[s2]:  # one trick, two winners
                return True
        if win[s] & lose[s]:
            return True
        lo[s] = max(lo[s], popcount(win[s]))
        hi[s] = min(hi[s], nt - popcount(lose[s]))
    for _ in range(4 * nt + 4):  # each pass tightens a bound or ends: bounds lie in 0..nt
        for s in range(seats):
            if lo[s] > hi[s]:
                return True
        lo_before, hi_before = lo.sum(), hi.sum()
        if lo_before > nt or hi_before < nt:
            return True
        for r in range(n_rel):
            a, b = rel[r, 0], rel[r, 1]
            if rel[r, 2] == 0:
                hi[a] = min(hi[a], hi[b] - 1)
                lo[b] = max(lo[b], lo[a] + 1)
            else:
                lo[a] = lo[b] = max(lo[a], lo[b])
                hi[a] = hi[b] = min(hi[a], hi[b])
        for s in range(seats):
            lo[s] = max(lo[s], nt - (hi.sum() - hi[s]))
            hi[s] = min(hi[s], nt - (lo.sum() - lo[s]))
        if lo.sum() == lo_before and hi.sum() == hi_before:
            break
    for s in range(seats):
        if lo[s] > hi[s]:
            return True
    return False


@njit(cache=True)
def _counts_asked(tab, task, owner, n, nt):
    """Whether an owned card bounds or compares its owner's trick count."""
    for k in range(n):
        row = task[k] * N_COLS
        if owner[k] >= 0 and (
            tab[row + C_TLO] > 0
            or tab[row + C_THI] < nt
            or tab[row + C_TWIN]
            or tab[row + C_TLOSE]
            or tab[row + C_CMP]
        ):
            return True
    return False


@njit(cache=True)
def _replace(S, hands, covered, st, k, keep_counts):
    """Put an unused card of equal value in slot ``k``: one its owner may take, that clashes
    with no other task, calls for no redeal of this deal and, with ``keep_counts``, leaves
    the seats' trick counts possible.  A random one among those that fit, which is what
    drawing again until one fits gives.  Returns whether one did."""
    tab, task, owner, deck = S.ds_tab, S.ds_task, S.ds_owner, S.ds_deck
    n, seats, cap, nt = S.g[G_NDS], S.g[G_SEATS], S.g[G_CMD], S.g[G_NT]
    value = tab[task[k] * N_COLS + C_VALUE]
    start = rand_below(st, 96)
    for d in range(96):
        c = deck[(start + d) % 96]
        row = c * N_COLS
        if (
            tab[row + C_VALUE] != value
            or not may_take(tab, row, owner[k], cap)
            or _redeal_met(tab, row, hands, covered, seats)
            or clashes(tab, task, owner, n, c, owner[k], k)
        ):
            continue
        used = False
        for i in range(n):
            if task[i] == c:
                used = True
        if used:
            continue
        old = task[k]
        task[k] = c
        if keep_counts and _counts_clash(tab, task, owner, n, seats, cap, nt):
            task[k] = old
            continue
        return True
    return False


@njit(cache=True)
def repair(S, mp, hands, under, st):
    """Rule 16: a combination of tasks that cannot all be done is mended by replacing the
    latest-revealed card involved with another of equal value (its owner keeps the slot; a
    redeal after selection has no place in the rules).  Pairwise contradictions first (the
    later card of the pair), then seats' trick counts that cannot all hold (``_counts_clash``:
    the latest card with a trick count whose replacement mends them).  Returns the
    replacements."""
    tab, task, owner = S.ds_tab, S.ds_task, S.ds_owner
    n, seats, cap, nt = S.g[G_NDS], S.g[G_SEATS], S.g[G_CMD], S.g[G_NT]
    if mp[MP_NFIXED] > 0:
        return 0
    covered = _covered(under)
    repairs = 0
    for _ in range(2 * n):  # each replacement settles a clash for good
        found = -1
        for i in range(n):
            for j in range(i + 1, n):
                if contradiction(tab, task[i], task[j], owner[i] == owner[j]):
                    found = j
                    break
            if found >= 0:
                break
        counts = _counts_clash(tab, task, owner, n, seats, cap, nt)
        if found >= 0:
            if not _replace(S, hands, covered, st, found, not counts):
                break
        elif counts:
            done = False
            for k in range(n - 1, -1, -1):
                row = task[k] * N_COLS
                demands = tab[row + C_TLO] > 0 or tab[row + C_THI] < nt or tab[row + C_CMP] > 0
                if demands and _replace(S, hands, covered, st, k, True):
                    done = True
                    break
            if not done:
                break
        else:
            break
        repairs += 1
    S.g[G_REPAIRS] += repairs
    return repairs
