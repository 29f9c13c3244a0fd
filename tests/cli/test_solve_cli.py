"""`crewsim solve` from the command line."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewsim.cards import Game
from crewsim.cli.app import app
from crewsim.cli.deal import deal_record
from crewsim.errors import CrewsimError

runner = CliRunner()


def test_solve_one_deal(tmp_path: Path) -> None:
    f = tmp_path / "d.json"
    f.write_text(json.dumps(deal_record(4, Game.PLANET_NINE, 5, "pn-1")))
    result = runner.invoke(app, ["solve", str(f), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["verdict"] in ("feasible", "infeasible", "unknown")
    assert set(out) == {
        "deal",
        "verdict",
        "nodes",
        "seconds",
        "line",
        "leaders",
        "winners",
        "designated",
        "owners",
        "engine",
        "reason",
    }  # as docs/commands.md shows
    assert out["engine"] in ((None,) if out["verdict"] == "unknown" else ("dfs", "sat"))
    if out["verdict"] == "feasible":
        assert all(len(t) == 4 for t in out["line"])
    else:
        assert out["line"] is None
    text = runner.invoke(app, ["solve", str(f)])
    assert text.exit_code == 0 and out["verdict"] in text.output


def test_solve_jsonl_one_line_per_deal(tmp_path: Path) -> None:
    f = tmp_path / "d.jsonl"
    lines = [
        deal_record(p, Game.PLANET_NINE, s, m)
        for p, s, m in ((4, 1, "pn-3"), (3, 2, "pn-5"), (2, 3, "pn-48"), (4, 4, "pn-12"))
    ]
    f.write_text("\n".join(json.dumps(r) for r in lines) + "\n")
    result = runner.invoke(app, ["solve", str(f)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(x) for x in result.stdout.splitlines()]  # the progress bar: stderr
    assert [r["deal"] for r in rows] == [1, 2, 3, 4]
    assert all(r.keys() == rows[0].keys() for r in rows)  # one shape, whatever the verdict
    assert rows[3]["verdict"] == "unsupported" and "card draw" in rows[3]["reason"]
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("feasible", "infeasible")}
    summary = result.stderr.splitlines()[-1]  # after the bar: the file's verdicts in one line
    assert summary.startswith("4 deals in ")
    assert f"{counts['feasible']} feasible, {counts['infeasible']} infeasible" in summary
    assert "1 unsupported" in summary
    sat = sum(r["engine"] == "sat" for r in rows)
    assert summary.endswith(f"({sat} decided by the SAT engine)")


def test_solve_a_deep_sea_deal(tmp_path: Path) -> None:
    rec = deal_record(4, Game.DEEP_SEA, 3, "ds-2")
    assert rec["deep_tasks"] and all(1 <= t["task"] <= 96 for t in rec["deep_tasks"])
    f = tmp_path / "d.json"
    f.write_text(json.dumps(rec))
    out = json.loads(runner.invoke(app, ["solve", str(f), "--json"]).output)
    assert out["verdict"] in ("feasible", "infeasible", "unknown")
    if out["verdict"] == "feasible":
        assert all(len(t) == 4 for t in out["line"])
        assert "sub4" in {c for t in out["line"] for c in t} or len(out["line"]) < 10


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"players": 7}, "2: field 'players'"),
        ({"hands": [["pink1"]]}, "field 'hands'"),
        ({"tasks": [{"card": "rocket1", "player": 0, "token": None}]}, "tasks[0].card"),
        ({"tasks": [{"card": "pink1", "player": 9, "token": None}]}, "tasks[0].player"),
        ({"tasks": [{"card": "pink1", "player": 0, "token": "6"}]}, "tasks[0].token"),
        ({"mission": "pn-99"}, "field 'mission'"),
        ({"game": "deep-sea", "deep_tasks": [{"task": 97, "player": 0}]}, "deep_tasks[0].task"),
        ({"game": "deep-sea", "deep_tasks": [{"task": 5, "player": 4}]}, "deep_tasks[0].player"),
        ({"game": "deep-sea", "deep_tasks": "x"}, "field 'deep_tasks'"),
        # a misspelt or misplaced key would drop the tasks silently and change the verdict
        ({"deep_task": [{"task": 5, "player": 0}]}, "field 'deep_task': unknown field"),
        ({"note": "mine"}, "a note may go in a '_' key"),
        ({"tasks": [{"card": "pink1", "owner": 0}]}, "field 'tasks[0].owner': unknown field"),
        ({"game": "deep-sea", "deep_tasks": [{"task": 5, "seat": 0}]}, "deep_tasks[0].seat'"),
        ({"deep_tasks": [{"task": 5, "player": 0}]}, "only a Deep Sea deal"),
        (
            {
                "tasks": [
                    {"card": "pink1", "player": 0, "token": "2"},
                    {"card": "pink2", "player": 1, "token": "2"},
                ]
            },
            "tasks[1].token",
        ),
        ({"designated": [1, 1]}, "the same seat twice"),
    ],
)
def test_bad_deal_is_one_line_exit_2(tmp_path: Path, patch: dict, message: str) -> None:
    rec = deal_record(4, Game.PLANET_NINE, 1, "pn-2") | patch
    f = tmp_path / "bad.jsonl"
    good = json.dumps(deal_record(4, Game.PLANET_NINE, 1, "pn-2"))
    f.write_text(good + "\n" + json.dumps(rec) + "\n")
    with pytest.raises(CrewsimError, match=r"bad.jsonl:2: ") as err:
        runner.invoke(app, ["solve", str(f)], catch_exceptions=False)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_keys_starting_with_an_underscore_are_the_writer_s_notes(tmp_path: Path) -> None:
    f = tmp_path / "d.json"
    rec = deal_record(4, Game.PLANET_NINE, 5, "pn-1") | {"_seed": 5, "_note": "from my script"}
    rec["tasks"][0]["_why"] = "a note on one task"
    f.write_text(json.dumps(rec))
    result = runner.invoke(app, ["solve", str(f), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["verdict"] in ("feasible", "infeasible")


def _two_player_variants() -> list[tuple[dict, str]]:
    """Two-player deals the rules cannot deal: each was solved as if it were a real deal."""
    base = deal_record(2, Game.PLANET_NINE, 7, "pn-3")
    short = copy.deepcopy(base)
    short["hands"][1].append(short["hands"][0].pop())  # 12 and 14 cards
    shared = copy.deepcopy(base)
    shared["dummy_under"][1][0] = shared["dummy_under"][0][0]  # two stacks, one face-up card
    buried = copy.deepcopy(base)
    human = buried["hands"][buried["commander"]]
    k = human.index("rocket4")
    human[k], buried["dummy_under"][0][1] = buried["dummy_under"][0][1], "rocket4"
    del buried["commander"]
    return [(short, "13 cards each"), (shared, "field 'dummy_under'"), (buried, "trump 4")]


@pytest.mark.parametrize(("rec", "message"), _two_player_variants())
def test_a_two_player_deal_the_rules_cannot_deal_is_refused(
    tmp_path: Path, rec: dict, message: str
) -> None:
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(rec))
    with pytest.raises(CrewsimError, match=r"bad.json:1: ") as err:
        runner.invoke(app, ["solve", str(f)], catch_exceptions=False)
    assert message in str(err.value)


def test_several_deals_in_a_json_file_point_to_jsonl(tmp_path: Path) -> None:
    f = tmp_path / "two.json"
    one = json.dumps(deal_record(4, Game.PLANET_NINE, 1, "pn-2"))
    f.write_text(one + "\n" + one + "\n")
    with pytest.raises(
        CrewsimError,
        match=r"two.json:2: not JSON \(Extra data\); a .json file "
        r"holds one deal, a .jsonl file one deal per line",
    ):
        runner.invoke(app, ["solve", str(f)], catch_exceptions=False)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"players": ' + "9" * 5_000 + "}"])
def test_json_too_deep_or_too_long_is_one_line(tmp_path: Path, text: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(text)
    with pytest.raises(CrewsimError, match=r"bad.json:1: not a deal"):
        runner.invoke(app, ["solve", str(f)], catch_exceptions=False)


def test_a_line_separator_inside_a_string_is_not_a_new_line(tmp_path: Path) -> None:
    """JSON strings may hold U+2028 as it is; only newlines end a ``.jsonl`` record."""
    rec = deal_record(4, Game.PLANET_NINE, 1, "pn-2")
    rec["game"] = "planet-\u2028nine"  # inside a string, as it is: not the end of the line
    good = json.dumps(deal_record(4, Game.PLANET_NINE, 2, "pn-2"))
    f = tmp_path / "d.jsonl"
    f.write_text(json.dumps(rec, ensure_ascii=False) + "\n" + good + "\n", encoding="utf-8")
    with pytest.raises(CrewsimError, match=r"d.jsonl:1: field 'game'"):
        runner.invoke(app, ["solve", str(f)], catch_exceptions=False)


def test_bad_card_names_the_field(tmp_path: Path) -> None:
    rec = deal_record(4, Game.PLANET_NINE, 1, None)
    rec["hands"][1][2] = "pnik5"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(rec))
    result = runner.invoke(app, ["solve", str(f)])
    assert result.exit_code != 0
    assert "hands[1][2]" in str(result.exception)


@pytest.mark.parametrize("players", [2, 4])
def test_the_text_line_is_in_play_order_with_each_winner(tmp_path: Path, players: int) -> None:
    """Each trick starts with its leader (the commander, then the last winner)."""
    from crewsim.cards import parse_card
    from crewsim.rules.play import trick_winner

    rec = deal_record(players, Game.PLANET_NINE, 4, "pn-10")
    f = tmp_path / "d.json"
    f.write_text(json.dumps(rec))
    out = json.loads(runner.invoke(app, ["solve", str(f), "--json"]).output)
    assert out["verdict"] == "feasible"
    text = runner.invoke(app, ["solve", str(f)]).output.splitlines()[1:]
    seats = len(rec["hands"])
    names = ["P0", "P1", "dummy"] if players == 2 else [f"P{s}" for s in range(seats)]
    leader = rec["commander"]
    for line, cards in zip(text, out["line"], strict=True):
        order = [(leader + i) % seats for i in range(seats)]
        winner, _ = trick_winner([parse_card(cards[s]) for s in order], leader, seats)
        plays = "  ".join(f"{names[s]}:{cards[s]}" for s in order)
        assert line.split(": ", 1)[1] == f"{plays}  -> {names[winner]}"
        leader = winner
    assert out["leaders"][0] == rec["commander"] and out["winners"][-1] == leader
    assert out["leaders"][1:] == out["winners"][:-1]
