"""How `crewsim simulate` shows a run: progress on stderr, a rich table or JSON rows on stdout."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

import polars as pl
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from crewsim.report.format import failure_sentence, num_ci, pct, pct_ci
from crewsim.runs.stats import CEILING_COLUMNS, FAILURE_COLUMNS, reasons_of

JSON_COLUMNS = (
    "mission",
    "players",
    "bot",
    "games",
    "successes",
    "success_rate",
    "ci_low",
    "ci_high",
    "expected_attempts",
    "attempts_low",
    "attempts_high",
    "distress_share",
    "redeal_share",
    "repair_share",
    "stopped",  # why the cell stopped playing: precision, separated or cap (runs.stopping)
    *FAILURE_COLUMNS,  # JSON: a list ``top_failures`` of objects (``failure_list``)
    # with --ceiling: the perfect-information ceiling on the first deals the bots played
    *CEILING_COLUMNS,
)


PIPE_WIDTH = 200  # piped tables: wide enough for every column, so no row is cut at 80


def stdout_console() -> Console:
    """Console for results on stdout: a terminal's own width; piped (``| less``, ``> file``),
    ``$COLUMNS`` or PIPE_WIDTH rather than rich's 80 columns, so table rows stay whole."""
    console = Console()
    if console.is_terminal or "COLUMNS" in os.environ:
        return console
    return Console(width=PIPE_WIDTH)


KERNEL_FIRST_RUN = "a fresh install compiles the game kernel first: ~1 min"

_QUIET = [False]  # --quiet of the command running now (the root callback resets it)


def set_quiet(on: bool) -> None:
    """``--quiet``: no progress and no chatter on stderr for the rest of this command."""
    _QUIET[0] = on


def is_quiet() -> bool:
    return _QUIET[0]


def say_err(text: str) -> None:
    """One line of chatter on stderr (what runs where, how long it took); none with -q."""
    if not is_quiet():
        Console(stderr=True).print(text, highlight=False, soft_wrap=True, markup=False)


@contextmanager
def loading_kernel() -> Iterator[None]:
    """A spinner while the game kernel loads: a fresh install compiles it first (about a
    minute), which without a word looks like a hang."""
    with busy(f"loading the game kernel ({KERNEL_FIRST_RUN})"):
        yield


@contextmanager
def busy(what: str) -> Iterator[None]:
    """A spinner with the time spent, on stderr, for a step with nothing to count (reading a
    run, fitting, drawing charts): seconds without a word look like a hang.  It leaves no
    line behind, and none at all when stderr is not a terminal."""
    console = Console(stderr=True)
    if not console.is_terminal or is_quiet():  # rich would still end with an empty line
        yield
        return
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as spinner:
        spinner.add_task(what, total=None)
        yield


class Count(ProgressColumn):
    """``1,200/3,000``: done of all, with thousands separators (rich's own has none)."""

    def render(self, task: Task) -> Text:
        total = "?" if task.total is None else f"{int(task.total):,}"
        return Text(f"{int(task.completed):,}/{total}", style="green")


class GamesPerSecond(ProgressColumn):
    """Throughput in games/s (rich's own speed column speaks of bytes)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:,.0f} games/s", style="cyan")


LOG_EVERY = 600.0  # seconds between progress lines of a long job when stderr is not a terminal


@contextmanager
def games_bar(verb: str, total: int, console: Console) -> Iterator[Callable[[int], None]]:
    """The same bar for games counted some other way; yields the callback taking games."""
    with _progress(verb, "games", total, console) as advance:
        yield advance


@contextmanager
def deals_bar(total: int, console: Console) -> Iterator[Callable[[int], None]]:
    """The solver commands' bar (deals done, ETA); yields the callback taking deals done."""
    with _progress("solving", "deals", total, console) as advance:
        yield advance


@contextmanager
def _progress(
    verb: str, unit: str, total: int, console: Console
) -> Iterator[Callable[[int], None]]:
    """A live bar on a terminal.  Written to a file (a batch job's log) a bar's carriage
    returns would litter it: there one plain line when the job ends (and one every
    ``LOG_EVERY`` of a long job).  Nothing with ``--quiet``."""
    if is_quiet():
        yield lambda n: None
        return
    if not console.is_terminal:
        with _progress_lines(verb, unit, total, console) as advance:
            yield advance
        return
    columns = [TextColumn(f"[bold]{verb}"), BarColumn(), Count()]
    columns += [GamesPerSecond()] if unit == "games" else [TextColumn(unit)]
    columns += [TextColumn("ETA"), TimeRemainingColumn(), TextColumn("elapsed")]
    with Progress(*columns, TimeElapsedColumn(), console=console) as bar:
        task = bar.add_task(unit, total=total)
        yield lambda n: bar.advance(task, n)


@contextmanager
def _progress_lines(
    verb: str, unit: str, total: int, console: Console
) -> Iterator[Callable[[int], None]]:
    """One line when the job ends (its count, elapsed time and rate), and one every
    ``LOG_EVERY`` before that: a log reads a line per job, not a bar's frames."""
    start = last = time.monotonic()
    done = 0

    def line(now: float, final: bool) -> None:
        rate = done / (now - start) if now > start else float("nan")
        speed = f"{rate:,.0f} {unit}/s" if math.isfinite(rate) else f"- {unit}/s"
        if final:
            text = f"{verb}: {done:,} {_unit(done, unit)}, elapsed {_clock(now - start)}, {speed}"
        else:
            eta = (total - done) / rate if rate > 0 else float("nan")
            text = (
                f"{verb}: {done:,} of {total:,} {unit} ({100 * done / max(total, 1):.0f} %), "
                f"elapsed {_clock(now - start)}, {speed}, ETA {_clock(eta)}"
            )
        console.print(text, highlight=False, soft_wrap=True, markup=False)

    def advance(n: int) -> None:
        nonlocal done, last
        done += n
        now = time.monotonic()
        if now - last >= LOG_EVERY and done < total:
            last = now
            line(now, final=False)

    yield advance
    line(time.monotonic(), final=True)


def _unit(n: int, unit: str) -> str:
    """``1 game``, ``2 games``: the unit (a plural noun) in the count's number."""
    return unit.removesuffix("s") if n == 1 else unit


def _clock(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "-"
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


LONG_RUN = 180.0  # seconds: a command that may run longer says so before it starts


def warn_if_long(seconds: float, what: str) -> None:
    """One line on stderr before a job that would run for more than a few minutes: how long,
    roughly (a conservative guess), and what it is; nothing for a short job or with -q."""
    if seconds > LONG_RUN:
        say_err(
            f"note: {what}: expect about {duration(seconds)} (a cautious guess; -n fewer "
            "to go faster, Ctrl-C stops)"
        )


def duration(seconds: float) -> str:
    """``4 min``, ``2.5 h``: a rough length of time in words."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def stacked(cell: str) -> str:
    """``93.80 % [92.66, 94.78]`` as two lines, estimate over interval: narrow table columns."""
    return cell.replace(" [", "\n[", 1)


def compact_table(title: str) -> Table:
    """A borderless table with one space between columns: result tables fit 80 columns."""
    return Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, padding=0)


def summary_table(summary: pl.DataFrame, title: str, stops: bool = False) -> Table:
    """One row per mission x players: counts, rate with Wilson 95 %, attempts, distress, and
    (Deep Sea) the share of games that needed a redeal or a contradiction repair; ``stops``:
    why each cell stopped (a run that could stop cells early)."""
    table = compact_table(title)
    # Planet Nine never redeals or repairs: keep the table narrow
    setup = any(m.startswith("ds-") for m in summary["mission"])
    extra = ("redeal", "repair") if setup else ()  # shares of games, one decimal
    # short headers: the table fits a terminal of 80 columns ("p" when Deep Sea's shares and
    # the stop reasons would make it wider)
    players = "p" if setup and stops else "players"
    names = (
        "mission",
        players,
        "games",
        "wins",
        "success rate\n[95 % CI]",
        "attempts\n[95 % CI]",
        "distr.",
        *extra,
        *(("stopped",) if stops else ()),
    )
    for name in names:
        table.add_column(name, justify="left" if name == "mission" else "right", no_wrap=True)
    table.caption = (
        ("p: players; " if players == "p" else "")
        + ("distr.: games in which the crew sent the distress signal")
        + (
            "; redeal: games dealt again because a drawn task card said so; repair: games whose "
            "drawn task cards contradicted each other and were repaired"
            if setup
            else ""
        )
    )
    for r in summary.iter_rows(named=True):
        shares = (pct(r["redeal_share"], 1), pct(r["repair_share"], 1)) if setup else ()
        table.add_row(
            r["mission"],
            str(r["players"]),
            f"{r['games']:,}",
            f"{r['successes']:,}",
            stacked(pct_ci(r["success_rate"], r["ci_low"], r["ci_high"])),
            stacked(num_ci(r["expected_attempts"], r["attempts_low"], r["attempts_high"])),
            pct(r["distress_share"], 1),
            *shares,
            *((r["stopped"],) if stops else ()),
        )
    return table


def failures_table(summary: pl.DataFrame) -> Table:
    """The top failure reasons of each mission x players, in words, share of all games."""
    table = compact_table("top failure reasons (share of games)")
    table.add_column("mission")
    table.add_column("players", justify="right")
    table.add_column("reason")
    for r in summary.iter_rows(named=True):
        reasons = [failure_sentence(x) for x in reasons_of(r)] or ["-"]
        for k, reason in enumerate(reasons):
            table.add_row(
                r["mission"] if k == 0 else "", str(r["players"]) if k == 0 else "", reason
            )
    return table


def json_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row fit for JSON, which has no infinity or NaN: both become null (``json.dumps``
    would write the tokens ``NaN`` and ``Infinity``, which strict parsers reject)."""
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in row.items()}


def failure_list(row: dict[str, Any]) -> dict[str, Any]:
    """A row for JSON with its failure columns as one list, ``top_failures``: an object per
    reason with the fields the CSV's ``failureN_`` columns carry (``kind``, ``card``, ``trick``,
    ``trick_share``, ``share``), the most frequent first."""
    reasons = [asdict(r) for r in reasons_of(row)]
    out = {k: v for k, v in row.items() if k not in FAILURE_COLUMNS}
    return {**out, "top_failures": reasons}


def summary_rows(summary: pl.DataFrame) -> list[dict[str, Any]]:
    """The summary's cells as JSON rows; the failure reasons as a list (``failure_list``)."""
    chosen = summary.select(c for c in JSON_COLUMNS if c in summary.columns)
    return [failure_list(json_row(r)) for r in chosen.iter_rows(named=True)]


def summary_json(summary: pl.DataFrame, header: dict[str, Any] | None = None) -> str:
    """The run as one JSON object: ``header`` (where the run is, its bot, seed...) and its
    cells under ``cells`` (docs/cli.md)."""
    return json_text({**(header or {}), "cells": summary_rows(summary)})


def summary_csv(summary: pl.DataFrame) -> str:
    """The summary's cells as CSV, the columns of the JSON rows."""
    from crewsim.runs.csv_out import csv_text

    return csv_text(summary.select(c for c in JSON_COLUMNS if c in summary.columns))


def json_text(document: dict[str, Any]) -> str:
    """A command's JSON: one object, indented, strict: NaN and infinity, anywhere in it,
    become null (docs/cli.md)."""
    return json.dumps(_finite(document), indent=2, ensure_ascii=False, allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value
