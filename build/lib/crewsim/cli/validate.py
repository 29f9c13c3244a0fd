"""`crewsim validate FILE`: check a scenario or task-card file before running it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from crewsim.bots import load_bots
from crewsim.missions import TASK_CARDS_FILE, Mission, TaskCard, load_file, load_task_cards
from crewsim.missions.loader import check_complete_deck, check_fixed_tasks, read_document


def validate(
    file: Annotated[
        Path,
        typer.Argument(
            help="A missions file ([[missions]]), task-card file ([[task_cards]]) or bots file "
            "([bot.NAME] tables, as --bots reads)."
        ),
    ],
) -> None:
    """Load and validate FILE; print 'ok: N missions' (task cards, bot crews) or one error line."""
    if file.suffix.lower() == ".toml" and "bot" in read_document(file):
        typer.echo(f"ok: {len(load_bots(file))} bot crews in {file}")
        return
    records = load_file(file)
    missions = [r for r in records if isinstance(r, Mission)]
    if missions:
        if any(m.fixed_tasks for m in missions):
            check_fixed_tasks(missions, load_task_cards(), str(file))
        typer.echo(f"ok: {len(missions)} missions in {file}")
    else:
        if file.name == TASK_CARDS_FILE:  # what a scenario folder reads: the whole deck
            check_complete_deck([r for r in records if isinstance(r, TaskCard)], str(file))
        typer.echo(f"ok: {len(records)} task cards in {file}")
