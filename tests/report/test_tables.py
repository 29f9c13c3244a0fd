"""Ranking, correlations, logbook and failure tables computed from a real (small) run."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from crewsim.errors import CrewsimError
from crewsim.report import tables
from crewsim.runs.reader import ceiling, load_run
from crewsim.runs.stats import spearman

SetCeiling = Callable[[Path, list[tuple[int, int, int, int]]], None]  # conftest's set_ceiling


def test_ranking_runs_from_easiest_to_hardest(small_run: Path) -> None:
    run = load_run(small_run)
    rank = tables.ranking(run)
    assert rank.height == 8 and set(rank["players"]) == {3, 4}
    for p in (3, 4):
        part = rank.filter(pl.col("players") == p).sort("rank")
        assert part["rank"].to_list() == [1, 2, 3, 4]
        rates = part["success_rate"].to_list()
        assert rates == sorted(rates, reverse=True)
        assert (part["ci_low"] <= part["success_rate"]).all()
        assert (part["success_rate"] <= part["ci_high"]).all()
    assert "feasible_share" not in rank.columns and "printed_difficulty" not in rank.columns
    top = tables.hardest(rank, 4, 2)
    assert top["rank"].to_list() == [4, 3]


def test_run_stamp_and_caption(small_run: Path) -> None:
    run = load_run(small_run)
    assert run.seed == 7 and run.bot == "heuristic" and run.games_per_cell == 1200
    assert run.games == ["planet-nine"] and run.players == [3, 4]
    cap = run.caption()
    assert "1,200 games" in cap and "seed 7" in cap and "bot heuristic" in cap
    assert run.number("pn-3") == 3


def test_spearman_known_values() -> None:
    assert spearman([1, 2, 3, 4, 5], [10, 20, 30, 40, 50]).rho == pytest.approx(1.0)
    c = spearman([1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 6, 5])
    assert c.rho == pytest.approx(1 - 6 * 2 / (6 * 35))  # textbook formula, no ties
    assert c.low < c.rho < c.high
    tied = spearman([1, 2, 2, 3], [1, 2, 3, 4])
    assert 0.9 < tied.rho < 1
    assert math.isnan(spearman([1, 2], [2, 1]).rho)


def test_order_correlation_uses_logbook_number_for_planet_nine(small_run: Path) -> None:
    corr = tables.order_correlations(load_run(small_run))
    assert corr["success_rate_vs"].to_list() == ["logbook number"] * 2
    assert corr["missions"].to_list() == [4, 4]
    assert corr["spearman_rho"].is_between(-1, 1).all()


def test_logbook_running_total(small_run: Path) -> None:
    run = load_run(small_run)
    book = tables.logbook(run)
    for p in (3, 4):
        part = book.filter(pl.col("players") == p).sort("number")
        assert part["cumulative_attempts"][-1] == pytest.approx(part["expected_attempts"].sum())
        assert (part["cumulative_low"] <= part["cumulative_attempts"]).all()
        assert part["cumulative_attempts"].is_sorted()


def test_a_mission_never_won_leaves_the_total_a_finite_lower_bound(run_copy: Path) -> None:
    s = pl.read_parquet(run_copy / "summary.parquet")
    first = (pl.col("players") == 4) & (pl.col("mission") == s["mission"][0])
    s.with_columns(
        pl.when(first).then(0).otherwise(pl.col("successes")).alias("successes"),
        pl.when(first)
        .then(math.inf)
        .otherwise(pl.col("expected_attempts"))
        .alias("expected_attempts"),
        pl.when(first).then(40.0).otherwise(pl.col("attempts_low")).alias("attempts_low"),
    ).write_parquet(run_copy / "summary.parquet")
    book = tables.logbook(load_run(run_copy)).filter(pl.col("players") == 4)
    assert book["cumulative_attempts"].is_infinite().all()
    assert book["cumulative_high"].is_infinite().all()
    low = book["cumulative_low"].to_list()
    assert all(40.0 <= x < math.inf for x in low) and low == sorted(low)


def test_logbook_interval_is_skewed_by_a_rarely_won_mission(run_copy: Path) -> None:
    """1 / p of a mission won 3 times in its games is far more likely to be much larger than
    its estimate than much smaller: the running total's interval reaches further up than
    down (a symmetric delta-method interval did not), and a rebuilt report draws the same."""
    s = pl.read_parquet(run_copy / "summary.parquet")
    rare = (pl.col("players") == 4) & (pl.col("mission") == s["mission"][0])
    s.with_columns(
        pl.when(rare).then(3).otherwise(pl.col("successes")).alias("successes"),
        pl.when(rare).then(0).otherwise(pl.col("distress_games")).alias("distress_games"),
        pl.when(rare).then(0).otherwise(pl.col("distress_successes")).alias("distress_successes"),
        pl.when(rare)
        .then(pl.col("games") / 3)
        .otherwise(pl.col("expected_attempts"))
        .alias("expected_attempts"),
    ).write_parquet(run_copy / "summary.parquet")
    run = load_run(run_copy)
    book = tables.logbook(run).filter(pl.col("players") == 4).sort("number")
    last = book.row(-1, named=True)
    total, low, high = (
        last[k] for k in ("cumulative_attempts", "cumulative_low", "cumulative_high")
    )
    assert low < total < high
    assert high - total > 1.5 * (total - low)
    assert tables.logbook(run).equals(tables.logbook(run))


def test_ranks_whose_intervals_overlap_a_neighbour_are_marked_tied(small_run: Path) -> None:
    rank = tables.ranking(load_run(small_run))
    for p in (3, 4):
        part = rank.filter(pl.col("players") == p).sort("rank")
        lo, hi, tied = (part[c].to_list() for c in ("ci_low", "ci_high", "tied"))
        for i in range(len(lo)):
            overlaps = (i > 0 and hi[i] >= lo[i - 1]) or (i + 1 < len(lo) and lo[i] <= hi[i + 1])
            assert tied[i] == overlaps


def test_a_cell_the_solver_left_wholly_open_is_not_read_as_infeasible(
    run_copy: Path, set_ceiling: SetCeiling
) -> None:
    set_ceiling(run_copy, [(200, 0, 0, 0)] * 8)
    row = ceiling(load_run(run_copy)).row(0, named=True)  # type: ignore[union-attr]
    assert row["decided_games"] == 0 and row["unknown_share"] == 1.0
    assert (row["feasible_low"], row["feasible_high"]) == (0.0, 1.0)


def test_the_ranking_shows_the_ceiling_the_summary_carries(
    run_copy: Path, set_ceiling: SetCeiling
) -> None:
    """`simulate --ceiling` solves the first deals: the bots' wins there over the winnable
    ones is their efficiency; a cell the solver could not judge counts no deal."""
    set_ceiling(run_copy, [(100, 80, 20, 60)] * 7 + [(0, 0, 0, 0)])
    rank = tables.ranking(load_run(run_copy))
    judged = rank.filter(pl.col("ceiling_games") > 0)
    assert judged.height == 7
    assert judged["feasible_share"].to_list() == pytest.approx([0.8] * 7)
    assert judged["bot_efficiency"].to_list() == pytest.approx([0.75] * 7)
    assert (judged["efficiency_low"] <= judged["bot_efficiency"]).all()
    assert rank.filter(pl.col("ceiling_games") == 0)["feasible_share"].is_nan().all()


def test_fail_tricks_shares_add_up(small_run: Path) -> None:
    ft = tables.fail_tricks(load_run(small_run))
    sums = ft.group_by("players").agg(pl.col("share").sum())
    assert sums["share"].to_list() == pytest.approx([1.0, 1.0])
    assert ft["trick"].min() >= 1 and ft.filter(pl.col("players") == 4)["trick"].max() <= 10


def test_printed_difficulty_for_deep_sea_records(run_copy: Path) -> None:
    """Deep Sea records carry a printed difficulty; the ranking and correlation use it."""
    path = run_copy / "manifest.json"
    manifest = json.loads(path.read_text())
    for cell in manifest["cells"]:
        cell["mission_record"]["game"] = "deep-sea"
        cell["mission_record"]["difficulty"] = cell["mission_record"]["number"] + 2
    path.write_text(json.dumps(manifest))
    run = load_run(run_copy)
    rank = tables.ranking(run)
    assert dict(zip(rank["mission"], rank["printed_difficulty"], strict=True))["pn-2"] == 4
    corr = tables.order_correlations(run)
    assert corr["success_rate_vs"].to_list() == ["printed difficulty"] * 2


def test_missing_or_partial_run_folder_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(CrewsimError, match="not found"):
        load_run(tmp_path / "nope")
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "manifest.json").write_text("{}")
    with pytest.raises(CrewsimError, match="summary.parquet"):
        load_run(tmp_path / "half")


@pytest.mark.parametrize("name", ["summary.parquet", "failures.parquet", "chunks/first"])
def test_a_damaged_parquet_file_is_one_line_naming_it(run_copy: Path, name: str) -> None:
    """A file cut short (a full disk, a copy stopped half way) names itself and the mend."""
    path = (
        sorted((run_copy / "chunks").glob("*.parquet"))[0]
        if name == "chunks/first"
        else run_copy / name
    )
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(CrewsimError, match="damaged") as err:
        load_run(run_copy)
    message = str(err.value)
    assert str(path) in message and "crewsim simulate --resume" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda m: [], "not a crewsim run manifest"),
        (lambda m: m | {"cells": "x"}, "malformed"),
        (lambda m: m | {"root_seed": "one"}, "malformed"),
        (lambda m: m | {"chunk_size": 0}, "malformed"),  # the chunk plan would divide by it
        (
            lambda m: m | {"cells": [c | {"mission_record": "oops"} for c in m["cells"]]},
            "malformed",
        ),
    ],
)
def test_a_malformed_manifest_is_one_line(
    run_copy: Path, change: Callable[[Any], Any], fragment: str
) -> None:
    path = run_copy / "manifest.json"
    path.write_text(json.dumps(change(json.loads(path.read_text()))))
    with pytest.raises(CrewsimError, match=fragment) as err:
        load_run(run_copy)
    assert "manifest.json" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("name", "column"), [("summary.parquet", "games"), ("failures.parquet", "trick")]
)
def test_a_table_without_its_columns_is_one_line(run_copy: Path, name: str, column: str) -> None:
    path = run_copy / name
    pl.read_parquet(path).drop(column).write_parquet(path)
    with pytest.raises(CrewsimError, match=f"{name}: damaged \\(no column '{column}'\\)"):
        load_run(run_copy)


def test_a_missing_chunk_is_one_line_but_a_summary_only_run_loads(run_copy: Path) -> None:
    """Part of the games gone would shrink the tables read from them without a word; a run
    whose chunk files were all dropped once summarised still reads from its summary."""
    chunks = sorted((run_copy / "chunks").glob("*.parquet"))
    chunks[1].unlink()
    with pytest.raises(CrewsimError, match=f"{chunks[1].name}: missing; `crewsim simulate"):
        load_run(run_copy)
    for chunk in chunks[2:] + chunks[:1]:
        chunk.unlink()
    assert load_run(run_copy).summary.height > 0
