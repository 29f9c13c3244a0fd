"""Another crew beside a run's: each crew's success on its own games, the perfect-information
ceiling either run solved, and both crews' efficiency on it.

The other run plays the same deals (``analysis.run_pairs``), typically fewer: its success is
over the very first deals of each cell, and so is the ceiling (``runs.ceiling`` solves a cell's
first deals).  A run without a ceiling still gets its crew's efficiency from the other run's:
its wins on those same deals, read game by game, against the deals proven winnable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from crewsim.analysis.agreement import rank_agreement, ranks
from crewsim.analysis.run_pairs import cell_rows, check_pairable, paired_games
from crewsim.runs.reader import Run, ceiling, game_outcomes, load_run
from crewsim.runs.stats import bot_efficiency

CEILING_KEEP = (
    "ceiling_games",
    "feasible_games",
    "decided_games",
    "feasible_share",
    "feasible_low",
    "feasible_high",
    "unknown_share",
)
EFFICIENCY = ("bot_efficiency", "efficiency_low", "efficiency_high")
OTHER_EFFICIENCY = tuple(f"other_{c}" for c in EFFICIENCY)


@dataclass(frozen=True)
class Beside:
    """``other``'s crew beside ``run``'s: ``cells`` per mission and crew size of ``run``
    (``beside_cells``), the rank ``agreement`` per crew size and the missions that move most
    (``analysis.agreement``, crew A: this run's)."""

    run: Run
    other: Run
    cells: pl.DataFrame
    agreement: pl.DataFrame
    moves: pl.DataFrame


def side_by_side(run: Run, other: Run | Path) -> Beside:
    """The other run's crew beside this run's; runs that do not deal the same games are
    refused in one line (``run_pairs.check_pairable``)."""
    other = other if isinstance(other, Run) else load_run(other)
    check_pairable(run, other)
    cells = beside_cells(run, other)
    agreement, moves = rank_agreement(cells, "success_rate", "other_success_rate")
    return Beside(run, other, cells, agreement, moves)


def beside_cells(run: Run, other: Run) -> pl.DataFrame:
    """Per cell of ``run``: both crews' success rates with Wilson intervals (each on its own
    games), the paired difference on the deals both played, each crew's rank among the
    missions, the ceiling (``ceiling_from``: "this" or "other" run) and both efficiencies."""
    rates = ("games", "success_rate", "ci_low", "ci_high")
    mine = run.summary.select("players", "mission", *rates).with_columns(
        pl.col("players").cast(pl.Int64),
        pl.col("mission").map_elements(run.number, return_dtype=pl.Int64).alias("number"),
    )
    theirs = other.summary.select(
        pl.col("players").cast(pl.Int64), "mission", *(pl.col(c).alias(f"other_{c}") for c in rates)
    )
    pairs = cell_rows(run, paired_games(run, other)).select(
        "players",
        "mission",
        pl.col("games").alias("shared_games"),
        "difference",
        "difference_low",
        "difference_high",
        "mcnemar_p",
    )
    cells = (
        mine.join(theirs, on=["players", "mission"], how="left", maintain_order="left")
        .join(pairs, on=["players", "mission"], how="left", maintain_order="left")
        .sort("players", "number", maintain_order=True)
    )
    rank = ranks(cells.drop_nulls("other_success_rate"), "success_rate", "other_success_rate")
    cells = cells.join(
        rank.select(
            "players",
            "mission",
            pl.col("rank_a").alias("rank"),
            pl.col("rank_b").alias("other_rank"),
        ),
        on=["players", "mission"],
        how="left",
        maintain_order="left",
    )
    return cells.join(
        ceilings(run, other), on=["players", "mission"], how="left", maintain_order="left"
    )


def efficiency_on(row: dict[str, Any], wins: int | None) -> tuple[float, float, float]:
    """A crew's efficiency on a ceiling solved in the other run: ``wins`` on the same deals
    (None: it played fewer).  Every deal it won is winnable, so a won deal the solver left
    open counts as winnable, as ``runs.ceiling`` counts the solving crew's."""
    if wins is None:
        return (math.nan, math.nan, math.nan)
    feasible, n = int(row["feasible_games"]), int(row["ceiling_games"])
    unknown = n - int(row["decided_games"])
    known = max(feasible, wins)
    return bot_efficiency(wins, known, max(unknown - (known - feasible), 0))


def ceilings(run: Run, other: Run) -> pl.DataFrame:
    """Per cell either run solved: the ceiling (this run's first), this crew's efficiency
    and the other crew's, each from its own run's ceiling where it has one."""
    own = {"this": _solved(run), "other": _solved(other)}
    solved = own["other"] | own["this"]
    effs = {
        name: _efficiencies(crew, own[name], solved)
        for name, crew in (("this", run), ("other", other))
    }
    rows = []
    for key, row in sorted(solved.items()):
        rows.append(
            {
                "players": key[0],
                "mission": key[1],
                "ceiling_from": "this" if key in own["this"] else "other",
            }
            | {c: row[c] for c in CEILING_KEEP}
            | dict(zip(EFFICIENCY, effs["this"][key], strict=True))
            | dict(zip(OTHER_EFFICIENCY, effs["other"][key], strict=True))
        )
    schema: dict[str, Any] = {"players": pl.Int64, "mission": pl.String, "ceiling_from": pl.String}
    schema |= {c: pl.Int64 if c.endswith("games") else pl.Float64 for c in CEILING_KEEP}
    schema |= {c: pl.Float64 for c in (*EFFICIENCY, *OTHER_EFFICIENCY)}
    return pl.DataFrame(rows, schema=schema)


Cells = dict[tuple[int, str], dict[str, Any]]  # (players, mission) -> a ceiling row


def _solved(run: Run) -> Cells:
    """The run's ceiling rows by (players, mission), the cells it solved only."""
    c = ceiling(run)
    if c is None:
        return {}
    return {
        (int(r["players"]), r["mission"]): r
        for r in c.filter(pl.col("ceiling_games") > 0).iter_rows(named=True)
    }


def _efficiencies(
    crew: Run, own: Cells, solved: Cells
) -> dict[tuple[int, str], tuple[float, float, float]]:
    """A crew's efficiency in each solved cell: from its own run's ceiling where it has one,
    else from its wins on the deals the other run solved (``efficiency_on``)."""
    out = {
        key: (row["bot_efficiency"], row["efficiency_low"], row["efficiency_high"])
        for key, row in own.items()
    }
    rest = {key: int(row["ceiling_games"]) for key, row in solved.items() if key not in own}
    wins = _first_wins(crew, rest)
    for key in rest:
        out[key] = efficiency_on(solved[key], wins.get(key))
    return out


def _first_wins(crew: Run, deals: dict[tuple[int, str], int]) -> dict[tuple[int, str], int]:
    """The crew's wins on the first ``deals[cell]`` games of each cell it played that many of."""
    if not deals or crew.games_per_cell < min(deals.values()):
        return {}
    wanted = pl.DataFrame(
        {
            "players": [p for p, _ in deals],
            "mission": [m for _, m in deals],
            "deals": list(deals.values()),
        },
        schema={"players": pl.Int64, "mission": pl.String, "deals": pl.Int64},
    )
    counts = (
        game_outcomes(crew, max(deals.values()))
        .join(wanted, on=["players", "mission"], how="inner")
        .filter(pl.col("game") < pl.col("deals"))
        .group_by("players", "mission", "deals")
        .agg(pl.len().alias("games"), pl.col("success").sum().alias("wins"))
        .filter(pl.col("games") == pl.col("deals"))
    )
    return {(int(r["players"]), r["mission"]): int(r["wins"]) for r in counts.iter_rows(named=True)}
