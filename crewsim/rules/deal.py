"""Dealing for 2-5 players, including the two-player dummy (rule nuances 1, 2 and 21)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from crewsim.cards import N_CARDS, mask_of, popcount, seats_of

TRUMP4 = 39


@dataclass(frozen=True)
class Deal:
    """Who holds what at the start of a hand.

    ``hands`` has one mask per seat, seats clockwise.  With two players seat 2 is the dummy
    (JARVIS / the Deep Sea dummy): ``hands[2]`` holds its 7 face-up cards and ``dummy_under``
    maps each face-up card to the face-down card beneath it (revealed when the top is played).
    """

    players: int
    hands: tuple[int, ...]
    dummy_under: tuple[tuple[int, int], ...] = field(default=())

    def __post_init__(self) -> None:
        seats = seats_of(self.players)
        if len(self.hands) != seats:
            raise ValueError(f"{self.players} players need {seats} hands, got {len(self.hands)}")
        union = 0
        for h in self.hands:
            if union & h:
                raise ValueError("a card is dealt twice")
            union |= h
        for top, under in self.dummy_under:
            if union >> under & 1 or not self.hands[2] >> top & 1:
                raise ValueError("dummy stack does not match the dummy's face-up cards")
            union |= 1 << under
        if union != (1 << N_CARDS) - 1:
            raise ValueError("every card must be dealt exactly once")

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def commander(self) -> int:
        """The holder of trump 4 (never the dummy: it is dealt among the humans)."""
        return next(s for s, h in enumerate(self.hands) if h >> TRUMP4 & 1)

    @property
    def unplayed_seat(self) -> int | None:
        """With 3 players, the seat dealt 14 cards: one of them is never played."""
        if self.players != 3:
            return None
        return next(s for s, h in enumerate(self.hands) if popcount(h) == 14)

    def full_hand(self, seat: int) -> int:
        """All cards of a seat, face-down dummy cards included."""
        h = self.hands[seat]
        if self.players == 2 and seat == 2:
            h |= mask_of(u for _, u in self.dummy_under)
        return h


def deal_cards(players: int, rng: np.random.Generator) -> Deal:
    """Shuffle and deal as the rule books say; 3 players: 14/13/13 starting at seat 0."""
    if players not in (2, 3, 4, 5):
        raise ValueError(f"players must be 2-5, got {players}")
    if players == 2:
        return _deal_two(rng)
    order = [int(c) for c in rng.permutation(N_CARDS)]
    hands = [0] * players
    for i, c in enumerate(order):
        hands[i % players] |= 1 << c
    return Deal(players, tuple(hands))


def _deal_two(rng: np.random.Generator) -> Deal:
    """Trump 4 aside; 7 face-down + 7 face-up dummy stacks; trump 4 back in; 13 to each human."""
    rest = [int(c) for c in rng.permutation(N_CARDS - 1)]  # ids 0..38: trump 4 is id 39
    under, up, humans = rest[:7], rest[7:14], rest[14:] + [TRUMP4]
    humans = [humans[i] for i in rng.permutation(len(humans))]
    hands = (mask_of(humans[0::2]), mask_of(humans[1::2]), mask_of(up))
    return Deal(2, hands, tuple(zip(up, under, strict=True)))
