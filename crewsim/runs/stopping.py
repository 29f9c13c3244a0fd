"""When a cell has played enough: its 95 % interval narrow enough (``--precision``), apart from
its neighbours' in the ranking (``--separate``), or its cap (``-n``) reached.

Pure rules on counts.  ``runs.waves`` applies them to whole chunks of a cell in index order
(a prefix), never to whichever chunks landed first, so the stop and the numbers are the same
whatever ``--jobs`` or backend.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from crewsim.errors import CrewsimError
from crewsim.runs.stats import Z95, wilson

PRECISION = "precision"  # the interval's half-width reached the asked width
SEPARATED = "separated"  # the interval overlaps no neighbour's in the ranking
CAP = "cap"  # the cell played every game ``-n`` allows
STOP_REASONS = (PRECISION, SEPARATED, CAP)

STOP_CHUNK_SIZE = 2_000  # games per chunk when a run may stop early: a cell's stop is read
# after whole chunks, so they must be small; 50,000 would make -n 20,000 one step


@dataclass(frozen=True)
class Stopping:
    """What may stop a cell before its cap: a half-width (a share, 0.005 = 0.5 points), and
    whether a cell stops once its interval is apart from its neighbours'."""

    precision: float | None = None
    separate: bool = False

    @property
    def active(self) -> bool:
        """Whether a cell may stop before its cap."""
        return self.precision is not None or self.separate

    def check(self) -> None:
        """A half-width outside (0, 0.5) never or always holds: a typo, refused in one line."""
        w = self.precision
        if w is not None and not (math.isfinite(w) and 0 < w < 0.5):
            raise CrewsimError(
                f"--precision: expected a share above 0 and below 0.5 (0.005 or 0.5%), got {w!r}"
            )

    def to_dict(self) -> dict[str, Any]:
        """As the manifest records it."""
        return {"precision": self.precision, "separate": self.separate}

    @classmethod
    def from_dict(cls, doc: dict[str, Any] | None) -> Stopping:
        """From a manifest (a run made before early stops has none: it never stops early)."""
        if not doc:
            return cls()
        w = doc.get("precision")
        return cls(None if w is None else float(w), bool(doc.get("separate", False)))


def default_chunk_size(stopping: Stopping, fixed: int) -> int:
    """Games per chunk of a new run: small when it may stop early, ``fixed`` otherwise."""
    return STOP_CHUNK_SIZE if stopping.active else fixed


@dataclass(frozen=True)
class Tally:
    """A cell's counted games and wins (the chunks of a prefix)."""

    games: int = 0
    successes: int = 0

    def plus(self, games: int, successes: int) -> Tally:
        return Tally(self.games + games, self.successes + successes)

    @property
    def interval(self) -> tuple[float, float]:
        """The summary's 95 % interval (``stats.wilson``)."""
        return wilson(self.successes, self.games)

    @property
    def half_width(self) -> float:
        """Half the interval's width; infinite before any game."""
        if self.games <= 0:
            return math.inf
        low, high = self.interval
        return (high - low) / 2

    def precise(self, width: float) -> bool:
        return self.half_width <= width


def overlapping(tallies: Sequence[Tally]) -> list[bool]:
    """For the cells of one crew size: whether each interval overlaps a neighbour's in the order
    by success rate (``tied`` in ``report.tables.ranking``).  A cell without games overlaps."""
    played = [i for i, t in enumerate(tallies) if t.games > 0]
    order = sorted(played, key=lambda i: (-tallies[i].successes / tallies[i].games, i))
    tied = [t.games <= 0 for t in tallies]
    for above, below in zip(order, order[1:], strict=False):
        if tallies[above].interval[0] <= tallies[below].interval[1]:
            tied[above] = tied[below] = True
    return tied


def chunks_for_precision(tally: Tally, width: float, chunk_size: int, counted: int) -> int:
    """Chunks a cell should hold after its next wave: enough, by today's estimate, for the
    half-width to reach ``width`` (p(1-p)(z/W)^2 games, p pulled off 0 and 1 by two wins and
    two losses), one more at least, and at most twice what it has so a rough early estimate
    wastes little."""
    p = (tally.successes + 2) / (tally.games + 4)
    need = math.ceil(p * (1 - p) * (Z95 / width) ** 2 / chunk_size)
    return max(counted + 1, min(need, 2 * counted))
