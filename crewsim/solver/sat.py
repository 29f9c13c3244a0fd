"""The second engine: a SAT model of the whole hand, for deals the DFS leaves open.

The DFS settles most deals in microseconds but its refutations are local; the hard tail is
mostly infeasible deals whose proof needs global counting (which trick can hold which task).
A clause-learning SAT solver proves most of those in 5-100 ms from a plain 0/1 model (CNF):

* ``x[c, t]``: card ``c`` is played in trick ``t`` (each seat exactly one card a trick; with
  three players the 14-card seat keeps one non-task card back).  Besides clauses the model has
  cardinality constraints, which MiniCard (MiniSat 2.2 that propagates them natively) takes:
  at most one card of a seat a trick, and by trick ``t`` exactly ``t + 1`` of its cards played;
* ``p[c, t]``: ``c`` is played in trick ``t`` or before (a ladder: ``p[c, t-1] -> p[c, t]``,
  ``x[c, t] = p[c, t] and not p[c, t-1]``).  "Still holds ``c``" is one literal, so follow suit
  is one clause per card and trick instead of a sum over the earlier tricks, and order tokens
  are ``p[i, t] -> p[j, t]``;
* ``led[u, t]``: suit ``u`` (a colour or trumps) is led in trick ``t`` (at most one);
* ``lead[s, t]``: seat ``s`` leads trick ``t`` (exactly one; the commander first),
  ``lead[s, t+1]``: ``s`` wins trick ``t`` (``t = tricks`` only says who won the last one);
* leading: ``lead[s, t]`` and ``x[c, t]`` -> ``led[suit(c), t]``, and ``lead[s, t]`` and
  ``led[u, t]`` -> ``s`` plays suit ``u``;
* winning, with no variable per winning card: ``x[c, t]`` and ``lead[s, t+1]`` -> no card that
  beats ``c`` is in the trick and a colour card's colour was led (one card fits: the real
  winner); and, redundant but it propagates, an unbeaten card of the led colour or a trump
  wins.  For a colour card the trumps are one variable, ``trumped[t]`` (some trump is in
  trick ``t``): 700 fewer clauses of 6,000 a deal to load, the solving time about the same;
* follow suit: ``led[u, t]`` and seat ``s`` still holds ``c`` of suit ``u`` -> ``s`` plays
  suit ``u``;
* every task card is played in a trick its owner wins; order tokens compare the ladders;
* more redundant kinds that propagate: some suit is led in every trick, and a task won
  with its owner's own card had its colour led (12 % fewer conflicts on the deals the DFS
  hands over at 6 and 10 tasks); a task card another seat holds, unless discarded, falls to
  a card of its owner that beats it (3 % less solving time on those deals at 10 tasks, over
  four sets of seeds: -3 to -5 % on three, +0.2 % on the fourth; feasible deals gain most);
* symmetry: two non-task cards of one seat and suit with no other seat's card between them
  are interchangeable in any line, so the lower one is played first (``p[hi, t] -> p[lo, t]``).

The solver decides first in which trick each task card falls (their ``x`` start with a
higher activity): 6 % less solving time on 1,575 deals the DFS handed over at 10 tasks.

The clauses and the counts are written by numba (``clauses``) into flat arrays, except the
objectives' and Deep Sea's conditions, which stay lists.  Solver: MiniCard from python-sat.
The counts of cards played are implied by the clauses, but they are the pigeonhole reasoning
(a seat's cards into its tricks) that clause learning cannot do: 17 % fewer conflicts than
MiniSat on the clauses alone (pairwise at-most-one) on the deals the DFS hands over at 10
tasks, 23 % at 6.  On those deals the clauses alone took 3-4x less time than an earlier CP-SAT
model (a variable per leading and per winning card, follow suit as sums over the earlier
tricks); CP-SAT on the same clauses was about half as fast as MiniSat.  Other implied counts
gave nothing measurable: each suit led at most as often as its longest holding, each owner
winning as many tricks as its task cards one seat holds, a suit's cards played against its
leads.

The game ends as soon as every task is done, but any position has a legal continuation, so
"some complete hand takes every task" is the same question; the crew objectives it covers are
judged over the whole hand too, which is the same once nothing left can break them.
Supported: 2-5 players (the two-player dummy's stacks included: it always has a face-up card to
play), tasks, order tokens and every Planet Nine objective; the commander's designation is one
more choice for the solver.  A feasible answer comes with its line of the
whole hand, which ``api`` cuts where the referee says the mission is won.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from crewsim.cards import BEATS
from crewsim.kernel.layout import (
    OBJ_BALANCED,
    OBJ_CODES,
    OBJ_FIRST_LAST,
    OBJ_NO_RANK,
    OBJ_NO_TRICKS,
    OBJ_NONE,
    OBJ_ONE_TRICK,
    OBJ_ONES,
    OBJ_PINK,
    OBJ_ROLES,
    OBJ_TRUMPS,
)
from crewsim.rules.game import TaskSpec
from crewsim.rules.order import predecessors
from crewsim.rules.play import n_tricks
from crewsim.solver.clauses import NO_CARD, card_counts, core_clauses
from crewsim.solver.free_choice import Shares, count_arrays, share_clauses, shares
from crewsim.solver.problem import objective_args

if TYPE_CHECKING:
    from crewsim.rules.deal import Deal
    from crewsim.solver.problem import Problem

FEASIBLE, INFEASIBLE, UNKNOWN = "feasible", "infeasible", "unknown"
# the SAT engine's budget per deal: MiniCard's conflicts (10-16 us each here, so ~0.3-0.5 s),
# counted rather than timed so that a verdict never depends on the machine's speed or load
DEFAULT_CONFLICTS = 30_000
# the starting activity of the task cards' ``x``: as much as the bumps of the first ~100
# conflicts, so the search branches on the task cards first (docs/tuning.md)
TASK_ACTIVITY = 100.0


# objective kinds the model covers, by the kernel's codes
COVERED = frozenset(
    (
        0,
        OBJ_NO_TRICKS,
        OBJ_ONES,
        OBJ_TRUMPS,
        OBJ_NO_RANK,
        OBJ_BALANCED,
        OBJ_ONE_TRICK,
        OBJ_FIRST_LAST,
        OBJ_PINK,
        OBJ_ROLES,
    )
)
# (every Planet Nine objective; Deep Sea's go to ``sat_deep``)


@dataclass(frozen=True)
class Objective:
    """A crew objective as the DFS codes it (``problem.objective_args``), the commander's
    possible designations, and whether the omega task must fall in the last trick."""

    code: int = 0
    p1: int = 0
    p2: int = 0
    choices: tuple[tuple[int, ...], ...] = ((),)
    omega_last: bool = False


def supported(problem: Problem) -> bool:
    """Whether the model covers the problem (2-5 players, a covered objective)."""
    code = OBJ_NONE if problem.objective is None else OBJ_CODES[problem.objective[0]]
    return code in COVERED


def solve_sat(
    problem: Problem, conflicts: int = DEFAULT_CONFLICTS
) -> tuple[str, list[int], tuple[int, ...]]:
    """(verdict, plays in order, the designation it took) for a supported problem;
    ``unknown`` when ``conflicts`` are spent.  The line runs to the end of the hand."""
    deal = problem.deal
    code, p1, p2 = objective_args(problem.objective, deal)
    choices = tuple(problem.designation_choices())
    obj = Objective(code, p1, p2, choices, problem.omega_last_trick)
    limits = None
    if problem.free is not None:
        limits = shares(problem.free, len(problem.tasks), problem.seats, deal.commander)
    return solve_hands(
        full_hands(deal),
        n_tricks(deal.players),
        deal.commander,
        problem.tasks,
        conflicts,
        obj,
        deal.dummy_under,
        problem.prefix,
        limits,
    )


def force_prefix(cnf: Cnf, prefix: Sequence[int]) -> None:
    """Each play already made, in its trick: the model then answers for the position after
    them (the order within a trick follows from who leads it).  Encode with the plays in
    ``distinct`` (``cards_mask``): a play made is no twin to be played in order."""
    cnf.clauses.extend([cnf.x(c, j // cnf.seats)] for j, c in enumerate(prefix))


def cards_mask(cards: Sequence[int]) -> int:
    return sum(1 << c for c in cards)


def full_hands(deal: Deal) -> list[int]:
    """Every card of each seat: the two-player dummy's cards beneath its face-up ones too."""
    return [deal.full_hand(s) for s in range(deal.seats)]


def solve_hands(
    hands: Sequence[int],
    tricks: int,
    commander: int,
    tasks: Sequence[TaskSpec],
    conflicts: int = DEFAULT_CONFLICTS,
    objective: Objective = Objective(),
    under: Sequence[tuple[int, int]] = (),
    prefix: Sequence[int] = (),
    limits: Shares | None = None,
) -> tuple[str, list[int], tuple[int, ...]]:
    """The same on bare hands (any deck: the tests use small ones), every line starting
    with the plays ``prefix``; the tasks without an owner go to seats within ``limits``."""
    with gc_paused():
        cnf = encode(hands, tricks, commander, tasks, objective, cards_mask(prefix), under)
        force_prefix(cnf, prefix)
        if limits is not None:
            won = lambda s, t: cnf.lead(s, t + 1)  # noqa: E731
            extra = share_clauses(
                cnf.clauses, cnf.new_var, won, cnf.x, tasks, cnf.seats, tricks, limits
            )
            cnf.counts = count_arrays(cnf.counts, extra)
        ahead = {cnf.x(tk.card, t): TASK_ACTIVITY for tk in tasks for t in range(tricks)}
        model = _solve_pysat(cnf, conflicts, ahead)
    if model is None:
        return UNKNOWN, [], ()
    if not model:
        return INFEASIBLE, [], ()
    chosen = next(
        (ch for ch, v in zip(objective.choices, cnf.choice, strict=False) if v in model), ()
    )
    return FEASIBLE, _line(cnf, model), chosen


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a model is built and solved.  Its lists (Deep Sea's
    conditions, the counts, the model) hold no cycles (reference counting frees them), but
    piling up they set off collections that walk every object of the process, numba's too."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class Cnf:
    """The clauses of one deal and how to read a model."""

    core: tuple[np.ndarray, np.ndarray] = field(  # (literals, clause ends): ``clauses.py``
        default_factory=lambda: (np.zeros(0, np.int32), np.zeros(0, np.int32))
    )
    clauses: list[list[int]] = field(default_factory=list)  # the objective's, the caller's
    counts: tuple[np.ndarray, np.ndarray, np.ndarray] = field(  # at most ``bound`` true:
        default_factory=lambda: (np.zeros(0, np.int32),) * 3  # (literals, ends, bounds)
    )
    top: int = 0  # the highest variable
    tricks: int = 0
    seats: int = 0
    by_seat: list[list[int]] = field(default_factory=list)
    index: dict[int, int] = field(default_factory=dict)  # card -> its row of x and p
    choice: list[int] = field(default_factory=list)  # one variable per designation choice

    def exactly_one(self, group: list[int]) -> None:
        """One of ``group`` and no two (pairwise).  Written where the group arises: MiniSat
        solved the hard 10-task deals ~5 % faster than with these clauses all at the end."""
        self.clauses.append(group)
        self.clauses.extend([-a, -b] for i, a in enumerate(group) for b in group[:i])

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def x(self, c: int, t: int) -> int:
        return 1 + self.index[c] * self.tricks + t

    def p(self, c: int, t: int) -> int:
        return 1 + (len(self.index) + self.index[c]) * self.tricks + t

    def led(self, u: int, t: int) -> int:
        return 1 + (2 * len(self.index) + u) * self.tricks + t

    def lead(self, s: int, t: int) -> int:
        return 1 + (2 * len(self.index) + 5) * self.tricks + s * (self.tricks + 1) + t

    def trumped(self, t: int) -> int:
        return self.lead(self.seats - 1, self.tricks) + 1 + t

    def first_vars(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Trick 0's ``x`` and ``p`` by card, ``led`` by suit, ``lead`` by seat and
        ``trumped`` (trick ``t``'s are these ``+ t``): the numbering ``clauses.core_clauses``
        writes with."""
        x0, p0 = np.zeros(40, np.int64), np.zeros(40, np.int64)
        for c in self.index:
            x0[c], p0[c] = self.x(c, 0), self.p(c, 0)
        led0 = np.array([self.led(u, 0) for u in range(5)], np.int64)
        lead0 = np.array([self.lead(s, 0) for s in range(self.seats)], np.int64)
        return x0, p0, led0, lead0, np.array([self.trumped(0)], np.int64)


def encode(
    hands: Sequence[int],
    tricks: int,
    commander: int,
    tasks: Sequence[TaskSpec],
    objective: Objective = Objective(),
    distinct: int = 0,
    under: Sequence[tuple[int, int]] = (),
) -> Cnf:
    """The model of the module docstring as clauses over positive/negative variable ids;
    ``distinct`` masks cards the caller's conditions tell apart (no symmetry on them).

    The two-player dummy: ``hands`` holds every card of it, ``under`` its (face-up, beneath)
    stacks.  A card beneath is played only after the one on it, in a later trick (it is
    turned over when that trick ends), and obliges the dummy to follow suit only once
    turned over (the face-up-cards-only reading of the rules)."""
    seats = len(hands)
    holder = {c: s for s, h in enumerate(hands) for c in range(40) if h >> c & 1}
    cards = sorted(holder)
    by_seat = [[c for c in cards if holder[c] == s] for s in range(seats)]
    cnf = Cnf(
        tricks=tricks, seats=seats, by_seat=by_seat, index={c: k for k, c in enumerate(cards)}
    )
    cnf.top = cnf.trumped(tricks - 1)
    special = _objective_clauses(cnf, holder, commander, tasks, objective)
    no_symmetry = distinct  # task cards, the objective's, a dummy's stacks: never swapped
    for c in {tk.card for tk in tasks} | special | {c for pair in under for c in pair}:
        no_symmetry |= 1 << c
    seat_of = np.full(40, NO_CARD, np.int64)
    seat_of[cards] = [holder[c] for c in cards]
    first = cnf.first_vars()
    cnf.core = core_clauses(
        seat_of,
        BEATS,
        first,
        tricks,
        commander,
        np.array([tk.card for tk in tasks], np.int64),
        np.array([NO_CARD if tk.owner is None else tk.owner for tk in tasks], np.int64),
        np.array(predecessors([tk.token for tk in tasks]), np.int64),
        np.array(under, np.int64).reshape(-1, 2),
        no_symmetry,
    )
    cnf.counts = card_counts(seat_of, first[0], first[1], seats, tricks)
    return cnf


def _objective_clauses(
    cnf: Cnf, holder: dict[int, int], commander: int, tasks: Sequence[TaskSpec], obj: Objective
) -> set[int]:
    """The objective's clauses; returns the cards it tells apart (no symmetry on them).

    ``won(s, t)`` is ``lead[s, t + 1]``, and a seat plays one card a trick, so "``c`` wins
    trick ``t``" is ``x[c, t]`` and ``won(holder(c), t)``.  Each objective below is judged over
    the whole hand; the DFS's early "done" only comes once nothing left can break it.
    """
    add = cnf.clauses.append
    rt = range(cnf.tricks)
    last = cnf.tricks - 1
    x, won = cnf.x, lambda s, t: cnf.lead(s, t + 1)
    if obj.omega_last:
        for tk in tasks:
            if tk.token == "omega":
                add([x(tk.card, last)])
    if obj.code == OBJ_NONE:
        return set()
    cards = set(holder)
    cnf.choice = [cnf.new_var() for _ in obj.choices]
    cnf.exactly_one(list(cnf.choice))
    trumps = sorted(c for c in cards if c >= 36)
    if obj.code == OBJ_BALANCED:
        _balanced(cnf, obj.p1)
        if obj.p2:  # and the commander takes the first and the last trick
            add([won(commander, 0)])
            add([won(commander, last)])
        return set()
    if obj.code == OBJ_NO_RANK:
        for c in cards:
            if c < 36 and c % 9 + 1 == obj.p1:
                for t in rt:
                    add([-x(c, t), -won(holder[c], t)])
        return {c for c in cards if c < 36 and c % 9 + 1 == obj.p1}
    if obj.code == OBJ_PINK:
        for c in cards:
            if c < 9:
                for t in rt:
                    add([-x(c, t), won(obj.p1, t)])
        return set()
    if obj.code in (OBJ_ONES, OBJ_TRUMPS):
        group = [c for c in cards if c < 36 and c % 9 == 0] if obj.code == OBJ_ONES else trumps
        wins = []
        for c in group:  # wins[c]: c takes the trick it is played in
            w = cnf.new_var()
            ys = []
            for t in rt:
                y = cnf.new_var()
                add([-y, x(c, t)])
                add([-y, won(holder[c], t)])
                ys.append(y)
            add([-w, *ys])
            wins.append(w)
        need = obj.p1 if obj.code == OBJ_ONES else 4
        for drop in combinations(wins, len(wins) - need + 1):  # at least `need` of them
            add(list(drop))
        if obj.code == OBJ_TRUMPS:
            for t in rt:  # never two trumps in one trick
                for i, a in enumerate(trumps):
                    for b in trumps[:i]:
                        add([-x(a, t), -x(b, t)])
            if obj.p1:  # in rank order: trump k no later than trump k + 1
                for a, b in zip(trumps, trumps[1:], strict=False):
                    for t in rt:
                        add([-cnf.p(b, t), cnf.p(a, t)])
        return set(group)
    for v, ch in zip(cnf.choice, obj.choices, strict=True):
        if obj.code == OBJ_ROLES:
            a, b = ch
            for t in rt:
                if t < obj.p1:
                    add([-v, won(a, t)])
                elif t >= cnf.tricks - obj.p2:
                    add([-v, won(b, t)])
                else:
                    add([-v, -won(a, t)])
                    add([-v, -won(b, t)])
            continue
        d = ch[0]
        if obj.code == OBJ_NO_TRICKS:
            for t in rt:
                add([-v, -won(d, t)])
            continue
        if obj.code == OBJ_ONE_TRICK:
            add([-v] + [won(d, t) for t in rt])
            for t in rt:
                for t2 in range(t):
                    add([-v, -won(d, t), -won(d, t2)])
        else:  # OBJ_FIRST_LAST
            for t in rt:
                add([-v, won(d, t) if t in (0, last) else -won(d, t)])
        if obj.p1:  # and never with a trump
            for c in trumps:
                if holder[c] == d:
                    for t in rt:
                        add([-v, -x(c, t), -won(d, t)])
    return set(trumps) if obj.p1 and obj.code in (OBJ_ONE_TRICK, OBJ_FIRST_LAST) else set()


def _balanced(cnf: Cnf, spread: int) -> None:
    """After every trick no seat has won more than ``spread`` tricks beyond another: prefix
    counters ``ge[s][k]`` (seat ``s`` has won at least ``k`` so far), advanced trick by trick."""
    add = cnf.clauses.append
    prev: list[dict[int, int]] = [{} for _ in range(cnf.seats)]
    for t in range(cnf.tricks):
        cur: list[dict[int, int]] = []
        for s in range(cnf.seats):
            w = cnf.lead(s, t + 1)
            ge: dict[int, int] = {}
            for k in range(1, t + 2):  # v <-> had k before, or had k - 1 and wins this one
                v = ge[k] = cnf.new_var()
                keep = [prev[s][k]] if k in prev[s] else []
                need = [prev[s][k - 1]] if k > 1 else []
                for h in keep:
                    add([-h, v])
                add([-n for n in need] + [-w, v])
                add([-v, w] + keep)
                for n in need:
                    add([-v, n] + keep)
            cur.append(ge)
        for s in range(cnf.seats):
            for s2 in range(cnf.seats):
                if s != s2:
                    for k in range(0, t + 1 - spread):  # s at k + spread + 1 => s2 at k + 1
                        add([-cur[s][k + spread + 1], cur[s2][k + 1]])
        prev = cur


def _line(cnf: Cnf, true: set[int]) -> list[int]:
    """The plays of a model (its true variables), every trick of the hand."""
    plays: list[int] = []
    for t in range(cnf.tricks):
        first = next(s for s in range(cnf.seats) if cnf.lead(s, t) in true)
        for k in range(cnf.seats):
            s = (first + k) % cnf.seats
            plays.append(next(c for c in cnf.by_seat[s] if cnf.x(c, t) in true))
    return plays


def _solve_pysat(
    cnf: Cnf, conflicts: int, activities: dict[int, float] | None = None
) -> set[int] | None:
    """True variables of a model, an empty set when unsatisfiable, None when ``conflicts``
    are spent.  A count, not a clock: the verdict does not depend on the machine or its load.
    ``activities`` start those variables ahead in the solver's choice of what to decide.
    Empties ``cnf.clauses`` once they are loaded."""
    # MiniSat 2.2 with native cardinality constraints: faster on these models than plain
    # MiniSat (clauses only), Glucose, Gluecard, CaDiCaL, Lingeling, MapleCM, clingo's clasp.
    # Constraints go in through python-sat's C module: its wrappers are one more Python call
    # per clause, a quarter of the loading time (they only note a clause that refutes at
    # once, which ``solve_limited`` reports anyway)
    from pysat.solvers import Minicard
    from pysolvers import minicard_add_am, minicard_add_cl

    with Minicard() as solver:
        handle = solver.minicard
        flat, a = cnf.core[0].tolist(), 0  # one short list at a time (the clauses module)
        for end in cnf.core[1].tolist():
            minicard_add_cl(handle, flat[a:end])
            a = end
        for clause in cnf.clauses:
            minicard_add_cl(handle, clause)
        flat, a = cnf.counts[0].tolist(), 0
        for end, bound in zip(cnf.counts[1].tolist(), cnf.counts[2].tolist(), strict=True):
            minicard_add_am(handle, flat[a:end], bound)
            a = end
        cnf.clauses.clear()  # loaded: let the lists go while the collector is paused
        if activities:
            solver.set_activities(activities)
        solver.conf_budget(conflicts)
        status = solver.solve_limited()
        if status is None:
            return None
        if not status:
            return set()
        return {v for v in solver.get_model() or () if v > 0}
