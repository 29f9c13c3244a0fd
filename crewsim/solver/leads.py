"""Refuting deals whose forbidden leads cannot be avoided, by counting cards per suit.

When seats may never open a trick with some suits (Deep Sea 12's objective, the "I will not
open a trick with ..." task cards), such a card leaves its holder only when the holder is void
in the suit led, and every trick's winner must still hold a card it may lead.  Both exact
engines find that counting argument slowly (seconds of SAT, most Deep Sea 12 deals at three
players left undecided).  Forgetting ranks keeps every real line: a trick may then go to any
seat that played a submarine, or, with none played, to any seat that followed the suit led.
With cards as counts per seat and suit the states are few (tens of thousands at most), so a
memoised search of that relaxed game settles in milliseconds; when it has no line, neither has
the deal.  (A "never open with" card may be done early, but only once its owner holds none of
those colours, so a won hand can always be played out in the relaxed game.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from crewsim.kernel.conditions import K_NEVER_LEAD
from crewsim.missions.schema import TaskKind
from crewsim.rules.play import n_tricks
from crewsim.solver.deep_sea import problem_arrays
from crewsim.solver.dfs_layout import mix

if TYPE_CHECKING:
    from crewsim.solver.problem import Problem

BUDGET = 2_000_000  # relaxed trick boundaries visited before the search gives up (no verdict)
TABLE_BITS = 17  # failed relaxed states remembered: 2**17 rows x 3 words = 3 MiB
PROBES = 8
REASON = "counting cards per suit, some trick's winner would have to open one it may not lead"
SUB = 4  # the trump suit's index


@njit(cache=True)
def _pack(cnt, seats, leader, cls):
    """The relaxed state as two words: per suit, the counts of every seat (4 bits each), and
    the leader.  Colours that every seat may lead alike (same class in ``cls``) play the same
    part, so their columns are sorted first: states that differ only by renaming such colours
    share one entry."""
    col = np.zeros(5, dtype=np.int64)
    for u in range(5):
        for s in range(seats):
            col[u] |= np.int64(cnt[s, u]) << (4 * s)
    for i in range(4):  # colours only: submarines always win
        for j in range(i + 1, 4):
            if cls[i] == cls[j] and col[i] > col[j]:
                col[i], col[j] = col[j], col[i]
    k0 = col[0] | (col[1] << 20) | (col[2] << 40)
    k1 = col[3] | (col[4] << 20) | (np.int64(leader) << 40)
    return k0, k1


@njit(cache=True)
def _slot(tab, k0, k1):
    return mix(mix(k0, np.int64(0)), k1) & (tab.shape[0] - 1)


@njit(cache=True)
def _failed(tab, gen, k0, k1):
    i = _slot(tab, k0, k1)
    for _ in range(PROBES):
        if tab[i, 2] != gen:
            return False
        if tab[i, 0] == k0 and tab[i, 1] == k1:
            return True
        i = (i + 1) & (tab.shape[0] - 1)
    return False


@njit(cache=True)
def _remember(tab, gen, k0, k1):
    i = _slot(tab, k0, k1)
    for _ in range(PROBES):
        if tab[i, 2] != gen:
            tab[i, 0], tab[i, 1], tab[i, 2] = k0, k1, gen
            return
        i = (i + 1) & (tab.shape[0] - 1)


@njit(cache=True)
def _valid(cnt, s, u, v, lead, forbid, free):
    """The first suit from ``u`` on that seat ``s`` may play: led (``lead``) or to a trick of
    suit ``v``; -1 when none is left.  ``free`` seats (the two-player dummy, whose face-down
    cards do not oblige it) never have to follow."""
    must = not lead and cnt[s, v] > 0 and not free[s]
    while u < 5:
        if cnt[s, u] > 0 and not (lead and (forbid[s] >> u) & 1) and not (must and u != v):
            return u
        u += 1
    return -1


@njit(cache=True)
def _search(cnt, seats, forbid, free, cls, leader, tricks, tab, gen, nodes, budget):
    """Whether the relaxed game has a line (True too once ``budget`` boundaries are spent).

    Depth-first with an explicit stack, one level a trick: ``ch[t]`` is the suit each seat
    plays (in order from the leader), ``wins[t]`` the seats still to try as its winner, and a
    boundary whose every trick fails is remembered by its counts and leader."""
    ch = np.full((tricks + 1, 5), -1, dtype=np.int64)
    lead = np.zeros(tricks + 1, dtype=np.int64)
    wins = np.zeros(tricks + 1, dtype=np.int64)
    keys = np.zeros((tricks + 1, 2), dtype=np.int64)
    lead[0] = leader
    t = 0
    fresh = True
    while True:
        if fresh:
            fresh = False
            if t == tricks:
                return True
            nodes[0] += 1
            if nodes[0] > budget:
                return True
            k0, k1 = _pack(cnt, seats, lead[t], cls)
            keys[t, 0], keys[t, 1] = k0, k1
            if _failed(tab, gen, k0, k1):
                t -= 1
                if t < 0:
                    return False
                continue
            ch[t, 0] = -1
            wins[t] = 0
        if wins[t] != 0:  # the trick is down: its next possible winner leads the next one
            w = 0
            while not (wins[t] >> w) & 1:
                w += 1
            wins[t] &= wins[t] - 1
            t += 1
            lead[t] = w
            fresh = True
            continue
        ld = lead[t]
        if ch[t, 0] >= 0:  # take the last trick back, then step to the next one
            for p in range(seats):
                cnt[(ld + p) % seats, ch[t, p]] += 1
            p = seats - 1
            while p >= 0:
                nu = _valid(cnt, (ld + p) % seats, ch[t, p] + 1, ch[t, 0], p == 0, forbid, free)
                if nu >= 0:
                    ch[t, p] = nu
                    break
                p -= 1
        else:
            p = 0
            ch[t, 0] = _valid(cnt, ld, 0, 0, True, forbid, free)
            if ch[t, 0] < 0:
                p = -1
        if p < 0:  # every trick from this boundary fails
            _remember(tab, gen, keys[t, 0], keys[t, 1])
            t -= 1
            if t < 0:
                return False
            continue
        v = ch[t, 0]
        for q in range(p + 1, seats):
            ch[t, q] = _valid(cnt, (ld + q) % seats, 0, v, False, forbid, free)
        subs = 0
        led = 0
        for q in range(seats):
            s = (ld + q) % seats
            cnt[s, ch[t, q]] -= 1
            if ch[t, q] == SUB:
                subs |= 1 << s
            if ch[t, q] == v:
                led |= 1 << s
        wins[t] = subs if subs != 0 else led


@njit(cache=True)
def relaxed_line(cnt, seats, forbid, free, leader, tricks, tab, gen, budget):
    """(1 when the relaxed game has a line or the budget ran out, 0 when it has none; the
    boundaries visited).  A seat holding one card more than ``tricks`` never plays one of
    them, any one."""
    cnt = cnt.copy()  # the search leaves a found line's cards taken
    nodes = np.zeros(1, dtype=np.int64)
    cls = np.zeros(4, dtype=np.int64)  # which seats may not lead the colour
    for u in range(4):
        for s in range(seats):
            cls[u] |= ((forbid[s] >> u) & 1) << s
    extra = -1
    for s in range(seats):
        if cnt[s].sum() > tricks:
            extra = s
    for u in range(5):
        if extra >= 0:
            if cnt[extra, u] == 0:
                continue
            cnt[extra, u] -= 1
        ok = _search(cnt, seats, forbid, free, cls, leader, tricks, tab, gen, nodes, budget)
        if extra >= 0:
            cnt[extra, u] += 1
        if ok or extra < 0:
            return (1 if ok else 0), nodes[0]
    return 0, nodes[0]


_TABLE: np.ndarray | None = None
_GEN = 0


def forbidden_leads(problem: Problem) -> list[int] | None:
    """Per seat, the suits (bit 4: submarines) it may never lead, or None when no seat has
    any: the crew objective's and each "never open with" task card's owner's."""
    if not problem.deep_sea:
        return None
    crew = problem.objective is not None and problem.objective[0] == "no_lead_suits"
    if not crew and not any(t.card.kind is TaskKind.NEVER_LEAD_COLOR for t in problem.deep):
        return None
    codes, owners, (_, suits, _) = problem_arrays(problem)
    forbid = [suits if crew else 0] * problem.seats
    for row, owner in zip(codes, owners, strict=True):
        if row[0] == K_NEVER_LEAD:
            forbid[owner] |= sum(1 << u for u in range(4) if row[1] >> (9 * u) & 0x1FF == 0x1FF)
    return forbid if any(forbid) else None


def refutes(problem: Problem, budget: int = BUDGET) -> bool:
    """Whether the count relaxation proves the problem infeasible."""
    forbid = forbidden_leads(problem)
    if forbid is None:
        return False
    deal = problem.deal
    seats = deal.seats
    cnt = np.zeros((seats, 5), dtype=np.int64)
    for s in range(seats):
        h = deal.full_hand(s)
        for u in range(5):
            cnt[s, u] = (h >> (9 * u) & (0x1FF if u < SUB else 0xF)).bit_count()
    free = np.array([deal.players == 2 and s == 2 for s in range(seats)])
    line, nodes = _relaxed(
        cnt, np.array(forbid, dtype=np.int64), free, deal.commander, n_tricks(deal.players), budget
    )
    return line == 0 and nodes <= budget


def _relaxed(
    cnt: np.ndarray, forbid: np.ndarray, free: np.ndarray, leader: int, tricks: int, budget: int
) -> tuple[int, int]:
    """``relaxed_line`` with this process's table (a fresh generation per search)."""
    global _TABLE, _GEN
    if _TABLE is None:
        _TABLE = np.zeros((1 << TABLE_BITS, 3), dtype=np.int64)
    _GEN += 1
    line, nodes = relaxed_line(cnt, len(cnt), forbid, free, leader, tricks, _TABLE, _GEN, budget)
    return int(line), int(nodes)


def warm_up() -> None:
    """Load the compiled search (a trick of one card each), so no timed solve pays for it."""
    _relaxed(
        np.eye(3, 5, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(3, dtype=np.bool_),
        0,
        1,
        BUDGET,
    )
