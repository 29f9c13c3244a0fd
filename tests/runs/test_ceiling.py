"""The ceiling solves the very deals the bots played: a deal the bots won is never infeasible."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from crewsim.bots import get_bot
from crewsim.cli.app import app
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission
from crewsim.runs.ceiling import ceiling_cell, unsupported_reason
from crewsim.solver.api import solve
from crewsim.solver.problem import Problem, Result


@pytest.mark.parametrize(
    ("mission", "players"),
    [
        ("pn-1", 4),
        ("pn-3", 3),
        ("pn-5", 4),
        ("pn-13", 4),
        ("pn-29", 5),
        ("pn-48", 4),
        ("pn-2", 2),
        ("pn-30", 5),
        ("ds-1", 4),
        ("ds-5", 3),
        ("ds-8", 2),
        ("ds-12", 5),
        ("ds-21", 4),
        ("ds-23", 3),
        ("ds-27", 4),
        ("ds-32", 5),
    ],
)
def test_deals_the_bots_won_are_feasible(mission: str, players: int) -> None:
    m = get_mission(mission)
    row = ceiling_cell(
        m, players, KernelMission(m, players).vector(), get_bot("heuristic").vector(), 7, 60
    )
    assert row["ceiling_games"] == 60
    assert row["won_but_infeasible"] == 0
    assert row["feasible_share"] >= row["ceiling_success_rate"] - 1e-9 or row["unknown_share"]


def test_two_player_deals_after_the_dummys_distress_pass() -> None:
    """The dummy passes a face-up card and takes the new one in its place: the ceiling rebuilds
    the deal with its stacks as they then lie."""
    m = get_mission("pn-1")
    mp = KernelMission(m, 2, distress="always").vector()
    row = ceiling_cell(m, 2, mp, get_bot("heuristic").vector(), 11, 40)
    assert row["ceiling_games"] == 40 and row["won_but_infeasible"] == 0


def test_the_interval_spans_the_undecided_deals() -> None:
    """Deals the solver leaves open widen the interval both ways, whatever they turn out to be."""
    m = get_mission("pn-10")
    calls = iter(range(10**6))

    def every_third_open(problem: Problem) -> Result:
        return Result("unknown", 0, 0.0) if next(calls) % 3 == 0 else solve(problem)

    row = ceiling_cell(
        m,
        4,
        KernelMission(m, 4).vector(),
        get_bot("heuristic").vector(),
        7,
        60,
        solver=every_third_open,
    )
    n, feasible, decided = row["ceiling_games"], row["feasible_games"], row["decided_games"]
    # a third left open, less those the bots won: winnable whatever the solver said
    assert n == 60 and 40 < decided < 60
    assert row["unknown_share"] == pytest.approx(1 - decided / n)
    assert row["efficiency_low"] < row["bot_efficiency"] < row["efficiency_high"]
    assert row["feasible_low"] <= feasible / n  # every open deal infeasible
    assert row["feasible_high"] >= (feasible + n - decided) / n  # every open deal feasible
    assert row["feasible_low"] <= row["feasible_share"] <= row["feasible_high"]


def test_more_sat_conflicts_decide_more_of_the_same_deals() -> None:
    """ds-30 at three players: the search alone leaves most deals open, the SAT engine's
    default budget few; its verdicts only add to the search's (MiniCard is deterministic)."""
    m = get_mission("ds-30")
    args = (m, 3, KernelMission(m, 3).vector(), get_bot("heuristic").vector(), 7, 20)
    alone, engine = ceiling_cell(*args, conflicts=0), ceiling_cell(*args)
    assert alone["decided_games"] < engine["decided_games"]
    assert alone["feasible_games"] <= engine["feasible_games"]
    assert (
        alone["decided_games"] - alone["feasible_games"]
        <= engine["decided_games"] - engine["feasible_games"]
    )


@pytest.mark.parametrize("command", ["simulate", "rank"])
def test_the_commands_pass_the_ceiling_options_on(tmp_path: Path, command: str) -> None:
    """ds-30 at three players: the search alone leaves more of the same deals open (fails when
    the cells get the default budget or deal count whatever was asked)."""
    undecided = {}
    for conflicts in ("0", "30,000"):
        args = [
            command,
            "ds-30",
            "-p",
            "3",
            "-n",
            "20",
            "--seed",
            "2",
            "--jobs",
            "1",
            "--out",
            str(tmp_path / conflicts),
            "--ceiling",
            "--ceiling-n",
            "15",
            "--ceiling-conflicts",
            conflicts,
            "--format",
            "json",
        ]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        doc = json.loads(result.stdout)
        row = doc["cells" if command == "simulate" else "ranking"][0]
        assert row["ceiling_games"] == 15
        undecided[conflicts] = row["unknown_share"]
    assert undecided["0"] > undecided["30,000"]


def test_missions_the_solver_cannot_judge_are_named() -> None:
    assert unsupported_reason(get_mission("pn-12"))  # the random draw after trick 1
    assert unsupported_reason(get_mission("ds-1")) is None  # Deep Sea: its own search
    assert unsupported_reason(get_mission("pn-10")) is None


def test_simulate_with_ceiling_writes_the_columns(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "simulate",
        "pn-1,pn-12",
        "-p",
        "4",
        "-n",
        "400",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--ceiling",
        "--ceiling-n",
        "50",
        "--format",
        "json",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = {r["mission"]: r for r in json.loads(result.stdout)["cells"]}
    assert rows["pn-1"]["ceiling_games"] == 50
    assert 0.0 <= rows["pn-1"]["feasible_share"] <= 1.0
    assert rows["pn-12"]["ceiling_games"] == 0  # not solvable: left out, said so
    assert "ceiling: pn-12 at 4 players left out: pn-12: the random card draw" in result.stderr
    assert "ceiling: pn-1 at 4 players solved" in result.stderr
    before = pl.read_parquet(out / "summary.parquet")
    again = CliRunner().invoke(app, ["simulate", "--resume", str(out), "--format", "json"])
    assert again.exit_code == 0, again.output
    assert "kept the perfect-information ceiling this folder already had\n" in again.stderr
    assert pl.read_parquet(out / "summary.parquet").equals(before)  # not silently dropped
    (out / "ceiling" / "pn-12-4p.json").unlink()  # as if interrupted before pn-12 was saved
    part = CliRunner().invoke(app, ["simulate", "--resume", str(out), "--format", "json"])
    assert part.exit_code == 0, part.output
    assert " for 1 of 2 cells; to solve the others: " in part.stderr
    assert " --ceiling --ceiling-n 50" in part.stderr


def test_the_ceiling_does_not_depend_on_the_worker_count(tmp_path: Path) -> None:
    """Cells are solved in worker processes; the rows are the same with one or two."""
    keys = (
        "ceiling_games",
        "feasible_games",
        "decided_games",
        "feasible_low",
        "feasible_high",
        "ceiling_success_rate",
        "unknown_share",
    )
    got = []
    for jobs in ("1", "2"):
        args = [
            "simulate",
            "pn-5,ds-5",
            "-p",
            "3,4",
            "-n",
            "300",
            "--seed",
            "3",
            "--jobs",
            jobs,
            "--out",
            str(tmp_path / jobs),
            "--ceiling",
            "--ceiling-n",
            "40",
            "--format",
            "json",
        ]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        rows = json.loads(result.stdout)["cells"]
        got.append([(r["mission"], r["players"], *(r[k] for k in keys)) for r in rows])
    assert got[0] == got[1]
    assert len(got[0]) == 4 and all(row[2] == 40 for row in got[0])


class _NoSolving:
    """A backend that refuses work: every cell must come from the folder."""

    def imap(self, fn: object, calls: list[object], names: object = None) -> list[object]:
        assert not calls, f"{len(calls)} cell(s) solved again"
        return []

    imap_unordered = imap


def test_an_interrupted_ceiling_keeps_the_cells_it_solved(tmp_path: Path) -> None:
    """Each cell is saved as it lands: a resumed ceiling solves only what is missing, and only
    with the same deals and conflicts (other settings solve again)."""
    from crewsim.missions import resolve_missions
    from crewsim.runs.ceiling import CEILING_DIR, ceiling_rows, earlier_ceiling
    from crewsim.runs.plan import RunConfig

    cfg = RunConfig(
        missions=tuple(resolve_missions("pn-5,ds-5")),
        players=(3, 4),
        games=300,
        bot=get_bot("heuristic"),
        seed=3,
        jobs=1,
    )
    first = ceiling_rows(cfg, 30, folder=tmp_path)
    assert len(list((tmp_path / CEILING_DIR).glob("*.json"))) == 4
    assert ceiling_rows(cfg, 30, backend=_NoSolving(), folder=tmp_path) == first  # type: ignore[arg-type]
    (tmp_path / CEILING_DIR / "pn-5-3p.json").unlink()  # as if stopped before that cell
    assert ceiling_rows(cfg, 30, folder=tmp_path) == first
    assert earlier_ceiling(tmp_path) is not None and len(earlier_ceiling(tmp_path) or []) == 4
    with pytest.raises(AssertionError, match="4 cell"):
        ceiling_rows(cfg, 20, backend=_NoSolving(), folder=tmp_path)  # type: ignore[arg-type]
