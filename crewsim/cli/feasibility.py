"""`crewsim feasibility MISSION...`: share of random deals a perfect-information crew can win."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import polars as pl
import typer
from rich.console import Console
from rich.table import Table

from crewsim.cli.options import (
    ALL_CORES,
    Backend,
    Format,
    FormatOpt,
    Jobs,
    JsonAlias,
    Quiet,
    Scheduler,
    Seed,
    chosen_format,
    count_option,
    draft_choices,
    parse_players,
    plural,
)
from crewsim.cli.output import (
    compact_table,
    deals_bar,
    json_row,
    json_text,
    say_err,
    set_quiet,
    stacked,
    stdout_console,
    warn_if_long,
)
from crewsim.errors import CrewsimError
from crewsim.missions import resolve_missions
from crewsim.report.format import pct, pct_ci
from crewsim.runs.backends import Workers, backend_named, check_backend
from crewsim.runs.csv_out import csv_text
from crewsim.solver.api import DEFAULT_BUDGET, DEFAULT_CONFLICTS

if TYPE_CHECKING:
    from crewsim.analysis.feasibility_cells import Feasibility

DEFAULT_N = 5000  # a 4-task mission (pn-10), DFS + SAT defaults: about 5 s on 2 cores


DRAFT_WORDS = {
    "random": "each task to a random seat",
    "heuristic": "the heuristic bot crew's draft, played by the kernel on the same deal",
    "free": "the solver chooses them within the mission's allocation rule",
}


def draft_help() -> str:
    """The drafts ``analysis.feasibility.DRAFTS`` knows, each in a few words."""
    return (
        "Task assignments: "
        + "; ".join(f"{d} ({DRAFT_WORDS[d]})" if d in DRAFT_WORDS else d for d in draft_choices())
        + "."
    )


# deals one core solves a second, cautiously (a hard Deep Sea mission, ds-29: about 50 a
# second on two cores): for the warning before a long job only
DEALS_PER_SECOND_PER_CORE = 20.0


def feasibility(
    missions: Annotated[
        list[str],
        typer.Argument(
            help="Mission ids, ranges or campaigns: pn-1 pn-3..10 deep-sea.", show_default=False
        ),
    ],
    players: Annotated[
        str,
        typer.Option("--players", "-p", help="Player counts, comma-separated (2-5), e.g. 3,4,5."),
    ] = "4",
    n: Annotated[
        int,
        count_option(
            "-n", "--deals", help="Random deals per mission and player count.", default=DEFAULT_N
        ),
    ] = DEFAULT_N,
    seed: Seed = 0,
    budget: Annotated[
        int, count_option("--budget", help="Card plays tried per deal.", default=DEFAULT_BUDGET)
    ] = DEFAULT_BUDGET,
    conflicts: Annotated[
        int,
        count_option(
            "--conflicts",
            help="SAT engine conflicts per deal the search leaves open (0: off).",
            default=DEFAULT_CONFLICTS,
        ),
    ] = DEFAULT_CONFLICTS,
    draft: Annotated[
        str,
        typer.Option(help=draft_help(), metavar="[" + "|".join(draft_choices()) + "]"),
    ] = "random",
    jobs: Jobs = ALL_CORES,
    backend: Backend = None,
    scheduler: Scheduler = None,
    fmt: FormatOpt = Format.TABLE,
    as_json: JsonAlias = False,
    quiet: Quiet = False,
) -> None:
    """Share of random deals (random task draw, random or bot draft) that some line of play wins.

    Deals are solved in small chunks that idle workers pick up one at a time (solve times are
    heavy-tailed), here or on a Dask cluster, with the same numbers either way; the last line
    (on stderr) says how many deals were solved and how long it took.
    The share is that of the decided deals (as in `simulate --ceiling` and the reports); its
    95 % interval spans every way the undecided ones could go.
    """
    from crewsim.analysis.feasibility import DRAFTS
    from crewsim.analysis.feasibility_cells import solve_cells
    from crewsim.runs.backends import describe, worker_count
    from crewsim.runs.plan import check_games

    set_quiet(quiet)
    fmt = chosen_format(fmt, as_json)
    if n < 1:
        raise CrewsimError(f"-n: expected a positive number, got {n}")
    check_games(n, "deals")
    if budget < 1:
        raise CrewsimError(f"--budget: expected a positive number, got {budget}")
    if conflicts < 0:
        raise CrewsimError(f"--conflicts: expected 0 or more, got {conflicts}")
    if draft not in DRAFTS:
        raise CrewsimError(f"--draft: expected one of {', '.join(DRAFTS)}, got {draft!r}")
    backend = backend_named(backend, scheduler)
    check_backend(backend, scheduler)
    chosen = [m for spec in missions for m in resolve_missions(spec)]
    seats = list(parse_players(players))
    workers = worker_count(jobs)
    cells = len(chosen) * len(seats)
    warn_if_long(
        n * cells / (DEALS_PER_SECOND_PER_CORE * workers),
        f"{plural(n * cells, 'deal')} ({plural(cells, 'cell')} x {n:,}) to solve on "
        f"{describe(backend, workers, scheduler)}",
    )
    found = solve_cells(
        chosen,
        seats,
        n,
        seed,
        budget,
        conflicts,
        draft,
        Workers(backend, jobs, scheduler),
        bar=lambda total: deals_bar(total, Console(stderr=True)),
    )
    done = f"{plural(found.deals, 'deal')} solved in {found.seconds:.1f} s on {found.where}"
    rows = _rows(found, [m.id for m in chosen], seats, draft)
    if fmt is Format.JSON:  # stdout is for the data alone; the closing line goes to stderr
        head = {"draft": draft, "seed": seed, "budget": budget, "conflicts": conflicts}
        typer.echo(json_text({**head, "cells": rows}))
    elif fmt is Format.CSV:
        typer.echo(csv_text(pl.DataFrame(rows, infer_schema_length=None)), nl=False)
    else:
        stdout_console().print(_table(found, draft, budget))
        for why in found.unsupported.values():
            typer.echo(f"left out: {why}")
    say_err(done)


def _rows(
    found: Feasibility, missions: list[str], seats: list[int], draft: str
) -> list[dict[str, Any]]:
    """One row per cell, in the command line's order and one shape, unsupported cells too
    (the same keys, all null, and the reason)."""
    by_cell = {(r["mission"], r["players"]): r for r in found.rows}
    blank = dict.fromkeys(found.rows[0]) if found.rows else {}
    out = []
    for mid in missions:
        for p in seats:
            r = by_cell.get((mid, p), blank | {"mission": mid, "players": p, "draft": draft})
            out.append(json_row(r | {"unsupported": found.unsupported.get(mid)}))
    return out


def _table(found: Feasibility, draft: str, budget: int) -> Table:
    """The cells as a table: the share with its interval, the undecided, what SAT decided."""
    table = compact_table(
        f"perfect-information feasibility, {draft} draft, budget {budget:,} plays/deal"
    )
    cols = ["mission", "players", "deals", "feasible\n[95 % CI]", "unknown"]
    cols += ["bots won"] if draft == "heuristic" else []
    for col in [*cols, "by SAT", "max ms"]:
        table.add_column(col, justify="left" if col == "mission" else "right", no_wrap=True)
    for r in found.rows:
        shown = [
            r["mission"],
            str(r["players"]),
            f"{r['deals']:,}",
            stacked(pct_ci(r["feasible_share"], r["ci_low"], r["ci_high"])),
            pct(r["unknown_share"], 1),
        ]
        if draft == "heuristic":
            shown.append(pct(r["bot_success_share"], 1))
        table.add_row(*shown, pct(r["sat_decided_share"], 1), f"{r['max_ms']:.0f}")
    return table
