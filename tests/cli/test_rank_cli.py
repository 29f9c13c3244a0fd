"""`crewsim rank`: from a fresh simulation or an existing run; table, CSV, JSON; errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app
from crewsim.errors import CrewsimError

runner = CliRunner()


@pytest.fixture(scope="module")
def ranked_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`crewsim rank` simulating: pn-1..3 at 3 and 4 players."""
    out = tmp_path_factory.mktemp("runs") / "ranked"
    args = ["rank", "pn-1..3", "-p", "3,4", "-n", "500", "--jobs", "1", "--seed", "4"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "4 players: easiest (1) to hardest" in result.stdout
    assert "Spearman rho" in result.stdout and "not in this run" in result.stdout
    return out


def test_json_ranking_from_existing_run(ranked_run: Path) -> None:
    result = runner.invoke(app, ["rank", "--run", str(ranked_run), "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["seed"] == 4 and doc["games_per_cell"] == 500
    rows = [r for r in doc["ranking"] if r["players"] == 3]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert [r["success_rate"] for r in rows] == sorted(
        (r["success_rate"] for r in rows), reverse=True
    )
    assert {c["players"] for c in doc["correlations"]} == {3, 4}
    assert all(isinstance(r["top_failures"], list) for r in rows)  # as simulate's JSON
    first = [r["top_failures"][0] for r in rows if r["top_failures"]]
    assert first and all(set(f) == {"kind", "card", "trick", "trick_share", "share"} for f in first)
    assert all(0 < f["share"] <= 1 and f["trick"] >= 1 for f in first)
    assert not any(k.startswith("failure1_") for r in rows for k in r)


def _widest(text: str) -> int:
    """The widest table line (the Spearman sentences wrap as prose: left out)."""
    return max(len(line) for line in text.splitlines() if "Spearman" not in line)


def test_the_table_fits_80_columns_and_wide_keeps_each_interval_on_its_line(
    ranked_run: Path,
) -> None:
    narrow = runner.invoke(app, ["rank", "--run", str(ranked_run)])
    assert narrow.exit_code == 0, narrow.output
    assert _widest(narrow.stdout) <= 80
    wide = runner.invoke(app, ["rank", "--run", str(ranked_run), "--wide"])
    assert "success [95 % CI]" in wide.stdout and "success [95 % CI]" not in narrow.stdout


def test_csv_with_filters(ranked_run: Path) -> None:
    args = ["rank", "pn-2,pn-3", "--run", str(ranked_run), "-p", "4", "--format", "csv"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    df = pl.read_csv(io.StringIO(result.stdout))
    assert sorted(df["mission"]) == ["pn-2", "pn-3"] and set(df["players"]) == {4}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rank"], "give missions"),
        (["rank", "--run", "nowhere", "--ceiling"], "--ceiling"),
        (["rank", "pn-9", "--run", "RUN"], "unknown mission id 'pn-9' (known: pn-1..pn-3)"),
        (["rank", "--run", "RUN", "-p", "5"], "no games at 5 players"),
        (["rank", "--run", "/nonexistent/run"], "not found"),
        (["rank", "--run", "RUN", "--separate"], "--separate shapes a new run"),
        (["rank", "--run", "RUN", "--precision", "1%"], "--precision shapes a new run"),
        (["rank", "pn-1", "--precision", "0%"], "--precision: expected a share above 0"),
    ],
)
def test_user_errors(ranked_run: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, [a.replace("RUN", str(ranked_run)) for a in args])
    assert isinstance(result.exception, CrewsimError)
    assert message in str(result.exception)


def test_rank_with_ceiling_shows_feasible_share(tmp_path: Path) -> None:
    args = [
        "rank",
        "pn-1,pn-2",
        "-p",
        "4",
        "-n",
        "300",
        "--seed",
        "2",
        "--jobs",
        "1",
        "--out",
        str(tmp_path / "run"),
        "--ceiling",
        "--format",
        "csv",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    df = pl.read_csv(io.StringIO(result.stdout))
    assert "feasible_share" in df.columns
    assert df["feasible_share"].min() >= 0.0


def test_separate_plays_on_where_the_order_is_open(tmp_path: Path) -> None:
    """pn-1..4 at 4 players, 500-game steps up to 4,000: the cells apart from their neighbours
    stop after a step; the table says each cell's games and why it stopped."""
    args = ["rank", "pn-1..4", "-p", "4", "-n", "4000", "--jobs", "1", "--separate"]
    out = tmp_path / "run"
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "up to 4,000 games each" in result.stdout and "stopped" in result.stdout
    assert "cells stopped:" in result.stderr
    doc = json.loads(runner.invoke(app, ["rank", "--run", str(out), "--format", "json"]).stdout)
    rows = {r["mission"]: r for r in doc["ranking"]}
    assert {r["stopped"] for r in rows.values()} <= {"separated", "cap"}
    assert min(r["games"] for r in rows.values()) == 2_000  # one step (STOP_CHUNK_SIZE)
    for r in rows.values():
        assert r["tied"] == (r["stopped"] == "cap")  # the ranking's own overlap
