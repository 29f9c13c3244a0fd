"""Worlds a seat cannot tell from the real one: deals of the cards it does not see, drawn
uniformly from those consistent with everything the crew has shown (in numba).

A seat knows its own hand (the commander also the dummy's face-up cards), how many cards each
hand holds, the cards shown by communication and where they lie, and per seat which cards it
may still hold (``S.possible``: voids, the highest/only/lowest claims, pn-12's draw).  The
cards it cannot place go to "holders": the other hands, and with two players the dummy's
face-down pile.

Sampling is by rejection (a uniformly shuffled deal, kept when every card may lie where it
fell), which is exactly uniform; when that keeps failing (many voids), a Markov chain over
valid deals takes over: it rotates one card each among two to four holders and keeps the move
when every card may lie where it went.  The moves are symmetric and connect every pair of
valid deals, so the chain's stationary law is the uniform one too.
"""

import numpy as np
from numba import njit

from crewsim.kernel.bits import FULL, lowest, popcount, rand_below
from crewsim.kernel.layout import G_CMD, G_DUMMY, G_PLAYED, G_SEATS, G_UNCOVER

MAX_HOLDERS = 5
ROCKET_4 = np.int64(1) << 39  # the commander's card
UNCOVERED = -2  # ``holders_of``: the card under the dummy's card played this trick
CHAIN_MOVES = 24  # chain moves per world, per card to place


@njit(cache=True)
def _rejection(cards, n, need, allowed, m, tries, out, st):
    """Up to ``tries`` uniformly shuffled deals of ``cards[:n]``; True with the first valid
    one in ``out`` (per holder, a mask)."""
    for _ in range(tries):
        for i in range(n - 1, 0, -1):
            j = rand_below(st, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        ok = True
        i = 0
        for h in range(m):
            got = np.int64(0)
            for _k in range(need[h]):
                got |= np.int64(1) << cards[i]
                i += 1
            if got & ~allowed[h]:
                ok = False
                break
            out[h] = got
        if ok:
            return True
    return False


@njit(cache=True)
def _augment(c, need, allowed, m, out):
    """Place card ``c`` in a valid partial deal, moving cards along a chain of holders when
    every holder it may go to is full (a breadth-first search over holders)."""
    parent = np.full(MAX_HOLDERS, -2, dtype=np.int64)
    moved = np.zeros(MAX_HOLDERS, dtype=np.int64)
    queue = np.zeros(MAX_HOLDERS, dtype=np.int64)
    head, tail = 0, 0
    for h in range(m):
        if allowed[h] >> c & 1:
            parent[h], moved[h] = -1, c
            queue[tail] = h
            tail += 1
    while head < tail:
        h = queue[head]
        head += 1
        if popcount(out[h]) < need[h]:
            while h >= 0:  # h takes moved[h] from its parent (or the new card)
                out[h] |= np.int64(1) << moved[h]
                p = parent[h]
                if p >= 0:
                    out[p] &= ~(np.int64(1) << moved[h])
                h = p
            return True
        rest = out[h]
        while rest:
            d = lowest(rest)
            rest &= rest - 1
            for h2 in range(m):
                if parent[h2] == -2 and allowed[h2] >> d & 1:
                    parent[h2], moved[h2] = h, d
                    queue[tail] = h2
                    tail += 1
    return False


@njit(cache=True)
def _construct(cards, n, need, allowed, m, out):
    """Any valid deal (most constrained cards first), or False when there is none."""
    for h in range(m):
        out[h] = 0
    for want_ways in range(1, m + 1):
        for i in range(n):
            c = cards[i]
            ways = 0
            for h in range(m):
                ways += allowed[h] >> c & 1
            if ways == want_ways and not _augment(c, need, allowed, m, out):
                return False
    return True


@njit(cache=True)
def _chain(need, allowed, m, moves, out, st):
    """``moves`` steps of the rotation chain on the valid deal ``out``."""
    order = np.zeros(MAX_HOLDERS, dtype=np.int64)
    live = 0
    for h in range(m):
        if need[h] > 0:
            order[live] = h
            live += 1
    if live < 2:
        return
    picked = np.zeros(MAX_HOLDERS, dtype=np.int64)
    for _ in range(moves):
        k = 2 + rand_below(st, min(live, 4) - 1)
        for i in range(live - 1, 0, -1):  # a uniform ordered choice of k holders
            j = rand_below(st, i + 1)
            order[i], order[j] = order[j], order[i]
        ok = True
        for i in range(k):
            h = order[i]
            picked[i] = _nth(out[h], rand_below(st, need[h]))
        for i in range(k):
            if not allowed[order[(i + 1) % k]] >> picked[i] & 1:
                ok = False
        if ok:
            for i in range(k):
                out[order[i]] &= ~(np.int64(1) << picked[i])
            for i in range(k):
                out[order[(i + 1) % k]] |= np.int64(1) << picked[i]


@njit(cache=True, forceinline=True)
def _nth(mask, k):
    """The ``k``-th lowest card of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return lowest(mask)


@njit(cache=True)
def _split_forced(pool, allowed, m, cards, fixed, left):
    """Cards only one holder may have lie there in every valid deal (``fixed``, taken off
    ``left``); the others go to ``cards``.  Their count, or -1 when no deal is valid."""
    n = 0
    rest = pool
    while rest:
        c = lowest(rest)
        rest &= rest - 1
        only, ways = -1, 0
        for h in range(m):
            if allowed[h] >> c & 1:
                ways += 1
                only = h
        if ways == 0:
            return -1
        if ways == 1:
            fixed[only] |= np.int64(1) << c
            left[only] -= 1
        else:
            cards[n] = c
            n += 1
    for h in range(m):
        if left[h] < 0:
            return -1
    return n


@njit(cache=True)
def sample_holders(pool, need, allowed, m, tries, chained, out, st):
    """A uniform deal of ``pool`` to ``m`` holders (``need[h]`` cards each, only cards of
    ``allowed[h]``) into ``out``: 1 by rejection, 2 by the chain, 0 when there is none.

    ``chained``: ``out`` already holds a valid deal of this pool (an earlier world of the same
    decision), from which the chain goes on when rejection fails."""
    cards = np.zeros(40, dtype=np.int64)
    left = need[:m].copy()
    fixed = np.zeros(MAX_HOLDERS, dtype=np.int64)
    n = _split_forced(pool, allowed, m, cards, fixed, left)
    if n < 0:
        return 0
    free = np.zeros(MAX_HOLDERS, dtype=np.int64)
    for h in range(m):
        free[h] = allowed[h] & ~fixed[h]
    if _rejection(cards, n, left, free, m, tries, out, st):
        for h in range(m):
            out[h] |= fixed[h]
        return 1
    if chained:
        for h in range(m):
            out[h] &= ~fixed[h]
    elif not _construct(cards, n, left, free, m, out):
        return 0
    _chain(left, free, m, CHAIN_MOVES * max(n, 1), out, st)
    for h in range(m):
        out[h] |= fixed[h]
    return 2


@njit(cache=True)
def holders_of(S, me, holder, need, allowed):
    """The holders of the cards seat ``me`` cannot see, and their pool: ``holder[h]`` is a seat,
    -1 for the dummy's face-down pile, or ``UNCOVERED`` for the card the dummy's face-up card
    played in this trick covered (turned up when the trick ends).  Returns ``(m, pool)``."""
    g = S.g
    seats, dummy = g[G_SEATS], g[G_DUMMY]
    seen = S.hands[me]
    if dummy >= 0:
        seen |= S.hands[dummy]
    shown = np.int64(0)
    for s in range(seats):
        shown |= S.known[s]
    pool = FULL & ~g[G_PLAYED] & ~seen & ~shown
    m = 0
    for s in range(seats):
        if s == me or s == dummy:
            continue
        holder[m] = s
        need[m] = popcount(S.hands[s]) - popcount(S.known[s])
        allowed[m] = S.possible[s] & pool
        m += 1
    if dummy >= 0:
        face_down = 0
        for c in range(40):
            face_down += S.under[c] >= 0
        if face_down:
            holder[m], need[m], allowed[m] = -1, face_down, pool
            m += 1
        if g[G_UNCOVER] >= 0:
            holder[m], need[m], allowed[m] = UNCOVERED, 1, pool
            m += 1
    return m, pool


@njit(cache=True)
def set_up_holders(S, me, holder, need, allowed):
    """``holders_of`` before the first trick: every card seat ``me`` does not see, except that
    the commander (who says so) holds the rocket 4, which never lies beneath the dummy."""
    g = S.g
    seats, dummy, cmd = g[G_SEATS], g[G_DUMMY], g[G_CMD]
    seen = S.hands[me]
    if dummy >= 0:
        seen |= S.hands[dummy]
    pool = FULL & ~seen
    rest = pool & ~ROCKET_4
    m = 0
    for s in range(seats):
        if s == me or s == dummy:
            continue
        holder[m], need[m] = s, popcount(S.hands[s])
        allowed[m] = pool if s == cmd else rest
        m += 1
    if dummy >= 0:
        face_down = 0
        for c in range(40):
            face_down += S.under[c] >= 0
        holder[m], need[m], allowed[m] = -1, face_down, rest
        m += 1
    return m, pool


@njit(cache=True)
def uncovered_of(holder, m, dealt):
    """The card a sampled deal puts beneath the dummy's face-up card played in this trick, or
    -1 when it has not played one that covered a card."""
    for h in range(m):
        if holder[h] == UNCOVERED:
            return lowest(dealt[h])
    return -1


@njit(cache=True)
def decider(S, seat):
    """Whose knowledge a decision for ``seat`` uses: the commander decides for the dummy."""
    return S.g[G_CMD] if seat == S.g[G_DUMMY] else seat


@njit(cache=True)
def place_world(S, holder, m, dealt, hands, under, st):
    """Write a sampled deal into a game's hands (shown cards stay with their holders) and,
    for the face-down pile, beneath the dummy's face-up cards in a uniform order."""
    for h in range(m):
        s = holder[h]
        if s >= 0:
            hands[s] = dealt[h] | S.known[s]
        elif s == -1:
            pile = dealt[h]
            tops = np.zeros(40, dtype=np.int64)
            n = 0
            for c in range(40):
                if S.under[c] >= 0:
                    tops[n] = c
                    n += 1
            for i in range(n - 1, 0, -1):
                j = rand_below(st, i + 1)
                tops[i], tops[j] = tops[j], tops[i]
            for i in range(n):
                c = lowest(pile)
                pile &= pile - 1
                under[tops[i]] = c
