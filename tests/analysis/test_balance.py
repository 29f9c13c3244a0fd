"""The balance model recovers planted card difficulties and flags the one printed wrong."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
import pytest

from crewsim.analysis.balance import FLAG_MARGIN, _trendless_mission_basis, fit_players
from crewsim.errors import CrewsimError
from crewsim.missions import load_task_cards

PLAYERS = 4
SLOPE = -0.6  # log-odds per true difficulty point in the synthetic world
PLANTED = {9: +3, 26: -2}  # card -> true minus printed difficulty


def test_mission_basis_has_no_trend_in_difficulty() -> None:
    """Mission effects built from the basis are free except for a constant and a d-trend."""
    d = np.array([1.0, 2, 3, 5, 5, 8, 12])
    basis = _trendless_mission_basis(d)
    assert basis.shape == (7, 5)
    assert np.allclose(basis.T @ np.ones(7), 0) and np.allclose(basis.T @ d, 0)
    assert np.linalg.matrix_rank(np.column_stack([np.ones(7), d, basis])) == 7


def _synthetic_groups(
    seed: int = 3, slope: float = SLOPE, games: int = 4000
) -> tuple[pl.DataFrame, dict[str, int]]:
    """Games drawn like the kernel draws (keep a card while it fits the difficulty left);
    success from the *true* values, which equal the printed ones except for PLANTED."""
    rng = np.random.default_rng(seed)
    cards = load_task_cards()
    printed = np.array([c.difficulty_for(PLAYERS) for c in cards])
    true = printed + np.array([PLANTED.get(c.number, 0) for c in cards])
    missions = {f"ds-{k}": d for k, d in enumerate((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12), 1)}
    rows = []
    for m, d in missions.items():
        effect = rng.normal(0, 0.2)  # a mission rule the printed number does not show
        for _ in range(games):
            left, hand = d, []
            for i in rng.permutation(96):
                if left == 0:
                    break
                if printed[i] <= left:
                    hand.append(i)
                    left -= printed[i]
            p = 1 / (1 + math.exp(-(2.0 + effect + slope * true[hand].sum())))
            rows.append((m, sorted(int(i) + 1 for i in hand), bool(rng.random() < p)))
    games = pl.DataFrame(rows, schema=["mission", "cards", "success"], orient="row")
    grouped = (
        games.with_columns(pl.col("cards").cast(pl.List(pl.Int8)))
        .group_by("mission", "cards")
        .agg(pl.len().cast(pl.Int64).alias("games"), pl.col("success").sum().alias("successes"))
        .with_columns(pl.lit(PLAYERS, dtype=pl.Int64).alias("players"))
    )
    return grouped, missions


@pytest.fixture(scope="module")
def fitted() -> dict[int, dict[str, object]]:
    groups, missions = _synthetic_groups()
    fit = fit_players(groups, missions, PLAYERS, {c.number: c for c in load_task_cards()})
    assert fit.summary["converged"]
    return {int(r["card"]): r for r in fit.cards}  # type: ignore[call-overload]


def test_planted_cards_are_flagged_with_their_true_value(fitted: dict[int, dict]) -> None:
    for number, shift in PLANTED.items():
        row = fitted[number]
        assert row["flagged"], row
        assert abs(row["off_by"] - shift) < 1.0, row  # recovered within a point
        assert abs(row["proposed"] - max(row["printed"] + shift, 1)) <= 1
        true = max(row["printed"] + shift, 1)  # the range another seed might propose covers it
        assert row["proposed_low"] <= row["proposed"] <= row["proposed_high"]
        assert row["proposed_low"] - 1 <= true <= row["proposed_high"] + 1


def test_fairly_printed_cards_are_rarely_flagged(fitted: dict[int, dict]) -> None:
    """With every other card printed at its true value, false flags stay rare."""
    estimated = [
        r for n, r in fitted.items() if n not in PLANTED and not math.isnan(r["estimated"])
    ]
    assert len(estimated) > 60
    false_flags = [r for r in estimated if r["flagged"]]
    assert len(false_flags) <= 0.05 * len(estimated)
    for r in false_flags:
        assert abs(r["off_by"]) >= FLAG_MARGIN


def _fit(groups: pl.DataFrame, missions: dict[str, int]) -> Any:
    return fit_players(groups, missions, PLAYERS, {c.number: c for c in load_task_cards()})


def test_a_mission_never_won_is_left_out_and_the_fit_converges() -> None:
    groups, missions = _synthetic_groups(games=1500)
    lost = groups.with_columns(
        pl.when(pl.col("mission") == "ds-11")
        .then(0)
        .otherwise(pl.col("successes"))
        .alias("successes")
    )
    fit = _fit(lost, missions)
    assert fit.summary["converged"] and fit.summary["identified"]
    assert "ds-11" not in fit.missions and "ds-10" in fit.missions
    assert fit.summary["missions"] == len(missions) - 1


def test_no_card_is_placed_on_the_scale_unless_harder_cards_clearly_cost_success() -> None:
    """Estimated = (beta - a) / b has a bounded interval only when b is clearly below 0
    (Fieller); otherwise each card's interval would run to hundreds of points."""
    fit = _fit(*_synthetic_groups(slope=0.1, games=1500))
    assert not fit.summary["identified"] and fit.summary["flagged"] == 0
    assert all(math.isnan(r["estimated"]) and not r["flagged"] for r in fit.cards)


def test_too_few_cards_seen_is_one_clear_error() -> None:
    groups, missions = _synthetic_groups(games=1500)
    with pytest.raises(CrewsimError, match="play more games per mission"):
        _fit(groups.filter(pl.col("mission") == "ds-1"), missions)
