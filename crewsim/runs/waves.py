"""Playing a run in waves: each wave asks every open cell for some more chunks, plays those not
yet in the folder, then reads each cell's chunks in index order to decide whether it stops.

What a wave asks for depends only on the counts of the chunks already counted, and a cell's
stop only on its prefix of chunks, so the same seed stops each cell after the same chunk
whatever ``--jobs``, the backend, or an interruption and resume in between.  Chunks a wave
played past a cell's stop are not counted (the run folder keeps them aside in ``unused/``).
A run that never stops early is one wave asking every cell for its cap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from crewsim.runs.chunks import ChunkCounts
from crewsim.runs.plan import ChunkTask, RunConfig
from crewsim.runs.stopping import (
    CAP,
    PRECISION,
    SEPARATED,
    Tally,
    chunks_for_precision,
    overlapping,
)

ChunkKey = tuple[int, int]  # (cell, chunk index)


@dataclass(frozen=True)
class Settled:
    """Where every cell stopped: its counted chunks (a prefix of its plan) and why."""

    chunks: tuple[int, ...]  # per cell, chunks counted
    reasons: tuple[str, ...]  # per cell, one of ``stopping.STOP_REASONS``

    def counted(self, key: ChunkKey) -> bool:
        """Whether a chunk lies in its cell's counted prefix."""
        cell, index = key
        return index < self.chunks[cell]


class _Cells:
    """The cells' counted prefixes while the waves run."""

    def __init__(self, config: RunConfig, tasks: Sequence[ChunkTask]) -> None:
        n = len(config.cells())
        self.config = config
        self.cap = [0] * n
        for t in tasks:
            self.cap[t.cell] = max(self.cap[t.cell], t.index + 1)
        self.prefix = [0] * n
        self.tally = [Tally()] * n
        self.final: dict[int, str] = {}  # cells that stop whatever their neighbours do

    def count(self, cell: int, upto: int, landed: Mapping[ChunkKey, ChunkCounts]) -> None:
        """Count the cell's chunks up to ``upto`` in index order, stopping where it is precise."""
        width = self.config.stopping.precision
        while self.prefix[cell] < upto and cell not in self.final:
            done = landed[(cell, self.prefix[cell])]
            self.tally[cell] = self.tally[cell].plus(done.task.games, done.successes)
            self.prefix[cell] += 1
            if width is not None and self.tally[cell].precise(width):
                self.final[cell] = PRECISION
            elif self.prefix[cell] == self.cap[cell]:
                self.final[cell] = CAP

    def tied(self) -> list[bool]:
        """Per cell: whether its interval overlaps a neighbour's among its crew size's cells."""
        sizes = [c.players for c in self.config.cells()]
        tied = [False] * len(sizes)
        for p in set(sizes):
            group = [c for c, size in enumerate(sizes) if size == p]
            for c, t in zip(group, overlapping([self.tally[c] for c in group]), strict=True):
                tied[c] = t
        return tied

    def wave(self) -> dict[int, int]:
        """Per open cell, the chunks it should hold after the next wave (none: all stopped)."""
        stopping = self.config.stopping
        open_cells = [c for c in range(len(self.cap)) if c not in self.final]
        if not stopping.active:
            return {c: self.cap[c] for c in open_cells}
        if stopping.separate:  # one chunk more for each cell the ranking cannot yet place
            tied = self.tied()
            return {c: self.prefix[c] + 1 for c in open_cells if tied[c]}
        width = stopping.precision
        assert width is not None
        size = self.config.chunk_size
        return {
            c: min(self.cap[c], chunks_for_precision(self.tally[c], width, size, self.prefix[c]))
            for c in open_cells
        }

    def settled(self) -> Settled:
        """Why each cell stopped: precise, apart from its neighbours (``--separate``), or capped."""
        tied = self.tied()
        separate = self.config.stopping.separate

        def why(c: int) -> str:
            if self.final.get(c) == PRECISION:
                return PRECISION
            return SEPARATED if separate and not tied[c] else CAP

        return Settled(tuple(self.prefix), tuple(why(c) for c in range(len(self.cap))))


def settle(
    config: RunConfig,
    tasks: Sequence[ChunkTask],
    landed: Mapping[ChunkKey, ChunkCounts],
    play: Callable[[list[ChunkTask]], None],
) -> Settled:
    """Play waves until every cell stops; ``landed`` holds the chunks already in the folder and
    ``play`` adds the ones a wave needs (it plays them and puts them in ``landed``)."""
    by_key = {(t.cell, t.index): t for t in tasks}
    cells = _Cells(config, tasks)
    while wanted := cells.wave():
        missing = [
            by_key[(c, k)]
            for c, upto in wanted.items()
            for k in range(cells.prefix[c], upto)
            if (c, k) not in landed
        ]
        if missing:
            play(missing)
        for c, upto in wanted.items():
            cells.count(c, upto, landed)
    return cells.settled()
