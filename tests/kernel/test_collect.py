"""``collect_value``: how far an owner is from a card that counts the cards it wins."""

from __future__ import annotations

import numpy as np
import pytest

from crewsim.cards import SUIT_MASK, TRUMP_MASK, card_id
from crewsim.kernel.collect import LOST, WANT, collect_value, is_collect
from crewsim.kernel.conditions import CODE_SIZE, encode_task
from crewsim.missions import load_task_cards

PINK, BLUE, GREEN, YELLOW = (int(SUIT_MASK[s]) for s in range(4))
ALL = (1 << 40) - 1


def _value(number: int, mine: int, live: int, held: int = 0) -> tuple[float, int]:
    card = load_task_cards()[number - 1]
    code = encode_task(card, 4)
    assert is_collect(int(code[0])), number
    v, short = collect_value(code, 0, np.int64(mine), np.int64(live), np.int64(held))
    return float(v), int(short)


def _cards(*names: tuple[int, int]) -> int:
    return sum(1 << card_id(s, r) for s, r in names)


def test_at_least_counts_what_is_missing_and_what_could_still_come() -> None:
    # card 33: at least 5 pink cards
    three = _cards((0, 1), (0, 2), (0, 3))
    assert _value(33, three, ALL & ~PINK | _cards((0, 6), (0, 7), (0, 8), (0, 9))) == (-2 * WANT, 2)
    tight = _value(33, three, _cards((0, 8), (0, 9)))
    assert tight[1] == 2 and tight[0] < -2 * WANT  # no card to spare
    assert _value(33, three, _cards((0, 9)))[0] == -LOST
    assert _value(33, three | _cards((0, 4), (0, 5)), 0) == (0.0, 0)


def test_exact_counts_are_lost_on_overshoot_and_fear_cards_still_about() -> None:
    # card 41: exactly 1 pink and 1 green
    assert _value(41, _cards((0, 1), (0, 2)), ALL)[0] == -LOST
    met = _value(41, _cards((0, 1), (2, 5)), 0)
    assert met == (0.0, 0)
    about, _ = _value(41, _cards((0, 1), (2, 5)), _cards((0, 9)))
    mine_too, _ = _value(41, _cards((0, 1), (2, 5)), _cards((0, 9)), held=_cards((0, 9)))
    assert mine_too < about < 0.0  # worse still when the owner holds it
    # card 44: exactly 1 submarine
    assert _value(44, 0, TRUMP_MASK)[1] == 1
    assert _value(44, 1 << 36, 0) == (0.0, 0)


def test_all_of_one_colour_follows_the_colours_nobody_else_spoiled() -> None:
    # card 27: all the cards of one colour; blue is complete but one card, pink spoiled
    blue_but_one = BLUE & ~_cards((1, 9))
    live = _cards((1, 9)) | GREEN | YELLOW
    assert _value(27, blue_but_one, live) == (-WANT, 1)
    assert _value(27, blue_but_one, live & ~_cards((1, 9)))[1] == 9  # only green / yellow left
    assert _value(27, blue_but_one, 0)[0] == -LOST


@pytest.mark.parametrize(
    ("number", "mine", "live", "expected"),
    [
        (23, _cards((0, 1)), ALL, (-WANT, 1)),  # as many pink as yellow: one yellow behind
        (23, _cards((0, 1), (0, 2)), _cards((3, 4)), (-LOST, 0)),  # cannot catch up
        (24, 0, ALL, None),  # more pink than green (green may be none): one pink to win
        (76, 0, TRUMP_MASK, None),  # submarine 1 and no other
        (76, 1 << 37, TRUMP_MASK, (-LOST, 0)),  # took submarine 2
        (26, PINK | BLUE | GREEN, 0, (-LOST, 0)),  # each colour: no yellow left
    ],
)
def test_other_counting_cards(number: int, mine: int, live: int, expected: object) -> None:
    v, short = _value(number, mine, live)
    if expected is None:
        assert short == 1 and -LOST < v < 0
    else:
        assert (v, short) == expected


def test_codes_are_read_at_an_offset() -> None:
    """The kernel passes the flat table of every card's code and the row's start."""
    cards = load_task_cards()
    codes = np.concatenate([encode_task(c, 4) for c in cards])
    for number in (30, 41, 27):
        at = (number - 1) * CODE_SIZE
        got = collect_value(codes, at, np.int64(0), np.int64(ALL), np.int64(0))
        assert got == _value(number, 0, ALL)
