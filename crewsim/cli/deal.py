"""`crewsim deal`: show one dealt hand set, in text or in the JSON deal format the solver reads."""

from __future__ import annotations

import csv
import io
import json
import secrets
from typing import Annotated, Any

import numpy as np
import typer
from rich.markup import escape

from crewsim.analysis.feasibility import random_deep_setup
from crewsim.cards import Game, card_name, cards_of
from crewsim.cli.options import Format
from crewsim.cli.output import compact_table, stdout_console
from crewsim.errors import CrewsimError
from crewsim.missions import load_task_cards
from crewsim.rules.setup import random_setup
from crewsim.rules.task_cards import HeldTask


def deal_record(
    players: int, game: Game | None, seed: int | None, mission_id: str | None
) -> dict[str, Any]:
    """The deal as the JSON document `crewsim solve` reads (dummy's cards face up first).

    ``game`` None: the mission's game, else Planet Nine; a mission of the other game is an error.
    """
    n_tasks = 0
    tokens: tuple[str, ...] = ()
    if mission_id is not None:
        from crewsim.missions import get_mission

        mission = get_mission(mission_id)
        if game not in (None, mission.game):
            raise CrewsimError(
                f"--game {game.value}: mission {mission_id} is a {mission.game.value} mission"
            )
        game, n_tasks, tokens = mission.game, mission.tasks, mission.tokens
    game = game or Game.PLANET_NINE
    deal, tasks = random_setup(players, n_tasks, tuple(tokens), seed)
    deep: list[HeldTask] = []
    if mission_id is not None and game is Game.DEEP_SEA:
        deal, deep = random_deep_setup(mission, players, np.random.default_rng(seed))
    record: dict[str, Any] = {
        "game": game.value,
        "players": players,
        "commander": deal.commander,
        "hands": [[card_name(c, game) for c in cards_of(deal.hands[s])] for s in range(deal.seats)],
        "tasks": [
            {"card": card_name(t.card, game), "player": t.owner, "token": t.token} for t in tasks
        ],
    }
    if deep:
        record["deep_tasks"] = [{"task": t.card.number, "player": t.owner} for t in deep]
    if deal.dummy_under:
        record["dummy_under"] = [
            [card_name(a, game), card_name(b, game)] for a, b in deal.dummy_under
        ]
    if mission_id is not None:
        record["mission"] = mission_id
    return record


def deal(
    players: Annotated[int, typer.Option("--players", "-p", help="Players, 2-5.")] = 4,
    game: Annotated[
        Game | None,
        typer.Option(
            help="Which game's card names.", show_default="the mission's, else planet-nine"
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(min=0, help="Seed (0 or more).", show_default="a fresh random deal, shown"),
    ] = None,
    mission: Annotated[
        str | None, typer.Option(help="Also draw and draft this mission's task cards.")
    ] = None,
    fmt: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            help="table for reading; csv, or json: the deal as `crewsim solve` reads it.",
            case_sensitive=False,
        ),
    ] = Format.TABLE,
) -> None:
    """Deal one hand set: who holds what, the commander (Deep Sea: captain) marked."""
    if players not in (2, 3, 4, 5):
        raise CrewsimError(f"--players: expected 2 to 5, got {players}")
    if seed is None:  # drawn here and shown, so a deal worth keeping can be dealt again
        seed = secrets.randbelow(2**32)
    rec = deal_record(players, game, seed, mission)
    if fmt is Format.JSON:
        typer.echo(json.dumps(rec, ensure_ascii=False))
        return
    rows = seat_rows(rec)
    if fmt is Format.CSV:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["seat", "commander", "cards", "tasks"])
        for row in rows:
            writer.writerow([row[0], "yes" if row[1] else "no", row[2], "; ".join(row[3])])
        typer.echo(buf.getvalue(), nl=False)
        return
    table = compact_table(f"{rec['game']} deal, {players} players, seed {seed}")
    table.add_column("seat", no_wrap=True)
    table.add_column("cards", ratio=1)
    table.add_column("tasks", ratio=1)
    lead = "captain" if rec["game"] == Game.DEEP_SEA.value else "commander"
    for seat, first, cards, tasks in rows:
        table.add_row(seat + (f"\n({lead})" if first else ""), cards, escape("\n".join(tasks)))
    stdout_console().print(table)
    if "dummy_under" in rec:
        stdout_console().print("dummy face-down: " + " ".join(b for _, b in rec["dummy_under"]))


def seat_rows(rec: dict[str, Any]) -> list[tuple[str, bool, str, list[str]]]:
    """Each seat of a deal record: its name, whether it leads, its cards and its tasks (a
    Deep Sea card by its number and printed sentence, ``TaskCard.label``)."""
    cards = {c.number: c for c in load_task_cards()} if "deep_tasks" in rec else {}
    players = rec["players"]
    out = []
    for s, hand in enumerate(rec["hands"]):
        name = "dummy" if players == 2 and s == 2 else f"P{s}"
        mine = [
            t["card"] + (f" [{t['token']}]" if t["token"] else "")
            for t in rec["tasks"]
            if t["player"] == s
        ] + [cards[t["task"]].label for t in rec.get("deep_tasks", []) if t["player"] == s]
        out.append((name, s == rec["commander"], " ".join(hand), mine))
    return out
