"""The second engine for Mission Deep Sea: a SAT model of the whole hand for the deals the
Deep Sea DFS (``crewsim.solver.deep_sea``) leaves open.

The trick mechanics are ``crewsim.solver.sat.encode`` with no card tasks (``x[c, t]``: card
``c`` played in trick ``t``; ``lead[s, t + 1]``: seat ``s`` won trick ``t``, written
``won(s, t)``; "``c`` is won by ``s``" is ``x[c, t]`` and ``won(s, t)`` for some ``t``; with
three players the 14-card seat keeps one card back, which is never won, as the kernel judges
it; the two-player dummy's stacks as ``sat.encode`` models them).  Each task card's condition
(``crewsim.kernel.conditions``, kinds by their kernel code) adds clauses about the whole hand;
counts are unary counters with both directions (``ge[k]`` is "at least ``k``"), so "exactly",
"at least" and comparisons between seats are exact.

Soundness.  The game ends once every condition is done, but any position has a legal
continuation, so a won hand is a prefix of a complete hand; each condition ``Q`` below is a
property of the complete hand that holds whenever the judge says DONE after some trick (and
nothing failed before), whatever follows: "won card ``c``", "no card of the mask won" (DONE
early only once none is left in play), "exactly ``n``" (DONE only at the end, or once nothing
of the mask is left), comparisons DONE early only once no continuation can change them, a
pattern "it happened in some trick".  Conversely a complete hand on which every ``Q`` holds
has each judge DONE by its end and none FAILED before (the judges fail only when ``Q`` can no
longer hold), so when every condition and the objective is encoded (``encode_deep``'s
``exact``), a model is a winning line and unsatisfiability a proof.  A kind not encoded is left
out: the model is a relaxation, whose "unsatisfiable" is still a proof but whose model proves
nothing.

Every kernel kind is encoded, exactly; so are the four Deep Sea objectives (10 balance of a
rank's wins and 12 the first trick's winner strictly ahead are checked after every trick:
prefix counters per trick).  The prediction card is vacuous: the crew announces what the line
will give its owner.

Symmetry: ``sat.encode`` plays two interchangeable cards of a seat low first, only for cards
no condition tells apart (``deep_sea.special_cards``, passed as ``distinct``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from crewsim.cards import cards_of, value_of
from crewsim.kernel import conditions as C
from crewsim.kernel.bits import SUIT
from crewsim.kernel.layout import (
    OBJ_CARD_LAST,
    OBJ_FIRST_MOST,
    OBJ_NO_LEAD,
    OBJ_NONE,
    OBJ_RANK,
)
from crewsim.rules.play import n_tricks
from crewsim.solver.deep_sea import problem_arrays, special_cards
from crewsim.solver.sat import (
    DEFAULT_CONFLICTS,
    FEASIBLE,
    INFEASIBLE,
    UNKNOWN,
    Cnf,
    _line,
    _solve_pysat,
    cards_mask,
    encode,
    force_prefix,
    full_hands,
    gc_paused,
)

if TYPE_CHECKING:
    from crewsim.solver.problem import Problem


_PATTERN = (C.K_TRICK_PARITY, C.K_TRICK_ALL_GT, C.K_TRICK_ALL_LT)
_SUMS = (C.K_TRICK_SUM_GT, C.K_TRICK_SUM_LT, C.K_TRICK_SUM_IN)


class _Model:
    """The clauses of one deal (``sat.encode``'s trick mechanics) and the helpers the
    conditions are written with."""

    def __init__(
        self, hands: Sequence[int], tricks: int, distinct: int, under: Sequence[tuple[int, int]]
    ) -> None:
        self.hands = list(hands)
        self.seats = len(hands)
        self.tricks = tricks
        self.holder = {c: s for s, h in enumerate(hands) for c in range(40) if h >> c & 1}
        self.captain = self.holder.get(39, 0)
        self.cnf: Cnf = encode(hands, tricks, self.captain, [], distinct=distinct, under=under)
        # a clause: the list's own append, not a method around it (~2,000 calls a deal)
        self.add: Callable[[list[int]], None] = self.cnf.clauses.append
        self.true = self.cnf.new_var()
        self.add([self.true])
        self._wins: dict[tuple[int, int], int] = {}
        self._seat_rows: dict[int, list[list[int]]] = {}

    # ---- basic literals
    def var(self) -> int:
        return self.cnf.new_var()

    def x(self, c: int, t: int) -> int:
        """``c`` played in trick ``t`` (false for a card not dealt: short test hands)."""
        return self.cnf.x(c, t) if c in self.holder else -self.true

    def won(self, s: int, t: int) -> int:
        return self.cnf.lead(s, t + 1)

    def and_(self, lits: Sequence[int]) -> int:
        """A literal equal to the conjunction."""
        if not lits:
            return self.true
        if len(lits) == 1:
            return lits[0]
        v = self.var()
        for lit in lits:
            self.add([-v, lit])
        self.add([v] + [-lit for lit in lits])
        return v

    def or_(self, lits: Sequence[int]) -> int:
        """A literal equal to the disjunction."""
        return -self.and_([-lit for lit in lits])

    def wins(self, s: int, c: int) -> int:
        """``s`` wins card ``c`` (a card never played is never won)."""
        key = (s, c)
        if key not in self._wins:
            self._wins[key] = self.or_(
                [self.and_([self.x(c, t), self.won(s, t)]) for t in range(self.tricks)]
            )
        return self._wins[key]

    def not_wins(self, s: int, c: int) -> None:
        for t in range(self.tricks):
            self.add([-self.x(c, t), -self.won(s, t)])

    # ---- unary counters (both directions)
    def prefix_counts(self, groups: Sequence[Sequence[int]], kmax: int) -> list[list[int]]:
        """After each group of literals, ``row[k]`` (k = 0..kmax+1): at least k of the
        literals so far are true."""
        false = -self.true
        row = [self.true] + [false] * (kmax + 1)
        rows = []
        n = 0
        for group in groups:
            for lit in group:
                n += 1
                new = [self.true]
                for k in range(1, kmax + 2):
                    if k > n:
                        new.append(false)
                        continue
                    if k == n and k == 1:
                        new.append(lit)
                        continue
                    v = self.var()
                    a, b = row[k], row[k - 1]  # v = a or (b and lit)
                    self.add([-a, v])
                    self.add([-b, -lit, v])
                    self.add([-v, a, b])
                    self.add([-v, a, lit])
                    new.append(v)
                row = new
            rows.append(row)
        return rows

    def count(self, lits: Sequence[int], kmax: int | None = None) -> list[int]:
        """``ge[k]``: at least k of ``lits`` are true (k = 0..kmax+1)."""
        top = len(lits) if kmax is None else kmax
        return self.prefix_counts([lits], top)[0]

    def seat_rows(self, s: int) -> list[list[int]]:
        """Tricks won by ``s`` after each trick, as counter rows (k = 0..tricks+1)."""
        if s not in self._seat_rows:
            self._seat_rows[s] = self.prefix_counts(
                [[self.won(s, t)] for t in range(self.tricks)], self.tricks
            )
        return self._seat_rows[s]

    def seat_ge(self, s: int) -> list[int]:
        return self.seat_rows(s)[-1]

    def at_least(self, ge: Sequence[int], n: int) -> None:
        if n > 0:
            self.add([ge[n]] if n < len(ge) else [])

    def exactly(self, ge: Sequence[int], n: int) -> None:
        if n < 0 or n + 1 >= len(ge) + 1:
            self.add([])
            return
        self.at_least(ge, n)
        if n + 1 < len(ge):
            self.add([-ge[n + 1]])

    def less(self, lo: Sequence[int], hi: Sequence[int], cond: Sequence[int] = ()) -> None:
        """count(lo) < count(hi) (when every literal of ``cond`` holds)."""
        pre = [-c for c in cond]
        for k in range(len(lo)):
            target = hi[k + 1] if k + 1 < len(hi) else -self.true
            self.add(pre + [-lo[k], target])

    def equal(self, a: Sequence[int], b: Sequence[int], cond: Sequence[int] = ()) -> None:
        pre = [-c for c in cond]
        for k in range(1, max(len(a), len(b))):
            ak = a[k] if k < len(a) else -self.true
            bk = b[k] if k < len(b) else -self.true
            self.add(pre + [-ak, bk])
            self.add(pre + [-bk, ak])

    def won_count(self, s: int, mask: int) -> list[int]:
        return self.count([self.wins(s, c) for c in cards_of(mask)])


def encode_deep(
    hands: Sequence[int],
    tricks: int,
    codes: np.ndarray,
    owners: Sequence[int],
    objective: tuple[int, int, int] = (0, 0, 0),
    under: Sequence[tuple[int, int]] = (),
    prefix: Sequence[int] = (),
) -> tuple[Cnf, bool]:
    """The clauses of a Deep Sea deal and whether they are exact (every condition and the
    objective encoded both ways); ``codes`` are the kernel rows (``encode_task``, with the
    same ``tricks``); ``hands`` and ``under`` as ``sat.encode`` takes them; every line
    starts with the plays ``prefix``."""
    rows = np.asarray(codes, dtype=np.int64).reshape(-1, C.CODE_SIZE)
    m = _Model(hands, tricks, special_cards(rows, objective) | cards_mask(prefix), under)
    force_prefix(m.cnf, prefix)
    exact = True
    for row, owner in zip(rows, owners, strict=True):
        exact &= _condition(m, [int(v) for v in row], int(owner))
    exact &= _objective(m, *objective)
    return m.cnf, exact


def _condition(m: _Model, row: list[int], o: int) -> bool:
    """Add one task card's clauses; whether they are exact."""
    kind, a, b, c = row[0], row[1], row[2], row[3]
    nt, rt = m.tricks, range(m.tricks)
    own = m.hands[o]
    if kind == C.K_PREDICTED:
        return True
    if kind == C.K_CARDS:
        for card in cards_of(a):
            m.add([m.wins(o, card)])
    elif kind in (C.K_NO_RANK, C.K_NO_SUBS, C.K_NO_COLOUR):
        for card in cards_of(a):
            m.not_wins(o, card)
    elif kind == C.K_ONLY_SUB:
        m.add([m.wins(o, cards_of(a)[0])])
        for card in range(36, 40):
            if not a >> card & 1:
                m.not_wins(o, card)
    elif kind in (C.K_AT_LEAST_RANK, C.K_AT_LEAST_COLOUR):
        m.at_least(m.won_count(o, a), b)
    elif kind in (C.K_EXACTLY_RANK, C.K_EXACTLY_SUBS):
        m.exactly(m.won_count(o, a), b)
    elif kind == C.K_EXACTLY_COLOUR:
        for u in range(4):
            if row[1 + u] >= 0:
                m.exactly(m.won_count(o, int(SUIT[u])), row[1 + u])
    elif kind == C.K_EACH_COLOUR:
        for u in range(4):
            cards = cards_of(int(SUIT[u]) & a)
            if cards:
                m.add([m.wins(o, card) for card in cards])
    elif kind == C.K_ALL_OF_ONE_COLOUR:
        m.add(
            [
                m.and_([m.wins(o, card) for card in cards_of(int(SUIT[u]) & a)])
                for u in range(4)
                if int(SUIT[u]) & a
            ]
        )
    elif kind == C.K_EQUAL_COLOURS_TOTAL:
        ga, gb = m.won_count(o, a), m.won_count(o, b)
        m.equal(ga, gb)
        m.at_least(ga, c)
    elif kind == C.K_MORE_COLOUR:
        hi, lo = m.won_count(o, a), m.won_count(o, b)
        m.less(lo, hi)
        if not c:
            m.at_least(lo, 1)
    elif kind == C.K_EXACTLY_TRICKS:
        m.exactly(m.seat_ge(o), a)
    elif kind == C.K_NONE_OF_FIRST:
        for t in range(min(a, nt)):
            m.add([-m.won(o, t)])
    elif kind in (C.K_TRICKS, C.K_ONLY_TRICKS):
        if b:
            m.add([])
            return True
        for t in rt:
            if a >> t & 1:
                m.add([m.won(o, t)])
            elif kind == C.K_ONLY_TRICKS:
                m.add([-m.won(o, t)])
    elif kind == C.K_NEVER_LEAD:
        for card in cards_of(a & own):
            for t in rt:
                m.add([-m.x(card, t), -m.cnf.lead(o, t)])
    elif kind == C.K_VS_EACH_OTHER:
        for s in range(m.seats):
            if s != o:
                if a == C.OP_FEWER:
                    m.less(m.seat_ge(o), m.seat_ge(s))
                else:
                    m.less(m.seat_ge(s), m.seat_ge(o))
    elif kind == C.K_VS_CAPTAIN:
        cap = m.captain
        if o == cap:
            m.add([])
        elif a == C.OP_MORE:
            m.less(m.seat_ge(cap), m.seat_ge(o))
        elif a == C.OP_FEWER:
            m.less(m.seat_ge(o), m.seat_ge(cap))
        else:
            m.equal(m.seat_ge(o), m.seat_ge(cap))
    elif kind == C.K_MORE_THAN_OTHERS:
        m.at_least(m.seat_ge(o), nt // 2 + 1)
    elif kind == C.K_NEVER_CONSEC:
        if a <= 0:
            m.add([])
        for t in range(nt - a + 1):
            m.add([-m.won(o, t + k) for k in range(a)])
    elif kind in (C.K_CONSEC_AT_LEAST, C.K_EXACTLY_CONSEC):
        if kind == C.K_EXACTLY_CONSEC:
            m.exactly(m.seat_ge(o), a)
        if a > 0:
            m.add([m.and_([m.won(o, t + k) for k in range(a)]) for t in range(nt - a + 1)])
    elif kind == C.K_CARD_WITH_SUB:
        trumps = cards_of(own & int(SUIT[4]))
        m.add(
            [
                m.and_([m.x(a, t), m.won(o, t), m.or_([m.x(tr, t) for tr in trumps])])
                for t in rt
                if trumps
            ]
        )
    elif kind == C.K_CARD_IN_LAST:
        m.add([m.x(a, nt - 1)])
        m.add([m.won(o, nt - 1)])
    elif kind == C.K_TRICK_WITH_RANK:
        m.add([m.wins(o, card) for card in cards_of(a & own)])
    elif kind == C.K_RANK_WITH_RANK:
        others = cards_of(b & ~own)
        m.add(
            [
                m.and_(
                    [
                        m.won(o, t),
                        m.or_([m.x(w, t) for w in cards_of(a & own)]),
                        m.or_([m.x(v, t) for v in others]),
                    ]
                )
                for t in rt
            ]
        )
    elif kind in _PATTERN:
        outside = cards_of(((1 << 40) - 1) & ~a)
        m.add([m.and_([m.won(o, t)] + [-m.x(card, t) for card in outside]) for t in rt])
    elif kind == C.K_TRICK_EQUAL_COLOURS:
        hits = []
        for t in rt:
            z = m.var()
            m.add([-z, m.won(o, t)])
            ga = m.count([m.x(card, t) for card in cards_of(a)], m.seats)
            gb = m.count([m.x(card, t) for card in cards_of(b)], m.seats)
            m.equal(ga, gb, [z])
            if c > 0:
                m.add([-z, ga[c]] if c < len(ga) else [-z])
            hits.append(z)
        m.add(hits)
    elif kind in _SUMS:
        m.add([_sum_hit(m, kind, a, b, t, o) for t in rt])
    else:
        return False
    return True


def _sum_hit(m: _Model, kind: int, a: int, b: int, t: int, o: int) -> int:
    """A literal that implies: ``o`` wins trick ``t`` and its values add up as ``kind`` asks.

    Partial sums over the seats in a fixed order: ``S[k][v]`` is implied by the true partial
    sum (forward clauses only), so "no bad total" on the last row rules out exactly the tricks
    whose real total is bad."""
    z = m.var()
    m.add([-z, m.won(o, t)])
    if not b:  # no submarine in the trick
        for card in range(36, 40):
            m.add([-z, -m.x(card, t)])
    sums: dict[int, int] = {0: m.true}
    for s in range(m.seats):
        by_val: dict[int, list[int]] = {}
        for card in m.cnf.by_seat[s]:
            by_val.setdefault(value_of(card), []).append(m.x(card, t))
        new: dict[int, int] = {}
        for v, lit in sums.items():
            for val, xs in by_val.items():
                w = v + val
                if w not in new:
                    new[w] = m.var()
                for xl in xs:
                    m.add([-lit, -xl, new[w]])
        sums = new
    for total, lit in sums.items():
        if kind == C.K_TRICK_SUM_GT:
            good = total > a
        elif kind == C.K_TRICK_SUM_LT:
            good = total < a
        else:
            good = total < 63 and a >> total & 1 == 1
        if not good:
            m.add([-z, -lit])
    return z


def _objective(m: _Model, kind: int, a: int, b: int) -> bool:
    """The crew objective's clauses (kernel codes 10-13); whether exact."""
    nt, rt = m.tricks, range(m.tricks)
    if kind == OBJ_NONE:
        return True
    if kind == OBJ_NO_LEAD:
        for u in range(5):
            if a >> u & 1:
                for t in rt:
                    m.add([-m.cnf.led(u, t)])
        return True
    if kind == OBJ_CARD_LAST:
        m.add([m.x(a, nt - 1)])
        if a in m.holder:
            m.add([m.cnf.lead((m.holder[a] + 1) % m.seats, nt - 1)])
        return True
    if kind == OBJ_FIRST_MOST:  # after every trick: the first trick's winner strictly ahead
        for w in range(m.seats):
            first = m.won(w, 0)
            for s in range(m.seats):
                if s != w:
                    for t in range(1, nt):
                        m.less(m.seat_rows(s)[t], m.seat_rows(w)[t], [first])
        return True
    if kind == OBJ_RANK:  # after every trick: each seat's wins of rank a within b
        cards = [9 * u + a - 1 for u in range(4)]
        rows = [
            m.prefix_counts([[m.and_([m.x(c, t), m.won(s, t)]) for c in cards] for t in rt], 4)
            for s in range(m.seats)
        ]
        for t in rt:
            for s1 in range(m.seats):
                for s2 in range(m.seats):
                    if s1 != s2:
                        for k in range(0, 5 - b):
                            m.add([-rows[s1][t][k + b + 1], rows[s2][t][k + 1]])
        return True
    return False


def solve_deep_sat(problem: Problem, conflicts: int = DEFAULT_CONFLICTS) -> tuple[str, list[int]]:
    """("infeasible", []) when the model (exact or a relaxation) has no solution,
    ("feasible", the whole hand's plays) when it is exact and has one, else ("unknown", [])."""
    deal = problem.deal
    codes, owners, objective = problem_arrays(problem)
    return solve_deep_hands(
        full_hands(deal),
        n_tricks(deal.players),
        codes,
        owners,
        objective,
        conflicts,
        deal.dummy_under,
        problem.prefix,
    )


def solve_deep_hands(
    hands: Sequence[int],
    tricks: int,
    codes: np.ndarray,
    owners: Sequence[int],
    objective: tuple[int, int, int] = (0, 0, 0),
    conflicts: int = DEFAULT_CONFLICTS,
    under: Sequence[tuple[int, int]] = (),
    prefix: Sequence[int] = (),
) -> tuple[str, list[int]]:
    """The same on bare arrays (tests use shortened hands, ``codes`` encoded for ``tricks``),
    every line starting with the plays ``prefix``."""
    with gc_paused():
        cnf, exact = encode_deep(hands, tricks, codes, owners, objective, under, prefix)
        model = _solve_pysat(cnf, conflicts)
    if model is None:
        return UNKNOWN, []
    if not model:
        return INFEASIBLE, []
    if not exact:
        return UNKNOWN, []
    return FEASIBLE, _line(cnf, model)
