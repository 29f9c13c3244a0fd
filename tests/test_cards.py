"""Card ids, forgiving parsing, canonical names and the BEATS table."""

from __future__ import annotations

import pytest

from crewsim.cards import (
    BEATS,
    FULL_DECK,
    N_CARDS,
    TRUMP,
    TRUMP_MASK,
    Card,
    Game,
    Suit,
    card_id,
    card_name,
    cards_of,
    format_cards,
    is_trump,
    mask_of,
    parse_card,
    popcount,
    suit_cards,
    suit_of,
    value_of,
)
from crewsim.rules.play import trick_winner


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pink6", 5),
        ("p6", 5),
        ("P6", 5),
        ("PINK6", 5),
        ("pink 6", 5),
        ("pink-6", 5),
        ("pink_6", 5),
        ("  pink6  ", 5),
        ("red 3", 2),
        ("red3", 2),
        ("r5", 4),  # "r" with 5..9 can only be red = pink
        ("r9", 8),
        ("b9", 17),
        ("blue1", 9),
        ("g1", 18),
        ("green9", 26),
        ("Yellow1", 27),
        ("y9", 35),
        ("rocket4", 39),
        ("R4", 39),  # "r" with 1..4 is read as the rocket
        ("r1", 36),
        ("sub4", 39),
        ("submarine2", 37),
        ("rocket1", 36),
        ("trump3", 38),
        ("black2", 37),
    ],
)
def test_parse_forgiving(text: str, expected: int) -> None:
    assert parse_card(text) == expected
    assert Card.parse(text).id == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "pink",
        "6",
        "pink0",
        "pink10",
        "rocket5",
        "sub0",
        "r0",
        "purple3",
        "x3",
        "pink 6 7",
        "6pink",
        "pink-",
        "rocket",
    ],
)
def test_parse_errors(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_card_id_errors() -> None:
    with pytest.raises(ValueError):
        card_id(TRUMP, 5)
    with pytest.raises(ValueError):
        card_id(TRUMP, 0)
    with pytest.raises(ValueError):
        card_id(0, 10)
    with pytest.raises(ValueError):
        card_id(5, 1)


@pytest.mark.parametrize("cid", [-1, 40, 100])
def test_name_and_card_out_of_range(cid: int) -> None:
    with pytest.raises(ValueError):
        card_name(cid)
    with pytest.raises(ValueError):
        Card(cid)


@pytest.mark.parametrize("game", list(Game))
def test_round_trip_all_cards(game: Game) -> None:
    names = [card_name(c, game) for c in range(N_CARDS)]
    assert len(set(names)) == N_CARDS
    for c, name in enumerate(names):
        assert parse_card(name) == c
        assert parse_card(name.upper()) == c
        assert Card(c).name(game) == name


def test_canonical_names() -> None:
    assert card_name(0) == "pink1"
    assert card_name(8) == "pink9"
    assert card_name(9) == "blue1"
    assert card_name(26) == "green9"
    assert card_name(27) == "yellow1"
    assert card_name(36) == "rocket1"
    assert card_name(39, Game.PLANET_NINE) == "rocket4"
    assert card_name(39, Game.DEEP_SEA) == "sub4"
    assert str(Card(39)) == "rocket4"
    assert format_cards([0, 39], Game.DEEP_SEA) == "pink1 sub4"


def test_id_layout() -> None:
    for c in range(N_CARDS):
        s, v = suit_of(c), value_of(c)
        assert card_id(s, v) == c
        assert Card(c).suit == Suit(s)
        assert Card(c).value == v
        assert is_trump(c) == (s == TRUMP)
    assert [value_of(c) for c in range(36, 40)] == [1, 2, 3, 4]
    assert Game.PLANET_NINE.trump_name == "rocket"
    assert Game.DEEP_SEA.trump_name == "sub"


def test_mask_helpers() -> None:
    cards = [39, 0, 17, 5]
    m = mask_of(cards)
    assert cards_of(m) == sorted(cards)
    assert popcount(m) == 4
    assert popcount(FULL_DECK) == N_CARDS
    assert suit_cards(m, 0) == mask_of([0, 5])
    assert suit_cards(m, TRUMP) == 1 << 39
    assert cards_of(TRUMP_MASK) == [36, 37, 38, 39]


def test_beats_table_shape() -> None:
    assert int(BEATS[39]) == 0  # nothing beats rocket 4
    assert int(BEATS[38]) == 1 << 39
    assert int(BEATS[8]) == TRUMP_MASK  # pink 9: only the trumps
    assert int(BEATS[0]) == mask_of(range(1, 9)) | TRUMP_MASK
    for c in range(N_CARDS):
        beats = int(BEATS[c])
        assert not beats >> c & 1
        for b in cards_of(beats):
            assert suit_of(b) in (suit_of(c), TRUMP)
        if not is_trump(c):
            assert beats & TRUMP_MASK == TRUMP_MASK
        # within a suit, a higher card beats everything a lower one beats... and the lower one
        if value_of(c) > 1:
            assert int(BEATS[c - 1]) == beats | 1 << c


def test_beats_agrees_with_trick_winner() -> None:
    """``b`` beats the winning card ``a`` exactly when it takes a two-card trick led by ``a``."""
    for a in range(N_CARDS):
        for b in range(N_CARDS):
            if a == b:
                continue
            seat, _ = trick_winner([a, b], 0, 2)
            assert (seat == 1) == bool(int(BEATS[a]) >> b & 1), (card_name(a), card_name(b))
