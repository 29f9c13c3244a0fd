"""How a long job reports progress without drawing it: the command passes a bar, the job says
how much there is to do once it knows and advances the bar as work lands."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

Advance = Callable[[int], None]
"""Called with the units (games, deals) just done."""

Bar = Callable[[int], AbstractContextManager[Advance]]
"""Opened with the units to do; yields the ``Advance`` the job calls."""


@contextmanager
def no_bar(total: int) -> Iterator[Advance]:
    """The bar of a job nobody watches (tests, scripts)."""
    yield lambda done: None


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``, ``1,000 games``: the count with thousands separators and the
    word in the right number (``many`` for an irregular plural)."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"
