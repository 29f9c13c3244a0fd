"""The loss autopsy of a run: its lost games (the first N of each cell) examined on every
worker, saved in the run folder batch by batch (an interrupted autopsy resumes), and summed
up per mission and crew size (``crewsim autopsy``, the reports' "Why games are lost")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from crewsim.analysis.autopsy import KINDS, PLAY_KINDS, SETUP_KINDS, Examination, examine
from crewsim.errors import CrewsimError
from crewsim.missions.schema import Mission
from crewsim.runs.backends import Workers
from crewsim.runs.folder import atomic_write, config_from_manifest, kernel_digest
from crewsim.runs.plan import Cell, RunConfig, plan
from crewsim.runs.progress import Bar, no_bar
from crewsim.runs.reader import Run, game_outcomes, load_run
from crewsim.solver.api import DEFAULT_BUDGET, DEFAULT_CONFLICTS
from crewsim.solver.problem import unsupported_reason

AUTOPSY_DIR = "autopsy"  # in a run folder: one file per examined batch, and the tables
DEFAULT_LOST = 200  # lost games examined per cell
BATCH = 50  # lost games of one chunk a worker examines in one go
DECISIVE = (*SETUP_KINDS, *PLAY_KINDS)


@dataclass(frozen=True)
class Batch:
    """Lost games of one chunk of one cell: ``games`` are (place in the chunk, in the cell)."""

    cell: Cell
    chunk: int
    seed: int
    games: tuple[tuple[int, int], ...]

    def path(self, folder: Path) -> Path:
        return folder / AUTOPSY_DIR / self.cell.key / f"{self.chunk:05d}-{self.games[0][1]}.json"


def examine_batch(
    mission: Mission,
    players: int,
    mp: np.ndarray,
    bp: np.ndarray,
    seed: int,
    games: Sequence[tuple[int, int]],
    budget: int,
    conflicts: int,
) -> list[dict[str, Any]]:
    """Replay a chunk up to its last game asked (same seed, same games) and examine each."""
    from crewsim.solver.pimc import runner

    rec = runner(bp)(mp, bp, games[-1][0] + 1, seed, record=True)
    return [
        examine(mission, players, rec, i, game, budget, conflicts).finding.row()
        for i, game in games
    ]


def autopsy(
    path: Path,
    missions: str | None = None,
    players: Sequence[int] | None = None,
    lost: int = DEFAULT_LOST,
    workers: Workers = Workers(),
    bar: Bar = no_bar,
    budget: int = DEFAULT_BUDGET,
    conflicts: int = DEFAULT_CONFLICTS,
) -> Autopsy:
    """Examine the first ``lost`` lost games of each chosen cell of the run at ``path``
    (batches saved earlier with the same budgets are kept).  The run folder's
    ``autopsy/findings.parquet`` and ``autopsy/summary.csv`` then hold these cells' findings
    beside those of other cells examined before."""
    run = load_run(path)
    config = config_from_manifest(path)
    chosen = _chosen(run, config, missions, players)
    cells = [c for c in chosen if unsupported_reason(c.mission) is None]
    left_out = tuple(f"{c.key}: {unsupported_reason(c.mission)}" for c in chosen if c not in cells)
    batches, lost_counts = _batches(run, config, cells, lost)
    settings = {"budget": budget, "conflicts": conflicts}
    found: list[dict[str, Any]] = []
    todo: list[Batch] = []
    for b in batches:
        saved = _saved(b.path(path), settings, b)
        if saved is None:
            todo.append(b)
        else:
            found += saved
    bp = config.bot.vector()
    calls = [
        (
            b.cell.mission,
            b.cell.players,
            config.mission_vector(b.cell),
            bp,
            b.seed,
            b.games,
            budget,
            conflicts,
        )
        for b in todo
    ]
    names = [f"autopsy-{b.cell.key}-{b.chunk}-{b.games[0][1]}" for b in todo]
    with bar(sum(len(b.games) for b in todo)) as advance, workers.open() as backend:
        for b, rows in zip(todo, backend.imap(examine_batch, calls, names), strict=True):
            rows = [{"mission": b.cell.mission.id, "players": b.cell.players, **r} for r in rows]
            doc = {**settings, "games": [g for _, g in b.games], "findings": rows}
            target = b.path(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, (json.dumps(doc) + "\n").encode())
            found += rows
            advance(len(rows))
    result = Autopsy(_frame(found), summarise(_frame(found), lost_counts), left_out)
    _write(path / AUTOPSY_DIR, result)
    return result


@dataclass(frozen=True)
class Autopsy:
    """Every examined game's finding, and per cell the shares of each kind."""

    findings: pl.DataFrame
    summary: pl.DataFrame
    left_out: tuple[str, ...] = ()  # cells the solver cannot judge, each with the reason


def _write(out: Path, result: Autopsy) -> None:
    """Both tables into the run folder, replacing the rows of the cells just examined."""
    out.mkdir(exist_ok=True)
    for name, new in (("findings.parquet", result.findings), ("summary.csv", result.summary)):
        path = out / name
        if path.exists():
            old = pl.read_parquet(path) if name.endswith("parquet") else _read_csv(path)
            cells = new.select("mission", "players").unique()
            new = pl.concat([old.join(cells, on=["mission", "players"], how="anti"), new])
        data = new.write_parquet if name.endswith("parquet") else new.write_csv
        data(path)


def _read_csv(path: Path) -> pl.DataFrame:
    try:
        return pl.read_csv(path, schema=SUMMARY_SCHEMA)
    except pl.exceptions.PolarsError:
        raise CrewsimError(
            f"{path}: not this crewsim's autopsy summary; delete {path.parent} and run "
            "crewsim autopsy again"
        ) from None


def examine_game(
    path: Path,
    missions: str | None,
    players: Sequence[int] | None,
    game: int,
    budget: int = DEFAULT_BUDGET,
    conflicts: int = DEFAULT_CONFLICTS,
) -> Examination:
    """Game ``game`` of the one cell that the mission spec and crew sizes pick, examined
    (``--trace``); a one-line error when it was won or the spec picks several cells."""
    from crewsim.solver.pimc import runner

    run = load_run(path)
    config = config_from_manifest(path)
    cells = _chosen(run, config, missions, players)
    if len(cells) != 1:
        raise CrewsimError(
            f"{path}: --trace needs one mission at one crew size; "
            f"{len(cells)} cells match (give MISSIONS and -p)"
        )
    cell = cells[0]
    if unsupported_reason(cell.mission):
        raise CrewsimError(f"{path}: {unsupported_reason(cell.mission)}")
    if not 0 <= game < config.games:
        raise CrewsimError(f"{path}: {cell.key} has games 0 to {config.games - 1}, not {game}")
    chunk, i = divmod(game, config.chunk_size)
    seed = next(t.seed for t in plan(config) if t.key == cell.key and t.index == chunk)
    bp = config.bot.vector()
    rec = runner(bp)(config.mission_vector(cell), bp, i + 1, seed, record=True)
    if rec["success"][i]:
        raise CrewsimError(f"{path}: game {game} of {cell.key} was won: nothing to examine")
    return examine(cell.mission, cell.players, rec, i, game, budget, conflicts)


def _chosen(
    run: Run, config: RunConfig, missions: str | None, players: Sequence[int] | None
) -> list[Cell]:
    """The run's cells a mission spec and crew sizes pick.  A run another kernel played is
    refused: its games would not replay as they were played."""
    if run.manifest.get("kernel_sha256") != kernel_digest():
        raise CrewsimError(
            f"{run.path}: played by another version of the game kernel, so its games cannot "
            "be replayed; simulate it again for an autopsy"
        )
    cells = config.cells()
    if missions:
        from crewsim.missions import resolve_missions

        try:
            wanted = {m.id for m in resolve_missions(missions, list(config.missions))}
        except CrewsimError as exc:
            raise CrewsimError(f"{run.path}: {exc}") from None
        cells = [c for c in cells if c.mission.id in wanted]
    if players:
        absent = [p for p in players if p not in config.players]
        if absent:
            raise CrewsimError(f"{run.path}: the run has no games at {absent[0]} players")
        cells = [c for c in cells if c.players in players]
    return cells


def _batches(
    run: Run, config: RunConfig, cells: Sequence[Cell], lost: int
) -> tuple[list[Batch], dict[tuple[str, int], int]]:
    """The first ``lost`` lost games of each cell in batches of one chunk, and every cell's
    count of lost games."""
    outcomes = game_outcomes(run).filter(~pl.col("success"))
    size = config.chunk_size
    seeds = {(t.key, t.index): t.seed for t in plan(config)}
    batches: list[Batch] = []
    counts: dict[tuple[str, int], int] = {}
    for cell in cells:
        games = outcomes.filter(
            (pl.col("mission") == cell.mission.id) & (pl.col("players") == cell.players)
        )["game"].to_list()
        counts[cell.mission.id, cell.players] = len(games)
        by_chunk: dict[int, list[tuple[int, int]]] = {}
        for g in games[:lost]:
            by_chunk.setdefault(g // size, []).append((g % size, g))
        for chunk, chosen in by_chunk.items():
            for k in range(0, len(chosen), BATCH):
                part = tuple(chosen[k : k + BATCH])
                batches.append(Batch(cell, chunk, seeds[cell.key, chunk], part))
    return batches, counts


def _saved(path: Path, settings: dict[str, int], batch: Batch) -> list[dict[str, Any]] | None:
    """A batch examined before with the same budgets (None: examine it again)."""
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text())
        same = {k: doc[k] for k in settings} == settings
        if same and doc["games"] == [g for _, g in batch.games]:
            return list(doc["findings"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # a damaged file is examined again
    return None


FINDING_SCHEMA = {
    "mission": pl.String,
    "players": pl.Int64,
    "game": pl.Int64,
    "kind": pl.String,
    "trick": pl.Int64,
    "seat": pl.Int64,
    "role": pl.String,
    "card": pl.Int64,
    "alternative": pl.Int64,
    "failed": pl.String,
    "failed_kind": pl.String,
    "failed_trick": pl.Int64,
    "solves": pl.Int64,
}


def _frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=FINDING_SCHEMA).sort("mission", "players", "game")


def summarise(findings: pl.DataFrame, lost_counts: dict[tuple[str, int], int]) -> pl.DataFrame:
    """Per cell: ``games_lost``, ``analysed``, each kind's share of the games analysed
    (``unwinnable_deal``, the decisive kinds, ``undecided``: they add up to 1) and the median
    trick of the decisive plays."""
    rows = []
    for (mission, players), lost in sorted(lost_counts.items()):
        cell = findings.filter((pl.col("mission") == mission) & (pl.col("players") == players))
        n = cell.height
        counts = dict(cell.group_by("kind").len().iter_rows()) if n else {}
        plays = cell.filter(pl.col("trick") > 0)["trick"]
        row: dict[str, Any] = {
            "mission": mission,
            "players": players,
            "games_lost": lost,
            "analysed": n,
        }
        row.update({k: counts.get(k, 0) / n if n else None for k in KINDS})
        row["median_trick"] = float(plays.median()) if plays.len() else None  # type: ignore[arg-type]
        rows.append(row)
    return pl.DataFrame(rows, schema=SUMMARY_SCHEMA)


SUMMARY_SCHEMA: dict[str, Any] = {
    "mission": pl.String,
    "players": pl.Int64,
    "games_lost": pl.Int64,
    "analysed": pl.Int64,
    **dict.fromkeys(KINDS, pl.Float64),
    "median_trick": pl.Float64,
}


def read_summary(folder: Path) -> pl.DataFrame | None:
    """A run's autopsy summary (None: no autopsy was made)."""
    path = folder / AUTOPSY_DIR / "summary.csv"
    return _read_csv(path) if path.exists() else None
