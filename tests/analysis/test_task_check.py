"""The static check behind `crewsim check-tasks`: its pruned search over owners agrees with
trying every assignment, and its readings say what they claim."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from crewsim.analysis.task_check import CAPTAIN, check
from crewsim.missions import TaskCard, load_task_cards
from crewsim.rules.deep_sea_setup import captain_may_take, contradictions, draft_problems

DECK = load_task_cards()


def _allowed(cards: list[TaskCard], seats: int) -> list[list[int]]:
    """Every assignment the rules allow: any seat, the captain only for cards it may take."""
    return [
        list(owners)
        for owners in product(range(seats), repeat=len(cards))
        if all(o != CAPTAIN or captain_may_take(c) for c, o in zip(cards, owners, strict=True))
    ]


@pytest.mark.parametrize("players", [3, 4])
def test_the_pruned_search_agrees_with_every_assignment(players: int) -> None:
    """A witness avoids every contradiction, and "no witness" means every assignment meets
    one.  The card sets lean on the cards that contradict most (trick counts and tricks)."""
    rng = np.random.default_rng(11 + players)
    refuted = 0
    for _ in range(120):
        cards = [
            DECK[int(i)] for i in rng.choice(len(DECK), size=int(rng.integers(2, 5)), replace=False)
        ]
        result = check(cards, None, players)
        clean = [o for o in _allowed(cards, players) if not contradictions(cards, o, players)]
        if result.witness is None:
            refuted += 1
            assert not clean, [c.ref_id for c in cards]
            assert result.contradictions
        else:
            assert not contradictions(cards, result.witness, players), result.witness
            assert result.witness in clean
    assert 0 < refuted < 120  # the sample met both answers


def test_readings_one_owner_and_all_different() -> None:
    """firstTrick and onlyFirstTrick: fine for one owner, a contradiction for two."""
    cards = [next(c for c in DECK if c.ref_id == r) for r in ("firstTrick", "onlyFirstTrick")]
    one, distinct = check(cards, None, 4).readings
    assert one.owners is not None and len(set(one.owners)) == 1 and not one.contradictions
    assert distinct.owners is not None and len(set(distinct.owners)) == 2
    assert distinct.contradictions


def test_given_owners_note_only_the_draft_counts() -> None:
    """With owners, the captain's forbidden card is a contradiction, not a note, and owners
    a draft could not give are a note."""
    card = next(c for c in DECK if not captain_may_take(c))
    result = check([card], [CAPTAIN], 4)
    assert result.contradictions and not result.notes
    plain = [c for c in DECK if captain_may_take(c)]
    assert draft_problems(plain[:3], [1, 1, 1], 4) == []  # fewer tasks than seats: passes
    assert draft_problems(plain[:5], [0, 0, 1, 2, 3], 4) == []
    assert draft_problems(plain[:5], [0, 1, 1, 2, 3], 4)  # the captain's second turn taken
