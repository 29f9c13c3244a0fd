"""A small real run shared by the report tests: made once per session, in a few seconds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from crewsim.bots import get_bot
from crewsim.missions import resolve_missions
from crewsim.runs.montecarlo import run
from crewsim.runs.plan import RunConfig


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
