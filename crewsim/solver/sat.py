"""The second engine: a SAT model of the whole hand, for deals the DFS leaves open.

The DFS settles most deals in microseconds but its refutations are local; the hard tail is
mostly infeasible deals whose proof needs global counting (which trick can hold which task).
A clause-learning SAT solver proves most of those in 5-100 ms from a plain 0/1 model (CNF):

* ``x[c, t]``: card ``c`` is played in trick ``t`` (each seat exactly one card a trick; with
  three players the 14-card seat keeps one non-task card back);
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
  wins;
* follow suit: ``led[u, t]`` and seat ``s`` still holds ``c`` of suit ``u`` -> ``s`` plays
  suit ``u``;
* every task card is played in a trick its owner wins; order tokens compare the ladders;
* symmetry: two non-task cards of one seat and suit with no other seat's card between them
  are interchangeable in any line, so the lower one is played first (``p[hi, t] -> p[lo, t]``).

Solver: MiniSat 2.2 from python-sat.  On the deals the DFS leaves open at 3-10 tasks it takes
3-4x less time than an earlier CP-SAT model (a variable per leading and per winning card,
follow suit as sums over the earlier tricks), and at 0.3 s it leaves almost none ``unknown``;
CP-SAT on these same clauses was about half as fast as MiniSat.

The game ends as soon as every task is done, but any position has a legal continuation, so
"some complete hand takes every task" is the same question.  Supported: 3-5 players, tasks and
order tokens, no special objective (the two-player dummy and the crew objectives stay with the
DFS).  A feasible answer comes with its line, cut after the trick that completes the last task.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from crewsim.cards import BEATS
from crewsim.rules.game import TaskSpec
from crewsim.rules.order import predecessors
from crewsim.rules.play import n_tricks

FEASIBLE, INFEASIBLE, UNKNOWN = "feasible", "infeasible", "unknown"
PYSAT_SOLVER = "minisat22"  # faster on these models than Glucose, CaDiCaL, Lingeling, MapleCM


def supported(problem: Any) -> bool:
    """Whether the model covers the problem (players 3-5, no objective)."""
    return (
        problem.deal.players >= 3
        and problem.objective is None
        and not problem.omega_last_trick
        and not problem.deal.dummy_under
    )


def solve_sat(problem: Any, seconds: float = 2.0) -> tuple[str, list[int]]:
    """(verdict, plays in order) for a supported problem; ``unknown`` when out of time."""
    deal = problem.deal
    return solve_hands(deal.hands, n_tricks(deal.players), deal.commander, problem.tasks, seconds)


def solve_hands(
    hands: Sequence[int],
    tricks: int,
    commander: int,
    tasks: Sequence[TaskSpec],
    seconds: float = 2.0,
) -> tuple[str, list[int]]:
    """The same on bare hands (any deck: the tests use small ones)."""
    cnf = encode(hands, tricks, commander, tasks)
    model = _solve_pysat(cnf, seconds)
    if model is None:
        return UNKNOWN, []
    if not model:
        return INFEASIBLE, []
    return FEASIBLE, _line(cnf, tasks, model)


@dataclass
class Cnf:
    """The clauses of one deal, its exactly-one groups and how to read a model."""

    clauses: list[list[int]] = field(default_factory=list)
    exactly_one: list[list[int]] = field(default_factory=list)  # pairwise AMO + ALO in CNF
    top: int = 0  # the highest variable
    tricks: int = 0
    seats: int = 0
    by_seat: list[list[int]] = field(default_factory=list)
    index: dict[int, int] = field(default_factory=dict)  # card -> its row of x and p

    def x(self, c: int, t: int) -> int:
        return 1 + self.index[c] * self.tricks + t

    def p(self, c: int, t: int) -> int:
        return 1 + (len(self.index) + self.index[c]) * self.tricks + t

    def led(self, u: int, t: int) -> int:
        return 1 + (2 * len(self.index) + u) * self.tricks + t

    def lead(self, s: int, t: int) -> int:
        return 1 + (2 * len(self.index) + 5) * self.tricks + s * (self.tricks + 1) + t


def encode(hands: Sequence[int], tricks: int, commander: int, tasks: Sequence[TaskSpec]) -> Cnf:
    """The model of the module docstring as clauses over positive/negative variable ids."""
    seats = len(hands)
    holder = {c: s for s, h in enumerate(hands) for c in range(40) if h >> c & 1}
    cards = sorted(holder)
    by_seat = [[c for c in cards if holder[c] == s] for s in range(seats)]
    cnf = Cnf(tricks=tricks, seats=seats, by_seat=by_seat,
              index={c: k for k, c in enumerate(cards)})  # fmt: skip
    cnf.top = cnf.lead(seats - 1, tricks)
    add = cnf.clauses.append
    x, p, led, lead = cnf.x, cnf.p, cnf.led, cnf.lead
    rt = range(tricks)
    task_cards = {tk.card for tk in tasks}
    for c in cards:
        s, u = holder[c], c // 9
        beats = int(BEATS[c])
        over = [c2 for c2 in cards if beats >> c2 & 1 and holder[c2] != s]
        for t in rt:
            xt, pt, won = x(c, t), p(c, t), lead(s, t + 1)
            add([-xt, pt])
            if t:
                add([-p(c, t - 1), pt])
                add([-xt, -p(c, t - 1)])
                add([-pt, p(c, t - 1), xt])
            else:
                add([-pt, xt])
            add([-xt, -lead(s, t), led(u, t)])  # s leads with c: suit u led
            for c2 in over:  # s wins with c: nothing beating c in the trick
                add([-xt, -won, -x(c2, t)])
            if u < 4:  # ... and a colour card's colour was led
                add([-xt, -won, led(u, t)])
                add([-xt, -led(u, t), won] + [x(c2, t) for c2 in over])
            else:
                add([-xt, won] + [x(c2, t) for c2 in over])
        if len(by_seat[s]) <= tricks or c in task_cards:
            add([p(c, tricks - 1)])
    for t in rt:
        for u in range(5):
            for v in range(u):
                add([-led(u, t), -led(v, t)])
    for t in range(tricks + 1):
        cnf.exactly_one.append([lead(s, t) for s in range(seats)])
    add([lead(commander, 0)])
    for s in range(seats):
        for t in rt:
            cnf.exactly_one.append([x(c, t) for c in by_seat[s]])
        for u in range(5):
            mine = [c for c in by_seat[s] if c // 9 == u]
            for t in rt:
                plays_u = [x(c, t) for c in mine]
                add([-lead(s, t), -led(u, t), *plays_u])  # the leader plays the led suit
                for c in mine:  # suit u led while s still holds c: s plays suit u
                    add([-led(u, t), *plays_u] + ([p(c, t - 1)] if t else []))
    for tk in tasks:
        if tk.owner is None:
            raise ValueError("every task needs an owner seat")
        for t in rt:
            add([-x(tk.card, t), lead(tk.owner, t + 1)])
    pred = predecessors([tk.token for tk in tasks])
    for i, ti in enumerate(tasks):
        for j, tj in enumerate(tasks):
            if pred[i] >> j & 1:
                for t in rt:
                    add([-p(ti.card, t), p(tj.card, t)])
    for s in range(seats):  # symmetry: interchangeable cards are played low first
        free = [c for c in by_seat[s] if c not in task_cards]
        for a, b in zip(free, free[1:], strict=False):
            if a // 9 == b // 9 and all(holder.get(c, s) == s for c in range(a + 1, b)):
                for t in rt:
                    add([-p(b, t), p(a, t)])
    return cnf


def _line(cnf: Cnf, tasks: Sequence[TaskSpec], true: set[int]) -> list[int]:
    """The plays of a model (its true variables), up to the trick of the last task."""
    last = max((t for tk in tasks for t in range(cnf.tricks) if cnf.x(tk.card, t) in true),
               default=0)  # fmt: skip
    plays: list[int] = []
    for t in range(last + 1):
        first = next(s for s in range(cnf.seats) if cnf.lead(s, t) in true)
        for k in range(cnf.seats):
            s = (first + k) % cnf.seats
            plays.append(next(c for c in cnf.by_seat[s] if cnf.x(c, t) in true))
    return plays


def _solve_pysat(cnf: Cnf, seconds: float) -> set[int] | None:
    """True variables of a model, an empty set when unsatisfiable, None when out of time."""
    from pysat.solvers import Solver

    clauses = list(cnf.clauses)
    for group in cnf.exactly_one:
        clauses.append(group)
        clauses.extend([-a, -b] for i, a in enumerate(group) for b in group[:i])
    with Solver(name=PYSAT_SOLVER, bootstrap_with=clauses) as solver:
        timer = threading.Timer(seconds, solver.interrupt)
        timer.start()
        try:
            status = solver.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
            timer.join()
        if status is None:
            return None
        if not status:
            return set()
        return {v for v in solver.get_model() or () if v > 0}
