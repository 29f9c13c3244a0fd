"""The run folder's current format, checked wherever a folder is read or resumed: a folder an
older crewsim wrote is refused in one line that names it and says to run it again, never
converted (converting code outlives the formats it reads, untested)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from crewsim.errors import CrewsimError
from crewsim.runs.chunks import RESULT_COLUMNS
from crewsim.runs.stats import CEILING_COLUMNS, FAILURE_COLUMNS, SUMMARY_SCHEMA
from crewsim.runs.stopping import CAP

CEILING_DIR = "ceiling"  # in a run folder: one file per solved cell
STOPPED = "stopped"  # why each cell stopped playing (``runs.stopping``)
SUMMARY_COLUMNS = (*SUMMARY_SCHEMA, "redeal_share", "repair_share", STOPPED, *FAILURE_COLUMNS)
"""Today's summary: the set-up shares, why each cell stopped, its failure reasons as data.  The
failure columns are computed again from failures.parquet whenever a folder is read
(``stats.with_failures``), so a folder without them (its reasons a sentence, ``top_failures``)
is read, not refused."""
READ_AGAIN = (STOPPED, *FAILURE_COLUMNS)  # columns a reader supplies when a summary lacks them


def older_run(folder: Path, what: str) -> CrewsimError:
    """The one line for a folder an older crewsim wrote: what gives it away, and what to do."""
    return CrewsimError(
        f"{folder}: a run folder of an older crewsim ({what}), which this one does not read; "
        "simulate the run again into a new --out"
    )


def check_cells(folder: Path, doc: dict[str, Any]) -> None:
    """Every cell of a manifest records its mission (older manifests named the ids only)."""
    cells = doc["cells"]
    if isinstance(cells, list) and any(
        isinstance(c, dict) and "mission_record" not in c for c in cells
    ):
        raise older_run(folder, "its manifest names the missions without their records")


def check_summary(folder: Path, columns: Sequence[str]) -> None:
    """A summary holds every column of today's, and the ceiling's all or none."""
    absent = [c for c in SUMMARY_COLUMNS if c not in columns and c not in READ_AGAIN]
    if absent:
        raise older_run(folder, f"its summary has no column {absent[0]!r}")
    ceiling = [c for c in CEILING_COLUMNS if c not in columns]
    if 0 < len(ceiling) < len(CEILING_COLUMNS):
        raise older_run(folder, f"its summary's ceiling has no column {ceiling[0]!r}")


def with_stopped(summary: pl.DataFrame) -> pl.DataFrame:
    """A summary with ``stopped``: a folder made before cells could stop early lacks it, and
    there every cell played its ``-n`` (one of two changes of format that are read, not
    refused: one constant column, known for certain; the other is the failure columns,
    computed from failures.parquet)."""
    if STOPPED in summary.columns:
        return summary
    return summary.with_columns(pl.lit(CAP, pl.String).alias(STOPPED))


def check_games(folder: Path) -> None:
    """The games hold today's columns (older ones lack, say, the Deep Sea task cards in play);
    the first chunk file speaks for all, and one too damaged to say is left to the checks of
    damage."""
    first = min((folder / "chunks").glob("*.parquet"), default=None)
    if first is None:
        return
    try:
        columns = tuple(pl.read_parquet_schema(first))
    except Exception:  # polars raises several kinds for garbage
        return
    absent = [c for c in RESULT_COLUMNS if c not in columns]
    if absent:
        raise older_run(folder, f"its games ({first.name}) have no column {absent[0]!r}")
    if columns != RESULT_COLUMNS:
        raise older_run(folder, f"its games ({first.name}) have the columns {list(columns)}")


def check_resumable(folder: Path) -> None:
    """What a resume keeps besides the chunks: a summary of today's columns (if any), the
    ceiling saved cell by cell in ``ceiling/`` (older folders kept it in the summary only,
    where the new summary would drop it), the games' columns."""
    path = folder / "summary.parquet"
    try:
        columns = list(pl.read_parquet_schema(path)) if path.exists() else []
    except Exception:  # a damaged summary is written again
        columns = []
    if columns:
        check_summary(folder, columns)
    if "ceiling_games" in columns and not any((folder / CEILING_DIR).glob("*.json")):
        raise older_run(folder, f"its ceiling is in the summary only, not in {CEILING_DIR}/")
    check_games(folder)
