"""The 96 Deep Sea task cards as integer tables for the kernel, built once per crew size.

Two kinds of columns: what the rules need to set a mission up (value for this crew size,
whether the captain may take the card, redeal sets, pairwise contradictions proven by
``crewsim.rules.deep_sea_setup``) and coarse hints that steer the bots (which cards the owner
wants or must not win, a trick-count target, which tricks it must win or avoid, a streak, a
trick count compared with the others', the ranks it must win with, the make-up of a trick
it must win).  The hints only shape play; whether a task is met is judged by
``crewsim.kernel.conditions``.  The rule columns' compiled readers (``may_take``, ``clashes``)
sit at the end: the kernel's repair and the bots' selection both obey them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from crewsim.cards import COLOUR_MASK, SUIT_MASK, TRUMP_MASK, card_id, parse_card, seats_of
from crewsim.kernel.conditions import (
    K_RANK_WITH_RANK,
    K_TRICK_ALL_GT,
    K_TRICK_ALL_LT,
    K_TRICK_PARITY,
    K_TRICK_SUM_GT,
    K_TRICK_SUM_IN,
    K_TRICK_SUM_LT,
    K_TRICK_WITH_RANK,
    encode_task,
)
from crewsim.kernel.jit import compiled
from crewsim.kernel.layout import DS_COLS
from crewsim.missions import load_task_cards
from crewsim.missions.schema import TaskCard
from crewsim.rules.deep_sea_setup import find_contradictions, trick_bounds

N_TASKS = 96
# hint families: how the owner feels about winning tricks in general
FAM_NEUTRAL, FAM_WIN, FAM_AVOID, FAM_COUNT = 0, 1, 2, 3
# column offsets of the table, one row per card (row = card number - 1)
C_VALUE, C_CAPTAIN_OK, C_REDEAL0, C_REDEAL1, C_SAME0, C_SAME1, C_DIFF0, C_DIFF1 = range(8)
C_FAMILY, C_NEED, C_BAD, C_TARGET, C_TRICKS, C_LAST, C_PREDICT, C_NEVER_LEAD = range(8, 16)
C_EXACT = 16  # the owner must win exactly these cards (played like Planet Nine task cards)
C_RUN = 17  # a streak of C_TARGET tricks: RUN_AT_LEAST or RUN_EXACTLY (then no other trick)
C_CMP = 18  # a trick count compared with the others' (CMP_*)
C_WITH = 19  # the owner must take the trick with one of these colour cards
C_FIT = 20  # the owner must win a trick made of such cards only
C_SUM_LO, C_SUM_HI = 21, 22  # ... whose values add up to C_SUM_LO..C_SUM_HI (0, 0: any sum)
# the owner's own hand alone can rule the card out (the draft reads these): it must hold one
# of C_HOLD_ANY (0: no such need) and none of C_HOLD_NONE
C_HOLD_ANY, C_HOLD_NONE = 23, 24
# the fewest and most tricks the card lets its owner win, the tricks it must and must not
# win (bitmasks): ``deep_sea_setup.trick_bounds``
C_TLO, C_THI, C_TWIN, C_TLOSE = 25, 26, 27, 28
N_COLS = DS_COLS
assert N_COLS == C_TLOSE + 1, "layout.DS_COLS must count the columns above"
RUN_AT_LEAST, RUN_EXACTLY = 1, 2
_RUN = {
    "win_consecutive_tricks_at_least": RUN_AT_LEAST,
    "win_exactly_n_consecutive_tricks": RUN_EXACTLY,
}
# trick counts compared: more / fewer than each other seat, more than all others together,
# more / fewer / as many as the captain
CMP_MORE_EACH, CMP_FEWER_EACH, CMP_MORE_ALL = 1, 2, 3
CMP_MORE_CAPT, CMP_FEWER_CAPT, CMP_EQUAL_CAPT = 4, 5, 6
_CMP = {
    ("compare_tricks_vs_each_other_player", "more"): CMP_MORE_EACH,
    ("compare_tricks_vs_each_other_player", "fewer"): CMP_FEWER_EACH,
    ("win_more_tricks_than_others_combined", ""): CMP_MORE_ALL,
    ("compare_tricks_vs_captain", "more"): CMP_MORE_CAPT,
    ("compare_tricks_vs_captain", "fewer"): CMP_FEWER_CAPT,
    ("compare_tricks_vs_captain", "equal"): CMP_EQUAL_CAPT,
}

_AVOID = {
    "win_no_rank",
    "win_no_submarines",
    "win_no_color",
    "win_none_of_first_n_tricks",
    "never_win_consecutive_tricks",
}
_EXACT = {"win_cards", "win_card_in_last_trick", "win_card_with_submarine"}
_COUNT = {
    "win_exactly_n_tricks",
    "win_predicted_trick_count",
    "compare_tricks_vs_captain",
    "compare_tricks_vs_each_other_player",
}


def _colours(names: Any) -> int:
    order = ("pink", "blue", "green", "yellow")
    return sum(int(SUIT_MASK[order.index(n)]) for n in names if n in order)


def _ranks(ranks: Any) -> int:
    return sum(1 << card_id(s, int(r)) for r in ranks for s in range(4))


def _hints(card: TaskCard) -> tuple[int, int, int, int, int, int, int, int]:
    """(family, need mask, bad mask, trick target, must-win trick mask, last flag, predict,
    never-lead mask) for one card."""
    k = str(card.kind)
    p: Any = card.params  # values typed per kind by the schema
    need = bad = tricks = last = never_lead = 0
    target = -1
    family = FAM_WIN
    if k in ("win_cards", "win_card_in_last_trick", "win_card_with_submarine"):
        cards = p.get("cards", (p.get("card"),))
        need = sum(1 << parse_card(str(c)) for c in cards)
        last = int(k == "win_card_in_last_trick")
    elif k in ("win_at_least_color", "win_each_color", "win_all_cards_of_one_color"):
        need = _colours(p.get("colors", (p.get("color"),)))
    elif k == "win_at_least_rank":
        need = _ranks((p["rank"],))
    elif k == "win_rank_with_rank":
        need = _ranks((p["capture_rank"],))
    elif k in ("win_exactly_color", "win_exactly_rank", "win_exactly_submarines"):
        family = FAM_COUNT
        need = (
            _colours(p["counts"])
            if "counts" in p
            else (_ranks((p["rank"],)) if "rank" in p else TRUMP_MASK)
        )
        target = int(sum(p["counts"].values())) if "counts" in p else int(p["n"])
    elif k == "win_only_submarine":
        need = 1 << card_id(4, int(p["submarine"]))
        bad = TRUMP_MASK & ~need
    elif k in _AVOID:
        family = FAM_AVOID
        if k == "win_no_rank":
            bad = _ranks(p["ranks"])
        elif k == "win_no_submarines":
            bad = TRUMP_MASK
        elif k == "win_no_color":
            bad = _colours(p["colors"])
        elif k == "win_none_of_first_n_tricks":
            tricks = (1 << int(p["n"])) - 1
    elif k in _COUNT:
        family = FAM_COUNT
        target = int(p.get("n", -1))
    elif k in ("win_tricks", "win_only_tricks"):
        for ref in p["tricks"]:
            if ref in ("last", "Last"):
                last = 1
            elif ref in ("first", 1):
                tricks |= 1
            else:
                tricks |= 1 << (int(ref) - 1)
        if k == "win_only_tricks":
            family = FAM_COUNT
    elif k in _RUN:
        target = int(p["n"])
    elif k == "never_lead_color":
        family = FAM_NEUTRAL
        never_lead = _colours(p["colors"])
    predict = 0  # 1: a prediction everyone knows, 2: one only its owner knows (card 95)
    if k == "win_predicted_trick_count":
        predict = 2 if p["visibility"] == "secret" else 1
    return family, need, bad, target, tricks, last, predict, never_lead


def _make_up(card: TaskCard, players: int) -> tuple[int, int, int, int]:
    """(with, fit, sum low, sum high), read off the judge's own encoding of the card: the
    cards the owner must take the trick with; the cards a trick of the make-up the card asks
    for may hold, and the range their values must add up to (0, 0: any sum)."""
    kind, a, b, c, d = (int(v) for v in encode_task(card, players)[:5])
    if kind in (K_TRICK_WITH_RANK, K_RANK_WITH_RANK):  # a = the cards to win with
        return a, 0, 0, 0
    if kind in (K_TRICK_PARITY, K_TRICK_ALL_GT, K_TRICK_ALL_LT):  # a = the cards allowed
        return 0, a, 0, 0
    cards = COLOUR_MASK | (TRUMP_MASK if b else 0)  # b: submarines allowed
    if kind == K_TRICK_SUM_GT:
        return 0, cards, a + 1, 99
    if kind == K_TRICK_SUM_LT:
        return 0, cards, 0, a - 1
    if kind == K_TRICK_SUM_IN:  # c, d: the lowest and highest sum
        return 0, cards, c, d
    return 0, 0, 0, 0


def _holdings(card: TaskCard, with_: int) -> tuple[int, int]:
    """(hold one of, hold none of): the cards whose holding alone rules the card out (but for
    a three-player hand of 14, which could keep one of the second back: the draft does not
    plan for that)."""
    k = str(card.kind)
    p: Any = card.params  # values typed per kind by the schema
    if k == "win_card_with_submarine":  # won with a submarine, so never with the card itself
        return int(TRUMP_MASK), 1 << parse_card(str(p["card"]))
    sub4 = 1 << card_id(4, 4)  # it wins the trick it is played in
    if k == "win_no_submarines":
        return 0, sub4
    if k == "win_only_submarine":  # the submarine takes any trick it is in but with another
        return 1 << card_id(4, int(p["submarine"])), sub4
    if k == "win_exactly_submarines" and int(p["n"]) > 0:  # only a submarine takes one
        return int(TRUMP_MASK), 0
    if k == "win_cards":  # a submarine to win is taken by itself or a higher one
        subs = [c for c in (parse_card(str(name)) for name in p["cards"]) if c >= 36]
        if subs:
            return int(TRUMP_MASK) & ~((1 << min(subs)) - 1), 0
    return with_, 0


def _bits2(mask: int) -> tuple[int, int]:
    """A 96-bit card-number mask as two int64 words (48 bits each)."""
    return mask & ((1 << 48) - 1), mask >> 48


@cache
def task_table(players: int) -> np.ndarray:
    """The (96, N_COLS) int64 table for this crew size."""
    cards = load_task_cards()
    table = np.zeros((N_TASKS, N_COLS), dtype=np.int64)
    seats = seats_of(players)
    for i, card in enumerate(cards):
        row = table[i]
        row[C_VALUE] = card.difficulty_for(players)
        row[C_CAPTAIN_OK] = int(card.captain_may_take)
        for j, cset in enumerate(card.redeal_if[:2]):
            row[C_REDEAL0 + j] = sum(1 << c for c in cset)
        same = diff = 0
        for j, other in enumerate(cards):
            if j == i:
                continue
            if find_contradictions([card, other], [1, 1], seats, captain=0):
                same |= 1 << j
            if seats > 2 and find_contradictions([card, other], [1, 2], seats, captain=0):
                diff |= 1 << j
        row[C_SAME0], row[C_SAME1] = _bits2(same)
        row[C_DIFF0], row[C_DIFF1] = _bits2(diff)
        row[C_FAMILY:C_EXACT] = _hints(card)
        row[C_EXACT] = int(str(card.kind) in _EXACT)
        row[C_RUN] = _RUN.get(str(card.kind), 0)
        row[C_CMP] = _CMP.get((str(card.kind), str(card.params.get("op", ""))), 0)
        row[C_WITH], row[C_FIT], row[C_SUM_LO], row[C_SUM_HI] = _make_up(card, players)
        row[C_HOLD_ANY], row[C_HOLD_NONE] = _holdings(card, int(row[C_WITH]))
        row[C_TLO], row[C_THI], row[C_TWIN], row[C_TLOSE] = trick_bounds(card, players)
    return table


@compiled
def may_take(tab: np.ndarray, row: int, seat: int, captain: int) -> bool:
    """Whether ``seat`` may own the card whose row starts at ``row`` of the flat table (the
    captain may not own some)."""
    return seat != captain or tab[row + C_CAPTAIN_OK] == 1


@compiled
def contradiction(tab: np.ndarray, a: int, b: int, same_owner: bool) -> bool:
    """Pairwise contradiction of rows a and b, proven at the boundary by the referee's checker."""
    col = C_SAME0 if same_owner else C_DIFF0
    word = tab[a * N_COLS + col + (1 if b >= 48 else 0)]
    return word >> (b % 48) & 1 == 1


@compiled
def clashes(
    tab: np.ndarray, task: np.ndarray, owner: np.ndarray, n: int, card: int, seat: int, skip: int
) -> bool:
    """Whether ``card`` owned by ``seat`` contradicts a task already owned (slot ``skip``
    aside), in either reveal order."""
    for i in range(n):
        if i == skip or owner[i] < 0:
            continue
        same = owner[i] == seat
        if contradiction(tab, task[i], card, same) or contradiction(tab, card, task[i], same):
            return True
    return False
