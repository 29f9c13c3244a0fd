"""How `crewsim simulate` shows a run: progress on stderr, a rich table or JSON rows on stdout."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import polars as pl
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
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

from crewsim.report.format import num_ci, pct, pct_ci
from crewsim.runs.stats import CEILING_COLUMNS

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
    "top_failures",
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
    if not console.is_terminal:  # rich would still end with an empty line
        yield
        return
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as spinner:
        spinner.add_task(what, total=None)
        yield


class GamesPerSecond(ProgressColumn):
    """Throughput in games/s (rich's own speed column speaks of bytes)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:,.0f} games/s", style="cyan")


LOG_EVERY = 60.0  # seconds between progress lines when stderr is a file, not a terminal


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
    """A live bar on a terminal.  Written to a file (a batch job's log) a live bar shows
    nothing until the end, so there a plain line every tenth of the way or ``LOG_EVERY``."""
    if not console.is_terminal:
        with _progress_lines(verb, unit, total, console) as advance:
            yield advance
        return
    columns = [TextColumn(f"[bold]{verb}"), BarColumn(), MofNCompleteColumn()]
    columns += (
        [GamesPerSecond(), TextColumn("ETA")] if unit == "games" else [TextColumn(f"{unit} ETA")]
    )
    with Progress(*columns, TimeRemainingColumn(), TimeElapsedColumn(), console=console) as bar:
        task = bar.add_task(unit, total=total)
        yield lambda n: bar.advance(task, n)


@contextmanager
def _progress_lines(
    verb: str, unit: str, total: int, console: Console
) -> Iterator[Callable[[int], None]]:
    start = last = time.monotonic()
    done = 0
    tenth = 0

    def advance(n: int) -> None:
        nonlocal done, last, tenth
        done += n
        now = time.monotonic()
        reached = 10 * done // max(total, 1)
        if reached <= tenth and now - last < LOG_EVERY:
            return
        tenth, last = reached, now
        rate = done / (now - start) if now > start else float("nan")
        eta = (total - done) / rate if rate > 0 else float("nan")
        console.print(
            f"{verb}: {done:,} of {total:,} {unit} ({100 * done / max(total, 1):.0f} "
            f"%), {rate:,.0f} {unit}/s, ETA {_clock(eta)}",
            highlight=False,
            soft_wrap=True,
        )

    yield advance


def _clock(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "-"
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


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
    # short headers: the table fits a terminal of 80 columns
    names = (
        "mission",
        "players",
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
    table.caption = "distr.: games in which the crew sent the distress signal" + (
        "; redeal: games dealt again because a drawn task card said so; repair: games whose "
        "drawn task cards contradicted each other and were repaired"
        if setup
        else ""
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
        reasons = r["top_failures"].split("; ") if r["top_failures"] else ["-"]
        for k, reason in enumerate(reasons):
            table.add_row(
                r["mission"] if k == 0 else "", str(r["players"]) if k == 0 else "", reason
            )
    return table


def json_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row fit for JSON, which has no infinity or NaN: both become null (``json.dumps``
    would write the tokens ``NaN`` and ``Infinity``, which strict parsers reject)."""
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in row.items()}


def summary_json(summary: pl.DataFrame) -> str:
    """The summary as a JSON list of rows; top_failures as a list of strings."""
    rows = []
    for r in summary.select(c for c in JSON_COLUMNS if c in summary.columns).iter_rows(named=True):
        row = json_row(r)
        row["top_failures"] = r["top_failures"].split("; ") if r["top_failures"] else []
        rows.append(row)
    return json.dumps(rows, indent=2)
