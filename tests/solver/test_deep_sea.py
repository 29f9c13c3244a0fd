"""The Deep Sea search: its lines replay through the referee as wins, it agrees with a plain
search on short hands (memo and equivalent cards on or off), and rigged hands."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewsim.analysis.feasibility import random_deep_setup
from crewsim.cards import cards_of, mask_of, parse_card, suit_of
from crewsim.kernel.conditions import encode_task
from crewsim.missions import get_mission, load_task_cards
from crewsim.rules.deal import Deal
from crewsim.rules.play import legal_plays
from crewsim.rules.task_cards import HeldTask
from crewsim.solver.api import solve, until_won
from crewsim.solver.deep_sea import solve_deep_arrays
from crewsim.solver.problem import Problem, problem_from_mission
from tests.solver.helpers import DeepHand, DeepJudge, deal4

CARDS = load_task_cards()
DEEP = [f"ds-{k}" for k in range(1, 33)]


@settings(max_examples=60, deadline=None)
@given(mission=st.sampled_from(DEEP), players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_feasible_lines_replay_as_wins(mission: str, players: int, seed: int) -> None:
    m = get_mission(mission)
    deal, deep = random_deep_setup(m, players, np.random.default_rng(seed))
    problem = problem_from_mission(deal, (), m, deep=deep)
    res = solve(problem, budget=20_000)
    assert res.verdict in ("feasible", "infeasible", "unknown")
    if res.verdict == "feasible":
        assert until_won(problem, res.plays, ()) == res.plays  # the referee: won, just then


# ---- a plain search on short hands, judged by the same judges


def _plain(
    hands: list[int],
    codes: np.ndarray,
    owners: list[int],
    players: int,
    nt: int,
    objective: tuple[int, int, int],
) -> bool:
    """Every legal line, the judges called after each trick as the kernel calls them."""
    judge = DeepJudge(hands, codes, owners, players, nt, objective)
    seats = len(hands)

    def go(hs: list[int], leader: int, t: int, h: DeepHand) -> bool:
        def play(k: int, trick: list[int], hs: list[int]) -> bool:
            if k == seats:
                status, after, winner = judge.after(h, t, trick, leader, hs)
                return status == "win" or (status == "on" and go(hs, winner, t + 1, after))
            seat = (leader + k) % seats
            led = suit_of(trick[0]) if trick else None
            for c in cards_of(legal_plays(hs[seat], led)):
                h2 = list(hs)
                h2[seat] &= ~(1 << c)
                if play(k + 1, trick + [c], h2):
                    return True
            return False

        return play(0, [], hs)

    return go(list(hands), judge.captain, 0, judge.start())


OBJECTIVES = [(0, 0, 0), (10, 9, 1), (11, 0b10001, 0), (12, 0, 0), (13, 20, 0)]


@pytest.mark.parametrize("case", range(240))
def test_agrees_with_a_plain_search_on_short_hands(case: int) -> None:
    rng = np.random.default_rng(1000 + case)
    players = [3, 4, 5][case % 3]
    nt = 3 if players < 5 else 2
    cards = rng.choice(40, size=players * nt, replace=False)
    hands = [sum(1 << int(c) for c in cards[s * nt : (s + 1) * nt]) for s in range(players)]
    picks = rng.choice(96, size=1 + case % 2, replace=False)
    codes = np.array([encode_task(CARDS[int(k)], players, nt) for k in picks], dtype=np.int64)
    owners = [int(rng.integers(players)) for _ in picks]
    objective = OBJECTIVES[case % len(OBJECTIVES)] if case % 4 == 0 else (0, 0, 0)
    want = _plain(hands, codes, owners, players, nt, objective)
    for memo in (True, False):
        v, _, _ = solve_deep_arrays(hands, (), players, nt, codes, owners, objective, 10**6, memo)
        assert v == int(want), (case, memo, [int(k) + 1 for k in picks], owners)


def _held(number: int, owner: int) -> HeldTask:
    return HeldTask(CARDS[number - 1], owner)


def test_the_captain_cannot_win_zero_tricks() -> None:
    """Submarine 4 takes whatever trick it is played in: refuted at the first boundary."""
    deal = deal4(
        "pink1 pink2 pink3 blue1 blue2 blue3 green1 green2 green3 rocket4",
        "pink4 pink5 pink6 blue4 blue5 blue6 green4 green5 green6 rocket3",
        "pink7 pink8 pink9 blue7 blue8 blue9 green7 green8 green9 rocket2",
        "yellow1 yellow2 yellow3 yellow4 yellow5 yellow6 yellow7 yellow8 yellow9 rocket1",
    )
    problem = Problem(deal, (), deep_sea=True, deep=(_held(4, 0),))
    res = solve(problem)
    assert res.verdict == "infeasible" and res.nodes == 0
    assert solve(Problem(deal, (), deep_sea=True, deep=(_held(4, 1),))).verdict == "feasible"


def test_a_forbidden_lead_is_never_tried() -> None:
    """Deep Sea 12 forbids pink and trump leads: a captain holding only those cannot start."""
    deal = deal4(
        "pink1 pink2 pink3 pink4 pink5 pink6 pink7 rocket2 rocket3 rocket4",
        "pink8 pink9 blue1 blue2 blue3 blue4 blue5 blue6 blue7 rocket1",
        "blue8 blue9 green1 green2 green3 green4 green5 green6 green7 green8",
        "green9 yellow1 yellow2 yellow3 yellow4 yellow5 yellow6 yellow7 yellow8 yellow9",
    )
    m = get_mission("ds-12")
    res = solve(problem_from_mission(deal, (), m))
    assert res.verdict == "infeasible" and res.nodes == 0


def test_a_trump_kept_back_wins_nothing() -> None:
    """Three players: the captain's 14th card is never played, so keeping submarine 4 back
    lets it win no trick; the master-trump cut must allow for that (it once refuted this)."""
    hands = (
        "pink1 pink2 pink3 pink4 pink5 blue1 blue2 blue3 blue4 green1 green2 green3 green4 rocket4",
        "pink6 pink7 pink8 pink9 blue5 blue6 blue7 blue8 blue9 green5 green6 green7 rocket3",
        "green8 green9 yellow1 yellow2 yellow3 yellow4 yellow5 yellow6 yellow7 yellow8 yellow9 "
        "rocket1 rocket2",
    )
    deal = Deal(3, tuple(mask_of(parse_card(c) for c in h.split()) for h in hands))
    problem = Problem(deal, (), deep_sea=True, deep=(_held(4, 0),))
    assert solve(problem, budget=2_000_000, conflicts=0).verdict != "infeasible"
    res = solve(problem)
    assert res.verdict == "feasible" and 39 not in res.plays
    assert until_won(problem, res.plays, ()) == res.plays
