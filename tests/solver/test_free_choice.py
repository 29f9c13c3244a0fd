"""Free task choice: the solver's own allocation agrees with trying every allocation."""

from __future__ import annotations

from itertools import product

import pytest

from crewsim.rules.game import GameState, Rules, TaskSpec
from crewsim.rules.setup import random_setup
from crewsim.solver.api import solve
from crewsim.solver.free_choice import HANDOVER_RELAXED, shares, with_owners
from crewsim.solver.problem import FreeChoice, Problem

RULES = ("draft", "commander_distributes", "one_member", "any")


def _every_allocation(problem: Problem, free: FreeChoice) -> str:
    """The verdict over every owner tuple within the rule's bounds, one solve each."""
    seats, n = problem.seats, len(problem.tasks)
    limits = shares(free, n, seats, problem.deal.commander)
    verdict = "infeasible"
    for owners in product(range(seats), repeat=n):
        counts = [owners.count(s) for s in range(seats)]
        if any(not limits.least[s] <= counts[s] <= limits.most[s] for s in range(seats)):
            continue
        if limits.one_of and not (len(set(owners)) == 1 and owners[0] in limits.one_of):
            continue
        tasks = with_owners(problem.tasks, owners)
        v = solve(Problem(problem.deal, tasks)).verdict
        if v == "feasible":
            return v
        if v == "unknown":
            verdict = v
    return verdict


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("seed", range(1, 9))
def test_free_choice_agrees_with_every_allocation(rule: str, seed: int) -> None:
    """3 players, 4 tasks (one with an order token): the SAT model's verdict is the verdict
    of trying every allocation the rule allows, and its owners with its line win through
    the referee."""
    deal, tasks = random_setup(3, 4, ("1",), seed)
    free = FreeChoice(rule)
    problem = Problem(deal, tuple(TaskSpec(t.card, t.token, None) for t in tasks), free=free)
    result = solve(problem)
    assert result.verdict == _every_allocation(problem, free)
    if result.verdict == "feasible":
        owned = list(with_owners(problem.tasks, result.owners))
        g = GameState(deal, owned, Rules())
        for c in result.plays:
            g.play(g.to_play, c)
        assert g.outcome is not None and g.outcome.success


def test_the_draft_gives_the_commander_and_the_next_seats_the_extra_tasks() -> None:
    limits = shares(FreeChoice("draft"), 6, 4, commander=3)
    assert limits.least == limits.most == (2, 1, 1, 2)
    relaxed = shares(FreeChoice("draft", handover=True), 6, 4, commander=3)
    assert relaxed.most == (3, 2, 2, 3) and relaxed.relaxed == HANDOVER_RELAXED
    assert shares(FreeChoice("one_member"), 3, 4, commander=1).one_of == (0, 2, 3)


def test_a_task_with_its_owner_counts_towards_the_rule() -> None:
    """Two tasks, one already the commander's: a draft must give the other to the next seat."""
    deal, tasks = random_setup(4, 2, (), 5)
    cmd = deal.commander
    fixed = (
        TaskSpec(tasks[0].card, tasks[0].token, cmd),
        TaskSpec(tasks[1].card, tasks[1].token, None),
    )
    result = solve(Problem(deal, fixed, free=FreeChoice("draft")))
    if result.verdict == "feasible":
        assert result.owners == (cmd, (cmd + 1) % 4)
    other = (
        TaskSpec(tasks[0].card, tasks[0].token, cmd),
        TaskSpec(tasks[1].card, tasks[1].token, (cmd + 1) % 4),
    )
    assert result.verdict == solve(Problem(deal, other)).verdict
