"""Deep Sea condition tasks inside a referee game: judged after every trick, the mission ending
the moment all are done or one fails."""

from __future__ import annotations

import pytest

from crewsim.cards import Game, mask_of, parse_card
from crewsim.missions import get_task_card
from crewsim.rules.deal import Deal
from crewsim.rules.game import GameState, IllegalMove, Rules
from crewsim.rules.task_cards import HeldTask


def _deal() -> Deal:
    """Seat s holds all of colour s plus submarine 4 - s (seat 0 is the captain)."""
    hands = tuple(mask_of([9 * s + v for v in range(9)] + [39 - s]) for s in range(4))
    return Deal(4, hands)


def _play_trick(state: GameState, cards: list[str]) -> None:
    for code in cards:
        state.play(state.to_play, parse_card(code))


def test_first_trick_task_succeeds_at_once() -> None:
    state = GameState(
        _deal(), game=Game.DEEP_SEA, deep_tasks=[HeldTask(get_task_card("firstTrick"), owner=0)]
    )
    _play_trick(state, ["sub4", "sub3", "sub2", "sub1"])
    assert state.outcome is not None and state.outcome.success
    assert state.outcome.trick == 0


def test_zero_tricks_task_fails_when_its_owner_wins() -> None:
    state = GameState(
        _deal(), game=Game.DEEP_SEA, deep_tasks=[HeldTask(get_task_card("0tricks"), owner=0)]
    )
    _play_trick(state, ["pink1", "sub3", "sub2", "sub1"])
    assert state.outcome is None  # seat 1 won with sub3
    state.play(1, parse_card("blue9"))
    state.play(2, parse_card("green1"))
    state.play(3, parse_card("yellow1"))
    state.play(0, parse_card("sub4"))
    assert state.outcome is not None and not state.outcome.success
    assert state.outcome.kind == "condition"


def test_prediction_must_be_made_before_the_first_trick() -> None:
    card = get_task_card("exactlyXtrick")
    state = GameState(_deal(), game=Game.DEEP_SEA, deep_tasks=[HeldTask(card, owner=1)])
    with pytest.raises(IllegalMove, match="predict"):
        state.play(0, parse_card("pink1"))
    state = GameState(
        _deal(), game=Game.DEEP_SEA, deep_tasks=[HeldTask(card, owner=1, predicted=1)]
    )
    state.play(0, parse_card("pink1"))


@pytest.mark.parametrize(
    ("owner", "until", "ok"), [(0, 0, True), (2, 1, True), (2, 0, False), (0, 1, False)]
)
def test_passed_tasks_end_communication_before_trick_1(owner: int, until: int, ok: bool) -> None:
    """Deep Sea 10/13: a captain who passes the tasks on leaves the crew only the time before
    the first trick to communicate; one who keeps them, the whole hand."""
    rules = Rules(allocation="captain_all_or_pass", comm_until_trick=until)
    tasks = [HeldTask(get_task_card(r), owner=owner) for r in ("red3", "blue4")]
    state = GameState(_deal(), rules=rules, game=Game.DEEP_SEA, deep_tasks=tasks)
    if ok:
        state.verify_deep_allocation()
    else:
        with pytest.raises(IllegalMove, match="communication must end"):
            state.verify_deep_allocation()


def test_the_referee_refuses_owners_the_selection_cannot_give() -> None:
    tasks = [HeldTask(get_task_card(r), owner=o) for r, o in (("red3", 1), ("blue4", 2))]
    state = GameState(
        _deal(), rules=Rules(allocation="volunteer_1"), game=Game.DEEP_SEA, deep_tasks=tasks
    )
    with pytest.raises(IllegalMove, match="gives all to one"):
        state.verify_deep_allocation()
