"""`crewsim simulate`: bot crews play many seeded deals of missions; print and save the rates."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import polars as pl
import typer
from rich.console import Console
from rich.table import Table

from crewsim.bots import get_bot
from crewsim.cli.options import (
    JOBS_HELP,
    Backend,
    BotsFile,
    Format,
    FormatOpt,
    Precision,
    Quiet,
    Scheduler,
    Separate,
    bot_help,
    default_is,
    distress_choices,
    parse_players,
    refuse_ceiling_options_without_it,
    stopping_options,
    whole_number,
)
from crewsim.cli.output import compact_table, set_quiet, stacked, stdout_console
from crewsim.cli.runs import play
from crewsim.errors import CrewsimError
from crewsim.missions import resolve_missions
from crewsim.report.format import pct, pct_ci
from crewsim.runs.backends import backend_named
from crewsim.runs.ceiling import DEFAULT_CEILING_N
from crewsim.runs.folder import config_from_manifest, default_out
from crewsim.runs.plan import CHUNK_SIZE, RunConfig
from crewsim.runs.session import CeilingRequest
from crewsim.runs.stopping import Stopping, default_chunk_size
from crewsim.solver.api import DEFAULT_CONFLICTS

DEFAULT_GAMES = 1_000_000


def trace_games(config: RunConfig, console: Console) -> None:
    """Print the referee's trace of the first game of each cell's first chunk."""
    from crewsim.runs.replay import first_games

    for game in first_games(config):
        console.print(
            f"== {game.cell.mission.id}, {game.cell.players} players, bot {config.bot.name}, "
            f"root seed {config.seed} (first game of chunk 0, chunk seed {game.seed})",
            highlight=False,
            soft_wrap=True,
        )
        console.print(game.state.trace(), highlight=False, markup=False)


def _whole(option: str, text: str | None) -> int | None:
    """A whole number from the command line (``options.whole_number``), None when not given."""
    if text is None:
        return None
    try:
        return whole_number(text)
    except typer.BadParameter as exc:
        raise CrewsimError(f"{option}: {exc.message}") from None


def run_header(config: RunConfig, folder: Path) -> dict[str, Any]:
    """What JSON says of a run above its cells: where it is and what decides its numbers."""
    return {
        "run": str(folder),
        "bot": config.bot.name,
        "seed": config.seed,
        "distress": config.distress,
        "games_per_cell": config.games,
    }


def _stopping(precision: str | None, separate: bool) -> Stopping | None:
    """The early stop the options ask for; None when they ask none (a resume keeps its own)."""
    if precision is None and not separate:
        return None
    return stopping_options(precision, separate)


def _build_config(
    missions: list[str] | None,
    resume: Path | None,
    out: Path | None,
    opts: dict[str, Any],
) -> tuple[RunConfig, Path]:
    """The run's configuration and folder: from the options, or from ``--resume DIR``.

    Options left unset (None) take the manifest's value when resuming and the documented
    default otherwise; an explicitly different value is then refused by ``prepare``.
    """
    if resume is not None:
        if missions:
            raise CrewsimError(
                "--resume takes the missions from the run folder; give no missions with it"
            )
        if out is not None and out.absolute() != resume.absolute():
            raise CrewsimError("--resume DIR and --out: give one folder, not two")
        overrides = dict(opts)
        if overrides["players"] is not None:
            overrides["players"] = parse_players(overrides["players"])
        bot_name, bots = overrides.pop("bot"), overrides.pop("bots")
        overrides["bots_file"] = str(bots) if bots else None
        config = config_from_manifest(resume, **overrides)
        if bot_name is not None and bot_name != config.bot.name:
            config = replace(config, bot=get_bot(bot_name, bots))
        return config, resume
    if not missions:
        raise CrewsimError("give missions to simulate (e.g. pn-1..10), or --resume DIR")
    stopping = opts["stopping"] or Stopping()
    defaults: dict[str, Any] = {
        "players": "3,4,5",
        "games": DEFAULT_GAMES,
        "bot": "heuristic",
        "seed": 0,
        "jobs": -1,
        "distress": "auto",
        "chunk_size": default_chunk_size(stopping, CHUNK_SIZE),
    }
    o: dict[str, Any] = {
        k: (defaults[k] if v is None and k in defaults else v) for k, v in opts.items()
    }
    o["backend"] = backend_named(o["backend"], o["scheduler"])
    config = RunConfig(
        missions=tuple(resolve_missions(",".join(missions))),
        players=parse_players(o["players"]),
        games=o["games"],
        bot=get_bot(o["bot"], o["bots"]),
        seed=o["seed"],
        jobs=o["jobs"],
        distress=o["distress"],
        chunk_size=o["chunk_size"],
        bots_file=str(o["bots"]) if o["bots"] else None,
        backend=o["backend"],
        scheduler=o["scheduler"],
        stopping=stopping,
    )
    return config, out or default_out(config.seed)


def simulate(
    ctx: typer.Context,
    missions: Annotated[
        list[str] | None,
        typer.Argument(
            help="Missions: ids, ranges and lists (pn-1, pn-1..10, pn-3,pn-7, planet-nine).",
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Player counts, comma-separated (2-5)." + default_is("3,4,5"),
        ),
    ] = None,
    games: Annotated[
        str | None,
        typer.Option(
            "-n",
            "--games",
            help="Games per mission and player count. More than a run folder holds tops it up."
            + default_is(f"{DEFAULT_GAMES:,}"),
            metavar="<int>",
        ),
    ] = None,
    bot: Annotated[
        str | None, typer.Option("--bot", help=bot_help() + default_is("heuristic"))
    ] = None,
    bots: BotsFile = None,
    seed: Annotated[
        str | None,
        typer.Option("--seed", help="Root seed of the run." + default_is("0"), metavar="<int>"),
    ] = None,
    jobs: Annotated[
        str | None,
        typer.Option(
            "--jobs",
            "-j",
            help=JOBS_HELP + " Also the workers of a local Dask cluster.",
            metavar="<int>",
            show_default="all cores",
        ),
    ] = None,
    distress: Annotated[
        str | None,
        typer.Option(
            "--distress",
            help="When the crew sends the distress signal (auto: when the bots judge the "
            "hands poor)." + default_is("auto"),
            metavar="[" + "|".join(distress_choices()) + "]",
        ),
    ] = None,
    backend: Backend = None,
    scheduler: Scheduler = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Run folder. An existing run folder of the same configuration is resumed.",
            show_default="runs/<timestamp>-<seed>",
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="Continue the run in this folder (configuration from it)."),
    ] = None,
    fmt: FormatOpt = Format.TABLE,
    quiet: Quiet = False,
    trace: Annotated[
        bool,
        typer.Option("--trace", help="Only play one game per mission and player count; print it."),
    ] = False,
    ceiling: Annotated[
        bool,
        typer.Option(
            "--ceiling",
            help="Also solve the first deals the bots played (perfect information): feasible "
            "share, bot success on those deals, efficiency.",
        ),
    ] = False,
    ceiling_n: Annotated[
        str,
        typer.Option(
            "--ceiling-n",
            help="Deals solved per mission and player count."
            + default_is(f"{DEFAULT_CEILING_N:,}"),
            metavar="<int>",
            show_default=False,
        ),
    ] = str(DEFAULT_CEILING_N),
    ceiling_conflicts: Annotated[
        str,
        typer.Option(
            "--ceiling-conflicts",
            help="SAT engine conflicts per ceiling deal the search leaves open (0: search only); "
            "more settles more of the hardest deals, at about 10-40 us a conflict."
            + default_is(f"{DEFAULT_CONFLICTS:,}"),
            show_default=False,
            metavar="<int>",
        ),
    ] = str(DEFAULT_CONFLICTS),
    precision: Precision = None,
    separate: Separate = False,
    chunk_size: Annotated[
        str | None, typer.Option("--chunk-size", hidden=True, help="Games per chunk (tests).")
    ] = None,
) -> None:
    """Play many seeded deals of each mission with a bot crew; rates with 95 % intervals."""
    from crewsim.cli.output import failures_table, summary_csv, summary_json, summary_table

    # options are read as text here, not by typer: one not given stays None, so --resume takes
    # it from the manifest, and a bad value names the option as "-n: ..." (exit 2)
    set_quiet(quiet)
    refuse_ceiling_options_without_it(ctx, ceiling)
    if trace and (fmt is not Format.TABLE or ceiling or out):
        flag = (
            f"--format {fmt.value}"
            if fmt is not Format.TABLE
            else "--ceiling"
            if ceiling
            else "--out"
        )
        raise CrewsimError(f"--trace prints one game as text; {flag} is for a run: leave one out")
    opts = {
        "players": players,
        "games": _whole("-n", games),
        "bot": bot,
        "bots": bots,
        "seed": _whole("--seed", seed),
        "jobs": _whole("--jobs", jobs),
        "distress": distress,
        "chunk_size": _whole("--chunk-size", chunk_size),
        "backend": backend,
        "scheduler": scheduler,
        "stopping": _stopping(precision, separate),
    }
    n_solve = _whole("--ceiling-n", ceiling_n) or 0
    if ceiling and n_solve <= 0:
        raise CrewsimError(f"--ceiling-n: expected a whole number above 0, got {ceiling_n!r}")
    conflicts = _whole("--ceiling-conflicts", ceiling_conflicts) or 0
    if conflicts < 0:
        raise CrewsimError(f"--ceiling-conflicts: expected 0 or more, got {ceiling_conflicts!r}")
    config, out = _build_config(missions, resume, out, opts)
    config.check()
    for cell in config.cells():
        config.mission_vector(cell)  # Deep Sea and other unplayable missions: one line, exit 2
    stdout, stderr = stdout_console(), Console(stderr=True)
    if trace:
        trace_games(config, stdout)
        return
    folder, summary = play(
        config,
        out,
        lambda text: stderr.print(text, highlight=False, soft_wrap=True, markup=False),
        ceiling=CeilingRequest(n_solve, conflicts) if ceiling else None,
    )
    if fmt is Format.JSON:
        typer.echo(summary_json(summary, run_header(config, folder)))
    elif fmt is Format.CSV:
        typer.echo(summary_csv(summary), nl=False)
    else:
        title = f"bot {config.bot.name}, seed {config.seed}, distress {config.distress}"
        stdout.print(summary_table(summary, title, config.stopping.active))
        stdout.print(failures_table(summary))
        if ceiling:
            stdout.print(ceiling_table(summary))


def ceiling_table(summary: pl.DataFrame) -> Table:
    """Feasible share, bot success on the same deals, and efficiency, per cell."""
    table = compact_table("perfect-information ceiling (the first deals the bots played)")
    for col in (
        "mission",
        "players",
        "deals",
        "feasible\n[95 % CI]",
        "unknown",
        "bot success",
        "efficiency\n[95 % CI]",
    ):
        table.add_column(col, justify="left" if col == "mission" else "right", no_wrap=True)
    for r in summary.iter_rows(named=True):
        if not r.get("ceiling_games"):
            table.add_row(r["mission"], str(r["players"]), "-", "not solved", "", "", "")
            continue
        table.add_row(
            r["mission"],
            str(r["players"]),
            f"{r['ceiling_games']:,}",
            stacked(pct_ci(r["feasible_share"], r["feasible_low"], r["feasible_high"], 1)),
            pct(r["unknown_share"], 1),
            pct(r["ceiling_success_rate"], 1),
            stacked(pct_ci(r["bot_efficiency"], r["efficiency_low"], r["efficiency_high"], 1)),
        )
    return table
