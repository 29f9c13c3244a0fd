"""Planet Nine order tokens as one relation: which task must be completed no later than which.

Tasks completed in the same trick never break an order, so every constraint is "no later than".
The referee checks it task by task; the kernel receives it as a predecessor bitmask per task.
"""

from __future__ import annotations

from collections.abc import Sequence

NUMBERED = ("1", "2", "3", "4", "5")
ARROWS = (">", ">>", ">>>", ">>>>")
OMEGA = "omega"
TOKENS = (*NUMBERED, *ARROWS, OMEGA)


def must_precede(a: str | None, b: str | None) -> bool:
    """True when a task with token ``a`` must complete no later than a task with token ``b``.

    Numbers: 1 before 2 before ..., and every task without a number after all numbered ones.
    Arrows: fewer arrows first; unmarked tasks are free.  Omega: after every other task.
    """
    if b == OMEGA:
        return a != OMEGA
    if a in NUMBERED:
        return b not in NUMBERED or int(a) < int(b)  # type: ignore[arg-type]
    if a in ARROWS and b in ARROWS:
        return len(a) < len(b)  # type: ignore[arg-type]
    return False


def predecessors(tokens: Sequence[str | None]) -> list[int]:
    """For each task, the bitmask of tasks that must be completed no later than it."""
    return [
        sum(1 << j for j, a in enumerate(tokens) if j != i and must_precede(a, b))
        for i, b in enumerate(tokens)
    ]
