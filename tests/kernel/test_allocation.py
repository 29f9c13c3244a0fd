"""How the kernel hands out tasks in the missions that do not draft them, beyond what the
referee checks on every replayed game (``GameState.verify_deep_allocation``: whose turn, one or
two volunteers, the captain's cards): that the bots' choices are sensible and balanced
(Planet Nine 24/32/36/43, Deep Sea volunteers, repairs)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np
import pytest

from crewsim.bots import get_bot
from crewsim.cards import parse_card
from crewsim.kernel import layout as L
from crewsim.kernel.run import run_chunk
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission, load_campaign, load_task_cards
from crewsim.rules.deal import Deal
from crewsim.rules.deep_sea_setup import captain_may_take, find_contradictions, redeal_reasons
from crewsim.task_check import CARRIER

BOTS = ("heuristic", "random")
CARDS = load_task_cards()


def _deep_games(mission_id: str, players: int, bot: str, n: int = 300) -> dict[str, np.ndarray]:
    mp = KernelMission(get_mission(mission_id), players, distress="never").vector()
    return run_chunk(mp, get_bot(bot).vector(), n, 31 * players + 7, record=True)


def _captain(rec: dict[str, np.ndarray], i: int, seats: int) -> int:
    return next(s for s in range(seats) if int(rec["rec_hands"][i][s]) >> 39 & 1)


def _in_play(rec: dict[str, np.ndarray], i: int) -> tuple[list[int], list[int]]:
    """Game ``i``'s task card numbers (0-based rows of the deck) and their seats."""
    row = rec["rec_ds"][i]
    n = int(row[3 * L.MAX_DS])
    return [int(x) for x in row[:n]], [int(x) for x in row[L.MAX_DS : L.MAX_DS + n]]


@pytest.mark.parametrize("mission_id", ["pn-24", "pn-32", "pn-36", "pn-43"])
@pytest.mark.parametrize("bot", BOTS)
def test_commander_hands_out_tasks_evenly(mission_id: str, bot: str) -> None:
    """BGA keeps the seats at most one task apart; before, pn-24 at 5 players came out
    uneven in 96 % of games (and its success rate five times too high).  These are the
    owners as handed out: at five players the hand-over rule may move one task afterwards."""
    mission = get_mission(mission_id)
    for players in (2, 3, 4, 5):
        seats = 3 if players == 2 else players
        mp = KernelMission(mission, players).vector()
        rec = run_chunk(mp, get_bot(bot).vector(), 300, players, record=True)
        for i in range(300):
            owners = rec["rec_tasks"][i][: mission.tasks, 1]
            counts = np.bincount(owners, minlength=seats)
            assert counts.max() - counts.min() <= 1, f"{mission_id} {players}p #{i}: {counts}"


def test_every_planet_nine_mission_with_allocation_rules_is_covered() -> None:
    distributing = {
        m.id for m in load_campaign("planet-nine") if m.allocation.value == "commander_distributes"
    }
    assert distributing == {"pn-24", "pn-32", "pn-36", "pn-43"}


@pytest.mark.parametrize("bot", BOTS)
def test_the_captain_never_holds_a_card_it_may_not_take(bot: str) -> None:
    """Neither a repair (which puts a new card in an owner's slot) nor a volunteer rule whose
    fallback is the captain may give the captain a "... than the captain" card: that game
    would be lost before it starts (1.7 % of ds-14 games were, before)."""
    bad = []
    for mission in load_campaign("deep-sea"):
        for players in (3, 5):
            rec = _deep_games(mission.id, players, bot, 200)
            for i in range(200):
                cap = _captain(rec, i, players)
                cards, owners = _in_play(rec, i)
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
    rec = _deep_games(mission_id, 5, "heuristic")
    by_captain = 0
    for i in range(300):
        _, owners = _in_play(rec, i)
        assert len(set(owners)) == 1
        by_captain += owners[0] == _captain(rec, i, 5)
    assert by_captain < 0.5 * 300


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_two_volunteers_share_the_tasks(bot: str, players: int) -> None:
    """Deep Sea 26: exactly two members take every task between them."""
    rec = _deep_games("ds-26", players, bot)
    for i in range(300):
        _, owners = _in_play(rec, i)
        assert len(set(owners)) == 2, f"{players}p {bot} #{i}: {owners}"


@pytest.mark.parametrize("mission_id", ["ds-20", "ds-26", "ds-29"])
def test_a_repair_brings_in_no_card_that_calls_for_a_redeal(mission_id: str) -> None:
    """A repaired card is chosen among those whose redeal condition the deal does not meet:
    redealing after selection has no place in the rules (0.3 % of ds-20 games kept such a
    card before)."""
    for players in (3, 4):
        seats = players
        rec = _deep_games(mission_id, players, "heuristic", 400)
        repaired = 0
        for i in range(400):
            repaired += int(rec["repairs"][i]) > 0
            cards, _ = _in_play(rec, i)
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
        rec = _deep_games(mission_id, players, "heuristic", 400)
        assert (rec["repairs"] > 0).sum() > 0  # the check met repaired games
        for i in range(400):
            cards, _ = _in_play(rec, i)
            assert sum(CARDS[c].difficulty_for(players) for c in cards) == target, (players, i)


@pytest.mark.parametrize(("mission_id", "players"),
                         [("ds-32", 2), ("ds-32", 3), ("ds-18", 3), ("ds-22", 3), ("ds-24", 3),
                          ("ds-28", 3), ("ds-30", 3), ("ds-30", 4)])  # fmt: skip
def test_games_start_with_tasks_that_can_all_be_done(mission_id: str, players: int) -> None:
    """Rule 16 replaces a card until the set can be done: pairs, and the seats' trick counts
    (the kernel gave up after 8 draws and saw pairs only: 1-7 % of these games started
    lost).  Cards needed by several seats together (five submarines) are not yet checked:
    at most 1 %.  A drafting crew looks ahead: ds-32's four fixed cards left its captain
    "0 tricks" and "2 tricks in a row" in every game at 2 and 3 players."""
    seats = 3 if players == 2 else players
    rec = _deep_games(mission_id, players, "heuristic", 400)
    by_cards = 0
    for i in range(400):
        cards, owners = _in_play(rec, i)
        found = find_contradictions([CARDS[c] for c in cards], owners, players,
                                    _captain(rec, i, seats))  # fmt: skip
        counted = [c for c in found if len(c.tasks) == 2 or "trick" in _unquoted(c.reason)]
        assert not counted, (mission_id, players, i, counted)
        by_cards += bool(found)
    assert by_cards <= 4


def _unquoted(reason: str) -> str:
    """A reason without its task names ('firstAndLastTrick'): what it is about."""
    return re.sub(r"'[^']*'", "", reason)


def test_unfamiliar_terrain_draws_each_communication_a_third_of_the_time() -> None:
    """ds-20: a random colour card (1-3 normal, 4-6 currents, 7-9 rapture) per attempt."""
    rec = _deep_games("ds-20", 4, "heuristic", 3000)
    modes = rec["rec_ds"][:, 3 * L.MAX_DS + 1]
    counts = np.bincount(modes, minlength=4)
    codes = [L.COMM_CODES[k] for k in ("normal", "dead_zone", "rapture")]
    assert counts[codes].sum() == 3000
    assert all(abs(counts[c] - 1000) < 4 * np.sqrt(3000 * (1 / 3) * (2 / 3)) for c in codes)


@pytest.mark.parametrize("mission_id", ["ds-10", "ds-13"])
def test_passed_tasks_mean_all_communication_before_the_first_trick(mission_id: str) -> None:
    """Deep Sea 10/13: the captain keeps every task or passes them all to one member; only a
    pass limits communication to before trick 1."""
    rec = _deep_games(mission_id, 4, "heuristic", 400)
    passed_games = 0
    for i in range(400):
        _, owners = _in_play(rec, i)
        assert len(set(owners)) == 1
        passed = owners[0] != _captain(rec, i, 4)
        passed_games += passed
        assert int(rec["rec_ds"][i][3 * L.MAX_DS + 2]) == (1 if passed else 0), i
    assert 0 < passed_games < 400


@pytest.mark.parametrize("mission_id", ["pn-20", "pn-27", "pn-37"])
@pytest.mark.parametrize("bot", BOTS)
def test_the_commander_gives_every_task_to_one_other_member(mission_id: str, bot: str) -> None:
    mission = get_mission(mission_id)
    for players in (3, 4, 5):
        mp = KernelMission(mission, players).vector()
        rec = run_chunk(mp, get_bot(bot).vector(), 200, players, record=True)
        for i in range(200):
            owners = set(rec["rec_tasks"][i][: mission.tasks, 1].tolist())
            cmd = next(s for s in range(players) if int(rec["rec_hands"][i][s]) >> 39 & 1)
            assert len(owners) == 1 and cmd not in owners, (players, i, owners)


def _selections(mission_id: str, bot: str) -> Iterator[tuple[int, int, list[int], list[int]]]:
    """(players, captain seat, task cards, owners) of 300 games at 3, 4 and 5 players."""
    for players in (3, 4, 5):
        rec = _deep_games(mission_id, players, bot)
        for i in range(300):
            yield (players, _captain(rec, i, players), *_in_play(rec, i))


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
    from crewsim.task_check import CARRIER

    rates = {}
    for number in (95, 96):
        mp = KernelMission(get_mission(CARRIER), 3, distress="never", tasks=(number,)).vector()
        rec = run_chunk(mp, get_bot("heuristic").vector(), 3000, 11)
        rates[number] = float(rec["success"].mean())
    assert rates[95] < rates[96] - 0.1, rates


def test_at_two_players_the_dummys_tasks_count_for_the_distress_call() -> None:
    """A crew that finds every task poor calls the distress signal; at two players the
    commander judges the dummy's tasks too (before, a task drafted by the dummy kept the
    signal from ever being called)."""
    bp = get_bot("heuristic").vector().copy()
    bp[L.BP_POOR_SCORE] = 1e9  # every task poor
    mp = KernelMission(get_mission("pn-10"), 2).vector()
    rec = run_chunk(mp, bp, 300, 3, record=True)
    dummy_tasks = (rec["rec_tasks"][:, :5, 1] == 2).any(axis=1)
    assert dummy_tasks.any() and rec["distress"].all()


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
        _, owners = _in_play(rec, i)
        bad += _rules_out(number, int(rec["rec_hands"][i][owners[0]]))
    # every pass spent, the last member must take it: the pink / green 9 at most (0.4 %); a
    # trick won with a 2 / a 6 at most 2 %, since a hand holding one but few cards above it
    # passes (measured 3-10 of 500 at 4-5 players, 0 at 3; the card is won 3-5 points more
    # often for it: 36.9 -> 41.1 % for the 2 at 4 players)
    limit = {93: 5, 12: 10, 15: 10}.get(number, 0)
    assert bad <= limit, bad


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_kernels_trick_count_check_never_refutes_a_possible_set(players: int) -> None:
    """``deepsea._counts_clash`` starts from coarser bounds than the referee's checker, so it
    may miss a contradiction but must never invent one: every set it refutes, the referee
    refutes too (random sets of 3-6 cards and owners)."""
    from crewsim.kernel.deep_sea_tables import task_table
    from crewsim.kernel.deepsea import _counts_clash
    from crewsim.rules.play import n_tricks

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


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_submarine_count_outside_the_draft_range_cannot_be_won(players: int) -> None:
    """``collect.sub_wins`` tells the draft how many submarines a hand can end up with: for
    "exactly 1 / 2 / 3 submarines" outside that range the solver (every hand known) never
    finds a way, and inside it almost always does.  (At three players the hand of 14 keeps
    one card back, maybe a submarine, which the draft does not plan for; a hand of all four
    is dealt again.)"""
    from crewsim.kernel.bits import TRUMPS
    from crewsim.kernel.collect import sub_wins
    from crewsim.rules.conditions import HeldTask
    from crewsim.rules.deal import deal_cards
    from crewsim.solver.api import problem_from_mission, solve

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
