"""On a small deck (two colours 1-5, two trumps, 3 players, 4 tricks) the numba search agrees
with a plain exhaustive search, with its prunings on and off, over many random cases."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from crewsim.kernel import layout as L
from crewsim.rules.game import TaskSpec
from crewsim.rules.order import TOKENS
from crewsim.solver.dfs_layout import TOK_OMEGA, token_precedes
from crewsim.solver.problem import OBJECTIVE_CODES, TOKEN_CODES
from crewsim.solver.search import solve_batch
from tests.solver.helpers import exhaustive

DECK = [0, 1, 2, 3, 4, 9, 10, 11, 12, 13, 38, 39]  # pink1-5, blue1-5, rocket3, rocket4
SEATS, TRICKS = 3, 4
OBJECTIVES: list[tuple[str, dict[str, Any]] | None] = [
    None,
    None,
    None,
    ("player_wins_no_tricks", {}),
    ("balanced_tricks", {"max_lead": 1, "commander_first_last": False}),
    ("player_exactly_one_trick", {"no_trump_win": True}),
    ("player_first_and_last_only", {"no_trump_win": False}),
    ("role_split", {"first": 1, "last": 1}),
]


def _case(rng: random.Random) -> tuple[list[int], list[TaskSpec], Any, tuple[int, ...]]:
    cards = DECK[:]
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[4 * s : 4 * s + 4]) for s in range(SEATS)]
    n = rng.randint(1, 4)
    colour = [c for c in DECK if c < 36]
    task_cards = rng.sample(colour, n)
    tokens: list[str | None] = [None] * n
    for i in rng.sample(range(n), rng.randint(0, n)):
        tokens[i] = rng.choice(TOKENS)
    tasks = [TaskSpec(c, tokens[i], rng.randrange(SEATS)) for i, c in enumerate(task_cards)]
    objective = rng.choice(OBJECTIVES)
    designated: tuple[int, ...] = ()
    if objective is not None:
        commander = next(s for s, h in enumerate(hands) if h >> 39 & 1)
        others = [s for s in range(SEATS) if s != commander]
        designated = (
            tuple(rng.sample(range(SEATS), 2))
            if objective[0] == "role_split"
            else (rng.choice(others),)
        )
    return hands, tasks, objective, designated


def _solve(
    hands: list[int], tasks: list[TaskSpec], objective: Any, designated: tuple[int, ...], prune: int
) -> int:
    from crewsim.solver.api import _table
    from crewsim.solver.problem import objective_args

    h = np.zeros((1, 5), dtype=np.int64)
    h[0, :SEATS] = hands
    k = len(tasks)
    cards = np.array([[t.card for t in tasks]], dtype=np.int64)
    owners = np.array([[t.owner for t in tasks]], dtype=np.int64)
    tokens = np.array([[TOKEN_CODES[t.token] for t in tasks]], dtype=np.int64)
    code, p1, p2 = objective_args(objective)
    d1 = np.array([designated[0] if designated else -1], dtype=np.int64)
    d2 = np.array([designated[1] if len(designated) > 1 else -1], dtype=np.int64)
    verdicts = np.zeros(1, dtype=np.int64)
    nodes = np.zeros(1, dtype=np.int64)
    lines = np.full((1, 48), -1, dtype=np.int64)
    import crewsim.solver.api as api

    api._GEN = solve_batch(
        h,
        np.full((1, 40), -1, dtype=np.int64),
        SEATS,
        TRICKS,
        -1,
        cards,
        owners,
        tokens,
        np.array([k]),
        False,
        code,
        p1,
        p2,
        d1,
        d2,
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


@pytest.mark.parametrize("seed", range(4))
def test_agrees_with_exhaustive_search(seed: int) -> None:
    rng = random.Random(seed)
    assert set(OBJECTIVE_CODES) >= {o[0] for o in OBJECTIVES if o}
    verdicts = {0: 0, 1: 0}
    for _ in range(400):
        hands, tasks, objective, designated = _case(rng)
        want = exhaustive(hands, tasks, TRICKS, objective, designated)
        got = _solve(hands, tasks, objective, designated, 1)
        assert got == int(want), (hands, tasks, objective, designated)
        assert _solve(hands, tasks, objective, designated, 0) == got
        verdicts[got] += 1
    assert verdicts[0] > 20 and verdicts[1] > 20  # both answers are exercised


def test_the_solver_numbers_tokens_as_the_kernel_does() -> None:
    """One numbering of the order tokens: every token the referee knows, the omega code the
    searches test for, and the arrows ordered by their heads."""
    assert TOKEN_CODES is L.TOKEN_CODES and set(TOKENS) <= set(TOKEN_CODES)
    assert TOKEN_CODES["omega"] == TOK_OMEGA
    assert token_precedes(TOKEN_CODES[">"], TOKEN_CODES[">>"])
    assert not token_precedes(TOKEN_CODES[">>"], TOKEN_CODES[">"])
    assert token_precedes(TOKEN_CODES["3"], TOKEN_CODES[">"])
    assert not token_precedes(TOKEN_CODES[">"], TOKEN_CODES["3"])
