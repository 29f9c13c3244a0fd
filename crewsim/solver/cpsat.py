"""The second engine: a CP-SAT model of the whole hand, for deals the DFS leaves open.

The DFS settles most deals in microseconds but its refutations are local; the hard tail is
mostly infeasible deals whose proof needs global counting (which trick can hold which task).
OR-tools' CP-SAT proves most of those in 20-300 ms from a plain 0/1 model:

* ``x[c, t]``: card ``c`` is played in trick ``t`` (each card once, each seat one card a
  trick; with three players the 14-card seat keeps one card back);
* ``led[c, t]``: ``c`` leads trick ``t`` (one a trick, played by the trick's leader);
* ``w[c, t]``: ``c`` wins trick ``t`` (one a trick: played, nothing that beats it is played
  in the trick, and a colour card wins only when its colour was led);
* ``lead[s, t]``: seat ``s`` leads trick ``t`` (the commander first, then the last winner);
* follow suit: a seat still holding a card of the led colour plays that colour;
* every task card is played in a trick its owner wins; order tokens compare the tricks.

The part that depends only on the cards in play (``x``, ``led``, ``w`` and the rules tying
them) is built once per card set and copied for each deal (``_from_template``): building a
4-player model takes ~11 ms of Python instead of ~23 ms.

The game ends as soon as every task is done, but any position has a legal continuation, so
"some complete hand takes every task" is the same question.  Supported: 3-5 players, tasks and
order tokens, no special objective (the two-player dummy and the crew objectives stay with the
DFS).  A feasible answer comes with its line, cut after the trick that completes the last task.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crewsim.cards import BEATS
from crewsim.rules.game import TaskSpec
from crewsim.rules.order import predecessors
from crewsim.rules.play import n_tricks

FEASIBLE, INFEASIBLE, UNKNOWN = "feasible", "infeasible", "unknown"
# CP-SAT settings: one worker, one presolve pass and no LP relaxation (about 20 % faster on the
# hard 10-task deals than the default presolve and linearization, with the same verdicts)
PARAMS: dict[str, Any] = {
    "num_workers": 1,
    "cp_model_probing_level": 0,
    "max_presolve_iterations": 1,
    "linearization_level": 0,
}


def supported(problem: Any) -> bool:
    """Whether the model covers the problem (players 3-5, no objective)."""
    return (
        problem.deal.players >= 3
        and problem.objective is None
        and not problem.omega_last_trick
        and not problem.deal.dummy_under
    )


def solve_cpsat(problem: Any, seconds: float = 2.0) -> tuple[str, list[int]]:
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
    from ortools.sat.python import cp_model

    seats = len(hands)
    holder: dict[int, int] = {}
    for s, h in enumerate(hands):
        for c in range(40):
            if h >> c & 1:
                holder[c] = s
    cards = sorted(holder)
    by_seat = [[c for c in cards if holder[c] == s] for s in range(seats)]
    rt = range(tricks)
    m, x, led, w = _from_template(cards, tricks)
    lead = {(s, t): m.new_bool_var(f"L{s}_{t}") for s in range(seats) for t in rt}
    task_cards = {tk.card for tk in tasks}
    for c in cards:
        if len(by_seat[holder[c]]) > tricks and c not in task_cards:
            m.add(sum(x[c, t] for t in rt) <= 1)
        else:
            m.add_exactly_one(x[c, t] for t in rt)
    for t in rt:
        m.add_exactly_one(lead[s, t] for s in range(seats))
        for c in cards:
            m.add_implication(led[c, t], lead[holder[c], t])
        if t + 1 < tricks:
            for s in range(seats):
                m.add(lead[s, t + 1] == sum(w[c, t] for c in by_seat[s]))
    m.add(lead[commander, 0] == 1)
    for s in range(seats):
        for t in rt:
            m.add_exactly_one(x[c, t] for c in by_seat[s])
    for s in range(seats):
        for u in range(5):
            mine = [c for c in by_seat[s] if c // 9 == u]
            theirs = [c for c in cards if c // 9 == u and holder[c] != s]
            if not mine or not theirs:
                continue
            for t in rt:
                plays_u = sum(x[c, t] for c in mine)
                u_led = sum(led[c, t] for c in theirs)
                for c in mine:  # colour u led by another seat while s still holds c
                    m.add(plays_u >= u_led - sum(x[c, t2] for t2 in range(t)))
    when = []
    for tk in tasks:
        if tk.owner is None:
            raise ValueError("every task needs an owner seat")
        for t in rt:
            m.add(x[tk.card, t] <= cp_model.LinearExpr.sum([w[c, t] for c in by_seat[tk.owner]]))
        when.append(sum(t * x[tk.card, t] for t in rt))
    pred = predecessors([tk.token for tk in tasks])
    for i in range(len(tasks)):
        for j in range(len(tasks)):
            if pred[i] >> j & 1:
                m.add(when[j] <= when[i])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    for key, value in PARAMS.items():
        setattr(solver.parameters, key, value)
    status = solver.solve(m)
    if status == cp_model.INFEASIBLE:
        return INFEASIBLE, []
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return UNKNOWN, []
    last = 0
    for tk in tasks:
        for t in rt:
            if solver.value(x[tk.card, t]):
                last = max(last, t)
    plays: list[int] = []
    for t in range(last + 1):
        first = next(s for s in range(seats) if solver.value(lead[s, t]))
        for k in range(seats):
            s = (first + k) % seats
            plays.append(next(c for c in by_seat[s] if solver.value(x[c, t])))
    return FEASIBLE, plays


# the part of the model that depends only on the cards in play and the trick count (which card
# is played, leads and wins which trick), built once and copied for each deal
_TEMPLATES: dict[tuple[tuple[int, ...], int], Any] = {}
Var = dict[tuple[int, int], Any]


def _from_template(cards: list[int], tricks: int) -> tuple[Any, Var, Var, Var]:
    """A copy of the cached model for ``cards`` and ``tricks``, and its x, led, w variables."""
    from ortools.sat.python import cp_model

    key = (tuple(cards), tricks)
    base = _TEMPLATES.get(key)
    rt = range(tricks)
    n = len(cards) * tricks
    if base is None:
        base = cp_model.CpModel()
        x = {(c, t): base.new_bool_var(f"x{c}_{t}") for c in cards for t in rt}
        led = {(c, t): base.new_bool_var(f"l{c}_{t}") for c in cards for t in rt}
        w = {(c, t): base.new_bool_var(f"w{c}_{t}") for c in cards for t in rt}
        for t in rt:
            base.add_exactly_one(led[c, t] for c in cards)
            base.add_exactly_one(w[c, t] for c in cards)
            for c in cards:
                base.add_implication(led[c, t], x[c, t])
                base.add_implication(w[c, t], x[c, t])
                beats = int(BEATS[c])
                over = [x[c2, t].Not() for c2 in cards if beats >> c2 & 1]
                if over:  # nothing that beats c is played
                    base.add_bool_and(over).only_enforce_if(w[c, t])
                if c < 36:  # a colour card wins only when its colour was led
                    base.add_bool_or(
                        [w[c, t].Not()] + [led[c2, t] for c2 in cards if c2 // 9 == c // 9]
                    )
        if len(_TEMPLATES) >= 16:
            _TEMPLATES.clear()
        _TEMPLATES[key] = base
    m = base.clone()
    var = m.get_bool_var_from_proto_index
    x = {(c, t): var(k * tricks + t) for k, c in enumerate(cards) for t in rt}
    led = {(c, t): var(n + k * tricks + t) for k, c in enumerate(cards) for t in rt}
    w = {(c, t): var(2 * n + k * tricks + t) for k, c in enumerate(cards) for t in rt}
    return m, x, led, w
