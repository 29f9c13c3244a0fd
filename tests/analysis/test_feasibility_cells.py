"""The feasibility table: cells seeded by their key, chunks summed, what the solver cannot
model set aside; the same numbers whatever the worker count."""

from __future__ import annotations

from typing import Any

import pytest

from crewsim.analysis.feasibility_cells import Feasibility, solve_cells
from crewsim.errors import CrewsimError
from crewsim.missions import resolve_missions
from crewsim.runs.backends import Workers
from crewsim.solver.api import DEFAULT_BUDGET, DEFAULT_CONFLICTS

TIMES = ("median_ms", "max_ms")


def _solve(
    missions: str,
    players: tuple[int, ...] = (4,),
    n: int = 30,
    seed: int = 0,
    draft: str = "random",
    jobs: int = 1,
    conflicts: int = DEFAULT_CONFLICTS,
) -> Feasibility:
    return solve_cells(
        resolve_missions(missions),
        players,
        n,
        seed,
        DEFAULT_BUDGET,
        conflicts,
        draft,
        Workers(jobs=jobs),
    )


def _untimed(rows: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMES} for r in rows]


def test_a_cell_gets_the_same_deals_in_any_company() -> None:
    both = _solve("pn-1,pn-3", seed=2)
    alone = _solve("pn-3", seed=2)
    assert [r["mission"] for r in both.rows] == ["pn-1", "pn-3"]
    assert _untimed(alone.rows) == _untimed(both.rows[1:])
    for r in both.rows:
        assert r["deals"] == 30 and r["feasible"] + r["infeasible"] + r["unknown"] == 30
        assert 0 <= r["ci_low"] <= r["feasible_share"] <= r["ci_high"] <= 1
        assert r["median_ms"] > 0
    assert both.deals == 60 and both.seconds > 0 and "local process" in both.where


def test_the_numbers_do_not_depend_on_the_worker_count() -> None:
    one = _solve("pn-2", (3, 4), n=60, seed=1, jobs=1)
    two = _solve("pn-2", (3, 4), n=60, seed=1, jobs=2)
    assert _untimed(one.rows) == _untimed(two.rows)


def test_the_heuristic_draft_counts_what_the_bots_won_as_feasible() -> None:
    found = _solve("pn-4", (3, 4), n=40, seed=3, draft="heuristic")
    assert [(r["mission"], r["players"]) for r in found.rows] == [("pn-4", 3), ("pn-4", 4)]
    for r in found.rows:
        assert r["draft"] == "heuristic"
        assert r["feasible"] + r["infeasible"] + r["unknown"] == 40
        # the bots played these very deals and drafts: what they won is feasible
        assert r["won_but_infeasible"] == 0
        assert r["upper_if_unknown_feasible"] >= r["bot_success_share"]
        decided = r["deals"] - r["unknown"]  # the share is of the decided deals, as in reports
        assert r["feasible_share"] == pytest.approx(r["feasible"] / decided)
        assert r["lower_if_unknown_infeasible"] == pytest.approx(r["feasible"] / r["deals"])
    again = _solve("pn-4", (3, 4), n=40, seed=3, draft="heuristic")
    assert _untimed(again.rows) == _untimed(found.rows)  # reproducible


@pytest.mark.parametrize("draft", ["random", "heuristic"])
def test_deep_sea_missions(draft: str) -> None:
    found = _solve("ds-3,ds-27", seed=4, draft=draft)
    assert [r["mission"] for r in found.rows] == ["ds-3", "ds-27"]
    for r in found.rows:
        assert r["feasible"] + r["infeasible"] + r["unknown"] == 30
        assert r.get("won_but_infeasible", 0) == 0


def test_unsupported_missions_are_set_aside_before_any_deal_is_solved() -> None:
    found = _solve("pn-11..13", (3, 4), n=5)
    assert [(r["mission"], r["players"]) for r in found.rows] == [
        ("pn-11", 3),
        ("pn-11", 4),
        ("pn-13", 3),
        ("pn-13", 4),
    ]
    assert list(found.unsupported) == ["pn-12"]
    assert found.unsupported["pn-12"].startswith("pn-12: the random card draw")
    with pytest.raises(CrewsimError, match="unsupported: pn-12"):
        _solve("pn-12", n=5)


def test_the_share_the_sat_engine_decided() -> None:
    """pn-30 at 4 players: a quarter of the deals need the SAT engine; with it off, none."""
    (on,) = _solve("pn-30", n=40, seed=5).rows
    (off,) = _solve("pn-30", n=40, seed=5, conflicts=0).rows
    assert 0 < on["sat_decided_share"] < 1 and off["sat_decided_share"] == 0
    assert on["unknown"] <= off["unknown"]
