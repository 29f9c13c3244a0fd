"""`crewsim tasks list`: the 96 Deep Sea task cards with their difficulty for a crew size."""

from __future__ import annotations

from typing import Annotated

import typer

from crewsim.cli.missions import FormatOption, OutputFormat, emit
from crewsim.missions import load_task_cards

app = typer.Typer(
    help="Browse the Deep Sea task cards.", no_args_is_help=True, rich_markup_mode=None
)


@app.command("list")
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
    fmt: FormatOption = OutputFormat.TABLE,
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
    json_rows = [{**row, "card": c.to_dict()} for row, c in zip(rows, cards, strict=True)]
    emit(
        rows,
        fmt,
        title=f"{len(cards)} task cards, {players} players",
        json_rows=json_rows,
        wide=("text",),
    )
