"""The console entry point: its help (groups in the order of use, one grammar of options)
and its own behaviour (signals)."""

from __future__ import annotations

import re
import signal

import pytest
from typer.testing import CliRunner

from crewsim.cli import app as app_module
from crewsim.cli.app import GROUPS, app

runner = CliRunner()
COMMANDS = [name for _, cmds in GROUPS for name, _ in cmds]
LEAVES = [
    ["missions", "list"],
    ["missions", "show"],
    ["tasks", "list"],
    ["tasks", "show"],
    *([name] for name in COMMANDS if name not in ("missions", "tasks")),
]
# commands that print data (a table, rows, a record): each takes -f table|csv|json
DATA = [leaf for leaf in LEAVES if leaf != ["report"]]


def _help(*words: str) -> str:
    result = runner.invoke(app, [*words, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    return result.stdout


def _options(text: str) -> str:
    """The Options section of a help text, spaces collapsed."""
    return " ".join(text[text.index("\nOptions:") :].split())


def test_top_level_help_groups_the_commands_in_the_order_of_use() -> None:
    text = _help()
    headings = [line[:-1] for line in text.splitlines() if re.fullmatch(r"[A-Z][a-z ]+:", line)]
    assert headings == [
        "Options",
        "Look up",
        "Simulate",
        "Read a run",
        "Check and solve",
        "Balance",
    ]
    groups = text[text.index("Look up:") :]
    listed = [
        line.split()[0] for line in groups.splitlines() if re.match(r"  [a-z-]+  +[A-Z]", line)
    ]
    assert listed == [
        "missions",
        "tasks",
        "deal",
        "simulate",
        "rank",
        "report",
        "compare",
        "autopsy",
        "check-tasks",
        "solve",
        "feasibility",
        "validate",
        "balance",
    ]


def test_every_command_is_in_a_group_with_a_whole_summary() -> None:
    """Typer cuts a summary at 45 characters with "...": each is written short enough, and
    every command registered is in a group."""
    import typer

    group = typer.main.get_command(app)
    assert sorted(COMMANDS) == sorted(group.commands)  # type: ignore[attr-defined]
    text = _help()
    for _, cmds in GROUPS:
        for name, summary in cmds:
            assert summary.endswith((".", "?")), name
            assert re.search(rf"^  {re.escape(name)} +{re.escape(summary)}$", text, re.M), name
    assert "..." not in text[text.index("Look up:") :]


@pytest.mark.parametrize("group", ["missions", "tasks"])
def test_the_groups_summaries_are_whole_too(group: str) -> None:
    text = _help(group)
    assert "..." not in text[text.index("Commands:") :]


@pytest.mark.parametrize("words", DATA, ids=" ".join)
def test_every_data_command_takes_format_table_csv_json(words: list[str]) -> None:
    assert re.search(r"-f, --format (<|\[)table\|csv\|json(>|\])", _options(_help(*words)))


@pytest.mark.parametrize("words", LEAVES, ids=" ".join)
def test_defaults_are_shown_one_way_and_never_by_hand(words: list[str]) -> None:
    """typer's ``[default: ...]``; no hand-written ``[loky]`` or ``[3,4,5]``; and the user
    reads "processes on this machine", never the library's name, outside --backend's
    choice."""
    text = _options(_help(*words))
    hand = re.findall(r"\[(?!default:|required|x>=|\d+<=x)[^\]]*\]", text)
    assert [h for h in hand if "|" not in h] == []  # a choice list [a|b] is not a default
    for shown in ("[loky|dask]", "loky (processes on this machine)", "[default: loky]"):
        text = text.replace(shown, "")
    assert "loky" not in text


def _option_block(text: str, flag: str) -> str:
    """One option's lines in a help text: from its flag to the next option."""
    options = text[text.index("\nOptions:") :]
    found = re.search(rf"^  {flag}[ ,].*?(?=^  -|\Z)", options, re.S | re.M)
    assert found, flag
    return found.group(0)


N_COMMANDS = [["simulate"], ["rank"], ["balance"], ["feasibility"], ["check-tasks"]]


@pytest.mark.parametrize("words", N_COMMANDS, ids=" ".join)
def test_every_n_says_its_default(words: list[str]) -> None:
    assert "[default:" in _option_block(_help(*words), "-n")


@pytest.mark.parametrize(
    "words",
    [["simulate"], ["rank"], ["balance"], ["feasibility"], ["check-tasks"], ["solve"], ["autopsy"]],
    ids=" ".join,
)
def test_jobs_means_one_thing_with_one_default(words: list[str]) -> None:
    text = " ".join(_option_block(_help(*words), "-j").split())
    assert "0 or -1 all cores, -2 all but one" in text
    assert "[default: (all cores)]" in text


def test_the_jobs_default_is_every_core_in_every_command() -> None:
    """One meaning in the library too: the default runs one worker per core."""
    import os

    from crewsim.cli.options import ALL_CORES
    from crewsim.runs.backends import worker_count

    assert worker_count(ALL_CORES) == worker_count(0) == (os.cpu_count() or 1)


def test_choices_come_from_the_registries() -> None:
    from crewsim.bots import load_bots
    from crewsim.kernel.layout import DISTRESS_CODES
    from crewsim.runs.backends import BACKENDS

    text = _options(_help("simulate")).replace("- ", "-")
    assert ", ".join(load_bots()) in text
    assert "[" + "|".join(DISTRESS_CODES) + "]" in text
    assert "[" + "|".join(BACKENDS) + "]" in text


def test_sigterm_goes_through_whatever_sigint_handler_is_in_place() -> None:
    """So a handler that lets a running call finish first (``backends._ctrl_c_after``) holds
    SIGTERM back too, instead of cutting the call."""
    hit: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: hit.append(signum))
    try:
        app_module._stop_on_term(signal.SIGTERM, None)
    finally:
        signal.signal(signal.SIGINT, old)
    assert hit == [signal.SIGINT]


@pytest.mark.parametrize(
    ("words", "flag", "shown"),
    [
        (["simulate"], "-n", "[default: 1,000,000]"),
        (["rank"], "-n", "[default: 100,000]"),
        (["feasibility"], "--budget", "[default: 200,000]"),
        (["solve"], "--conflicts", "[default: 30,000]"),
        (["simulate"], "--ceiling-conflicts", "[default: 30,000]"),
    ],
)
def test_counts_in_help_have_thousands_separators(words: list[str], flag: str, shown: str) -> None:
    assert shown in " ".join(_option_block(_help(*words), flag).split())
