"""The perfect-information ceiling beside the bots: the deals the bots actually played, solved.

For each mission x players cell the first games of the run's first chunk are replayed with
their moves recorded (same seed, so the same deals, task assignments, designations and distress
passes), rebuilt as solver problems and solved.  The summary then shows, on exactly those deals,
the share that could be won at all, the bots' success rate and their efficiency.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from crewsim.errors import CrewsimError
from crewsim.missions.schema import Mission
from crewsim.runs.backends import Backend, open_workers
from crewsim.runs.folder import atomic_write
from crewsim.runs.plan import RunConfig, plan_chunks
from crewsim.runs.progress import plural
from crewsim.runs.replay import set_up
from crewsim.runs.run_format import CEILING_DIR
from crewsim.runs.stats import ceiling_columns
from crewsim.solver.api import DEFAULT_CONFLICTS, solve
from crewsim.solver.problem import Problem, Unsupported, problem_from_mission, unsupported_reason

DEFAULT_CEILING_N = 200  # deals per cell: about a minute for a 10-mission, 3-count campaign


def problem_of(mission: Mission, players: int, rec: Mapping[str, np.ndarray], i: int) -> Problem:
    """Game ``i`` of a recorded chunk as the bots played it: the referee's position before the
    first card (owners after any hand-over, hands and the dummy's stacks after the distress
    pass)."""
    state = set_up(mission, players, rec, i)
    deal = replace(state.deal, hands=tuple(state.hands), dummy_under=tuple(state.under.items()))
    return problem_from_mission(
        deal, state.tasks, mission, state.designated or None, state.deep_tasks
    )


def ceiling_cell(
    mission: Mission,
    players: int,
    mp: np.ndarray,
    bp: np.ndarray,
    seed: int,
    n: int,
    conflicts: int = DEFAULT_CONFLICTS,
    solver: Callable[[Problem], Any] | None = None,
    problem: Callable[[Mission, int, Mapping[str, np.ndarray], int], Problem] = problem_of,
) -> dict[str, Any]:
    """Solve the first ``n`` deals of a chunk seeded ``seed``, each with up to ``conflicts``
    SAT conflicts (or by ``solver``), each rebuilt from the record by ``problem``; one summary
    row."""
    from crewsim.solver.pimc import runner

    solve_one = solver or partial(solve, conflicts=conflicts)

    row: dict[str, Any] = {"mission": mission.id, "players": players, "ceiling_games": 0}
    if unsupported_reason(mission):
        return row
    rec = runner(bp)(mp, bp, n, seed, record=True)
    verdicts = []
    for i in range(n):
        try:
            verdicts.append(solve_one(problem(mission, players, rec, i)).verdict)
        except Unsupported:
            return row
    v = np.array(verdicts)
    won = rec["success"]
    # a deal the bots won is winnable, even when the solver gave up on it
    feasible = int(((v == "feasible") | won).sum())
    infeasible = int(((v == "infeasible") & ~won).sum())
    row.update(
        ceiling_columns(n, feasible, infeasible, int(won.sum())),
        won_but_infeasible=int((won & (v == "infeasible")).sum()),
    )  # must be 0
    return row


def with_ceiling(summary: pl.DataFrame, rows: list[dict[str, Any]]) -> pl.DataFrame:
    """The summary with the ceiling columns joined on mission and players."""
    extra = pl.DataFrame(rows).with_columns(pl.col("players").cast(summary["players"].dtype))
    keep = [c for c in summary.columns if c not in extra.columns or c in ("mission", "players")]
    return summary.select(keep).join(extra, on=["mission", "players"], how="left")


def earlier_ceiling(folder: Path | None) -> list[dict[str, Any]] | None:
    """The ceiling rows a run folder already holds (None: none), so resuming or topping up a
    run without ``--ceiling`` keeps them: they depend on each cell's first chunk only, which
    neither changes."""
    if folder is None:
        return None
    saved = sorted((folder / CEILING_DIR).glob("*.json"))
    return [_read_saved(path)["row"] for path in saved] or None


def _read_saved(path: Path) -> dict[str, Any]:
    """A saved cell: ``{"deals": ..., "conflicts": ..., "row": {...}}``."""
    try:
        doc: dict[str, Any] = json.loads(path.read_text())
        if not {"deals", "conflicts", "row"} <= doc.keys():
            raise KeyError(min({"deals", "conflicts", "row"} - doc.keys()))
        if not {"mission", "players"} <= doc["row"].keys():  # what the summary joins on
            raise KeyError("row")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CrewsimError(
            f"{path}: not a saved ceiling cell ({exc}); delete it to solve the cell again"
        ) from None
    return doc


def ceiling_rows(
    config: RunConfig,
    n: int,
    progress: Callable[[str], None] | None = None,
    backend: Backend | None = None,
    conflicts: int = DEFAULT_CONFLICTS,
    folder: Path | None = None,
) -> list[dict[str, Any]]:
    """One ceiling row per cell of a run configuration (``crewsim.runs.plan.RunConfig``),
    solving the first ``n`` games of each cell's first chunk (``conflicts``: the SAT engine's
    budget per deal the search leaves open).  Cells go to ``backend`` (by
    default the run's own: loky workers or its Dask cluster), one at a time as each worker
    frees up: solve times are heavy-tailed.  Each cell's row depends on its seed only.  With
    ``folder`` (the run's), each row is saved as it lands and a cell saved with the same deals
    and conflicts is not solved again: an interrupted ceiling resumes."""
    cells = config.cells()
    if backend is None:
        workers = min(config.workers(), len(cells))
        with open_workers(config.backend, workers, config.scheduler) as opened:
            return ceiling_rows(config, n, progress, opened, conflicts, folder)
    tasks = plan_chunks([c.key for c in cells], config.games, config.seed, config.chunk_size)
    first = {t.cell: t.seed for t in tasks if t.index == 0}
    bp = config.bot.vector()
    size = min(n, config.games, config.chunk_size)
    saved: dict[int, dict[str, Any]] = {}
    for c, cell in enumerate(cells):
        path = None if folder is None else _cell_file(folder, cell.key)
        if path is not None and path.exists():
            doc = _read_saved(path)
            if (doc["deals"], doc["conflicts"]) == (size, conflicts):
                saved[c] = doc["row"]
    todo = [c for c in range(len(cells)) if c not in saved]
    calls = [
        (
            cells[c].mission,
            cells[c].players,
            config.mission_vector(cells[c]),
            bp,
            first[c],
            size,
            conflicts,
        )
        for c in todo
    ]
    names = [f"ceiling-{cells[c].mission.id}-{cells[c].players}p" for c in todo]
    if progress:  # the first cell can take a while: a fresh install compiles the solver
        kept = f", {len(saved)} kept from an earlier session" if saved else ""
        progress(
            f"ceiling: solving the first {plural(size, 'deal')} of "
            f"{plural(len(todo), 'cell')}{kept} "
            "(a fresh install compiles the solver first)"
        )
    rows = dict(saved)
    for c, row in zip(todo, backend.imap(ceiling_cell, calls, names), strict=True):
        rows[c] = row
        if folder is not None:
            _save(
                _cell_file(folder, cells[c].key),
                {"deals": size, "conflicts": conflicts, "row": row},
            )
        if progress:
            cell = cells[c]
            why = unsupported_reason(cell.mission) if not row["ceiling_games"] else None
            done = f"left out: {why}" if why else "solved"
            progress(
                f"ceiling: {cell.mission.id} at {cell.players} players {done} "
                f"({len(rows)}/{len(cells)})"
            )
    return [rows[c] for c in range(len(cells))]


def _cell_file(folder: Path, key: str) -> Path:
    """Where a run folder keeps one cell's ceiling row."""
    return folder / CEILING_DIR / f"{key}.json"


def _save(path: Path, doc: dict[str, Any]) -> None:
    """Write a cell's row whole or not at all (a killed session leaves no half file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, (json.dumps(doc, indent=1) + "\n").encode())
