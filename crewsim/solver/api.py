"""Perfect-information feasibility: the Python face of the numba search.

``solve(problem)`` answers one deal (``simulate --ceiling`` calls it once a deal).  Verdicts:
``feasible`` (with the winning line), ``infeasible``, ``unknown`` (node budget spent) and
``unsupported`` (a mission rule the solver does not model: a random card draw mid-hand, two
crew objectives).  Deep Sea problems (task cards with conditions) go to
``crewsim.solver.deep_sea``; what a search leaves open goes to the SAT engine (``sat`` for
Planet Nine, ``sat_deep`` for Deep Sea).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import permutations
from typing import TYPE_CHECKING, Any

import numpy as np

from crewsim.cards import N_CARDS, Game, card_id
from crewsim.kernel.layout import OBJ_CODES
from crewsim.missions.schema import TaskKind
from crewsim.rules.conditions import HeldTask
from crewsim.rules.deal import Deal
from crewsim.rules.game import TaskSpec
from crewsim.rules.objectives import DESIGNATED
from crewsim.rules.order import ARROWS, NUMBERED, OMEGA
from crewsim.rules.play import n_tricks, trick_winner
from crewsim.solver import leads
from crewsim.solver.sat import DEFAULT_CONFLICTS  # SAT conflicts per deal the DFS leaves open

if TYPE_CHECKING:
    from crewsim.missions.schema import Mission

DEFAULT_BUDGET = 200_000  # card plays per problem before the DFS gives up
HANDOFF = 20_000  # DFS plays before an open deal goes to the second engine: 5k-100k measured,
# 20k best (the SAT engine settles in ~20-40 ms what the DFS would spend ~30 ms more on, mostly
# in vain); with MiniCard's counts 5k and 10k were within the noise at 10 tasks, slower at 6
TABLE_BITS = 16  # memo rows at least: 2**16 x 64 bytes = 4 MiB per process, a row for each
# trick boundary of the default budget; a larger budget gets a larger table, up to 2**22 rows
# (256 MiB).  Against 2**19 rows: the same plays, 1-2 % more deals/s (fewer cache misses)
MAX_TABLE_BITS = 22
MAX_TASKS = 36

VERDICTS = ("infeasible", "feasible", "unknown")

TOKEN_CODES: dict[str | None, int] = {None: 0, OMEGA: 10}
TOKEN_CODES.update({t: i + 1 for i, t in enumerate(NUMBERED)})
TOKEN_CODES.update({t: 6 + i for i, t in enumerate(ARROWS)})

OBJECTIVE_CODES = OBJ_CODES  # the kernel's codes: one numbering of the objective kinds
DEEP_OBJECTIVES = frozenset(
    ("balance_rank_wins", "no_lead_suits", "first_trick_winner_most", "card_last_in_final_trick")
)
DESIGNATES = DESIGNATED  # crew members the commander names, per objective kind


class Unsupported(ValueError):
    """A mission rule the solver does not model."""


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

    def __post_init__(self) -> None:
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
            if t.owner is None or not 0 <= t.owner < self.deal.seats:
                raise ValueError("every task needs an owner seat")
            if t.token not in TOKEN_CODES:
                raise ValueError(f"unknown order token {t.token!r}")
        if self.deep:
            raise ValueError("Deep Sea task cards need deep_sea=True")
        if self.objective is not None and (
            self.objective[0] not in OBJECTIVE_CODES or self.objective[0] in DEEP_OBJECTIVES
        ):
            raise Unsupported(f"objective {self.objective[0]!r} is not a Planet Nine objective")

    def _verify_deep(self) -> None:
        from crewsim.solver.deep_sea import MAX_DS

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


def problem_from_mission(
    deal: Deal,
    tasks: Sequence[TaskSpec],
    mission: Mission | None,
    designated: tuple[int, ...] | None = None,
    deep: Sequence[HeldTask] = (),
) -> Problem:
    """A Problem carrying a ``crewsim.missions.Mission``'s objective (and, for Deep Sea, the
    task cards ``deep`` in play); Unsupported if the solver cannot take it."""
    objective: tuple[str, Mapping[str, Any]] | None = None
    omega_last = False
    deep_sea = bool(deep)
    if mission is not None:
        deep_sea = mission.game is Game.DEEP_SEA
        objective, omega_last = mission_objective(mission)
    return Problem(deal, tuple(tasks), objective, omega_last, designated, deep_sea, tuple(deep))


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

_TABLE: np.ndarray | None = None
_GEN = 1


def table_bits(budget: int) -> int:
    """log2 of the memo rows for ``budget`` plays: one a trick boundary (every 4 plays, at 4
    players), within ``TABLE_BITS`` and ``MAX_TABLE_BITS``."""
    return min(MAX_TABLE_BITS, max(TABLE_BITS, (budget // 4).bit_length()))


def _table(budget: int = DEFAULT_BUDGET) -> np.ndarray:
    """The memo table, with a row for each trick boundary ``budget`` plays can reach (a new
    table starts empty: no row carries a generation stamp yet)."""
    global _TABLE
    bits = table_bits(budget)
    if _TABLE is None or len(_TABLE) < 1 << bits:
        from crewsim.solver.search import KEY_W

        _TABLE = np.zeros((1 << bits, KEY_W), dtype=np.int64)
    return _TABLE


def _objective_args(
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


def _arrays(problem: Problem) -> dict[str, np.ndarray]:
    d = problem.deal
    hands = np.zeros((1, 5), dtype=np.int64)
    for s, h in enumerate(d.hands):
        hands[0, s] = h
    unders = np.full((1, N_CARDS), -1, dtype=np.int64)
    for top, below in d.dummy_under:
        unders[0, top] = below
    nt = len(problem.tasks)
    cards = np.zeros((1, max(nt, 1)), dtype=np.int64)
    owners = np.zeros_like(cards)
    tokens = np.zeros_like(cards)
    for i, t in enumerate(problem.tasks):
        cards[0, i], owners[0, i], tokens[0, i] = t.card, t.owner or 0, TOKEN_CODES[t.token]
    return {"hands": hands, "unders": unders, "cards": cards, "owners": owners, "tokens": tokens}


def solve(
    problem: Problem, budget: int = DEFAULT_BUDGET, prune: bool = True,
    conflicts: int = DEFAULT_CONFLICTS,
) -> Result:
    """Is there a sequence of legal plays that wins?  ``budget`` caps the DFS's card plays.
    When the second engine models the deal, the DFS hands it over after ``HANDOFF`` plays
    for up to ``conflicts`` SAT conflicts, and takes the rest of its budget only if that
    settles nothing.  Both budgets are counts: the verdict is the same on any machine.  A Deep
    Sea deal with forbidden leads is first tried by counting (``leads``)."""
    start = time.perf_counter()
    if problem.deep_sea and leads.refutes(problem):
        secs = time.perf_counter() - start
        return Result("infeasible", 0, secs, reason=leads.REASON, engine="counting")
    search = _deep_dfs if problem.deep_sea else _dfs
    handoff = conflicts > 0 and _engine_covers(problem)
    first = min(budget, HANDOFF) if handoff else budget
    verdict, total, best = search(problem, first, prune)
    engine = "dfs"
    if best is None and verdict == 2 and handoff:
        best = _second_engine(problem, conflicts)
        if best is not None:
            engine = "sat"
            if best.verdict == "infeasible":
                verdict, best = 0, None
        elif first < budget:
            verdict, more, best = search(problem, budget, prune)
            total += more
    secs = time.perf_counter() - start
    if best is not None:
        best.nodes, best.seconds, best.engine = total, secs, engine
        return best
    return Result(VERDICTS[verdict], total, secs, engine=engine if verdict != 2 else "")


def _dfs(problem: Problem, budget: int, prune: bool) -> tuple[int, int, Result | None]:
    """The numba search over every designation choice: (verdict code, plays, feasible line)."""
    from crewsim.solver.search import solve_batch

    global _GEN
    a = _arrays(problem)
    code, p1, p2 = _objective_args(problem.objective, problem.deal)
    seats, nt = problem.seats, n_tricks(problem.deal.players)
    dummy = 2 if problem.deal.players == 2 else -1
    total = 0
    verdict = 0
    for choice in problem.designation_choices():
        d1 = np.array([choice[0] if choice else -1], dtype=np.int64)
        d2 = np.array([choice[1] if len(choice) > 1 else -1], dtype=np.int64)
        verdicts = np.zeros(1, dtype=np.int64)
        nodes = np.zeros(1, dtype=np.int64)
        lines = np.full((1, 48), -1, dtype=np.int64)
        _GEN = solve_batch(
            a["hands"], a["unders"], seats, nt, dummy,
            a["cards"], a["owners"], a["tokens"], np.array([len(problem.tasks)]),
            problem.omega_last_trick, code, p1, p2, d1, d2,
            budget, _table(budget), _GEN, int(prune), verdicts, nodes, lines,
        )  # fmt: skip
        total += int(nodes[0])
        v = int(verdicts[0])
        if v == 1:
            plays = [int(c) for c in lines[0] if c >= 0]
            return 1, total, Result("feasible", 0, 0.0, plays, split_tricks(problem, plays), choice)
        if v == 2:
            verdict = 2
    return verdict, total, None


def _deep_dfs(problem: Problem, budget: int, memo: bool) -> tuple[int, int, Result | None]:
    """The Deep Sea search: the task cards' conditions, judged by the kernel's judges."""
    from crewsim.solver.deep_sea import problem_arrays, solve_deep_arrays

    d = problem.deal
    codes, owners, objective = problem_arrays(problem)
    v, nodes, plays = solve_deep_arrays(
        d.hands, d.dummy_under, d.players, n_tricks(d.players), codes, owners, objective,
        budget, memo,
    )  # fmt: skip
    if v == 1:
        return v, nodes, Result("feasible", 0, 0.0, plays, split_tricks(problem, plays))
    return v, nodes, None


def _engine_covers(problem: Problem) -> bool:
    """Whether the SAT engine models the problem (Deep Sea: always; Planet Nine: the
    objectives of ``sat.COVERED``)."""
    from crewsim.solver import sat

    return problem.deep_sea or sat.supported(problem)


def _second_engine(problem: Problem, conflicts: int) -> Result | None:
    """The SAT engine's answer for a deal the DFS left open: a Result, or None (no answer)."""
    from crewsim.solver import sat, sat_deep

    chosen: tuple[int, ...] = ()
    try:
        if problem.deep_sea:
            verdict, plays = sat_deep.solve_deep_sat(problem, conflicts)
        else:
            verdict, plays, chosen = sat.solve_sat(problem, conflicts)
    except ImportError:  # python-sat missing: the DFS's "unknown" stands
        return None
    if verdict == sat.FEASIBLE:
        line = until_won(problem, plays, chosen)
        if line is None:  # the referee disagrees with the model: no answer rather than a wrong one
            return None
        return Result("feasible", 0, 0.0, line, split_tricks(problem, line), chosen)
    if verdict == sat.INFEASIBLE:
        return Result("infeasible", 0, 0.0)
    return None


def until_won(
    problem: Problem, plays: Sequence[int], designated: tuple[int, ...]
) -> list[int] | None:
    """The line cut after the trick in which the referee declares the mission won; None when
    it never does.  A Deep Sea prediction card announces what the whole line gives its owner."""
    from crewsim.cards import Game
    from crewsim.rules.game import GameState, IllegalMove, Rules

    objectives: tuple[tuple[str, Any], ...] = ()
    if problem.objective is not None:
        objectives += ((problem.objective[0], problem.objective[1]),)
    if problem.omega_last_trick:
        objectives += (("omega_last_trick", {}),)
    rules = Rules(objectives=objectives)
    if problem.deep_sea:
        wins = _wins(problem, plays)
        deep = [
            replace(t, predicted=wins[t.owner])
            if t.card.kind is TaskKind.WIN_PREDICTED_TRICK_COUNT
            else t
            for t in problem.deep
        ]
        g = GameState(problem.deal, [], rules, Game.DEEP_SEA, deep)
    else:
        g = GameState(problem.deal, list(problem.tasks), rules)
    try:
        if g.rules.n_designated:
            g.designate(designated)
        for k, c in enumerate(plays):
            g.play(g.to_play, c)
            if g.outcome is not None:
                return list(plays[: k + 1]) if g.outcome.success else None
    except IllegalMove:
        return None
    return None


def _wins(problem: Problem, plays: Sequence[int]) -> list[int]:
    """Tricks each seat wins in a line."""
    wins = [0] * problem.seats
    leader, n = problem.deal.commander, problem.seats
    for k in range(0, len(plays) - len(plays) % n, n):
        leader, _ = trick_winner(list(plays[k : k + n]), leader, n)
        wins[leader] += 1
    return wins


def split_tricks(problem: Problem, plays: Sequence[int]) -> list[list[int]]:
    """Plays in order -> per trick, the card each seat played (indexed by seat)."""
    seats = problem.seats
    leader = problem.deal.commander
    out: list[list[int]] = []
    for k in range(0, len(plays) - len(plays) % seats, seats):
        trick = list(plays[k : k + seats])
        by_seat = [0] * seats
        for i, c in enumerate(trick):
            by_seat[(leader + i) % seats] = c
        out.append(by_seat)
        leader, _ = trick_winner(trick, leader, seats)
    return out


def warm_up(problem: Problem, budget: int, conflicts: int) -> None:
    """Solve a one-task copy of ``problem``, and model it for the SAT engine: it loads the
    compiled search, clauses and line building and python-sat (about 0.7 s; the first run of
    an install compiles them), so no deal's timed solve counts that load."""
    if problem.deep_sea:
        leads.warm_up()
    small = replace(problem, tasks=problem.tasks[:1], deep=problem.deep[:1])
    solve(small, budget=budget, conflicts=conflicts)
    if conflicts > 0 and _engine_covers(small):
        _second_engine(small, 1)
