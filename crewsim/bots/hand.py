"""What a hand is worth on its own: how well it can deliver a task card, its trick-taking
strength, the tricks it takes for sure, its best card, what spending a high card is worth,
and the trumps its owner's task cards in other hands need."""

import numpy as np

from crewsim.bots.weights import (
    POWER_EIGHT,
    POWER_NINE,
    POWER_TRUMP,
    SHED_HIGH,
    SHED_SUB,
    TASK_COLOUR,
    TASK_HIGHER,
    TASK_LENGTH,
    TASK_TOP_OVER,
    TASK_TOP_VALUE,
    TASK_TRUMP,
    TASK_VOID,
    TASK_VOID_TRUMP,
)
from crewsim.kernel.bits import (
    BEATS,
    COLOURS,
    SUIT,
    TRUMPS,
    highest,
    lowest,
    popcount,
    suit_of,
    value_of,
)
from crewsim.kernel.jit import compiled, inlined


@inlined
def task_score(hand: np.int64, tc: np.int64):
    """How well a hand can deliver task card ``tc``: high cards and length in its colour, trumps."""
    s = suit_of(tc)
    mine = hand & SUIT[s]
    trumps = popcount(hand & TRUMPS)
    if hand >> tc & 1:
        higher_mine = popcount(mine & BEATS[tc] & COLOURS)
        return value_of(tc) + TASK_HIGHER * higher_mine + TASK_TRUMP * trumps
    if mine:
        top = highest(mine)
        if top > tc:
            return (
                TASK_TOP_OVER + value_of(top) + TASK_LENGTH * popcount(mine) + TASK_TRUMP * trumps
            )
        return TASK_COLOUR + TASK_TOP_VALUE * value_of(top) + TASK_TRUMP * trumps
    return TASK_VOID + TASK_VOID_TRUMP * trumps


@compiled
def strength(hand: np.int64):
    """Trick-taking power of a hand: trumps, nines and eights."""
    s = POWER_TRUMP * popcount(hand & TRUMPS)
    for c in range(4):
        top = hand & SUIT[c]
        if top >> (9 * c + 8) & 1:
            s += POWER_NINE
        if top >> (9 * c + 7) & 1:
            s += POWER_EIGHT
    return s


@inlined
def sure_tricks(hand, played):
    """How many tricks ``hand`` surely takes on lead: per suit, its cards above every card
    still out."""
    n = 0
    for u in range(5):
        out = SUIT[u] & ~hand & ~played
        m = hand & SUIT[u]
        while m:
            c = highest(m)
            if out & BEATS[c]:
                break
            n += 1
            m &= ~(np.int64(1) << c)
    return n


@inlined
def best_card(hand):
    """The highest submarine in ``hand``, else its highest-valued colour card."""
    if hand & TRUMPS:
        return highest(hand & TRUMPS)
    best, best_v = np.int64(-1), -1
    m = hand
    while m:
        c = lowest(m)
        m &= m - 1
        if value_of(c) > best_v:
            best, best_v = c, value_of(c)
    return best


@inlined
def spent(c):
    """What playing high card ``c`` now is worth to a hand that sheds its winners (a submarine
    a little more)."""
    return SHED_HIGH * value_of(c) + (SHED_SUB if c >= 36 else 0.0)


@inlined
def ruffs_needed(hand, mine_open):
    """My open task cards held by others that no card of mine tops in their colour: each
    needs a trump of mine (once void in the colour) unless its holder discards it.  (How
    many, and the colour cards of mine to be rid of.)"""
    n = 0
    shed = np.int64(0)
    m = mine_open & ~TRUMPS
    while m:
        tc = lowest(m)
        m &= m - 1
        if hand & SUIT[suit_of(tc)] & BEATS[tc] == 0:
            n += 1
            shed |= hand & SUIT[suit_of(tc)]
    return n, shed
