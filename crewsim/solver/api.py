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
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from crewsim.cards import N_CARDS, Game
from crewsim.missions.schema import TaskKind
from crewsim.rules.game import GameState, IllegalMove, Rules
from crewsim.rules.play import n_tricks, tricks_of
from crewsim.solver import free_choice, leads, sat, sat_deep
from crewsim.solver.deep_sea import problem_arrays, solve_deep_arrays
from crewsim.solver.dfs_layout import KEY_W
from crewsim.solver.sat import DEFAULT_CONFLICTS  # SAT conflicts per deal the DFS leaves open
from crewsim.solver.search import solve_batch

if TYPE_CHECKING:
    pass
from crewsim.solver.problem import TOKEN_CODES, VERDICTS, Problem, Result, objective_args

DEFAULT_BUDGET = 200_000  # card plays per problem before the DFS gives up


# DFS plays before an open deal goes to the SAT engine, which settles in tens of milliseconds
# what the DFS would mostly spend in vain (docs/tuning.md)
HANDOFF = 20_000
# memo rows at least (2**16 x 64 bytes = 4 MiB per process); a larger budget gets a larger
# table, up to 2**22 rows (256 MiB)
TABLE_BITS = 16
MAX_TABLE_BITS = 22


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
        _TABLE = np.zeros((1 << bits, KEY_W), dtype=np.int64)
    return _TABLE


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
    prefix = np.array([[*problem.prefix, -1]], dtype=np.int64)
    return {
        "hands": hands,
        "unders": unders,
        "cards": cards,
        "owners": owners,
        "tokens": tokens,
        "prefix": prefix,
    }


def solve(
    problem: Problem,
    budget: int = DEFAULT_BUDGET,
    prune: bool = True,
    conflicts: int = DEFAULT_CONFLICTS,
) -> Result:
    """Is there a sequence of legal plays that wins?  ``budget`` caps the DFS's card plays.
    When the second engine models the deal, the DFS hands it over after ``HANDOFF`` plays
    for up to ``conflicts`` SAT conflicts, and takes the rest of its budget only if that
    settles nothing.  Both budgets are counts: the verdict is the same on any machine.  A Deep
    Sea deal with forbidden leads is first tried by counting (``leads``)."""
    start = time.perf_counter()
    if problem.free is not None:
        result = _solve_free(problem, budget, prune, conflicts)
        result.seconds = time.perf_counter() - start
        return result
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


def _solve_free(problem: Problem, budget: int, prune: bool, conflicts: int) -> Result:
    """A free choice of owners (``free_choice``): Deep Sea tries each split the mission
    allows; Planet Nine asks the SAT model, which chooses the owners itself (the DFS needs
    them)."""
    if problem.deep_sea:
        verdict = "infeasible"
        try:
            splits = list(free_choice.deep_allocations(problem))
        except ValueError as exc:
            return Result("unknown", 0, 0.0, reason=str(exc))
        nodes = 0
        for owners in splits:
            deep = tuple(replace(t, owner=o) for t, o in zip(problem.deep, owners, strict=True))
            one = solve(
                replace(problem, free=None, deep=deep),
                min(budget, free_choice.SPLIT_BUDGET),
                prune,
                min(conflicts, free_choice.SPLIT_CONFLICTS),
            )
            nodes += one.nodes
            if one.verdict == "feasible":
                one.owners, one.nodes = owners, nodes
                return one
            if one.verdict != "infeasible":
                verdict = "unknown"
        return Result(verdict, nodes, 0.0, engine="dfs")
    if not sat.supported(problem):
        return Result("unsupported", 0, 0.0, reason="a free choice needs the SAT model")
    try:
        verdict, plays, chosen = sat.solve_sat(problem, max(conflicts, 1))
    except ImportError:
        return Result("unknown", 0, 0.0, reason="python-sat is missing")
    if verdict != sat.FEASIBLE:
        return Result(verdict, 0, 0.0, engine="sat" if verdict != sat.UNKNOWN else "")
    owners = tuple(free_choice.owners_of_line(problem, plays))
    fixed = replace(problem, free=None, tasks=free_choice.with_owners(problem.tasks, owners))
    line = until_won(fixed, plays, chosen)
    if line is None:  # the referee disagrees with the model: no answer rather than a wrong one
        return Result("unknown", 0, 0.0)
    return Result(
        "feasible", 0, 0.0, line, split_tricks(problem, line), chosen, engine="sat", owners=owners
    )


def _dfs(problem: Problem, budget: int, prune: bool) -> tuple[int, int, Result | None]:
    """The numba search over every designation choice: (verdict code, plays, feasible line)."""
    global _GEN
    a = _arrays(problem)
    code, p1, p2 = objective_args(problem.objective, problem.deal)
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
            a["hands"],
            a["unders"],
            seats,
            nt,
            dummy,
            a["cards"],
            a["owners"],
            a["tokens"],
            np.array([len(problem.tasks)]),
            problem.omega_last_trick,
            code,
            p1,
            p2,
            d1,
            d2,
            budget,
            _table(budget),
            _GEN,
            int(prune),
            verdicts,
            nodes,
            lines,
            a["prefix"],
            np.array([len(problem.prefix)], dtype=np.int64),
        )
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
    d = problem.deal
    codes, owners, objective = problem_arrays(problem)
    v, nodes, plays = solve_deep_arrays(
        d.hands,
        d.dummy_under,
        d.players,
        n_tricks(d.players),
        codes,
        owners,
        objective,
        budget,
        memo,
        problem.prefix,
    )
    if v == 1:
        return v, nodes, Result("feasible", 0, 0.0, plays, split_tricks(problem, plays))
    return v, nodes, None


def _engine_covers(problem: Problem) -> bool:
    """Whether the SAT engine models the problem (Deep Sea: always; Planet Nine: the
    objectives of ``sat.COVERED``)."""
    return problem.deep_sea or sat.supported(problem)


def _second_engine(problem: Problem, conflicts: int) -> Result | None:
    """The SAT engine's answer for a deal the DFS left open: a Result, or None (no answer)."""
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
    for trick in tricks_of(plays, problem.deal.commander, problem.seats):
        if trick.winner is not None:
            wins[trick.winner] += 1
    return wins


def split_tricks(problem: Problem, plays: Sequence[int]) -> list[list[int]]:
    """Plays in order -> per complete trick, the card each seat played (indexed by seat)."""
    out: list[list[int]] = []
    for trick in tricks_of(plays, problem.deal.commander, problem.seats):
        if trick.winner is not None:
            by_seat = [0] * problem.seats
            for seat, c in trick.seats(problem.seats):
                by_seat[seat] = c
            out.append(by_seat)
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
