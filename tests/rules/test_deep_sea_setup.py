"""Deep Sea set-up: the exact-sum task draw, selection limits, redeals, contradictions, repair."""

from __future__ import annotations

import numpy as np
import pytest

from crewsim.cards import mask_of, parse_card
from crewsim.missions import get_task_card, load_campaign, load_task_cards
from crewsim.rules.deep_sea_setup import (
    allocation_problems,
    contradictions,
    draw_tasks,
    find_contradictions,
    may_pass,
    needs_redeal,
    redeal_reasons,
    trick_bounds,
)

DECK = load_task_cards()


def cards(*refs: str) -> list:  # type: ignore[type-arg]
    return [get_task_card(r) for r in refs]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_draw_sums_exactly_for_every_difficulty(players: int) -> None:
    missions = {m.difficulty for m in load_campaign("deep-sea") if m.uses_task_draw}
    assert missions <= set(range(1, 18))
    for difficulty in range(1, 18):
        for seed in range(40):
            drawn = draw_tasks(DECK, difficulty, players, np.random.default_rng(seed))
            assert sum(c.difficulty_for(players) for c in drawn) == difficulty
            assert len({c.number for c in drawn}) == len(drawn)


def test_draw_keeps_reveal_order_and_skips_too_big_cards() -> None:
    """Replaying the shuffle by hand gives the same cards in the same order."""
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    drawn = draw_tasks(DECK, 5, 4, rng_a)
    need, expected = 5, []
    for i in rng_b.permutation(len(DECK)):
        if need == 0:
            break
        v = DECK[int(i)].difficulty_for(4)
        if v <= need:
            expected.append(DECK[int(i)])
            need -= v
    assert drawn == expected


def test_two_players_use_the_three_player_values() -> None:
    a = draw_tasks(DECK, 9, 2, np.random.default_rng(11))
    b = draw_tasks(DECK, 9, 3, np.random.default_rng(11))
    assert a == b


def test_draw_excludes_and_runs_out() -> None:
    drawn = draw_tasks(DECK, 6, 4, np.random.default_rng(1), exclude={c.number for c in DECK[:90]})
    assert all(c.number > 90 for c in drawn)
    with pytest.raises(ValueError, match="ran out"):
        draw_tasks(DECK[:2], 30, 4, np.random.default_rng(1))


def test_redeal_when_one_hand_holds_a_listed_set() -> None:
    subs = mask_of(parse_card(f"sub{v}") for v in (1, 2, 3, 4))
    hands = [subs | mask_of([0, 1]), 0, 0, 0]
    assert needs_redeal(cards("1black"), hands)
    assert "seat 0" in redeal_reasons(cards("1black"), hands)[0]
    assert not needs_redeal(cards("1black"), [subs & ~(1 << 36), 1 << 36, 0, 0])
    assert needs_redeal(cards("black1"), [mask_of([36, 39]), 0, 0, 0])
    assert not needs_redeal(cards("red3", "0tricks"), hands)


def test_selection_limits() -> None:
    assert may_pass(2, 4) and not may_pass(4, 4) and may_pass(2, 2) and not may_pass(3, 2)
    four = cards("red3", "blue4", "green6", "yellow1", "black3")
    assert allocation_problems("draft", four, [1, 2, 3, 0, 1], 4, captain=1) == []
    assert allocation_problems("draft", four, [1, 1, 1, 0, 2], 4, captain=1)
    two = cards("red3", "blue4")
    assert allocation_problems("draft", two, [3, 0], 4, captain=1) == []
    # fewer tasks than players: anyone may pass and the turns go round, so one may take both
    assert allocation_problems("draft", two, [3, 3], 4, captain=1) == []
    assert (
        "may not take" in allocation_problems("draft", cards("moreTricksThanCaptain"), [1], 4, 1)[0]
    )


def test_a_draft_skips_the_captain_only_when_it_may_take_nothing_left() -> None:
    """Captain 0, four players, five tasks: the captain's second turn comes after four picks.
    It may pass it only if every task left is a "... than the captain" card."""
    plain = cards("red3", "blue4", "green6", "yellow1", "black3")
    assert allocation_problems("draft", plain, [0, 1, 2, 3, 0], 4) == []
    assert allocation_problems("draft", plain, [0, 1, 2, 3, 1], 4)  # the captain's turn taken
    last = cards("red3", "blue4", "green6", "yellow1", "moreTricksThanCaptain")
    assert allocation_problems("draft", last, [0, 1, 2, 3, 1], 4) == []  # only that one left
    # ... and a crew member's own turn with a task left it could take is never skipped
    assert allocation_problems("draft", plain, [0, 0, 2, 3, 0], 4)
    assert allocation_problems("draft", plain, [0, 0, 2, 3, 0], 4, repaired=True) == []


@pytest.mark.parametrize(
    ("allocation", "owners", "ok"),
    [
        ("one_member", [2, 2, 2], True),
        ("one_member", [2, 2, 1], False),
        ("captain_all_or_pass", [0, 0, 0], True),
        ("volunteer_1", [1, 3, 1], False),
        ("volunteer_2", [1, 3, 1], True),
        ("volunteer_2", [1, 1, 1], False),
        ("volunteer_2", [1, 2, 3], False),
        ("free_selection", [3, 3, 3], True),
        ("captain_skips", [1, 2, 3], True),
        ("captain_skips", [0, 1, 2], False),
        ("captain_skips", [1, 1, 3], False),
    ],
)
def test_each_selection_rule(allocation: str, owners: list[int], ok: bool) -> None:
    three = cards("red3", "blue4", "green6")
    assert (allocation_problems(allocation, three, owners, 4) == []) is ok


def test_the_captain_first_takes_the_hardest_task_it_may_take() -> None:
    """Deep Sea 19: the hardest the captain may take goes to it, then a draft from its left."""
    tasks = [get_task_card(r) for r in ("red3", "3black", "blue4", "green6", "yellow1")]
    hardest = max(range(5), key=lambda k: tasks[k].difficulty_for(4))
    owners = [1, 2, 3, 0, 1]
    owners[hardest], owners[0] = 0, owners[hardest]
    assert allocation_problems("captain_hardest_first", tasks, owners, 4) == []
    wrong = [0 if k == 0 else o for k, o in enumerate(owners)]
    wrong[hardest] = owners[0]
    assert "highest value" in allocation_problems("captain_hardest_first", tasks, wrong, 4)[0]


BAD = [
    (("firstTrick", "firstTwoTrick"), (0, 1), 4, "both need to win trick 1"),
    (("firstTrick", "onlyFirstTrick"), (2, 1), 3, "both need to win trick 1"),
    (("lastTrick", "green2lastTrick"), (1, 2), 5, "both need to win trick 8"),
    (("0tricks", "red3"), (1, 1), 4, "at most 0"),
    (("0tricks", "firstTrick"), (2, 2), 4, "at most 0"),
    (("0tricks", "moreTricksThanCaptain"), (1, 1), 4, "cannot all hold"),
    (("onlyFirstTrick", "lastTrick"), (1, 1), 4, "must win trick 10"),
    (("onlyLastTrick", "firstTrick"), (1, 1), 4, "must win trick 1"),
    (("noneFirst3Tricks", "firstThreeTrick"), (3, 3), 4, "must win trick 1"),
    (("moreTricksThanCaptain",), (0,), 4, "captain"),
    (("equalTricksThanCaptain",), (0,), 3, "captain (seat 0)"),
    (("equalTricksThanCaptain", "moreTricksThanOthers"), (1, 1), 5, "cannot all hold"),
    (("exactly4trick", "exactly4trick", "exactly4trick"), (0, 1, 2), 5, "at least 12 tricks"),
    (("moreThanHalfTricks", "moreThanHalfTricks"), (0, 1), 4, "at least 12 tricks"),
    (("0tricks", "0tricks", "0tricks"), (0, 1, 2), 2, "for nobody"),
    (("moreTricksThanOthers", "moreTricksThanOthers"), (1, 2), 4, "cannot all hold"),
    (("lessTricksThanCaptain", "0tricks"), (1, 0), 4, "cannot all hold"),
    (("noRed", "red3"), (1, 1), 4, "pink3"),
    (("no9", "3orMore9"), (2, 2), 4, "at most 0 of the 9s"),
    (("no123", "trickWith2"), (1, 1), 4, "at most 0"),
    (("7orMoreYellow", "no123"), (1, 1), 4, "7 of the yellow"),
    (("2blue", "blue2+blue1+blue3"), (1, 1), 4, "at most 2 of the blue"),
    (("noBlack", "red7WithBlack"), (1, 1), 4, "submarines"),
    (("black1", "black3"), (1, 1), 4, "at most 1 of submarines"),
    (("4x9", "red9+yellow8"), (1, 2), 4, "both need to win pink9"),
    (("4x9", "3orMore9"), (1, 2), 4, "7 of the 9s"),
    (("red3", "4x3"), (0, 3), 4, "pink3"),
    (("allOneColor", "eachColor"), (1, 2), 4, "any colour"),
    (("allOneColor", "no9"), (1, 1), 4, "any colour"),
    (("neverTwoTricksInARow", "firstTwoTrick"), (1, 1), 4, "in a row"),
    (("neverTwoTricksInARow", "3tricksInARow"), (1, 1), 4, "in a row"),
    (("neverTwoTricksInARow", "moreThanHalfTricks"), (1, 1), 5, "at most 4"),
    (("exactly2trickInARow", "firstAndLastTrick"), (1, 1), 4, "one block of 2"),
]


@pytest.mark.parametrize("refs,owners,players,words", BAD, ids=lambda v: str(v))
def test_contradictions_found(
    refs: tuple[str, ...], owners: tuple[int, ...], players: int, words: str
) -> None:
    found = contradictions(cards(*refs), owners, players)
    assert found, f"{refs} {owners}"
    assert any(words in f for f in found), found


GOOD = [
    (("firstTrick", "firstTwoTrick"), (1, 1), 4),  # one seat may hold both (rule 16 example)
    (("0tricks", "red3"), (1, 2), 4),
    (("noRed", "red3"), (1, 2), 4),
    (("4x3", "red3"), (1, 1), 4),
    (("black1", "black2"), (1, 2), 4),
    (("1black", "black3"), (1, 1), 4),
    (("2x9", "2x9"), (1, 2), 4),
    (("exactly4trick", "exactly4trick"), (1, 2), 5),
    (("exactly4trick", "moreThanHalfTricks"), (1, 2), 4),
    (("neverTwoTricksInARow", "moreThanHalfTricks"), (1, 1), 3),  # 7 of 13, every other trick
    (("moreTricksThanCaptain", "lessTricksThanCaptain"), (1, 2), 4),
    (("equalTricksThanCaptain", "exactly2trick"), (1, 1), 5),
    (("firstTrick", "lastTrick", "noneFirst3Tricks"), (0, 0, 1), 4),
    (("exactlyXtrick", "exactlyXtrickSecret"), (0, 0), 4),
    (("allOneColor", "noRed"), (1, 1), 4),
    (("eachColor", "2blue", "1red+1green"), (2, 2, 2), 5),
]


@pytest.mark.parametrize("refs,owners,players", GOOD, ids=lambda v: str(v))
def test_no_contradiction_on_good_sets(
    refs: tuple[str, ...], owners: tuple[int, ...], players: int
) -> None:
    assert contradictions(cards(*refs), owners, players) == []


def test_contradiction_names_its_tasks_and_bad_input() -> None:
    found = find_contradictions(cards("red3", "firstTrick", "firstTwoTrick"), [0, 1, 2], 4)
    assert [c.tasks for c in found] == [(1, 2)]
    with pytest.raises(ValueError):
        contradictions(cards("red3"), [4], 4)
    with pytest.raises(ValueError):
        contradictions(cards("red3"), [0, 1], 4)


def test_shipped_singletons_never_contradict_themselves() -> None:
    for players in (2, 3, 4, 5):
        for card in DECK:
            owner = 0 if card.captain_may_take else 1
            assert contradictions([card], [owner], players) == [], card.ref_id


def test_trick_bounds_of_one_card() -> None:
    """What the kernel's check of a whole draw starts from: (fewest, most, must-win tricks,
    must-not-win tricks) for the card's owner, at 4 players (10 tricks)."""
    first_last, last_only, none_yet = cards("firstAndLastTrick", "onlyLastTrick", "0tricks")
    assert trick_bounds(first_last, 4) == (2, 10, 1 | 1 << 9, 0)
    assert trick_bounds(last_only, 4) == (1, 1, 1 << 9, (1 << 9) - 1)
    assert trick_bounds(none_yet, 4) == (0, 0, 0, 0)
    assert trick_bounds(first_last, 3)[2] == 1 | 1 << 12  # 13 tricks at 3 players


def test_hardest_first_lets_nobody_pass_with_as_many_tasks_as_players() -> None:
    """Deep Sea 19 at four players with four tasks: no one may pass (rule 16 counts all the
    tasks), so after the captain's hardest the other three take one each."""
    tasks = cards("3black", "red3", "blue4", "green6")
    hardest = max(range(4), key=lambda k: tasks[k].difficulty_for(4))
    assert hardest == 0
    assert allocation_problems("captain_hardest_first", tasks, [0, 1, 2, 3], 4) == []
    assert allocation_problems("captain_hardest_first", tasks, [0, 1, 1, 1], 4)
