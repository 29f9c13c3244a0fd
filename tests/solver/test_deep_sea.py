"""The Deep Sea search: its lines replay through the referee as wins, it agrees with a plain
search on short hands (memo and equivalent cards on or off), and rigged hands."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewsim.cards import Game, cards_of, mask_of, parse_card, suit_of
from crewsim.kernel.conditions import DONE, FAILED, K_PREDICTED, ds_judge, encode_task
from crewsim.kernel.engine import judge_objective
from crewsim.kernel.layout import G_CMD, G_FIRST_WINNER, G_NT, G_PLAYERS, G_SEATS, G_SIZE, G_T
from crewsim.missions import get_mission, load_task_cards
from crewsim.rules.conditions import HeldTask
from crewsim.rules.deal import Deal
from crewsim.rules.game import GameState, Rules
from crewsim.rules.play import legal_plays, trick_winner
from crewsim.solver.api import Problem, Result, problem_from_mission, solve
from crewsim.solver.deep_sea import solve_deep_arrays
from crewsim.solver.sample import random_deep_setup
from tests.solver.helpers import deal4

CARDS = load_task_cards()
DEEP = [f"ds-{k}" for k in range(1, 33)]


def _replay(problem: Problem, res: Result, mission_id: str) -> GameState:
    """The line through the referee; a prediction card announces what the line gives its owner."""
    wins = [0] * problem.seats
    leader, n = problem.deal.commander, problem.seats
    for k in range(0, len(res.plays), n):
        leader, _ = trick_winner(res.plays[k : k + n], leader, n)
        wins[leader] += 1
    deep = [
        replace(t, predicted=wins[t.owner]) if t.card.kind.value == "win_predicted_trick_count"
        else t
        for t in problem.deep
    ]  # fmt: skip
    g = GameState(problem.deal, [], Rules.of(get_mission(mission_id)), Game.DEEP_SEA, deep)
    for c in res.plays:
        g.play(g.to_play, c)
    return g


@settings(max_examples=60, deadline=None)
@given(mission=st.sampled_from(DEEP), players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_feasible_lines_replay_as_wins(mission: str, players: int, seed: int) -> None:
    m = get_mission(mission)
    deal, deep = random_deep_setup(m, players, np.random.default_rng(seed))
    problem = problem_from_mission(deal, (), m, deep=deep)
    res = solve(problem, budget=20_000)
    assert res.verdict in ("feasible", "infeasible", "unknown")
    if res.verdict == "feasible":
        g = _replay(problem, res, mission)
        assert g.outcome is not None and g.outcome.success, g.trace()


# ---- a plain search on short hands, judged by the same judges


def _plain(hands: list[int], codes: np.ndarray, owners: list[int], players: int, nt: int,
           objective: tuple[int, int, int]) -> bool:  # fmt: skip
    """Every legal line, the judges called after each trick as the kernel calls them."""
    seats = len(hands)
    captain = next((s for s, h in enumerate(hands) if h >> 39 & 1), 0)
    g = np.zeros(G_SIZE, dtype=np.int64)
    g[G_SEATS], g[G_PLAYERS], g[G_NT], g[G_CMD] = seats, players, nt, captain
    desig = np.full(2, -1, dtype=np.int64)

    def go(hs: list[int], leader: int, t: int, won: np.ndarray, wc: np.ndarray,
           scratch: np.ndarray, done: int, obj_done: bool, first: int) -> bool:  # fmt: skip
        def play(k: int, trick: list[int], hs: list[int]) -> bool:
            if k == seats:
                winner, wcard = trick_winner(trick, leader, seats)
                won2, wc2, sc2 = won.copy(), wc.copy(), scratch.copy()
                won2[winner] += 1
                for c in trick:
                    wc2[winner] |= 1 << c
                live = 0
                for h in hs:
                    live |= h
                tr = np.array(trick + [0] * (5 - seats), dtype=np.int64)
                h5 = np.array(hs + [0] * (5 - seats), dtype=np.int64)
                last = t == nt - 1
                d2 = done
                for j in range(len(owners)):
                    if d2 >> j & 1:
                        continue
                    if codes[j, 0] == K_PREDICTED:
                        v = DONE if last else 0
                    else:
                        v = ds_judge(codes[j], owners[j], -1, sc2[j], t, nt, seats, players,
                                     captain, tr, leader, winner, wcard, won2, wc2,
                                     np.int64(live), h5)  # fmt: skip
                    if v == FAILED:
                        return False
                    if v == DONE:
                        d2 |= 1 << j
                o2 = obj_done
                f2 = winner if t == 0 else first
                if not o2:
                    g[G_T], g[G_FIRST_WINNER] = t, f2
                    v = judge_objective(g, objective[0], objective[1], objective[2], tr, winner,
                                        wcard, won2, wc2, desig, np.int64(live), last)  # fmt: skip
                    if v == 2:
                        return False
                    o2 = v == 1
                if d2 == (1 << len(owners)) - 1 and o2:
                    return True
                if last:
                    return False
                return go(hs, winner, t + 1, won2, wc2, sc2, d2, o2, f2)
            seat = (leader + k) % seats
            led = suit_of(trick[0]) if trick else None
            for c in cards_of(legal_plays(hs[seat], led)):
                h2 = list(hs)
                h2[seat] &= ~(1 << c)
                if play(k + 1, trick + [c], h2):
                    return True
            return False

        return play(0, [], hs)

    return go(list(hands), captain, 0, np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64),
              np.zeros((max(len(owners), 1), 4), dtype=np.int64), 0, objective[0] == 0, -1)


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
    assert solve(problem, budget=2_000_000, second=0).verdict != "infeasible"
    res = solve(problem)
    assert res.verdict == "feasible" and 39 not in res.plays
    g = _replay(problem, res, "ds-1")
    assert g.outcome is not None and g.outcome.success, g.trace()
