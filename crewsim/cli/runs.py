"""Playing a run from the command line, one way for `simulate`, `rank` and `balance`: the same
progress bar, the same resume hint after Ctrl-C, the ceiling added the same way."""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console
from rich.markup import escape

from crewsim.bots import get_bot
from crewsim.cli.options import parse_players
from crewsim.cli.output import loading_kernel, progress_bar
from crewsim.missions import resolve_missions
from crewsim.runs.backends import backend_named, describe
from crewsim.runs.ceiling import DEFAULT_CEILING_N, ceiling_rows, earlier_ceiling, with_ceiling
from crewsim.runs.csv_out import write_csv
from crewsim.runs.folder import default_out, resume_command
from crewsim.runs.montecarlo import (
    RunInterrupted,
    RunState,
    execute,
    open_backend,
    prepare,
    warm_up,
)
from crewsim.runs.plan import RunConfig
from crewsim.solver.api import DEFAULT_CONFLICTS


def play(
    config: RunConfig,
    out: Path,
    say: Callable[[str], None],
    ceiling: tuple[int, int] | None = None,
) -> tuple[Path, pl.DataFrame]:
    """Play (or resume, or top up) the run in ``out``; return its folder and summary.

    ``say`` gets what a person reads (where, how fast); warnings and the resume hint always go
    to stderr.  ``ceiling``: (deals, SAT conflicts) to solve per cell, as `simulate --ceiling`;
    without it, a ceiling the folder already has is kept.  Ctrl-C exits 130 with the command
    that resumes.
    """
    stderr = Console(stderr=True)

    def warn(text: str) -> None:
        stderr.print(text, highlight=False, soft_wrap=True)

    def again(folder: Path) -> str:
        """How to resume: with the ceiling when this command asked for it."""
        if ceiling is None:
            return resume_command(folder)
        n_solve, conflicts = ceiling
        more = f" --ceiling --ceiling-n {n_solve}"
        if conflicts != DEFAULT_CONFLICTS:
            more += f" --ceiling-conflicts {conflicts}"
        return resume_command(folder) + more

    where = describe(config.backend, config.workers(), config.scheduler)
    with open_backend(config) as engine:  # an unreachable scheduler fails before any file
        earlier = None if ceiling else earlier_ceiling(out)
        state = prepare(config, out)
        say(
            f"{len(config.cells())} mission x player cells, {config.games:,} games each, bot "
            f"{config.bot.name}, seed {config.seed}, on {where}, run folder {state.out}"
        )
        _report_state(state, warn)
        try:
            with loading_kernel():  # before the bar: its rate and ETA count games only
                warm_up(state)
            bar = progress_bar(state.todo_games, stderr) if state.todo else nullcontext(None)
            with bar as advance:
                result = execute(state, engine, on_chunk=advance)
        except RunInterrupted as stop:
            warn(f"{stop.status()}\nresume with: {again(stop.out)}")
            # SystemExit, not typer.Exit: app.main runs click with standalone_mode=False,
            # which turns typer.Exit into a return value that main() does not pass on
            sys.exit(stop.exit_code)
        except KeyboardInterrupt:  # while the kernel loads, before the first chunk
            warn(
                f"interrupted before the first chunk; the run folder is {state.out}\n"
                f"resume with: {again(state.out)}"
            )
            sys.exit(130)
        rate = state.todo_games / result.seconds if result.seconds > 0 else float("nan")
        say(
            f"{state.todo_games:,} games simulated in {result.seconds:.1f} s ({rate:,.0f} "
            f"games/s), {result.games:,} in all; summary in {state.out / 'summary.csv'}"
        )
        try:
            rows = (
                ceiling_rows(config, ceiling[0], say, engine, ceiling[1], state.out)
                if ceiling
                else earlier
            )
        except KeyboardInterrupt:
            warn(
                f"interrupted while solving the ceiling; the games and the cells solved so "
                f"far are in {state.out}\nresume with: {again(state.out)}"
            )
            sys.exit(130)
    summary = result.summary
    if rows:
        if not ceiling:
            _say_kept(config, rows, say, again(state.out))
        summary = with_ceiling(summary, rows)
        summary.write_parquet(state.out / "summary.parquet")
        write_csv(summary, state.out / "summary.csv")
    return state.out, summary


def _say_kept(
    config: RunConfig, rows: list[dict[str, Any]], say: Callable[[str], None], command: str
) -> None:
    """A ceiling kept from an earlier session may cover only some cells (it was interrupted):
    say which share, and how to solve the rest."""
    cells = {(c.mission.id, c.players) for c in config.cells()}
    kept = len(cells & {(r["mission"], r["players"]) for r in rows})
    if kept == len(cells):
        say("kept the perfect-information ceiling this folder already had")
    else:
        deals = max((r.get("ceiling_games") or 0 for r in rows), default=0)
        more = f" --ceiling-n {deals}" if deals and deals != DEFAULT_CEILING_N else ""
        say(
            f"kept the perfect-information ceiling this folder already had for {kept} of "
            f"{len(cells)} cells; to solve the others: {command} --ceiling{more}"
        )


def _report_state(state: RunState, warn: Callable[[str], None]) -> None:
    """Say what an existing folder contributed: resumed chunks, a top-up, damaged chunks."""
    for line in state.damaged:
        warn(f"[yellow]warning:[/] {escape(line)}")
    if state.previous_games is None:
        return
    if state.previous_games < state.config.games:
        warn(
            f"topping up {state.out} from {state.previous_games:,} to "
            f"{state.config.games:,} games per cell"
        )
    warn(
        f"resuming: {len(state.done)} of {len(state.tasks)} chunks already done, "
        f"{len(state.todo)} to run"
    )


def new_run(
    missions: str,
    players: str,
    games: int,
    seed: int,
    bot: str,
    jobs: int,
    out: Path | None,
    quiet: bool,
    ceiling: tuple[int, int] | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
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
