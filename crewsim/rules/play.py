"""Trick play: who must follow what, and who wins (rule nuances 1-3)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from crewsim.cards import SUIT_MASK, TRUMP, suit_of


def n_tricks(players: int) -> int:
    """Tricks in a hand: 13 for 2 and 3 players (one card is never played), 10 for 4, 8 for 5."""
    return {2: 13, 3: 13, 4: 10, 5: 8}[players]


def legal_plays(hand: int, led_suit: int | None) -> int:
    """Mask of the cards of ``hand`` that may be played: follow the led suit (trumps too)."""
    if led_suit is None:
        return hand
    same = hand & int(SUIT_MASK[led_suit])
    return same if same else hand


def trick_winner(cards: Sequence[int], leader: int, n_seats: int) -> tuple[int, int]:
    """(seat, card) winning a trick whose cards were played in order starting at ``leader``.

    Highest trump wins; without trumps, the highest card of the led suit.
    """
    led = suit_of(cards[0])
    best_i = 0
    for i, c in enumerate(cards[1:], start=1):
        b = cards[best_i]
        s, bs = suit_of(c), suit_of(b)
        if (s == bs and c > b) or (s == TRUMP and bs != TRUMP):
            best_i = i
    assert suit_of(cards[best_i]) in (led, TRUMP)
    return (leader + best_i) % n_seats, cards[best_i]


@dataclass(frozen=True)
class Trick:
    """One trick of a line of play: who led it, its cards in the order played, and who won it
    (None while it is incomplete)."""

    leader: int
    cards: tuple[int, ...]
    winner: int | None

    def seats(self, n_seats: int) -> list[tuple[int, int]]:
        """(seat, card) in the order played."""
        return [((self.leader + k) % n_seats, c) for k, c in enumerate(self.cards)]


def tricks_of(plays: Sequence[int], leader: int, n_seats: int) -> Iterator[Trick]:
    """A line of play (cards in order, ``leader`` leading the first trick) trick by trick, an
    incomplete last trick included."""
    for k in range(0, len(plays), n_seats):
        cards = tuple(plays[k : k + n_seats])
        winner = trick_winner(cards, leader, n_seats)[0] if len(cards) == n_seats else None
        yield Trick(leader, cards, winner)
        if winner is not None:
            leader = winner
