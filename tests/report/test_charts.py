"""Charts on awkward data: a mission nobody won beside very hard ones."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from crewsim.report import charts
from crewsim.report.run import load_run


def test_attempts_axis_reaches_the_hardest_won_mission(small_run: Path) -> None:
    rank = pl.DataFrame({
        "players": [4, 4, 4], "rank": [1, 2, 3], "mission": ["pn-1", "pn-2", "pn-3"],
        "expected_attempts": [math.inf, 500.0, 2.0], "attempts_low": [math.inf, 400.0, 1.9],
        "attempts_high": [math.inf, 800.0, 2.1],
    })  # fmt: skip
    fig = charts.attempts_ranking(load_run(small_run), rank, 4)
    assert fig.axes[0].get_xlim()[1] >= 800  # the no-win mission's inf no longer hides the rest
