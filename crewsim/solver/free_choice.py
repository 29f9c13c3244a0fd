"""Free task choice: the solver gives out the tasks itself, within the mission's rule.

Planet Nine's tasks go to the SAT model as owner variables (``a[i, s]``: seat ``s`` takes task
``i``, exactly one a task; a task card played in a trick that ``s`` wins is ``s``'s), with
each seat's count of tasks bounded as the mission's allocation allows: the draft's counts
(commander first, then clockwise), the commander's even split, or all of them to one member.
Deep Sea's selection rules ask about the cards themselves (the captain may not take some,
the draft's turns, volunteers), so there every split the referee's rule allows is tried in
turn (``deep_allocations``), up to ``MAX_DEEP_ALLOCATIONS``, each on a small budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import product

import numpy as np

from crewsim.missions.schema import Mission
from crewsim.rules.deep_sea_setup import allocation_problems
from crewsim.rules.game import TaskSpec
from crewsim.rules.play import tricks_of
from crewsim.solver.problem import FreeChoice, Problem

# splits of Deep Sea task cards tried at most, each with a small budget (DFS plays, SAT
# conflicts): a free choice answers "unknown" rather than spend minutes on one deal
MAX_DEEP_ALLOCATIONS = 64
SPLIT_BUDGET = 20_000
SPLIT_CONFLICTS = 2_000

HANDOVER_RELAXED = (
    "the five-player hand-over of one task is read as: each member may end one task above "
    "or below the draft's count"
)


@dataclass(frozen=True)
class Shares:
    """How many of the tasks each seat may end with; ``one_of``: all of them go to a single
    seat among these (empty: no such rule)."""

    least: tuple[int, ...]
    most: tuple[int, ...]
    one_of: tuple[int, ...] = ()
    relaxed: str = ""  # what of the mission's rule the bounds leave out


def shares(free: FreeChoice, n_tasks: int, seats: int, commander: int) -> Shares:
    """A Planet Nine allocation rule as per-seat bounds on the tasks' count."""
    q, r = divmod(n_tasks, seats)
    if free.allocation == "draft":
        counts = [0] * seats
        for j in range(seats):
            counts[(commander + j) % seats] = q + (j < r)
        if free.handover:
            return Shares(
                tuple(max(0, c - 1) for c in counts),
                tuple(c + 1 for c in counts),
                relaxed=HANDOVER_RELAXED,
            )
        return Shares(tuple(counts), tuple(counts))
    if free.allocation == "commander_distributes":
        return Shares((q,) * seats, (q + (r > 0),) * seats)
    if free.allocation == "one_member":
        return Shares(
            (0,) * seats, (n_tasks,) * seats, tuple(s for s in range(seats) if s != commander)
        )
    return Shares((0,) * seats, (n_tasks,) * seats)


def freed(problem: Problem, mission: Mission | None) -> Problem:
    """The same deal with the tasks' owners (and the designation) left to the solver, within
    the mission's allocation rule ("any" split without a mission)."""
    free = FreeChoice()
    if mission is not None:
        handover = mission.task_handover_5p and problem.deal.players == 5
        free = FreeChoice(str(mission.allocation), handover)
    tasks = tuple(TaskSpec(t.card, t.token, None) for t in problem.tasks)
    return replace(problem, tasks=tasks, designated=None, free=free)


def owners_of_line(problem: Problem, plays: Sequence[int]) -> list[int]:
    """Who takes each task in a line of play: the winner of the trick its card falls in."""
    winner_of = {
        c: trick.winner
        for trick in tricks_of(plays, problem.deal.commander, problem.seats)
        if trick.winner is not None
        for c in trick.cards
    }
    return [winner_of.get(t.card, -1) if t.owner is None else t.owner for t in problem.tasks]


def with_owners(tasks: Sequence[TaskSpec], owners: Sequence[int]) -> tuple[TaskSpec, ...]:
    """The tasks given to ``owners``."""
    return tuple(TaskSpec(t.card, t.token, o) for t, o in zip(tasks, owners, strict=True))


def deep_allocations(problem: Problem) -> Iterator[tuple[int, ...]]:
    """Every owner tuple for the Deep Sea task cards that the mission's selection rule allows,
    the cards' present owners first; ValueError when there are more than
    ``MAX_DEEP_ALLOCATIONS`` splits to try."""
    assert problem.free is not None
    seats, n = problem.seats, len(problem.deep)
    if seats**n > MAX_DEEP_ALLOCATIONS * 64:
        raise ValueError(f"{n} task cards at {seats} seats: too many splits to try")
    cards = [t.card for t in problem.deep]
    given = tuple(t.owner for t in problem.deep)
    rule, captain = problem.free.allocation, problem.deal.commander
    allowed = [
        owners
        for owners in product(range(seats), repeat=n)
        if rule == "any"
        or not allocation_problems(rule, cards, owners, problem.deal.players, captain)
    ]
    if len(allowed) > MAX_DEEP_ALLOCATIONS:
        raise ValueError(f"{len(allowed)} splits of the task cards: too many to try")
    if given in allowed:
        allowed.remove(given)
        allowed.insert(0, given)
    yield from allowed


def share_clauses(
    clauses: list[list[int]],
    new_var: Callable[[], int],
    won_in: Callable[[int, int], int],
    played_in: Callable[[int, int], int],
    tasks: Sequence[TaskSpec],
    seats: int,
    tricks: int,
    limits: Shares,
) -> list[tuple[list[int], int]]:
    """The owner variables of the tasks without an owner, as clauses into ``clauses``; returns
    the at-most counts (literals, bound) that bound each seat's share."""
    free = [k for k, t in enumerate(tasks) if t.owner is None]
    fixed = [0] * seats
    for task in tasks:
        if task.owner is not None:
            fixed[task.owner] += 1
    owner = {k: [new_var() for _ in range(seats)] for k in free}
    for k in free:
        group = owner[k]
        clauses.append(group)
        clauses.extend([-a, -b] for i, a in enumerate(group) for b in group[:i])
        for t in range(tricks):
            for s in range(seats):  # its card falls in a trick s wins: s's task
                clauses.append([-played_in(tasks[k].card, t), -won_in(s, t), group[s]])
    counts: list[tuple[list[int], int]] = []
    for s in range(seats):
        mine = [owner[k][s] for k in free]
        for group, bound in (
            (mine, limits.most[s] - fixed[s]),
            ([-a for a in mine], len(free) - max(0, limits.least[s] - fixed[s])),
        ):
            if bound < 0:  # the fixed owners alone break the rule: no model
                clauses.extend(([new_var()], []))
            elif bound < len(group):
                counts.append((group, bound))
    if limits.one_of:
        chosen = {s: new_var() for s in limits.one_of}
        picks = list(chosen.values())
        clauses.append(picks)  # exactly one member takes them all
        clauses.extend([-a, -b] for i, a in enumerate(picks) for b in picks[:i])
        for s in range(seats):
            for k in free:
                clauses.append([-owner[k][s], chosen[s]] if s in chosen else [-owner[k][s]])
        for s in range(seats):
            if s in chosen and fixed[s] < sum(fixed):
                clauses.append([-chosen[s]])  # another seat already holds a task
    return counts


def count_arrays(
    base: tuple[np.ndarray, np.ndarray, np.ndarray], extra: Sequence[tuple[list[int], int]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The model's at-most counts (literals, ends, bounds) with ``extra`` appended."""
    lits, ends, bounds = (a.tolist() for a in base)
    for group, bound in extra:
        lits.extend(group)
        ends.append(len(lits))
        bounds.append(bound)
    return (np.array(lits, np.int32), np.array(ends, np.int32), np.array(bounds, np.int32))
