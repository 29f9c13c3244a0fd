"""Trick play: who must follow what, and who wins (rule nuances 1-3)."""

from __future__ import annotations

from collections.abc import Sequence

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
