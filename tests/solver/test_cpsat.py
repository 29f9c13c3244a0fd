"""The CP-SAT engine on full deals: it agrees with the DFS wherever the DFS settles a deal,
its feasible lines replay through the referee as wins, and ``solve`` hands it what the DFS
leaves open."""

from __future__ import annotations

import pytest

from crewsim.rules.setup import random_setup
from crewsim.solver.api import Problem, solve
from crewsim.solver.cpsat import supported
from tests.solver.helpers import replay


@pytest.mark.parametrize("players", [3, 4, 5])
def test_cpsat_agrees_with_dfs_and_replays(players: int) -> None:
    for k in range(6):
        deal, tasks = random_setup(players, 3 + k % 4, ("1", "2", ">", "omega")[: k % 3], 77 + k)
        problem = Problem(deal, tuple(tasks))
        assert supported(problem)
        forced = solve(problem, budget=1, second=20.0)  # the DFS gives up at once
        assert forced.verdict in ("feasible", "infeasible")
        dfs = solve(problem, budget=3_000_000, second=0)
        if dfs.verdict != "unknown":
            assert dfs.verdict == forced.verdict, (players, k)
        if forced.verdict == "feasible":
            g = replay(problem, forced)
            assert g.outcome is not None and g.outcome.success, g.trace()


def test_dfs_only_leaves_unknown() -> None:
    deal, tasks = random_setup(4, 10, (), 3)
    res = solve(Problem(deal, tuple(tasks)), budget=1, second=0)
    assert res.verdict == "unknown"


def test_objectives_are_left_to_the_dfs() -> None:
    deal, tasks = random_setup(4, 2, (), 5)
    assert not supported(Problem(deal, tuple(tasks), ("player_wins_no_tricks", {})))
    deal2, tasks2 = random_setup(2, 2, (), 5)
    assert not supported(Problem(deal2, tuple(tasks2)))


def test_the_cached_model_part_is_copied_not_changed() -> None:
    # the deal-independent part of the model is built once per card set and copied: solving
    # deals must not add constraints to it, and a deal solved after others gets its own answer
    from crewsim.solver import cpsat

    problems = []
    for k in range(3):
        deal, tasks = random_setup(4, 4, (), 11 + k)
        problems.append(Problem(deal, tuple(tasks)))
    first = [cpsat.solve_cpsat(p, 20.0)[0] for p in problems]
    key = (tuple(range(40)), 10)
    size = len(cpsat._TEMPLATES[key].proto.constraints)
    again = [cpsat.solve_cpsat(p, 20.0)[0] for p in reversed(problems)][::-1]
    assert again == first
    assert len(cpsat._TEMPLATES[key].proto.constraints) == size
    for p, v in zip(problems, first, strict=True):
        assert v == solve(p, budget=3_000_000, second=0).verdict
