"""The trick-boundary bound refutes rigged deals before any card is played (0 nodes), and the
CP-SAT engine agrees that they are lost.  Each deal is built so that only one rule of
``_earliest`` / ``_bound_cut`` can see it; the small-deck and prunes-on/off agreement tests
exercise the same rules on thousands of random positions."""

from __future__ import annotations

from crewsim.cards import parse_card
from crewsim.rules.game import TaskSpec
from crewsim.solver.api import Problem, solve
from crewsim.solver.cpsat import solve_cpsat
from tests.solver.helpers import deal4


def _refuted_at_the_root(problem: Problem) -> None:
    res = solve(problem, budget=1, second=0)
    assert res.verdict == "infeasible" and res.nodes == 0
    verdict, _ = solve_cpsat(problem, 60.0)  # an independent engine agrees
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
