"""Honest numbers from game counts: Wilson intervals, expected attempts, failure reasons.

Every rate carries its count and a 95 % interval; the summary of a run is built here, with
polars, from the small per-chunk tables the Monte Carlo driver collects (never from games).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import polars as pl

from crewsim.cards import Game, card_name
from crewsim.kernel.layout import (
    FAIL_CONDITION,
    FAIL_NAMES,
    FAIL_NOT_DONE,
    FAIL_OBJECTIVE,
    FAIL_ORDER,
    FAIL_REASONS,
    FAIL_WRONG_WINNER,
    OBJ_NAMES,
)

Z95 = 1.959963984540054  # two-sided 95 % normal quantile
TOP_FAILURES = 3


def wilson(successes: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial rate: sane at 0 %, 100 % and small counts."""
    if games <= 0:
        return (math.nan, math.nan)
    p, z2 = successes / games, z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no rounding dust
    high = 1.0 if successes == games else min(1.0, centre + half)
    return (low, high)


def share_bounds(hits: int, unknown: int, n: int) -> tuple[float, float]:
    """95 % bounds on a rate when ``unknown`` of the ``n`` trials stay undecided: Wilson's low
    end with every unknown a miss, its high end with every unknown a hit.  No guess about the
    unknowns: they are often the hard, infeasible deals, so leaving them out would flatter."""
    return wilson(hits, n)[0], wilson(hits + unknown, n)[1]


def bot_efficiency(wins: int, feasible: int, unknown: int) -> tuple[float, float, float]:
    """The share of the winnable solved deals the bots won, with a 95 % interval.

    ``wins`` all lie among the ``feasible`` deals (a deal the bots won is winnable, whatever
    the solver said); the ``unknown`` deals the solver left open and the bots lost may be
    winnable too, so the low end counts them in the denominator and the high end does not."""
    est = wins / feasible if feasible else math.nan
    low = wilson(wins, feasible + unknown)[0] if feasible + unknown else math.nan
    high = wilson(wins, feasible)[1] if feasible else math.nan
    return est, low, high


def ceiling_columns(n: int, feasible: int, infeasible: int, wins: int) -> dict[str, Any]:
    """A cell's ceiling columns from its counts on ``n`` solved deals: the feasible share of
    the decided ones (interval: every way the undecided could go), the bots' wins there and
    their efficiency (``bot_efficiency``).  ``feasible`` counts the deals the bots won."""
    decided = feasible + infeasible
    low, high = share_bounds(feasible, n - decided, n)
    eff, eff_low, eff_high = bot_efficiency(wins, feasible, n - decided)
    return {
        "ceiling_games": n,
        "feasible_games": feasible,
        "decided_games": decided,
        "feasible_share": feasible / decided if decided else math.nan,
        "feasible_low": low,
        "feasible_high": high,
        "unknown_share": 1 - decided / n if n else math.nan,
        "ceiling_wins": wins,
        "ceiling_success_rate": wins / n if n else math.nan,
        "bot_efficiency": eff,
        "efficiency_low": eff_low,
        "efficiency_high": eff_high,
    }


CEILING_COLUMNS = tuple(ceiling_columns(0, 0, 0, 0))  # their names, in their order


@dataclass(frozen=True)
class Attempts:
    """Expected attempts a crew logs per mission won, with a 95 % interval."""

    expected: float
    low: float
    high: float


def distress_chance(distress_games: int, distress_successes: int, successes: int) -> float:
    """The chance that a crew sends the distress signal in some attempt before its win.

    Attempts are independent games, played until one is won; the signal's extra attempt is
    logged once per mission (rule 20), whatever the number of attempts that sent it.  With
    ``d`` the share of games that send it and ``c`` that of games won without it, the chance
    that no attempt up to the win sends it is c / (c + d): estimated from the counts."""
    clean = successes - distress_successes
    return distress_games / (distress_games + clean) if distress_games else 0.0


def expected_attempts(
    games: int, successes: int, distress_games: int, distress_successes: int
) -> Attempts:
    """1 / p attempts until a win, plus the one logged for the distress signal when some
    attempt sent it (``distress_chance``).  The interval joins the Wilson bounds of p and of
    that chance at their ends (a little wider than 95 %, never narrower)."""
    if games <= 0:
        return Attempts(math.nan, math.nan, math.nan)
    p_low, p_high = wilson(successes, games)
    q = distress_chance(distress_games, distress_successes, successes)
    q_low, q_high = (
        wilson(distress_games, distress_games + successes - distress_successes)
        if distress_games
        else (0.0, 0.0)
    )
    expected = games / successes + q if successes else math.inf
    low = 1 / p_high + q_low if p_high > 0 else math.inf
    high = 1 / p_low + q_high if p_low > 0 else math.inf
    return Attempts(expected, low, high)


def describe_failure(kind: int, detail: int, trick: int | None, game: Game) -> str:
    """Words for a failure code: ``task pink3 won by the wrong player, trick 4`` (1-based)."""
    where = f", trick {trick + 1}" if trick is not None else ""
    if kind in (FAIL_WRONG_WINNER, FAIL_ORDER, FAIL_NOT_DONE) and 0 <= detail < 40:
        card = card_name(detail, game)
        text = {
            FAIL_WRONG_WINNER: f"task {card} won by the wrong player",
            FAIL_ORDER: f"task {card}: order broken",
            FAIL_NOT_DONE: f"task {card} not completed",
        }[kind]
        return text + where
    if kind == FAIL_OBJECTIVE:
        name = OBJ_NAMES.get(detail, f"#{detail}").replace("_", " ")
        return f"objective '{name}' failed" + where
    if kind == FAIL_CONDITION:
        from crewsim.missions import load_task_cards

        cards = load_task_cards()
        name = cards[detail - 1].ref_id if 1 <= detail <= len(cards) else "?"
        return f"task card {detail} ({name}) failed" + where
    return f"{FAIL_NAMES.get(kind, f'failure kind {kind}')} (detail {detail})" + where


@dataclass(frozen=True)
class FailureReason:
    """One of a cell's top failure reasons, as data: tables, CSV and JSON carry these fields,
    and only a display (``report.format.failure_sentence``) turns them into words."""

    kind: str  # the referee's code (``kernel.layout.FAIL_REASONS``): wrong_winner, order, ...
    card: str  # the task's card (pink3), a Deep Sea task card's ref_id; "" for several or none
    trick: int  # the trick (from 1) where it struck most often
    trick_share: float  # the share of its failures struck there (1.0: always there)
    share: float  # the share of the cell's games that failed so


FAILURE_FIELDS: dict[str, pl.DataType | type[pl.DataType]] = {
    "kind": pl.String,
    "card": pl.String,
    "trick": pl.Int64,
    "trick_share": pl.Float64,
    "share": pl.Float64,
}
FAILURE_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    f"failure{k}_{name}": dtype
    for k in range(1, TOP_FAILURES + 1)
    for name, dtype in FAILURE_FIELDS.items()
}
"""A summary's failure columns: reason 1 (the most frequent) to TOP_FAILURES, null when a
cell has fewer; ``failure1_kind`` is the first reason's ``FailureReason.kind``."""
FAILURE_COLUMNS = tuple(FAILURE_SCHEMA)


def reason_card(kind: int, detail: int | None, game: Game) -> str:
    """The card a reason names: the task's card, or the Deep Sea task card's ref_id; "" for a
    whole kind (several cards) and for an objective (a mission has one, named by its rule)."""
    if detail is None:
        return ""
    if kind in (FAIL_WRONG_WINNER, FAIL_ORDER, FAIL_NOT_DONE) and 0 <= detail < 40:
        return card_name(detail, game)
    if kind == FAIL_CONDITION:
        from crewsim.missions import load_task_cards

        cards = load_task_cards()
        return cards[detail - 1].ref_id if 1 <= detail <= len(cards) else ""
    return ""


def _ranked_reasons(failures: pl.DataFrame, k: int) -> pl.DataFrame:
    """The ``k`` most frequent (kind, detail) pairs and whole kinds (detail null) by games."""
    by_detail = failures.group_by("kind", "detail").agg(pl.col("count").sum().alias("total"))
    by_kind = (
        by_detail.group_by("kind")
        .agg(pl.col("total").sum(), pl.len().alias("details"))
        .filter(pl.col("details") > 1)
        .select("kind", pl.lit(None, pl.Int64).alias("detail"), "total")
    )
    return (
        pl.concat([by_kind, by_detail.cast({"detail": pl.Int64, "total": pl.Int64})])
        .cast({"kind": pl.Int64, "total": pl.Int64})
        .sort(["total", "kind", "detail"], descending=[True, False, False], nulls_last=False)
        .head(k)
    )


def _top_trick(failures: pl.DataFrame, kind: int, detail: int | None) -> tuple[int, int]:
    """The trick (from 0) where a reason struck most often (the earliest of a tie), and how
    many of its games failed there."""
    mine = failures.filter(pl.col("kind") == kind)
    if detail is not None:
        mine = mine.filter(pl.col("detail") == detail)
    per_trick = mine.group_by("trick").agg(pl.col("count").sum())
    top = per_trick.sort(["count", "trick"], descending=[True, False]).row(0, named=True)
    return int(top["trick"]), int(top["count"])


def top_failures(
    failures: pl.DataFrame, games: int, game: Game, k: int = TOP_FAILURES
) -> list[FailureReason]:
    """The ``k`` most frequent failure reasons of one cell with their share of the games, and
    the trick where each struck most often.

    A reason is a (kind, detail) pair, or a whole kind when it failed on several details: the
    task cards of most missions are drawn at random, so "task pink1 won by the wrong player
    (0.6%)" alone would hide that a task went to the wrong player in 10 % of the games.

    ``failures`` has columns kind, detail, trick, count for one mission and player count.
    """
    if failures.is_empty() or games <= 0:
        return []
    out = []
    for kind, detail, total in _ranked_reasons(failures, k).iter_rows():
        trick, there = _top_trick(failures, kind, detail)
        out.append(
            FailureReason(
                kind=FAIL_REASONS.get(kind, f"kind{kind}"),
                card=reason_card(kind, detail, game),
                trick=trick + 1,
                trick_share=there / total,
                share=total / games,
            )
        )
    return out


def failure_columns(reasons: list[FailureReason]) -> dict[str, Any]:
    """A cell's reasons as its summary row's failure columns (``FAILURE_SCHEMA``)."""
    row: dict[str, Any] = dict.fromkeys(FAILURE_COLUMNS)
    for k, reason in enumerate(reasons[:TOP_FAILURES], start=1):
        for name in FAILURE_FIELDS:
            row[f"failure{k}_{name}"] = getattr(reason, name)
    return row


def reasons_of(row: dict[str, Any]) -> list[FailureReason]:
    """A summary row's failure columns back as reasons, the most frequent first (the
    display's way in: a sentence is built from these, never stored)."""
    out = []
    for k in range(1, TOP_FAILURES + 1):
        if row.get(f"failure{k}_kind") is None:
            break
        out.append(FailureReason(**{name: row[f"failure{k}_{name}"] for name in FAILURE_FIELDS}))
    return out


def with_failures(
    summary: pl.DataFrame, failures: pl.DataFrame, games_of: dict[str, Game]
) -> pl.DataFrame:
    """The summary with its failure columns computed from the failure counts (``failures``:
    mission, players, kind, detail, trick, count), in their place if it had them, else last:
    a run folder's failures.parquet is the source, so a folder written before these columns
    (its reasons one sentence, ``top_failures``) reads alike."""
    counts = failures.select("mission", "players", "kind", "detail", "trick", "count")
    cells = counts.partition_by("mission", "players", as_dict=True, include_key=False)
    none = counts.drop("mission", "players").clear()
    rows = []
    for m, p, n in summary.select("mission", "players", "games").iter_rows():
        reasons = top_failures(cells.get((m, p), none), n, games_of[m])
        rows.append({"mission": m, "players": p, **failure_columns(reasons)})
    schema: dict[str, pl.DataType | type[pl.DataType]] = {
        "mission": pl.String,
        "players": summary.schema["players"],
        **FAILURE_SCHEMA,
    }
    kept = [c for c in summary.columns if c != "top_failures"]
    joined = summary.select(c for c in kept if c not in FAILURE_SCHEMA).join(
        pl.DataFrame(rows, schema=schema),
        on=["mission", "players"],
        how="left",
        maintain_order="left",
    )
    return joined.select(kept) if set(FAILURE_COLUMNS) <= set(kept) else joined


SUMMARY_SCHEMA = {
    "mission": pl.String,
    "players": pl.Int64,
    "bot": pl.String,
    "games": pl.Int64,
    "successes": pl.Int64,
    "success_rate": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "expected_attempts": pl.Float64,
    "attempts_low": pl.Float64,
    "attempts_high": pl.Float64,
    "distress_games": pl.Int64,
    "distress_successes": pl.Int64,
    "distress_share": pl.Float64,
}
"""A summary row per cell, as ``summarise`` writes it before its failure columns
(``FAILURE_SCHEMA``; ``runs.montecarlo`` adds the set-up shares, ``runs.ceiling`` the ceiling)."""


def summarise(cells: pl.DataFrame, bot: str) -> pl.DataFrame:
    """One row per mission x players from chunk counts (the failure columns come last, from
    ``with_failures``, as a run folder is read).

    ``cells``: mission, players, games, successes, distress_games, distress_successes (one
    row per chunk).
    """
    totals = cells.group_by("mission", "players", maintain_order=True).agg(
        pl.col("games", "successes", "distress_games", "distress_successes").sum()
    )
    rows = []
    for r in totals.iter_rows(named=True):
        n, s, d = int(r["games"]), int(r["successes"]), int(r["distress_games"])
        ds = int(r["distress_successes"])
        low, high = wilson(s, n)
        att = expected_attempts(n, s, d, ds)
        rows.append(
            {
                "mission": r["mission"],
                "players": int(r["players"]),
                "bot": bot,
                "games": n,
                "successes": s,
                "success_rate": s / n if n else math.nan,
                "ci_low": low,
                "ci_high": high,
                "expected_attempts": att.expected,
                "attempts_low": att.low,
                "attempts_high": att.high,
                "distress_games": d,
                "distress_successes": ds,
                "distress_share": d / n if n else math.nan,
            }
        )
    return pl.DataFrame(rows, schema=SUMMARY_SCHEMA)


@dataclass(frozen=True)
class Correlation:
    """Spearman's rank correlation with an approximate 95 % interval."""

    rho: float
    low: float
    high: float
    n: int


def spearman(x: list[float], y: list[float]) -> Correlation:
    """Spearman's rho (Pearson on average ranks, so ties are handled) with a Fisher-z interval.

    The interval uses the standard error sqrt(1.06 / (n - 3)) of Fieller, Hartley & Pearson
    (1957), the usual large-sample approximation for rank correlations; below 4 pairs there is
    no interval and below 3 no correlation at all.
    """
    n = len(x)
    if n != len(y):
        raise ValueError("x and y must have the same length")
    if n < 3:
        return Correlation(math.nan, math.nan, math.nan, n)
    df = pl.DataFrame({"x": x, "y": y}).select(
        pl.col("x").rank("average"), pl.col("y").rank("average")
    )
    rho = df.select(pl.corr("x", "y")).item()
    if rho is None or math.isnan(rho):
        return Correlation(math.nan, math.nan, math.nan, n)
    if n < 4 or abs(rho) >= 1:
        return Correlation(float(rho), math.nan, math.nan, n)
    z, se = math.atanh(rho), math.sqrt(1.06 / (n - 3))
    return Correlation(float(rho), math.tanh(z - Z95 * se), math.tanh(z + Z95 * se), n)
