"""Playing a run from the command line, one way for `simulate`, `rank` and `balance`: the same
progress bar, the same messages, the same resume hint after Ctrl-C (``runs.session`` plays it)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import polars as pl
from rich.console import Console
from rich.markup import escape

from crewsim.bots import get_bot
from crewsim.cli.options import parse_players, plural
from crewsim.cli.output import games_bar, is_quiet, loading_kernel, warn_if_long
from crewsim.missions import resolve_missions
from crewsim.runs.backends import backend_named, describe
from crewsim.runs.folder import default_out
from crewsim.runs.plan import CHUNK_SIZE, RunConfig
from crewsim.runs.session import CeilingRequest, RunProgress, RunStopped
from crewsim.runs.session import play as play_session
from crewsim.runs.stopping import Stopping, default_chunk_size


def play(
    config: RunConfig,
    out: Path,
    say: Callable[[str], None],
    ceiling: CeilingRequest | None = None,
) -> tuple[Path, pl.DataFrame]:
    """Play (or resume, or top up) the run in ``out``; return its folder and summary.

    ``say`` gets what a person reads (where, how fast); warnings and the resume hint always go
    to stderr, with the bar.  Ctrl-C exits 130 with the command that resumes.
    """
    stderr = Console(stderr=True)

    def note(text: str) -> None:
        if not is_quiet():
            stderr.print(text, highlight=False, soft_wrap=True, markup=False)

    def chatter(text: str) -> None:
        if not is_quiet():
            say(text)

    def warn(text: str) -> None:
        stderr.print(f"[yellow]warning:[/] {escape(text)}", highlight=False, soft_wrap=True)

    warn_if_long(
        estimate_seconds(config),
        f"{plural(config.games * len(config.cells()), 'game')} "
        f"({plural(len(config.cells()), 'cell')} x {config.games:,}) on "
        f"{describe(config.backend, config.workers(), config.scheduler)}",
    )
    progress = RunProgress(
        say=chatter,
        note=note,
        warn=warn,
        loading=loading_kernel,  # before the bar: its rate and ETA count games only
        games=lambda total: games_bar("simulating", total, stderr),
    )
    try:
        return play_session(config, out, ceiling, progress)
    except RunStopped as stop:
        stderr.print(stop.message, highlight=False, soft_wrap=True, markup=False)
        # SystemExit, not typer.Exit: app.main runs click with standalone_mode=False,
        # which turns typer.Exit into a return value that main() does not pass on
        sys.exit(stop.exit_code)


# Games a second one core plays, per kind of crew: cautious figures (the slowest missions, a
# busy machine), for the warning before a long run, never for a result.
GAMES_PER_SECOND_PER_CORE = {
    "random": 10_000.0,
    "heuristic": 1_000.0,
    "search": 5.0,
    "pimc": 1.0,  # 32 worlds: 2-9 games/s on one core measured, less on hard missions
}


def estimate_seconds(config: RunConfig) -> float:
    """A cautious guess of a run's length: its games over the crew's slow rate on its cores
    (a Dask scheduler's cores are unknown here: counted as this machine's)."""
    rate = GAMES_PER_SECOND_PER_CORE.get(config.bot.kind, min(GAMES_PER_SECOND_PER_CORE.values()))
    return config.games * len(config.cells()) / (rate * config.workers())


def new_run(
    missions: str,
    players: str,
    games: int,
    seed: int,
    bot: str,
    jobs: int,
    out: Path | None,
    quiet: bool,
    ceiling: CeilingRequest | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    stopping: Stopping = Stopping(),
) -> Path:
    """A run from the options `rank` and `balance` share with `simulate`, played as `simulate`
    plays it; returns its folder.  ``quiet``: say nothing but the progress bar."""
    config = RunConfig(
        missions=tuple(resolve_missions(missions)),
        players=parse_players(players),
        games=games,
        bot=get_bot(bot),
        seed=seed,
        jobs=jobs,
        backend=backend_named(backend, scheduler),
        scheduler=scheduler,
        chunk_size=default_chunk_size(stopping, CHUNK_SIZE),
        stopping=stopping,
    )
    config.check()
    for cell in config.cells():
        config.mission_vector(cell)  # Deep Sea and other unplayable missions: one line, exit 2
    stderr = Console(stderr=True)

    def say(message: str) -> None:
        if not quiet:
            stderr.print(message, highlight=False, soft_wrap=True)

    folder, _ = play(config, out or default_out(seed), say, ceiling)
    return folder
