"""The 40-card deck of both games: ids, parsing, printing and bitmask helpers.

Card id = 9 * colour + value - 1 for colours 0..3 (pink, blue, green, yellow) and values 1..9;
trumps 1..4 are ids 36..39.  A higher id is a higher card within a suit, so "cards that beat c"
is one precomputed mask (``BEATS``).  Hands are int64 bitmasks (bit ``id`` set = card held):
numba turns uint64 mixed with int64 into float64, and 40 bits fit comfortably.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum, IntEnum

import numpy as np

N_CARDS = 40
N_COLOURS = 4
TRUMP = 4  # suit index of rockets / submarines
FULL_DECK = (1 << N_CARDS) - 1


class Game(str, Enum):
    """Which box: decides the trump suit's name and the campaign."""

    PLANET_NINE = "planet-nine"
    DEEP_SEA = "deep-sea"

    @property
    def trump_name(self) -> str:
        return "rocket" if self is Game.PLANET_NINE else "sub"

    @property
    def short(self) -> str:
        return "pn" if self is Game.PLANET_NINE else "ds"


class Suit(IntEnum):
    PINK = 0
    BLUE = 1
    GREEN = 2
    YELLOW = 3
    TRUMP = 4


COLOUR_NAMES = ("pink", "blue", "green", "yellow")
_SUIT_ALIASES: dict[str, int] = {
    "pink": 0,
    "p": 0,
    "red": 0,
    "r": 0,
    "blue": 1,
    "b": 1,
    "green": 2,
    "g": 2,
    "yellow": 3,
    "y": 3,
    "rocket": 4,
    "rockets": 4,
    "sub": 4,
    "subs": 4,
    "submarine": 4,
    "submarines": 4,
    "s": 4,
    "t": 4,
    "trump": 4,
    "black": 4,
    "k": 4,
}
# "r" means pink ("red") only when followed by a colour value; "R4"/"rocket4" is a rocket.
_CARD_RE = re.compile(r"^\s*([a-zA-Z]+)\s*[-_ ]?\s*(\d)\s*$")


def card_id(suit: int, value: int) -> int:
    """Id of the card of ``suit`` (0..4) and ``value`` (1..9, trumps 1..4)."""
    if suit == TRUMP:
        if not 1 <= value <= 4:
            raise ValueError(f"trump value must be 1-4, got {value}")
        return 36 + value - 1
    if not 0 <= suit < N_COLOURS or not 1 <= value <= 9:
        raise ValueError(f"no card of suit {suit} and value {value}")
    return 9 * suit + value - 1


def suit_of(cid: int) -> int:
    return cid // 9


def value_of(cid: int) -> int:
    return cid - 35 if cid >= 36 else cid % 9 + 1


def is_trump(cid: int) -> bool:
    return cid >= 36


def seats_of(players: int) -> int:
    """Seats at the table: two players share it with a dummy seat."""
    return 3 if players == 2 else players


def parse_card(text: str) -> int:
    """Card id from forgiving text: ``pink6``, ``p6``, ``P6``, ``rocket4``, ``R4``, ``sub4``.

    ``r`` followed by 1-4 is ambiguous (red = pink, or rocket); like the rule books' own
    shorthand we read ``R4`` as the rocket and ``r5``..``r9`` as pink.
    """
    m = _CARD_RE.match(text)
    if not m:
        raise ValueError(f"not a card: {text!r}")
    word, value = m.group(1).lower(), int(m.group(2))
    if word == "r":
        suit = TRUMP if value <= 4 else 0
    elif word in _SUIT_ALIASES:
        suit = _SUIT_ALIASES[word]
    else:
        raise ValueError(f"not a card: {text!r} (unknown suit {m.group(1)!r})")
    try:
        return card_id(suit, value)
    except ValueError:
        raise ValueError(f"not a card: {text!r}") from None


def card_name(cid: int, game: Game = Game.PLANET_NINE) -> str:
    """Canonical code of a card: ``pink6``, ``rocket4`` / ``sub4``."""
    if not 0 <= cid < N_CARDS:
        raise ValueError(f"card id out of range: {cid}")
    if cid >= 36:
        return f"{game.trump_name}{cid - 35}"
    return f"{COLOUR_NAMES[cid // 9]}{cid % 9 + 1}"


@dataclass(frozen=True, order=True)
class Card:
    """A card at the API edge; the kernel and referee use the integer ``id``."""

    id: int

    def __post_init__(self) -> None:
        if not 0 <= self.id < N_CARDS:
            raise ValueError(f"card id out of range: {self.id}")

    @classmethod
    def parse(cls, text: str) -> Card:
        return cls(parse_card(text))

    @property
    def suit(self) -> Suit:
        return Suit(suit_of(self.id))

    @property
    def value(self) -> int:
        return value_of(self.id)

    def name(self, game: Game = Game.PLANET_NINE) -> str:
        return card_name(self.id, game)

    def __str__(self) -> str:
        return card_name(self.id)


# ---- bitmask helpers (plain functions on ints; the kernel has numba twins over the same tables)

SUIT_MASK = np.array(
    [((1 << 9) - 1) << (9 * s) for s in range(N_COLOURS)] + [0xF << 36], dtype=np.int64
)
COLOUR_MASK = int((1 << 36) - 1)
TRUMP_MASK = int(SUIT_MASK[TRUMP])


def _beats(c: int) -> int:
    """Mask of cards that beat ``c`` when ``c`` is currently winning a trick."""
    s = suit_of(c)
    higher_same = int(SUIT_MASK[s]) & ~((1 << (c + 1)) - 1)
    return higher_same if s == TRUMP else higher_same | TRUMP_MASK


BEATS = np.array([_beats(c) for c in range(N_CARDS)], dtype=np.int64)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Card ids in a mask, lowest first."""
    return list(iter_cards(mask))


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return int(mask).bit_count()


def suit_cards(mask: int, suit: int) -> int:
    return mask & int(SUIT_MASK[suit])


def format_cards(cards: Iterable[int], game: Game = Game.PLANET_NINE) -> str:
    return " ".join(card_name(c, game) for c in cards)
