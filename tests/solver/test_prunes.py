"""The search's prunings (failure memo with relative-rank keys, trick-count and earliest-trick
bounds, in-trick cut-offs, equivalent cards, restarts) never change a verdict: on random small
decks the search with prunes agrees with the search without them, and the SAT engine agrees
with both.  Larger than test_small_deck's deck, so that several tricks follow the first
(the memo and the bounds only act at later trick boundaries)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from crewsim.rules.game import TaskSpec
from crewsim.rules.order import TOKENS
from crewsim.solver.api import _table
from crewsim.solver.problem import TOKEN_CODES, objective_args
from crewsim.solver.sat import solve_hands
from crewsim.solver.search import solve_batch

COLOURS = [9 * u + v for u in range(4) for v in range(3)]  # four colours 1-3
DECK = COLOURS + [36, 37, 38, 39]  # and the four trumps: 16 cards
OBJECTIVES: list[tuple[str, dict[str, Any]] | None] = [
    None,
    None,
    None,
    None,
    None,
    ("player_wins_no_tricks", {}),
    ("balanced_tricks", {"max_lead": 1, "commander_first_last": False}),
    ("player_exactly_one_trick", {"no_trump_win": True}),
]


def _case(rng: random.Random, seats: int) -> tuple[list[int], list[TaskSpec], Any, int]:
    """Hands (4 x 4 cards, or 6 + 5 + 5 with one card never played), tasks, objective, d1."""
    cards = DECK[:]
    rng.shuffle(cards)
    sizes = [4, 4, 4, 4] if seats == 4 else [6, 5, 5]
    hands, k = [], 0
    for n in sizes:
        hands.append(sum(1 << c for c in cards[k : k + n]))
        k += n
    n_tasks = rng.randint(1, 5)
    task_cards = rng.sample(COLOURS, n_tasks)
    tokens: list[str | None] = [None] * n_tasks
    for i in rng.sample(range(n_tasks), rng.randint(0, min(2, n_tasks))):
        tokens[i] = rng.choice(TOKENS)
    tasks = [TaskSpec(c, tokens[i], rng.randrange(seats)) for i, c in enumerate(task_cards)]
    objective = rng.choice(OBJECTIVES)
    commander = next(s for s, h in enumerate(hands) if h >> 39 & 1)
    d1 = rng.choice([s for s in range(seats) if s != commander]) if objective else -1
    return hands, tasks, objective, d1


def _search(
    hands: list[int], tasks: list[TaskSpec], objective: Any, d1: int, tricks: int, prune: int
) -> int:
    import crewsim.solver.api as api

    h = np.zeros((1, 5), dtype=np.int64)
    h[0, : len(hands)] = hands
    cards = np.array([[t.card for t in tasks]], dtype=np.int64)
    owners = np.array([[t.owner for t in tasks]], dtype=np.int64)
    tokens = np.array([[TOKEN_CODES[t.token] for t in tasks]], dtype=np.int64)
    code, p1, p2 = objective_args(objective)
    verdicts = np.zeros(1, dtype=np.int64)
    nodes = np.zeros(1, dtype=np.int64)
    lines = np.full((1, 48), -1, dtype=np.int64)
    api._GEN = solve_batch(
        h,
        np.full((1, 40), -1, dtype=np.int64),
        len(hands),
        tricks,
        -1,
        cards,
        owners,
        tokens,
        np.array([len(tasks)]),
        False,
        code,
        p1,
        p2,
        np.array([d1]),
        np.array([-1]),
        10**9,
        _table(),
        api._GEN,
        prune,
        verdicts,
        nodes,
        lines,
        np.full((1, 1), -1, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )
    assert verdicts[0] != 2
    return int(verdicts[0])


@pytest.mark.parametrize(("seats", "seed"), [(4, 0), (4, 1), (3, 2)])
def test_prunes_on_and_off_agree_and_sat_too(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    tricks = 4 if seats == 4 else 5
    seen = {0: 0, 1: 0}
    for _ in range(150):
        hands, tasks, objective, d1 = _case(rng, seats)
        on = _search(hands, tasks, objective, d1, tricks, 1)
        off = _search(hands, tasks, objective, d1, tricks, 0)
        assert on == off, (hands, tasks, objective, d1)
        seen[on] += 1
        if objective is None:
            commander = next(s for s, h in enumerate(hands) if h >> 39 & 1)
            verdict, plays, _ = solve_hands(hands, tricks, commander, tasks, 10**7)
            assert verdict == ("feasible" if on else "infeasible"), (hands, tasks)
            assert len(plays) % seats == 0
    assert seen[0] > 10 and seen[1] > 10  # both answers are exercised
