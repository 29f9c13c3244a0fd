"""Deep Sea task conditions in the kernel: the numba twin of ``crewsim.rules.conditions``.

Every judge answers exactly what the referee judge of the same kind answers, on the same trick
(early DONE / FAILED included); tests/kernel/test_conditions_kernel.py plays random hands and
compares the two after every trick.

Contract
========

Python boundary (never called inside the game loop):

* ``KIND_CODES``: ``TaskKind`` value (str) -> kind code (int, 1..37; 0 is "no task").
* ``encode_task(card, players, n_tricks=None) -> np.ndarray``: int64 vector of length
  ``CODE_SIZE`` (8):
  ``[kind code, a, b, c, d, 0, 0, 0]``.  Names are resolved here: colours become card masks
  (the union of ``SUIT[colour]``), cards become card ids or card masks, values become card
  masks (colour cards only unless the card says otherwise), the sum thresholds are resolved
  for the player count (2 players use the 3-player value) and trick references become 0-based
  trick indices for this player count.  ``encode_tasks(cards, players)`` stacks rows.
  Slots (a, b, c, d) per kind ("cards" = a card mask):

  - n: never/at-least/exactly consecutive, exactly n tricks; none of the first n (n capped
    at the hand's tricks)
  - colour cards: never lead, win no colour, each colour, all of one colour
  - winning cards, capture cards: rank with rank;  cards of the rank: trick with rank
  - cards allowed in the trick: all even/odd, all > x, all < x (submarines in only if allowed)
  - threshold (for this crew size), submarines allowed: sum greater / less than
  - mask of target sums, submarines allowed, lowest target, highest target: sum in
  - cards of a, cards of b, min each: equal colours in a trick / over the hand
  - cards of "more", cards of "less", "less" may be zero: more colour than colour
  - cards, n: at least / exactly rank, at least colour, exactly submarines
  - count for pink, blue, green, yellow (-1 = not listed): exactly colour
  - cards: win cards, no rank, no submarines;  that submarine's bit: only submarine
  - OP_FEWER 0 / OP_MORE 1 / OP_EQUAL 2: vs each other player, vs the captain
  - trick-index mask, 1 if a listed trick is beyond the hand, highest index: (only) tricks
  - card id: card with a submarine, card in the last trick
  - nothing: more than the others combined, prediction (the number comes in ``pred``)

Kernel (``@njit``, no allocation, int64 only)::

    ds_judge(code_row, owner, pred, st_row, t, nt, seats, players, captain,
             trick, leader, winner, wcard, won_tricks, won_cards, in_hands, hands) -> int

returns ``PENDING`` (0), ``DONE`` (1) or ``FAILED`` (2) after trick ``t`` with:

* ``code_row``: the task's row from ``encode_task``.
* ``owner``: seat holding the task; ``pred``: its announced trick count (prediction cards
  only, fixed before trick 1; -1 otherwise - a prediction card with -1 answers FAILED where
  the referee raises).
* ``st_row``: int64 scratch of at least ``ST_SIZE`` (4) entries per task, zeroed before the
  hand; the judge keeps streaks and "it happened" flags in it.
* ``t``: index (0-based) of the trick just finished; ``nt``: tricks in the hand (13/13/10/8);
  ``seats``: cards per trick (3 with 2 players); ``players``: 2-5; ``captain``: seat that
  held submarine 4.
* ``trick``: the cards of trick ``t`` in play order (``trick[k]`` was played by seat
  ``(leader + k) % seats``; only the first ``seats`` entries are read); ``leader``: the seat
  that led it; ``winner`` / ``wcard``: who won it and with which card.
* ``won_tricks[s]``: tricks won by seat ``s`` so far, this trick included.
* ``won_cards[s]``: mask of every card in the tricks seat ``s`` won so far, this one included.
* ``in_hands``: mask of the cards not yet played (dummy's covered cards and the 3-player
  unplayed 14th card included).  The judge itself treats nothing as live at ``t == nt - 1``.
* ``hands[s]``: unplayed cards of seat ``s`` after the trick, as the engine keeps them.  With 2
  players the dummy's (seat 2) covered cards may be missing from ``hands[2]``: the judge uses
  ``in_hands & ~hands[0] & ~hands[1]`` as the dummy's hand.  Only the owner's hand is read.

Call protocol: call it after trick 0, 1, 2, ... in order for as long as it answers PENDING;
its answer is final once it is not PENDING (the referee's judges are monotone, so latching the
first non-PENDING answer is exactly the referee's ``judge_tasks``).  Scratch updates happen
only while pending, so a task must not skip a trick while it is still pending.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from crewsim.cards import COLOUR_NAMES, N_COLOURS, SUIT_MASK, TRUMP_MASK, card_id, parse_card
from crewsim.kernel.bits import SUIT, TRUMPS, lowest, popcount
from crewsim.kernel.jit import compiled
from crewsim.missions.schema import TaskCard, TaskKind
from crewsim.rules.play import n_tricks as tricks_of

PENDING, DONE, FAILED = 0, 1, 2
CODE_SIZE = 8
ST_SIZE = 4

# ---- kind codes (0 = no task)
K_NEVER_CONSEC = 1
K_NEVER_LEAD = 2
K_EXACTLY_TRICKS = 3
K_CONSEC_AT_LEAST = 4
K_RANK_WITH_RANK = 5
K_TRICK_PARITY = 6
K_TRICK_WITH_RANK = 7
K_TRICK_ALL_GT = 8
K_TRICK_ALL_LT = 9
K_TRICK_SUM_GT = 10
K_TRICK_SUM_LT = 11
K_TRICK_SUM_IN = 12
K_TRICK_EQUAL_COLOURS = 13
K_EQUAL_COLOURS_TOTAL = 14
K_MORE_COLOUR = 15
K_EACH_COLOUR = 16
K_ALL_OF_ONE_COLOUR = 17
K_AT_LEAST_RANK = 18
K_CARDS = 19
K_AT_LEAST_COLOUR = 20
K_EXACTLY_CONSEC = 21
K_EXACTLY_COLOUR = 22
K_EXACTLY_SUBS = 23
K_EXACTLY_RANK = 24
K_VS_EACH_OTHER = 25
K_MORE_THAN_OTHERS = 26
K_VS_CAPTAIN = 27
K_NO_RANK = 28
K_NO_SUBS = 29
K_NO_COLOUR = 30
K_NONE_OF_FIRST = 31
K_ONLY_TRICKS = 32
K_TRICKS = 33
K_ONLY_SUB = 34
K_CARD_WITH_SUB = 35
K_CARD_IN_LAST = 36
K_PREDICTED = 37

_K = TaskKind
KIND_CODES: dict[str, int] = {
    _K.NEVER_WIN_CONSECUTIVE_TRICKS.value: K_NEVER_CONSEC,
    _K.NEVER_LEAD_COLOR.value: K_NEVER_LEAD,
    _K.WIN_EXACTLY_N_TRICKS.value: K_EXACTLY_TRICKS,
    _K.WIN_CONSECUTIVE_TRICKS_AT_LEAST.value: K_CONSEC_AT_LEAST,
    _K.WIN_RANK_WITH_RANK.value: K_RANK_WITH_RANK,
    _K.WIN_TRICK_ALL_RANKS_PARITY.value: K_TRICK_PARITY,
    _K.WIN_TRICK_WITH_RANK.value: K_TRICK_WITH_RANK,
    _K.WIN_TRICK_ALL_RANKS_GT.value: K_TRICK_ALL_GT,
    _K.WIN_TRICK_ALL_RANKS_LT.value: K_TRICK_ALL_LT,
    _K.WIN_TRICK_SUM_GT.value: K_TRICK_SUM_GT,
    _K.WIN_TRICK_SUM_LT.value: K_TRICK_SUM_LT,
    _K.WIN_TRICK_SUM_IN.value: K_TRICK_SUM_IN,
    _K.WIN_TRICK_EQUAL_COLORS.value: K_TRICK_EQUAL_COLOURS,
    _K.WIN_EQUAL_COLORS_TOTAL.value: K_EQUAL_COLOURS_TOTAL,
    _K.WIN_MORE_COLOR_THAN_COLOR.value: K_MORE_COLOUR,
    _K.WIN_EACH_COLOR.value: K_EACH_COLOUR,
    _K.WIN_ALL_CARDS_OF_ONE_COLOR.value: K_ALL_OF_ONE_COLOUR,
    _K.WIN_AT_LEAST_RANK.value: K_AT_LEAST_RANK,
    _K.WIN_CARDS.value: K_CARDS,
    _K.WIN_AT_LEAST_COLOR.value: K_AT_LEAST_COLOUR,
    _K.WIN_EXACTLY_N_CONSECUTIVE_TRICKS.value: K_EXACTLY_CONSEC,
    _K.WIN_EXACTLY_COLOR.value: K_EXACTLY_COLOUR,
    _K.WIN_EXACTLY_SUBMARINES.value: K_EXACTLY_SUBS,
    _K.WIN_EXACTLY_RANK.value: K_EXACTLY_RANK,
    _K.COMPARE_TRICKS_VS_EACH_OTHER_PLAYER.value: K_VS_EACH_OTHER,
    _K.WIN_MORE_TRICKS_THAN_OTHERS_COMBINED.value: K_MORE_THAN_OTHERS,
    _K.COMPARE_TRICKS_VS_CAPTAIN.value: K_VS_CAPTAIN,
    _K.WIN_NO_RANK.value: K_NO_RANK,
    _K.WIN_NO_SUBMARINES.value: K_NO_SUBS,
    _K.WIN_NO_COLOR.value: K_NO_COLOUR,
    _K.WIN_NONE_OF_FIRST_N_TRICKS.value: K_NONE_OF_FIRST,
    _K.WIN_ONLY_TRICKS.value: K_ONLY_TRICKS,
    _K.WIN_TRICKS.value: K_TRICKS,
    _K.WIN_ONLY_SUBMARINE.value: K_ONLY_SUB,
    _K.WIN_CARD_WITH_SUBMARINE.value: K_CARD_WITH_SUB,
    _K.WIN_CARD_IN_LAST_TRICK.value: K_CARD_IN_LAST,
    _K.WIN_PREDICTED_TRICK_COUNT.value: K_PREDICTED,
}
"""TaskKind value -> kind code (slot 0 of an encoded task)."""

OP_FEWER, OP_MORE, OP_EQUAL = 0, 1, 2
_OPS = {"fewer": OP_FEWER, "more": OP_MORE, "equal": OP_EQUAL}

# colour cards of each value (index = value 1..9; index 0 unused)
VALUE_MASK = np.array(
    [0] + [sum(1 << card_id(s, v) for s in range(N_COLOURS)) for v in range(1, 10)],
    dtype=np.int64,
)


# ---------------------------------------------------------------- Python boundary


def _colours(names: Iterable[str]) -> int:
    m = 0
    for name in names:
        m |= int(SUIT_MASK[COLOUR_NAMES.index(name)])
    return m


def _ranks(ranks: Iterable[int], colour_only: bool) -> int:
    m = 0
    for r in ranks:
        m |= int(VALUE_MASK[r])
        if not colour_only and r <= 4:
            m |= 1 << (35 + r)
    return m


def _values(keep: Callable[[int], bool], subs: bool) -> int:
    """Mask of the cards whose value passes ``keep`` (colour cards; submarines if ``subs``)."""
    m = 0
    for c in range(40 if subs else 36):
        v = c - 35 if c >= 36 else c % 9 + 1
        if keep(v):
            m |= 1 << c
    return m


def _trick_refs(refs: Iterable[object], nt: int) -> tuple[int, int, int]:
    """(mask of 0-based trick indices in this hand, 1 if one is beyond the hand, highest)."""
    mask, bad, top = 0, 0, -1
    for ref in refs:
        if ref == "first":
            i = 0
        elif ref == "last":
            i = nt - 1
        elif isinstance(ref, int) and not isinstance(ref, bool) and ref >= 1:
            i = ref - 1
        else:
            raise ValueError(f"not a trick reference: {ref!r}")
        if i >= nt:
            bad = 1
        else:
            mask |= 1 << i
            top = max(top, i)
    return mask, bad, top


def _encode(kind: TaskKind, p: Mapping[str, Any], players: int, nt: int) -> list[int]:
    """Parameter slots a, b, c, d of each kind (unused slots are 0)."""
    K = _K
    subs_ok = not p.get("no_submarines", True)
    colour_only = p.get("color_cards_only", True)
    n = int(p["n"]) if "n" in p else 0
    if kind in (
        K.NEVER_WIN_CONSECUTIVE_TRICKS,
        K.WIN_CONSECUTIVE_TRICKS_AT_LEAST,
        K.WIN_EXACTLY_N_TRICKS,
        K.WIN_EXACTLY_N_CONSECUTIVE_TRICKS,
    ):
        return [n]  # a = n
    if kind is K.NEVER_LEAD_COLOR or kind is K.WIN_NO_COLOR:
        return [_colours(p["colors"])]  # a = colour cards
    if kind is K.WIN_RANK_WITH_RANK:  # a = winning cards, b = cards to capture
        win, capture = p["winning_rank"], p["capture_rank"]
        return [_ranks([win], colour_only), _ranks([capture], colour_only)]
    if kind is K.WIN_TRICK_ALL_RANKS_PARITY:  # a = cards allowed in the trick
        rest = 0 if p["parity"] == "even" else 1
        return [_values(lambda v: v % 2 == rest, subs_ok)]
    if kind is K.WIN_TRICK_ALL_RANKS_GT:
        gt = int(p["gt"])
        return [_values(lambda v: v > gt, False)]
    if kind is K.WIN_TRICK_ALL_RANKS_LT:
        lt = int(p["lt"])
        return [_values(lambda v: v < lt, subs_ok)]
    if kind is K.WIN_TRICK_WITH_RANK:  # a = cards of the rank
        return [_ranks([p["rank"]], colour_only)]
    if kind in (K.WIN_TRICK_SUM_GT, K.WIN_TRICK_SUM_LT):  # a = threshold, b = subs allowed
        table = p["threshold_by_players"]
        return [int(table[str(max(players, 3))]), int(subs_ok)]
    if kind is K.WIN_TRICK_SUM_IN:  # a = mask of target sums, b = subs allowed, c/d = min/max
        targets = [int(v) for v in p["values"]]
        sums = sum(1 << v for v in set(targets) if v < 63)  # a trick sums to 45 at most
        return [sums, int(subs_ok), min(targets), max(targets)]
    if kind in (K.WIN_TRICK_EQUAL_COLORS, K.WIN_EQUAL_COLORS_TOTAL):  # a, b colours, c = min
        return [_colours([p["a"]]), _colours([p["b"]]), int(p["min_each"])]
    if kind is K.WIN_MORE_COLOR_THAN_COLOR:  # a = more, b = less, c = less may be zero
        return [_colours([p["more"]]), _colours([p["less"]]), int(bool(p["less_may_be_zero"]))]
    if kind in (K.WIN_EACH_COLOR, K.WIN_ALL_CARDS_OF_ONE_COLOR):  # a = listed colours
        return [_colours(p["colors"])]
    if kind in (K.WIN_AT_LEAST_RANK, K.WIN_EXACTLY_RANK):  # a = cards, b = n
        return [_ranks([p["rank"]], colour_only), n]
    if kind is K.WIN_AT_LEAST_COLOR:  # a = cards, b = n
        return [_colours([p["color"]]), n]
    if kind is K.WIN_EXACTLY_SUBMARINES:  # a = cards, b = n
        return [int(TRUMP_MASK), n]
    if kind is K.WIN_CARDS:  # a = cards
        return [sum(1 << parse_card(str(c)) for c in p["cards"])]
    if kind is K.WIN_EXACTLY_COLOR:  # a..d = count per colour (pink..yellow), -1 = not listed
        counts = [-1] * N_COLOURS
        for name, k in p["counts"].items():
            counts[COLOUR_NAMES.index(name)] = int(k)
        return counts
    if kind in (K.COMPARE_TRICKS_VS_EACH_OTHER_PLAYER, K.COMPARE_TRICKS_VS_CAPTAIN):
        return [_OPS[str(p["op"])]]  # a = OP_*
    if kind is K.WIN_NO_RANK:  # a = cards
        return [_ranks(p["ranks"], colour_only)]
    if kind is K.WIN_NO_SUBMARINES:  # a = cards
        return [int(TRUMP_MASK)]
    if kind is K.WIN_NONE_OF_FIRST_N_TRICKS:  # a = n, capped at the hand's tricks
        return [min(n, nt)]
    if kind in (K.WIN_ONLY_TRICKS, K.WIN_TRICKS):  # a = trick mask, b = bad ref, c = highest
        return list(_trick_refs(p["tricks"], nt))
    if kind is K.WIN_ONLY_SUBMARINE:  # a = that submarine's bit
        return [1 << (35 + int(p["submarine"]))]
    if kind in (K.WIN_CARD_WITH_SUBMARINE, K.WIN_CARD_IN_LAST_TRICK):  # a = card id
        return [parse_card(str(p["card"]))]
    if kind in (K.WIN_MORE_TRICKS_THAN_OTHERS_COMBINED, K.WIN_PREDICTED_TRICK_COUNT):
        return []
    raise ValueError(f"no kernel encoding for task kind {kind!r}")


def encode_task(card: TaskCard, players: int, n_tricks: int | None = None) -> np.ndarray:
    """The task card as the kernel's int64 row for this player count (see the module doc).

    ``n_tricks`` overrides the hand's length (only for tests on shortened hands): "last" and
    "the first n tricks" are resolved against it.
    """
    if players not in (2, 3, 4, 5):
        raise ValueError(f"players must be 2-5, got {players}")
    nt = tricks_of(players) if n_tricks is None else n_tricks
    slots = _encode(card.kind, card.params, players, nt)
    row = np.zeros(CODE_SIZE, dtype=np.int64)
    row[0] = KIND_CODES[card.kind.value]
    row[1 : 1 + len(slots)] = slots
    return row


def encode_tasks(cards: Sequence[TaskCard], players: int) -> np.ndarray:
    """One row per card (shape ``(len(cards), CODE_SIZE)``)."""
    out = np.zeros((len(cards), CODE_SIZE), dtype=np.int64)
    for i, card in enumerate(cards):
        out[i] = encode_task(card, players)
    return out


# ---------------------------------------------------------------- kernel helpers


@compiled
def _exactly(now, more, n):
    """Exactly ``n``: ``now`` so far, at most ``more`` still to come."""
    if now > n or now + more < n:
        return FAILED
    return DONE if more == 0 else PENDING


@compiled
def _at_least(now, more, n):
    if now >= n:
        return DONE
    return FAILED if now + more < n else PENDING


@compiled
def _none_of(mine, live, mask):
    if mine & mask:
        return FAILED
    return PENDING if live & mask else DONE


@compiled
def _trick_mask(trick, seats):
    m = np.int64(0)
    for k in range(seats):
        m |= np.int64(1) << trick[k]
    return m


@compiled
def _trick_sum(trick, seats):
    total = np.int64(0)
    for k in range(seats):
        c = trick[k]
        total += c - 35 if c >= 36 else c % 9 + 1
    return total


@compiled
def _extreme_sum(live, subs, k, top):
    """Sum of the ``k`` lowest (or highest if ``top``) live values; -1 if fewer than ``k``."""
    need = k
    total = np.int64(0)
    for i in range(9):
        v = 9 - i if top else i + 1
        cnt = popcount(live & VALUE_MASK[v])
        if subs and v <= 4 and (live >> (35 + v)) & 1:
            cnt += 1
        take = cnt if cnt < need else need
        total += take * v
        need -= take
        if need == 0:
            return total
    return np.int64(-1)


@compiled
def _owner_hand(owner, players, hands, in_hands):
    if players == 2 and owner == 2:
        return in_hands & ~hands[0] & ~hands[1]
    return hands[owner]


@compiled
def _runs(st, t, owner, winner):
    """Keep st[0] = owner's streak ending at trick t, st[1] = longest streak so far."""
    if winner == owner:
        st[0] += 1
    else:
        st[0] = 0
    if st[0] > st[1]:
        st[1] = st[0]


@compiled
def _pattern_hit(a, b, c, d, kind, trick, seats, wcard):
    """Did this trick (won by the owner) meet the trick-pattern condition of ``kind``?"""
    if kind == K_TRICK_PARITY or kind == K_TRICK_ALL_GT or kind == K_TRICK_ALL_LT:
        return (_trick_mask(trick, seats) & ~a) == 0
    if kind == K_TRICK_WITH_RANK:
        return (a >> wcard) & 1 == 1
    if kind == K_RANK_WITH_RANK:
        if not (a >> wcard) & 1:
            return False
        for k in range(seats):
            if trick[k] != wcard and (b >> trick[k]) & 1:
                return True
        return False
    if kind == K_TRICK_EQUAL_COLOURS:
        m = _trick_mask(trick, seats)
        na = popcount(m & a)
        return na >= c and na == popcount(m & b)
    # sums
    if b == 0 and (_trick_mask(trick, seats) & TRUMPS) != 0:
        return False
    total = _trick_sum(trick, seats)
    if kind == K_TRICK_SUM_GT:
        return total > a
    if kind == K_TRICK_SUM_LT:
        return total < a
    return total < 63 and (a >> total) & 1 == 1  # K_TRICK_SUM_IN


@compiled
def _pattern_impossible(a, b, c, d, kind, live, seats, owner_hand):
    """The trick-pattern condition can no longer be met (the hand is not over yet)."""
    if kind == K_TRICK_PARITY or kind == K_TRICK_ALL_GT or kind == K_TRICK_ALL_LT:
        return popcount(live & a) < seats
    if kind == K_TRICK_WITH_RANK:
        return (owner_hand & a) == 0
    if kind == K_RANK_WITH_RANK:
        w = owner_hand & a
        while w:
            card = lowest(w)
            if live & b & ~(np.int64(1) << card):
                return False
            w &= w - 1
        return True
    if kind == K_TRICK_EQUAL_COLOURS:
        return popcount(live & a) < c or popcount(live & b) < c
    subs = b != 0
    if kind == K_TRICK_SUM_GT:
        hi = _extreme_sum(live, subs, seats, True)
        return hi < 0 or hi <= a
    if kind == K_TRICK_SUM_LT:
        lo = _extreme_sum(live, subs, seats, False)
        return lo < 0 or lo >= a
    lo = _extreme_sum(live, subs, seats, False)  # K_TRICK_SUM_IN
    if lo < 0:
        return True
    return lo > d or _extreme_sum(live, subs, seats, True) < c


# ---------------------------------------------------------------- the judge


@compiled
def ds_judge(
    code_row,
    owner,
    pred,
    st_row,
    t,
    nt,
    seats,
    players,
    captain,
    trick,
    leader,
    winner,
    wcard,
    won_tricks,
    won_cards,
    in_hands,
    hands,
):
    """Verdict (PENDING 0 / DONE 1 / FAILED 2) of one task after trick ``t`` (module doc)."""
    kind = code_row[0]
    a, b, c, d = code_row[1], code_row[2], code_row[3], code_row[4]
    over = t >= nt - 1
    remaining = nt - t - 1
    live = np.int64(0) if over else in_hands
    mine = won_cards[owner]
    o = won_tricks[owner]
    st = st_row

    # ---- trick patterns
    if kind == K_NEVER_CONSEC:
        _runs(st, t, owner, winner)
        if st[1] >= a:
            return FAILED
        return DONE if st[0] + remaining < a else PENDING
    if kind == K_CONSEC_AT_LEAST:
        _runs(st, t, owner, winner)
        if st[1] >= a:
            return DONE
        return FAILED if st[0] + remaining < a else PENDING
    if kind == K_EXACTLY_CONSEC:
        if winner == owner:
            if st[0] == 0:
                st[0] = t + 1  # first win, 1-based (0 = none yet)
            st[1] = t  # latest win
        if o > a:
            return FAILED
        if o > 0:
            if st[1] - (st[0] - 1) + 1 != o:
                return FAILED
            open_block = st[1] == t
            if not open_block and o < a:
                return FAILED
            if open_block and o + remaining < a:
                return FAILED
        elif remaining < a:
            return FAILED
        return DONE if over else PENDING
    if kind == K_EXACTLY_TRICKS:
        return _exactly(o, remaining, a)
    if kind == K_PREDICTED:
        if pred < 0:
            return FAILED
        return _exactly(o, remaining, pred)
    if kind == K_NONE_OF_FIRST:
        if t < a and winner == owner:
            st[0] = 1
        if st[0]:
            return FAILED
        return DONE if t + 1 >= a else PENDING
    if kind == K_TRICKS:
        if b:
            return FAILED
        if (a >> t) & 1 and winner != owner:
            st[0] = 1
        if st[0]:
            return FAILED
        return DONE if c <= t else PENDING
    if kind == K_ONLY_TRICKS:
        if b:
            return FAILED
        if ((a >> t) & 1 == 1) != (winner == owner):
            st[0] = 1
        if st[0]:
            return FAILED
        return DONE if over else PENDING
    if kind == K_NEVER_LEAD:
        if leader == owner and (a >> trick[0]) & 1:
            st[0] = 1
        if st[0]:
            return FAILED
        if over or (_owner_hand(owner, players, hands, in_hands) & a) == 0:
            return DONE
        return PENDING

    # ---- trick counts
    if kind == K_VS_EACH_OTHER:
        if a == OP_FEWER:
            need = 0
            all_above = True
            for s in range(seats):
                if s == owner:
                    continue
                w = won_tricks[s]
                if o + 1 - w > 0:
                    need += o + 1 - w
                if not o + remaining < w:
                    all_above = False
            if need > remaining:
                return FAILED
            return DONE if all_above else PENDING
        best = np.int64(0)
        for s in range(seats):
            if s == owner:
                continue
            w = won_tricks[s]
            if w >= o + remaining:
                return FAILED
            if w > best:
                best = w
        return DONE if o > best + remaining else PENDING
    if kind == K_MORE_THAN_OTHERS:
        if 2 * o > nt:
            return DONE
        return FAILED if 2 * (t + 1 - o) >= nt else PENDING
    if kind == K_VS_CAPTAIN:
        if owner == captain:
            return FAILED
        cw = won_tricks[captain]
        if a == OP_MORE:
            if cw >= o + remaining:
                return FAILED
            return DONE if o > cw + remaining else PENDING
        if a == OP_FEWER:
            if o >= cw + remaining:
                return FAILED
            return DONE if o + remaining < cw else PENDING
        if abs(o - cw) > remaining:
            return FAILED
        return DONE if over else PENDING

    # ---- winning a special trick
    if (
        kind == K_TRICK_WITH_RANK
        or kind == K_RANK_WITH_RANK
        or kind == K_TRICK_PARITY
        or kind == K_TRICK_ALL_GT
        or kind == K_TRICK_ALL_LT
        or kind == K_TRICK_SUM_GT
        or kind == K_TRICK_SUM_LT
        or kind == K_TRICK_SUM_IN
        or kind == K_TRICK_EQUAL_COLOURS
    ):
        if winner == owner and _pattern_hit(a, b, c, d, kind, trick, seats, wcard):
            st[0] = 1
        if st[0]:
            return DONE
        if over:
            return FAILED
        hand = _owner_hand(owner, players, hands, in_hands)
        return FAILED if _pattern_impossible(a, b, c, d, kind, live, seats, hand) else PENDING
    if kind == K_CARD_WITH_SUB:
        for k in range(seats):
            if trick[k] == a:
                st[0] = DONE if winner == owner and wcard >= 36 else FAILED
        if st[0]:
            return st[0]
        if over or (_owner_hand(owner, players, hands, in_hands) & TRUMPS) == 0:
            return FAILED
        return PENDING
    if kind == K_CARD_IN_LAST:
        in_trick = False
        for k in range(seats):
            if trick[k] == a:
                in_trick = True
        if in_trick and not over:
            st[0] = 1
        if st[0]:
            return FAILED
        if not over:
            return PENDING
        return DONE if winner == owner and in_trick else FAILED

    # ---- counting won cards
    return won_cards_verdict(code_row, 0, mine, live)


@compiled
def won_cards_verdict(codes, at, mine, live):
    """Verdict of a task that counts the cards its owner won (the row from ``codes[at]``),
    with ``mine`` won and ``live`` still to come; FAILED for any other kind.  The bots ask it
    too (``crewsim.bots.collect``), so they and the judge read one rule."""
    kind = codes[at]
    a, b, c = codes[at + 1], codes[at + 2], codes[at + 3]
    if kind == K_CARDS:
        if mine & a == a:
            return DONE
        return FAILED if a & ~mine & ~live else PENDING
    if kind == K_ONLY_SUB:
        if mine & TRUMPS & ~a:
            return FAILED
        if not mine & a:
            return PENDING if live & a else FAILED
        return PENDING if live & TRUMPS else DONE
    if kind == K_AT_LEAST_RANK or kind == K_AT_LEAST_COLOUR:
        return _at_least(popcount(mine & a), popcount(live & a), b)
    if kind == K_EXACTLY_RANK or kind == K_EXACTLY_SUBS:
        return _exactly(popcount(mine & a), popcount(live & a), b)
    if kind == K_NO_RANK or kind == K_NO_SUBS or kind == K_NO_COLOUR:
        return _none_of(mine, live, a)
    if kind == K_EXACTLY_COLOUR:
        failed = False
        all_done = True
        for s in range(4):
            n = codes[at + 1 + s]
            if n < 0:
                continue
            v = _exactly(popcount(mine & SUIT[s]), popcount(live & SUIT[s]), n)
            if v == FAILED:
                failed = True
            elif v != DONE:
                all_done = False
        if failed:
            return FAILED
        return DONE if all_done else PENDING
    if kind == K_EACH_COLOUR:
        all_won = True
        for s in range(4):
            m = SUIT[s] & a
            if m and not mine & m:
                all_won = False
        if all_won:
            return DONE
        for s in range(4):
            m = SUIT[s] & a
            if m and not (mine | live) & m:
                return FAILED
        return PENDING
    if kind == K_ALL_OF_ONE_COLOUR:
        all_blocked = True
        for s in range(4):
            m = SUIT[s] & a
            if not m:
                continue
            if mine & m == m:
                return DONE
            if not m & ~mine & ~live:
                all_blocked = False
        return FAILED if all_blocked else PENDING
    if kind == K_EQUAL_COLOURS_TOTAL:
        na, nb = popcount(mine & a), popcount(mine & b)
        ma, mb = popcount(live & a), popcount(live & b)
        lo = max(na, nb, c)
        if lo > min(na + ma, nb + mb):
            return FAILED
        return DONE if ma == 0 and mb == 0 else PENDING
    if kind == K_MORE_COLOUR:
        n_hi, n_lo = popcount(mine & a), popcount(mine & b)
        m_hi, m_lo = popcount(live & a), popcount(live & b)
        least_lo = n_lo if c else max(n_lo, 1)
        if least_lo > n_lo + m_lo or n_hi + m_hi <= least_lo:
            return FAILED
        return DONE if n_hi > n_lo + m_lo and n_lo >= least_lo else PENDING
    return FAILED  # unknown kind code: never silently "pending"
