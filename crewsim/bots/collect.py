"""How far an owner is from a Deep Sea card that counts the cards it wins, for the bots.

"At least 5 pink", "exactly 2 submarines", "all cards of one colour", "as many pink as
yellow": such a card is met or lost by which cards end up in the owner's tricks, so the
bots weigh each trick and each card by what it does to one number, ``collect_value``: 0 once
the owner has what it needs, ``-WANT`` per card still missing, less when the cards it could
still win run short or too many are still about, ``-LOST`` once the card cannot be met.  It
reads the judge's own encoding (``conditions.encode_task``) and asks the judge's own
``won_cards_verdict`` whether the card is lost, so the two cannot drift apart.
"""

import numpy as np

from crewsim.bots.weights import (
    EXCESS,
    LOST,
    OWN,
    SUB_EXCESS,
    TIGHT,
    TIGHT_SLACK,
    WANT,
)
from crewsim.kernel.bits import SUIT, TRUMPS, highest, lowest, popcount
from crewsim.kernel.conditions import (
    FAILED,
    K_ALL_OF_ONE_COLOUR,
    K_AT_LEAST_COLOUR,
    K_AT_LEAST_RANK,
    K_EACH_COLOUR,
    K_EQUAL_COLOURS_TOTAL,
    K_EXACTLY_COLOUR,
    K_EXACTLY_RANK,
    K_EXACTLY_SUBS,
    K_MORE_COLOUR,
    K_ONLY_SUB,
    won_cards_verdict,
)
from crewsim.kernel.jit import compiled, inlined


@compiled
def is_collect(kind):
    """Whether a condition kind counts the cards its owner wins."""
    return (
        kind == K_AT_LEAST_RANK
        or kind == K_AT_LEAST_COLOUR
        or kind == K_EXACTLY_RANK
        or kind == K_EXACTLY_SUBS
        or kind == K_EXACTLY_COLOUR
        or kind == K_EACH_COLOUR
        or kind == K_ALL_OF_ONE_COLOUR
        or kind == K_EQUAL_COLOURS_TOTAL
        or kind == K_MORE_COLOUR
        or kind == K_ONLY_SUB
    )


@compiled
def counted(codes, at):
    """The cards whose place a counting card depends on: a card outside them changes nothing
    (so the bots skip it)."""
    kind, a, b = codes[at], codes[at + 1], codes[at + 2]
    if kind == K_EXACTLY_COLOUR:
        m = np.int64(0)
        for s in range(4):
            if codes[at + 1 + s] >= 0:
                m |= SUIT[s]
        return m
    if kind == K_EQUAL_COLOURS_TOTAL or kind == K_MORE_COLOUR:
        return a | b
    if kind == K_ONLY_SUB:
        return TRUMPS
    return a  # the counted cards (colours for each colour / all of one colour)


@inlined
def _tight(short, more):
    """Cards still missing with fewer than two to spare among the ``more`` still unplayed."""
    slack = more - short
    return TIGHT * (TIGHT_SLACK - slack) if short > 0 and slack < TIGHT_SLACK else 0.0


@inlined
def _exact(have, more, own, n, excess=EXCESS):
    """(value, missing) of "exactly ``n``", still within reach, with ``more`` such cards
    still unplayed, ``own`` of them in the owner's hand; ``excess`` per card beyond the
    count.  Submarines left over must each fall to another seat in a trick of its own, or
    they meet in the last tricks and one trick brings the owner too many: for 2 or 3 the crew
    gets rid of them early.  Not for exactly 1: that costs the owner its only submarine, which
    a submarine lead drags out; nor for ranks (both measured worse)."""
    short = n - have
    over = excess * (more - short) + OWN * max(own - short, 0)
    return -WANT * short - _tight(short, more) - over, short


@compiled
def sub_wins(mine, others):
    """(fewest, most) more submarines a hand holding the submarines ``mine`` can end up
    winning while ``others`` are still in other hands, all hands known: only a submarine takes
    a trick holding one, so each of its own wins unless a higher one of another hand falls on
    it (one each), and its highest can take every lower one of the others.  Measured with the
    solver (exactly 1, 2, 3 at 3-5 players): a count outside this range was never feasible."""
    if mine == 0:
        return 0, 0
    most = popcount(mine) + popcount(others & ((np.int64(1) << highest(mine)) - 1))
    fewest = popcount(mine)
    free = others
    m = mine
    while m:  # from its highest down, the lowest free higher submarine of another hand
        c = highest(m)
        m &= ~(np.int64(1) << c)
        above = free & ~((np.int64(1) << (c + 1)) - 1)
        if above:
            free &= ~(np.int64(1) << lowest(above))
            fewest -= 1
    return fewest, most


@compiled
def collect_value(codes, at, mine, live, held, spare):
    """(value, cards missing) of the counting card whose ``encode_task`` row starts at
    ``codes[at]``, for an owner who has won ``mine`` with ``live`` still unplayed, ``held`` of
    them in its hand (0 when the seat deciding cannot see that hand), ``spare`` of them it will
    never play (the hand of 14 at three players).  Value 0 is met, ``-LOST`` lost: when the
    judge's ``won_cards_verdict`` says FAILED, or the owner's own hand rules the card out."""
    if won_cards_verdict(codes, at, mine, live) == FAILED:
        return -LOST, 0
    kind, a, b, c = codes[at], codes[at + 1], codes[at + 2], codes[at + 3]
    if kind == K_AT_LEAST_RANK or kind == K_AT_LEAST_COLOUR:
        more = popcount(live & a)
        short = max(b - popcount(mine & a), 0)
        return -WANT * short - _tight(short, more), short
    if kind == K_EXACTLY_SUBS and held:  # the owner's own view: its hand decides what it
        have = popcount(mine & a)  # must still win and what it can (its last submarine, or
        fewest, most = sub_wins(held & a, live & a & ~held)  # sub 4, wins its trick)
        if not have + fewest - spare <= b <= have + most:
            return -LOST, 0
    if kind == K_EXACTLY_RANK or kind == K_EXACTLY_SUBS:
        excess = SUB_EXCESS if kind == K_EXACTLY_SUBS and b >= 2 else EXCESS
        return _exact(popcount(mine & a), popcount(live & a), popcount(held & a), b, excess)
    if kind == K_EXACTLY_COLOUR:
        v, short = 0.0, 0
        for s in range(4):
            n = codes[at + 1 + s]
            if n >= 0:
                m = SUIT[s]
                vs, ss = _exact(popcount(mine & m), popcount(live & m), popcount(held & m), n)
                v += vs
                short += ss
        return v, short
    if kind == K_EACH_COLOUR:
        v, short = 0.0, 0
        for s in range(4):
            m = SUIT[s] & a
            if m and not mine & m:
                v -= WANT + _tight(1, popcount(live & m))
                short += 1
        return v, short
    if kind == K_ALL_OF_ONE_COLOUR:  # the colour closest to complete that nobody else spoiled
        best = 9
        for s in range(4):
            m = SUIT[s] & a
            if m and not m & ~mine & ~live:
                best = min(best, popcount(m & ~mine))
        return -WANT * best, best
    if kind == K_EQUAL_COLOURS_TOTAL:  # a and b: as many of each, at least c
        na, nb = popcount(mine & a), popcount(mine & b)
        short = 2 * max(na, nb, c) - na - nb
        return -WANT * short, short
    if kind == K_MORE_COLOUR:  # more of a than of b (b at least once unless c)
        n_hi, n_lo = popcount(mine & a), popcount(mine & b)
        least_lo = n_lo if c else max(n_lo, 1)
        short = least_lo - n_lo + max(least_lo + 1 - n_hi, 0)
        return -WANT * short - EXCESS * popcount(live & b), short
    if kind == K_ONLY_SUB:  # submarine a and no other
        others = EXCESS * popcount(live & TRUMPS & ~a)
        if mine & a:
            return -others, 0
        return -WANT - others, 1
    return np.float64(0.0), 0
