"""A run as the commands play it (`simulate`, `rank`, `balance`): the backend opened first, the
folder checked or resumed, the chunks played, the ceiling solved (or the folder's own kept) and
the summary written with it.  Ctrl-C stops with the command that resumes."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from crewsim.runs.backends import Backend, describe
from crewsim.runs.ceiling import DEFAULT_CEILING_N, ceiling_rows, earlier_ceiling, with_ceiling
from crewsim.runs.csv_out import write_csv
from crewsim.runs.folder import resume_command
from crewsim.runs.montecarlo import (
    RunInterrupted,
    RunResult,
    RunState,
    execute,
    open_backend,
    prepare,
    warm_up,
)
from crewsim.runs.plan import RunConfig
from crewsim.runs.progress import Bar, no_bar, plural
from crewsim.runs.run_format import STOPPED
from crewsim.runs.stopping import STOP_REASONS
from crewsim.solver.api import DEFAULT_CONFLICTS


@dataclass(frozen=True)
class CeilingRequest:
    """The ceiling a command asked for: deals solved per cell, SAT conflicts per deal."""

    deals: int
    conflicts: int = DEFAULT_CONFLICTS


def _silent(text: str) -> None:
    """A message nobody reads."""


@dataclass(frozen=True)
class RunProgress:
    """What a person sees of a run; the command draws it, the defaults show nothing."""

    say: Callable[[str], None] = _silent  # where it runs, how fast (a quiet command drops it)
    note: Callable[[str], None] = _silent  # what the folder held: a resume, a top-up
    warn: Callable[[str], None] = _silent  # a damaged chunk, moved aside and played again
    loading: Callable[[], AbstractContextManager[object]] = field(default=nullcontext)
    games: Bar = no_bar  # the games to play, once the folder says how many


class RunStopped(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a run: the finished chunks and ceiling cells are safe in the
    folder; ``message`` says where the run stands and which command resumes it."""

    exit_code = 130

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def resume_hint(folder: Path, ceiling: CeilingRequest | None) -> str:
    """The command that resumes a run: with the ceiling when this command asked for it."""
    if ceiling is None:
        return resume_command(folder)
    more = f" --ceiling --ceiling-n {ceiling.deals}"
    if ceiling.conflicts != DEFAULT_CONFLICTS:
        more += f" --ceiling-conflicts {ceiling.conflicts}"
    return resume_command(folder) + more


def play(
    config: RunConfig,
    out: Path,
    ceiling: CeilingRequest | None = None,
    progress: RunProgress = RunProgress(),
) -> tuple[Path, pl.DataFrame]:
    """Play (or resume, or top up) the run in ``out``; return its folder and summary.

    ``ceiling``: solve it per cell (`simulate --ceiling`); without it, a ceiling the folder
    already has is kept.  Ctrl-C raises ``RunStopped``.
    """
    where = describe(config.backend, config.workers(), config.scheduler)
    with open_backend(config) as engine:  # an unreachable scheduler fails before any file
        earlier = None if ceiling else earlier_ceiling(out)
        state = prepare(config, out)
        again = resume_hint(state.out, ceiling)
        cap = "at most " if config.stopping.active else ""
        progress.say(
            f"{plural(len(config.cells()), 'mission x player cell')}, {cap}"
            f"{plural(config.games, 'game')} each, bot {config.bot.name}, seed {config.seed}, "
            f"on {where}, run folder {state.out}"
        )
        _report_state(state, progress)
        result = _play_chunks(state, engine, progress, again)
        rate = result.played / result.seconds if result.seconds > 0 else float("nan")
        progress.say(
            f"{plural(result.played, 'game')} simulated in {result.seconds:.1f} s ({rate:,.0f} "
            f"games/s), {result.games:,} in all; summary in {state.out / 'summary.csv'}"
        )
        if config.stopping.active:
            progress.say(stops_line(result.summary))
        rows = _solve_ceiling(state, engine, ceiling, progress, again) if ceiling else earlier
    summary = result.summary
    if rows:
        if not ceiling:
            _say_kept(config, rows, progress.say, again)
        summary = with_ceiling(summary, rows)
        summary.write_parquet(state.out / "summary.parquet")
        write_csv(summary, state.out / "summary.csv")
    return state.out, summary


def stops_line(summary: pl.DataFrame) -> str:
    """How many cells stopped for each reason: ``cells stopped: 12 precision, 3 cap``."""
    counts = summary[STOPPED].value_counts()
    by = dict(zip(counts[STOPPED].to_list(), counts["count"].to_list(), strict=True))
    parts = [f"{by[r]} {r}" for r in STOP_REASONS if by.get(r)]
    return f"cells stopped: {', '.join(parts)} (of {summary.height})"


def _play_chunks(state: RunState, engine: Backend, progress: RunProgress, again: str) -> RunResult:
    """The chunks still to play, the kernel loaded first (its bar counts games only)."""
    try:
        with progress.loading():
            warm_up(state)
        if not state.todo:
            return execute(state, engine)
        with progress.games(state.todo_games) as advance:
            return execute(state, engine, on_chunk=lambda done: advance(done.task.games))
    except RunInterrupted as stop:
        raise RunStopped(f"{stop.status()}\nresume with: {again}") from None
    except KeyboardInterrupt:  # while the kernel loads, before the first chunk
        raise RunStopped(
            f"interrupted before the first chunk; the run folder is {state.out}\n"
            f"resume with: {again}"
        ) from None


def _solve_ceiling(
    state: RunState,
    engine: Backend,
    ceiling: CeilingRequest,
    progress: RunProgress,
    again: str,
) -> list[dict[str, Any]]:
    """Each cell's ceiling on the run's own backend, saved in the folder as it lands."""
    try:
        return ceiling_rows(
            state.config, ceiling.deals, progress.say, engine, ceiling.conflicts, state.out
        )
    except KeyboardInterrupt:
        raise RunStopped(
            f"interrupted while solving the ceiling; the games and the cells solved so "
            f"far are in {state.out}\nresume with: {again}"
        ) from None


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
        deals = max((r["ceiling_games"] for r in rows), default=0)
        more = f" --ceiling-n {deals}" if deals and deals != DEFAULT_CEILING_N else ""
        say(
            f"kept the perfect-information ceiling this folder already had for {kept} of "
            f"{len(cells)} cells; to solve the others: {command} --ceiling{more}"
        )


def _report_state(state: RunState, progress: RunProgress) -> None:
    """Say what an existing folder contributed: resumed chunks, a top-up, damaged chunks."""
    for line in state.damaged:
        progress.warn(line)
    if state.previous_games is None:
        return
    if state.previous_games < state.config.games:
        progress.note(
            f"topping up {state.out} from {state.previous_games:,} to "
            f"{state.config.games:,} games per cell"
        )
    progress.note(
        f"resuming: {len(state.done)} of {len(state.tasks)} chunks already done, "
        f"{len(state.todo)} to run"
    )
