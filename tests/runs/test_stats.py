"""Wilson intervals, expected attempts and failure wording against hand-checked values."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from crewsim.cards import Game
from crewsim.missions import load_task_cards
from crewsim.runs.stats import (
    FAILURE_COLUMNS,
    TOP_FAILURES,
    FailureReason,
    bot_efficiency,
    ceiling_columns,
    describe_failure,
    distress_chance,
    expected_attempts,
    failure_columns,
    reason_card,
    reasons_of,
    share_bounds,
    summarise,
    top_failures,
    wilson,
    with_failures,
)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (5, 10, 0.236593, 0.763407),  # textbook values
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (81, 263, 0.255289, 0.366210),  # by hand, (k + z²/2)/(n + z²) ± ... form
        (1, 1_000_000, 1.765e-7, 5.665e-6),
    ],
)
def test_wilson_known_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, rel=1e-3, abs=1e-7)
    assert hi == pytest.approx(high, rel=1e-3, abs=1e-7)


def test_wilson_contains_rate_and_no_games_is_nan() -> None:
    lo, hi = wilson(300, 1000)
    assert lo < 0.3 < hi
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_share_bounds_span_every_way_the_unknowns_could_go() -> None:
    """62 feasible, 38 undecided of 100 (the ds-12 three-player ceiling): the decided share
    is 100 %, but the bounds run from all-unknowns-infeasible to all-feasible."""
    low, high = share_bounds(62, 38, 100)
    assert low == pytest.approx(wilson(62, 100)[0])
    assert high == 1.0
    assert low < 0.62 < 62 / 62
    assert share_bounds(30, 0, 100) == wilson(30, 100)
    for hits, unknown in ((0, 5), (40, 20), (90, 10)):  # the decided share lies inside
        lo, hi = share_bounds(hits, unknown, 100)
        assert lo <= hits / (100 - unknown) <= hi


def test_expected_attempts_charge_the_distress_signal_once_per_mission() -> None:
    """Rule 20: the signal's extra attempt is logged once, however many attempts sent it.  A
    crew that calls it in every attempt and wins half of them logs 2 + 1 attempts, not 4."""
    assert expected_attempts(1000, 500, 0, 0).expected == pytest.approx(2.0)
    always = expected_attempts(1000, 500, 1000, 500)
    assert always.expected == pytest.approx(3.0)
    lo, hi = wilson(500, 1000)
    assert always.low == pytest.approx(1 / hi + wilson(1000, 1000)[0])
    assert always.high == pytest.approx(1 / lo + 1)
    some = expected_attempts(1000, 500, 100, 60)  # 100 distress games, 60 of them won
    assert some.expected == pytest.approx(2 + 100 / (100 + 440))
    assert some.low < some.expected < some.high
    assert distress_chance(0, 0, 500) == 0.0


def test_distress_chance_matches_a_played_out_logbook() -> None:
    """Play missions attempt by attempt (each attempt sends the signal with chance 0.3 and is
    won with chance 0.5 with it, 0.2 without) and compare the logged attempts with the rule
    computed from one pass of game counts."""
    rng = np.random.default_rng(4)
    logged = []
    for _ in range(20_000):
        attempts, sent = 0, False
        while True:
            attempts += 1
            d = rng.random() < 0.3
            sent |= d
            if rng.random() < (0.5 if d else 0.2):
                break
        logged.append(attempts + sent)
    games = 200_000
    d = rng.random(games) < 0.3
    won = rng.random(games) < np.where(d, 0.5, 0.2)
    att = expected_attempts(games, int(won.sum()), int(d.sum()), int((d & won).sum()))
    assert att.expected == pytest.approx(np.mean(logged), rel=0.02)


def test_bot_efficiency_spans_the_open_deals() -> None:
    """30 wins among 40 winnable deals, 10 more left open (and lost): 75 %, but if the open
    deals were winnable it would be 30 / 50, which only the low end admits."""
    est, low, high = bot_efficiency(30, 40, 10)
    assert est == 0.75
    assert low == pytest.approx(wilson(30, 50)[0]) and high == pytest.approx(wilson(30, 40)[1])
    row = ceiling_columns(60, 40, 10, 30)
    assert (row["decided_games"], row["unknown_share"]) == (50, pytest.approx(1 / 6))
    assert row["feasible_share"] == pytest.approx(0.8)
    assert (row["bot_efficiency"], row["efficiency_low"]) == (est, low)
    assert math.isnan(ceiling_columns(0, 0, 0, 0)["bot_efficiency"])


def test_expected_attempts_without_success_is_infinite() -> None:
    att = expected_attempts(100, 0, 0, 0)
    assert math.isinf(att.expected) and math.isinf(att.high)
    assert att.low == pytest.approx(1 / wilson(0, 100)[1])


def test_failure_words() -> None:
    words = describe_failure(1, 2, 3, Game.PLANET_NINE)
    assert words == "task pink3 won by the wrong player, trick 4"
    assert describe_failure(3, 36, 12, Game.PLANET_NINE).startswith("task rocket1 not completed")
    assert describe_failure(4, 1, 0, Game.PLANET_NINE) == (
        "objective 'player wins no tricks' failed, trick 1"
    )


def test_top_failures_picks_reason_then_its_most_frequent_trick() -> None:
    fails = pl.DataFrame(
        {
            "kind": [1, 1, 1, 4],
            "detail": [2, 2, 2, 1],
            "trick": [3, 5, 6, 2],
            "count": [10, 30, 5, 20],
        }
    )
    top = top_failures(fails, 100, Game.PLANET_NINE)
    assert top == [
        FailureReason("wrong_winner", "pink3", 6, pytest.approx(30 / 45), 0.45),
        FailureReason("objective", "", 3, 1.0, 0.2),  # the mission's one objective: no card
    ]


def test_top_failures_counts_a_kind_over_all_its_cards() -> None:
    # random task cards split the wrong winners over many cards: the kind's share comes first
    fails = pl.DataFrame(
        {
            "kind": [1, 1, 1, 1, 4],
            "detail": [2, 2, 7, 30, 1],
            "trick": [9, 8, 9, 9, 2],
            "count": [6, 2, 5, 4, 12],
        }
    )
    top = top_failures(fails, 100, Game.PLANET_NINE)
    assert [(r.kind, r.card, r.trick, r.share) for r in top] == [
        ("wrong_winner", "", 10, 0.17),
        ("objective", "", 3, 0.12),
        ("wrong_winner", "pink3", 10, 0.08),
    ]
    assert top[0].trick_share == pytest.approx(15 / 17)
    assert [
        (r.card, r.trick_share) for r in top_failures(fails, 100, Game.PLANET_NINE, k=5)[3:]
    ] == [
        ("pink8", 1.0),
        ("yellow4", 1.0),
    ]


def test_a_deep_sea_reason_names_its_task_card_by_ref_id() -> None:
    card = load_task_cards()[40]
    fails = pl.DataFrame({"kind": [5], "detail": [card.number], "trick": [0], "count": [3]})
    (reason,) = top_failures(fails, 10, Game.DEEP_SEA)
    assert (reason.kind, reason.card, reason.trick) == ("condition", card.ref_id, 1)
    assert reason_card(1, 36, Game.DEEP_SEA) == "sub1" and reason_card(1, None, Game.DEEP_SEA) == ""


def test_failure_columns_round_trip_and_pad_with_nulls() -> None:
    reasons = [FailureReason("order", "blue2", 4, 0.5, 0.1)]
    row = failure_columns(reasons)
    assert list(row) == list(FAILURE_COLUMNS) and len(FAILURE_COLUMNS) == 5 * TOP_FAILURES
    assert row["failure1_card"] == "blue2" and row["failure2_kind"] is None
    assert reasons_of(row) == reasons and reasons_of(failure_columns([])) == []


def test_with_failures_replaces_an_older_sentence_by_the_columns() -> None:
    """A folder from before the failure columns stored one sentence; reading it computes the
    columns from the counts and drops the sentence."""
    old = pl.DataFrame(
        {"mission": ["pn-3"], "players": [4], "games": [50], "top_failures": ["words"]}
    )
    fails = pl.DataFrame(
        {
            "mission": ["pn-3"],
            "players": [4],
            "kind": [3],
            "detail": [0],
            "trick": [9],
            "count": [5],
        }
    )
    new = with_failures(old, fails, {"pn-3": Game.PLANET_NINE})
    assert new.columns == ["mission", "players", "games", *FAILURE_COLUMNS]
    assert reasons_of(new.row(0, named=True)) == [FailureReason("not_done", "pink1", 10, 1.0, 0.1)]
    again = with_failures(
        new.select("mission", *FAILURE_COLUMNS, "players", "games"),
        fails,
        {"pn-3": Game.PLANET_NINE},
    )
    assert again.columns[1] == FAILURE_COLUMNS[0]  # columns it had keep their place


def test_summarise_sums_chunks_per_cell_in_order() -> None:
    cells = pl.DataFrame(
        {
            "mission": ["pn-2", "pn-1", "pn-2"],
            "players": [4, 4, 4],
            "games": [10, 20, 30],
            "successes": [5, 20, 15],
            "distress_games": [1, 0, 2],
            "distress_successes": [1, 0, 1],
        }
    )
    s = summarise(cells, "heuristic")
    assert s["mission"].to_list() == ["pn-2", "pn-1"]
    row = s.row(0, named=True)
    assert (row["games"], row["successes"], row["distress_games"]) == (40, 20, 3)
    assert row["success_rate"] == pytest.approx(0.5)
    assert row["expected_attempts"] == pytest.approx(40 / 20 + 3 / (3 + 18))
    fails = pl.DataFrame(
        {
            "mission": ["pn-2"],
            "players": [4],
            "kind": [3],
            "detail": [0],
            "trick": [9],
            "count": [20],
        }
    )
    s = with_failures(s, fails, {"pn-1": Game.PLANET_NINE, "pn-2": Game.PLANET_NINE})
    assert reasons_of(s.row(0, named=True)) == [FailureReason("not_done", "pink1", 10, 1.0, 0.5)]
    assert reasons_of(s.row(1, named=True)) == []
    assert s.row(1, named=True)["failure1_share"] is None
