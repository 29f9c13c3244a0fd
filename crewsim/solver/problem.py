"""The solver's problem: one fully known deal, its tasks and objective, and the result type.

Every engine (the searches, the SAT models, the lead prover) depends on this module, and the
dispatcher (``crewsim.solver.api``) on the engines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import TYPE_CHECKING, Any

from crewsim.cards import Game, card_id
from crewsim.kernel.layout import OBJ_CODES, TOKEN_CODES  # one numbering for both engines
from crewsim.rules.deal import Deal
from crewsim.rules.game import TaskSpec
from crewsim.rules.objectives import DESIGNATED
from crewsim.rules.task_cards import HeldTask

if TYPE_CHECKING:
    from crewsim.missions.schema import Mission
from crewsim.kernel.layout import MAX_DS

MAX_TASKS = 36

VERDICTS = ("infeasible", "feasible", "unknown")


OBJECTIVE_CODES = OBJ_CODES  # the kernel's codes: one numbering of the objective kinds

DEEP_OBJECTIVES = frozenset(
    ("balance_rank_wins", "no_lead_suits", "first_trick_winner_most", "card_last_in_final_trick")
)

DESIGNATES = DESIGNATED  # crew members the commander names, per objective kind


class Unsupported(ValueError):
    """A mission rule the solver does not model."""


@dataclass(frozen=True)
class FreeChoice:
    """The solver gives out the tasks itself (Planet Nine: the tasks without an owner; Deep
    Sea: every task card), as the mission's rule for giving them out allows."""

    allocation: str = "any"  # an ``Allocation`` value; "any": every split (no rule)
    handover: bool = False  # five players, missions 25+: one task may change hands after


@dataclass(frozen=True)
class Problem:
    """One fully known deal with its task assignment and the mission's crew objective."""

    deal: Deal
    tasks: tuple[TaskSpec, ...]
    objective: tuple[str, Mapping[str, Any]] | None = None
    omega_last_trick: bool = False
    designated: tuple[int, ...] | None = None  # None: the solver may pick (the commander does)
    deep_sea: bool = False  # a Deep Sea hand: ``deep`` holds its task cards, ``tasks`` is empty
    deep: tuple[HeldTask, ...] = ()
    prefix: tuple[int, ...] = ()  # plays already made: can the game still be won after them?
    free: FreeChoice | None = None  # None: every task has its owner
    # Deep Sea: the predictions made bind the line (else a prediction is the crew's choice)
    predictions_made: bool = False

    def __post_init__(self) -> None:
        if len(set(self.prefix)) != len(self.prefix) or not all(0 <= c < 40 for c in self.prefix):
            raise ValueError("the plays made so far must be distinct cards")
        if self.deep_sea:
            self._verify_deep()
            return
        if len(self.tasks) > MAX_TASKS:
            raise ValueError(f"at most {MAX_TASKS} tasks")
        seen: set[int] = set()
        for t in self.tasks:
            if not 0 <= t.card < 36:
                raise ValueError("task cards are colour cards")
            if t.card in seen:
                raise ValueError("a task card appears twice")
            seen.add(t.card)
            if t.owner is None and self.free is None:
                raise ValueError("every task needs an owner seat (or a free choice of them)")
            if t.owner is not None and not 0 <= t.owner < self.deal.seats:
                raise ValueError(f"no seat {t.owner} at the table")
            if t.token not in TOKEN_CODES:
                raise ValueError(f"unknown order token {t.token!r}")
        if self.deep:
            raise ValueError("Deep Sea task cards need deep_sea=True")
        if self.objective is not None and (
            self.objective[0] not in OBJECTIVE_CODES or self.objective[0] in DEEP_OBJECTIVES
        ):
            raise Unsupported(f"objective {self.objective[0]!r} is not a Planet Nine objective")

    def _verify_deep(self) -> None:
        if self.tasks:
            raise ValueError("a Deep Sea hand has task cards with conditions, not card tasks")
        if len(self.deep) > MAX_DS:
            raise ValueError(f"at most {MAX_DS} Deep Sea task cards")
        for t in self.deep:
            if not 0 <= t.owner < self.deal.seats:
                raise ValueError(f"task card {t.card.number}: no seat {t.owner} at the table")
        if self.objective is not None and self.objective[0] not in DEEP_OBJECTIVES:
            raise Unsupported(f"objective {self.objective[0]!r} is not a Deep Sea objective")
        if self.omega_last_trick:
            raise ValueError("omega tokens belong to Planet Nine")

    @property
    def seats(self) -> int:
        return self.deal.seats

    def designation_choices(self) -> list[tuple[int, ...]]:
        """Seats the commander may designate for the objective (one choice when given)."""
        if self.objective is None or self.objective[0] not in DESIGNATES:
            return [()]
        if self.designated is not None:
            return [self.designated]
        need = DESIGNATES[self.objective[0]]
        cmd = self.deal.commander
        if need == 1:
            return [(s,) for s in range(self.seats) if s != cmd]
        return [tuple(p) for p in permutations(range(self.seats), 2)]


@dataclass
class Result:
    verdict: str  # feasible | infeasible | unknown | unsupported
    nodes: int
    seconds: float
    plays: list[int] = field(default_factory=list)  # winning line in play order
    tricks: list[list[int]] = field(default_factory=list)  # per trick, the card of each seat
    designated: tuple[int, ...] = ()
    reason: str = ""
    engine: str = ""  # what decided it: "dfs", "sat" or "counting" (none when unknown)
    owners: tuple[int, ...] = ()  # a free choice's owners, task by task (``Problem.free``)


def problem_from_mission(
    deal: Deal,
    tasks: Sequence[TaskSpec],
    mission: Mission | None,
    designated: tuple[int, ...] | None = None,
    deep: Sequence[HeldTask] = (),
    free: FreeChoice | None = None,
) -> Problem:
    """A Problem carrying a ``crewsim.missions.Mission``'s objective (and, for Deep Sea, the
    task cards ``deep`` in play); Unsupported if the solver cannot take it."""
    objective: tuple[str, Mapping[str, Any]] | None = None
    omega_last = False
    deep_sea = bool(deep)
    if mission is not None:
        deep_sea = mission.game is Game.DEEP_SEA
        objective, omega_last = mission_objective(mission)
    return Problem(
        deal, tuple(tasks), objective, omega_last, designated, deep_sea, tuple(deep), free=free
    )


def mission_objective(mission: Mission) -> tuple[tuple[str, Mapping[str, Any]] | None, bool]:
    """The crew objective and the omega flag the solver reads from a mission; Unsupported if
    the solver cannot model the mission at all (whatever the deal)."""
    if mission.card_draw_after_trick:
        raise Unsupported(
            f"{mission.id}: the random card draw after trick "
            f"{mission.card_draw_after_trick} is not supported by the solver"
        )
    objective: tuple[str, Mapping[str, Any]] | None = None
    omega_last = False
    for o in mission.objectives:
        kind = str(o.kind)
        if kind == "omega_last_trick":
            omega_last = True
        elif kind not in OBJECTIVE_CODES:
            raise Unsupported(f"{mission.id}: objective {kind} is not supported")
        elif objective is not None:
            raise Unsupported(f"{mission.id}: two crew objectives are not supported")
        else:
            objective = (kind, dict(o.params))
    return objective, omega_last


def unsupported_reason(mission: Mission) -> str | None:
    """Why the solver cannot judge this mission's deals, or None."""
    try:
        mission_objective(mission)
    except Unsupported as exc:
        return str(exc)
    return None


# ---- the memo table: one per process, reused across problems thanks to generation stamps


def objective_args(
    objective: tuple[str, Mapping[str, Any]] | None, deal: Deal | None = None
) -> tuple[int, int, int]:
    """(code, p1, p2) of an objective for the search; ``deal`` locates the pink 9."""
    if objective is None:
        return 0, 0, 0
    kind, params = objective
    code = OBJECTIVE_CODES[kind]
    p1 = p2 = 0
    if kind == "colour_ones_win":
        p1 = int(params.get("count", 1))
    elif kind == "each_trump_wins":
        p1 = int(bool(params.get("ordered", False)))
    elif kind == "no_win_with_rank":
        p1 = int(params["rank"])
    elif kind == "balanced_tricks":
        p1 = int(params.get("max_lead", 1))
        p2 = int(bool(params.get("commander_first_last", False)))
    elif kind in ("player_exactly_one_trick", "player_first_and_last_only"):
        p1 = int(bool(params.get("no_trump_win", True)))
    elif kind == "left_of_pink9_wins_pink":
        if deal is None:
            raise Unsupported("left_of_pink9_wins_pink needs the deal (use solve())")
        pink9 = card_id(0, 9)
        holder = next(s for s in range(deal.seats) if deal.full_hand(s) >> pink9 & 1)
        p1 = (holder + 1) % deal.seats
    elif kind == "role_split":
        p1 = int(params.get("first", 4))
        p2 = int(params.get("last", 1))
    return code, p1, p2
