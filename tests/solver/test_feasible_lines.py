"""Every `feasible` answer's line replays through the referee as a win."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from crewsim.rules.order import TOKENS
from crewsim.rules.setup import random_setup
from crewsim.solver.api import solve
from crewsim.solver.problem import Problem
from tests.solver.helpers import OBJECTIVES, replay


@settings(max_examples=80, deadline=None)
@given(
    players=st.integers(2, 5),
    n_tasks=st.integers(0, 4),
    tokens=st.lists(st.sampled_from(TOKENS), max_size=3, unique=True),
    objective=st.sampled_from(OBJECTIVES),
    omega_last=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_feasible_lines_replay_as_wins(
    players: int, n_tasks: int, tokens: list[str], objective: Any, omega_last: bool, seed: int
) -> None:
    deal, tasks = random_setup(players, n_tasks, tuple(tokens[:n_tasks]), seed)
    problem = Problem(deal, tuple(tasks), objective, omega_last)
    res = solve(problem, budget=20_000)
    assert res.verdict in ("feasible", "infeasible", "unknown")
    if res.verdict == "feasible":
        g = replay(problem, res)
        assert g.outcome is not None and g.outcome.success, g.trace()
