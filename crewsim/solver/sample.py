"""Random deals with random task assignments for feasibility estimates, solved in chunks.

A chunk is (mission, players, seed sequence child, size); chunks are small so that joblib's
dynamic scheduling evens out the heavy-tailed solve times across cores.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from crewsim.missions import get_mission
from crewsim.rules.setup import random_setup
from crewsim.solver.api import problem_from_mission, solve


@dataclass(frozen=True)
class ChunkResult:
    counts: dict[str, int]  # verdict -> deals
    seconds: list[float]


def solve_chunk(mission_id: str, players: int, seed: np.random.SeedSequence, n: int,
                budget: int, second: float = 0.0) -> ChunkResult:
    """Deal ``n`` hands of the mission (uniformly random draft), solve each."""
    mission = get_mission(mission_id)
    rng = np.random.default_rng(seed)
    counts: Counter[str] = Counter()
    secs: list[float] = []
    for _ in range(n):
        deal, tasks = random_setup(players, mission.tasks, tuple(mission.tokens),
                                   int(rng.integers(2**63)))
        res = solve(problem_from_mission(deal, tasks, mission), budget=budget, second=second)
        counts[res.verdict] += 1
        secs.append(res.seconds)
    return ChunkResult(dict(counts), secs)
