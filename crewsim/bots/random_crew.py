"""The random crew: a baseline that knows the rules and nothing else.

Every choice it makes is a draw from the kernel's random stream: a legal card, a free task, a
yes or no, a member, a direction, a card to pass.  It never communicates, changes no order
token, hands no task over, never calls the distress signal unless the run makes it, and no
member answers when the commander asks who takes every task (the commander picks one at
random).  The entry functions (``crew``, ``setup``, ``deep_sea_setup``) send a decision here
when ``bp[BP_KIND] == RANDOM``.  Deep Sea's predictions have no random version: both crews
predict as the heuristic does.
"""

import numpy as np

from crewsim.bots.registry import KINDS
from crewsim.kernel.bits import COLOURS, lowest, popcount, rand_below, rand_card
from crewsim.kernel.jit import compiled, inlined

RANDOM = KINDS["random"]  # ``bp[BP_KIND]`` of this crew


@inlined
def play(legal, st):
    """Any legal card."""
    return rand_card(st, legal)


@inlined
def communicate():
    """No card: the random crew never communicates."""
    return -1


@inlined
def draft(free_tasks, st):
    """Any free task (an index in the ``free_tasks`` mask)."""
    return np.int64(lowest(_nth_index(free_tasks, rand_below(st, popcount(free_tasks)))))


@compiled
def _nth_index(m: np.int64, k: np.int64):
    """Mask holding only the ``k``-th set bit of ``m``."""
    for _ in range(k):
        m &= m - 1
    return m & -m


@inlined
def answer(st):
    """Yes or no, at even odds."""
    return rand_below(st, 2) == 1


@inlined
def any_member(seats, st):
    """Any seat."""
    return rand_below(st, seats)


@inlined
def other_member(seat, seats, st):
    """Any seat but ``seat``."""
    return (seat + 1 + rand_below(st, seats - 1)) % seats


@inlined
def taker_of_all(seats, cap, cap_ok, st):
    """The member who takes every Deep Sea task: any, or any but the captain when a task
    card it may not take is among them (``cap_ok`` false)."""
    if cap_ok:
        return rand_below(st, seats)
    # drawn from a mask: numba 0.68 miscompiled (cap + 1 + r) % seats once
    return rand_card(st, ((np.int64(1) << seats) - 1) & ~(np.int64(1) << cap))


@inlined
def pick_score(st):
    """A Deep Sea draft pick's score: the highest of these draws takes the task."""
    return float(rand_below(st, 1000))


@inlined
def direction(st):
    """The distress signal's direction: +1 or -1."""
    return 1 if rand_below(st, 2) == 1 else -1


@inlined
def pass_card(hand, st):
    """Any colour card of ``hand``, passed under the distress signal."""
    return rand_card(st, hand & COLOURS)
