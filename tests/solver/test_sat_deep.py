"""The Deep Sea SAT engine: never refutes a deal the DFS or the bots won, every "feasible"
line (2-5 players) replays through the referee as a win, and each condition kind and objective
agrees with a plain search on short hands (both verdicts)."""

from __future__ import annotations

import numpy as np
import pytest

from crewsim.analysis.feasibility import random_deep_setup
from crewsim.bots import get_bot
from crewsim.cards import mask_of, parse_card
from crewsim.engine.run import run_chunk
from crewsim.kernel.conditions import encode_task
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission, load_task_cards
from crewsim.rules.deal import Deal
from crewsim.rules.task_cards import HeldTask
from crewsim.runs.ceiling import problem_of
from crewsim.solver.api import solve, until_won
from crewsim.solver.problem import Problem, problem_from_mission
from crewsim.solver.sat_deep import solve_deep_hands, solve_deep_sat
from tests.solver.helpers import DeepJudge
from tests.solver.test_deep_sea import _plain

CARDS = load_task_cards()
CONFLICTS = 10**6  # generous, and a count: the answers below never depend on the machine


# ---- soundness and exactness on random deals of every mission


@pytest.mark.parametrize("k", range(1, 33))
def test_never_refutes_what_the_dfs_wins_and_lines_replay(k: int) -> None:
    mission = f"ds-{k}"
    m = get_mission(mission)
    rng = np.random.default_rng(7000 + k)
    for i in range(12):
        deal, deep = random_deep_setup(m, 2 + i % 4, rng)
        problem = problem_from_mission(deal, (), m, deep=deep)
        dfs = solve(problem, budget=20_000).verdict
        verdict, plays = solve_deep_sat(problem, CONFLICTS)
        if dfs == "feasible":
            assert verdict != "infeasible", (mission, i)
        if dfs == "infeasible" and deal.players > 3:  # (3 players: see the rigged test below)
            assert verdict != "feasible", (mission, i)
        if verdict == "feasible":
            assert until_won(problem, plays, ()) is not None, (mission, i, plays)


@pytest.mark.parametrize(
    ("mission", "players"),
    [
        ("ds-1", 4),
        ("ds-5", 3),
        ("ds-12", 5),
        ("ds-20", 4),
        ("ds-21", 4),
        ("ds-23", 3),
        ("ds-27", 4),
        ("ds-29", 5),
        ("ds-32", 3),
        ("ds-8", 4),
        ("ds-5", 2),
        ("ds-20", 2),
    ],
)
def test_never_refutes_a_deal_the_bots_won(mission: str, players: int) -> None:
    m = get_mission(mission)
    rec = run_chunk(
        KernelMission(m, players).vector(), get_bot("heuristic").vector(), 30, 11, record=True
    )
    for i in range(30):
        problem = problem_of(m, players, rec, i)
        verdict, plays = solve_deep_sat(problem, CONFLICTS)
        if rec["success"][i]:
            assert verdict != "infeasible", (mission, i)
        if verdict == "feasible":
            assert until_won(problem, plays, ()) is not None, (mission, i, plays)
    if mission in ("ds-1", "ds-5"):  # easy missions: the check above ran
        assert rec["success"].any()


# ---- every kind and objective against a plain search on short hands


def _line_wins(
    hands: list[int],
    codes: np.ndarray,
    owners: list[int],
    players: int,
    nt: int,
    objective: tuple[int, int, int],
    line: list[int],
) -> bool:
    """The kernel's judges along one line (legal play is the model's business: checked by the
    referee on full deals above; here the plain search decides feasibility)."""
    judge = DeepJudge(hands, codes, owners, players, nt, objective)
    seats, hs, leader, h = len(hands), list(hands), judge.captain, judge.start()
    for t in range(nt):
        trick = line[t * seats : (t + 1) * seats]
        for k, c in enumerate(trick):
            assert hs[(leader + k) % seats] >> c & 1
            hs[(leader + k) % seats] &= ~(1 << c)
        status, h, leader = judge.after(h, t, trick, leader, hs)
        if status != "on":
            return status == "win"
    return False


def _short(rng: np.random.Generator, players: int, nt: int) -> list[int]:
    """Random short hands; with three players seat 0 may get a card it never plays."""
    extra = int(players == 3 and rng.integers(2))
    cards = [int(c) for c in rng.choice(40, size=players * nt + extra, replace=False)]
    hands = [sum(1 << c for c in cards[s * nt : (s + 1) * nt]) for s in range(players)]
    hands[0] |= sum(1 << c for c in cards[players * nt :])
    return hands


def _agree(
    hands: list[int],
    codes: np.ndarray,
    owners: list[int],
    players: int,
    nt: int,
    objective: tuple[int, int, int],
) -> bool:
    want = _plain(hands, codes, owners, players, nt, objective)
    verdict, line = solve_deep_hands(hands, nt, codes, owners, objective, CONFLICTS)
    assert verdict == ("feasible" if want else "infeasible")
    if want:
        assert _line_wins(hands, codes, owners, players, nt, objective, line)
    return want


def _alone(number: int, rng: np.random.Generator, deals: int) -> list[bool]:
    """Task card ``number`` alone on short deals at 3, 4 and 5 players, a random owner each:
    every verdict (and line) agrees with the plain search; returns the verdicts."""
    seen = []
    for i in range(deals):
        players = 3 + i % 3
        nt = 3 if players < 5 else 2
        hands = _short(rng, players, nt)
        codes = np.array([encode_task(CARDS[number - 1], players, nt)], dtype=np.int64)
        seen.append(_agree(hands, codes, [int(rng.integers(players))], players, nt, (0, 0, 0)))
    return seen


@pytest.mark.parametrize("number", range(1, 97))
def test_each_task_card_alone_agrees_with_a_plain_search(number: int) -> None:
    assert _alone(number, np.random.default_rng(number), 8)  # the plain search is the judge


OBJECTIVES = [
    (10, 9, 1),
    (10, 2, 0),
    (11, 0b10001, 0),
    (11, 0b00110, 0),
    (12, 0, 0),
    (13, 20, 0),
    (13, 38, 0),
]


@pytest.mark.parametrize("case", range(120))
def test_pairs_and_objectives_agree_with_a_plain_search(case: int) -> None:
    rng = np.random.default_rng(500 + case)
    players = 3 + case % 3
    nt = 3 if players < 5 else 2
    hands = _short(rng, players, nt)
    picks = rng.choice(96, size=1 + case % 2, replace=False)
    codes = np.array([encode_task(CARDS[int(k)], players, nt) for k in picks], dtype=np.int64)
    owners = [int(rng.integers(players)) for _ in picks]
    objective = OBJECTIVES[case % len(OBJECTIVES)] if case % 3 else (0, 0, 0)
    if objective[0] == 13:  # the card must be in the deal
        present = [c for c in range(40) if any(h >> c & 1 for h in hands)]
        objective = (13, present[case % len(present)], 0)
    _agree(hands, codes, owners, players, nt, objective)


def test_the_objectives_alone_agree_with_a_plain_search() -> None:
    verdicts = set()
    for case in range(60):
        rng = np.random.default_rng(9000 + case)
        players = 3 + case % 3
        nt = 3 if players < 5 else 2
        hands = _short(rng, players, nt)
        objective = OBJECTIVES[case % len(OBJECTIVES)]
        if objective[0] == 13:
            present = [c for c in range(40) if any(h >> c & 1 for h in hands)]
            objective = (13, present[case % len(present)], 0)
        verdicts.add(_agree(hands, np.zeros((0, 8), dtype=np.int64), [], players, nt, objective))
    assert verdicts == {True, False}


# ---- rigged


def _deal3(*hands: str) -> Deal:
    return Deal(3, tuple(mask_of(parse_card(c) for c in h.split()) for h in hands))


def test_the_fourteenth_card_may_be_a_trump_kept_back() -> None:
    """Three players: the captain's 14th card is never played, so the captain can keep
    submarine 4 back and win no trick (a line the referee accepts)."""
    deal = _deal3(
        "pink1 pink2 pink3 pink4 pink5 blue1 blue2 blue3 blue4 green1 green2 green3 green4 rocket4",
        "pink6 pink7 pink8 pink9 blue5 blue6 blue7 blue8 blue9 green5 green6 green7 rocket3",
        "green8 green9 yellow1 yellow2 yellow3 yellow4 yellow5 yellow6 yellow7 yellow8 yellow9 "
        "rocket1 rocket2",
    )
    zero = next(c for c in CARDS if c.kind.value == "win_exactly_n_tricks" and c.params["n"] == 0)
    problem = Problem(deal, (), deep_sea=True, deep=(HeldTask(zero, 0),))
    verdict, plays = solve_deep_sat(problem, CONFLICTS)
    assert verdict == "feasible" and 39 not in plays
    assert until_won(problem, plays, ()) is not None


def test_a_card_kept_back_is_never_won() -> None:
    """Short hands, three players: seat 0 holds one card more than there are tricks, so one of
    its cards is never played; another seat cannot win all of them, but any two."""
    hands = [mask_of([0, 10, 20]), mask_of([1, 11]), mask_of([30, 39])]
    all3 = np.array([[19, mask_of([0, 10, 20]), 0, 0, 0, 0, 0, 0]], dtype=np.int64)
    two = np.array([[19, mask_of([0, 10]), 0, 0, 0, 0, 0, 0]], dtype=np.int64)
    assert not _agree(hands, all3, [2], 3, 2, (0, 0, 0))
    assert _agree(hands, two, [2], 3, 2, (0, 0, 0))


@pytest.mark.parametrize("number", [2, 3, 33, 44, 45, 56])
def test_kinds_rarely_refuted_on_tiny_hands_both_ways(number: int) -> None:
    """Longer short hands for the cards that three tricks hardly ever decide both ways."""
    rng = np.random.default_rng(number)
    seen = set()
    for i in range(30):
        players = 3 + i % 2
        hands = _short(rng, players, 4)
        codes = np.array([encode_task(CARDS[number - 1], players, 4)], dtype=np.int64)
        seen.add(_agree(hands, codes, [int(rng.integers(players))], players, 4, (0, 0, 0)))
    assert seen == {True, False}


def test_rigged_never_consecutive_and_all_of_one_colour() -> None:
    """Seat 0 holds the two top submarines: it wins both tricks (never two in a row fails);
    winning all of {pink1, pink2, pink3} needs them in the tricks seat 0 takes."""
    hands = [mask_of([38, 39]), mask_of([0, 1]), mask_of([2, 3])]
    never2 = np.array([[1, 2, 0, 0, 0, 0, 0, 0]], dtype=np.int64)
    assert not _agree(hands, never2, [0], 3, 2, (0, 0, 0))
    assert _agree(hands, never2, [1], 3, 2, (0, 0, 0))
    pinks = np.array([[17, mask_of([0, 1, 2]), 0, 0, 0, 0, 0, 0]], dtype=np.int64)
    assert _agree(hands, pinks, [0], 3, 2, (0, 0, 0))
    assert not _agree(hands, pinks, [1], 3, 2, (0, 0, 0))


@pytest.mark.parametrize("number", [18, 19, 20])  # sum above / below / 22 or 23
def test_trick_sums_agree_with_a_plain_search(number: int) -> None:
    """The sums' partial-sum counters, on many deals each, with thresholds that short hands
    reach, so that both verdicts are checked."""
    seen = _alone(number, np.random.default_rng(90 + number), 60)
    assert 0 < sum(seen) < len(seen)
