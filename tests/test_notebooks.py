"""Every notebook in notebooks/ runs top to bottom (at a tiny size), so none of them rots."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
TINY = {
    "CREWSIM_NB_MISSIONS": "pn-1..3",
    "CREWSIM_NB_GAMES": "300",
    "CREWSIM_NB_PAIRED": "200",
    "CREWSIM_NB_JOBS": "1",
}


def test_there_is_a_notebook() -> None:
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key, value in TINY.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("CREWSIM_NB_RUN", raising=False)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError with the failing cell's traceback
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors
