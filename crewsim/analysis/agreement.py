"""How far two crews rank the missions alike: Spearman's rho and the missions that move most.

A better crew may win more everywhere and still find the same missions hard; where the order
changes, the difficulty a ranking shows is partly the crew's own.  Ranks run from 1, the
mission the crew wins most often; tied rates share their average rank, as in Spearman's rho.
"""

from __future__ import annotations

import polars as pl

from crewsim.runs.stats import spearman

MOVES = 5  # missions whose rank moves most, per crew size

AGREEMENT_SCHEMA = {
    "players": pl.Int64,
    "missions": pl.Int64,
    "spearman_rho": pl.Float64,
    "rho_low": pl.Float64,
    "rho_high": pl.Float64,
}
MOVES_SCHEMA = {
    "players": pl.Int64,
    "mission": pl.String,
    "rank_a": pl.Float64,
    "rank_b": pl.Float64,
    "move": pl.Float64,
}


def ranks(rates: pl.DataFrame, a: str, b: str) -> pl.DataFrame:
    """``players``, ``mission``, each crew's rank (1: won most often) and ``move``, from ``b``'s
    rank to ``a``'s (positive: easier for crew A than for crew B).  Rows keep their order."""
    rank = {c: (-pl.col(c)).rank("average").over("players") for c in (a, b)}
    return rates.select(
        pl.col("players").cast(pl.Int64),
        "mission",
        rank[a].cast(pl.Float64).alias("rank_a"),
        rank[b].cast(pl.Float64).alias("rank_b"),
    ).with_columns((pl.col("rank_b") - pl.col("rank_a")).alias("move"))


def rank_agreement(
    rates: pl.DataFrame, a: str, b: str, moves: int = MOVES
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Per crew size, Spearman's rho of the success rates in columns ``a`` and ``b`` over the
    missions (95 % interval: Fisher z, ``stats.spearman``), and the ``moves`` missions whose
    rank moves most (ties: in the order of ``rates``).  Rows with a missing rate are left out."""
    rates = rates.drop_nulls([a, b]).filter(pl.col(a).is_not_nan() & pl.col(b).is_not_nan())
    rows = []
    for p in sorted(set(rates["players"].to_list())):
        part = rates.filter(pl.col("players") == p)
        c = spearman(part[a].to_list(), part[b].to_list())
        rows.append(
            {
                "players": p,
                "missions": c.n,
                "spearman_rho": c.rho,
                "rho_low": c.low,
                "rho_high": c.high,
            }
        )
    moved = (
        ranks(rates, a, b)
        .filter(pl.col("move") != 0)
        .with_columns(pl.col("move").abs().alias("size"))
        .sort("players", "size", descending=[False, True], maintain_order=True)
        .group_by("players", maintain_order=True)
        .head(moves)
        .drop("size")
    )
    return pl.DataFrame(rows, schema=AGREEMENT_SCHEMA), moved.select(list(MOVES_SCHEMA)).cast(
        MOVES_SCHEMA  # type: ignore[arg-type]
    )
