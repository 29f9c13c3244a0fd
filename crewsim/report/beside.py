"""The report's section "The crews side by side": another run's crew beside this run's.

The numbers come from ``analysis.beside``; this module words them (which crew is which, on
which deals, what the ceiling is) and writes ``tables/beside.*`` and ``beside_agreement.*``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import polars as pl

from crewsim.analysis.beside import CEILING_KEEP, EFFICIENCY, OTHER_EFFICIENCY, Beside
from crewsim.report.document import Block, Fold, Heading, Para, Table
from crewsim.report.format import moves_text, pct_ci, pp_ci, rho_ci, rule
from crewsim.runs.csv_out import write_csv

TABLES = ("beside", "beside_agreement")

COLUMNS = (
    "players",
    "mission",
    "number",
    "games",
    "success_rate",
    "ci_low",
    "ci_high",
    "other_games",
    "other_success_rate",
    "other_ci_low",
    "other_ci_high",
    "shared_games",
    "difference",
    "difference_low",
    "difference_high",
    "mcnemar_p",
    "rank",
    "other_rank",
    "ceiling_from",
    *CEILING_KEEP,
    *EFFICIENCY,
    *OTHER_EFFICIENCY,
)


def write_tables(side: Beside, folder: Path) -> None:
    """``beside`` (a row per mission and crew size, both crews) and ``beside_agreement``."""
    for name, df in (("beside", side.cells.select(COLUMNS)), ("beside_agreement", side.agreement)):
        write_csv(df, folder / f"{name}.csv")
        df.write_parquet(folder / f"{name}.parquet")


def crew_names(side: Beside) -> tuple[str, str]:
    """How the text names the two crews: their bot names, told apart by run when alike."""
    a, b = side.run.bot, side.other.bot
    return (a, b) if a != b else (f"{a} (this run)", f"{b} (other run)")


def has_ceiling(side: Beside) -> bool:
    return bool(side.cells["ceiling_games"].drop_nulls().sum())


def section(side: Beside) -> list[Block]:
    """The section's blocks: what is compared, then a table and the rank agreement per crew
    size."""
    blocks: list[Block] = [
        Heading(2, "The crews side by side", "beside"),
        Para(_intro(side)),
    ]
    if has_ceiling(side):
        blocks.append(Para(_ceiling_note(side)))
    agreement = {r["players"]: r for r in side.agreement.iter_rows(named=True)}
    for p in side.cells["players"].unique(maintain_order=True).to_list():
        table = _table(side, p)
        blocks += [
            Heading(3, f"{p} players", f"beside-{p}p"),
            Fold(f"Table: both crews on all {len(table.rows)} missions at {p} players", (table,)),
        ]
        if p in agreement:
            blocks.append(Para(_agreement(side, agreement[p])))
    return blocks


def _intro(side: Beside) -> str:
    run, other = side.run, side.other
    this, that = crew_names(side)
    shared = min(run.games_per_cell, other.games_per_cell)
    return (
        f"This run's crew is `{this}`, on {run.games_per_cell:,} games per mission and crew "
        f"size. Beside it, the `{that}` crew of the run `{other.path}`, on its own "
        f"{other.games_per_cell:,}. The first {shared:,} deals of each cell are the very same "
        f"in both runs (root seed {run.seed}, distress signal {run.distress}, the same chunks). "
        "Each success rate has its 95 % Wilson interval over its own crew's games. The "
        f"difference ({this} minus {that}) pairs the two crews deal by deal on the deals both "
        "played, which cancels the luck of the deal (Newcombe's paired interval; McNemar's "
        "exact p-value is in `tables/beside.csv`). A cell the other run did not play shows -."
    )


def _ceiling_note(side: Beside) -> str:
    this, that = crew_names(side)
    sources = set(side.cells["ceiling_from"].drop_nulls().to_list())
    where = (
        "this run"
        if sources == {"this"}
        else "the other run"
        if sources == {"other"}
        else "this run where it has one, else the other"
    )
    return (
        "Feasible: the perfect-information ceiling, taken from "
        f"{where}: the share of the first deals of each cell (the 'solved' count in "
        "`tables/beside.csv`) that a solver seeing every hand proves winnable. It is perfect "
        "information, not a crew: no crew seeing only its own hand can beat it. Bot "
        f"efficiency, for `{this}` and for `{that}`: the share of those winnable deals the "
        "crew won; its interval also spans the deals the solver left open. A crew whose run "
        "has no ceiling is measured on the other run's, by its wins on the same deals; the "
        "solver took each deal as the crew of that run set it up (who took which task, the "
        "cards passed). Where the other crew set a deal up otherwise (the search crew searches "
        "its own draft, answers and selection), its efficiency there is measured against "
        "another set-up's ceiling: it may lose a deal that set-up wins, or win one it cannot. "
        "A crew that played fewer games than were solved shows -."
    )


def _agreement(side: Beside, r: dict[str, Any]) -> str:
    this, that = crew_names(side)
    p, rho = r["players"], r["spearman_rho"]
    moved = side.moves.filter(pl.col("players") == p).iter_rows(named=True)
    if math.isnan(rho):
        agree = f"{r['missions']} missions are too few for Spearman's ρ"
    else:
        alone = " (a perfect order: no interval)" if abs(rho) >= 1 else " (too few missions)"
        agree = (
            f"Spearman's ρ between the two crews' success rates over {r['missions']} missions "
            f"(each on its own games): {rho_ci(rho, r['rho_low'], r['rho_high'], alone)} "
            "(interval: Fisher z)"
        )
    return (
        f"At {p} players, {agree}. The missions whose rank moves most (rank 1: won most "
        f"often): {moves_text(list(moved), this, that)}."
    )


def _table(side: Beside, p: int) -> Table:
    this, that = crew_names(side)
    ceiling = has_ceiling(side)
    header = [
        "mission",
        "rule",
        f"{this} success [95 % CI]",
        f"{that} success [95 % CI]",
        "difference on the shared deals [95 % CI]",
    ]
    if ceiling:
        header += ["solved", "feasible [95 % CI]", f"{this} efficiency", f"{that} efficiency"]
    rows = []
    for r in side.cells.filter(pl.col("players") == p).iter_rows(named=True):
        row = [
            r["mission"],
            rule(side.run, r["mission"], 40),
            pct_ci(r["success_rate"], r["ci_low"], r["ci_high"]),
            *_other(r),
        ]
        if ceiling:
            row += _ceiling_cells(r)
        rows.append(tuple(row))
    return Table(tuple(header), tuple(rows), align="ll" + "r" * (len(header) - 2))


def _other(r: dict[str, Any]) -> list[str]:
    """The other crew's success and the paired difference, or - where it did not play."""
    if r["other_success_rate"] is None:
        return ["-", "-"]
    diff = pp_ci(r["difference"], r["difference_low"], r["difference_high"])
    return [
        pct_ci(r["other_success_rate"], r["other_ci_low"], r["other_ci_high"]),
        f"{diff} on {r['shared_games']:,}",
    ]


def _ceiling_cells(r: dict[str, Any]) -> list[str]:
    if not r["ceiling_games"]:
        return ["-", "-", "-", "-"]
    return [
        f"{r['ceiling_games']:,}",
        pct_ci(r["feasible_share"], r["feasible_low"], r["feasible_high"], 1),
        pct_ci(r["bot_efficiency"], r["efficiency_low"], r["efficiency_high"], 1),
        pct_ci(r["other_bot_efficiency"], r["other_efficiency_low"], r["other_efficiency_high"], 1),
    ]
