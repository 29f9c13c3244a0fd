"""The solver's entry points: which engine decides, what a warm-up loads before any deal."""

from __future__ import annotations

import subprocess
import sys

import pytest

from crewsim.rules.setup import random_setup
from crewsim.solver import api
from crewsim.solver.api import solve
from crewsim.solver.problem import Problem

DEAL_FOR_SAT = 1_000_004  # a 10-task deal the DFS leaves open at 20,000 plays: SAT refutes it


def test_each_verdict_names_its_engine() -> None:
    """The search settles an easy deal; one it hands over is the SAT engine's; with the
    engine off the same deal stays unknown and names none."""
    easy, hard = _problem(1, 5), _problem(10, DEAL_FOR_SAT)
    assert solve(easy).engine == "dfs"
    res = solve(hard)
    assert (res.verdict, res.engine) == ("infeasible", "sat")
    off = solve(hard, budget=20_000, conflicts=0)
    assert (off.verdict, off.engine) == ("unknown", "")


def _problem(n_tasks: int, seed: int) -> Problem:
    deal, tasks = random_setup(4, n_tasks, (), seed)
    return Problem(deal, tuple(tasks))


WARM = """
import sys
from crewsim.rules.setup import random_setup
from crewsim.solver.problem import Problem
from crewsim.solver.api import warm_up
from crewsim.solver.clauses import core_clauses

deal, tasks = random_setup(4, 10, (), 1)
warm_up(Problem(deal, tuple(tasks)), 20_000, {conflicts})
print(len(core_clauses.signatures), "pysat.solvers" in sys.modules)
"""


def test_the_warm_up_loads_the_sat_engine_unless_it_is_off() -> None:
    """A deal the DFS hands over is timed without the clauses' compile and python-sat's import
    (seconds on a fresh install); with the engine off neither is loaded."""
    for conflicts, expected in ((30_000, "1 True"), (0, "0 False")):
        out = subprocess.run(
            [sys.executable, "-c", WARM.format(conflicts=conflicts)],
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.split("\n")[-2] == expected, out.stderr


def test_the_memo_table_has_a_row_for_each_trick_boundary_of_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The default budget's table stays small (cache misses cost speed); a larger budget gets
    a larger one rather than evicting its refutations."""
    monkeypatch.setattr(api, "_TABLE", None)
    assert len(api._table()) == 1 << api.TABLE_BITS >= api.DEFAULT_BUDGET // 4
    assert len(api._table(2**20)) == 1 << 19 >= 2**20 // 4
    assert len(api._table()) == 1 << 19  # kept: it never shrinks
    assert api.table_bits(10**12) == api.MAX_TABLE_BITS
