"""`feasibility`'s sampler: deals, their task assignments, and how a verdict is counted."""

from __future__ import annotations

import numpy as np

from crewsim.analysis.feasibility import solve_chunk


def test_a_deal_the_drafting_crew_won_counts_as_feasible_when_the_solver_is_cut_short() -> None:
    """A budget too small to decide leaves deals open; those the bots won are winnable all the
    same, and the ceiling of `simulate` counts them so: both commands give one answer."""
    seed = np.random.SeedSequence(5)
    short = solve_chunk("pn-10", 4, seed, 60, budget=1, conflicts=0, draft="heuristic")
    full = solve_chunk("pn-10", 4, seed, 60, budget=2_000_000, conflicts=0, draft="heuristic")
    assert short.bot_wins == full.bot_wins > 0
    assert short.counts == {"feasible": short.bot_wins, "unknown": 60 - short.bot_wins}
    assert full.counts.get("unknown", 0) == 0 and full.won_but_infeasible == 0
