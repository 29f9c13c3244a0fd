"""``collect_value``: how far an owner is from a card that counts the cards it wins."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewsim.bots.collect import LOST, WANT, collect_value, counted, is_collect
from crewsim.cards import SUIT_MASK, TRUMP_MASK, card_id
from crewsim.kernel.conditions import CODE_SIZE, encode_task
from crewsim.missions import load_task_cards

PINK, BLUE, GREEN, YELLOW = (int(SUIT_MASK[s]) for s in range(4))
ALL = (1 << 40) - 1


def _value(number: int, mine: int, live: int, held: int = 0, spare: int = 0) -> tuple[float, int]:
    card = load_task_cards()[number - 1]
    code = encode_task(card, 4)
    assert is_collect(int(code[0])), number
    v, short = collect_value(code, 0, np.int64(mine), np.int64(live), np.int64(held), spare)
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


def test_the_owner_sees_a_submarine_count_its_own_hand_rules_out() -> None:
    """Card 46, exactly 3 submarines, three of them won: the owner's last submarine wins its
    trick unless a higher one of another hand falls on it, so holding submarine 2 is lost
    when no higher one is left elsewhere (the others cannot see that), not when submarine 3
    is, nor when it is the card the hand of 14 keeps back at three players."""
    sub = [1 << card_id(4, r) for r in range(1, 5)]
    three = sub[0] | sub[2] | sub[3]
    assert _value(46, three, sub[1], held=sub[1])[0] == -LOST
    assert _value(46, three, sub[1])[0] > -LOST  # another seat deciding: hand unseen
    assert _value(46, three, sub[1], held=sub[1], spare=1)[0] > -LOST
    assert _value(46, sub[0] | sub[3], sub[1] | sub[2], held=sub[1])[0] > -LOST
    # and too few: one won, submarine 1 in hand, the others' 3 and 4 out of its reach
    assert _value(46, sub[1], sub[0] | sub[2] | sub[3], held=sub[0])[0] == -LOST


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
        got = collect_value(codes, at, np.int64(0), np.int64(ALL), np.int64(0), 0)
        assert got == _value(number, 0, ALL)


_COUNTING = [
    (card.number, players)
    for card in load_task_cards()
    for players in (3, 4, 5)
    if is_collect(int(encode_task(card, players)[0]))
]


@settings(max_examples=400, deadline=None)
@given(
    which=st.sampled_from(_COUNTING),
    mine=st.integers(0, ALL),
    other=st.integers(0, ALL),
    live=st.integers(0, ALL),
    held=st.integers(0, ALL),
    spare=st.integers(0, 2),
)
def test_only_the_counted_cards_won_change_the_value(
    which: tuple[int, int], mine: int, other: int, live: int, held: int, spare: int
) -> None:
    """``deep_sea_collect`` skips a card that adds no counted card to the trick: the value
    reads only the won cards it counts."""
    number, players = which
    code = encode_task(load_task_cards()[number - 1], players)
    live &= ~mine
    held &= live
    extra = other & ~counted(code, 0) & ~live

    def value(won: int) -> tuple[float, int]:
        v, short = collect_value(code, 0, np.int64(won), np.int64(live), np.int64(held), spare)
        return float(v), int(short)

    assert value(mine | extra) == value(mine)
