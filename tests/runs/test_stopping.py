"""The rules that stop a cell early: the summary's own interval, the ranking's own overlap."""

from __future__ import annotations

import math

import pytest

from crewsim.errors import CrewsimError
from crewsim.runs.stats import wilson
from crewsim.runs.stopping import (
    STOP_CHUNK_SIZE,
    Stopping,
    Tally,
    chunks_for_precision,
    default_chunk_size,
    overlapping,
)


def test_half_width_is_the_summary_interval_s() -> None:
    low, high = wilson(412, 1000)
    assert Tally(1000, 412).half_width == pytest.approx((high - low) / 2)
    assert Tally().half_width == math.inf
    assert Tally(1000, 412).precise(0.031) and not Tally(1000, 412).precise(0.03)


def test_overlap_is_with_the_neighbours_by_rate() -> None:
    apart, close, closer, far = (
        Tally(1000, 900),
        Tally(1000, 500),
        Tally(1000, 510),
        Tally(1000, 100),
    )
    assert overlapping([apart, close, closer, far]) == [False, True, True, False]
    assert overlapping([far, closer, apart, close]) == [False, True, False, True]  # any order
    assert overlapping([apart, Tally()]) == [False, True]  # no games: not placed yet
    assert overlapping([apart]) == [False]


def test_a_wave_aims_at_the_width_but_at_most_doubles() -> None:
    half = Tally(2_000, 1_000)  # p = 0.5: 0.01 needs ~9,600 games, 5 chunks of 2,000
    assert chunks_for_precision(half, 0.01, 2_000, counted=1) == 2  # at most twice one
    assert chunks_for_precision(half, 0.01, 2_000, counted=4) == 5
    assert chunks_for_precision(half, 0.01, 2_000, counted=6) == 7  # one more at least
    assert chunks_for_precision(Tally(), 0.01, 2_000, counted=0) == 1


@pytest.mark.parametrize("width", [0.0, -0.01, 0.5, 2.0, math.nan, math.inf])
def test_a_width_that_never_or_always_holds_is_refused(width: float) -> None:
    with pytest.raises(CrewsimError, match=r"^--precision: expected a share above 0"):
        Stopping(width).check()


def test_settings_round_trip_through_the_manifest() -> None:
    for stopping in (Stopping(), Stopping(0.005), Stopping(None, True), Stopping(0.01, True)):
        assert Stopping.from_dict(stopping.to_dict()) == stopping
    assert Stopping.from_dict(None) == Stopping()  # a manifest from before early stops
    assert not Stopping().active and Stopping(0.01).active and Stopping(None, True).active
    assert default_chunk_size(Stopping(0.01), 50_000) == STOP_CHUNK_SIZE
    assert default_chunk_size(Stopping(), 50_000) == 50_000
