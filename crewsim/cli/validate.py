"""`crewsim validate FILE`: check a scenario or task-card file before running it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from crewsim.missions import Mission, load_file, load_task_cards
from crewsim.missions.loader import check_fixed_tasks


def validate(
    file: Annotated[
        Path,
        typer.Argument(help="A missions file ([[missions]]) or task-card file ([[task_cards]])."),
    ],
) -> None:
    """Load and validate FILE; print 'ok: N missions' (or task cards) or one error line."""
    records = load_file(file)
    missions = [r for r in records if isinstance(r, Mission)]
    if missions:
        if any(m.fixed_tasks for m in missions):
            check_fixed_tasks(missions, load_task_cards(), str(file))
        typer.echo(f"ok: {len(missions)} missions in {file}")
    else:
        typer.echo(f"ok: {len(records)} task cards in {file}")
