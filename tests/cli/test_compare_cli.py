"""`crewsim compare`: two runs' crews on the same deals, as a table, CSV or JSON; refusals."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app
from tests.cli.exits import exit_2

runner = CliRunner()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """pn-1..3 at 3 and 4 players in chunks of 50, seed 2: the heuristic crew (100 games), the
    random crew (60 of the same deals), the heuristic crew on seed 3."""
    root = tmp_path_factory.mktemp("compare")
    made = {
        "heuristic": ["-n", "100", "--seed", "2"],
        "random": ["-n", "60", "--seed", "2", "--bot", "random"],
        "seed3": ["-n", "60", "--seed", "3"],
    }
    for name, extra in made.items():
        args = ["simulate", "pn-1..3", "-p", "3,4", "--jobs", "1", "--chunk-size", "50", *extra]
        result = runner.invoke(app, [*args, "--out", str(root / name)])
        assert result.exit_code == 0, result.output
    return {name: root / name for name in made}


def test_table(runs: dict[str, Path]) -> None:
    """The tables fit a terminal of 80 columns."""
    args = ["compare", str(runs["heuristic"]), str(runs["random"])]
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "3 players: A against B on the same deals" in out
    assert "4 players: A against B on the same deals" in out
    header = next(line for line in out.splitlines() if line.startswith("mission"))
    assert header.split()[:6] == ["mission", "games", "wins", "A", "wins", "B"]
    assert "[95 % CI]" in header
    assert max(len(line) for line in out.splitlines()) <= 80  # the sentences wrap at words too
    words = " ".join(out.split())
    assert "3 players: Spearman rho of A's and B's success rates (3 missions)" in words
    assert "A: bot heuristic" in words and "B: bot random" in words
    assert "the first 60 deals of each cell" in words


def test_a_run_against_itself_as_csv(runs: dict[str, Path]) -> None:
    args = ["compare", str(runs["heuristic"]), str(runs["heuristic"]), "pn-2,pn-3", "-p", "4"]
    result = runner.invoke(app, [*args, "--format", "csv"])
    assert result.exit_code == 0, result.output
    df = pl.read_csv(io.StringIO(result.stdout))
    assert df["mission"].to_list() == ["pn-2", "pn-3"] and set(df["players"]) == {4}
    assert set(df["games"]) == {100} and (df["wins_a"] == df["wins_b"]).all()
    assert (df["difference"] == 0).all() and (df["mcnemar_p"] == 1).all()


def test_json(runs: dict[str, Path]) -> None:
    args = ["compare", str(runs["heuristic"]), str(runs["random"]), "--format", "json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["bot_a"], doc["bot_b"], doc["seed"], doc["games_per_cell"]) == (
        "heuristic",
        "random",
        2,
        60,
    )
    assert len(doc["cells"]) == 6 and {r["players"] for r in doc["agreement"]} == {3, 4}
    first = doc["cells"][0]
    assert first["wins_a"] - first["wins_b"] == first["only_a"] - first["only_b"]
    assert isinstance(doc["moves"], list)


def test_runs_of_different_seeds_are_refused(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = runs["heuristic"], runs["seed3"]
    line = exit_2(["compare", str(a), str(b)], capsys)
    assert f"{a} (root_seed 2) and {b} (root_seed 3) do not deal the same games" in line


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["pn-7"], "unknown mission id 'pn-7'"),
        (["-p", "5"], "share no games at 5 players"),
        (["-p", "six"], "--players: expected numbers"),
        (["--format", "xml"], "'xml' is not one of"),
    ],
)
def test_bad_input(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    line = exit_2(["compare", str(runs["heuristic"]), str(runs["random"]), *extra], capsys)
    assert said in line


def test_a_missing_run_folder(runs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    line = exit_2(["compare", str(runs["heuristic"]), "/no/such/run"], capsys)
    assert "run folder /no/such/run not found" in line
