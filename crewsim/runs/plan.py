"""The plan of a run: cells (mission x crew size) cut into fixed-size chunks, each seeded.

Chunking and seeding never depend on ``jobs`` or the backend, so the same root seed gives the
same numbers however the chunks are scheduled.  The plan is *prefix-stable* in ``games``: chunk
``k`` of a cell has the same seed and size whatever ``games`` is (only the last, partial chunk
changes), which is what lets a larger ``-n`` top a run up instead of starting over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from crewsim.bots import Bot
from crewsim.errors import CrewsimError
from crewsim.kernel.layout import DISTRESS_CODES
from crewsim.kernel.spec import KernelMission
from crewsim.missions.schema import Mission
from crewsim.runs.backends import check_backend, worker_count
from crewsim.runs.stopping import Stopping

MAX_GAMES = 10**10  # per cell: ~10 core-hours; a plan of 200,000 chunks, still small in memory


CHUNK_SIZE = 50_000  # games per chunk: large enough to amortise dispatch, small for memory


MAX_CHUNKS = MAX_GAMES // CHUNK_SIZE  # per cell: the plan's size at MAX_GAMES in usual chunks


_SEED_MASK = (1 << 63) - 1


@dataclass(frozen=True)
class Cell:
    """One mission at one player count: the unit a summary row describes."""

    mission: Mission
    players: int

    @property
    def key(self) -> str:
        """File-name-safe id: ``pn-7-4p``."""
        return cell_key(self.mission.id, self.players)


def cell_key(mission_id: str, players: int) -> str:
    """A cell's id from its mission id and crew size (run files are named by it)."""
    return f"{mission_id}-{players}p"


@dataclass(frozen=True)
class ChunkTask:
    """One chunk of games of one cell, with the int64 seed the kernel reads."""

    cell: int
    key: str
    index: int
    games: int
    seed: int

    @property
    def file_name(self) -> str:
        return chunk_file_name(self.key, self.index)


def chunk_file_name(key: str, index: int) -> str:
    """Chunk ``index`` of a cell's plan, as a file of the run's ``chunks/`` folder."""
    return f"{key}-{index:05d}.parquet"


def n_chunks(games: int, chunk_size: int) -> int:
    """Chunks a cell of ``games`` is cut into (the last may be smaller)."""
    return -(-games // chunk_size)


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's numbers (and jobs/backend/scheduler, which must not)."""

    missions: tuple[Mission, ...]
    players: tuple[int, ...]
    games: int
    bot: Bot
    seed: int = 0
    jobs: int = -1
    distress: str = "auto"
    chunk_size: int = CHUNK_SIZE
    bots_file: str | None = None
    backend: str = "loky"
    scheduler: str | None = None
    stopping: Stopping = Stopping()  # -n is then the cap of a cell that may stop earlier

    def cells(self) -> list[Cell]:
        """Cells in a stable order (missions as given, then player counts): seeds follow it."""
        return [Cell(m, p) for m in self.missions for p in self.players]

    def check(self) -> None:
        """Reject bad input with one line before any work or any file is made."""
        if not self.missions:
            raise CrewsimError("no missions to simulate")
        if not self.players:
            raise CrewsimError("--players: give at least one player count")
        for p in self.players:
            if p not in (2, 3, 4, 5):
                raise CrewsimError(f"--players: expected 2 to 5, got {p}")
        if self.games <= 0:
            raise CrewsimError(f"-n: expected a positive number of games, got {self.games}")
        check_games(self.games)
        if self.chunk_size <= 0:
            raise CrewsimError(f"chunk size must be positive, got {self.chunk_size}")
        if n_chunks(self.games, self.chunk_size) > MAX_CHUNKS:  # small chunks (--precision)
            most = MAX_CHUNKS * self.chunk_size
            raise CrewsimError(
                f"-n: at most {most:,} games per cell in chunks of {self.chunk_size:,}, "
                f"got {self.games:,}"
            )
        if self.distress not in DISTRESS_CODES:
            known = "|".join(DISTRESS_CODES)
            raise CrewsimError(f"--distress: expected {known}, got {self.distress!r}")
        if self.seed < 0:
            raise CrewsimError(f"--seed: expected a non-negative integer, got {self.seed}")
        check_backend(self.backend, self.scheduler)
        self.stopping.check()

    def mission_vector(self, cell: Cell) -> np.ndarray:
        """The kernel's mission vector; raises CrewsimError for what the kernel cannot play
        (or the crew: the pimc crew's solver models only part of the missions)."""
        mp = KernelMission(cell.mission, cell.players, self.distress).vector()
        if self.bot.kind == "pimc":
            from crewsim.solver.pimc import check_mission

            check_mission(mp, cell.mission.id)
        return mp

    def workers(self) -> int:
        """Worker count from ``jobs`` (0 or -1 all cores, -2 all but one)."""
        return worker_count(self.jobs)


def chunk_seed(seq: np.random.SeedSequence) -> int:
    """A non-negative int64 seed for the kernel from one SeedSequence child."""
    return int(seq.generate_state(1, np.uint64)[0]) & _SEED_MASK


def cell_seed_sequence(root_seed: int, key: str) -> np.random.SeedSequence:
    """A cell's seeds hang off its key (``pn-7-4p``), not its place in the run, so a mission
    at a player count gets the same deals whichever other missions share the run."""
    return np.random.SeedSequence(root_seed, spawn_key=(int.from_bytes(key.encode(), "big"),))


def plan_chunks(
    keys: Sequence[str], games: int, root_seed: int, chunk_size: int
) -> list[ChunkTask]:
    """Root seed and cell key -> one child per chunk; the last chunk may be smaller.

    ``SeedSequence.spawn`` gives child ``k`` the spawn key ``(..., k)`` however many children
    are asked for, so chunk ``k`` keeps its seed when ``games`` grows: the plan is prefix-stable.
    """
    tasks = []
    count = n_chunks(games, chunk_size)
    for c, key in enumerate(keys):
        for k, seq in enumerate(cell_seed_sequence(root_seed, key).spawn(count)):
            size = min(chunk_size, games - k * chunk_size)
            tasks.append(ChunkTask(c, key, k, size, chunk_seed(seq)))
    return tasks


def plan(config: RunConfig) -> list[ChunkTask]:
    """The chunks of a run, each named by its cell."""
    keys = [c.key for c in config.cells()]
    return plan_chunks(keys, config.games, config.seed, config.chunk_size)


def check_games(games: int, what: str = "games") -> None:
    """A count beyond ``MAX_GAMES`` is a typo (``1e13`` for ``1e3``), not a plan: its chunk
    list alone would fill the memory."""
    if games > MAX_GAMES:
        raise CrewsimError(f"-n: at most {MAX_GAMES:,} {what} per cell, got {games:,}")
