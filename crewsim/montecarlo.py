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

import hashlib
import io
import json
import math
import os
import platform
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from crewsim import __version__
from crewsim.backends import Backend, check_backend, open_workers, worker_count
from crewsim.bots import Bot
from crewsim.csv_out import write_csv
from crewsim.errors import CrewsimError
from crewsim.kernel.layout import DISTRESS_CODES
from crewsim.kernel.spec import KernelMission
from crewsim.missions.schema import Mission
from crewsim.stats import summarise

MAX_GAMES = 10**10  # per cell: ~10 core-hours; a plan of 200,000 chunks, still small in memory
CHUNK_SIZE = 50_000  # games per chunk: large enough to amortise dispatch, small for memory
MANIFEST = "manifest.json"
CHECKSUM_SUFFIX = ".sha256"
# Every chunk file has these columns, in this order, whatever the mission: one schema lets a
# run that mixes both campaigns be scanned as one table.  ``ds_cards`` (Deep Sea task-card
# numbers in reveal order) and ``ds_owners`` (their seats) are int8 lists, empty for Planet
# Nine games, so they cost a few bytes per game where they mean nothing.
RESULT_COLUMNS = (
    "success", "fail_trick", "fail_kind", "fail_detail", "distress", "redeals", "repairs",
    "ds_cards", "ds_owners",
)  # fmt: skip
CHUNK_SCHEMA = {
    "success": pl.Boolean, "fail_trick": pl.Int8, "fail_kind": pl.Int8, "fail_detail": pl.Int8,
    "distress": pl.Boolean, "redeals": pl.Int8, "repairs": pl.Int8,
    "ds_cards": pl.List(pl.Int8), "ds_owners": pl.List(pl.Int8),
}  # fmt: skip
_SEED_MASK = (1 << 63) - 1
_FAIL_SCHEMA = {"kind": pl.Int8, "detail": pl.Int8, "trick": pl.Int8, "count": pl.Int64}
_NO_FAILURES = pl.DataFrame(schema=_FAIL_SCHEMA)
# what decides a run's numbers: a folder made with other values is another run's folder
IDENTITY_KEYS = (
    "crewsim_version", "kernel_sha256", "root_seed", "chunk_size", "distress", "players",
    "missions", "bot", "cells", "seeding",
)  # fmt: skip


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
class ChunkCounts:
    """What a finished chunk reports back: counts only, never the games."""

    task: ChunkTask
    successes: int
    distress_games: int
    distress_successes: int  # games won after sending the distress signal
    failures: pl.DataFrame  # kind, detail, trick, count
    seconds: float  # NaN for a chunk reused from an earlier session
    sha256: str = ""
    redeal_games: int = 0  # Deep Sea: games dealt again because a drawn card said so
    repair_games: int = 0  # Deep Sea: games whose task combination needed a repair


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
        if self.distress not in DISTRESS_CODES:
            known = "|".join(DISTRESS_CODES)
            raise CrewsimError(f"--distress: expected {known}, got {self.distress!r}")
        if self.seed < 0:
            raise CrewsimError(f"--seed: expected a non-negative integer, got {self.seed}")
        check_backend(self.backend, self.scheduler)

    def mission_vector(self, cell: Cell) -> np.ndarray:
        """The kernel's mission vector; raises CrewsimError for what the kernel cannot play."""
        return KernelMission(cell.mission, cell.players, self.distress).vector()

    def workers(self) -> int:
        """Worker count from ``jobs`` (0 or -1 all cores, -2 all but one)."""
        return worker_count(self.jobs)


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


def default_out(seed: int, root: Path = Path("runs")) -> Path:
    """``runs/<timestamp>-<seed>``, with a suffix if that folder already exists."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out, k = root / f"{stamp}-{seed}", 1
    while out.exists():
        out, k = root / f"{stamp}-{seed}-{k}", k + 1
    return out


def check_games(games: int, what: str = "games") -> None:
    """A count beyond ``MAX_GAMES`` is a typo (``1e13`` for ``1e3``), not a plan: its chunk
    list alone would fill the memory."""
    if games > MAX_GAMES:
        raise CrewsimError(f"-n: at most {MAX_GAMES:,} {what} per cell, got {games:,}")


def resume_command(out: Path) -> str:
    """The command that continues a run (its configuration is in the manifest)."""
    return f"crewsim simulate --resume {out}"


# ---------------------------------------------------------------- worker side

_warm = False


def warm_kernel(mp: np.ndarray, bp: np.ndarray) -> None:
    """Compile (or load from cache) once per process, so chunk timings are game time only."""
    global _warm
    if not _warm:
        from crewsim.kernel.run import run_chunk

        run_chunk(mp, bp, 1, 0)
        _warm = True


def chunk_counts(task: ChunkTask, games: pl.DataFrame, seconds: float, sha: str) -> ChunkCounts:
    """Counts of one chunk's games: the same function for fresh and for reused chunks."""
    failures = (
        games.filter(~pl.col("success"))
        .group_by(pl.col("fail_kind").alias("kind"), pl.col("fail_detail").alias("detail"),
                  pl.col("fail_trick").alias("trick"))
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .sort("kind", "detail", "trick")
    )  # fmt: skip
    return ChunkCounts(
        task,
        int(games["success"].sum()),
        int(games["distress"].sum()),
        int((games["distress"] & games["success"]).sum()),
        failures,
        seconds,
        sha,
        int((games["redeals"] > 0).sum()),
        int((games["repairs"] > 0).sum()),
    )


def games_frame(res: dict[str, np.ndarray]) -> pl.DataFrame:
    """The kernel's per-game arrays as one chunk table (columns ``RESULT_COLUMNS``).

    The n x 16 task-card arrays become lists holding only the cards in play (the kernel fills
    them from the front), so a Planet Nine chunk stores empty lists and a Deep Sea chunk a
    handful of int8 per game rather than 32 bytes.
    """
    cards, owners = res["ds_cards"], res["ds_owners"]
    n_cards = pl.Series("n", (cards > 0).sum(axis=1), dtype=pl.Int32)

    def lists(name: str, values: np.ndarray) -> pl.Series:
        full = pl.Series(name, values, dtype=pl.Array(pl.Int8, values.shape[1])).arr.to_list()
        return pl.DataFrame([full, n_cards]).select(pl.col(name).list.head("n")).to_series()

    columns = {c: res[c] for c in RESULT_COLUMNS[:7]}
    return pl.DataFrame(columns).with_columns(lists("ds_cards", cards), lists("ds_owners", owners))


def play_chunk(task: ChunkTask, mp: np.ndarray, bp: np.ndarray) -> tuple[ChunkCounts, bytes]:
    """Play one chunk; return its counts and its games as Parquet bytes (runs in a worker).

    Workers write nothing: the bytes travel back to the driver, so a Dask worker on another
    machine needs no shared file system, and the run folder has a single writer.
    """
    from crewsim.kernel.run import run_chunk

    warm_kernel(mp, bp)
    start = time.perf_counter()
    res = run_chunk(mp, bp, task.games, task.seed)
    df = games_frame(res)
    buf = io.BytesIO()
    df.write_parquet(buf)
    data = buf.getvalue()
    sha = hashlib.sha256(data).hexdigest()
    return chunk_counts(task, df, time.perf_counter() - start, sha), data


# ---------------------------------------------------------------- run folder


def atomic_write(path: Path, data: bytes) -> None:
    """Write, flush to disk, then rename: a file exists under its name only when complete."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:  # Ctrl-C mid-write included: leave no half file behind
        with suppress(OSError):
            tmp.unlink()
        raise


def _checksum_path(chunk: Path) -> Path:
    return chunk.with_name(chunk.name + CHECKSUM_SUFFIX)


def store_chunk(chunks: Path, done: ChunkCounts, data: bytes) -> None:
    """Chunk first, checksum second: a chunk without its checksum counts as unfinished.

    The checksum file reads like ``sha256sum`` output, so ``sha256sum -c *.sha256`` works.
    """
    path = chunks / done.task.file_name
    atomic_write(path, data)
    atomic_write(_checksum_path(path), f"{done.sha256}  {path.name}\n".encode())


def verify_chunk(chunks: Path, task: ChunkTask) -> tuple[ChunkCounts | None, str | None]:
    """A stored chunk's counts if it is complete and intact; else why not (None: absent).

    Checks, in order: checksum file present, SHA-256 of the bytes, readable Parquet, the
    expected columns and their types, and the planned number of games.  Only then are its
    games counted.
    """
    path = chunks / task.file_name
    if not path.exists():
        return None, None
    try:
        data = path.read_bytes()
        recorded = _checksum_path(path).read_text().split()
    except FileNotFoundError:
        return None, "no checksum file (its write was interrupted)"
    except OSError as exc:
        return None, f"cannot read it ({exc.strerror or exc})"
    sha = hashlib.sha256(data).hexdigest()
    if not recorded or recorded[0] != sha:
        return None, "checksum mismatch"
    try:
        df = pl.read_parquet(io.BytesIO(data))
    except Exception as exc:  # polars raises several kinds for garbage; all mean "damaged"
        return None, f"not readable as Parquet ({type(exc).__name__})"
    if tuple(df.columns) != RESULT_COLUMNS:
        return None, f"unexpected columns {df.columns}"
    if dict(df.schema) != CHUNK_SCHEMA:
        return None, f"unexpected column types {dict(df.schema)}"
    if df.height != task.games:
        return None, f"holds {df.height} games, the plan says {task.games}"
    return chunk_counts(task, df, math.nan, sha), None


def kernel_digest() -> str:
    """SHA-256 of the kernel's sources (and the card layout they share).

    The version number alone does not move when the kernel is edited between releases, but
    the numbers do; a resume must not mix games of two kernels.
    """
    import crewsim.kernel

    here = Path(crewsim.kernel.__file__).resolve().parent
    digest = hashlib.sha256()
    for src in sorted([*here.glob("*.py"), here.parent / "cards.py"]):
        digest.update(src.read_bytes())
    return digest.hexdigest()


def manifest(config: RunConfig, tasks: Sequence[ChunkTask]) -> dict[str, Any]:
    """The full configuration of a run, written before any game is played."""
    import numba

    cells = config.cells()
    return {
        "crewsim_version": __version__,
        "kernel_sha256": kernel_digest(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "root_seed": config.seed,
        "games_per_cell": config.games,
        "chunk_size": config.chunk_size,
        "chunks": len(tasks),
        "jobs": config.jobs,
        "backend": config.backend,
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
        "seeding": "SeedSequence(root_seed, spawn_key=(int(cell key as big-endian bytes),))"
        ".spawn(chunks)[k] -> generate_state(1, uint64)[0] & (2**63 - 1)",
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "numba": numba.__version__,
            "polars": pl.__version__,
        },
    }


def _identity(doc: dict[str, Any]) -> dict[str, Any]:
    """The part of a manifest that decides the numbers, JSON-normalised (tuples -> lists)."""
    ident = {k: doc.get(k) for k in IDENTITY_KEYS}
    bot = dict(ident["bot"]) if isinstance(ident["bot"], dict) else ident["bot"]
    if isinstance(bot, dict):
        bot.pop("file", None)  # where the crew was read from does not matter, what it is does
    ident["bot"] = bot
    normalised: dict[str, Any] = json.loads(json.dumps(ident, sort_keys=True))
    return normalised


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _difference(key: str, there: Any, here: Any) -> str:
    """How a manifest field differs, in a line: for lists, what only one side has (a cut
    ``[ds-1, ds-2, ...`` would hide it in a long campaign)."""
    if isinstance(there, list) and isinstance(here, list):
        gone = [x for x in there if x not in here]
        new = [x for x in here if x not in there]
        if not gone and not new:
            return f"{key} in another order: {_short(there)} there, {_short(here)} here"
        parts = [f"{_short(gone)} only there" if gone else "", f"{_short(new)} only here" if new
                 else ""]  # fmt: skip
        return f"{key} {', '.join(p for p in parts if p)}"
    return f"{key} {_short(there)} there, {_short(here)} here"


def read_manifest(
    out: Path, required: Sequence[str] = (*IDENTITY_KEYS, "games_per_cell")
) -> dict[str, Any]:
    """An existing run folder's manifest, or one line saying why it cannot be used;
    ``required``: the keys the caller reads (a resume compares the whole identity)."""
    path = out / MANIFEST
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CrewsimError(f"{out}: not a crewsim run folder (no {MANIFEST})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CrewsimError(f"{path}: cannot read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise CrewsimError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    missing = [k for k in required if not isinstance(doc, dict) or k not in doc]
    if missing:
        raise CrewsimError(f"{path}: not a crewsim run manifest (missing {', '.join(missing)})")
    return dict(doc)


@contextmanager
def malformed(path: Path) -> Iterator[None]:
    """A manifest field of the wrong shape or type, read inside: one line naming the file."""
    try:
        yield
    except CrewsimError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CrewsimError(f"{path}: malformed ({type(exc).__name__}: {exc})") from None


def check_same_configuration(out: Path, old: dict[str, Any], new: dict[str, Any]) -> None:
    """A folder made by another configuration is never mixed into: one line naming the field."""
    a, b = _identity(old), _identity(new)
    for key in IDENTITY_KEYS:
        if a[key] != b[key]:
            if key == "cells":
                what = "the mission data differ"
            elif key == "bot":
                what = "the bot crew or its parameters differ"
            elif key == "kernel_sha256":
                made = f"kernel {str(a[key])[:12]}, {str(old.get('created', '?'))[:10]}"
                raise CrewsimError(
                    f"{out} was made by another simulation kernel ({made}; this one is "
                    f"{str(b[key])[:12]}): its games would not match this one's; continue it "
                    "with the crewsim that made it, or start a new run with another --out"
                )
            else:
                what = _difference(key, a[key], b[key])
            raise CrewsimError(
                f"{out} was made by another configuration ({what}); start a new run with "
                "another --out"
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
        """Fold a finished chunk's failures into ``failed``; the chunk without them."""
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
    if (out / MANIFEST).exists():
        old = read_manifest(out)
        check_same_configuration(out, old, doc)
        previous = int(old["games_per_cell"])
        if config.games < previous:
            raise CrewsimError(
                f"{out} already holds {previous:,} games per cell; -n {config.games:,} would "
                f"discard some (use -n {previous:,} or more, or another --out)"
            )
        doc["created"] = old.get("created", doc["created"])
        doc["updated"] = datetime.now(UTC).isoformat(timespec="seconds")
    elif _holds_files(out):  # another program's folder: never overwrite it
        raise CrewsimError(f"--out {out}: a folder that holds files but no {MANIFEST} (not a "
                           "run folder); use a new or empty folder")  # fmt: skip
    if previous is not None and config.games > previous:  # a top-up: the summary is stale
        for name in ("summary.parquet", "summary.csv"):  # until the new one is written
            with suppress(OSError):
                (out / name).unlink()
    chunks = out / "chunks"
    try:
        chunks.mkdir(parents=True, exist_ok=True)
        for stale in chunks.glob(".*.tmp"):  # left by a killed session: never complete
            stale.unlink()
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


# ---------------------------------------------------------------- backends

Play = Callable[[ChunkTask, np.ndarray, np.ndarray], tuple[ChunkCounts, bytes]]


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
    """Run the to-do chunks, store each as it lands, then summarise every chunk of the plan.

    ``play`` is the worker function (tests pass one that kills its worker).  Ctrl-C raises
    ``RunInterrupted`` after the stored chunks are safe; no summary is written then.
    """
    config = state.config
    vectors = [config.mission_vector(c) for c in config.cells()]
    bp = config.bot.vector()
    warm_up(state)
    results = list(state.done)
    start = time.perf_counter()
    try:
        calls = [(t, vectors[t.cell], bp) for t in state.todo]
        names = [t.file_name for t in state.todo]
        for done, data in backend.imap_unordered(play, calls, names):
            store_chunk(state.chunks, done, data)
            results.append(state.keep(done))
            if on_chunk is not None:
                on_chunk(done)
    except KeyboardInterrupt:
        raise RunInterrupted(
            state.out, len(results), len(state.tasks),
            sum(r.task.games for r in results), sum(t.games for t in state.tasks),
        ) from None  # fmt: skip
    seconds = time.perf_counter() - start
    return _finish(state, results, seconds)


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


def _finish(state: RunState, results: list[ChunkCounts], seconds: float) -> RunResult:
    """Aggregate chunk counts in plan order and write summary.parquet/.csv and failures.parquet."""
    config, out = state.config, state.out
    cells = config.cells()
    counts: list[dict[str, Any]] = []
    for done in results:
        cell = cells[done.task.cell]
        counts.append({
            "_cell": done.task.cell, "chunk": done.task.index,
            "mission": cell.mission.id, "players": cell.players,
            "games": done.task.games, "successes": done.successes,
            "distress_games": done.distress_games,
            "distress_successes": done.distress_successes, "redeal_games": done.redeal_games,
            "repair_games": done.repair_games, "seconds": done.seconds, "sha256": done.sha256,
        })  # fmt: skip
    cell_counts = pl.DataFrame(counts).sort("_cell", "chunk")
    rows = [(cells[c].mission.id, cells[c].players, kind, detail, trick, n)
            for (c, kind, detail, trick), n in state.failed.items()]  # fmt: skip
    fail = pl.DataFrame(
        rows, schema={"mission": pl.String, "players": pl.Int64, **_FAIL_SCHEMA}, orient="row"
    ).sort("mission", "players", "kind", "detail", "trick")
    games_of = {m.id: m.game for m in config.missions}
    summary = _with_setup_shares(summarise(cell_counts, fail, config.bot.name, games_of),
                                 cell_counts)  # fmt: skip
    summary.write_parquet(out / "summary.parquet")
    write_csv(summary, out / "summary.csv")
    fail.write_parquet(out / "failures.parquet")
    cell_counts.drop("_cell").write_parquet(out / "chunk_counts.parquet")
    total = int(cell_counts["games"].sum())
    return RunResult(out, summary, fail, total, seconds, len(state.done), tuple(state.damaged))


def _with_setup_shares(summary: pl.DataFrame, cell_counts: pl.DataFrame) -> pl.DataFrame:
    """Add ``redeal_share`` and ``repair_share`` per cell (0 for Planet Nine, which has neither).

    Kept out of ``crewsim.stats.summarise`` because they describe the set-up, not the play: how
    often a Deep Sea mission's draw forced a new deal or a contradiction repair.
    """
    shares = cell_counts.group_by("mission", "players").agg(
        (pl.col("redeal_games").sum() / pl.col("games").sum()).alias("redeal_share"),
        (pl.col("repair_games").sum() / pl.col("games").sum()).alias("repair_share"),
    )
    return summary.join(shares, on=["mission", "players"], how="left", maintain_order="left")


def manifest_missions(doc: dict[str, Any], path: Path) -> tuple[Mission, ...]:
    """The run's missions as it recorded them, so a run made with ``CREWSIM_SCENARIOS`` (or
    before a scenario edit) resumes and filters the same way; a manifest without the records
    (older runs) names ids, looked up in today's scenario folder."""
    from crewsim.missions import resolve_missions
    from crewsim.missions.loader import missions_from_records

    with malformed(path):
        records = {c["mission"]: c.get("mission_record") for c in doc["cells"]}
        ids = [str(m) for m in doc.get("missions", records)]
        if all(records.get(m) for m in ids):
            return missions_from_records([records[m] for m in ids], str(path))
        return tuple(resolve_missions(",".join(ids)))


def config_from_manifest(out: Path, **overrides: Any) -> RunConfig:
    """Rebuild a run's configuration from its folder (``--resume``); ``overrides`` win.

    Overriding what decides the numbers (seed, players, ...) is allowed here and then refused
    by ``prepare`` as "another configuration", with the field named.
    """
    from crewsim.bots import get_bot

    doc = read_manifest(out)
    missions = manifest_missions(doc, out / MANIFEST)
    with malformed(out / MANIFEST):
        bot = doc["bot"]
        bots_file = overrides.pop("bots_file", None) or bot.get("file")
        config = RunConfig(
            missions=missions,
            players=tuple(int(p) for p in doc["players"]),
            games=int(doc["games_per_cell"]),
            bot=get_bot(str(bot["name"]), Path(bots_file) if bots_file else None),
            seed=int(doc["root_seed"]),
            distress=str(doc["distress"]),
            chunk_size=int(doc["chunk_size"]),
            bots_file=bots_file,
        )
    return replace(config, **{k: v for k, v in overrides.items() if v is not None})
