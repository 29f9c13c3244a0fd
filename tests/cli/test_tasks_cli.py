"""`crewsim tasks list`: the 96 Deep Sea task cards with difficulty per crew size."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app
from crewsim.errors import CrewsimError

runner = CliRunner()
# (number, ref_id, difficulty for 3/4/5 players) from the reference table deep_sea_tasks.csv
SAMPLES = [
    (1, "neverTwoTricksInARow", (3, 2, 2)),
    (10, "onlyEvenTrick", (2, 5, 6)),
    (32, "4x9", (4, 5, 6)),
    (54, "moreTricksThanCaptain", (2, 2, 3)),
    (89, "red9+yellow8", (2, 3, 3)),
    (95, "exactlyXtrickSecret", (4, 3, 3)),
]
TOTALS = {2: 229, 3: 229, 4: 264, 5: 297}


def _csv(*args: str) -> list[dict[str, str]]:
    result = runner.invoke(app, ["tasks", "list", *args, "--format", "csv"])
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.output)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_csv_difficulties_match_reference(players: int) -> None:
    rows = _csv("--players", str(players))
    assert len(rows) == 96
    assert sum(int(r["difficulty"]) for r in rows) == TOTALS[players]
    by_number = {int(r["number"]): r for r in rows}
    for number, ref_id, difficulty in SAMPLES:
        assert by_number[number]["ref_id"] == ref_id
        assert int(by_number[number]["difficulty"]) == difficulty[max(players, 3) - 3]


def test_default_is_four_players_and_columns() -> None:
    rows = _csv()
    assert list(rows[0]) == ["number", "ref_id", "text", "difficulty", "kind", "captain_may_take"]
    assert sum(int(r["difficulty"]) for r in rows) == TOTALS[4]
    assert [r["number"] for r in rows if r["captain_may_take"] == "no"] == ["52", "53", "54"]


def test_table_and_json() -> None:
    result = runner.invoke(app, ["tasks", "list", "--players", "3"])
    assert result.exit_code == 0, result.output
    assert "96 task cards, 3 players" in result.output
    assert '17 "I will never win 2 tricks in a row"' not in result.output  # card 1's words
    assert '1 "I will never win 2 tricks in a row"' in result.output  # a card as people name it
    assert "neverTwoTricksInARow" not in result.output  # not by its internal short name
    result = runner.invoke(app, ["tasks", "list", "-f", "json"])
    doc = json.loads(result.output)
    assert doc["players"] == 4
    rows = doc["task_cards"]
    assert len(rows) == 96 and rows[75]["card"]["redeal_if"] == [[36, 39], [36, 37, 38]]
    assert rows[0]["ref_id"] == "neverTwoTricksInARow"  # in JSON, the short name is a key


def test_players_out_of_range() -> None:
    assert runner.invoke(app, ["tasks", "list", "--players", "6"]).exit_code == 2


def test_show_one_card_by_number_or_ref_id() -> None:
    """The reference table's values, the mission that fixes the card, the same card by name."""
    result = runner.invoke(app, ["tasks", "show", "4"])
    assert result.exit_code == 0, result.output
    assert "#4  I will win 0 tricks" in result.output
    assert "4 / 3 / 3 for 3 / 4 / 5 players" in result.output
    assert "win_exactly_n_tricks(n=0)" in result.output
    assert "ds-32" in result.output
    by_name = runner.invoke(app, ["tasks", "show", "0TRICKS"])
    assert by_name.output == result.output
    card = json.loads(runner.invoke(app, ["tasks", "show", "4x9", "--json"]).output)
    assert (card["number"], card["difficulty"], card["missions"]) == (32, [4, 5, 6], [])
    assert json.loads(runner.invoke(app, ["tasks", "show", "32", "-f", "json"]).output) == card
    assert "may not take it" in runner.invoke(app, ["tasks", "show", "54"]).output
    # a parameter that maps colours to counts, in words rather than a Python repr
    assert (
        "win_exactly_color(counts=green:1+pink:1)"
        in runner.invoke(app, ["tasks", "show", "41"]).output
    )


def test_show_an_unknown_card_is_a_one_line_error() -> None:
    """``main`` prints a CrewsimError as one line and exits with its status."""
    result = runner.invoke(app, ["tasks", "show", "97"])
    assert isinstance(result.exception, CrewsimError)
    assert result.exception.exit_code == 2
    assert str(result.exception) == "unknown task card '97' (known numbers: 1..96, or a ref_id)"
