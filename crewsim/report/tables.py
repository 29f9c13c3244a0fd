"""The tables a report is made of: ranking, logbook, failure tricks, rank correlations.

All of them are polars frames computed from a loaded run (never from re-simulation), written
as CSV for spreadsheets and Parquet for notebooks, and rendered by the Markdown/HTML writers.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from crewsim.kernel.layout import FAIL_NAMES
from crewsim.runs.reader import Run, ceiling
from crewsim.runs.stats import FAILURE_COLUMNS, spearman
from crewsim.runs.stopping import Tally, overlapping

RANKING_COLUMNS = (
    "players",
    "rank",
    "mission",
    "number",
    "games",
    "successes",
    "success_rate",
    "ci_low",
    "ci_high",
    "expected_attempts",
    "attempts_low",
    "attempts_high",
    "distress_share",
)
CEILING_RANK_COLUMNS = (
    "ceiling_games",
    "feasible_share",
    "feasible_low",
    "feasible_high",
    "unknown_share",
    "ceiling_wins",
    "ceiling_success_rate",
    "bot_efficiency",
    "efficiency_low",
    "efficiency_high",
)
FAIL_KIND_LABELS = {k: v for k, v in FAIL_NAMES.items() if k}
LOGBOOK_DRAWS = 20_000  # bootstrap draws for the running total's interval
LOGBOOK_SEED = 20_261_201


def ranking(run: Run) -> pl.DataFrame:
    """Missions from easiest (rank 1) to hardest, per player count.

    Sorted by success rate, equal rates by logbook number so the order is stable; ``tied``
    marks a mission whose interval overlaps a neighbour's (the games may not settle their
    order).  The ceiling columns (solved deals, feasible share with its interval, the bots'
    wins on those deals and their efficiency: the share of the winnable solved deals they won,
    with its interval) appear only when the run has the solver's verdicts;
    ``printed_difficulty`` only for missions that print one.
    """
    s = run.summary.with_columns(
        pl.col("mission").map_elements(run.number, return_dtype=pl.Int64).alias("number")
    )
    cols = list(RANKING_COLUMNS)
    ceil = ceiling(run)
    if ceil is not None:
        stale = [c for c in ceil.columns if c in s.columns and c not in ("mission", "players")]
        s = s.drop(stale).join(ceil, on=["mission", "players"], how="left")
        cols += CEILING_RANK_COLUMNS
    printed = {
        (m, p): v for m, info in run.missions.items() for p, v in info.printed_difficulty.items()
    }
    if printed:
        s = s.with_columns(
            pl.struct("mission", "players")
            .map_elements(
                lambda r: printed.get((r["mission"], r["players"])), return_dtype=pl.Int64
            )
            .alias("printed_difficulty")
        )
        cols.append("printed_difficulty")
    if "stopped" in s.columns:  # why the cell stopped playing (``runs.stopping``)
        cols.append("stopped")
    cols += FAILURE_COLUMNS
    s = s.sort(["players", "success_rate", "number"], descending=[False, True, False])
    s = s.with_columns(pl.int_range(1, pl.len() + 1).over("players").alias("rank"))
    tied: list[bool] = []  # the rule `rank --separate` plays by, on rows in rank order
    for p in s["players"].unique(maintain_order=True):
        rows = s.filter(pl.col("players") == p).select("games", "successes").rows()
        tied += overlapping([Tally(int(n), int(w)) for n, w in rows])
    s = s.with_columns(pl.Series("tied", tied, pl.Boolean))
    return s.select(cols[:2] + ["tied"] + cols[2:])


def solved_deals(rank: pl.DataFrame) -> str:
    """The deals the ceiling solved per cell, ``100`` (or ``60-100`` if the cells differ)."""
    n = rank.filter(pl.col("ceiling_games") > 0)["ceiling_games"].to_list()
    if not n:
        return "0"
    return f"{min(n):,}" if min(n) == max(n) else f"{min(n):,}-{max(n):,}"


def hardest(rank: pl.DataFrame, players: int, k: int = 10) -> pl.DataFrame:
    """The ``k`` hardest missions at one player count, hardest first."""
    return rank.filter(pl.col("players") == players).sort("rank", descending=True).head(k)


def order_correlations(run: Run) -> pl.DataFrame:
    """Per player count: does simulated difficulty follow the printed one, or the logbook order?

    Deep Sea prints a difficulty, so its success rate is set against that (a fair rating gives a
    strongly negative rho).  Planet Nine prints none; the logbook order is the designers' implied
    ranking, so success is set against the mission number instead (negative = the campaign gets
    harder as it goes).
    """
    rows = []
    for game in run.games:
        for p in run.players:
            part = run.summary.filter(pl.col("players") == p)
            part = part.filter(pl.col("mission").is_in(run.missions_of(game)))
            if game == "deep-sea":
                pairs = [
                    (float(run.missions[m].printed_difficulty[p]), r)
                    for m, r in zip(part["mission"], part["success_rate"], strict=True)
                    if p in run.missions[m].printed_difficulty
                ]
                against = "printed difficulty"
            else:
                pairs = [
                    (float(run.number(m)), r)
                    for m, r in zip(part["mission"], part["success_rate"], strict=True)
                ]
                against = "logbook number"
            c = spearman([a for a, _ in pairs], [b for _, b in pairs])
            rows.append(
                {
                    "game": game,
                    "players": p,
                    "success_rate_vs": against,
                    "missions": c.n,
                    "spearman_rho": c.rho,
                    "rho_low": c.low,
                    "rho_high": c.high,
                }
            )
    schema = {
        "game": pl.String,
        "players": pl.Int64,
        "success_rate_vs": pl.String,
        "missions": pl.Int64,
        "spearman_rho": pl.Float64,
        "rho_low": pl.Float64,
        "rho_high": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)


def logbook(run: Run, draws: int = LOGBOOK_DRAWS) -> pl.DataFrame:
    """Expected attempts per mission in logbook order and their running total per game (each
    box is its own campaign) and player count.

    The running total is what a crew playing the campaign straight through should expect to
    write in its logbook.  Its 95 % interval comes from a parametric bootstrap: each mission's
    success rate (and its chance of a distress call before the win) is drawn from its Jeffreys
    posterior, the attempts ``stats.expected_attempts`` gives are summed, and the 2.5 / 97.5
    percentiles of the sums are the bounds.  A rarely won mission makes the sum skewed to the
    right, which a symmetric (delta-method) interval misses.  A mission no game won makes the
    total and its upper bound unbounded; its own (Wilson) lower bound still adds to the total's
    lower bound.  The draws come from a fixed seed: the same run gives the same report.
    """
    s = run.summary.with_columns(
        pl.col("mission").map_elements(run.number, return_dtype=pl.Int64).alias("number")
    ).sort("players", "number")
    rng = np.random.default_rng(LOGBOOK_SEED)
    rows = []
    for game, p in campaigns(run):
        sums, total, unwon_low, unwon = np.zeros(draws), 0.0, 0.0, False
        part = s.filter((pl.col("players") == p) & pl.col("mission").is_in(run.missions_of(game)))
        for r in part.iter_rows(named=True):
            n, k = r["games"], r["successes"]
            d, clean = r["distress_games"], r["successes"] - r["distress_successes"]
            if k == 0:
                unwon, unwon_low = True, unwon_low + r["attempts_low"]
            else:
                total += r["expected_attempts"]
                sums += 1 / rng.beta(k + 0.5, n - k + 0.5, draws)
                if d:
                    sums += rng.beta(d + 0.5, clean + 0.5, draws)
            low, high = np.percentile(sums, [2.5, 97.5]) if total else (0.0, 0.0)
            rows.append(
                {
                    "game": game,
                    "players": p,
                    "mission": r["mission"],
                    "number": r["number"],
                    "expected_attempts": r["expected_attempts"],
                    "attempts_low": r["attempts_low"],
                    "attempts_high": r["attempts_high"],
                    "cumulative_attempts": math.inf if unwon else total,
                    "cumulative_low": float(low) + unwon_low,
                    "cumulative_high": math.inf if unwon else float(high),
                }
            )
    schema = {
        "game": pl.String,
        "players": pl.Int64,
        "mission": pl.String,
        "number": pl.Int64,
        "expected_attempts": pl.Float64,
        "attempts_low": pl.Float64,
        "attempts_high": pl.Float64,
        "cumulative_attempts": pl.Float64,
        "cumulative_low": pl.Float64,
        "cumulative_high": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)


def fail_tricks(run: Run) -> pl.DataFrame:
    """Failed games by the trick (1-based) on which they failed, per player count and kind.

    ``share`` is the fraction of all failed games at that player count, so each player count's
    shares add up to 1 over tricks and kinds: the shape of *when* missions are lost.
    """
    f = run.failures
    if f.is_empty():
        return pl.DataFrame(
            schema={
                "players": pl.Int64,
                "trick": pl.Int64,
                "kind": pl.Int64,
                "reason": pl.String,
                "failed_games": pl.Int64,
                "share": pl.Float64,
            }
        )
    out = (
        f.group_by("players", "trick", "kind")
        .agg(pl.col("count").sum().alias("failed_games"))
        .with_columns(
            (pl.col("trick").cast(pl.Int64) + 1).alias("trick"),
            pl.col("kind").cast(pl.Int64),
            (pl.col("failed_games") / pl.col("failed_games").sum().over("players")).alias("share"),
        )
        .with_columns(
            pl.col("kind")
            .replace_strict(FAIL_KIND_LABELS, default="other", return_dtype=pl.String)
            .alias("reason")
        )
        .sort("players", "trick", "kind")
    )
    return out.select("players", "trick", "kind", "reason", "failed_games", "share")


def campaigns(run: Run) -> list[tuple[str, int]]:
    """(game, players) of every campaign in the run, game by game: a run may mix both boxes,
    whose missions share logbook numbers but never a campaign."""
    have = set(run.summary.select("mission", "players").iter_rows())
    return [
        (g, p)
        for g in run.games
        for p in run.players
        if any((m, p) in have for m in run.missions_of(g))
    ]


def headline(run: Run, rank: pl.DataFrame) -> pl.DataFrame:
    """Per game and player count: missions, median success, easiest and hardest mission."""
    rows = []
    for game, p in campaigns(run):
        mine = pl.col("mission").is_in(run.missions_of(game))
        part = rank.filter((pl.col("players") == p) & mine).sort("rank")
        if part.is_empty():
            continue
        easiest, hardest_row = part.row(0, named=True), part.row(-1, named=True)
        median = part["success_rate"].median()
        median = float(median) if isinstance(median, int | float) else math.nan
        rows.append(
            {
                "game": game,
                "players": p,
                "missions": part.height,
                "median_success_rate": median,
                "easiest": easiest["mission"],
                "easiest_rate": easiest["success_rate"],
                "hardest": hardest_row["mission"],
                "hardest_rate": hardest_row["success_rate"],
            }
        )
    return pl.DataFrame(rows)
