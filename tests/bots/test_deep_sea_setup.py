"""Deep Sea's selection and predictions, beyond what the referee checks on every replayed game
(``GameState.verify_deep_allocation``: whose turn, one or two volunteers, the captain's
cards): that the bots' choices are sensible (volunteers, the draft, passes, predictions)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from crewsim.analysis.task_check import CARRIER
from crewsim.bots import get_bot
from crewsim.bots.collect import sub_wins
from crewsim.cards import parse_card
from crewsim.engine.run import run_chunk
from crewsim.kernel import layout as L
from crewsim.kernel.bits import TRUMPS
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission, load_campaign, load_task_cards
from crewsim.rules.deal import deal_cards
from crewsim.rules.deep_sea_setup import captain_may_take
from crewsim.rules.task_cards import HeldTask
from crewsim.solver.api import solve
from crewsim.solver.problem import problem_from_mission
from tests.kernel.deep_sea_games import captain, deep_games, in_play

BOTS = ("heuristic", "random")
CARDS = load_task_cards()


@pytest.mark.parametrize("bot", BOTS)
def test_the_captain_never_holds_a_card_it_may_not_take(bot: str) -> None:
    """Neither a repair (which puts a new card in an owner's slot) nor a volunteer rule whose
    fallback is the captain may give the captain a "... than the captain" card: that game
    would be lost before it starts (1.7 % of ds-14 games were, before)."""
    bad = []
    for mission in load_campaign("deep-sea"):
        for players in (3, 5):
            rec = deep_games(mission.id, players, bot, 200)
            for i in range(200):
                cap = captain(rec, i, players)
                cards, owners = in_play(rec, i)
                bad += [
                    f"{mission.id} {players}p #{i}: card {CARDS[c].number}"
                    for c, o in zip(cards, owners, strict=True)
                    if o == cap and not captain_may_take(CARDS[c])
                ]
    assert not bad, bad[:10]


@pytest.mark.parametrize("mission_id", ["ds-14", "ds-15", "ds-16"])
def test_a_single_volunteer_is_asked_from_the_captains_left(mission_id: str) -> None:
    """The captain asks the others in turn and takes the tasks only if all pass.  Asked
    first, the heuristic captain took them in 86 % of five-player games; asked last, the
    first of four others who likes the tasks does, so the captain takes well under half."""
    rec = deep_games(mission_id, 5, "heuristic")
    by_captain = 0
    for i in range(300):
        _, owners = in_play(rec, i)
        assert len(set(owners)) == 1
        by_captain += owners[0] == captain(rec, i, 5)
    assert by_captain < 0.5 * 300


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_two_volunteers_share_the_tasks(bot: str, players: int) -> None:
    """Deep Sea 26: exactly two members take every task between them."""
    rec = deep_games("ds-26", players, bot)
    for i in range(300):
        _, owners = in_play(rec, i)
        assert len(set(owners)) == 2, f"{players}p {bot} #{i}: {owners}"


@pytest.mark.parametrize("mission_id", ["ds-10", "ds-13"])
def test_passed_tasks_mean_all_communication_before_the_first_trick(mission_id: str) -> None:
    """Deep Sea 10/13: the captain keeps every task or passes them all to one member; only a
    pass limits communication to before trick 1."""
    rec = deep_games(mission_id, 4, "heuristic", 400)
    passed_games = 0
    for i in range(400):
        _, owners = in_play(rec, i)
        assert len(set(owners)) == 1
        passed = owners[0] != captain(rec, i, 4)
        passed_games += passed
        assert int(rec["rec_ds"][i][3 * L.MAX_DS + 2]) == (1 if passed else 0), i
    assert 0 < passed_games < 400


def _selections(mission_id: str, bot: str) -> Iterator[tuple[int, int, list[int], list[int]]]:
    """(players, captain seat, task cards, owners) of 300 games at 3, 4 and 5 players."""
    for players in (3, 4, 5):
        rec = deep_games(mission_id, players, bot)
        for i in range(300):
            yield (players, captain(rec, i, players), *in_play(rec, i))


@pytest.mark.parametrize("bot", BOTS)
def test_ds19_captain_takes_the_hardest_task_first(bot: str) -> None:
    """The captain's first pick is a task of the highest value it may take (so it holds one)."""
    for players, cap, cards, owners in _selections("ds-19", bot):
        values = [CARDS[c].difficulty_for(players) for c in cards]
        allowed = [v for c, v in zip(cards, values, strict=True) if captain_may_take(CARDS[c])]
        mine = [v for v, o in zip(values, owners, strict=True) if o == cap]
        assert max(mine) == max(allowed), (players, cards, owners)


@pytest.mark.parametrize("bot", BOTS)
def test_ds25_the_captain_takes_no_task_and_ds6_one_member_takes_all(bot: str) -> None:
    for _, cap, _, owners in _selections("ds-25", bot):
        assert cap not in owners
    for _, _, _, owners in _selections("ds-6", bot):
        assert len(set(owners)) == 1


def test_a_secret_prediction_steers_only_its_owner() -> None:
    """Card 95's number is secret, card 96's public: the rest of the crew can help only with
    the public one, so the secret one is won less often (they were equal while every seat read
    the secret number: 41 % against 18 % for a crew that cannot)."""
    rates = {}
    for number in (95, 96):
        mp = KernelMission(get_mission(CARRIER), 3, distress="never", tasks=(number,)).vector()
        rec = run_chunk(mp, get_bot("heuristic").vector(), 3000, 11)
        rates[number] = float(rec["success"].mean())
    assert rates[95] < rates[96] - 0.1, rates


def _rules_out(number: int, hand: int) -> bool:
    """Whether a hand alone makes the card impossible, read off the cards' texts."""

    def has(card: str) -> bool:
        return bool(hand >> parse_card(card) & 1)

    if number in (12, 15):  # a trick won with a 2 / a 6: it needs one to win with
        rank = 2 if number == 12 else 6
        return not any(has(f"{colour}{rank}") for colour in ("pink", "blue", "green", "yellow"))
    if number in (76, 77):  # submarine 1 / 2 and no other: it must play it, never submarine 4
        return not has(f"sub{number - 75}") or has("sub4")
    if number == 93:  # the green 9 with a submarine: it needs one, and the green 9 elsewhere
        return has("green9") or not any(has(f"sub{r}") for r in range(1, 5))
    raise ValueError(number)


@pytest.mark.parametrize("number", [12, 15, 76, 77, 93])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_card_goes_to_a_hand_that_can_complete_it(number: int, players: int) -> None:
    """A member passes on a card its own hand rules out and takes one no other hand can do.
    Before, the captain (submarine 4) took "submarine 1 and no other" in most games: 1 % won."""
    mp = KernelMission(get_mission(CARRIER), players, distress="never", tasks=(number,))
    rec = run_chunk(mp.vector(), get_bot("heuristic").vector(), 500, number, record=True)
    bad = 0
    for i in range(500):
        _, owners = in_play(rec, i)
        bad += _rules_out(number, int(rec["rec_hands"][i][owners[0]]))
    # every pass spent, the last member must take it: the pink / green 9 at most (0.4 %); a
    # trick won with a 2 / a 6 at most 2 %, since a hand holding one but few cards above it
    # passes (measured 3-10 of 500 at 4-5 players, 0 at 3; the card is won 3-5 points more
    # often for it: 36.9 -> 41.1 % for the 2 at 4 players)
    limit = {93: 5, 12: 10, 15: 10}.get(number, 0)
    assert bad <= limit, bad


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_submarine_count_outside_the_draft_range_cannot_be_won(players: int) -> None:
    """``collect.sub_wins`` tells the draft how many submarines a hand can end up with: for
    "exactly 1 / 2 / 3 submarines" outside that range the solver (every hand known) never
    finds a way, and inside it almost always does.  (At three players the hand of 14 keeps
    one card back, maybe a submarine, which the draft does not plan for; a hand of all four
    is dealt again.)"""
    rng = np.random.default_rng(players)
    inside = won_inside = 0
    for _ in range(25):
        deal = deal_cards(players, rng)
        if any(deal.full_hand(s) >> 36 == 15 for s in range(deal.seats)):
            continue
        for seat in range(deal.seats):
            hand = np.int64(deal.full_hand(seat))
            fewest, most = sub_wins(hand & TRUMPS, TRUMPS & ~hand)
            fewest -= deal.full_hand(seat).bit_count() == 14
            for number, n in ((44, 1), (45, 2), (46, 3)):
                task = HeldTask(CARDS[number - 1], seat)
                verdict = solve(problem_from_mission(deal, (), None, deep=[task])).verdict
                if fewest <= n <= most:
                    inside += 1
                    won_inside += verdict == "feasible"
                else:
                    assert verdict == "infeasible", (number, seat, deal.full_hand(seat) >> 36)
    assert inside > 0 and won_inside >= 0.9 * inside
