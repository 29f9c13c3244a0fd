"""`crewsim compare`: two runs' crews on the same deals, paired game by game (McNemar)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import polars as pl
import typer
from rich.console import Console

from crewsim.analysis.run_pairs import RunComparison
from crewsim.cli.options import (
    Format,
    FormatOpt,
    Quiet,
    missions_of_run,
    parse_players,
    players_of_run,
)
from crewsim.cli.output import (
    busy,
    compact_table,
    json_row,
    json_text,
    set_quiet,
    stacked,
    stdout_console,
)
from crewsim.report.format import moves_text, p_value, pct, pp_ci, rho_ci
from crewsim.runs.csv_out import csv_text


def compare(
    run_a: Annotated[Path, typer.Argument(help="Run folder of crew A.", show_default=False)],
    run_b: Annotated[Path, typer.Argument(help="Run folder of crew B.", show_default=False)],
    missions: Annotated[str | None, missions_of_run("both runs' own")] = None,
    players: Annotated[str | None, players_of_run("both runs' own")] = None,
    fmt: FormatOpt = Format.TABLE,
    quiet: Quiet = False,
) -> None:
    """Crew A against crew B on the deals both runs played: runs of the same seed, distress
    setting and chunk size deal the same games, so the first games of each cell pair up."""
    from crewsim.analysis.run_pairs import compare_runs

    set_quiet(quiet)
    chosen = parse_players(players) if players else None
    with busy("reading both runs and pairing their games"):
        result = compare_runs(run_a, run_b, missions, chosen)
    if fmt is Format.CSV:
        typer.echo(csv_text(result.cells), nl=False)
    elif fmt is Format.JSON:
        typer.echo(_json(result))
    else:
        _print(result, stdout_console())


def _json(result: RunComparison) -> str:
    def rows(df: pl.DataFrame) -> list[dict[str, object]]:
        return [json_row(r) for r in df.iter_rows(named=True)]

    return json_text(
        {
            "run_a": str(result.a.path),
            "run_b": str(result.b.path),
            "bot_a": result.a.bot,
            "bot_b": result.b.bot,
            "seed": result.a.seed,
            "distress": result.a.distress,
            "games_per_cell": result.games,
            "cells": rows(result.cells),
            "agreement": rows(result.agreement),
            "moves": rows(result.moves),
        }
    )


def _print(result: RunComparison, console: Console) -> None:
    a, b = result.a, result.b
    for p in result.cells["players"].unique(maintain_order=True).to_list():
        table = compact_table(f"{p} players: A against B on the same deals")
        for name in ("mission", "games", "wins A", "wins B", "only A", "only B"):
            table.add_column(name, justify="left" if name == "mission" else "right")
        table.add_column("A - B\n[95 % CI]", justify="right", no_wrap=True)
        table.add_column("McNemar\np", justify="right", no_wrap=True)
        for r in result.cells.filter(pl.col("players") == p).iter_rows(named=True):
            table.add_row(
                r["mission"],
                f"{r['games']:,}",
                f"{r['wins_a']:,}\n{pct(r['rate_a'], 1)}",
                f"{r['wins_b']:,}\n{pct(r['rate_b'], 1)}",
                f"{r['only_a']:,}",
                f"{r['only_b']:,}",
                stacked(pp_ci(r["difference"], r["difference_low"], r["difference_high"])),
                p_value(r["mcnemar_p"]),
            )
        console.print(table)
    for r in result.agreement.iter_rows(named=True):
        if math.isnan(r["spearman_rho"]):
            continue
        moved = result.moves.filter(pl.col("players") == r["players"])
        console.print(
            f"{r['players']} players: Spearman rho of A's and B's success rates "
            f"({r['missions']} missions): "
            f"{rho_ci(r['spearman_rho'], r['rho_low'], r['rho_high'], ' (a perfect order)')}; "
            f"moves most: {moves_text(list(moved.iter_rows(named=True)), 'A', 'B')}",
            highlight=False,
        )
    console.print(
        f"A: bot {a.bot}, {a.path}; B: bot {b.bot}, {b.path}; seed {a.seed}, distress "
        f"{a.distress}; the first {result.games:,} deals of each cell (the same in both runs)",
        highlight=False,
    )
