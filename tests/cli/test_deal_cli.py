"""`crewsim deal`: the text table a person reads and the JSON the solver reads."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from crewsim.cli.app import app
from crewsim.missions import load_task_cards

runner = CliRunner()


def _deal(*args: str) -> str:
    result = runner.invoke(app, ["deal", *args], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_order_tokens_keep_their_brackets() -> None:
    """Rich would read ``[omega]`` as markup and print nothing."""
    rec = json.loads(_deal("--mission", "pn-7", "--seed", "1", "--format", "json"))
    (omega,) = [t for t in rec["tasks"] if t["token"] == "omega"]
    row = next(
        line
        for line in _deal("--mission", "pn-7", "--seed", "1").splitlines()
        if f"P{omega['player']} " in line
    )
    assert f"{omega['card']} [omega]" in row


def test_the_deep_sea_captain_and_the_planet_nine_commander() -> None:
    deep = _deal("--mission", "ds-5", "--seed", "1")
    assert "(captain)" in deep and "(commander)" not in deep
    rec = json.loads(_deal("--mission", "ds-5", "--seed", "1", "--format", "json"))
    cards = {c.number: c for c in load_task_cards()}
    for t in rec["deep_tasks"]:  # each card by its number and printed sentence, not its ref_id
        card = cards[t["task"]]
        assert f'{card.number} "' in deep and card.ref_id not in deep
    assert "(commander)" in _deal("--seed", "1")


def test_the_game_follows_the_mission() -> None:
    rec = json.loads(_deal("--mission", "ds-5", "--seed", "2", "--format", "json"))
    assert rec["game"] == "deep-sea" and len(rec["deep_tasks"]) > 0
    assert json.loads(_deal("--seed", "2", "--format", "json"))["game"] == "planet-nine"


def test_same_seed_same_deal() -> None:
    assert _deal("-p", "3", "--seed", "9", "--format", "json") == _deal(
        "-p", "3", "--seed", "9", "--format", "json"
    )


def test_a_deal_without_a_seed_shows_the_seed_that_deals_it_again() -> None:
    first = _deal("--mission", "ds-7")
    seed = first.splitlines()[0].split("seed ")[1].split()[0]
    assert _deal("--mission", "ds-7", "--seed", seed) == first


def test_csv_one_row_per_seat() -> None:
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(_deal("-p", "3", "--seed", "9", "-f", "csv"))))
    rec = json.loads(_deal("-p", "3", "--seed", "9", "-f", "json"))
    assert [r["seat"] for r in rows] == ["P0", "P1", "P2"]
    assert [r["cards"].split() for r in rows] == rec["hands"]
    assert [r["commander"] == "yes" for r in rows] == [s == rec["commander"] for s in range(3)]
