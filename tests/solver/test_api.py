"""The solver's entry points: what a warm-up loads before any deal is timed."""

from __future__ import annotations

import subprocess
import sys

WARM = """
import sys
from crewsim.rules.setup import random_setup
from crewsim.solver.api import Problem, warm_up
from crewsim.solver.clauses import core_clauses

deal, tasks = random_setup(4, 10, (), 1)
warm_up(Problem(deal, tuple(tasks)), 20_000, {conflicts})
print(len(core_clauses.signatures), "pysat.solvers" in sys.modules)
"""


def test_the_warm_up_loads_the_sat_engine_unless_it_is_off() -> None:
    """A deal the DFS hands over is timed without the clauses' compile and python-sat's import
    (seconds on a fresh install); with the engine off neither is loaded."""
    for conflicts, expected in ((30_000, "1 True"), (0, "0 False")):
        out = subprocess.run([sys.executable, "-c", WARM.format(conflicts=conflicts)],
                             capture_output=True, text=True, check=True)  # fmt: skip
        assert out.stdout.split("\n")[-2] == expected, out.stderr
