"""Small real runs of several crews on the same deals, made once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.analysis.crews import make_crew_runs


@pytest.fixture(scope="session")
def crew_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``crews.make_crew_runs``: several crews on the same deals of pn-1..3."""
    return make_crew_runs(tmp_path_factory.mktemp("crews"))
