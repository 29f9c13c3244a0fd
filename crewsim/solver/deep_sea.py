"""Perfect-information feasibility for Mission Deep Sea: can a crew that sees every card fulfil
every task card in play (and the mission's crew objective)?

The conditions are judged by the kernel's own judges (``crewsim.kernel.conditions.ds_judge``
for task cards, ``crewsim.kernel.judge.judge_objective`` for objectives), which the referee
cross-checks hold equal to the rules: the search and the simulation agree on what a win is.

One explicit-stack depth-first search over single card plays, like ``crewsim.solver.search``
but without its Planet Nine bounds (the 37 condition kinds share no simple one):

* **cut-offs**: a trick after which a task card or the objective has failed is never
  descended into (the judges answer FAILED as soon as a condition can no longer hold); a lead
  the objective forbids is never tried; an "exactly n tricks" owner whose trumps above all
  others' would take it past n ends the line at the trick boundary;
* **failure memo** at trick boundaries, keyed on the exact state: hands, tricks and cards won
  per seat, leader, first trick's winner, which cards are done and the judges' scratch of the
  open ones (an open-addressing table stamped with a generation, as in the Planet Nine search);
* **equivalent cards**: of two cards of one suit in one hand with no other card still in play
  between them, only the higher is tried, unless a condition tells them apart (``special``:
  the cards a condition names by rank or identity; every card when one adds or compares ranks);
* **restarts**: the conditions give no good move order, so every run picks at random, with
  play limits of ``RESTART0`` x the Luby sequence; the memo carries over, and the last run
  gets the rest;
* a **prediction** card's number is the crew's choice before the first trick: seeing every
  card, the owner announces what the line will give it, so the card is done at the hand's end.

Feasible lines are replayed through the referee in the tests.  With so few bounds, refuting a
deal often needs more than the budget: ``api.solve`` then hands it to the SAT model of
``crewsim.solver.sat_deep``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from crewsim.cards import seats_of
from crewsim.kernel import conditions as C
from crewsim.kernel import layout as L
from crewsim.kernel.bits import BEATS, SUIT, TRUMPS, follow_suit, highest, lowest, nth_bit, popcount
from crewsim.kernel.conditions import (
    CODE_SIZE,
    DONE,
    FAILED,
    K_EXACTLY_TRICKS,
    K_PREDICTED,
    ds_judge,
    encode_task,
)
from crewsim.kernel.judge import judge_objective
from crewsim.kernel.layout import OBJ_CARD_LAST, OBJ_NO_LEAD, OBJ_NONE, OBJ_RANK
from crewsim.solver.dfs_layout import (
    FEASIBLE,
    INFEASIBLE,
    RESTART0,
    UNKNOWN,
    mix,
    next_rand,
    restart_limit,
)

if TYPE_CHECKING:
    from crewsim.solver.problem import Problem

MAX_DS = L.MAX_DS
MAXT = 14  # trick boundaries: at most 13 tricks, plus one
# depth-row columns (0-4: the hands)
D_LEAD, D_WC, D_WS, D_PLAYED, D_MOVES, D_GONE = 5, 6, 7, 8, 9, 10
DCOL = 11
# boundary-row columns: won tricks 0-4, won cards 5-9, then these, the judges' scratch from B_ST
B_DONE, B_OBJ, B_FIRST = 10, 11, 12
B_ST = 16
BCOL = B_ST + 4 * MAX_DS
KEYW = 11 + 4 * MAX_DS  # memo key words; the table's last column holds the generation stamp
PROBES = 4
FULL = np.int64((1 << 40) - 1)


@njit(cache=True)
def _suits(bits):
    """The cards of the suits in a suit bitmask (bit 4: trumps)."""
    m = np.int64(0)
    for u in range(5):
        if (bits >> u) & 1:
            m |= SUIT[u]
    return m


@njit(cache=True)
def _key(st, d, bst, t, seats, n_ds, done, owners, wread, oread, keys):
    """Write the memo key of the boundary before trick ``t`` (depth ``d``) to ``keys[t]``.

    Of the cards each seat has won, only those an open condition still reads are in it
    (``wread[j]``: what task card ``j`` reads of its owner's; ``oread``: what the objective
    reads of every seat's), so lines that differ only in cards nobody counts share an entry.
    """
    k = keys[t]
    packed = st[d, D_LEAD] | (bst[t, B_FIRST] + 1) << 3 | bst[t, B_OBJ] << 6 | done << 7
    read = oread if bst[t, B_OBJ] == 0 else np.int64(0)
    for s in range(5):
        k[s] = st[d, s] if s < seats else 0
        k[5 + s] = read
        packed |= bst[t, s] << (23 + 4 * s)
    for j in range(n_ds):
        if not (done >> j) & 1:
            k[5 + owners[j]] |= wread[j]
    for s in range(5):
        k[5 + s] &= bst[t, 5 + s]
    k[10] = packed
    for j in range(n_ds):
        for w in range(4):
            k[11 + 4 * j + w] = 0 if (done >> j) & 1 else bst[t, B_ST + 4 * j + w]
    for j in range(11 + 4 * n_ds, KEYW):
        k[j] = 0
    h = np.int64(seats)
    for j in range(11 + 4 * n_ds):
        h = mix(h, k[j])
    return h


@njit(cache=True)
def _too_many_wins(st, d, bst, t, n_tricks, codes, owners, n_ds):
    """Whether an open "exactly n tricks" card's owner already must win more than n: each of
    its trumps above every trump of the other seats takes a trick of its own, but one it may
    keep back (the 14-card seat of three players never plays one card)."""
    for j in range(n_ds):
        if codes[j, 0] != C.K_EXACTLY_TRICKS or (bst[t, B_DONE] >> j) & 1:
            continue
        o = owners[j]
        top = FULL & ~st[d, D_GONE] & ~st[d, o] & TRUMPS  # the dummy's covered ones too
        mine = st[d, o] & TRUMPS
        if top != 0:
            mine &= ~((np.int64(2) << highest(top)) - 1)
        kept = popcount(st[d, o]) - (n_tricks - t)  # cards it will never play
        if bst[t, o] + popcount(mine) - max(kept, 0) > codes[j, 1]:
            return True
    return False


@njit(cache=True)
def _seen(tkeys, gen, key, h):
    tmask = tkeys.shape[0] - 1
    for p in range(PROBES):
        r = (h + p) & tmask
        if tkeys[r, KEYW] == gen:
            same = True
            for w in range(KEYW):
                if tkeys[r, w] != key[w]:
                    same = False
                    break
            if same:
                return True
    return False


@njit(cache=True)
def _remember(tkeys, gen, key, h):
    tmask = tkeys.shape[0] - 1
    slot = h & tmask
    for p in range(PROBES):
        r = (h + p) & tmask
        if tkeys[r, KEYW] != gen:
            slot = r
            break
    for w in range(KEYW):
        tkeys[slot, w] = key[w]
    tkeys[slot, KEYW] = gen


@njit(cache=True)
def search_deep(
    hands0,
    under,
    seats,
    players,
    n_tricks,
    dummy,
    codes,
    owners,
    n_ds,
    obj_kind,
    obj_a,
    obj_b,
    special,
    wread,
    oread,
    budget,
    tkeys,
    gen,
    memo,
    line,
    prefix,
    n_prefix,
):
    """Solve one Deep Sea problem.  Returns (verdict, plays tried); the winning plays go to
    ``line`` in play order, then -1.

    ``hands0`` one mask per seat (the dummy's face-up cards), ``under[c]`` the card beneath the
    dummy's face-up ``c`` or -1, ``codes`` the task cards' kernel rows (``encode_task``) with
    their ``owners``, ``obj_kind``/``obj_a``/``obj_b`` the objective as the kernel codes it (0:
    none), ``special`` the cards a condition tells apart from their neighbours in the suit
    (``special_cards``), ``wread``/``oread`` the won cards the conditions read
    (``won_cards_read``), ``tkeys`` the memo table (rows of KEYW + 1 int64, a power-of-two
    count), ``gen`` a stamp not used before in it; ``memo`` = 0 turns the memo and the
    equivalent-card pruning off (tests); every line starts with the ``n_prefix`` plays of
    ``prefix`` (a game's position: is it still winnable?).
    """
    st = np.zeros((MAXT * 5 + 1, DCOL), dtype=np.int64)
    bst = np.zeros((MAXT, BCOL), dtype=np.int64)
    keys = np.zeros((MAXT, KEYW), dtype=np.int64)
    hashes = np.zeros(MAXT, dtype=np.int64)
    trick = np.zeros(5, dtype=np.int64)
    g = np.zeros(L.G_SIZE, dtype=np.int64)
    desig = np.full(2, -1, dtype=np.int64)
    leader0 = np.int64(0)
    gone0 = FULL
    for s in range(seats):
        st[0, s] = hands0[s]
        gone0 &= ~hands0[s]
        if (hands0[s] >> 39) & 1:
            leader0 = s
    for c in range(40):
        if under[c] >= 0:
            gone0 &= ~(np.int64(1) << under[c])
    all_done = (np.int64(1) << n_ds) - 1
    st[0, D_LEAD] = leader0
    st[0, D_GONE] = gone0
    bst[0, B_FIRST] = -1
    bst[0, B_OBJ] = 1 if obj_kind == OBJ_NONE else 0
    g[L.G_SEATS], g[L.G_PLAYERS], g[L.G_NT], g[L.G_CMD] = seats, players, n_tricks, leader0
    rng = np.int64(0x2545F4914F6CDD1D)  # seeded by the problem: answers do not depend on
    for s in range(5):  # which problems the process solved before
        rng = mix(rng, hands0[s])
    for j in range(n_ds):
        rng = mix(rng, codes[j, 0] * 64 + owners[j] + codes[j, 1] * 4096)
    if rng == 0:
        rng = np.int64(1)
    nodes = np.int64(0)
    restart = 0
    limit = min(np.int64(RESTART0), budget)
    d = np.int64(0)  # not a literal 0: numba would compile every callee a second time for it
    enter = True
    while True:
        pos = d % seats
        t = d // seats
        lead = st[d, D_LEAD]
        if enter:
            enter = False
            if pos == 0 and memo and _too_many_wins(st, d, bst, t, n_tricks, codes, owners, n_ds):
                d -= 1
                if d < 0:
                    return INFEASIBLE, nodes
                continue
            if pos == 0 and t > 0 and memo:
                h = _key(st, d, bst, t, seats, n_ds, bst[t, B_DONE], owners, wread, oread, keys)
                hashes[t] = h
                if _seen(tkeys, gen, keys[t], h):
                    d -= 1
                    continue
            hand = st[d, (lead + pos) % seats]
            led = SUIT[st[d - pos, D_PLAYED] // 9] if pos > 0 else np.int64(0)
            legal = follow_suit(hand, led)
            moves = legal
            if pos == 0 and obj_kind == OBJ_NO_LEAD and bst[t, B_OBJ] == 0:
                moves &= ~_suits(obj_a)  # such a lead fails the objective: never tried
            if memo:  # of two cards with no card in play between them, try the higher
                live = FULL & ~st[d, D_GONE]
                for k in range(pos):
                    live |= np.int64(1) << st[d - pos + k, D_PLAYED]
                rest = legal & ~special
                while rest != 0:
                    c = lowest(rest)
                    rest &= rest - 1
                    above = live & SUIT[c // 9] & ~((np.int64(2) << c) - 1)
                    if above != 0:
                        nx = lowest(above)
                        if (legal >> nx) & 1 and not (special >> nx) & 1:
                            moves &= ~(np.int64(1) << c)
            if d < n_prefix:  # a play already made: the only move
                moves = legal & (np.int64(1) << prefix[d])
            st[d, D_MOVES] = moves
        m = st[d, D_MOVES]
        if m == 0:
            if pos == 0 and t > 0 and memo:
                _remember(tkeys, gen, keys[t], hashes[t])
            d -= 1
            if d < 0:
                return INFEASIBLE, nodes
            continue
        rng = next_rand(rng)
        c = nth_bit(m, ((rng >> 33) & 0x3FFFFFFF) % popcount(m))
        st[d, D_MOVES] = m & ~(np.int64(1) << c)
        nodes += 1
        if nodes > limit:
            if limit >= budget:
                return UNKNOWN, nodes
            restart += 1
            limit = restart_limit(restart, nodes, budget)
            d = np.int64(0)
            enter = True
            continue
        seat = (lead + pos) % seats
        bit = np.int64(1) << c
        for s in range(5):
            st[d + 1, s] = st[d, s]
        st[d + 1, seat] &= ~bit
        st[d + 1, D_GONE] = st[d, D_GONE] | bit
        st[d, D_PLAYED] = c
        if pos == 0:
            wc, ws = c, seat
        else:
            wc, ws = st[d, D_WC], st[d, D_WS]
            if (BEATS[wc] >> c) & 1:
                wc, ws = c, seat
        if pos < seats - 1:
            st[d + 1, D_LEAD], st[d + 1, D_WC], st[d + 1, D_WS] = lead, wc, ws
            d += 1
            enter = True
            continue
        # ---- the trick is complete: judge it into the next boundary row
        tmask = np.int64(0)
        for k in range(seats):
            trick[k] = st[d - seats + 1 + k, D_PLAYED]
            tmask |= np.int64(1) << trick[k]
        if dummy >= 0:
            u = under[trick[(dummy - lead) % seats]]
            if u >= 0:
                st[d + 1, dummy] |= np.int64(1) << u
        b0, b1 = bst[t], bst[t + 1]
        for j in range(B_ST + 4 * n_ds):
            b1[j] = b0[j]
        b1[ws] += 1
        b1[5 + ws] |= tmask
        if t == 0:
            b1[B_FIRST] = ws
        last = t == n_tricks - 1
        in_hands = FULL & ~st[d + 1, D_GONE]
        failed = False
        done = b1[B_DONE]
        for j in range(n_ds):
            if (done >> j) & 1:
                continue
            if codes[j, 0] == K_PREDICTED:  # the number is the crew's choice
                v = DONE if last else 0
            else:
                v = ds_judge(
                    codes[j],
                    owners[j],
                    -1,
                    b1[B_ST + 4 * j : B_ST + 4 * j + 4],
                    t,
                    n_tricks,
                    seats,
                    players,
                    leader0,
                    trick,
                    lead,
                    ws,
                    wc,
                    b1[0:5],
                    b1[5:10],
                    in_hands,
                    st[d + 1, 0:5],
                )
            if v == FAILED:
                failed = True
                break
            if v == DONE:
                done |= np.int64(1) << j
        if not failed and b1[B_OBJ] == 0:
            g[L.G_T], g[L.G_FIRST_WINNER] = t, b1[B_FIRST]
            v = judge_objective(
                g, obj_kind, obj_a, obj_b, trick, ws, wc, b1[0:5], b1[5:10], desig, in_hands, last
            )
            if v == 2:
                failed = True
            elif v == 1:
                b1[B_OBJ] = 1
        if failed:
            continue
        b1[B_DONE] = done
        if done == all_done and b1[B_OBJ] == 1:
            for k in range(d + 1):
                line[k] = st[k, D_PLAYED]
            line[d + 1] = -1
            return FEASIBLE, nodes
        if last:
            continue
        st[d + 1, D_LEAD] = ws
        d += 1
        enter = True


# ---- the Python face


_TABLE: np.ndarray | None = None
_GEN = 1
TABLE_BITS = 15  # memo rows: 2**15 x 76 int64 = 19 MiB per process


def _table() -> np.ndarray:
    global _TABLE
    if _TABLE is None:
        _TABLE = np.zeros((1 << TABLE_BITS, KEYW + 1), dtype=np.int64)
    return _TABLE


def problem_arrays(problem: Problem) -> tuple[np.ndarray, list[int], tuple[int, int, int]]:
    """A Deep Sea ``problem.Problem`` as the kernel codes it: task-card rows (``encode_task``),
    their owners, and the objective (kind, a, b)."""
    from crewsim.kernel.spec import encode_objective

    players = problem.deal.players
    codes = np.zeros((len(problem.deep), CODE_SIZE), dtype=np.int64)
    for j, t in enumerate(problem.deep):
        codes[j] = encode_task(t.card, players)
        if problem.predictions_made and t.predicted is not None and codes[j, 0] == K_PREDICTED:
            codes[j, 0], codes[j, 1] = K_EXACTLY_TRICKS, t.predicted  # the number announced
    objective = (0, 0, 0) if problem.objective is None else encode_objective(*problem.objective)
    return codes, [t.owner for t in problem.deep], objective


def solve_deep_arrays(
    hands: Sequence[int],
    under: Sequence[tuple[int, int]],
    players: int,
    n_tricks: int,
    codes: np.ndarray,
    owners: Sequence[int],
    objective: tuple[int, int, int],
    budget: int,
    memo: bool = True,
    prefix: Sequence[int] = (),
) -> tuple[int, int, list[int]]:
    """(verdict code, plays tried, winning plays starting with ``prefix``) for bare arrays
    (tests use shortened hands: ``codes`` encoded with the same ``n_tricks``)."""
    global _GEN
    seats = seats_of(players)
    h = np.zeros(5, dtype=np.int64)
    h[: len(hands)] = hands
    u = np.full(40, -1, dtype=np.int64)
    for top, below in under:
        u[top] = below
    n_ds = len(owners)
    if n_ds > MAX_DS:
        raise ValueError(f"at most {MAX_DS} Deep Sea task cards")
    c = np.zeros((max(n_ds, 1), CODE_SIZE), dtype=np.int64)
    c[:n_ds] = codes[:n_ds]
    o = np.zeros(max(n_ds, 1), dtype=np.int64)
    o[:n_ds] = owners
    special = special_cards(c[:n_ds], objective)
    wread, oread = won_cards_read(c[:n_ds], objective)
    for top, _ in under:  # playing it uncovers a card: no twin of another
        special |= 1 << top
    line = np.full(5 * MAXT, -1, dtype=np.int64)
    v, n = search_deep(
        h,
        u,
        seats,
        players,
        n_tricks,
        2 if players == 2 else -1,
        c,
        o,
        n_ds,
        *objective,
        np.int64(special),
        wread,
        np.int64(oread),
        budget,
        _table(),
        _GEN,
        int(memo),
        line,
        np.array([*prefix, -1], dtype=np.int64),
        len(prefix),
    )
    _GEN += 1
    return int(v), int(n), [int(x) for x in line if x >= 0]


# The card masks a condition reads (slots a / b of its kernel row, see the conditions' module
# doc; whole suits among them keep twins alike); kinds not listed read counts and trick indices
# only; ALL_RANKS kinds add or compare every card's value: no two cards are alike for them.
_MASK_SLOTS = {
    C.K_RANK_WITH_RANK: (1, 2),
    C.K_TRICK_WITH_RANK: (1,),
    C.K_AT_LEAST_RANK: (1,),
    C.K_EXACTLY_RANK: (1,),
    C.K_CARDS: (1,),
    C.K_NO_RANK: (1,),
    C.K_ONLY_SUB: (1,),
    C.K_AT_LEAST_COLOUR: (1,),
    C.K_EXACTLY_SUBS: (1,),
    C.K_NO_SUBS: (1,),
    C.K_NEVER_LEAD: (1,),
    C.K_NO_COLOUR: (1,),
    C.K_EACH_COLOUR: (1,),
    C.K_ALL_OF_ONE_COLOUR: (1,),
    C.K_TRICK_EQUAL_COLOURS: (1, 2),
    C.K_EQUAL_COLOURS_TOTAL: (1, 2),
    C.K_MORE_COLOUR: (1, 2),
}
_CARD_SLOT = (C.K_CARD_WITH_SUB, C.K_CARD_IN_LAST)
_ALL_RANKS = (
    C.K_TRICK_PARITY,
    C.K_TRICK_ALL_GT,
    C.K_TRICK_ALL_LT,
    C.K_TRICK_SUM_GT,
    C.K_TRICK_SUM_LT,
    C.K_TRICK_SUM_IN,
)


def _split_suits(mask: int) -> int:
    """The part of a card mask that is not whole suits (whole suits keep twins alike)."""
    for su in SUIT:
        if mask & int(su) == int(su):
            mask &= ~int(su)
    return mask


def special_cards(codes: np.ndarray, objective: tuple[int, int, int]) -> int:
    """The cards some condition tells apart from a neighbour of their suit."""
    special = 0
    for row in codes:
        kind = int(row[0])
        if kind in _ALL_RANKS:
            return int(FULL)
        for slot in _MASK_SLOTS.get(kind, ()):
            special |= _split_suits(int(row[slot]))
        if kind in _CARD_SLOT:
            special |= 1 << int(row[1])
    kind, a, _ = objective
    if kind == OBJ_RANK:
        special |= sum(1 << (9 * u + a - 1) for u in range(4))
    elif kind == OBJ_CARD_LAST:
        special |= 1 << a
    return special


# The won cards a condition reads (``mine`` in ``ds_judge``): the masks in these slots
_READS_WON = {
    C.K_CARDS: (1,),
    C.K_ONLY_SUB: (),
    C.K_AT_LEAST_RANK: (1,),
    C.K_AT_LEAST_COLOUR: (1,),
    C.K_EXACTLY_RANK: (1,),
    C.K_EXACTLY_SUBS: (1,),
    C.K_NO_RANK: (1,),
    C.K_NO_SUBS: (1,),
    C.K_NO_COLOUR: (1,),
    C.K_EXACTLY_COLOUR: (),
    C.K_EACH_COLOUR: (1,),
    C.K_ALL_OF_ONE_COLOUR: (1,),
    C.K_EQUAL_COLOURS_TOTAL: (1, 2),
    C.K_MORE_COLOUR: (1, 2),
}
_READS_ALL = (C.K_ONLY_SUB, C.K_EXACTLY_COLOUR)  # read every trump / colour card won


def won_cards_read(codes: np.ndarray, objective: tuple[int, int, int]) -> tuple[np.ndarray, int]:
    """Per task card, the cards of its owner's winnings it reads; those the objective reads."""
    wread = np.zeros(max(len(codes), 1), dtype=np.int64)
    for j, row in enumerate(codes):
        kind = int(row[0])
        if kind in _READS_ALL:
            wread[j] = FULL
        for slot in _READS_WON.get(kind, ()):
            wread[j] |= int(row[slot])
    kind, a, _ = objective
    oread = sum(1 << (9 * u + a - 1) for u in range(4)) if kind == OBJ_RANK else 0
    return wread, oread
