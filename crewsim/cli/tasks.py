"""`crewsim tasks list|show`: the 96 Deep Sea task cards with their difficulty for a crew
size, and one card in full."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape

from crewsim.cards import Game
from crewsim.cli.missions import Wide, emit, kind_label, print_topics
from crewsim.cli.options import Format, FormatOpt, JsonAlias, chosen_format
from crewsim.missions import get_task_card, load_campaign, load_task_cards
from crewsim.missions.schema import TaskCard

app = typer.Typer(
    help="Browse the Deep Sea task cards.", no_args_is_help=True, rich_markup_mode=None
)


@app.command("list", short_help="List the 96 task cards, difficulty per crew size.")
def list_tasks(
    players: Annotated[
        int,
        typer.Option(
            "--players",
            "-p",
            min=2,
            max=5,
            help="Crew size whose printed difficulty to show (2 players use the 3-player value).",
        ),
    ] = 4,
    fmt: FormatOpt = Format.TABLE,
    wide: Wide = False,
) -> None:
    """List the 96 Deep Sea task cards with their difficulty for PLAYERS."""
    cards = load_task_cards()
    rows: list[dict[str, object]] = [
        {
            "number": c.number,
            "ref_id": c.ref_id,
            "text": c.text,
            "difficulty": c.difficulty_for(players),
            "kind": c.kind.value,
            "captain_may_take": c.captain_may_take,
        }
        for c in cards
    ]
    table_rows: list[dict[str, object]] = [
        {
            "card": c.label,
            "diff.": c.difficulty_for(players),
            "captain": "may" if c.captain_may_take else "may not",
            **({"condition": kind_label(c.kind.value, c.params)} if wide else {}),
        }
        for c in cards
    ]
    json_rows = [{**row, "card": c.to_dict()} for row, c in zip(rows, cards, strict=True)]
    emit(
        rows,
        fmt,
        key="task_cards",
        title=f"{len(cards)} task cards, {players} players",
        json_rows=json_rows,
        table_rows=table_rows,
        head={"players": players},
        flex="card",
        wide=wide,
    )


@app.command("show", short_help="One task card in full.")
def show_task(
    card: Annotated[
        str,
        typer.Argument(
            metavar="CARD",
            help="Task card number (1-96) or its short name (ref_id), e.g. 32 or 4x9.",
            show_default=False,
        ),
    ],
    fmt: FormatOpt = Format.TABLE,
    json_out: JsonAlias = False,
) -> None:
    """One task card in full: its text, difficulty per crew size, condition and the missions
    that deal it."""
    c = get_task_card(card)
    fmt = chosen_format(fmt, json_out)
    if fmt is Format.JSON:
        typer.echo(json.dumps({**c.to_dict(), "missions": _missions_with(c)}, indent=2))
        return
    if fmt is Format.CSV:
        rules: list[dict[str, object]] = [{"topic": t, "text": x} for t, x in _describe(c)]
        emit(rules, fmt, key="rules")
        return
    print_topics(f"[bold]#{c.number}[/]  {escape(c.text)}", _describe(c))


def _describe(c: TaskCard) -> list[tuple[str, str]]:
    """The card as (topic, text) pairs, the way ``missions show`` prints a mission."""
    d3, d4, d5 = c.difficulty
    out = [("Short name", c.ref_id)]
    if c.subtext:
        out.append(("Small print", c.subtext))
    out += [
        ("Difficulty", f"{d3} / {d4} / {d5} for 3 / 4 / 5 players (2 use the 3-player value)"),
        ("Condition", kind_label(c.kind.value, c.params)),
        ("Captain", "may take it" if c.captain_may_take else "may not take it"),
    ]
    if c.deal_exception:
        out.append(("Redeal", c.deal_exception))
    missions = _missions_with(c)
    out.append(("Missions", ", ".join(missions) if missions else "drawn only (none fixes it)"))
    out.append(("In play", f"crewsim check-tasks {c.number} -p 4: contradictions, success rate"))
    return out


def _missions_with(c: TaskCard) -> list[str]:
    """The Deep Sea missions that deal this card as a fixed task."""
    return [m.id for m in load_campaign(Game.DEEP_SEA) if c.number in m.fixed_tasks]
