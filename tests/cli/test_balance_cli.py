"""`crewsim balance`: simulate or read a run, print/CSV/JSON, write a report folder; errors."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app
from crewsim.errors import CrewsimError

runner = CliRunner()


@pytest.fixture(scope="module")
def balance_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """`crewsim balance` simulating every drawing Deep Sea mission at 4 players, small n."""
    base = tmp_path_factory.mktemp("balance")
    run_dir, report = base / "run", base / "report"
    args = ["balance", "-p", "4", "-n", "1500", "--jobs", "1", "--seed", "5"]
    result = runner.invoke(app, [*args, "--run-out", str(run_dir), "--out", str(report)])
    assert result.exit_code == 0, result.output
    assert "4 players: mis-rated task cards" in result.stdout
    assert "log-odds per printed" in " ".join(result.stdout.split())
    table = result.stdout[: result.stdout.index("4 players: ", 20)]  # the table, before the fit
    assert max(len(line) for line in table.splitlines()) <= 80
    assert re.search(r'^\d+ "I will', table, re.M)  # cards by number and printed sentence
    return run_dir, report


def test_report_folder(balance_run: tuple[Path, Path]) -> None:
    _, report = balance_run
    html = (report / "index.html").read_text()
    assert "data:image/png;base64," in html and "Deep Sea task-card balance" in html
    for name in ("card-difficulty", "mission-success"):
        assert (report / "charts" / f"{name}.png").exists()
        assert (report / "charts" / f"{name}.svg").exists()
    cards = pl.read_parquet(report / "tables" / "cards.parquet")
    assert cards.height == 96 and set(cards["players"]) == {4}
    assert (
        "## Missions: simulated success against printed difficulty"
        in (report / "report.md").read_text()
    )


def test_json_and_csv_from_existing_run(balance_run: tuple[Path, Path]) -> None:
    run_dir, _ = balance_run
    result = runner.invoke(app, ["balance", "--run", str(run_dir), "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["seed"] == 5 and doc["games_per_cell"] == 1500 and doc["card_ceiling"] is None
    assert doc["flag_rule"]["margin_points"] == 1.0
    assert len(doc["cards"]) == 96 and {f["players"] for f in doc["fits"]} == {4}
    assert any(m["mission"] == "ds-1" and m["printed"] == 1 for m in doc["missions"])
    result = runner.invoke(app, ["balance", "--run", str(run_dir), "--format", "csv"])
    assert result.exit_code == 0, result.output
    csv = pl.read_csv(io.StringIO(result.stdout))
    assert {"card", "printed", "estimated", "flagged", "proposed"} <= set(csv.columns)
    flagged = csv.filter(pl.col("flagged"))
    assert (flagged["off_by"].abs() >= 1).all()


def test_each_card_alone_beside_its_ceiling(balance_run: tuple[Path, Path], tmp_path: Path) -> None:
    """``--ceiling`` plays every card alone and solves those deals: the numbers are
    ``check-tasks CARD --ceiling``'s on the run's seed, and the report shows them."""
    from crewsim.analysis.task_check import ceiling
    from crewsim.missions import get_task_card

    run_dir, _ = balance_run
    out = tmp_path / "report"
    result = runner.invoke(
        app,
        [
            "balance",
            "--run",
            str(run_dir),
            "--ceiling",
            "--ceiling-n",
            "12",
            "--format",
            "json",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["card_ceiling"]
    assert len(rows) == 96 and {r["players"] for r in rows} == {4}
    for r in rows:
        assert r["deals"] == 12 and 0 <= r["bot_wins"] <= r["feasible"] <= r["decided"] <= 12
    three = next(r for r in rows if r["card"] == 46)
    alone = ceiling([get_task_card("46")], None, 4, 12, 5, "heuristic", 12, 30_000)
    assert (three["bot_wins"], three["feasible"]) == (
        alone["ceiling_wins"],
        alone["feasible_games"],
    )
    assert pl.read_csv(out / "tables" / "card-ceiling.csv").height == 96
    md = (out / "report.md").read_text()
    assert "| alone: bots won of winnable |" in md and "4 players, every card alone: " in md
    table = runner.invoke(app, ["balance", "--run", str(run_dir), "--ceiling", "--ceiling-n", "12"])
    assert table.exit_code == 0, table.output
    lines = table.stdout[: table.stdout.index("4 players: ", 20)].splitlines()
    assert max(len(line) for line in lines) <= 80 and any("winnable" in x for x in lines)


@pytest.mark.parametrize(
    "args",
    [
        ["balance", "--players", "2", "--run", "x"],
        ["balance", "--run", "/no/such/run"],
        ["balance", "--fit-games", "-1", "--run", "x"],
        ["balance", "--precision", "0.5"],
        ["balance", "--precision", "1%", "--run", "x"],
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str]) -> None:
    from crewsim.cli.app import main

    with pytest.raises(SystemExit) as exc:
        import sys

        old = sys.argv
        sys.argv = ["crewsim", *args]
        try:
            main()
        finally:
            sys.argv = old
    assert exc.value.code == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ceiling-n", "5"], "--ceiling-n tunes --ceiling"),
        (["--ceiling", "--ceiling-n", "0"], "--ceiling-n: expected 1 to 10,000, got 0"),
    ],
)
def test_ceiling_options_are_checked_before_anything_runs(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["balance", *args, "--run", "/no/such/run"])
    assert isinstance(result.exception, CrewsimError)
    assert message in str(result.exception)


def test_a_missing_run_makes_no_report_folder(tmp_path: Path) -> None:
    """The run is read before ``--out`` is made: a typo in ``--run`` leaves nothing behind."""
    out = tmp_path / "report"
    result = runner.invoke(app, ["balance", "--run", str(tmp_path / "nope"), "--out", str(out)])
    assert isinstance(result.exception, CrewsimError)
    assert "not found" in str(result.exception)
    assert not out.exists()


def test_planet_nine_run_is_refused(tmp_path: Path) -> None:
    """A run without Deep Sea draws has nothing to balance: one line, exit 2."""
    from crewsim.analysis.balance import analyse
    from crewsim.bots import get_bot
    from crewsim.errors import CrewsimError
    from crewsim.missions import resolve_missions
    from crewsim.runs.montecarlo import run
    from crewsim.runs.plan import RunConfig

    cfg = RunConfig(tuple(resolve_missions("pn-1")), (4,), 100, get_bot("heuristic"), jobs=1)
    run(cfg, tmp_path / "pn")
    with pytest.raises(CrewsimError, match="no Deep Sea missions that draw"):
        analyse(tmp_path / "pn")
