"""`crewsim simulate`: table and JSON output, the run folder, --trace, one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app
from crewsim.errors import CrewsimError

runner = CliRunner()
SMALL = ["-n", "3000", "--jobs", "1", "--chunk-size", "2000"]


def test_table_output(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "pn-1", "-p", "4", *SMALL, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "seed 0" in out
    assert "pn-1" in out and "3,000" in out and "95 % CI" in out
    assert "top failure reasons" in out
    assert (tmp_path / "summary.csv").exists()


def test_json_rows_and_run_folder(tmp_path: Path) -> None:
    args = ["simulate", "pn-1..2", "-p", "3,4", *SMALL, "--seed", "5", "--format", "json"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {k: doc[k] for k in ("run", "bot", "seed", "distress", "games_per_cell")} == {
        "run": str(tmp_path),
        "bot": "heuristic",
        "seed": 5,
        "distress": "auto",
        "games_per_cell": 3000,
    }
    rows = doc["cells"]
    assert [(r["mission"], r["players"]) for r in rows] == [
        ("pn-1", 3),
        ("pn-1", 4),
        ("pn-2", 3),
        ("pn-2", 4),
    ]
    for r in rows:
        assert r["bot"] == "heuristic" and r["games"] == 3000
        assert 0 <= r["ci_low"] <= r["success_rate"] <= r["ci_high"] <= 1
        assert r["successes"] == round(r["success_rate"] * r["games"])
        assert r["expected_attempts"] is None or r["expected_attempts"] >= 1
        assert 0 <= r["distress_share"] <= 1
    assert json.loads((tmp_path / "manifest.json").read_text())["root_seed"] == 5
    for jobs in ("2", "0"):  # 0 means every core, as in the other commands
        again = runner.invoke(app, [*args, "--jobs", jobs, "--out", str(tmp_path / jobs)])
        assert json.loads(again.stdout)["cells"] == rows


def test_default_run_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["simulate", "pn-1", "-p", "3", "-n", "100", "--seed", "9"])
    assert result.exit_code == 0, result.output
    (folder,) = (tmp_path / "runs").iterdir()
    assert folder.name.endswith("-9")
    assert (folder / "summary.parquet").exists()


def test_trace_prints_one_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["simulate", "pn-5", "-p", "4", "--trace"])
    assert result.exit_code == 0, result.output
    assert "pn-5, 4 players" in result.stdout
    assert "trick 1:" in result.stdout
    assert "SUCCESS" in result.stdout or "FAILURE" in result.stdout
    assert not (tmp_path / "runs").exists()  # no run folder


def test_a_deep_sea_trace_names_its_task_cards_and_owners() -> None:
    """The drawn cards are the mission: without them a Deep Sea trace cannot be checked."""
    result = runner.invoke(app, ["simulate", "ds-5", "-p", "3", "--trace"])
    assert result.exit_code == 0, result.output
    cards = [line for line in result.stdout.splitlines() if line.startswith("task card ")]
    assert cards
    assert all(
        re.fullmatch(r'task card \d+ ".+"( \(predicted: \d+\))? -> P\d\*?', c) for c in cards
    )
    assert result.stdout.index("task card") < result.stdout.index("trick 1:")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pn-99"], "unknown mission"),
        (["pn-1", "-p", "6"], "2 to 5"),
        (["pn-1", "-p", "1"], "2 to 5"),
        (["pn-1", "-n", "0"], "-n"),
        (["pn-1", "--bot", "nobody"], "unknown bot"),
        (["pn-1", "--distress", "sometimes"], "--distress"),
        (["pn-1", "--precision", "0"], "--precision: expected a share above 0"),
        (["pn-1", "--precision", "50%"], "--precision: expected a share above 0"),
        (["pn-1", "--precision", "-1%"], "--precision: expected a share above 0"),
        (["pn-1", "--precision", "tight"], "--precision: expected a share such as 0.005"),
    ],
)
def test_bad_input_is_one_line_user_error(args: list[str], message: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", *args, "--out", str(tmp_path / "run")])
    assert isinstance(result.exception, CrewsimError)
    assert message in str(result.exception)
    assert "\n" not in str(result.exception)
    assert not (tmp_path / "run").exists()


def test_a_bad_precision_exits_2_with_one_line() -> None:
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "crewsim", "simulate", "pn-1", "--precision", "0.5"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "--precision: expected a share" in result.stderr


def test_precision_stops_cells_and_a_resume_keeps_the_setting(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["simulate", "pn-1,pn-2", "-p", "4", "-n", "20000", "--jobs", "1", "--seed", "3"]
    result = runner.invoke(app, [*args, "--precision", "1.5%", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "at most 20,000 games each" in result.stderr and "stopped" in result.stdout
    first = json.loads(
        runner.invoke(app, ["simulate", "--resume", str(out), "--format", "json"]).stdout
    )["cells"]
    assert [r["stopped"] for r in first] == ["precision", "precision"]
    assert all(r["games"] < 20_000 for r in first)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["stopping"] == {"precision": 0.015, "separate": False}
    assert manifest["chunk_size"] == 2_000 and manifest["games_per_cell"] == 20_000


def test_csv_has_the_json_columns_and_quiet_leaves_stderr_empty(tmp_path: Path) -> None:
    """-f csv: one row per cell; -q: no progress, no chatter, the data still printed."""
    import io

    import polars as pl

    args = ["simulate", "pn-1", "-p", "3,4", *SMALL, "--out", str(tmp_path), "-f", "csv"]
    result = runner.invoke(app, [*args, "-q"])
    assert result.exit_code == 0, result.output
    df = pl.read_csv(io.StringIO(result.stdout))
    assert df["players"].to_list() == [3, 4] and df["games"].to_list() == [3000, 3000]
    assert "success_rate" in df.columns and "top_failures" not in df.columns
    assert set(df["failure1_kind"].drop_nulls()) <= {
        "wrong_winner",
        "order",
        "not_done",
        "objective",
    }
    assert df["failure1_share"].drop_nulls().is_between(0, 1).all()
    assert result.stderr == ""
    loud = runner.invoke(app, args)  # the run again, without -q: what runs where
    assert "mission x player cells" in loud.stderr and "local process" in loud.stderr
    assert "loky" not in loud.stderr


def test_a_long_run_says_so_before_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games x cells over a cautious rate: a run past a few minutes warns in one line."""
    import crewsim.cli.runs as runs

    monkeypatch.setitem(runs.GAMES_PER_SECOND_PER_CORE, "heuristic", 0.01)
    result = runner.invoke(app, ["simulate", "pn-1", "-p", "3", *SMALL, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (note,) = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert "3,000 games (1 cell x 3,000)" in note and "expect about" in note
    quiet = runner.invoke(
        app, ["simulate", "pn-1", "-p", "3", *SMALL, "-q", "--out", str(tmp_path)]
    )
    assert "note:" not in quiet.stderr


def test_a_deep_sea_run_that_stops_early_fits_80_columns(tmp_path: Path) -> None:
    """Its widest table (redeal, repair, why each cell stopped) and cards by their words."""
    args = ["simulate", "ds-9", "-p", "3", "-n", "4000", "--jobs", "1", "--chunk-size", "2000"]
    result = runner.invoke(app, [*args, "--precision", "5%", "-q", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    table = result.stdout[: result.stdout.index("top failure reasons")]
    assert max(len(line) for line in table.splitlines()) <= 80
    assert "stopped" in table and "repair" in table
    assert re.search(r'task card \d+ "I will', result.stdout)
