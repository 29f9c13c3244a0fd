"""The SAT model's clauses and cardinality constraints, written by numba into flat arrays
(``sat`` says what they mean).

A deal's model is ~6,000 clauses; built as Python lists they took as long to write as the
solver took to load them, and the lists left alive set off garbage collections.  Here they
are literals back to back and the end of each clause (and each constraint's bound), so the
loader slices one short list at a time.  The order is the one the clauses were tuned in:
MiniSat is faster with each group written where it arises.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NO_CARD = -1


@njit(cache=True, boundscheck=True)
def core_clauses(
    holder: np.ndarray,
    beats: np.ndarray,
    first: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    tricks: int,
    commander: int,
    task_card: np.ndarray,
    task_owner: np.ndarray,
    pred: np.ndarray,
    under: np.ndarray,
    no_symmetry: int,
) -> tuple[np.ndarray, np.ndarray]:
    """(literals, clause ends) of every clause but the objective's.

    ``holder[c]`` is the seat of card ``c`` or ``NO_CARD``; ``first`` the trick-0 variables of
    ``x`` and ``p`` by card, ``led`` by suit, ``lead`` by seat and ``trumped`` (some trump is
    in the trick) (``sat.Cnf.first_vars``: trick ``t``'s are these ``+ t``); ``pred[i]``
    masks the tasks that must come before task ``i``; ``under`` holds the two-player dummy's
    (face-up, beneath) pairs; ``no_symmetry`` masks the cards that are never
    interchangeable.  Bounds are checked: an undersized buffer is an error, not a write past
    its end."""
    x0s, p0s, led0s, lead0s, trumped0s = first
    trumped0 = trumped0s[0]
    seats = len(lead0s)
    n_tasks = len(task_card)
    n_held = np.zeros(seats, np.int64)
    for c in range(40):
        if holder[c] != NO_CARD:
            n_held[holder[c]] += 1
    n = n_held.sum()
    on_top = np.full(40, NO_CARD, np.int64)
    for i in range(len(under)):
        on_top[under[i, 1]] = under[i, 0]
    task_mask = 0
    for i in range(n_tasks):
        task_mask |= 1 << task_card[i]
    # literals, block by block, per trick: a card's ladder, lead and win (22 + 4 beaters of
    # 39), follow suit (13 a card: at most 9 a suit), one card a trick, symmetry, trumps, the
    # suits led, the leaders; then the commander, the units, tasks (their owners' beaters too)
    # and tokens, the dummy's stacks
    cap = (
        tricks * (n * (178 + 13 + 1 + 2) + 13 + 25 + 10 * seats)
        + (tricks + 1) * seats * seats
        + 1
        + n
        + tricks * n_tasks * (20 + 2 * n_tasks)
        + 2 * tricks * len(under)
    )
    lits = np.empty(cap, np.int32)
    ends = np.empty(cap, np.int32)
    cnt = np.zeros(2, np.int64)  # literals and clauses written

    def put(v: int) -> None:
        lits[cnt[0]] = v
        cnt[0] += 1

    def end() -> None:
        ends[cnt[1]] = cnt[0]
        cnt[1] += 1

    def c1(a: int) -> None:
        put(a)
        end()

    def c2(a: int, b: int) -> None:
        put(a)
        put(b)
        end()

    def c3(a: int, b: int, c: int) -> None:
        put(a)
        put(b)
        put(c)
        end()

    def x(c: int, t: int) -> int:
        return x0s[c] + t

    def p(c: int, t: int) -> int:
        return p0s[c] + t

    def led(u: int, t: int) -> int:
        return led0s[u] + t

    def lead(s: int, t: int) -> int:
        return lead0s[s] + t

    for i in range(len(under)):  # a card beneath is played after the one on it, a trick later
        a, b = under[i, 0], under[i, 1]
        c1(-p(b, 0))
        for t in range(1, tricks):
            c2(-p(b, t), p(a, t - 1))
    for c in range(40):
        s = holder[c]
        if s == NO_CARD:
            continue
        u = c // 9
        x0, p0, led0, lead0 = x(c, 0), p(c, 0), led(u, 0), lead(s, 0)
        over = np.empty(40, np.int64)  # trick 0's variables of the other seats' cards beating c
        n_over = 0  # (but trumps beating a colour card: one variable says a trump is in)
        for o in range(40):
            if beats[c] >> o & 1 and holder[o] != NO_CARD and holder[o] != s and (u == 4 or o < 36):
                over[n_over] = x(o, 0)
                n_over += 1
        for t in range(tricks):
            xt, pt, won, lu = x0 + t, p0 + t, lead0 + t + 1, led0 + t
            c2(-xt, pt)
            if t:
                c2(-(pt - 1), pt)
                c2(-xt, -(pt - 1))
                c3(-pt, pt - 1, xt)
            else:
                c2(-pt, xt)
            c3(-xt, -(lead0 + t), lu)  # s leads with c: suit u led
            for k in range(n_over):  # s wins with c: nothing beating c in the trick
                c3(-xt, -won, -(over[k] + t))
            if u < 4:  # ... no trump, and a colour card's colour was led
                c3(-xt, -won, -(trumped0 + t))
                c3(-xt, -won, lu)
                put(-xt)
                put(-lu)
            else:
                put(-xt)
            put(won)
            for k in range(n_over):
                put(over[k] + t)
            if u < 4:
                put(trumped0 + t)
            end()
        if n_held[s] <= tricks or task_mask >> c & 1:
            c1(p(c, tricks - 1))
    for t in range(tricks):  # trumped: some trump is in the trick, exactly
        for c in range(36, 40):
            if holder[c] != NO_CARD:
                c2(-x(c, t), trumped0 + t)
        put(-(trumped0 + t))
        for c in range(36, 40):
            if holder[c] != NO_CARD:
                put(x(c, t))
        end()
    for t in range(tricks):
        for u in range(5):  # redundant: the leader plays a card
            put(led(u, t))
        end()
        for u in range(5):
            for v in range(u):
                c2(-led(u, t), -led(v, t))
    for t in range(tricks + 1):  # exactly one leader (the winner of the trick before)
        for s in range(seats):
            put(lead(s, t))
        end()
        for s in range(seats):
            for s2 in range(s):
                c2(-lead(s, t), -lead(s2, t))
    c1(lead(commander, 0))
    mine = np.empty(40, np.int64)
    for s in range(seats):
        for t in range(tricks):  # at least one card a trick (the counts are in ``sat``)
            for c in range(40):
                if holder[c] == s:
                    put(x(c, t))
            end()
        for u in range(5):
            n_mine = 0
            for c in range(9 * u, min(9 * u + 9, 40)):
                if holder[c] == s:
                    mine[n_mine] = c
                    n_mine += 1
            for t in range(tricks):
                lu = led(u, t)
                put(-lead(s, t))  # the leader plays the led suit
                put(-lu)
                for k in range(n_mine):
                    put(x(mine[k], t))
                end()
                for j in range(n_mine):  # suit u led while s still holds c face up: s plays u
                    c = mine[j]
                    if on_top[c] != NO_CARD and not t:
                        continue
                    put(-lu)
                    for k in range(n_mine):
                        put(x(mine[k], t))
                    if t:
                        put(p(c, t - 1))
                        if on_top[c] != NO_CARD:
                            put(-p(on_top[c], t - 1))
                    end()
    for i in range(n_tasks):
        card, owner = task_card[i], task_owner[i]
        if owner == NO_CARD:  # free choice: whoever wins it (``free_choice``)
            continue
        own = holder[card] == owner and card // 9 < 4
        for t in range(tricks):
            c2(-x(card, t), lead(owner, t + 1))
            if own:  # redundant: won with the owner's own card, so its colour was led
                c2(-x(card, t), led(card // 9, t))
            elif holder[card] != owner:  # redundant: a card its owner plays beats it,
                put(-x(card, t))  # unless it is discarded (its colour not led)
                for c in range(40):
                    if holder[c] == owner and beats[card] >> c & 1:
                        put(x(c, t))
                if card < 36:
                    put(-led(card // 9, t))
                end()
    for i in range(n_tasks):  # order tokens: task j's card no later than task i's
        for j in range(n_tasks):
            if pred[i] >> j & 1:
                for t in range(tricks):
                    c2(-p(task_card[i], t), p(task_card[j], t))
    for s in range(seats):  # symmetry: interchangeable cards are played low first
        a = NO_CARD
        for b in range(40):
            if holder[b] != s or no_symmetry >> b & 1:
                continue
            if a != NO_CARD and a // 9 == b // 9:
                between = True
                for c in range(a + 1, b):
                    if holder[c] != NO_CARD and holder[c] != s:
                        between = False
                if between:
                    for t in range(tricks):
                        c2(-p(b, t), p(a, t))
            a = b
    return lits[: cnt[0]], ends[: cnt[1]]


@njit(cache=True)
def card_counts(
    holder: np.ndarray, x0s: np.ndarray, p0s: np.ndarray, seats: int, tricks: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(literals, constraint ends, bounds) of the cardinality constraints "at most ``bound``
    of these literals are true": a seat plays at most one card a trick, so by trick ``t``
    exactly ``t + 1`` of its cards (``sat`` says why these are constraints, not clauses)."""
    n_held = np.zeros(seats, np.int64)
    for c in range(40):
        if holder[c] != NO_CARD:
            n_held[holder[c]] += 1
    lits = np.empty(3 * tricks * n_held.sum(), np.int32)
    ends = np.empty(3 * tricks * seats, np.int32)
    bounds = np.empty(3 * tricks * seats, np.int32)
    a = 0
    k = 0
    for s in range(seats):
        n = n_held[s]
        for t in range(tricks):
            # x played at t: at most 1; p by t: at most t + 1; not p by t: at most n - t - 1
            # (the last only while n > t: with fewer cards than tricks the clauses leave no line)
            for kind in range(3 if n > t else 2):
                for c in range(40):
                    if holder[c] == s:
                        v = (x0s[c] if kind == 0 else p0s[c]) + t
                        lits[a] = -v if kind == 2 else v
                        a += 1
                ends[k] = a
                bounds[k] = (1, t + 1, n - t - 1)[kind]
                k += 1
    return lits[:a], ends[:k], bounds[:k]
