"""Random deals with their task assignments for feasibility estimates, solved in chunks.

A chunk is (mission, players, seed sequence child, size); chunks are small so that joblib's
dynamic scheduling evens out the heavy-tailed solve times across cores.

Three drafts give the task assignments: ``random`` (each task to a uniformly random seat,
the default; Deep Sea cards are drawn up to the mission's difficulty first), ``free`` (the
solver chooses them within the mission's allocation rule, ``solver.free_choice``) and
``heuristic`` (the heuristic bot crew's draft in the kernel: the chunk's games are played with
their moves recorded and rebuilt as solver problems by ``crewsim.runs.ceiling.problem_of``,
the same machinery as ``simulate --ceiling``, so the hands are those after any distress pass
and the designations those the commander made).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from crewsim.cards import Game
from crewsim.missions import get_mission, load_task_cards
from crewsim.missions.schema import Mission
from crewsim.rules.deal import Deal, deal_cards
from crewsim.rules.deep_sea_setup import draw_tasks, needs_redeal
from crewsim.rules.setup import random_setup
from crewsim.rules.task_cards import HeldTask
from crewsim.solver.api import solve, warm_up
from crewsim.solver.free_choice import freed
from crewsim.solver.problem import Problem, problem_from_mission

DRAFTS = ("random", "heuristic", "free")
DRAFT_BOT = "heuristic"  # the bot crew whose draft ``--draft heuristic`` uses


@dataclass(frozen=True)
class ChunkResult:
    counts: dict[str, int]  # verdict -> deals
    seconds: list[float]
    bot_wins: int = 0  # games the drafting bots won (heuristic draft only)
    won_but_infeasible: int = 0  # must stay 0: a deal the bots won is feasible
    by_sat: int = 0  # deals the SAT engine decided (the search left them open)


def _random_problems(
    mission: Mission, players: int, seed: np.random.SeedSequence, n: int
) -> Iterator[tuple[Problem, bool]]:
    """Uniformly random deals and owners (no bot won them: False)."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        if mission.game is Game.DEEP_SEA:
            deal, deep = random_deep_setup(mission, players, rng)
            yield problem_from_mission(deal, (), mission, deep=deep), False
            continue
        deal, tasks = random_setup(
            players, mission.tasks, tuple(mission.tokens), int(rng.integers(2**63))
        )
        yield problem_from_mission(deal, tasks, mission), False


def random_deep_setup(
    mission: Mission, players: int, rng: np.random.Generator
) -> tuple[Deal, list[HeldTask]]:
    """A Deep Sea hand: the mission's fixed cards or a draw up to its difficulty, dealt again
    while a drawn card says so, each card to a uniformly random seat."""
    cards = load_task_cards()
    drawn = [cards[k - 1] for k in mission.fixed_tasks]  # card k is row k - 1
    if mission.uses_task_draw:
        drawn = draw_tasks(cards, mission.difficulty, players, rng)
    deal = deal_cards(players, rng)
    for _ in range(100):  # the kernel's limit on redeals
        if not needs_redeal(drawn, deal.hands):
            break
        deal = deal_cards(players, rng)
    return deal, [HeldTask(c, int(rng.integers(deal.seats))) for c in drawn]


def _free_problems(
    mission: Mission, players: int, seed: np.random.SeedSequence, n: int
) -> Iterator[tuple[Problem, bool]]:
    """Random deals whose tasks the solver gives out itself, within the mission's rule."""
    for problem, won in _random_problems(mission, players, seed, n):
        yield freed(problem, mission), won


def _heuristic_problems(
    mission: Mission, players: int, seed: np.random.SeedSequence, n: int
) -> Iterator[tuple[Problem, bool]]:
    """The kernel's deals with the heuristic crew's draft, and whether the crew won each."""
    from crewsim.bots import get_bot
    from crewsim.engine.run import run_chunk
    from crewsim.kernel.spec import KernelMission
    from crewsim.runs.ceiling import problem_of
    from crewsim.runs.plan import chunk_seed

    rec = run_chunk(
        KernelMission(mission, players).vector(),
        get_bot(DRAFT_BOT).vector(),
        n,
        chunk_seed(seed),
        record=True,
    )
    for i in range(n):
        yield problem_of(mission, players, rec, i), bool(rec["success"][i])


def solve_chunk(
    mission_id: str,
    players: int,
    seed: np.random.SeedSequence,
    n: int,
    budget: int,
    conflicts: int = 0,
    draft: str = "random",
) -> ChunkResult:
    """Deal ``n`` hands of the mission, draft its tasks (``random`` or ``heuristic``), solve."""
    if draft not in DRAFTS:
        raise ValueError(f"draft must be one of {', '.join(DRAFTS)}, got {draft!r}")
    mission = get_mission(mission_id)
    make = {"random": _random_problems, "heuristic": _heuristic_problems, "free": _free_problems}[
        draft
    ]
    counts: Counter[str] = Counter()
    secs: list[float] = []
    wins = won_infeasible = by_sat = 0
    for k, (problem, won) in enumerate(make(mission, players, seed, n)):
        if k == 0:  # so the chunk's first time is a solve, not loading the compiled search
            warm_up(problem, budget, conflicts)
        res = solve(problem, budget=budget, conflicts=conflicts)
        # a deal the bots won is winnable, whatever the budget left open (as the ceiling counts)
        counts["feasible" if won and res.verdict == "unknown" else res.verdict] += 1
        secs.append(res.seconds)
        wins += won
        won_infeasible += won and res.verdict == "infeasible"
        by_sat += res.engine == "sat"
    return ChunkResult(dict(counts), secs, wins, won_infeasible, by_sat)
