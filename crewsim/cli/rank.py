"""`crewsim rank`: missions from easiest to hardest per crew size, from a new or existing run."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import polars as pl
import typer
from rich import box
from rich.table import Table

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
    Separate,
    bot_help_no_file,
    count_option,
    default_is,
    parse_players,
    refuse_ceiling_options_without_it,
    refuse_new_run_options,
    stopping_options,
)
from crewsim.cli.output import (
    compact_table,
    failure_list,
    json_row,
    json_text,
    set_quiet,
    stacked,
    stdout_console,
)
from crewsim.cli.runs import new_run
from crewsim.errors import CrewsimError
from crewsim.report import tables
from crewsim.report.format import ceiling_cells, num_ci, pct_ci, rank_label, rho_ci
from crewsim.runs.ceiling import DEFAULT_CEILING_N
from crewsim.runs.csv_out import csv_text
from crewsim.runs.reader import Run, load_run
from crewsim.runs.session import CeilingRequest
from crewsim.solver.api import DEFAULT_CONFLICTS


def _filter(run: Run, missions: str | None, players: str | None) -> Run:
    """Restrict a loaded run to some missions / player counts (for `--run DIR`)."""
    s = run.summary
    if missions:
        from crewsim.missions import resolve_missions
        from crewsim.runs.folder import MANIFEST, manifest_missions

        own = manifest_missions(run.manifest, run.path / MANIFEST)
        try:  # the run's own missions: its scenario folder may be gone or set elsewhere
            chosen = resolve_missions(missions, own)
        except CrewsimError as exc:
            raise CrewsimError(f"run {run.path}: {exc}") from None
        wanted = [m.id for m in chosen]
        s = s.filter(pl.col("mission").is_in(wanted))
    if players:
        ps = list(parse_players(players))
        absent = [p for p in ps if p not in run.players]
        if absent:
            raise CrewsimError(f"run {run.path} has no games at {absent[0]} players")
        s = s.filter(pl.col("players").is_in(ps))
    f = run.failures.join(s.select("mission", "players"), on=["mission", "players"], how="semi")
    return Run(run.path, run.manifest, s, f, run.missions)


def _table(
    rank: pl.DataFrame,
    p: int,
    title: str,
    caption: str = "",
    games: bool = False,
    wide: bool = False,
) -> Table:
    """One crew size's ranking; ``games``: each cell's games and why it stopped (a run that
    could stop cells early).  Each interval sits under its estimate unless ``wide``: the table
    then fits 80 columns."""
    two = (lambda text: text) if wide else stacked
    if wide:
        t = Table(
            title=title, caption=caption, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True
        )
    else:
        t = compact_table(title)
        t.caption = caption
    has_ceiling = "feasible_share" in rank.columns
    has_printed = "printed_difficulty" in rank.columns
    cols = ["rank", "mission", two("success [95 % CI]"), two("attempts [95 % CI]")]
    if games:
        cols[2:2] = ["games", "stopped"]
    if has_ceiling:
        cols += ["solved", two("feasible [95 % CI]"), two("bot efficiency [95 % CI]")]
    if has_printed:
        cols.append("printed")
    for c in cols:
        t.add_column(c, justify="left" if c == "mission" else "right", no_wrap=True)
    for r in rank.filter(pl.col("players") == p).sort("rank").iter_rows(named=True):
        row = [
            rank_label(r["rank"], r["tied"]),
            r["mission"],
            *([f"{r['games']:,}", r["stopped"]] if games else []),
            two(pct_ci(r["success_rate"], r["ci_low"], r["ci_high"])),
            two(num_ci(r["expected_attempts"], r["attempts_low"], r["attempts_high"])),
        ]
        if has_ceiling:
            row += [two(cell) for cell in ceiling_cells(r)]
        if has_printed:
            v = r["printed_difficulty"]
            row.append("-" if v is None else str(v))
        t.add_row(*row)
    return t


def rank(
    ctx: typer.Context,
    missions: Annotated[
        list[str] | None,
        typer.Argument(
            help="Campaign or missions (planet-nine, pn-1..10, pn-3,pn-7); with --run: a filter.",
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Player counts, comma-separated (2-5); with --run: a filter."
            + default_is("3,4,5"),
        ),
    ] = None,
    games: Annotated[
        int,
        count_option("-n", "--games", help="Games per mission and player count.", default=100_000),
    ] = 100_000,
    seed: Seed = 0,
    bot: Annotated[str, typer.Option("--bot", help=bot_help_no_file())] = "heuristic",
    jobs: Jobs = ALL_CORES,
    backend: Backend = None,
    scheduler: Scheduler = None,
    run_dir: Annotated[
        Path | None,
        typer.Option("--run", help="Rank an existing run folder instead of simulating."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Folder for the new run.", show_default="runs/<timestamp>-<seed>"
        ),
    ] = None,
    ceiling: Annotated[
        bool,
        typer.Option(
            "--ceiling", help="Also solve the first deals of each cell (perfect information)."
        ),
    ] = False,
    ceiling_n: Annotated[
        int,
        count_option(
            "--ceiling-n", help="With --ceiling: deals solved per cell.", default=DEFAULT_CEILING_N
        ),
    ] = DEFAULT_CEILING_N,
    ceiling_conflicts: Annotated[
        int,
        count_option(
            "--ceiling-conflicts",
            help="With --ceiling: SAT engine conflicts per deal the search leaves open "
            "(0: search only).",
            default=DEFAULT_CONFLICTS,
        ),
    ] = DEFAULT_CONFLICTS,
    fmt: FormatOpt = Format.TABLE,
    quiet: Quiet = False,
    wide: Annotated[
        bool,
        typer.Option(
            "--wide", help="Each interval on its estimate's line (wider than 80 columns)."
        ),
    ] = False,
    precision: Precision = None,
    separate: Separate = False,
) -> None:
    """Rank missions from easiest to hardest per crew size, with 95 % intervals."""
    set_quiet(quiet)
    if run_dir is not None:  # a run shows the ceiling it carries (simulate --ceiling)
        refuse_new_run_options(
            ctx,
            ("out", "--out"),
            ("ceiling", "--ceiling"),
            ("ceiling_n", "--ceiling-n"),
            ("ceiling_conflicts", "--ceiling-conflicts"),
            ("separate", "--separate"),
        )
    refuse_ceiling_options_without_it(ctx, ceiling)
    stopping = stopping_options(precision, separate)
    if ceiling_n <= 0:
        raise CrewsimError(f"--ceiling-n: expected a whole number above 0, got {ceiling_n}")
    if ceiling_conflicts < 0:
        raise CrewsimError(f"--ceiling-conflicts: expected 0 or more, got {ceiling_conflicts}")
    spec = ",".join(missions) if missions else None
    if run_dir is None:
        if not spec:
            raise CrewsimError("give missions to simulate (e.g. planet-nine) or --run DIR")
        folder = new_run(
            spec,
            players or "3,4,5",
            games,
            seed,
            bot,
            jobs,
            out,
            quiet=fmt is not Format.TABLE,
            backend=backend,
            ceiling=CeilingRequest(ceiling_n, ceiling_conflicts) if ceiling else None,
            scheduler=scheduler,
            stopping=stopping,
        )
        loaded = load_run(folder)
    else:
        loaded = _filter(load_run(run_dir), spec, players)
    ranking = tables.ranking(loaded)
    if fmt is Format.CSV:
        typer.echo(csv_text(ranking), nl=False)
        return
    corr = tables.order_correlations(loaded)
    if fmt is Format.JSON:
        rows = [failure_list(json_row(r)) for r in ranking.iter_rows(named=True)]
        cor = [json_row(r) for r in corr.iter_rows(named=True)]
        typer.echo(
            json_text(
                {
                    "run": str(loaded.path),
                    "seed": loaded.seed,
                    "bot": loaded.bot,
                    "games_per_cell": loaded.games_per_cell,
                    "ranking": rows,
                    "correlations": cor,
                }
            )
        )
        return
    console = stdout_console()
    for p in loaded.players:
        title = f"{p} players: easiest (1) to hardest"
        caption = (
            f"{loaded.games_each} games each · bot {loaded.bot} · seed "
            f"{loaded.seed} · =: interval overlaps a neighbour's"
        )
        console.print(_table(ranking, p, title, caption, loaded.stopping.active, wide))
    for r in corr.iter_rows(named=True):
        if math.isnan(r["spearman_rho"]):
            continue
        console.print(
            f"{r['players']} players: Spearman rho, success rate vs "
            f"{r['success_rate_vs']} ({r['missions']} missions): "
            f"{rho_ci(r['spearman_rho'], r['rho_low'], r['rho_high'])}",
            highlight=False,
        )
    if "feasible_share" not in ranking.columns:
        console.print(
            "feasible share / bot efficiency: not in this run (no solver verdicts)",
            style="dim",
            highlight=False,
        )
    console.print(f"run folder: {loaded.path}", highlight=False)
