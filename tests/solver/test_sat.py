"""The SAT engine on full deals: it agrees with the DFS wherever the DFS settles a deal, its
feasible lines replay through the referee as wins, ``solve`` hands it what the DFS leaves open,
and it agrees with a plain exhaustive search on small decks (which checks the symmetry
clauses)."""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

from crewsim.rules.game import TaskSpec
from crewsim.rules.order import TOKENS
from crewsim.rules.play import legal_plays, trick_winner
from crewsim.rules.setup import random_setup
from crewsim.solver import sat
from crewsim.solver.api import solve, until_won
from crewsim.solver.problem import Problem, objective_args
from crewsim.solver.sat import Objective, supported
from tests.solver.helpers import OBJECTIVES, exhaustive, replay


@pytest.mark.parametrize("players", [3, 4, 5])
def test_sat_agrees_with_dfs_and_replays(players: int) -> None:
    for k in range(6):
        deal, tasks = random_setup(players, 3 + k % 4, ("1", "2", ">", "omega")[: k % 3], 77 + k)
        problem = Problem(deal, tuple(tasks))
        assert supported(problem)
        forced = solve(problem, budget=1, conflicts=10**7)  # the DFS gives up at once
        assert forced.verdict in ("feasible", "infeasible")
        dfs = solve(problem, budget=3_000_000, conflicts=0)
        if dfs.verdict != "unknown":
            assert dfs.verdict == forced.verdict, (players, k)
        if forced.verdict == "feasible":
            g = replay(problem, forced)
            assert g.outcome is not None and g.outcome.success, g.trace()


def test_dfs_only_leaves_unknown() -> None:
    deal, tasks = random_setup(4, 10, (), 3)
    res = solve(Problem(deal, tuple(tasks)), budget=1, conflicts=0)
    assert res.verdict == "unknown"


def test_the_engine_budget_is_a_count_not_a_clock() -> None:
    """Conflicts, not seconds: the same budget gives the same verdict on any machine."""
    deal, tasks = random_setup(4, 10, (), 1_000_004)  # a deal the DFS leaves to the engine
    problem = Problem(deal, tuple(tasks))
    assert solve(problem, budget=20_000, conflicts=0).verdict == "unknown"
    assert [sat.solve_sat(problem, 1)[0] for _ in range(3)] == ["unknown"] * 3
    assert solve(problem, budget=20_000, conflicts=1).verdict == "unknown"
    assert solve(problem, budget=20_000).verdict == sat.solve_sat(problem, 10**6)[0] == "infeasible"


def test_the_dummy_agrees_with_exhaustive_search() -> None:
    """Two humans and a dummy of two stacks on a small deck: a card beneath comes into play
    only after its cover's trick, and only face-up cards oblige the dummy to follow."""
    deck = [0, 1, 2, 3, 9, 10, 11, 12, 38]
    rng = random.Random(11)
    seen = {"feasible": 0, "infeasible": 0}
    for case in range(150):
        cards = deck[:]
        rng.shuffle(cards)
        humans = [*cards[:5], 39]
        rng.shuffle(humans)
        tops, beneath = cards[5:7], cards[7:9]
        under = list(zip(tops, beneath, strict=True))
        up = [
            sum(1 << c for c in humans[:3]),
            sum(1 << c for c in humans[3:]),
            sum(1 << c for c in tops),
        ]
        full = [*up[:2], up[2] | sum(1 << c for c in beneath)]
        tasks = [
            TaskSpec(c, rng.choice(TOKENS[:2] + (None, None)), rng.randrange(3))
            for c in rng.sample([c for c in deck if c < 36], rng.randint(1, 3))
        ]
        commander = next(s for s, h in enumerate(full) if h >> 39 & 1)
        verdict, plays, _ = sat.solve_hands(full, 3, commander, tasks, 10**7, under=under)
        want = exhaustive(up, tasks, 3, under=under)
        assert verdict == ("feasible" if want else "infeasible"), (case, up, under, tasks)
        if verdict == "feasible":
            assert _line_wins(up, tasks, plays, dict(under)), (case, plays)
        seen[verdict] += 1
    assert min(seen.values()) > 20, seen


COVERED = [obj for obj in OBJECTIVES if obj is not None]


@pytest.mark.parametrize("objective", COVERED, ids=[o[0] for o in COVERED])
def test_objectives_agree_with_the_dfs_and_replay(objective: Any) -> None:
    """The engine against the DFS alone; the commander's designation is the engine's to
    choose, and the referee declares its line a win."""
    seen = set()
    for k in range(12):
        players = 3 + k % 3
        deal, tasks = random_setup(players, 1 + k % 5, ("omega",)[: k % 2], 500 + k)
        problem = Problem(deal, tuple(tasks), objective, omega_last_trick=k % 4 == 1)
        seen.add(_checked_verdict(problem, (objective, k)))
    assert {"feasible", "infeasible"} <= seen, seen


def _checked_verdict(problem: Problem, case: Any) -> str:
    """The engine's verdict, where the DFS (2 million plays) settles the deal the same, and
    a feasible line the referee declares won."""
    verdict, plays, chosen = sat.solve_sat(problem, 10**6)
    dfs = solve(problem, budget=2_000_000, conflicts=0)
    if "unknown" not in (dfs.verdict, verdict):
        assert dfs.verdict == verdict, case
    if verdict == "feasible":
        assert until_won(problem, plays, chosen) is not None, case
    return verdict


def _line_wins(
    hands: list[int], tasks: list[TaskSpec], plays: list[int], under: dict[int, int] | None = None
) -> bool:
    """Whether ``plays`` is legal and completes every task in order (a tiny referee);
    ``under`` maps a dummy's face-up cards to the cards beneath (``hands``: face-up only)."""
    seats = len(hands)
    left = list(hands)
    under = under or {}
    leader = next(s for s, h in enumerate(hands) if h >> 39 & 1)
    done: dict[int, int] = {}
    for k in range(0, len(plays), seats):
        trick = plays[k : k + seats]
        for i, c in enumerate(trick):
            s = (leader + i) % seats
            if not legal_plays(left[s], None if i == 0 else trick[0] // 9) >> c & 1:
                return False
            left[s] &= ~(1 << c)
        for i, c in enumerate(trick):
            if c in under:
                left[(leader + i) % seats] |= 1 << under[c]
        leader, _ = trick_winner(trick, leader, seats)
        for i, tk in enumerate(tasks):
            if tk.card in trick:
                if tk.owner != leader:
                    return False
                done[i] = k
    from crewsim.rules.order import predecessors

    pred = predecessors([tk.token for tk in tasks])
    return len(done) == len(tasks) and all(
        done[j] <= done[i] for i in range(len(tasks)) for j in range(len(tasks)) if pred[i] >> j & 1
    )


def test_small_decks_agree_with_exhaustive_search() -> None:
    # pink and blue 1-5 with rockets 3-4 over 3 seats, and 4 seats with a card kept back;
    # equal runs of cards in one hand exercise the symmetry clauses
    deck = [0, 1, 2, 3, 4, 9, 10, 11, 12, 13, 38, 39]
    rng = random.Random(5)
    seen = {"feasible": 0, "infeasible": 0}
    for case in range(80):
        seats = 3 if case % 2 else 4
        cards = deck[:]
        rng.shuffle(cards)
        sizes = [4] * 3 if seats == 3 else [3, 3, 3, 3]
        hands, k = [], 0
        for n in sizes:
            hands.append(sum(1 << c for c in cards[k : k + n]))
            k += n
        if seats == 3:
            hands[0] |= 1 << 5  # a 5th card: kept back (pink6 beats every other pink)
        n_tasks = rng.randint(1, 4)
        task_cards = rng.sample([c for c in deck if c < 36], n_tasks)
        tokens: list[str | None] = [None] * n_tasks
        for i in rng.sample(range(n_tasks), rng.randint(0, min(2, n_tasks))):
            tokens[i] = rng.choice(TOKENS)
        tasks = [TaskSpec(c, tokens[i], rng.randrange(seats)) for i, c in enumerate(task_cards)]
        tricks = 4 if seats == 3 else 3
        commander = next(s for s, h in enumerate(hands) if h >> 39 & 1)
        verdict, plays, _ = sat.solve_hands(hands, tricks, commander, tasks, 10**7)
        assert verdict == ("feasible" if exhaustive(hands, tasks, tricks) else "infeasible"), (
            hands,
            tasks,
        )
        if verdict == "feasible":
            assert _line_wins(hands, tasks, plays), (hands, tasks, plays)
        seen[verdict] += 1
    assert min(seen.values()) > 10, seen


SMALL_OBJECTIVES: list[tuple[str, dict[str, Any]]] = [
    ("player_wins_no_tricks", {}),
    ("player_exactly_one_trick", {"no_trump_win": True}),
    ("player_first_and_last_only", {"no_trump_win": False}),
    ("role_split", {"first": 1, "last": 1}),
    ("no_win_with_rank", {"rank": 2}),
    ("colour_ones_win", {"count": 1}),
    ("balanced_tricks", {"max_lead": 1, "commander_first_last": False}),
    ("balanced_tricks", {"max_lead": 0, "commander_first_last": True}),
]


def test_small_decks_with_objectives_agree_with_exhaustive_search() -> None:
    """The objective clauses against the referee's judges on every line of small deals."""
    deck = [0, 1, 2, 3, 4, 9, 10, 11, 12, 13, 38, 39]
    rng = random.Random(9)
    seen = {"feasible": 0, "infeasible": 0}
    for case in range(120):
        cards = deck[:]
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[k : k + 3]) for k in range(0, 12, 3)]
        commander = next(s for s, h in enumerate(hands) if h >> 39 & 1)
        kind, params = SMALL_OBJECTIVES[case % len(SMALL_OBJECTIVES)]
        if kind == "role_split":
            designated: tuple[int, ...] = tuple(rng.sample(range(4), 2))
        else:
            designated = (rng.choice([s for s in range(4) if s != commander]),)
        tasks = [TaskSpec(c, None, rng.randrange(4)) for c in rng.sample(deck[:10], case % 3)]
        code, p1, p2 = objective_args((kind, params))
        obj = Objective(code, p1, p2, (designated,))
        verdict, plays, chosen = sat.solve_hands(hands, 3, commander, tasks, 10**7, obj)
        want = exhaustive(hands, tasks, 3, (kind, params), designated)
        assert verdict == ("feasible" if want else "infeasible"), (case, kind, hands, tasks)
        if verdict == "feasible":
            assert chosen == designated and _line_wins(hands, tasks, plays)
        seen[verdict] += 1
    assert min(seen.values()) > 20, seen


@pytest.mark.parametrize("objective", [None, *COVERED], ids=["tasks"] + [o[0] for o in COVERED])
def test_two_players_agree_with_the_dfs_and_replay(objective: Any) -> None:
    """The dummy in full deals: the engine against the DFS, its lines through the referee."""
    seen = set()
    for k in range(8):
        deal, tasks = random_setup(2, 1 + k % 6, ("1", ">", "omega")[: k % 3], 900 + k)
        problem = Problem(deal, tuple(tasks), objective, omega_last_trick=k % 4 == 1)
        assert supported(problem)
        seen.add(_checked_verdict(problem, (objective, k)))
    assert "feasible" in seen


def test_the_collector_is_paused_only_while_a_model_is_solved() -> None:
    deal, tasks = random_setup(4, 4, (), 5)
    seen: list[bool] = []
    real = sat._solve_pysat

    def spy(cnf: Any, conflicts: int, activities: Any = None) -> Any:
        seen.append(gc.isenabled())
        return real(cnf, conflicts, activities)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sat, "_solve_pysat", spy)
        assert sat.solve_sat(Problem(deal, tuple(tasks)))[0] != sat.UNKNOWN
        assert seen == [False] and gc.isenabled()
        gc.disable()
        try:
            sat.solve_sat(Problem(deal, tuple(tasks)))
            assert not gc.isenabled()  # a caller's own choice is left as it was
        finally:
            gc.enable()


def test_the_task_cards_trick_variables_start_ahead() -> None:
    """MiniCard is handed, as starting activities, exactly the variables that place a task
    card in a trick (the decisions it should take first)."""
    deal, tasks = random_setup(4, 5, (), 11)
    handed: list[dict[int, float]] = []
    real = sat._solve_pysat

    def spy(cnf: Any, conflicts: int, activities: Any = None) -> Any:
        expected = {cnf.x(tk.card, t) for tk in tasks for t in range(cnf.tricks)}
        assert set(activities) == expected and len(expected) == 5 * cnf.tricks
        handed.append(activities)
        return real(cnf, conflicts, activities)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sat, "_solve_pysat", spy)
        assert sat.solve_sat(Problem(deal, tuple(tasks)))[0] != sat.UNKNOWN
    assert handed and set(handed[0].values()) == {sat.TASK_ACTIVITY}
