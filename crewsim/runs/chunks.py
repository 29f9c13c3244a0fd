"""One chunk of games: played by the engine in a worker, returned as counts and Parquet bytes."""

from __future__ import annotations

import hashlib
import io
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from crewsim.runs.plan import ChunkTask

# Every chunk file has these columns, in this order, whatever the mission: one schema lets a
# run that mixes both campaigns be scanned as one table.  ``ds_cards`` (Deep Sea task-card
# numbers in reveal order) and ``ds_owners`` (their seats) are int8 lists, empty for Planet
# Nine games, so they cost a few bytes per game where they mean nothing.
RESULT_COLUMNS = (
    "success",
    "fail_trick",
    "fail_kind",
    "fail_detail",
    "distress",
    "redeals",
    "repairs",
    "ds_cards",
    "ds_owners",
)


CHUNK_SCHEMA = {
    "success": pl.Boolean,
    "fail_trick": pl.Int8,
    "fail_kind": pl.Int8,
    "fail_detail": pl.Int8,
    "distress": pl.Boolean,
    "redeals": pl.Int8,
    "repairs": pl.Int8,
    "ds_cards": pl.List(pl.Int8),
    "ds_owners": pl.List(pl.Int8),
}


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


_warm = False


def warm_kernel(mp: np.ndarray, bp: np.ndarray) -> None:
    """Compile (or load from cache) once per process, so chunk timings are game time only."""
    global _warm
    if not _warm:
        from crewsim.solver.pimc import runner

        runner(bp)(mp, bp, 1, 0)
        _warm = True


def chunk_counts(task: ChunkTask, games: pl.DataFrame, seconds: float, sha: str) -> ChunkCounts:
    """Counts of one chunk's games: the same function for fresh and for reused chunks."""
    failures = (
        games.filter(~pl.col("success"))
        .group_by(
            pl.col("fail_kind").alias("kind"),
            pl.col("fail_detail").alias("detail"),
            pl.col("fail_trick").alias("trick"),
        )
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .sort("kind", "detail", "trick")
    )
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
    from crewsim.solver.pimc import runner

    warm_kernel(mp, bp)
    start = time.perf_counter()
    res = runner(bp)(mp, bp, task.games, task.seed)
    df = games_frame(res)
    buf = io.BytesIO()
    df.write_parquet(buf)
    data = buf.getvalue()
    sha = hashlib.sha256(data).hexdigest()
    return chunk_counts(task, df, time.perf_counter() - start, sha), data


# ---------------------------------------------------------------- run folder


Play = Callable[[ChunkTask, np.ndarray, np.ndarray], tuple[ChunkCounts, bytes]]
