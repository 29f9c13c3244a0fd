"""The trick-boundary bound refutes rigged deals before any card is played (0 nodes), and the
SAT engine agrees that they are lost.  Each deal is built so that only one rule of
``_earliest`` / ``bound_cut`` can see it; the small-deck and prunes-on/off agreement tests
exercise the same rules on thousands of random positions."""

from __future__ import annotations

from crewsim.cards import parse_card
from crewsim.rules.game import TaskSpec
from crewsim.solver.api import solve
from crewsim.solver.problem import Problem
from crewsim.solver.sat import solve_sat
from tests.solver.helpers import deal4


def _refuted_at_the_root(problem: Problem) -> None:
    res = solve(problem, budget=1, conflicts=0)
    assert res.verdict == "infeasible" and res.nodes == 0
    verdict = solve_sat(problem, 10**7)[0]  # an independent engine agrees
    assert verdict == "infeasible"


def test_two_owners_who_each_must_wait_for_the_other() -> None:
    # seat 0 must win with its own blue2, so seat 1 (blue3 blue4, nothing lower) must be void
    # in blue first: blue3 before blue2.  Seat 1 must win with its own blue3, and seat 0's
    # only lower blue is blue2, another owner's task card it may not give away: seat 0 must
    # be void in blue first, blue2 before blue3.  A cycle.
    deal = deal4(
        "blue2 pink1 pink2 pink3 green1 green2 green3 yellow1 yellow2 rocket1",
        "blue3 blue4 pink4 pink5 green4 green5 yellow3 yellow4 yellow5 rocket2",
        "blue5 blue6 pink6 pink7 green6 green7 yellow6 yellow7 rocket3 rocket4",
        "blue7 blue8 blue9 pink8 pink9 green8 green9 yellow8 yellow9 blue1",
    )
    tasks = (TaskSpec(parse_card("blue2"), None, 0), TaskSpec(parse_card("blue3"), None, 1))
    _refuted_at_the_root(Problem(deal, tasks))


def test_a_void_seat_with_only_trumps_and_other_owners_task_cards() -> None:
    # seat 0 must win with its own blue5; seat 1 holds no lower blue, so once void in blue
    # it can only play a trump (beats blue5) or one of seat 2's task cards (lost to seat 0)
    deal = deal4(
        "blue5 blue1 pink5 pink6 green1 green2 green3 yellow1 yellow2 yellow3",
        "blue7 blue8 blue9 rocket1 rocket2 rocket3 pink1 pink2 pink3 pink4",
        "blue2 blue3 pink7 green4 green5 green6 yellow4 yellow5 yellow6 rocket4",
        "blue4 blue6 pink8 pink9 green7 green8 green9 yellow7 yellow8 yellow9",
    )
    tasks = (TaskSpec(parse_card("blue5"), None, 0),) + tuple(
        TaskSpec(parse_card(f"pink{v}"), None, 2) for v in (1, 2, 3, 4)
    )
    _refuted_at_the_root(Problem(deal, tasks))


def test_order_tokens_push_tasks_past_the_last_trick() -> None:
    # seat 0 must win with its own blue1 after seat 1 has shed eight blues: trick 9 at the
    # earliest; "2" and "3" (other owners) then need tricks 10 and 11 of 10.
    deal = deal4(
        "blue1 pink1 pink2 pink3 green1 green2 yellow1 yellow2 yellow3 rocket1",
        "blue2 blue3 blue4 blue5 blue6 blue7 blue8 blue9 pink4 green3",
        "pink5 pink6 pink7 green4 green5 green6 yellow4 yellow5 rocket2 rocket4",
        "pink8 pink9 green7 green8 green9 yellow6 yellow7 yellow8 yellow9 rocket3",
    )
    tasks = (
        TaskSpec(parse_card("blue1"), "1", 0),
        TaskSpec(parse_card("pink9"), "2", 3),
        TaskSpec(parse_card("green9"), "3", 2),
    )
    _refuted_at_the_root(Problem(deal, tasks))


def test_an_owner_with_too_few_cards_to_follow_the_tricks_it_must_wait_for() -> None:
    # seat 0 must win with its own pink2, so seat 1 (pink8 pink9, nothing lower) must be void
    # in pink first; seat 1 must win with its own pink8 and pink9, two pink tricks, and in each
    # seat 0, still holding pink2, must follow with a lower pink that is not its task card:
    # it has only pink3 (``suit_orders``)
    deal = deal4(
        "pink2 pink3 blue1 blue2 blue3 green1 green2 green3 yellow1 rocket1",
        "pink8 pink9 blue4 blue5 blue6 green4 green5 green6 yellow2 yellow3",
        "pink1 pink4 pink5 blue7 blue8 green7 green8 yellow4 yellow5 rocket2",
        "pink6 pink7 blue9 green9 yellow6 yellow7 yellow8 yellow9 rocket3 rocket4",
    )
    tasks = (
        TaskSpec(parse_card("pink2"), None, 0),
        TaskSpec(parse_card("pink8"), None, 1),
        TaskSpec(parse_card("pink9"), None, 1),
    )
    _refuted_at_the_root(Problem(deal, tasks))


def test_no_order_of_three_own_card_tasks_of_one_suit() -> None:
    # seats 1, 2, 3 must win with their own green6, green4, green5, three green tricks.
    # Seat 1 can follow with nothing lower than green4 or green5 (green7, green8): green6
    # comes first.  Seat 2 (green3 green9 besides green4) then has one card to follow with,
    # green3, and seat 3 (green1 besides green5) too: after green6's trick neither can follow
    # in the other's (``suit_orders`` over every order)
    deal = deal4(
        "pink3 pink4 pink5 blue4 blue9 green2 yellow5 yellow7 yellow8 yellow9",
        "pink7 blue3 blue6 blue8 green6 green7 green8 yellow2 yellow6 rocket1",
        "pink6 pink9 blue1 blue2 blue7 green3 green4 green9 yellow1 rocket4",
        "pink1 pink2 pink8 blue5 green1 green5 yellow3 yellow4 rocket2 rocket3",
    )
    tasks = tuple(
        TaskSpec(parse_card(c), None, o) for c, o in (("green6", 1), ("green4", 2), ("green5", 3))
    )
    _refuted_at_the_root(Problem(deal, tasks))
