"""Bad input: one line naming what is wrong, exit status 2, never a traceback.

The table drives the real entry point (``crewsim.cli.app.main``) with a patched ``sys.argv``;
the fuzz tests feed random bytes and random structures to the file loaders.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewsim.cli.app import main
from crewsim.errors import CrewsimError
from crewsim.missions import load_scenario_file
from crewsim.missions.loader import load_file

SMALL = ["-n", "200", "--jobs", "1", "--chunk-size", "100", "-p", "4"]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Bad files and folders, and one finished run folder (pn-1, 4 players, seed 0)."""
    root = tmp_path_factory.mktemp("bad")
    made = {
        "bad_toml": root / "bad.toml",
        "binary": root / "binary.toml",
        "wrong_schema": root / "schema.toml",
        "bad_yaml": root / "bad.yaml",
        "not_scenario": root / "notes.txt",
        "a_dir": root / "folder.toml",
        "a_file": root / "plain-file",
        "bad_bots": root / "bots.toml",
        "bad_manifest": root / "broken-run",
        "run": root / "run",
        "old_run": root / "old-run",
    }
    made["bad_toml"].write_text("[[missions]\nid = 'x'\n")
    made["binary"].write_bytes(b"\xff\xfe\x00garbage\x80")
    made["wrong_schema"].write_text("[[missions]]\nid = 'x'\ntasks = 'many'\n")
    made["bad_yaml"].write_text("missions: [ {id: x\n")
    made["not_scenario"].write_text("hello")
    made["a_dir"].mkdir()
    made["a_file"].write_text("not a folder")
    made["bad_bots"].write_text("[bot.x\n")
    made["bad_manifest"].mkdir()
    (made["bad_manifest"] / "manifest.json").write_text("{ nope")
    assert_exit_2(["simulate", "pn-1", *SMALL, "--out", str(made["run"])], "", ok=True)
    shutil.copytree(made["run"], made["old_run"])  # as an older crewsim wrote it
    summary = pl.read_parquet(made["old_run"] / "summary.parquet")
    summary.drop("distress_successes").write_parquet(made["old_run"] / "summary.parquet")
    return made


def assert_exit_2(argv: list[str], fragment: str, capsys: Any = None, ok: bool = False) -> str:
    """Run ``crewsim ARGV`` in-process; return stderr after checking exit 2 and one line."""
    old = sys.argv
    sys.argv = ["crewsim", *argv]
    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    finally:
        sys.argv = old
    if ok:
        assert code in (0, None), argv
        return ""
    err = capsys.readouterr().err
    assert code == 2, (argv, code, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, (argv, err)
    assert "Traceback" not in err
    assert fragment in " ".join(lines[0].split()), (fragment, err)
    return lines[0]


# (argv, fragment of the message); {name} is replaced by the path of files[name]
CASES: list[tuple[list[str], str]] = [
    (["simulate", "pn-99"], "unknown mission id 'pn-99'"),
    (["simulate", ""], "empty mission list"),
    (["simulate", "pn-5..3"], "reversed mission range"),
    (["simulate", "pn-1.."], "bad mission range"),
    (["simulate", "pn-1", "-p", "6"], "--players: expected 2 to 5, got 6"),
    (["simulate", "pn-1", "-p", "1"], "--players: expected 2 to 5, got 1"),
    (["simulate", "pn-1", "-p", "three"], "--players: expected numbers"),
    (["simulate", "pn-1", "-n", "0"], "-n: expected a positive number of games, got 0"),
    (["simulate", "pn-1", "-n", "-5"], "-n: expected a positive number"),
    (
        ["simulate", "pn-1", "-n", "many"],
        "-n: expected a whole number (1000, 1_000, 1,000 or 1e3), got 'many'",
    ),
    (["simulate", "pn-1", "-n", "2.5"], "-n: expected a whole number"),
    (["simulate", "pn-1", "--seed", "-1"], "--seed: expected a non-negative"),
    (["simulate", "pn-1", "--bot", "nobody"], "unknown bot 'nobody'"),
    (["simulate", "pn-1", "--bots", "{bad_bots}"], "not valid TOML"),
    (["simulate", "pn-1", "--distress", "often"], "--distress"),
    (["simulate", "pn-1", "--backend", "spark"], "--backend: expected loky|dask, got 'spark'"),
    (
        ["simulate", "pn-1", "--backend", "loky", "--scheduler", "tcp://127.0.0.1:1"],
        "--scheduler: only with --backend dask",
    ),
    (
        ["simulate", "pn-1", *SMALL, "--scheduler", "tcp://127.0.0.1:1"],
        "cannot reach the Dask scheduler at tcp://127.0.0.1:1",
    ),
    (["feasibility", "pn-1", "-n", "5", "--backend", "spark"], "--backend: expected loky|dask"),
    (
        ["feasibility", "pn-1", "-n", "5", "--scheduler", "tcp://127.0.0.1:1"],
        "cannot reach the Dask scheduler at tcp://127.0.0.1:1",
    ),
    (["rank", "pn-1", "--backend", "spark"], "--backend: expected loky|dask, got 'spark'"),
    (
        ["rank", "pn-1", "-n", "200", "-p", "4", "--scheduler", "tcp://127.0.0.1:1"],
        "cannot reach the Dask scheduler at tcp://127.0.0.1:1",
    ),
    (
        ["balance", "-n", "200", "-p", "4", "--scheduler", "tcp://127.0.0.1:1"],
        "cannot reach the Dask scheduler at tcp://127.0.0.1:1",
    ),
    (["simulate", "pn-1", "--format", "xml"], "'xml' is not one of 'table', 'csv', 'json'"),
    (
        ["simulate", "pn-1", "--ceiling", "--ceiling-conflicts", "-3"],
        "--ceiling-conflicts: expected 0 or more, got '-3'",
    ),
    (
        ["simulate", "pn-1", "--ceiling", "--ceiling-conflicts", "lots"],
        "--ceiling-conflicts: expected a whole number (1000, 1_000, 1,000 or 1e3), got 'lots'",
    ),
    (
        ["rank", "pn-1", "--ceiling", "--ceiling-conflicts", "-3"],
        "--ceiling-conflicts: expected 0 or more, got -3",
    ),
    (
        ["rank", "pn-1", "--ceiling", "--ceiling-n", "0"],
        "--ceiling-n: expected a whole number above 0, got 0",
    ),
    (["simulate"], "give missions to simulate"),
    (
        ["simulate", "pn-1", *SMALL, "--seed", "3", "--out", "{run}"],
        "was made by another configuration (root_seed 0 there, 3 here)",
    ),
    (
        ["simulate", "pn-1", *SMALL[:-2], "-p", "3", "--out", "{run}"],
        "was made by another configuration (players [4] only there, [3] only here)",
    ),
    (
        ["simulate", "pn-1", "-p", "4", "-n", "50", "--chunk-size", "100", "--out", "{run}"],
        "already holds 200 games per cell",
    ),
    (["simulate", "--resume", "{run}", "--seed", "9"], "another configuration"),
    (["simulate", "pn-2", "--resume", "{run}"], "give no missions with it"),
    (["simulate", "--resume", "{a_dir}"], "not a crewsim run folder"),
    (["simulate", "--resume", "{bad_manifest}"], "not valid JSON"),
    (["simulate", "pn-1", *SMALL, "--out", "{a_file}"], "is a file, not a folder"),
    (["validate", "{bad_toml}"], "not valid TOML"),
    (["validate", "{binary}"], "not UTF-8"),
    (["validate", "{wrong_schema}"], "schema.toml"),
    (["validate", "{bad_yaml}"], "not valid YAML"),
    (["validate", "{not_scenario}"], "not a TOML or YAML scenario file"),
    (["validate", "{a_dir}"], "is a directory"),
    (["validate", "/nonexistent/missions.toml"], "no such file"),
    (["missions", "show", "pn-99"], "unknown mission id"),
    (["deal", "--players", "7"], "--players: expected 2 to 5, got 7"),
    (["balance", "-p", "6"], "--players: expected 3 to 5, got 6"),  # 2 has its own message
    # an option that would be ignored without a word
    (["simulate", "pn-1", "-p", "3", "--trace", "--format", "json"], "--trace prints one game"),
    (["simulate", "pn-1", "-p", "3", "--trace", "--ceiling"], "--ceiling is for a run"),
    (["simulate", "pn-1", "-p", "3", "--trace", "--out", "x"], "--out is for a run"),
    (["simulate", "pn-1", "-p", "3", "--ceiling-n", "5"], "--ceiling-n tunes --ceiling"),
    (["rank", "pn-1", "-p", "3", "--ceiling-conflicts", "5"], "--ceiling-conflicts tunes"),
    # a count past any plan (a typo for 1e3): refused before a chunk list fills the memory
    (["simulate", "pn-1", "-p", "3", "-n", "1e13"], "-n: at most 10,000,000,000 games"),
    (["simulate", "pn-1", "-p", "3", "-n", "1e999999999"], "-n: too large, got '1e999999999'"),
    (["check-tasks", "1", "-n", "1e30"], "-n: at most"),
    (["feasibility", "pn-1", "-p", "3", "-n", "1e30"], "-n: at most 10,000,000,000 deals"),
    (["deal", "--mission", "pn-99"], "unknown mission id"),
    (["deal", "--game", "deep-sea", "--mission", "pn-10"], "pn-10 is a planet-nine mission"),
    (["report", "{run}", "--out", "{a_file}"], "is a file, not a folder"),
    (["report", "{run}", "--out", "{a_file}/sub"], "cannot make the folder"),
    (["balance", "--run-out", "{a_file}", "-n", "10"], "--run-out"),
    (["rank", "--run", "{run}", "-n", "5"], "-n shapes a new run"),
    (["rank", "--run", "{run}", "--backend", "dask"], "--backend shapes a new run"),
    (["rank", "--run", "{run}", "--ceiling-n", "50"], "--ceiling-n shapes a new run"),
    (["balance", "--run", "{run}", "--seed", "3"], "--seed shapes a new run"),
    (["balance", "--run", "{run}", "--run-out", "x"], "--run-out shapes a new run"),
    # a folder an older crewsim wrote: refused, never converted
    *(
        (argv, "old-run: a run folder of an older crewsim (its summary has no column")
        for argv in (
            ["report", "{old_run}"],
            ["rank", "--run", "{old_run}"],
            ["balance", "--run", "{old_run}"],
            ["simulate", "--resume", "{old_run}"],
            ["compare", "{run}", "{old_run}"],
            ["report", "{run}", "--beside", "{old_run}"],
        )
    ),
    (["compare", "{run}", "{a_dir}"], "no manifest.json"),
    (["compare", "{run}", "{run}", "pn-2"], "unknown mission id 'pn-2' (known: pn-1)"),
    (["report", "{run}", "--beside", "/nonexistent/run"], "run folder /nonexistent/run not found"),
]

# typer's own parsing errors (a number out of range, a missing option): one line too
TYPER_USAGE: list[tuple[list[str], str]] = [
    (["tasks", "list", "--players", "9"], "less than or equal to 5"),
    *(
        (argv, "--seed")
        for argv in (
            ["deal", "--seed", "-1"],
            ["check-tasks", "1", "-n", "10", "--seed", "-1"],
            ["feasibility", "pn-3", "-n", "5", "--seed", "-2"],
            ["rank", "pn-3", "--seed", "-1"],
            ["balance", "--seed", "-1"],
        )
    ),
    (["deal", "--players", "four"], "valid integer"),
    (
        ["simulate", "pn-1", "--no-such-option"],
        "No such option: --no-such-option (see crewsim simulate --help)",
    ),
    (["bogus"], "No such command 'bogus'"),
    (["rank", "pn-1", "-n", "1.5"], "expected a whole number"),
    (["balance", "-n", "lots"], "expected a whole number"),
]


@pytest.mark.parametrize(("argv", "fragment"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str],
    fragment: str,
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("crewsim.runs.backends.DASK_CONNECT_TIMEOUT", 1.0)
    args = [a.format(**{k: str(v) for k, v in files.items()}) for a in argv]
    capsys.readouterr()
    assert_exit_2(args, fragment, capsys)


@pytest.mark.parametrize(("argv", "fragment"), TYPER_USAGE)
def test_typer_usage_errors_are_one_line_and_exit_2(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_exit_2(argv, fragment, capsys)


def test_no_run_folder_is_left_by_refused_input(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "never"
    assert_exit_2(["simulate", "pn-1", "--bot", "nobody", "--out", str(out)], "bot", capsys)
    assert not out.exists()


# ---------------------------------------------------------------- fuzzing the loaders

_scalars = (
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12)
)
_keys = st.sampled_from(
    [
        "id",
        "game",
        "number",
        "tasks",
        "tokens",
        "communication",
        "objectives",
        "kind",
        "missions",
        "task_cards",
        "difficulty",
        "params",
        "card",
        "cards",
        "text",
        "x",
    ]
) | st.text(max_size=6)
_json_like = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=5),
    max_leaves=20,
)
_documents = st.dictionaries(
    st.sampled_from(["missions", "task_cards", "game", "other"]),
    st.lists(st.dictionaries(_keys, _json_like, max_size=8), max_size=3) | _json_like,
    max_size=3,
)

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _load_all(path: Path) -> None:
    """Both scenario entry points must succeed or raise CrewsimError, nothing else."""
    for loader in (load_file, load_scenario_file):
        try:
            loader(path)
        except CrewsimError as exc:
            assert "\n" not in str(exc)


def _write_yaml(path: Path, doc: Any) -> None:
    yaml = pytest.importorskip("yaml")
    path.write_text(yaml.safe_dump(doc, allow_unicode=True))


@FUZZ
@given(data=st.binary(max_size=300), suffix=st.sampled_from([".toml", ".yaml", ".json", ""]))
def test_scenario_loader_survives_random_bytes(data: bytes, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"fuzz{suffix}"
        path.write_bytes(data)
        _load_all(path)


@FUZZ
@given(doc=_documents)
def test_scenario_loader_survives_random_structures(doc: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.yaml"  # the TOML path parses to the same dicts
        try:
            _write_yaml(path, doc)
        except ValueError:  # floats YAML cannot hold: nothing to test
            return
        _load_all(path)


def _read_deals(path: Path) -> None:
    from crewsim.solver import deals

    try:
        list(deals.read_deals(path))
    except CrewsimError as exc:
        assert "\n" not in str(exc)


@FUZZ
@given(data=st.binary(max_size=300), suffix=st.sampled_from([".json", ".jsonl"]))
def test_deal_reader_survives_random_bytes(data: bytes, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"deal{suffix}"
        path.write_bytes(data)
        _read_deals(path)


_deal_keys = st.sampled_from(
    [
        "game",
        "players",
        "commander",
        "hands",
        "tasks",
        "dummy_under",
        "mission",
        "designated",
        "card",
        "player",
        "token",
    ]
)
_deal_like = st.recursive(
    _scalars | st.sampled_from(["pink6", "rocket4", "sub2", "blue9", "pn-1", "1", "omega"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_deal_keys, inner, max_size=6),
    max_leaves=30,
)


@FUZZ
@given(doc=st.dictionaries(_deal_keys, _deal_like, max_size=7))
def test_deal_reader_survives_random_structures(doc: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deal.json"
        try:
            path.write_text(json.dumps(doc, allow_nan=False))
        except ValueError:
            return
        _read_deals(path)


@pytest.mark.parametrize("argv", [[], ["missions"], ["tasks"]])
def test_a_group_alone_prints_its_help(argv: list[str], capsys: Any) -> None:
    """No subcommand is a request for help, not an error."""
    assert_exit_2(argv, "", ok=True)
    out = capsys.readouterr()
    heading = "Look up:" if argv == [] else "Commands:"  # the top level groups its commands
    assert out.out.startswith("Usage: crewsim") and heading in out.out and out.err == ""
    assert ("CREWSIM_SCENARIOS" in out.out) is (argv == [])  # where the missions come from
