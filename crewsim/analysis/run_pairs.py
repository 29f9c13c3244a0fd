"""Two run folders of two crews, paired game by game on the deals both played.

Runs of the same root seed, distress setting and chunk size deal game ``i`` of a cell alike
whatever the crew (``analysis.compare``), so the first games both runs hold pair up one to one:
each cell gets McNemar's test and a paired interval, and each crew size the agreement of the
two crews' rankings.  Runs that would not deal the same games are refused, the field named.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from crewsim.analysis.agreement import rank_agreement
from crewsim.analysis.compare import Paired
from crewsim.errors import CrewsimError
from crewsim.runs.reader import Run, game_outcomes, load_run

# the manifest fields that decide which deal game i of a cell is
DEAL_FIELDS = ("root_seed", "distress", "chunk_size")

CELL_SCHEMA = {
    "players": pl.Int64,
    "mission": pl.String,
    "number": pl.Int64,
    "games": pl.Int64,
    "wins_a": pl.Int64,
    "wins_b": pl.Int64,
    "only_a": pl.Int64,
    "only_b": pl.Int64,
    "rate_a": pl.Float64,
    "rate_b": pl.Float64,
    "difference": pl.Float64,
    "difference_low": pl.Float64,
    "difference_high": pl.Float64,
    "mcnemar_p": pl.Float64,
}


@dataclass(frozen=True)
class RunComparison:
    """Crew A (run ``a``) against crew B (run ``b``) on the first ``games`` deals of each cell
    both runs hold: ``cells`` (``CELL_SCHEMA``), ``agreement`` and ``moves`` per crew size
    (``analysis.agreement``, on the paired success rates)."""

    a: Run
    b: Run
    games: int
    cells: pl.DataFrame
    agreement: pl.DataFrame
    moves: pl.DataFrame


# a mission record's words, which change no game
TEXT_FIELDS = ("description", "untimed_note")


def _normal(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def _records(run: Run) -> dict[tuple[str, int], Any]:
    return {(c["mission"], int(c["players"])): c["mission_record"] for c in run.manifest["cells"]}


def _rules(record: dict[str, Any]) -> Any:
    return _normal({k: v for k, v in record.items() if k not in TEXT_FIELDS})


def shared_cells(a: Run, b: Run) -> list[tuple[str, int]]:
    """(mission, players) of every cell both runs hold, in run ``a``'s order."""
    theirs = _records(b)
    return [cell for cell in _records(a) if cell in theirs]


def check_pairable(a: Run, b: Run) -> None:
    """Refuse, in one line naming both folders and the field, two runs whose game ``i`` is not
    the same deal: another seed, distress setting or chunk size, other mission data, or no
    cell in common."""
    for key in DEAL_FIELDS:
        if _normal(a.manifest[key]) != _normal(b.manifest[key]):
            raise CrewsimError(
                f"{a.path} ({key} {a.manifest[key]}) and {b.path} ({key} {b.manifest[key]}) "
                "do not deal the same games; pair runs of one --seed, --distress and chunk size"
            )
    mine, theirs = _records(a), _records(b)
    cells = shared_cells(a, b)
    if not cells:
        raise CrewsimError(f"{a.path} and {b.path} share no mission at a crew size")
    for mission, players in cells:
        if _rules(mine[mission, players]) != _rules(theirs[mission, players]):
            raise CrewsimError(
                f"{a.path} and {b.path} do not play the same missions: the mission data of "
                f"{mission} differ (another scenario file)"
            )


def choose_cells(
    a: Run, b: Run, missions: str | None = None, players: Sequence[int] | None = None
) -> list[tuple[str, int]]:
    """The shared cells, restricted to a mission spec (``pn-1..10``, resolved among the
    runs' shared missions) and crew sizes; one line when nothing or something absent is asked."""
    cells = shared_cells(a, b)
    if missions:
        from crewsim.missions import resolve_missions
        from crewsim.missions.loader import missions_from_records

        records = {m: _records(a)[m, p] for m, p in cells}
        pool = missions_from_records(list(records.values()), str(a.path))
        try:
            wanted = {m.id for m in resolve_missions(missions, pool)}
        except CrewsimError as exc:
            raise CrewsimError(f"runs {a.path} and {b.path}: {exc}") from None
        cells = [c for c in cells if c[0] in wanted]
        if not cells:
            raise CrewsimError(f"{a.path} and {b.path} share none of the missions {missions!r}")
    if players:
        have = {p for _, p in cells}
        absent = [p for p in players if p not in have]
        if absent:
            raise CrewsimError(f"{a.path} and {b.path} share no games at {absent[0]} players")
        cells = [c for c in cells if c[1] in players]
    return cells


def paired_games(a: Run, b: Run) -> pl.DataFrame:
    """Both crews' outcome of each deal both runs hold (``success_a``, ``success_b``): the
    first min(n_A, n_B) games of each shared cell."""
    n = min(a.games_per_cell, b.games_per_cell)
    return (
        game_outcomes(a, n)
        .join(game_outcomes(b, n), on=["mission", "players", "game"], how="inner", suffix="_b")
        .rename({"success": "success_a"})
    )


def cell_rows(run: Run, pairs: pl.DataFrame) -> pl.DataFrame:
    """One ``CELL_SCHEMA`` row per cell of ``pairs`` (``paired_games``), in its order."""
    counts = pairs.group_by("players", "mission", maintain_order=True).agg(
        pl.len().alias("games"),
        (pl.col("success_a") & pl.col("success_b")).sum().alias("both"),
        (pl.col("success_a") & ~pl.col("success_b")).sum().alias("only_a"),
        (~pl.col("success_a") & pl.col("success_b")).sum().alias("only_b"),
    )
    rows = []
    for r in counts.iter_rows(named=True):
        n, both, only_a, only_b = (int(r[k]) for k in ("games", "both", "only_a", "only_b"))
        p = Paired(n, both, only_a, only_b, n - both - only_a - only_b)
        low, high = p.difference_ci()
        rows.append(
            {
                "players": r["players"],
                "mission": r["mission"],
                "number": run.number(r["mission"]),
                "games": n,
                "wins_a": both + only_a,
                "wins_b": both + only_b,
                "only_a": only_a,
                "only_b": only_b,
                "rate_a": p.rate_a,
                "rate_b": p.rate_b,
                "difference": p.difference,
                "difference_low": low,
                "difference_high": high,
                "mcnemar_p": p.mcnemar_p(),
            }
        )
    return pl.DataFrame(rows, schema=CELL_SCHEMA)


def compare_runs(
    run_a: Run | Path,
    run_b: Run | Path,
    missions: str | None = None,
    players: Sequence[int] | None = None,
) -> RunComparison:
    """Crew A against crew B on the deals both runs played (the first min(n_A, n_B) of each
    shared cell, or of those ``missions`` and ``players`` pick); a run or its folder each."""
    a = run_a if isinstance(run_a, Run) else load_run(run_a)
    b = run_b if isinstance(run_b, Run) else load_run(run_b)
    check_pairable(a, b)
    cells = choose_cells(a, b, missions, players)
    order = pl.DataFrame(
        {
            "mission": [m for m, _ in cells],
            "players": [p for _, p in cells],
            "order": list(range(len(cells))),
        },
        schema={"mission": pl.String, "players": pl.Int64, "order": pl.Int64},
    )
    pairs = paired_games(a, b).join(order, on=["mission", "players"], how="inner")
    table = cell_rows(a, pairs.sort("players", "order", "game"))
    agreement, moves = rank_agreement(table, "rate_a", "rate_b")
    n = min(a.games_per_cell, b.games_per_cell)
    return RunComparison(a, b, n, table, agreement, moves)
