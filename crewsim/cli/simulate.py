"""`crewsim simulate`: bot crews play many seeded deals of missions; print and save the rates."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from crewsim.bots import get_bot
from crewsim.errors import CrewsimError
from crewsim.missions import resolve_missions
from crewsim.montecarlo import CHUNK_SIZE, RunConfig, default_out, plan, run


class OutputFormat(str, Enum):
    table = "table"
    json = "json"


def parse_players(spec: str) -> tuple[int, ...]:
    """``3,4,5`` -> (3, 4, 5); duplicates dropped, order kept; one-line error otherwise."""
    out: list[int] = []
    for item in spec.split(","):
        try:
            p = int(item.strip())
        except ValueError:
            raise CrewsimError(
                f"--players: expected numbers 2 to 5 like 3,4,5, got {spec!r}"
            ) from None
        if p not in (2, 3, 4, 5):
            raise CrewsimError(f"--players: expected 2 to 5, got {p}")
        if p not in out:
            out.append(p)
    return tuple(out)


def trace_games(config: RunConfig, console: Console) -> None:
    """Play the first game of each cell's first chunk with recording; print the referee trace."""
    from crewsim.kernel.run import run_chunk
    from crewsim.replay import replay

    bp = config.bot.vector()
    first = {t.cell: t for t in plan(config) if t.index == 0}
    for i, cell in enumerate(config.cells()):
        mp = config.mission_vector(cell)
        seed = first[i].seed
        rec = run_chunk(mp, bp, 1, seed, record=True)
        state = replay(cell.mission, cell.players, rec, 0)
        console.print(
            f"== {cell.mission.id}, {cell.players} players, bot {config.bot.name}, "
            f"root seed {config.seed} (first game of chunk 0, chunk seed {seed})",
            highlight=False,
            soft_wrap=True,
        )
        console.print(state.trace(), highlight=False, markup=False)


def simulate(
    missions: Annotated[
        list[str],
        typer.Argument(
            help="Missions: ids, ranges and lists (pn-1, pn-1..10, pn-3,pn-7, planet-nine).",
            show_default=False,
        ),
    ],
    players: Annotated[
        str, typer.Option("--players", "-p", help="Player counts, comma-separated (2-5).")
    ] = "3,4,5",
    games: Annotated[
        int, typer.Option("-n", "--games", help="Games per mission and player count.")
    ] = 1_000_000,
    bot: Annotated[str, typer.Option("--bot", help="Bot crew by name.")] = "heuristic",
    bots: Annotated[
        Path | None, typer.Option("--bots", help="Bots file (default: scenarios/bots.toml).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Root seed of the run.")] = 0,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Worker processes; -1 = all cores.")
    ] = -1,
    distress: Annotated[
        str, typer.Option("--distress", help="Distress signal: auto, never or always.")
    ] = "auto",
    out: Annotated[
        Path | None, typer.Option("--out", help="Run folder (default: runs/<timestamp>-<seed>).")
    ] = None,
    fmt: Annotated[
        OutputFormat, typer.Option("--format", help="table or json (stdout).")
    ] = OutputFormat.table,
    trace: Annotated[
        bool,
        typer.Option("--trace", help="Only play one game per mission and player count; print it."),
    ] = False,
    chunk_size: Annotated[
        int, typer.Option("--chunk-size", hidden=True, help="Games per chunk (tests).")
    ] = CHUNK_SIZE,
) -> None:
    """Play many seeded deals of each mission with a bot crew; rates with 95 % intervals."""
    from crewsim.cli.output import failures_table, progress_bar, summary_json, summary_table

    config = RunConfig(
        missions=tuple(resolve_missions(",".join(missions))),
        players=parse_players(players),
        games=games,
        bot=get_bot(bot, bots),
        seed=seed,
        jobs=jobs,
        distress=distress,
        chunk_size=chunk_size,
        bots_file=str(bots) if bots else None,
    )
    config.check()
    for cell in config.cells():
        config.mission_vector(cell)  # Deep Sea and other unplayable missions: one line, exit 2
    stdout, stderr = Console(), Console(stderr=True)
    if trace:
        trace_games(config, stdout)
        return
    out = out or default_out(seed)
    info = stderr if fmt is OutputFormat.json else stdout
    n_cells = len(config.cells())
    info.print(
        f"{n_cells} mission x player cells, {games:,} games each, bot {config.bot.name}, "
        f"seed {seed}, run folder {out}",
        highlight=False,
    )
    with progress_bar(n_cells * games, stderr) as advance:
        result = run(config, out, on_chunk=advance)
    rate = result.games / result.seconds if result.seconds > 0 else float("nan")
    info.print(
        f"{result.games:,} games in {result.seconds:.1f} s ({rate:,.0f} games/s); "
        f"summary in {out / 'summary.csv'}",
        highlight=False,
    )
    if fmt is OutputFormat.json:
        typer.echo(summary_json(result.summary))
    else:
        title = f"bot {config.bot.name}, seed {seed}, distress {distress}"
        stdout.print(summary_table(result.summary, title))
        stdout.print(failures_table(result.summary))
