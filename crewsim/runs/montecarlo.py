"""Monte Carlo runs: plan cells x fixed-size chunks, seed each chunk, run them in parallel.

Chunking and seeding never depend on ``jobs`` or the backend, so the same root seed gives the
same numbers however the chunks are scheduled: on loky processes here, or on a Dask cluster.
The plan is also *prefix-stable* in ``games``: chunk ``k`` of a cell has the same seed and size
whatever ``games`` is (only the last, partial chunk changes), which is what lets a larger ``-n``
top a run up instead of starting over.

Nothing is lost: workers return each chunk as Parquet bytes and the driver (the only writer)
stores it atomically with a ``sha256sum``-style checksum beside it.  A later run into the same
folder reuses every chunk whose checksum and contents check out, re-simulates the others, and
sums per-chunk counts recomputed from the verified bytes, never from a file it did not check.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from crewsim.errors import CrewsimError
from crewsim.runs.backends import Backend, open_workers
from crewsim.runs.chunks import ChunkCounts, Play, play_chunk, warm_kernel
from crewsim.runs.csv_out import write_csv
from crewsim.runs.folder import (
    MANIFEST,
    _checksum_path,
    atomic_write,
    check_same_configuration,
    default_out,
    manifest,
    read_manifest,
    set_aside,
    store_chunk,
    take_back,
    verify_chunk,
)
from crewsim.runs.plan import ChunkTask, RunConfig, plan
from crewsim.runs.run_format import STOPPED, check_resumable
from crewsim.runs.stats import summarise, with_failures
from crewsim.runs.stopping import Stopping
from crewsim.runs.waves import ChunkKey, settle

_FAIL_SCHEMA = {"kind": pl.Int8, "detail": pl.Int8, "trick": pl.Int8, "count": pl.Int64}


_NO_FAILURES = pl.DataFrame(schema=_FAIL_SCHEMA)


@dataclass(frozen=True)
class RunResult:
    """A finished run: where it lives and its summary (one row per cell)."""

    out: Path
    summary: pl.DataFrame
    failures: pl.DataFrame
    games: int
    seconds: float
    reused: int = 0  # chunks taken over from an earlier session
    damaged: tuple[str, ...] = ()  # one line per damaged chunk found (and re-simulated)
    played: int = 0  # games simulated in this session


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: finished chunks are safe on disk; says where the run stands."""

    exit_code = 130

    def __init__(self, out: Path, done: int, total: int, games_done: int, games: int) -> None:
        super().__init__(f"interrupted: {done} of {total} chunks done")
        self.out, self.done, self.total = out, done, total
        self.games_done, self.games = games_done, games

    def status(self) -> str:
        """One line for the user: where the run stands."""
        return (
            f"interrupted: {self.done} of {self.total} chunks done "
            f"({self.games_done:,} of {self.games:,} games) in {self.out}"
        )


@dataclass
class RunState:
    """A prepared run: the folder is checked, finished chunks are counted, the rest is to do."""

    config: RunConfig
    out: Path
    tasks: list[ChunkTask]
    done: list[ChunkCounts]
    todo: list[ChunkTask]
    previous_games: int | None = None  # games per cell of the run found in the folder
    damaged: list[str] = field(default_factory=list)
    # (cell, kind, detail, trick) -> games, over the chunks in ``done``: per-cell counts, not
    # a table per chunk, so a run of millions of chunks stays small in memory
    failed: Counter[tuple[int, int, int, int]] = field(default_factory=Counter)

    def keep(self, done: ChunkCounts) -> ChunkCounts:
        """Fold a finished chunk's failures into ``failed``; the chunk without them.  A run
        that may stop early keeps them with the chunk: it may not count it."""
        if self.config.stopping.active:
            return done
        for kind, detail, trick, count in done.failures.iter_rows():
            self.failed[(done.task.cell, kind, detail, trick)] += count
        return replace(done, failures=_NO_FAILURES)

    @property
    def chunks(self) -> Path:
        return self.out / "chunks"

    @property
    def todo_games(self) -> int:
        return sum(t.games for t in self.todo)


def _holds_files(folder: Path) -> bool:
    """Whether a folder without a manifest holds anything but dotfiles (``.DS_Store``) and an
    empty ``chunks/`` (left when a session stopped before writing its manifest)."""
    if not folder.is_dir():
        return False
    for entry in folder.iterdir():
        if entry.name.startswith("."):
            continue
        if entry.name == "chunks" and entry.is_dir() and not any(entry.iterdir()):
            continue
        return True
    return False


def prepare(config: RunConfig, out: Path | None = None) -> RunState:
    """Check the run folder, write the manifest, sort the plan into done and to-do chunks.

    A folder made by another configuration, or one holding more games per cell than asked
    (which would discard some), is refused with one line before anything is written.
    Damaged chunks are moved aside (``*.damaged``) and listed; they are simulated again.
    """
    config.check()
    for cell in config.cells():
        config.mission_vector(cell)  # fails before any file is made
    tasks = plan(config)
    out = (out or default_out(config.seed)).absolute()  # workers may run in another cwd
    if out.exists() and not out.is_dir():
        raise CrewsimError(f"--out {out}: is a file, not a folder")
    doc = manifest(config, tasks)
    previous: int | None = None
    outdated = False  # the folder's summary describes another cap or another stopping rule
    if (out / MANIFEST).exists():
        previous, same_stops = _resumed(out, doc, config.games)
        outdated = config.games > previous or not same_stops
    elif _holds_files(out):  # another program's folder: never overwrite it
        raise CrewsimError(
            f"--out {out}: a folder that holds files but no {MANIFEST} (not a "
            "run folder); use a new or empty folder"
        )
    if outdated:  # a top-up, or other stops: the summary is stale until the new one is written
        for name in ("summary.parquet", "summary.csv"):
            with suppress(OSError):
                (out / name).unlink()
    chunks = out / "chunks"
    try:
        chunks.mkdir(parents=True, exist_ok=True)
        for stale in chunks.glob(".*.tmp"):  # left by a killed session: never complete
            stale.unlink()
        take_back(chunks)
        atomic_write(out / MANIFEST, (json.dumps(doc, indent=2) + "\n").encode())
    except OSError as exc:
        raise CrewsimError(f"cannot write run folder {out}: {exc.strerror or exc}") from None

    state = RunState(config, out, tasks, [], [], previous)
    for task in tasks:
        counts, problem = verify_chunk(chunks, task)
        if counts is not None:
            state.done.append(state.keep(counts))
            continue
        state.todo.append(task)
        resized = previous is not None and problem is not None and problem.startswith("holds")
        if problem is not None and not resized:  # a grown last chunk is a top-up, not damage
            state.damaged.append(f"chunk {task.file_name}: {problem}; simulating it again")
            path = chunks / task.file_name
            with suppress(OSError):
                os.replace(path, path.with_name(path.name + ".damaged"))
            with suppress(OSError):
                _checksum_path(path).unlink()
    return state


def _resumed(out: Path, doc: dict[str, Any], games: int) -> tuple[int, bool]:
    """The games per cell of the run an existing folder holds, checked to be this run's, of
    today's format, and no larger than asked, and whether it stopped cells by the same rule;
    ``doc`` keeps its creation date."""
    old = read_manifest(out)
    check_same_configuration(out, old, doc)
    check_resumable(out)
    previous = int(old["games_per_cell"])
    if games < previous:
        raise CrewsimError(
            f"{out} already holds {previous:,} games per cell; -n {games:,} would "
            f"discard some (use -n {previous:,} or more, or another --out)"
        )
    doc["created"] = old["created"]
    doc["updated"] = datetime.now(UTC).isoformat(timespec="seconds")
    return previous, Stopping.from_dict(old.get("stopping")).to_dict() == doc["stopping"]


# ---------------------------------------------------------------- backends


def open_backend(config: RunConfig) -> AbstractContextManager[Backend]:
    """The backend of a run, opened before any file is written (a bad scheduler fails first)."""
    return open_workers(config.backend, config.jobs, config.scheduler)


# ---------------------------------------------------------------- driver side


def warm_up(state: RunState) -> None:
    """Compile (or fill the numba cache) here once, before local workers start loading it.

    Skipped for a remote scheduler: its workers compile for themselves, and the driver need
    not spend half a minute compiling a kernel it never runs.
    """
    config = state.config
    if state.todo and (config.backend == "loky" or config.scheduler is None):
        warm_kernel(config.mission_vector(config.cells()[0]), config.bot.vector())


def execute(
    state: RunState,
    backend: Backend,
    on_chunk: Callable[[ChunkCounts], None] | None = None,
    play: Play = play_chunk,
) -> RunResult:
    """Play the run's waves (``runs.waves``), store each chunk as it lands, then summarise the
    chunks each cell counts.

    ``play`` is the worker function (tests pass one that kills its worker).  Ctrl-C raises
    ``RunInterrupted`` after the stored chunks are safe; no summary is written then.
    """
    config = state.config
    vectors = [config.mission_vector(c) for c in config.cells()]
    bp = config.bot.vector()
    warm_up(state)
    landed: dict[ChunkKey, ChunkCounts] = {(r.task.cell, r.task.index): r for r in state.done}
    played: list[int] = []  # games of each chunk played in this session

    def play_wave(tasks: list[ChunkTask]) -> None:
        calls = [(t, vectors[t.cell], bp) for t in tasks]
        names = [t.file_name for t in tasks]
        for done, data in backend.imap_unordered(play, calls, names):
            store_chunk(state.chunks, done, data)
            landed[(done.task.cell, done.task.index)] = state.keep(done)
            played.append(done.task.games)
            if on_chunk is not None:
                on_chunk(done)

    start = time.perf_counter()
    try:
        settled = settle(config, state.tasks, landed, play_wave)
    except KeyboardInterrupt:
        raise RunInterrupted(
            state.out,
            len(landed),
            len(state.tasks),
            sum(r.task.games for r in landed.values()),
            sum(t.games for t in state.tasks),
        ) from None
    seconds = time.perf_counter() - start
    counted = [landed[k] for k in sorted(landed) if settled.counted(k)]
    set_aside(state.chunks, [landed[k].task for k in sorted(landed) if not settled.counted(k)])
    result = _finish(state, counted, settled.reasons, seconds)
    return replace(result, played=sum(played))


def run(
    config: RunConfig,
    out: Path | None = None,
    on_chunk: Callable[[ChunkCounts], None] | None = None,
) -> RunResult:
    """Plan, check or resume the folder, run every missing chunk, write and return the summary."""
    config.check()
    for cell in config.cells():
        config.mission_vector(cell)  # fails before any file is made
    with open_backend(config) as backend:
        return execute(prepare(config, out), backend, on_chunk)


def _finish(
    state: RunState, results: list[ChunkCounts], reasons: Sequence[str], seconds: float
) -> RunResult:
    """Aggregate the counted chunks in plan order and write summary.parquet/.csv (with why each
    cell stopped) and failures.parquet."""
    config, out = state.config, state.out
    cells = config.cells()
    failed = Counter(state.failed)  # a run that may stop early keeps each chunk's failures
    for done in results:  # until it knows which chunks count
        for kind, detail, trick, count in done.failures.iter_rows():
            failed[(done.task.cell, kind, detail, trick)] += count
    counts: list[dict[str, Any]] = []
    for done in results:
        cell = cells[done.task.cell]
        counts.append(
            {
                "_cell": done.task.cell,
                "chunk": done.task.index,
                "mission": cell.mission.id,
                "players": cell.players,
                "games": done.task.games,
                "successes": done.successes,
                "distress_games": done.distress_games,
                "distress_successes": done.distress_successes,
                "redeal_games": done.redeal_games,
                "repair_games": done.repair_games,
                "seconds": done.seconds,
                "sha256": done.sha256,
            }
        )
    cell_counts = pl.DataFrame(counts).sort("_cell", "chunk")
    rows = [
        (cells[c].mission.id, cells[c].players, kind, detail, trick, n)
        for (c, kind, detail, trick), n in failed.items()
    ]
    fail = pl.DataFrame(
        rows, schema={"mission": pl.String, "players": pl.Int64, **_FAIL_SCHEMA}, orient="row"
    ).sort("mission", "players", "kind", "detail", "trick")
    games_of = {m.id: m.game for m in config.missions}
    summary = _with_setup_shares(summarise(cell_counts, config.bot.name), cell_counts)
    stopped = summary.with_columns(pl.Series(STOPPED, list(reasons), pl.String))
    summary = with_failures(stopped, fail, games_of)  # last, where reading puts them
    summary.write_parquet(out / "summary.parquet")
    write_csv(summary, out / "summary.csv")
    fail.write_parquet(out / "failures.parquet")
    cell_counts.drop("_cell").write_parquet(out / "chunk_counts.parquet")
    total = int(cell_counts["games"].sum())
    return RunResult(out, summary, fail, total, seconds, len(state.done), tuple(state.damaged))


def _with_setup_shares(summary: pl.DataFrame, cell_counts: pl.DataFrame) -> pl.DataFrame:
    """Add ``redeal_share`` and ``repair_share`` per cell (0 for Planet Nine, which has neither).

    Kept out of ``crewsim.runs.stats.summarise`` because they describe the set-up, not the play: how
    often a Deep Sea mission's draw forced a new deal or a contradiction repair.
    """
    shares = cell_counts.group_by("mission", "players").agg(
        (pl.col("redeal_games").sum() / pl.col("games").sum()).alias("redeal_share"),
        (pl.col("repair_games").sum() / pl.col("games").sum()).alias("repair_share"),
    )
    return summary.join(shares, on=["mission", "players"], how="left", maintain_order="left")
