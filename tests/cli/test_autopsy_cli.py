"""`crewsim autopsy`: shares per cell that add up, saved and resumed, a game's trace, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app
from tests.cli.exits import exit_2

runner = CliRunner()


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pn-1..3 and pn-12 (the solver cannot judge its draw) at 3 and 4 players, 100 games in
    chunks of 50."""
    out = tmp_path_factory.mktemp("autopsy") / "run"
    args = ["simulate", "pn-1..3,pn-12", "-p", "3,4", "-n", "100", "--seed", "4", "--jobs", "1"]
    result = runner.invoke(app, [*args, "--chunk-size", "50", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_shares_add_up_and_the_autopsy_resumes(run: Path) -> None:
    args = ["autopsy", str(run), "--lost", "30", "--jobs", "1", "-f", "json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "left out pn-12-3p: pn-12: the random card draw" in result.stderr
    cells = json.loads(result.stdout)["cells"]
    assert {(c["mission"], c["players"]) for c in cells} == {
        (m, p) for m in ("pn-1", "pn-2", "pn-3") for p in (3, 4)
    }
    for c in cells:
        assert c["analysed"] == min(30, c["games_lost"])
        if c["analysed"]:
            total = c["unwinnable_deal"] + c["undecided"] + sum(c["decisive"].values())
            assert total == pytest.approx(1.0)
    batches = sorted((run / "autopsy").glob("*/*.json"))
    stamps = [p.stat().st_mtime_ns for p in batches]
    again = runner.invoke(app, [*args[:-2], "-f", "csv"])
    assert again.exit_code == 0, again.output
    assert [p.stat().st_mtime_ns for p in batches] == stamps  # nothing examined again
    assert pl.read_csv(run / "autopsy" / "summary.csv").height == len(cells)
    findings = pl.read_parquet(run / "autopsy" / "findings.parquet")
    assert findings.height == sum(c["analysed"] for c in cells)


def test_the_table_fits_80_columns(run: Path) -> None:
    """Every kind of decisive play a column, as whole percentages under short headers."""
    result = runner.invoke(app, ["autopsy", str(run), "--lost", "30", "--jobs", "1", "-q"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any(line.startswith("mission p") for line in lines) and result.stderr == ""


def test_trace_marks_the_decisive_play(run: Path) -> None:
    runner.invoke(app, ["autopsy", str(run), "pn-3", "-p", "4", "--jobs", "1"])
    findings = pl.read_parquet(run / "autopsy" / "findings.parquet")
    played = findings.filter(
        (pl.col("mission") == "pn-3") & (pl.col("players") == 4) & (pl.col("trick") > 0)
    )
    game = played["game"][0]
    result = runner.invoke(app, ["autopsy", str(run), "pn-3", "-p", "4", "--trace", str(game)])
    assert result.exit_code == 0, result.output
    assert "<== decisive" in result.stdout and "could play" in result.stdout


def test_refusals_are_one_line_with_status_2(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    won = pl.read_parquet(next((run / "chunks").glob("pn-1-3p-00000.parquet")))
    first_won = int(won["success"].arg_true()[0])
    for args, words in (
        (["pn-1", "-p", "3", "--trace", str(first_won)], "was won"),
        (["pn-1..3", "--trace", "0"], "one mission at one crew size"),
        (["pn-1", "-p", "3", "--trace", "100"], "games 0 to 99"),
        (["-p", "5"], "no games at 5 players"),
        (["pn-12", "-p", "4", "--trace", "0"], "random card draw"),
    ):
        assert words in exit_2(["autopsy", str(run), *args], capsys)


def test_the_report_shows_why_games_are_lost(run: Path, tmp_path: Path) -> None:
    runner.invoke(app, ["autopsy", str(run), "--lost", "30", "--jobs", "1", "-f", "csv"])
    result = runner.invoke(app, ["report", str(run), "--out", str(tmp_path / "rep")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "## Why games are lost" in text and "charts/why-lost-4p.png" in text
    table = pl.read_csv(tmp_path / "rep" / "tables" / "autopsy.csv")
    assert set(table["players"]) == {3, 4}
