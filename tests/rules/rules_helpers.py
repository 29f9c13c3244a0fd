"""Rigged deals and small helpers shared by the referee tests in this folder."""

from __future__ import annotations

from dataclasses import dataclass, field

from crewsim.cards import mask_of, parse_card
from crewsim.rules import Deal, GameState, TaskSpec
from crewsim.rules.game import Rules


def c(text: str) -> int:
    """Card id from its name."""
    return parse_card(text)


def m(*texts: str) -> int:
    """Mask of the named cards."""
    return mask_of(parse_card(t) for t in texts)


def hand(spec: str) -> int:
    """Mask from a space-separated list of card names."""
    return m(*spec.split())


# The worked trick of the seed document: Ana (0, commander), Beto (1), Carla (2), Diego (3).
ANA, BETO, CARLA, DIEGO = 0, 1, 2, 3
WORKED_HANDS = (
    hand("pink9 pink8 pink2 blue1 blue2 blue3 green1 green2 yellow9 rocket4"),
    hand("pink5 pink3 green9 green8 green3 blue4 blue5 yellow8 yellow7 rocket3"),
    hand("yellow2 yellow3 yellow4 yellow5 blue6 blue7 blue8 green4 green5 rocket1"),
    hand("pink1 pink4 pink6 pink7 blue9 green6 green7 yellow1 yellow6 rocket2"),
)


def worked_deal() -> Deal:
    return Deal(4, WORKED_HANDS)


# Seat s holds all of colour s and rocket 4 - s: seat 0 is commander; the suits never mix.
SUITED_HANDS = tuple(((1 << 9) - 1) << (9 * s) | 1 << (39 - s) for s in range(4))


def suited_deal() -> Deal:
    return Deal(4, SUITED_HANDS)


def play_trick(state: GameState, *names: str) -> None:
    """Play the named cards in order, each by the seat whose turn it is."""
    for name in names:
        state.play(state.to_play, c(name))


def dummy_deal() -> Deal:
    """Seat 1 commander; the dummy shows green 1-7, each covering the yellow of its value."""
    s0 = hand("blue1 blue2 blue3 blue4 blue5 blue6 blue7 blue8 blue9 green8 green9 rocket1")
    s0 |= m("rocket2")
    s1 = hand("pink1 pink2 pink3 pink4 pink5 pink6 pink7 pink8 pink9 yellow8 yellow9 rocket3")
    s1 |= m("rocket4")
    up = hand("green1 green2 green3 green4 green5 green6 green7")
    under = tuple((c(f"green{v}"), c(f"yellow{v}")) for v in range(1, 8))
    return Deal(2, (s0, s1, up), under)


@dataclass
class Record:
    """A minimal PlayRecord: the hand-level judges must not need a GameState."""

    deal: Deal
    hands: list[int]
    under: dict[int, int]
    n_tricks: int
    commander: int
    tricks: list[tuple[int, ...]] = field(default_factory=list)
    leaders: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    winning_cards: list[int] = field(default_factory=list)


def worked_state(rules: Rules | None = None) -> GameState:
    """The worked deal with Ana owning pink 1 and Diego blue 9 (drafted already)."""
    return GameState(
        worked_deal(),
        tasks=[TaskSpec(c("pink1"), owner=ANA), TaskSpec(c("blue9"), owner=DIEGO)],
        rules=rules or Rules(),
    )
