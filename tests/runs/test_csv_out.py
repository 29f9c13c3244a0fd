"""CSV as every command writes it: a missing value is one empty field, an infinite one `inf`."""

from __future__ import annotations

import io
import math
from pathlib import Path

import polars as pl

from crewsim.runs.csv_out import csv_text, write_csv


def _frame() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "mission": ["pn-1", "pn-2", "pn-3"],
            "games": [10, 0, 5],
            "share": [0.5, math.nan, None],
            "attempts": [2.0, math.inf, None],
        }
    )


def test_nan_and_null_are_both_an_empty_field() -> None:
    lines = csv_text(_frame()).splitlines()
    assert lines == ["mission,games,share,attempts", "pn-1,10,0.5,2.0", "pn-2,0,,inf", "pn-3,5,,"]


def test_the_file_reads_back_as_nulls_and_infinity(tmp_path: Path) -> None:
    write_csv(_frame(), tmp_path / "t.csv")
    back = pl.read_csv(tmp_path / "t.csv")
    assert back["share"].to_list() == [0.5, None, None]
    assert back["attempts"].to_list() == [2.0, math.inf, None]
    assert back.equals(pl.read_csv(io.StringIO(csv_text(_frame()))))
