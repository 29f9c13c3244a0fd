"""Positions of a game: a problem with plays already made asks whether it can still be won."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from crewsim.rules.game import GameState, Rules
from crewsim.rules.setup import random_setup
from crewsim.solver.api import solve
from crewsim.solver.problem import Problem


def _random_line(problem: Problem, seed: int) -> list[int]:
    """Legal plays of random cards through the referee until the game ends."""
    rng = np.random.default_rng(seed)
    g = GameState(problem.deal, list(problem.tasks), Rules())
    plays: list[int] = []
    while g.outcome is None:
        legal = [c for c in range(40) if g.can_play(g.to_play, c)]
        c = int(rng.choice(legal))
        g.play(g.to_play, c)
        plays.append(c)
    return plays


@pytest.mark.parametrize("seed", range(1, 13))
def test_winnability_only_falls_along_a_game_and_both_engines_agree(seed: int) -> None:
    """Along a random game, a position is winnable only if the one before it was; the search
    and the SAT model (the search given one play) agree on every position they settle; the
    whole game's plays decide it as the referee did."""
    deal, tasks = random_setup(4, 3, (), seed)
    problem = Problem(deal, tuple(tasks))
    plays = _random_line(problem, seed)
    before = True
    for k in range(len(plays) + 1):
        at = replace(problem, prefix=tuple(plays[:k]))
        dfs = solve(at, conflicts=0).verdict
        sat = solve(at, budget=1).verdict
        assert dfs in ("feasible", "infeasible")
        assert sat == dfs
        assert before or dfs == "infeasible"
        before = dfs == "feasible"
    g = GameState(deal, list(tasks), Rules())
    for c in plays:
        g.play(g.to_play, c)
    assert g.outcome is not None and before == g.outcome.success


def test_a_winning_line_starts_with_the_plays_made() -> None:
    deal, tasks = random_setup(4, 2, (), 3)
    problem = Problem(deal, tuple(tasks))
    first = solve(problem)
    assert first.verdict == "feasible"
    at = replace(problem, prefix=tuple(first.plays[:5]))
    again = solve(at)
    assert again.verdict == "feasible" and again.plays[:5] == first.plays[:5]


def test_plays_made_must_be_distinct_cards() -> None:
    deal, tasks = random_setup(4, 1, (), 1)
    with pytest.raises(ValueError, match="distinct"):
        Problem(deal, tuple(tasks), prefix=(3, 3))
