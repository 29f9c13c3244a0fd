"""Another crew beside a run's: own rates, the ceiling of either run, both efficiencies."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from crewsim.analysis.beside import efficiency_on, side_by_side
from crewsim.errors import CrewsimError
from crewsim.runs.reader import ceiling, game_outcomes, load_run
from crewsim.runs.stats import bot_efficiency


def _first_wins(folder: Path, n: int) -> dict[tuple[int, str], int]:
    games = (
        game_outcomes(load_run(folder), n)
        .group_by("players", "mission")
        .agg(pl.col("success").sum())
    )
    return {(r["players"], r["mission"]): r["success"] for r in games.iter_rows(named=True)}


def test_the_search_crew_measured_on_the_heuristic_ceiling(crew_runs: dict[str, Path]) -> None:
    run = load_run(crew_runs["heuristic"])
    side = side_by_side(run, crew_runs["search"])
    cells = side.cells
    assert cells.height == 6 and set(cells["ceiling_from"]) == {"this"}
    own = ceiling(run)
    assert own is not None
    mine = cells.join(own, on=["players", "mission"], suffix="_own")
    assert (mine["bot_efficiency"] == mine["bot_efficiency_own"]).all()
    assert (mine["feasible_share"] == mine["feasible_share_own"]).all()
    wins = _first_wins(crew_runs["search"], 10)
    for r in cells.iter_rows(named=True):
        expected = efficiency_on(r, wins[r["players"], r["mission"]])
        got = (r["other_bot_efficiency"], r["other_efficiency_low"], r["other_efficiency_high"])
        assert got == pytest.approx(expected, nan_ok=True)
        assert r["other_games"] == 12 and r["shared_games"] == 12  # the search crew's own games
        assert r["games"] == 120


def test_the_run_without_a_ceiling_takes_the_other_runs(crew_runs: dict[str, Path]) -> None:
    side = side_by_side(load_run(crew_runs["search"]), crew_runs["heuristic"])
    back = side_by_side(load_run(crew_runs["heuristic"]), crew_runs["search"])
    assert set(side.cells["ceiling_from"]) == {"other"}
    one = side.cells.join(back.cells, on=["players", "mission"], suffix="_back")
    assert (one["bot_efficiency"] == one["other_bot_efficiency_back"]).all()
    assert (one["other_bot_efficiency"] == one["bot_efficiency_back"]).all()
    assert (one["difference"] == -one["difference_back"]).all()


def test_own_rates_and_their_ranking_agreement(crew_runs: dict[str, Path]) -> None:
    run, rand = load_run(crew_runs["heuristic"]), load_run(crew_runs["random"])
    side = side_by_side(run, rand)
    theirs = rand.summary.select("players", "mission", "success_rate")
    both = side.cells.join(theirs, on=["players", "mission"])
    assert (both["other_success_rate"] == both["success_rate_right"]).all()
    assert side.agreement["players"].to_list() == [3, 4]
    assert set(side.cells["rank"].drop_nulls()) <= {1.0, 1.5, 2.0, 2.5, 3.0}


def test_a_run_of_other_deals_is_refused(crew_runs: dict[str, Path]) -> None:
    with pytest.raises(CrewsimError, match="root_seed"):
        side_by_side(load_run(crew_runs["heuristic"]), crew_runs["other_seed"])


def test_efficiency_on_another_runs_ceiling() -> None:
    row = {"ceiling_games": 10, "feasible_games": 6, "decided_games": 9}  # one deal left open
    assert efficiency_on(row, 3) == bot_efficiency(3, 6, 1)
    # the crew won the open deal too: it is winnable, and nothing is left open
    assert efficiency_on(row, 7) == bot_efficiency(7, 7, 0)
    assert all(math.isnan(x) for x in efficiency_on(row, None))  # fewer games than solved
