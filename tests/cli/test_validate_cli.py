"""`crewsim validate FILE`: ok line for good files, one error line and exit 2 for bad ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewsim.cli import app as app_module
from crewsim.cli.app import app
from crewsim.errors import CrewsimError
from crewsim.missions import scenarios_dir

runner = CliRunner()
CREWSIM = Path(sys.executable).parent / "crewsim"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("planet_nine.toml", "ok: 50 missions"),
        ("deep_sea.toml", "ok: 32 missions"),
        ("deep_sea_tasks.toml", "ok: 96 task cards"),
        ("bots.toml", "ok: 5 bot crews"),
    ],
)
def test_shipped_files_validate(name: str, expected: str) -> None:
    result = runner.invoke(app, ["validate", str(scenarios_dir() / name)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(expected)


def test_custom_file_ok(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        '[[missions]]\nid = "x"\ngame = "deep-sea"\nnumber = 1\n'
        'fixed_tasks = [1, 96]\ndescription = "two cards"\n'
    )
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"ok: 1 mission in {path}"  # one, not "1 missions"
    doc = json.loads(runner.invoke(app, ["validate", str(path), "-f", "json"]).stdout)
    assert doc == {"file": str(path), "ok": True, "kind": "missions", "count": 1}


def test_bad_file_raises_user_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        'game = "planet-nine"\n[[missions]]\nid = "b"\nnumber = 1\ntasks = 20\ndescription = "x"\n'
    )
    result = runner.invoke(app, ["validate", str(path)])
    assert isinstance(result.exception, CrewsimError)
    assert str(result.exception) == (
        f"{path}: mission 'b': field 'tasks': expected a whole number from 0 to 12, got 20"
    )


BAD_FILES = {
    "wrong type": (
        "a.toml",
        'game = "planet-nine"\n[[missions]]\nid = "a"\nnumber = "one"\n'
        'tasks = 1\ndescription = "x"\n',
        "field 'number'",
    ),
    "unknown task kind": (
        "t.toml",
        '[[task_cards]]\nnumber = 1\nref_id = "r"\ntext = "t"\n'
        'difficulty = [1, 1, 1]\nkind = "fly"\n',
        "unknown task kind",
    ),
    "difficulty not positive": (
        "t.toml",
        '[[task_cards]]\nnumber = 1\nref_id = "r"\ntext = "t"\n'
        'difficulty = [1, -1, 1]\nkind = "win_no_submarines"\n',
        "field 'difficulty[2]'",
    ),
    "invalid TOML": ("a.toml", "missions = [\n", "not valid TOML"),
    "not TOML": ("a.json", "{}", "not a TOML or YAML scenario file"),
    "neither list (brackets survive)": ("a.toml", "x = 1\n", "[[missions]] or [[task_cards]]"),
    "unknown bot kind": ("b.toml", '[bot.x]\nkind = "smart"\n', "bot 'x': field 'kind'"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_main_exits_2_with_one_line(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    filename, content, words = BAD_FILES[case]
    path = tmp_path / filename
    path.write_text(content)
    monkeypatch.setattr(sys, "argv", ["crewsim", "validate", str(path)])
    with pytest.raises(SystemExit) as info:
        app_module.main()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and str(path) in err and words in " ".join(err.split())


@pytest.mark.skipif(not CREWSIM.exists(), reason="console script not installed")
@pytest.mark.parametrize("case", ["wrong type", "invalid TOML"])
def test_console_script_exit_status(case: str, tmp_path: Path) -> None:
    filename, content, words = BAD_FILES[case]
    path = tmp_path / filename
    path.write_text(content)
    proc = subprocess.run(
        [str(CREWSIM), "validate", str(path)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and words in proc.stderr


@pytest.mark.skipif(not CREWSIM.exists(), reason="console script not installed")
def test_console_script_missing_file(tmp_path: Path) -> None:
    proc = subprocess.run(
        [str(CREWSIM), "validate", str(tmp_path / "gone.toml")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "gone.toml: no such file" in proc.stderr
