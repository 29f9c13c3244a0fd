"""Planet Nine crew objectives (special missions), judged after every trick.

Each judge looks at the hand so far and answers PENDING, DONE (met and can no longer fail) or
FAILED.  The kernel has a twin of every judge; the cross-check test holds them to one answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from crewsim.cards import SUIT_MASK, TRUMP, card_id, parse_card, popcount, suit_of, value_of


class Verdict(str, Enum):
    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True)
class HandSoFar:
    """What an objective may look at after a trick: public history plus cards still in hands."""

    tricks: tuple[tuple[int, ...], ...]  # cards of each finished trick, in play order
    winners: tuple[int, ...]  # seat that won each trick
    winning_cards: tuple[int, ...]
    in_hands: int  # mask of cards not yet played (dummy's covered cards included)
    n_tricks: int
    seats: int
    commander: int
    designated: tuple[int, ...]  # crew members picked by the commander for this objective
    start_hands: tuple[int, ...]  # full hands as dealt, for objectives keyed on a holder

    @property
    def t(self) -> int:
        """Index of the trick just finished."""
        return len(self.winners) - 1

    @property
    def last(self) -> bool:
        return len(self.winners) == self.n_tricks


Judge = Callable[[HandSoFar, Mapping[str, Any]], Verdict]


def _at_end(ok: bool, h: HandSoFar) -> Verdict:
    if not ok:
        return Verdict.FAILED
    return Verdict.DONE if h.last else Verdict.PENDING


def player_wins_no_tricks(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    return _at_end(h.designated[0] not in h.winners, h)


def colour_ones_win(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """At least ``count`` tricks must be won by a colour 1 (the 1 itself is the winning card)."""
    wins = sum(1 for c in h.winning_cards if c < 36 and value_of(c) == 1)
    if wins >= p["count"]:
        return Verdict.DONE
    ones_left = popcount(h.in_hands & sum(1 << card_id(s, 1) for s in range(4)))
    possible = min(ones_left, h.n_tricks - len(h.winners))
    return Verdict.FAILED if wins + possible < p["count"] else Verdict.PENDING


def each_trump_wins(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """Every trump wins a trick: two trumps in one trick fail; ``ordered`` means 1, 2, 3, 4."""
    trick = h.tricks[-1]
    if sum(1 for c in trick if suit_of(c) == TRUMP) >= 2:
        return Verdict.FAILED
    trump_wins = [c for c in h.winning_cards if suit_of(c) == TRUMP]
    if p.get("ordered") and trump_wins and value_of(trump_wins[-1]) != len(trump_wins):
        return Verdict.FAILED
    if len(trump_wins) == 4:
        return Verdict.DONE
    return Verdict.FAILED if h.last else Verdict.PENDING


def no_win_with_rank(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """No trick may be won by a colour card of ``rank``; done once every such card is played."""
    w = h.winning_cards[-1]
    if w < 36 and value_of(w) == p["rank"]:
        return Verdict.FAILED
    rank_cards = sum(1 << card_id(s, p["rank"]) for s in range(4))
    return Verdict.DONE if h.last or not h.in_hands & rank_cards else Verdict.PENDING


def balanced_tricks(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """Nobody may lead anybody by more than ``max_lead`` tricks (every seat counts)."""
    won = [h.winners.count(s) for s in range(h.seats)]
    ok = max(won) - min(won) <= p["max_lead"]
    if p.get("commander_first_last"):
        ok = ok and h.winners[0] == h.commander
        if h.last:
            ok = ok and h.winners[-1] == h.commander
    return _at_end(ok, h)


def player_exactly_one_trick(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    d = h.designated[0]
    mine = [t for t, w in enumerate(h.winners) if w == d]
    ok = len(mine) <= 1 and not (
        p.get("no_trump_win") and any(h.winning_cards[t] >= 36 for t in mine)
    )
    if h.last and len(mine) != 1:
        ok = False
    return _at_end(ok, h)


def player_first_and_last_only(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    d, t = h.designated[0], h.t
    must_win = t == 0 or t == h.n_tricks - 1
    won = h.winners[t] == d
    ok = won == must_win and not (won and p.get("no_trump_win") and h.winning_cards[t] >= 36)
    return _at_end(ok, h)


def left_of_pink9_wins_pink(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """The seat clockwise after the pink 9's holder must win every pink card."""
    holder = next(s for s, hand in enumerate(h.start_hands) if hand >> card_id(0, 9) & 1)
    target = (holder + 1) % h.seats
    trick = h.tricks[-1]
    if any(suit_of(c) == 0 for c in trick) and h.winners[-1] != target:
        return Verdict.FAILED
    # a pink still in hand after the last trick is the card never played (2 and 3 players):
    # it need not be won (Board Game Arena's reading; the rule book is silent)
    if h.last or not h.in_hands & int(SUIT_MASK[0]):
        return Verdict.DONE
    return Verdict.PENDING


def role_split(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """Role A wins just the first ``first`` tricks, B just the last ``last``, others the rest."""
    a, b = h.designated[0], h.designated[1]
    t, w = h.t, h.winners[-1]
    if t < p["first"]:
        ok = w == a
    elif t >= h.n_tricks - p["last"]:
        ok = w == b
    else:
        ok = w not in (a, b)
    return _at_end(ok, h)


def balance_rank_wins(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """Deep Sea 8/21: nobody may have won more than ``max_difference`` colour cards of
    ``rank`` beyond anybody else; done once every such card is played."""
    rank_cards = sum(1 << card_id(s, p["rank"]) for s in range(4))
    won = [0] * h.seats
    for trick, w in zip(h.tricks, h.winners, strict=True):
        won[w] += sum(1 for c in trick if rank_cards >> c & 1)
    if max(won) - min(won) > p.get("max_difference", 1):
        return Verdict.FAILED
    return Verdict.DONE if h.last or not h.in_hands & rank_cards else Verdict.PENDING


def no_lead_suits(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """Deep Sea 12: no trick may be opened with one of ``suits`` (leading one is legal but
    fails the mission, our reading of an open rule question)."""
    suits = {("pink", "blue", "green", "yellow", "trump").index(x) for x in p["suits"]}
    return _at_end(suit_of(h.tricks[-1][0]) not in suits, h)


def first_trick_winner_most(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """Deep Sea 23: the winner of trick 1 must always have won more tricks than anyone else."""
    first = h.winners[0]
    mine = h.winners.count(first)
    ok = all(h.winners.count(s) < mine for s in range(h.seats) if s != first)
    return _at_end(ok, h)


def card_last_in_final_trick(h: HandSoFar, p: Mapping[str, Any]) -> Verdict:
    """Deep Sea 27: ``card`` must be the last card played in the final trick."""
    card = parse_card(p["card"]) if isinstance(p["card"], str) else int(p["card"])
    trick = h.tricks[-1]
    if card in trick:
        return Verdict.DONE if h.last and trick[-1] == card else Verdict.FAILED
    return Verdict.FAILED if h.last else Verdict.PENDING


JUDGES: dict[str, Judge] = {
    "player_wins_no_tricks": player_wins_no_tricks,
    "colour_ones_win": colour_ones_win,
    "each_trump_wins": each_trump_wins,
    "no_win_with_rank": no_win_with_rank,
    "balanced_tricks": balanced_tricks,
    "player_exactly_one_trick": player_exactly_one_trick,
    "player_first_and_last_only": player_first_and_last_only,
    "left_of_pink9_wins_pink": left_of_pink9_wins_pink,
    "role_split": role_split,
    "balance_rank_wins": balance_rank_wins,
    "no_lead_suits": no_lead_suits,
    "first_trick_winner_most": first_trick_winner_most,
    "card_last_in_final_trick": card_last_in_final_trick,
}

# How many crew members the commander designates for each objective (0 = none).
DESIGNATED: dict[str, int] = {
    "player_wins_no_tricks": 1,
    "player_exactly_one_trick": 1,
    "player_first_and_last_only": 1,
    "role_split": 2,
}
