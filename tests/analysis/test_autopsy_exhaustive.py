"""The solver and the loss autopsy against brute force on small positions.

The engine deals all 40 cards, so a small position is built as the solver tests build one
(``tests/solver/test_prefix.py``): a deal, a random legal line of plays for all tricks but
the last two or three (drawn with the referee's own ``legal_plays`` and ``trick_winner``),
and a few tasks (order tokens too) on cards still in hand, so that only those tricks decide
the game: 3 players with 3-4 cards each, 4 with 3, 5 with 2.  From there the referee
(``rules.game.GameState``) plays every line of play to its end; a position is winnable when
one of its lines wins.  The two-player dummy (cards uncovered as it plays) and Deep Sea's task
cards are left to ``test_autopsy.py``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache

import numpy as np
import pytest

from crewsim.analysis.autopsy import examine_play
from crewsim.missions import resolve_missions
from crewsim.missions.schema import Mission
from crewsim.rules.deal import Deal, deal_cards
from crewsim.rules.game import GameState, Rules, TaskSpec
from crewsim.rules.play import legal_plays, n_tricks, trick_winner
from crewsim.solver.api import solve
from crewsim.solver.problem import FreeChoice, Problem, problem_from_mission

Line = tuple[int, ...]

# players, tricks left, tasks, the order tokens among them
SHAPES = [(3, 3, 3, ("1", "2")), (4, 3, 3, ()), (4, 3, 2, (">", ">>")), (5, 2, 3, ("1",))]
SEEDS = range(6)
CASES = [(shape, seed) for shape in range(len(SHAPES)) for seed in SEEDS]
ALLOCATIONS = ("draft", "commander_distributes", "one_member")
# seed 7 of the first shape: the tasks won split among members, and no one-member allocation
# wins (the SAT model once lacked "at most one member": found by this test over seeds 0-9)
ONE_MEMBER_SPLITS = (0, 7, "one_member")
FREE_CASES = [
    *((shape, seed, rule) for shape, seed in CASES if seed < 2 for rule in ALLOCATIONS),
    ONE_MEMBER_SPLITS,
]


@dataclass(frozen=True)
class Small:
    """A deal with the plays made before the last few tricks, and tasks among the rest."""

    mission: Mission
    deal: Deal
    tasks: tuple[TaskSpec, ...]
    prefix: Line

    def state(
        self, tasks: tuple[TaskSpec, ...] | None = None, rules: Rules | None = None
    ) -> GameState:
        """The referee's game before its first card (tasks given out), not yet played on."""
        given = self.tasks if tasks is None else tasks
        return GameState(self.deal, list(given), rules or Rules.of(self.mission))

    def at_prefix(self, tasks: tuple[TaskSpec, ...] | None = None) -> GameState:
        game = self.state(tasks)
        for card in self.prefix:
            game.play(game.to_play, card)
        assert game.outcome is None  # the tasks' cards are all still in hand
        return game

    def problem(self, made: Line = ()) -> Problem:
        solver = problem_from_mission(self.deal, self.tasks, self.mission)
        return replace(solver, prefix=(*self.prefix, *made))


def _cards(mask: int) -> list[int]:
    return [c for c in range(40) if mask >> c & 1]


def _random_prefix(deal: Deal, plays: int, rng: np.random.Generator) -> Line:
    """Random legal plays, trick after trick, from the commander's lead."""
    hands, leader, made = list(deal.hands), deal.commander, []
    trick: list[int] = []
    for _ in range(plays):
        seat = (leader + len(trick)) % deal.seats
        led = trick[0] // 9 if trick else None
        card = int(rng.choice(_cards(legal_plays(hands[seat], led))))
        hands[seat] &= ~(1 << card)
        trick.append(card)
        made.append(card)
        if len(trick) == deal.seats:
            leader, _ = trick_winner(trick, leader, deal.seats)
            trick = []
    return tuple(made)


def _winners(deal: Deal, line: Line) -> dict[int, tuple[int, int]]:
    """Each card of a line -> (its trick, the seat that won it)."""
    seats, leader, out = deal.seats, deal.commander, {}
    for t in range(len(line) // seats):
        trick = line[t * seats : (t + 1) * seats]
        leader, _ = trick_winner(trick, leader, seats)
        out.update({c: (t, leader) for c in trick})
    return out


def small(players: int, left: int, n_tasks: int, tokens: tuple[str, ...], seed: int) -> Small:
    """A small position: ``left`` tricks to play, ``n_tasks`` tasks on cards still in hand.
    An even seed gives each task to the seat that wins its card in a random line (tokens in
    the order it takes them), so that line wins; an odd seed to a random seat."""
    rng = np.random.default_rng(seed)
    deal = deal_cards(players, rng)
    line = _random_prefix(deal, n_tricks(players) * players, rng)
    prefix = line[: (n_tricks(players) - left) * players]
    won = _winners(deal, line)
    rest = [c for c in line[len(prefix) :] if c < 36]
    cards = sorted((int(c) for c in rng.choice(rest, n_tasks, replace=False)), key=won.__getitem__)
    marks = list(tokens) + [None] * (n_tasks - len(tokens))
    owners = [won[c][1] if seed % 2 == 0 else int(rng.integers(players)) for c in cards]
    tasks = tuple(TaskSpec(c, marks[k], owners[k]) for k, c in enumerate(cards))
    return Small(resolve_missions("pn-10")[0], deal, tasks, prefix)


def win_table(game: GameState) -> dict[Line, bool]:
    """Every position from ``game`` on (the plays made since) -> whether one of its lines
    wins, by playing each line to its end with the referee."""
    table: dict[Line, bool] = {}

    def walk(g: GameState, made: Line) -> bool:
        if g.outcome is not None:
            table[made] = g.outcome.success
            return g.outcome.success
        wins = False
        for card in _cards(g.legal()):
            child = copy.deepcopy(g)
            child.play(child.to_play, card)
            wins = walk(child, (*made, card)) or wins  # every child: the table is whole
        table[made] = wins
        return wins

    walk(game, ())
    return table


def can_win(game: GameState) -> bool:
    """Whether some line from ``game`` wins (brute force, stopping at the first)."""
    if game.outcome is not None:
        return game.outcome.success
    for card in _cards(game.legal()):
        child = copy.deepcopy(game)
        child.play(child.to_play, card)
        if can_win(child):
            return True
    return False


def ends(table: dict[Line, bool]) -> list[Line]:
    """The lines played to the game's end (no position of the table follows them)."""
    longer = {line[:-1] for line in table if line}
    return [line for line in table if line not in longer]


@cache
def position(shape: int, seed: int) -> tuple[Small, dict[Line, bool]]:
    pos = small(*SHAPES[shape], seed)
    return pos, win_table(pos.at_prefix())


def _verdict(problem: Problem, **budget: int) -> bool:
    verdict = solve(problem, **budget).verdict
    assert verdict in ("feasible", "infeasible")
    return verdict == "feasible"


@pytest.mark.parametrize(("shape", "seed"), CASES)
def test_the_solver_agrees_with_brute_force_at_every_position(shape: int, seed: int) -> None:
    """The search (DFS) at every position of the table, the SAT model along some lines and
    the solver's own winning line: winnable exactly when some line of the referee wins."""
    pos, table = position(shape, seed)
    for made, wins in table.items():
        assert _verdict(pos.problem(made), conflicts=0) == wins, made
    rng = np.random.default_rng(seed)
    lines = [list(ends(table))[int(k)] for k in rng.integers(len(ends(table)), size=3)]
    if table[()]:
        found = tuple(solve(pos.problem()).plays[len(pos.prefix) :])
        while found not in table:  # a line may run on past the trick that wins
            found = found[:-1]
        lines.append(found)
    for line in lines:
        for k in range(len(line) + 1):
            assert _verdict(pos.problem(line[:k]), budget=1) == table[line[:k]], line[:k]


def test_the_positions_hold_wins_and_losses() -> None:
    """The cases are not all alike: some positions can be won and some cannot, and from most
    of those that can some lines still lose (the autopsy's games)."""
    tables = [position(shape, seed)[1] for shape, seed in CASES]
    roots = [t[()] for t in tables]
    assert 0 < sum(roots) < len(roots)
    losing = [not all(t[line] for line in ends(t)) for t in tables if t[()]]
    assert sum(losing) >= 0.75 * len(losing)


def _first_lost(table: dict[Line, bool], line: Line) -> int:
    """The place in ``line`` of the play after which no line wins (brute force)."""
    return next(k for k in range(len(line)) if not table[line[: k + 1]])


def _play_kind(plays: Line, k: int, seats: int) -> str:
    if k % seats == 0:
        return "lead"
    card, led = plays[k], plays[k - k % seats]
    if card // 9 == led // 9:
        return "follow"
    return "trump" if card >= 36 else "discard"


def _lost_lines(table: dict[Line, bool], seed: int, n: int) -> Iterator[Line]:
    lost = [line for line in ends(table) if not table[line]]
    rng = np.random.default_rng(seed)
    for k in rng.permutation(len(lost))[:n]:
        yield lost[int(k)]


@pytest.mark.parametrize(("shape", "seed"), [c for c in CASES if c[1] % 2 == 0])
def test_the_autopsy_finds_the_first_play_after_which_nothing_wins(shape: int, seed: int) -> None:
    """For lost lines from a position that can be won (by a line that gave the tasks their
    owners): the decisive play is the first after which
    brute force finds no winning line, of the right kind, trick and seat, and the card the
    autopsy offers instead keeps a winning line."""
    pos, table = position(shape, seed)
    assert table[()]  # an even seed's tasks go to the winners of a line (``small``)
    seats = pos.deal.seats
    lost = list(_lost_lines(table, seed, 6))
    if not lost:  # rare (``test_the_positions_hold_wins_and_losses`` bounds it)
        pytest.skip("every line from this position wins")
    for line in lost:
        plays = (*pos.prefix, *line)
        exam = examine_play(pos.mission, pos.state(), pos.state(), plays)
        f = exam.finding
        k = _first_lost(table, line)
        at = len(pos.prefix) + k
        assert (f.kind, f.trick, f.card) == (_play_kind(plays, at, seats), at // seats + 1, line[k])
        before = pos.at_prefix()
        for card in line[:k]:
            before.play(before.to_play, card)
        assert f.seat == before.to_play
        assert f.alternative >= 0 and table[(*line[:k], f.alternative)]


def _given(tasks: tuple[TaskSpec, ...], owners: tuple[int, ...]) -> tuple[TaskSpec, ...]:
    return tuple(TaskSpec(t.card, t.token, o) for t, o in zip(tasks, owners, strict=True))


def _allocations(pos: Small, rule: str) -> set[tuple[int, ...]]:
    """Every owner tuple the referee's allocation rule lets the crew reach, move by move."""
    loose = tuple(TaskSpec(t.card, t.token, None) for t in pos.tasks)
    found: set[tuple[int, ...]] = set()

    def walk(game: GameState) -> None:
        if game.tasks_assigned:
            found.add(tuple(int(t.owner) for t in game.tasks if t.owner is not None))
            return
        for i in range(len(game.tasks)):
            for seat in range(game.seats):
                if game.can_assign_task(i, seat):
                    child = copy.deepcopy(game)
                    child.assign_task(i, seat)
                    walk(child)

    walk(pos.state(loose, replace(Rules.of(pos.mission), allocation=rule)))
    return found


@pytest.mark.parametrize(("shape", "seed", "rule"), FREE_CASES)
def test_free_choice_agrees_with_brute_force_over_every_allocation(
    shape: int, seed: int, rule: str
) -> None:
    """The solver left to give out the tasks within the rule wins exactly when one of the
    allocations the referee allows has a winning line."""
    pos = position(shape, seed)[0]
    owners = _allocations(pos, rule)
    assert owners
    wins = any(can_win(pos.at_prefix(_given(pos.tasks, a))) for a in owners)
    loose = tuple(TaskSpec(t.card, t.token, None) for t in pos.tasks)
    free = replace(pos.problem(), tasks=loose, free=FreeChoice(rule))
    assert _verdict(free) == wins
