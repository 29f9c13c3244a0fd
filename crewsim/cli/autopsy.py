"""`crewsim autopsy`: where a run's lost games were lost, by the perfect-information solver."""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Annotated

import polars as pl
import typer
from rich.console import Console

from crewsim.cli.options import (
    ALL_CORES,
    Backend,
    Format,
    FormatOpt,
    Jobs,
    Quiet,
    Scheduler,
    count_option,
    missions_of_run,
    parse_players,
    players_of_run,
    plural,
)
from crewsim.cli.output import (
    compact_table,
    games_bar,
    json_row,
    json_text,
    say_err,
    set_quiet,
    stdout_console,
    warn_if_long,
)
from crewsim.runs.backends import Workers, backend_named, describe, worker_count
from crewsim.runs.csv_out import csv_text

# lost games one core examines a second, cautiously (a hard Deep Sea game takes the solver
# seconds): for the warning before a long autopsy only
GAMES_PER_SECOND_PER_CORE = 2.0


def autopsy(
    run: Annotated[Path, typer.Argument(help="Run folder.", show_default=False)],
    missions: Annotated[str | None, missions_of_run("the run's own")] = None,
    players: Annotated[str | None, players_of_run("the run's own")] = None,
    lost: Annotated[
        int,
        count_option("--lost", help="Lost games examined per mission and crew size.", default=200),
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
    fmt: FormatOpt = Format.TABLE,
    quiet: Quiet = False,
    jobs: Jobs = ALL_CORES,
    backend: Backend = None,
    scheduler: Scheduler = None,
) -> None:
    """Why games are lost: for each lost game, the first decision after which a crew that sees
    every card could no longer win (the deal itself, the draft, the distress pass, or a lead,
    follow, discard or trump), found by the solver on the replayed game.  Saved in the run
    folder (autopsy/); an interrupted autopsy resumes."""
    from crewsim.analysis import autopsy_run
    from crewsim.analysis.autopsy import trace_text

    set_quiet(quiet)
    chosen = parse_players(players) if players else None
    if trace is not None:
        exam = autopsy_run.examine_game(run, missions, chosen, trace)
        typer.echo(trace_text(exam))
        return
    console = Console(stderr=True)
    where = backend_named(backend, scheduler)

    def bar(total: int) -> AbstractContextManager[Callable[[int], None]]:
        workers = worker_count(jobs)
        warn_if_long(
            total / (GAMES_PER_SECOND_PER_CORE * workers),
            f"{plural(total, 'lost game')} to examine on {describe(where, workers, scheduler)}",
        )
        return games_bar("examining", total, console)

    result = autopsy_run.autopsy(run, missions, chosen, lost, Workers(where, jobs, scheduler), bar)
    for line in result.left_out:
        say_err(f"left out {line}")
    if fmt is Format.CSV:
        typer.echo(csv_text(result.summary), nl=False)
    elif fmt is Format.JSON:
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
    return json_text({"cells": cells})


HEADERS = {  # short or two-line headers: the table fits 80 columns
    "players": "p",
    "games_lost": "lost",
    "analysed": "seen",
    "unwinnable_deal": "deal",
    "distress": "dis-\ntress",
    "prediction": "pre-\ndict",
    "follow": "fol-\nlow",
    "discard": "dis-\ncard",
    "undecided": "open",
    "median_trick": "median\ntrick",
}


def _print(summary: pl.DataFrame, console: Console) -> None:
    from crewsim.analysis.autopsy_run import DECISIVE

    table = compact_table(
        "Why games are lost: % of the lost games seen (perfect-information yardstick: a "
        "decisive play can be a fair guess in the player's shoes)"
    )
    table.caption = (
        "deal: no line wins the deal; draft ... trump: the decision after which nothing "
        "wins; open: the solver did not decide"
    )
    names = ("mission", "players", "games_lost", "analysed", "unwinnable_deal", *DECISIVE)
    for name in (*names, "undecided", "median_trick"):
        table.add_column(HEADERS.get(name, name), justify="left" if name == "mission" else "right")
    for r in summary.iter_rows(named=True):
        shares = [_percent(r[k]) for k in ("unwinnable_deal", *DECISIVE, "undecided")]
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


def _percent(share: float | None) -> str:
    """A share as a whole percentage without its sign (the title says %): ``-`` for none."""
    if share is None or not math.isfinite(share):
        return "-"
    return f"{100 * share:.0f}"
