"""Two crews' orders of the missions: Spearman's rho per crew size and the missions that move."""

from __future__ import annotations

import math

import polars as pl
import pytest

from crewsim.analysis.agreement import rank_agreement, ranks


def _rates(a: list[float], b: list[float], players: int = 3) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "players": [players] * len(a),
            "mission": [f"pn-{i + 1}" for i in range(len(a))],
            "a": a,
            "b": b,
        }
    )


def test_the_same_order_agrees_fully_and_nothing_moves() -> None:
    agreement, moves = rank_agreement(_rates([0.9, 0.5, 0.2, 0.1], [0.99, 0.8, 0.6, 0.3]), "a", "b")
    row = agreement.row(0, named=True)
    assert row["players"] == 3 and row["missions"] == 4 and row["spearman_rho"] == 1.0
    assert math.isnan(row["rho_low"])  # a perfect order: Fisher's z has no interval
    assert moves.is_empty()


def test_the_missions_that_move_most_come_first() -> None:
    a = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]
    b = [0.9, 0.8, 0.2, 0.6, 0.5, 0.4, 0.75]  # pn-3 falls from 3rd to last, pn-7 rises to 3rd
    agreement, moves = rank_agreement(_rates(a, b), "a", "b", moves=2)
    assert moves["mission"].to_list() == ["pn-3", "pn-7"]
    assert moves.row(0, named=True) == {
        "players": 3,
        "mission": "pn-3",
        "rank_a": 3.0,
        "rank_b": 7.0,
        "move": 4.0,
    }
    rho = agreement["spearman_rho"][0]
    low, high = agreement["rho_low"][0], agreement["rho_high"][0]
    assert 0 < rho < 1 and low < rho < high


def test_tied_rates_share_their_average_rank() -> None:
    r = ranks(_rates([1.0, 1.0, 0.5], [0.9, 0.8, 0.7]), "a", "b")
    assert r["rank_a"].to_list() == [1.5, 1.5, 3.0]
    assert r["move"].to_list() == [-0.5, 0.5, 0.0]


def test_each_crew_size_on_its_own_and_missing_rates_left_out() -> None:
    rates = pl.concat(
        [
            _rates([0.9, 0.5, 0.1], [0.1, 0.5, 0.9], players=3),
            _rates([0.9, 0.5, 0.1, None], [0.8, 0.4, 0.2, 0.3], players=4),  # type: ignore[list-item]
        ]
    )
    agreement, _ = rank_agreement(rates, "a", "b")
    assert agreement["players"].to_list() == [3, 4]
    assert agreement["spearman_rho"].to_list() == pytest.approx([-1.0, 1.0])
    assert agreement["missions"].to_list() == [3, 3]
