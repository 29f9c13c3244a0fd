"""`crewsim missions list|show` in every format."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app
from crewsim.errors import CrewsimError

runner = CliRunner()


def test_list_table() -> None:
    result = runner.invoke(app, ["missions", "list"])
    assert result.exit_code == 0, result.output
    assert "82 missions" in result.output
    assert "pn-1 " in result.output and "ds-32" in result.output


def test_list_table_fits_80_columns_and_wide_has_every_column() -> None:
    """Piped, a table is as wide as its rows need: the default one needs at most 80."""
    narrow = runner.invoke(app, ["missions", "list"], env={"COLUMNS": "80"})
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 80
    head = next(line for line in narrow.stdout.splitlines() if line.startswith("id"))
    assert "objectives" not in head and "description" in head
    wide = runner.invoke(app, ["missions", "list", "--wide"], env={"COLUMNS": "80"})
    head = next(line for line in wide.stdout.splitlines() if line.startswith("id"))
    assert {"game", "allocation", "objectives", "description"} <= set(head.split())


def test_list_json_has_all_missions() -> None:
    result = runner.invoke(app, ["missions", "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert list(doc) == ["missions"]
    rows = doc["missions"]
    assert len(rows) == 82
    pn12 = next(r for r in rows if r["id"] == "pn-12")
    assert pn12["card_draw_after_trick"] == 1 and pn12["tokens"] == ["omega"]
    ds8 = next(r for r in rows if r["id"] == "ds-8")
    assert ds8["objectives"] == [{"kind": "balance_rank_wins", "max_difference": 1, "rank": 9}]


@pytest.mark.parametrize(("game", "count"), [("planet-nine", 50), ("deep-sea", 32)])
def test_list_csv_per_game(game: str, count: int) -> None:
    result = runner.invoke(app, ["missions", "list", "--game", game, "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert len(rows) == count
    assert {r["game"] for r in rows} == {game}
    assert list(rows[0]) == [
        "id",
        "game",
        "tasks",
        "difficulty",
        "fixed_tasks",
        "tokens",
        "communication",
        "allocation",
        "objectives",
        "description",
    ]
    by_id = {r["id"]: r for r in rows}
    if game == "planet-nine":  # no task-card draw: no difficulty (it read 0)
        assert {r["difficulty"] for r in rows} == {""}
    else:
        assert by_id["ds-20"]["difficulty"] == "10" and by_id["ds-8"]["difficulty"] == ""


def test_show_json_has_the_record_and_the_rules_in_words() -> None:
    doc = json.loads(runner.invoke(app, ["missions", "show", "pn-12", "-f", "json"]).stdout)
    assert doc["mission"]["id"] == "pn-12"
    assert {"topic": "Token", "text": "omega: this task must be the last task completed"} in doc[
        "rules"
    ]
    rows = list(
        csv.DictReader(
            io.StringIO(runner.invoke(app, ["missions", "show", "pn-12", "-f", "csv"]).stdout)
        )
    )
    assert list(rows[0]) == ["topic", "text"] and rows[0]["topic"] == "Game"


def test_list_rejects_unknown_game() -> None:
    result = runner.invoke(app, ["missions", "list", "--game", "moon"])
    assert result.exit_code == 2


def test_show_explains_every_rule() -> None:
    result = runner.invoke(app, ["missions", "show", "pn-12"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "4 task card(s) are drawn" in text
    assert "omega: this task must be the last task completed" in text
    assert "Right after trick 1 every player draws one random card" in text


@pytest.mark.parametrize(
    ("mission_id", "phrases"),
    [
        ("pn-11", ["may not communicate", "1st task completed"]),
        ("pn-18", ["Not before trick 2"]),
        ("pn-29", ["not whether it is their highest", "more than 1 trick(s) more"]),
        ("pn-31", ["one crew member may hand one of their tasks"]),
        ("pn-40", ["move one token"]),
        ("ds-14", ["real-time mission", "first to say yes takes all tasks"]),
        ("ds-32", ["#39 I will win exactly 3 tricks"]),
        ("ds-23", ["Unfamiliar terrain", "Not before trick 2", "Whoever wins trick 1"]),
        ("ds-12", ["led with a card of: pink, submarine"]),
    ],
)
def test_show_special_rules(mission_id: str, phrases: list[str]) -> None:
    result = runner.invoke(app, ["missions", "show", mission_id])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for phrase in phrases:
        assert phrase in text


def test_show_unknown_mission_is_a_user_error() -> None:
    result = runner.invoke(app, ["missions", "show", "pn-99"])
    assert isinstance(result.exception, CrewsimError)
    assert "unknown mission id 'pn-99'" in str(result.exception)


@pytest.mark.parametrize(
    "mission_id", [f"pn-{n}" for n in range(1, 51)] + [f"ds-{n}" for n in range(1, 33)]
)
def test_show_every_mission(mission_id: str) -> None:
    result = runner.invoke(app, ["missions", "show", mission_id])
    assert result.exit_code == 0, result.output
    assert "Description" in result.output


def _shown(mission_id: str) -> str:
    """`missions show ID` as one line of words (the table wraps long sentences)."""
    result = runner.invoke(app, ["missions", "show", mission_id])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize(
    ("mission_id", "phrases"),
    [
        (
            "pn-20",
            [
                "task cards stay hidden (face down) until the commander has chosen",
                "the commander is the only one who looks at them",
                "answers only yes or no, from their own hand",
            ],
        ),
        (
            "pn-12",
            [
                "A card its holder has communicated lies face up on the table and cannot be drawn",
                "JARVIS gives a random face-down card",
                "the card it receives goes face down into that place",
            ],
        ),
        (
            "pn-46",
            [
                "3 players One card is never played (the 14th card): if it is pink",
                "the mission can still be won",
            ],
        ),
        ("ds-12", ["Such a lead is a legal play, not a forbidden move, but it fails the mission"]),
    ],
)
def test_show_says_the_readings_played(mission_id: str, phrases: list[str]) -> None:
    text = _shown(mission_id)
    for phrase in phrases:
        assert phrase in text


def _topic(text: str, topic: str, next_topic: str) -> str:
    """One topic's sentence out of the flattened output: from its name to the next topic's."""
    start = text.index(topic)
    return text[start : text.index(next_topic, start)]


@pytest.mark.parametrize("mission_id", ["pn-20", "pn-27", "pn-37"])
def test_show_one_member_planet_nine_gives_its_own_rule(mission_id: str) -> None:
    text = _shown(mission_id)
    allocation = _topic(text, "Allocation", "Communication")
    assert "commander is the only one who looks at them" in allocation
    assert "Deep Sea" not in allocation and "crew chooses together" not in allocation


def test_show_one_member_deep_sea_gives_its_own_rule() -> None:
    text = _shown("ds-6")
    allocation = _topic(text, "Allocation", "Communication")
    assert "crew chooses together" in allocation
    assert "Planet Nine" not in allocation and "commander" not in allocation
