"""`crewsim validate FILE`: check a scenario or task-card file before running it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from crewsim.bots import load_bots
from crewsim.cli.options import Format, FormatOpt, plural
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
    fmt: FormatOpt = Format.TABLE,
) -> None:
    """Load and validate FILE; print 'ok: N missions' (task cards, bot crews) or one error line.

    csv and json give the file, what it holds and how many (``kind``: missions, task_cards or
    bots)."""
    kind, count = _check(file)
    if fmt is Format.JSON:
        typer.echo(json.dumps({"file": str(file), "ok": True, "kind": kind, "count": count}))
    elif fmt is Format.CSV:
        typer.echo(f"file,ok,kind,count\n{_csv_field(str(file))},yes,{kind},{count}")
    else:
        words = {"missions": "mission", "task_cards": "task card", "bots": "bot crew"}
        typer.echo(f"ok: {plural(count, words[kind])} in {file}")


def _csv_field(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text


def _check(file: Path) -> tuple[str, int]:
    """What the file holds and how many, once it validates (else one error line, exit 2)."""
    if file.suffix.lower() == ".toml" and "bot" in read_document(file):
        return "bots", len(load_bots(file))
    records = load_file(file)
    missions = [r for r in records if isinstance(r, Mission)]
    if missions:
        if any(m.fixed_tasks for m in missions):
            check_fixed_tasks(missions, load_task_cards(), str(file))
        return "missions", len(missions)
    if file.name == TASK_CARDS_FILE:  # what a scenario folder reads: the whole deck
        check_complete_deck([r for r in records if isinstance(r, TaskCard)], str(file))
    return "task_cards", len(records)
