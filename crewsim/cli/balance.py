"""`crewsim balance`: which Deep Sea task cards are printed too easy or too hard.

Simulates the Deep Sea missions that draw task cards (or reads a run with ``--run``), fits the
balance model of ``crewsim.analysis.balance`` per crew size and prints the mis-rated cards; with
``--out`` it also writes a report folder like `crewsim report` does.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from crewsim.analysis.task_check import CHUNK
from crewsim.cli.options import (
    ALL_CORES,
    Backend,
    Format,
    FormatOpt,
    Jobs,
    Precision,
    Quiet,
    Scheduler,
    Seed,
    bot_help_no_file,
    count_option,
    default_is,
    refuse_ceiling_options_without_it,
    refuse_new_run_options,
    stopping_options,
)
from crewsim.cli.output import (
    busy,
    compact_table,
    deals_bar,
    json_text,
    set_quiet,
    stacked,
    stdout_console,
)
from crewsim.errors import CrewsimError, writable_folder
from crewsim.runs.backends import Workers, backend_named
from crewsim.runs.csv_out import csv_text
from crewsim.solver.api import DEFAULT_CONFLICTS

if TYPE_CHECKING:
    from crewsim.analysis.balance import Balance

DEFAULT_GAMES = 25_000  # per mission and crew size: the fit reads this many (FIT_GAMES)
CARD_WIDTH = 32  # the card's words in the table of mis-rated cards: the rest fits 80 columns
DEFAULT_CEILING_DEALS = 300  # per card and crew size: 96 cards x 3 sizes in ~1 min on 2 cores


def _drawing_missions() -> str:
    """The Deep Sea campaign missions that draw task cards, as a mission list."""
    from crewsim.missions import load_campaign

    return ",".join(m.id for m in load_campaign("deep-sea") if m.uses_task_draw)


def balance(
    ctx: typer.Context,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Player counts, comma-separated (3-5); with --run: a filter."
            + default_is("3,4,5; with --run: its own"),
        ),
    ] = None,
    games: Annotated[
        int,
        count_option(
            "-n",
            "--games",
            help="Games per mission and player count to simulate.",
            default=DEFAULT_GAMES,
        ),
    ] = DEFAULT_GAMES,
    seed: Seed = 0,
    bot: Annotated[str, typer.Option("--bot", help=bot_help_no_file())] = "heuristic",
    jobs: Jobs = ALL_CORES,
    backend: Backend = None,
    scheduler: Scheduler = None,
    run_dir: Annotated[
        Path | None,
        typer.Option("--run", help="Analyse an existing run folder instead of simulating."),
    ] = None,
    fit_games: Annotated[
        int,
        count_option(
            "--fit-games",
            help="Games per mission and player count the fit reads (the first ones; 0 = all).",
            default=DEFAULT_GAMES,
        ),
    ] = DEFAULT_GAMES,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write a report folder here (index.html, report.md, ...)."),
    ] = None,
    run_out: Annotated[
        Path | None,
        typer.Option(
            "--run-out", help="Folder for the new run.", show_default="runs/<timestamp>-<seed>"
        ),
    ] = None,
    fmt: FormatOpt = Format.TABLE,
    quiet: Quiet = False,
    with_ceiling: Annotated[
        bool,
        typer.Option(
            "--ceiling",
            help="Also play each card alone and solve those deals (perfect information): "
            "the bots' wins beside the deals that could be won, per card and crew size.",
        ),
    ] = False,
    ceiling_n: Annotated[
        int,
        count_option(
            "--ceiling-n",
            help="Deals per card and crew size (at most 10,000).",
            default=DEFAULT_CEILING_DEALS,
        ),
    ] = DEFAULT_CEILING_DEALS,
    precision: Precision = None,
) -> None:
    """Deep Sea balance: each task card's estimated difficulty against its printed value
    (csv: every card; table: the mis-rated ones)."""
    from crewsim.analysis import balance as bal_mod  # statsmodels, matplotlib: loaded here only
    from crewsim.report import balance_report
    from crewsim.runs.reader import load_run

    set_quiet(quiet)
    wanted = _check_options(ctx, players, run_dir is not None, fit_games, with_ceiling, ceiling_n)
    stopping = stopping_options(precision)
    run = None
    if run_dir is not None:
        with busy("reading the run"):
            run = load_run(run_dir)  # a bad run: no folder made
    if out is not None:  # before any simulating: a bad folder should not cost the run
        writable_folder(out, "--out")
    if run_out is not None:
        writable_folder(run_out, "--run-out")
    if run_dir is None:
        from crewsim.cli.runs import new_run

        run_dir = new_run(
            _drawing_missions(),
            players or "3,4,5",
            games,
            seed,
            bot,
            jobs,
            run_out,
            quiet=fmt is not Format.TABLE,
            backend=backend,
            scheduler=scheduler,
            stopping=stopping,
        )
    with busy("fitting the balance model"):
        bal = bal_mod.analyse(run or run_dir, wanted, fit_games or None)
    if with_ceiling:
        bal.ceiling = bal_mod.card_ceilings(
            bal.players,
            ceiling_n,
            bal.run.seed,
            bal.run.bot,
            DEFAULT_CONFLICTS,
            Workers(backend_named(backend, scheduler), jobs, scheduler),
            bar=lambda total: deals_bar(total, Console(stderr=True)),
        )
    if out is not None:
        with busy("writing the report: tables, charts, report.md, index.html"):
            balance_report.build(bal, out)
    if fmt is Format.CSV:
        typer.echo(csv_text(bal.cards), nl=False)
        return
    if fmt is Format.JSON:
        typer.echo(json_text(bal_mod.to_json(bal)))
        return
    _print_tables(bal)
    console = stdout_console()
    if out is not None:
        console.print(f"report written to {Path(out) / 'index.html'}", highlight=False)
    console.print(f"run folder: {bal.run.path}", highlight=False)


def _check_options(
    ctx: typer.Context,
    players: str | None,
    from_run: bool,
    fit_games: int,
    with_ceiling: bool,
    ceiling_n: int,
) -> list[int] | None:
    """Refuse what cannot be done before anything is read or played; the crew sizes asked for
    (None: the run's own)."""
    from crewsim.cli.options import parse_players

    if players and "2" in {p.strip() for p in players.split(",")}:
        raise CrewsimError("--players: 2 players use the 3-player card values; give 3, 4 or 5")
    wanted = list(parse_players(players, lowest=3)) if players else None
    if from_run:
        refuse_new_run_options(ctx, ("run_out", "--run-out"))
    if fit_games < 0:
        raise CrewsimError(f"--fit-games: expected 0 or more, got {fit_games}")
    refuse_ceiling_options_without_it(ctx, with_ceiling)
    if not 1 <= ceiling_n <= CHUNK:
        raise CrewsimError(f"--ceiling-n: expected 1 to {CHUNK:,}, got {ceiling_n}")
    return wanted


def _print_tables(bal: Balance) -> None:
    """Per crew size: the mis-rated cards, most mis-rated first, and the fit in a line."""
    from crewsim.analysis.balance import FLAG_MARGIN, unidentified_reason
    from crewsim.missions import load_task_cards
    from crewsim.report import balance_report

    console = stdout_console()
    cards = {c.number: c for c in load_task_cards()}
    run = bal.run
    caption = f"{run.games_each} games per mission · bot {run.bot} · seed {run.seed}"
    for fit in bal.fits.iter_rows(named=True):
        p = fit["players"]
        t = compact_table(
            f"{p} players: mis-rated task cards (|estimated − printed| ≥ {FLAG_MARGIN:g}, "
            "95 % interval excludes printed), most mis-rated first"
        )
        t.caption = caption
        header = balance_report.card_header(bal)
        for c in ("card", *header[2:]):  # number and name: one column, the card in words
            shown = c.replace(" [", "\n[").replace(" (", "\n(").replace(": ", ":\n")
            shown = shown.replace(" won of ", " won\nof ")  # alone: bots won / of winnable
            if c == "card":  # wraps at whole words: the table fits 80 columns
                t.add_column(shown, max_width=CARD_WIDTH - (15 if bal.ceiling is not None else 0))
            else:
                t.add_column(shown, justify="right", no_wrap=True)
        for number, _name, *rest in balance_report.card_rows(bal, p, only_flagged=True):
            label = cards[int(number)].label if int(number) in cards else number
            t.add_row(label, *(stacked(x) if x.endswith("]") else x for x in rest))
        console.print(t)
        rho = fit["spearman_rho"]
        console.print(
            f"{p} players: {fit['cards']} cards estimated from {fit['games']:,} games, "
            f"{fit['flagged']} flagged; {fit['slope']:+.3f} log-odds per printed point; "
            "mission success vs printed difficulty: Spearman rho "
            + ("-" if math.isnan(rho) else f"{rho:+.2f}"),
            highlight=False,
        )
        if not fit["identified"]:
            console.print(f"[yellow]warning:[/] {unidentified_reason(fit)}", highlight=False)
