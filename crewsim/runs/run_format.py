"""The run folder's current format, checked wherever a folder is read or resumed: a folder an
older crewsim wrote is refused in one line that names it and says to run it again, never
converted (converting code outlives the formats it reads, untested)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crewsim.errors import CrewsimError


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
