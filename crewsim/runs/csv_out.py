"""CSV as every command writes it: a missing value is an empty field, whatever its cause.

Polars writes a float NaN as ``NaN`` and a null as nothing, so the same "no value" (a share of
no deals, an interval of no wins) came out two ways; spreadsheets and readers then disagreed.
An infinite expectation (a cell no game won) stays ``inf``, which every reader parses.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import polars.selectors as cs


def csv_text(df: pl.DataFrame) -> str:
    """The frame as CSV text, NaN written as an empty field."""
    return _missing_as_null(df).write_csv()


def write_csv(df: pl.DataFrame, path: Path) -> None:
    """Write the frame to ``path`` as CSV, NaN written as an empty field."""
    _missing_as_null(df).write_csv(path)


def _missing_as_null(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(cs.float().fill_nan(None))
