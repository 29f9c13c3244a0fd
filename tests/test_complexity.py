"""Complexity only goes down: each function's McCabe count (ruff's C901) against a baseline.

A function over ``LIMIT`` must be in ``complexity_baseline.json`` at no more than its entry;
when one gets simpler, or goes, the baseline is lowered with it
(``python tests/test_complexity.py --write``), so the file only ever shrinks.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = Path(__file__).with_name("complexity_baseline.json")
LIMIT = 12


def measured() -> dict[str, int]:
    """``path::function`` -> complexity, for every function of the package over ``LIMIT``."""
    ruff = Path(sys.executable).with_name("ruff")
    out = subprocess.run(
        [
            str(ruff),
            "check",
            "--select",
            "C901",
            "--exit-zero",
            "--output-format",
            "json",
            "--config",
            f"lint.mccabe.max-complexity = {LIMIT}",
            "crewsim",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found: dict[str, int] = {}
    for item in json.loads(out):
        name = item["message"].split("`")[1]
        n = int(item["message"].split("(")[1].split()[0])
        path = Path(item["filename"]).resolve().relative_to(ROOT).as_posix()
        found[f"{path}::{name}"] = max(n, found.get(f"{path}::{name}", 0))
    return found


def test_no_function_is_more_complex_than_its_baseline() -> None:
    baseline = json.loads(BASELINE.read_text())
    worse = {k: n for k, n in measured().items() if n > baseline.get(k, LIMIT)}
    assert worse == {}, f"simplify these, or split them (LIMIT = {LIMIT})"


def test_the_baseline_only_goes_down() -> None:
    """An entry above today's count is slack that a later change could spend: lower it."""
    now = measured()
    slack = {k: n for k, n in json.loads(BASELINE.read_text()).items() if now.get(k, 0) < n}
    assert slack == {}, "run: python tests/test_complexity.py --write"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    BASELINE.write_text(json.dumps(dict(sorted(measured().items())), indent=1) + "\n")
