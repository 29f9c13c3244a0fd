"""Deep Sea's set-up rules in the kernel: the terrain draw, and rule 16's repair of a set of
task cards that cannot all be done (its trick-count check included)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from crewsim.kernel import layout as L
from crewsim.kernel.deep_sea_tables import task_table
from crewsim.kernel.deepsea import _counts_clash
from crewsim.missions import get_mission, load_task_cards
from crewsim.rules.deal import Deal
from crewsim.rules.deep_sea_setup import find_contradictions, redeal_reasons
from crewsim.rules.play import n_tricks
from tests.kernel.deep_sea_games import captain, deep_games, in_play

BOTS = ("heuristic", "random")
CARDS = load_task_cards()


@pytest.mark.parametrize("mission_id", ["ds-20", "ds-26", "ds-29"])
def test_a_repair_brings_in_no_card_that_calls_for_a_redeal(mission_id: str) -> None:
    """A repaired card is chosen among those whose redeal condition the deal does not meet:
    redealing after selection has no place in the rules (0.3 % of ds-20 games kept such a
    card before)."""
    for players in (3, 4):
        seats = players
        rec = deep_games(mission_id, players, "heuristic", 400)
        repaired = 0
        for i in range(400):
            repaired += int(rec["repairs"][i]) > 0
            cards, _ = in_play(rec, i)
            deal = Deal(players, tuple(int(h) for h in rec["rec_hands"][i][:seats]))
            hands = [deal.full_hand(s) for s in range(seats)]
            assert not redeal_reasons([CARDS[c] for c in cards], hands), (mission_id, i)
        assert repaired > 0  # the check met repaired games


@pytest.mark.parametrize("mission_id", ["ds-18", "ds-29", "ds-30"])
def test_a_repair_keeps_the_drawn_difficulty(mission_id: str) -> None:
    """Rule 16 swaps a card for one of equal value, so repaired or not, the cards in play add
    up to the mission's difficulty."""
    target = get_mission(mission_id).difficulty
    for players in (3, 4):
        rec = deep_games(mission_id, players, "heuristic", 400)
        assert (rec["repairs"] > 0).sum() > 0  # the check met repaired games
        for i in range(400):
            cards, _ = in_play(rec, i)
            assert sum(CARDS[c].difficulty_for(players) for c in cards) == target, (players, i)


@pytest.mark.parametrize(
    ("mission_id", "players"),
    [
        ("ds-32", 2),
        ("ds-32", 3),
        ("ds-18", 3),
        ("ds-22", 3),
        ("ds-24", 3),
        ("ds-28", 3),
        ("ds-30", 3),
        ("ds-30", 4),
    ],
)
def test_games_start_with_tasks_that_can_all_be_done(mission_id: str, players: int) -> None:
    """Rule 16 replaces a card until the set can be done: pairs, and the seats' trick counts
    (the kernel gave up after 8 draws and saw pairs only: 1-7 % of these games started
    lost).  Cards needed by several seats together (five submarines) are not yet checked:
    at most 1 %.  A drafting crew looks ahead: ds-32's four fixed cards left its captain
    "0 tricks" and "2 tricks in a row" in every game at 2 and 3 players."""
    seats = 3 if players == 2 else players
    rec = deep_games(mission_id, players, "heuristic", 400)
    by_cards = 0
    for i in range(400):
        cards, owners = in_play(rec, i)
        found = find_contradictions(
            [CARDS[c] for c in cards], owners, players, captain(rec, i, seats)
        )
        counted = [c for c in found if len(c.tasks) == 2 or "trick" in _unquoted(c.reason)]
        assert not counted, (mission_id, players, i, counted)
        by_cards += bool(found)
    assert by_cards <= 4


def _unquoted(reason: str) -> str:
    """A reason without its task cards' names (``TaskCard.label``: the number and the printed
    sentence in double quotes): what it is about."""
    return re.sub(r'\d+ "[^"]*"', "", reason)


def test_unfamiliar_terrain_draws_each_communication_a_third_of_the_time() -> None:
    """ds-20: a random colour card (1-3 normal, 4-6 currents, 7-9 rapture) per attempt."""
    rec = deep_games("ds-20", 4, "heuristic", 3000)
    modes = rec["rec_ds"][:, 3 * L.MAX_DS + 1]
    counts = np.bincount(modes, minlength=4)
    codes = [L.COMM_CODES[k] for k in ("normal", "dead_zone", "rapture")]
    assert counts[codes].sum() == 3000
    assert all(abs(counts[c] - 1000) < 4 * np.sqrt(3000 * (1 / 3) * (2 / 3)) for c in codes)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_kernels_trick_count_check_never_refutes_a_possible_set(players: int) -> None:
    """``deepsea._counts_clash`` starts from coarser bounds than the referee's checker, so it
    may miss a contradiction but must never invent one: every set it refutes, the referee
    refutes too (random sets of 3-6 cards and owners)."""
    tab = task_table(players).ravel()
    rng = np.random.default_rng(players)
    refuted = 0
    for _ in range(1500):
        n = int(rng.integers(3, 7))
        task = rng.choice(96, n, replace=False).astype(np.int64)
        owner = rng.integers(0, players, n).astype(np.int64)
        if _counts_clash(tab, task, owner, n, players, 0, n_tricks(players)):
            refuted += 1
            assert find_contradictions([CARDS[c] for c in task], list(owner), players, 0), task
    assert refuted > 50  # the check meets sets it refutes
