"""The share of random deals a perfect-information crew can win, one row per mission and crew
size: each cell's deals cut into small chunks seeded by the cell's key, solved on a backend as
workers free up (solve times are heavy-tailed), summed per cell.

The seeds hang off the cell key, so a cell gets the same deals in any company and the numbers
never depend on ``--jobs`` or the backend.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from crewsim.analysis.feasibility import ChunkResult, solve_chunk
from crewsim.errors import CrewsimError
from crewsim.missions.schema import Mission
from crewsim.runs.backends import Workers
from crewsim.runs.plan import cell_key, cell_seed_sequence
from crewsim.runs.progress import Bar, no_bar
from crewsim.runs.stats import share_bounds
from crewsim.solver.problem import unsupported_reason

CHUNK = 25  # deals per worker task


@dataclass(frozen=True)
class Feasibility:
    """The solved cells, what was left out, and where and how long the solving took."""

    rows: tuple[dict[str, Any], ...]  # one per cell the solver models: missions, then sizes
    unsupported: dict[str, str]  # mission id -> why the solver cannot model it
    deals: int  # solved in all
    seconds: float
    where: str  # the backend, in words


def solve_cells(
    missions: Sequence[Mission],
    players: Sequence[int],
    n: int,
    seed: int,
    budget: int,
    conflicts: int,
    draft: str,
    workers: Workers,
    bar: Bar = no_bar,
) -> Feasibility:
    """``n`` random deals per mission and crew size (``draft``: who takes which task), solved
    with ``budget`` card plays and ``conflicts`` SAT conflicts each on ``workers``.  What the
    solver cannot model is found before any time is spent; if that is everything, or the
    kernel cannot play a mission the heuristic draft needs, one line (CrewsimError)."""
    unsupported = {m.id: why for m in missions if (why := unsupported_reason(m))}
    if len(unsupported) == len(missions):
        raise CrewsimError("unsupported: " + "; ".join(unsupported.values()))
    solvable = [m for m in missions if m.id not in unsupported]
    if draft == "heuristic":
        _check_playable(solvable, players)
    cells = [(m.id, p) for m in solvable for p in players]
    calls: list[tuple[Any, ...]] = []
    names: list[str] = []
    of_cell: list[int] = []
    for ci, (mid, p) in enumerate(cells):
        children = cell_seed_sequence(seed, cell_key(mid, p)).spawn((n + CHUNK - 1) // CHUNK)
        for part, child in enumerate(children):
            of_cell.append(ci)
            calls.append((mid, p, child, min(CHUNK, n - part * CHUNK), budget, conflicts, draft))
            names.append(f"feasibility-{mid}-{p}p-{part}")
    results: list[ChunkResult] = []
    with workers.open() as backend, bar(n * len(cells)) as advance:
        start = time.perf_counter()
        for chunk in backend.imap(solve_chunk, calls, names):
            results.append(chunk)
            advance(sum(chunk.counts.values()))
    wall = time.perf_counter() - start
    rows = tuple(
        _row(mid, p, n, draft, [r for r, c in zip(results, of_cell, strict=True) if c == ci])
        for ci, (mid, p) in enumerate(cells)
    )
    return Feasibility(rows, unsupported, n * len(cells), wall, workers.describe())


def _check_playable(missions: Sequence[Mission], players: Sequence[int]) -> None:
    """The heuristic draft is the kernel's: it must be able to play every cell (one line if not)."""
    from crewsim.kernel.spec import KernelMission

    for m in missions:
        for p in players:
            KernelMission(m, p).vector()


def _row(mid: str, p: int, n: int, draft: str, chunks: list[ChunkResult]) -> dict[str, Any]:
    """One cell's chunks summed: the share of the decided deals, with its 95 % interval
    spanning every way the undecided ones could go."""
    counts: dict[str, int] = {}
    secs: list[float] = []
    for chunk in chunks:
        for k, v in chunk.counts.items():
            counts[k] = counts.get(k, 0) + v
        secs.extend(chunk.seconds)
    feas, unk = counts.get("feasible", 0), counts.get("unknown", 0)
    lo, hi = share_bounds(feas, unk, n)
    row = {
        "mission": mid,
        "players": p,
        "draft": draft,
        "deals": n,
        "feasible": feas,
        "infeasible": counts.get("infeasible", 0),
        "unknown": unk,
        "feasible_share": feas / (n - unk) if n > unk else math.nan,
        "ci_low": lo,
        "ci_high": hi,
        "unknown_share": unk / n,
        "lower_if_unknown_infeasible": feas / n,
        "upper_if_unknown_feasible": (feas + unk) / n,
        "median_ms": float(np.median(secs) * 1000),
        "max_ms": float(np.max(secs) * 1000),
        "sat_decided_share": sum(c.by_sat for c in chunks) / n,
    }
    if draft == "heuristic":  # the drafting crew's own result on exactly these deals
        wins = sum(c.bot_wins for c in chunks)
        row.update(
            bot_success_share=wins / n, won_but_infeasible=sum(c.won_but_infeasible for c in chunks)
        )
    return row
