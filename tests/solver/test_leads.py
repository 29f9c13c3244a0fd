"""The count relaxation for forbidden leads: it searches its relaxed game exactly (a plain
search of the same game agrees), it never refutes a hand a plain search of the real game wins,
and it settles Deep Sea 12 deals the exact engines leave open."""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from crewsim.analysis.feasibility import random_deep_setup
from crewsim.cards import cards_of, mask_of, parse_card, suit_of
from crewsim.missions import get_mission, load_task_cards
from crewsim.rules.deal import Deal
from crewsim.rules.play import legal_plays, trick_winner
from crewsim.rules.task_cards import HeldTask
from crewsim.solver import leads
from crewsim.solver.api import solve
from crewsim.solver.problem import Problem, problem_from_mission


def _counts(hands: list[int]) -> np.ndarray:
    cnt = np.zeros((len(hands), 5), dtype=np.int64)
    for s, h in enumerate(hands):
        for c in cards_of(h):
            cnt[s, suit_of(c)] += 1
    return cnt


def _relaxed(
    hands: list[int], forbid: list[int], free: list[bool], tricks: int, leader: int
) -> bool:
    table = np.zeros((1 << 10, 3), dtype=np.int64)  # a fresh one per search
    line, _ = leads.relaxed_line(
        _counts(hands),
        len(hands),
        np.array(forbid, dtype=np.int64),
        np.array(free),
        leader,
        tricks,
        table,
        1,
        10**9,
    )
    return bool(line)


def _plain_relaxed(
    cnt: np.ndarray, forbid: list[int], free: list[bool], tricks: int, leader: int
) -> bool:
    """The relaxed game searched plainly: every suit each seat may play, every allowed winner
    (``free`` seats need not follow)."""
    seats = len(cnt)

    @cache
    def go(state: tuple[int, ...], leader: int, left: int) -> bool:
        if left == 0:
            return True
        c = [list(state[5 * s : 5 * s + 5]) for s in range(seats)]

        def play(k: int, v: int, subs: int, led: int) -> bool:
            if k == seats:
                win = subs or led
                key = tuple(x for row in c for x in row)
                return any(win >> w & 1 and go(key, w, left - 1) for w in range(seats))
            s = (leader + k) % seats
            for u in range(5):
                if not c[s][u] or (k == 0 and forbid[s] >> u & 1):
                    continue
                if k and c[s][v] and u != v and not free[s]:
                    continue
                c[s][u] -= 1
                vv = u if k == 0 else v
                ok = play(k + 1, vv, subs | (u == 4) << s, led | (u == vv) << s)
                c[s][u] += 1
                if ok:
                    return True
            return False

        return play(0, 0, 0, 0)

    return go(tuple(int(x) for x in cnt.ravel()), leader, tricks)


def _plain_real(hands: list[int], forbid: list[int], tricks: int, leader: int) -> bool:
    """Every legal line of the real game with the leads ``forbid`` rules out."""
    seats = len(hands)

    def go(hs: list[int], leader: int, left: int) -> bool:
        if left == 0:
            return True

        def play(k: int, trick: list[int], hs: list[int]) -> bool:
            if k == seats:
                winner, _ = trick_winner(trick, leader, seats)
                return go(hs, winner, left - 1)
            s = (leader + k) % seats
            led = suit_of(trick[0]) if trick else None
            for c in cards_of(legal_plays(hs[s], led)):
                if k == 0 and forbid[s] >> suit_of(c) & 1:
                    continue
                h2 = list(hs)
                h2[s] &= ~(1 << c)
                if play(k + 1, trick + [c], h2):
                    return True
            return False

        return play(0, [], hs)

    return go(hands, leader, tricks)


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[list[int], list[int], list[bool], int, int]:
    """3-5 seats of 2-4 cards each (one seat may hold one more, never played), forbidden leads
    and whether the seat need not follow (the dummy's relaxation) per seat, the first leader."""
    seats = draw(st.integers(3, 5))
    tricks = draw(st.integers(2, 4 if seats < 5 else 3))
    extra = draw(st.sampled_from([-1, *range(seats)]))
    n = seats * tricks + (extra >= 0)
    cards = draw(st.permutations(range(40)))[:n]
    sizes = [tricks + (s == extra) for s in range(seats)]
    hands, at = [], 0
    for size in sizes:
        hands.append(mask_of(cards[at : at + size]))
        at += size
    forbid = draw(st.lists(st.integers(0, 31), min_size=seats, max_size=seats))
    free = draw(st.lists(st.booleans(), min_size=seats, max_size=seats))
    return hands, forbid, free, tricks, draw(st.integers(0, seats - 1))


@settings(max_examples=300, deadline=None)
@given(case=small_hands())
def test_the_relaxed_search_agrees_with_a_plain_one_and_keeps_every_real_line(
    case: tuple[list[int], list[int], list[bool], int, int],
) -> None:
    hands, forbid, free, tricks, leader = case
    relaxed = _relaxed(hands, forbid, free, tricks, leader)
    cnt = _counts(hands)
    extra = [s for s in range(len(hands)) if cnt[s].sum() > tricks]
    plain = False
    for u in range(5) if extra else [None]:  # the extra card: any one stays back
        c = cnt.copy()
        if u is not None:
            if not c[extra[0], u]:
                continue
            c[extra[0], u] -= 1
        plain = plain or _plain_relaxed(c, forbid, free, tricks, leader)
    assert relaxed == plain
    if _plain_real(hands, forbid, tricks, leader):  # free seats only add relaxed lines
        assert relaxed


def test_a_seat_that_must_ruff_with_no_card_to_lead_is_refuted() -> None:
    # seat 1 holds seven pinks and submarines 1-3: it plays each submarine on a colour it lacks
    # and takes that trick unless submarine 4 (seat 0's) comes on top, so it takes two at
    # least, and after all but the last it must open the next trick with a pink or a submarine
    hands = [
        "sub4 blue1 blue2 blue3 green1 green2 green3 yellow1 yellow2 yellow3",
        "pink1 pink2 pink3 pink4 pink5 pink6 pink7 sub1 sub2 sub3",
        "pink8 pink9 blue4 blue5 blue6 green4 green5 green6 yellow4 yellow5",
        "blue7 blue8 blue9 green7 green8 green9 yellow6 yellow7 yellow8 yellow9",
    ]
    deal = Deal(4, tuple(mask_of([parse_card(c) for c in h.split()]) for h in hands))
    problem = problem_from_mission(deal, (), get_mission("ds-12"))
    assert leads.refutes(problem)
    res = solve(problem)
    assert (res.verdict, res.reason, res.engine) == ("infeasible", leads.REASON, "counting")


def test_never_lead_cards_forbid_their_owners_colours_only() -> None:
    cards = load_task_cards()
    card3 = cards[2]  # "I will not open a trick with pink, yellow, or blue"
    deal, _ = random_deep_setup(get_mission("ds-1"), 4, np.random.default_rng(3))
    problem = Problem(deal, (), deep_sea=True, deep=(HeldTask(card3, 2),))
    assert leads.forbidden_leads(problem) == [0, 0, 0b1011, 0]
    assert (
        leads.forbidden_leads(problem_from_mission(deal, (), get_mission("ds-12"))) == [0b10001] * 4
    )
    assert leads.forbidden_leads(problem_from_mission(deal, (), get_mission("ds-1"))) is None


def test_deep_sea_12_at_three_players_is_settled() -> None:
    """The exact engines left about a third of these deals undecided; counting settles them,
    and the deals it calls infeasible are exactly the ones without a relaxed line."""
    m = get_mission("ds-12")
    rng = np.random.default_rng(7)
    verdicts = []
    for _ in range(30):
        deal, deep = random_deep_setup(m, 3, rng)
        problem = problem_from_mission(deal, (), m, deep=deep)
        res = solve(problem)
        verdicts.append(res.verdict)
        assert (res.verdict == "infeasible") == leads.refutes(problem)
    assert "unknown" not in verdicts
    assert 5 <= verdicts.count("infeasible") <= 25
