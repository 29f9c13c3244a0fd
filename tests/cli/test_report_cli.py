"""`crewsim report`: a run folder becomes a report folder; bad folders are one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app
from crewsim.errors import CrewsimError

runner = CliRunner()


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "tiny"
    args = ["simulate", "pn-1..2", "-p", "4", "-n", "400", "--jobs", "1", "--seed", "3"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_report_to_default_folder(
    tiny_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["report", str(tiny_run)])
    assert result.exit_code == 0, result.output
    index = tmp_path / "reports" / "tiny" / "index.html"
    assert f"report written to {Path('reports') / 'tiny' / 'index.html'}" in result.stdout
    assert index.exists() and (index.parent / "report.md").exists()


def test_missing_run_folder_is_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["report", str(tmp_path / "nope")])
    assert isinstance(result.exception, CrewsimError)
    assert not (tmp_path / "reports").exists()  # no empty report folder left behind
    proc = subprocess.run(
        [sys.executable, "-m", "crewsim", "report", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "not found" in proc.stderr and "Traceback" not in proc.stderr


def _beside_run(tmp_path: Path, seed: str) -> Path:
    out = tmp_path / f"random-{seed}"
    args = ["simulate", "pn-1..2", "-p", "4", "-n", "60", "--jobs", "1", "--seed", seed]
    result = runner.invoke(app, [*args, "--bot", "random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_report_beside_another_crew(tiny_run: Path, tmp_path: Path) -> None:
    other = _beside_run(tmp_path, "3")
    args = ["report", str(tiny_run), "--out", str(tmp_path / "rep"), "--beside", str(other)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## The crews side by side" in md and "the `random` crew of the run" in md
    assert "The crews side by side" in (tmp_path / "rep" / "index.html").read_text()


def test_report_beside_other_deals_is_refused_before_any_folder(
    tiny_run: Path, tmp_path: Path
) -> None:
    other = _beside_run(tmp_path, "4")
    args = ["report", str(tiny_run), "--out", str(tmp_path / "rep"), "--beside", str(other)]
    result = runner.invoke(app, args)
    assert isinstance(result.exception, CrewsimError)
    assert "(root_seed 3)" in str(result.exception) and "(root_seed 4)" in str(result.exception)
    assert not (tmp_path / "rep").exists()
