"""Move ordering: the leads that can complete a task come first (``good_leads``), so a rigged
deal whose only quick line needs such a lead is won within one trick's worth of plays.  Only an
order: every legal card is still tried (the prunes-on/off and exhaustive-search agreement
tests and the referee replays cover verdicts and lines)."""

from __future__ import annotations

from crewsim.cards import parse_card
from crewsim.rules.game import TaskSpec
from crewsim.solver.api import solve
from crewsim.solver.problem import Problem, Result
from tests.solver.helpers import deal4, replay


def _won_in_one_trick(problem: Problem) -> Result:
    """Solved with a budget of one trick's plays, and the line wins through the referee."""
    res = solve(problem, budget=4, conflicts=0)
    assert res.verdict == "feasible" and res.nodes == 4
    g = replay(problem, res)
    assert g.outcome is not None and g.outcome.success, g.trace()
    return res


def test_a_lead_that_lets_the_task_card_fall_to_its_owner_comes_first() -> None:
    # seat 2 must win blue1, held by seat 3, which has no pink: the commander (seat 0) leads a
    # pink, seat 2 wins it with its only pink (pink9) and seat 3 discards blue1 on it.  Tried
    # first, that wins in 4 plays; the old order (highest card first: rocket4) needs more.
    deal = deal4(
        "pink1 pink2 pink8 green1 green2 green3 yellow1 yellow2 yellow3 rocket4",
        "pink3 pink4 pink5 pink6 pink7 green4 green5 yellow4 yellow5 rocket1",
        "pink9 blue2 blue3 blue4 green6 green7 yellow6 yellow7 rocket2 rocket3",
        "blue1 blue5 blue6 blue7 blue8 blue9 green8 green9 yellow8 yellow9",
    )
    problem = Problem(deal, (TaskSpec(parse_card("blue1"), None, 2),))
    res = _won_in_one_trick(problem)
    first = res.tricks[0]
    assert first[0] != parse_card("rocket4") and first[3] == parse_card("blue1")


def test_the_leaders_own_task_card_that_no_one_must_beat_comes_first() -> None:
    # seat 0 owns its green9: every other seat holds a lower green or none (and a colour card
    # to discard), so leading it wins the task at once
    deal = deal4(
        "green9 pink1 pink2 pink3 blue1 blue2 yellow1 yellow2 yellow3 rocket4",
        "green1 green2 pink4 pink5 pink6 blue3 blue4 yellow4 yellow5 rocket1",
        "green3 green4 green5 pink7 pink8 blue5 blue6 yellow6 rocket2 rocket3",
        "green6 green7 green8 pink9 blue7 blue8 blue9 yellow7 yellow8 yellow9",
    )
    problem = Problem(deal, (TaskSpec(parse_card("green9"), None, 0),))
    _won_in_one_trick(problem)


def test_a_task_card_is_dumped_for_an_owner_still_to_play_who_can_take_the_trick() -> None:
    # seat 3 must win yellow9, held by seat 1, which has no pink: the commander leads a pink,
    # seat 1 discards yellow9 at once (its owner, last to play, holds pink9), seat 2 plays low
    # and seat 3 takes the trick
    deal = deal4(
        "pink1 pink2 pink3 green1 green2 green3 yellow1 yellow2 yellow3 rocket4",
        "blue1 blue2 blue3 blue4 green4 green5 green6 yellow4 yellow9 rocket1",
        "pink4 pink5 pink6 pink7 pink8 blue5 blue6 green7 green8 rocket2",
        "pink9 blue7 blue8 blue9 green9 yellow5 yellow6 yellow7 yellow8 rocket3",
    )
    problem = Problem(deal, (TaskSpec(parse_card("yellow9"), None, 3),))
    res = _won_in_one_trick(problem)
    assert res.tricks[0][1] == parse_card("yellow9")
