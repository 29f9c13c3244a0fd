"""Monte Carlo runs: plan cells x fixed-size chunks, seed each chunk, run them in parallel.

Chunking and seeding never depend on ``jobs`` or the backend, so the same root seed gives the
same numbers however the chunks are scheduled.  Each chunk's games go straight to a Parquet
file (written atomically); only small per-chunk count tables stay in memory.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from crewsim import __version__
from crewsim.bots import Bot
from crewsim.errors import CrewsimError
from crewsim.kernel.layout import DISTRESS_CODES
from crewsim.kernel.spec import KernelMission
from crewsim.missions.schema import Mission
from crewsim.stats import summarise

CHUNK_SIZE = 50_000  # games per chunk: large enough to amortise dispatch, small for memory
_SEED_MASK = (1 << 63) - 1
_FAIL_SCHEMA = {"kind": pl.Int8, "detail": pl.Int8, "trick": pl.Int8, "count": pl.Int64}


@dataclass(frozen=True)
class Cell:
    """One mission at one player count: the unit a summary row describes."""

    mission: Mission
    players: int

    @property
    def key(self) -> str:
        """File-name-safe id: ``pn-7-4p``."""
        return f"{self.mission.id}-{self.players}p"


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
        return f"{self.key}-{self.index:05d}.parquet"


@dataclass(frozen=True)
class ChunkCounts:
    """What a finished chunk reports back: counts only, never the games."""

    task: ChunkTask
    successes: int
    distress_games: int
    failures: pl.DataFrame  # kind, detail, trick, count
    seconds: float


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's numbers (and ``jobs``, which must not)."""

    missions: tuple[Mission, ...]
    players: tuple[int, ...]
    games: int
    bot: Bot
    seed: int = 0
    jobs: int = -1
    distress: str = "auto"
    chunk_size: int = CHUNK_SIZE
    bots_file: str | None = None

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
        if self.chunk_size <= 0:
            raise CrewsimError(f"chunk size must be positive, got {self.chunk_size}")
        if self.jobs == 0:
            raise CrewsimError("--jobs: 0 is not allowed (1 = serial, -1 = all cores)")
        if self.distress not in DISTRESS_CODES:
            known = "|".join(DISTRESS_CODES)
            raise CrewsimError(f"--distress: expected {known}, got {self.distress!r}")
        if self.seed < 0:
            raise CrewsimError(f"--seed: expected a non-negative integer, got {self.seed}")

    def mission_vector(self, cell: Cell) -> np.ndarray:
        """The kernel's mission vector; raises CrewsimError for what the kernel cannot play."""
        return KernelMission(cell.mission, cell.players, self.distress).vector()


@dataclass(frozen=True)
class RunResult:
    """A finished run: where it lives and its summary (one row per cell)."""

    out: Path
    summary: pl.DataFrame
    failures: pl.DataFrame
    games: int
    seconds: float


def chunk_seed(seq: np.random.SeedSequence) -> int:
    """A non-negative int64 seed for the kernel from one SeedSequence child."""
    return int(seq.generate_state(1, np.uint64)[0]) & _SEED_MASK


def plan_chunks(n_cells: int, games: int, root_seed: int, chunk_size: int) -> list[ChunkTask]:
    """Root seed -> one child per cell -> one child per chunk; the last chunk may be smaller."""
    n_chunks = -(-games // chunk_size)
    tasks = []
    for c, cell_seq in enumerate(np.random.SeedSequence(root_seed).spawn(n_cells)):
        for k, seq in enumerate(cell_seq.spawn(n_chunks)):
            size = min(chunk_size, games - k * chunk_size)
            tasks.append(ChunkTask(c, "", k, size, chunk_seed(seq)))
    return tasks


def plan(config: RunConfig) -> list[ChunkTask]:
    """The chunks of a run, each named by its cell."""
    cells = config.cells()
    return [
        ChunkTask(t.cell, cells[t.cell].key, t.index, t.games, t.seed)
        for t in plan_chunks(len(cells), config.games, config.seed, config.chunk_size)
    ]


def default_out(seed: int, root: Path = Path("runs")) -> Path:
    """``runs/<timestamp>-<seed>``, with a suffix if that folder already exists."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out, k = root / f"{stamp}-{seed}", 1
    while out.exists():
        out, k = root / f"{stamp}-{seed}-{k}", k + 1
    return out


# ---------------------------------------------------------------- worker side

_warm = False


def _warm_up(mp: np.ndarray, bp: np.ndarray) -> None:
    """Compile (or load from cache) once per process, so chunk timings are game time only."""
    global _warm
    if not _warm:
        from crewsim.kernel.run import run_chunk

        run_chunk(mp, bp, 1, 0)
        _warm = True


def _atomic_write(df: pl.DataFrame, path: Path) -> None:
    """Write then rename: a chunk file exists only when it is complete."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    df.write_parquet(tmp)
    os.replace(tmp, path)


def play_chunk(task: ChunkTask, mp: np.ndarray, bp: np.ndarray, chunks: Path) -> ChunkCounts:
    """Play one chunk, stream its games to Parquet, return its counts (runs in a worker)."""
    from crewsim.kernel.run import RESULT_COLUMNS, run_chunk

    _warm_up(mp, bp)
    start = time.perf_counter()
    res = run_chunk(mp, bp, task.games, task.seed)
    df = pl.DataFrame({c: res[c] for c in RESULT_COLUMNS})
    _atomic_write(df, chunks / task.file_name)
    failures = (
        df.filter(~pl.col("success"))
        .group_by(pl.col("fail_kind").alias("kind"), pl.col("fail_detail").alias("detail"),
                  pl.col("fail_trick").alias("trick"))
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .sort("kind", "detail", "trick")
    )  # fmt: skip
    return ChunkCounts(
        task,
        int(res["success"].sum()),
        int(res["distress"].sum()),
        failures,
        time.perf_counter() - start,
    )


# ---------------------------------------------------------------- driver side


def manifest(config: RunConfig, tasks: Sequence[ChunkTask]) -> dict[str, Any]:
    """The full configuration of a run, written before any game is played."""
    import numba

    cells = config.cells()
    return {
        "crewsim_version": __version__,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "root_seed": config.seed,
        "games_per_cell": config.games,
        "chunk_size": config.chunk_size,
        "chunks": len(tasks),
        "jobs": config.jobs,
        "distress": config.distress,
        "players": list(config.players),
        "missions": [m.id for m in config.missions],
        "bot": {
            "name": config.bot.name,
            "kind": config.bot.kind,
            "params": dict(config.bot.params),
            "vector": config.bot.vector().tolist(),
            "file": config.bots_file,
        },
        "cells": [
            {
                "key": c.key,
                "mission": c.mission.id,
                "players": c.players,
                "mission_vector": config.mission_vector(c).tolist(),
                "mission_record": c.mission.to_dict(),
            }
            for c in cells
        ],  # fmt: skip
        "seeding": "SeedSequence(root_seed).spawn(cells)[cell].spawn(chunks)[k]"
        " -> generate_state(1, uint64)[0] & (2**63 - 1)",
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "numba": numba.__version__,
            "polars": pl.__version__,
        },
    }


def _execute(
    tasks: Sequence[ChunkTask],
    vectors: Sequence[np.ndarray],
    bp: np.ndarray,
    chunks: Path,
    jobs: int,
) -> Iterator[ChunkCounts]:
    """Chunks through joblib's loky processes, in completion order (serial for jobs=1)."""
    from joblib import Parallel, delayed

    if jobs == 1:  # in-process: no pickling, and the parent's compiled kernel is reused
        for t in tasks:
            yield play_chunk(t, vectors[t.cell], bp, chunks)
        return
    parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
    yield from parallel(delayed(play_chunk)(t, vectors[t.cell], bp, chunks) for t in tasks)


def run(
    config: RunConfig,
    out: Path | None = None,
    on_chunk: Callable[[ChunkCounts], None] | None = None,
) -> RunResult:
    """Plan, write the manifest, run every chunk, write and return the summary."""
    config.check()
    cells = config.cells()
    vectors = [config.mission_vector(c) for c in cells]  # fails before any file is made
    bp = config.bot.vector()
    tasks = plan(config)
    out = (out or default_out(config.seed)).absolute()  # workers may run in another cwd
    chunks = out / "chunks"
    chunks.mkdir(parents=True, exist_ok=True)
    (out / "manifest.json").write_text(json.dumps(manifest(config, tasks), indent=2) + "\n")
    _warm_up(vectors[0], bp)  # compile (or fill the cache) once before workers start

    start = time.perf_counter()
    counts: list[dict[str, Any]] = []
    failures: list[pl.DataFrame] = []
    for done in _execute(tasks, vectors, bp, chunks, config.jobs):
        cell = cells[done.task.cell]
        counts.append({
            "_cell": done.task.cell, "chunk": done.task.index,
            "mission": cell.mission.id, "players": cell.players,
            "games": done.task.games, "successes": done.successes,
            "distress_games": done.distress_games, "seconds": done.seconds,
        })  # fmt: skip
        failures.append(
            done.failures.with_columns(
                pl.lit(cell.mission.id).alias("mission"),
                pl.lit(cell.players, dtype=pl.Int64).alias("players"),
            )
        )
        if on_chunk is not None:
            on_chunk(done)
    seconds = time.perf_counter() - start
    return _finish(config, out, counts, failures, seconds)


def _finish(
    config: RunConfig,
    out: Path,
    counts: list[dict[str, Any]],
    failures: list[pl.DataFrame],
    seconds: float,
) -> RunResult:
    """Aggregate chunk counts in plan order and write summary.parquet/.csv and failures.parquet."""
    cell_counts = pl.DataFrame(counts).sort("_cell", "chunk")
    fail = (
        pl.concat(failures)
        .group_by("mission", "players", "kind", "detail", "trick")
        .agg(pl.col("count").sum())
        .sort("mission", "players", "kind", "detail", "trick")
        if failures
        else pl.DataFrame(schema={"mission": pl.String, "players": pl.Int64, **_FAIL_SCHEMA})
    )
    games_of = {m.id: m.game for m in config.missions}
    summary = summarise(cell_counts, fail, config.bot.name, games_of)
    summary.write_parquet(out / "summary.parquet")
    summary.write_csv(out / "summary.csv")
    fail.write_parquet(out / "failures.parquet")
    cell_counts.drop("_cell").write_parquet(out / "chunk_counts.parquet")
    total = int(cell_counts["games"].sum())
    return RunResult(out, summary, fail, total, seconds)


def read_games(out: Path) -> pl.LazyFrame:
    """All per-game rows of a run, lazily, with the cell key from the file name."""
    return pl.scan_parquet(out / "chunks" / "*.parquet", include_file_paths="file")
