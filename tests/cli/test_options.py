"""Shared CLI options: counts read as people write them, and read exactly."""

from __future__ import annotations

import pytest
import typer

from crewsim.cli.options import whole_number


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1000", 1000),
        ("1_000", 1000),
        ("1,000,000", 10**6),
        ("1e6", 10**6),
        (" 7 ", 7),
        ("1e40", 10**40),
        ("12345678901234567890123", 12345678901234567890123),
        ("2.0", 2),
    ],
)
def test_counts_are_read_exactly(text: str, value: int) -> None:
    """1e40 is ten to the 40th, not the float nearest to it (a seed must be what was typed)."""
    assert whole_number(text) == value


@pytest.mark.parametrize("text", ["2.5", "nan", "inf", "-inf", "ten", "", "1e-3"])
def test_what_is_not_a_whole_number_is_refused(text: str) -> None:
    with pytest.raises(typer.BadParameter, match="whole number"):
        whole_number(text)


def test_an_exponent_past_any_count_is_refused_at_once() -> None:
    """int() of 1e999999999 would build a billion-digit number first."""
    with pytest.raises(typer.BadParameter, match="too large"):
        whole_number("1e999999999")
