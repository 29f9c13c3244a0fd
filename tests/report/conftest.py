"""A small real run shared by the report tests: made once per session, in a few seconds."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from crewsim.bots import get_bot
from crewsim.missions import resolve_missions
from crewsim.runs.montecarlo import run
from crewsim.runs.plan import RunConfig
from crewsim.runs.stats import ceiling_columns


@pytest.fixture(scope="session")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pn-1..4 at 3 and 4 players, 1,200 games each in 2 chunks; never modify it in a test."""
    out = tmp_path_factory.mktemp("runs") / "small"
    config = RunConfig(
        missions=tuple(resolve_missions("pn-1..4")),
        players=(3, 4),
        games=1200,
        bot=get_bot("heuristic"),
        seed=7,
        jobs=1,
        chunk_size=600,
    )
    run(config, out)
    return out


@pytest.fixture
def run_copy(small_run: Path, tmp_path: Path) -> Path:
    """A private copy of the small run that a test may change."""
    dest = tmp_path / "run"
    shutil.copytree(small_run, dest)
    return dest


Counts = tuple[int, int, int, int]  # deals solved, feasible, infeasible, won by the bots


def write_ceiling(run: Path, counts: list[Counts]) -> None:
    """Give each summary row the ceiling columns `simulate --ceiling` writes, from its counts."""
    path = run / "summary.parquet"
    summary = pl.read_parquet(path)
    assert len(counts) == summary.height
    rows = [ceiling_columns(*c) | {"won_but_infeasible": 0} for c in counts]
    summary.hstack(pl.DataFrame(rows)).write_parquet(path)


@pytest.fixture
def set_ceiling() -> Callable[[Path, list[Counts]], None]:
    return write_ceiling
