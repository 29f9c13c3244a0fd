"""`crewsim autopsy`: where a run's lost games were lost, by the perfect-information solver."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated

import polars as pl
import typer
from rich.console import Console

from crewsim.cli.options import Backend, Jobs, Scheduler, count_option, parse_players
from crewsim.cli.output import compact_table, games_bar, json_row, stacked, stdout_console
from crewsim.report.format import pct
from crewsim.runs.backends import Workers, backend_named
from crewsim.runs.csv_out import csv_text


class AutopsyFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


def autopsy(
    run: Annotated[Path, typer.Argument(help="Run folder.", show_default=False)],
    missions: Annotated[
        str | None,
        typer.Argument(
            help="Only these missions (pn-1..10, pn-3,pn-7, planet-nine) [the run's own].",
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", "-p", help="Player counts, comma-separated [the run's own]."),
    ] = None,
    lost: Annotated[
        int, count_option("--lost", help="Lost games examined per mission and crew size.")
    ] = 200,
    trace: Annotated[
        int | None,
        typer.Option(
            "--trace",
            help="Show this game (its place in the cell) trick by trick, the decisive play "
            "marked, with a winning alternative; needs one mission and one crew size.",
            show_default=False,
        ),
    ] = None,
    fmt: Annotated[
        AutopsyFormat,
        typer.Option("--format", "-f", help="table, csv or json (stdout)."),
    ] = AutopsyFormat.table,
    jobs: Jobs = -1,
    backend: Backend = None,
    scheduler: Scheduler = None,
) -> None:
    """Why games are lost: for each lost game, the first decision after which a crew that sees
    every card could no longer win (the deal itself, the draft, the distress pass, or a lead,
    follow, discard or trump), found by the solver on the replayed game.  Saved in the run
    folder (autopsy/); an interrupted autopsy resumes."""
    from crewsim.analysis import autopsy_run
    from crewsim.analysis.autopsy import trace_text

    chosen = parse_players(players) if players else None
    if trace is not None:
        exam = autopsy_run.examine_game(run, missions, chosen, trace)
        typer.echo(trace_text(exam))
        return
    console = Console(stderr=True)
    result = autopsy_run.autopsy(
        run,
        missions,
        chosen,
        lost,
        Workers(backend_named(backend, scheduler), jobs, scheduler),
        lambda total: games_bar("examining", total, console),
    )
    for line in result.left_out:
        console.print(f"left out {line}", highlight=False, soft_wrap=True)
    if fmt is AutopsyFormat.csv:
        typer.echo(csv_text(result.summary), nl=False)
    elif fmt is AutopsyFormat.json:
        typer.echo(_json(result.summary))
    else:
        _print(result.summary, stdout_console())


def _json(summary: pl.DataFrame) -> str:
    """One object per cell; ``decisive`` maps each decisive kind to its share."""
    from crewsim.analysis.autopsy_run import DECISIVE

    cells = []
    for row in summary.iter_rows(named=True):
        cell = {k: v for k, v in row.items() if k not in DECISIVE}
        cell["decisive"] = {k: row[k] for k in DECISIVE}
        cells.append(json_row(cell))
    return json.dumps({"cells": cells}, indent=2)


def _print(summary: pl.DataFrame, console: Console) -> None:
    from crewsim.analysis.autopsy_run import DECISIVE

    table = compact_table(
        "Why games are lost (perfect-information yardstick: a decisive play can be a fair "
        "guess in the player's shoes)"
    )
    for name in (
        "mission",
        "p",
        "lost",
        "seen",
        "deal",
        *DECISIVE,
        "open",
        stacked("median trick"),
    ):
        table.add_column(name, justify="left" if name == "mission" else "right")
    for r in summary.iter_rows(named=True):
        shares = [pct(r[k], 0) for k in ("unwinnable_deal", *DECISIVE, "undecided")]
        median = "" if r["median_trick"] is None else f"{r['median_trick']:.0f}"
        table.add_row(
            r["mission"],
            str(r["players"]),
            f"{r['games_lost']:,}",
            f"{r['analysed']:,}",
            *shares,
            median,
        )
    console.print(table)
