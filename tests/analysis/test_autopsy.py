"""The loss autopsy: every decisive play is proven by replay, set-up kinds by the solver."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from crewsim.analysis.autopsy import KINDS, PLAY_KINDS, examine, examine_play
from crewsim.bots import get_bot
from crewsim.engine.run import run_chunk
from crewsim.missions import resolve_missions
from crewsim.missions.schema import Mission
from crewsim.rules.deal import Deal
from crewsim.rules.game import GameState, Rules, TaskSpec
from crewsim.rules.setup import random_setup
from crewsim.runs.ceiling import problem_of
from crewsim.runs.plan import RunConfig
from crewsim.runs.replay import set_up
from crewsim.solver.api import solve
from crewsim.solver.problem import problem_from_mission

# Planet Nine at 4 players and with the two-player dummy, a designation objective at 5 players
# with the task hand-over, Deep Sea's task cards at 4 and its free selection at 3
CELLS = [("pn-10", 4, 40), ("pn-30", 2, 40), ("pn-40", 5, 30), ("ds-20", 4, 20), ("ds-17", 3, 20)]


@pytest.mark.parametrize(("mission_id", "players", "n"), CELLS)
def test_each_decisive_play_is_winnable_before_and_lost_after(
    mission_id: str, players: int, n: int
) -> None:
    """For each lost game: a decisive play leaves a position the solver cannot win, the one
    before it can be won, and the solver's alternative replays through the referee as a
    win; a game lost at set-up cannot be won from its first card; kinds are known."""
    mission = resolve_missions(mission_id)[0]
    config = RunConfig((mission,), (players,), n, get_bot("heuristic"), seed=7)
    cell = config.cells()[0]
    rec = run_chunk(config.mission_vector(cell), config.bot.vector(), n, 99, record=True)
    lost = [i for i in range(n) if not rec["success"][i]]
    assert lost
    for i in lost:
        exam = examine(mission, players, rec, i, i)
        f = exam.finding
        assert f.kind in KINDS
        start = replace(problem_of(mission, players, rec, i), predictions_made=True)
        if f.kind not in PLAY_KINDS:
            if f.kind != "undecided":
                assert solve(start).verdict == "infeasible"
            if f.kind in ("draft", "distress", "prediction"):  # some set-up wins the deal
                assert exam.setup is not None and exam.setup.verdict == "feasible"
            continue
        k = exam.plays.index(f.card)
        assert solve(replace(start, prefix=exam.plays[:k])).verdict == "feasible"
        assert solve(replace(start, prefix=exam.plays[: k + 1])).verdict == "infeasible"
        assert exam.line[:k] == exam.plays[:k] and exam.line[k] == f.alternative != f.card
        state = set_up(mission, players, rec, i)
        for card in exam.line:
            if state.outcome is not None:  # a line may run on past the trick that wins
                break
            state.play(state.to_play, card)
        assert state.outcome is not None and state.outcome.success
        assert 1 <= f.trick <= f.failed_trick


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_known_blunder_is_found(seed: int) -> None:
    """Follow a winning line, then play the first card that throws the game away (the solver
    says no line wins after it) and any legal cards until the game is lost: the autopsy
    names exactly that card, its trick and its kind."""
    mission = resolve_missions("pn-10")[0]
    deal, tasks = random_setup(4, 4, (), seed)
    start = GameState(deal, list(tasks), Rules.of(mission))
    problem = problem_from_mission(deal, tasks, mission)
    line = solve(problem).plays
    blunder = next(
        (k, c)
        for k in range(len(line))
        for c in _legal(deal, tasks, mission, line[:k])
        if solve(replace(problem, prefix=(*line[:k], c))).verdict == "infeasible"
    )
    k, card = blunder
    game = GameState(deal, list(tasks), Rules.of(mission))
    for c in (*line[:k], card):
        game.play(game.to_play, c)
    rng = np.random.default_rng(seed)
    plays = [*line[:k], card]
    while game.outcome is None:
        c = int(rng.choice(_legal_now(game)))
        game.play(game.to_play, c)
        plays.append(c)
    before = GameState(deal, list(tasks), Rules.of(mission))
    exam = examine_play(mission, start, before, tuple(plays))
    assert (exam.finding.trick, exam.finding.card) == (k // 4 + 1, card)
    led = plays[k - k % 4]
    kind = "follow" if card // 9 == led // 9 else ("trump" if card >= 36 else "discard")
    assert exam.finding.kind == ("lead" if k % 4 == 0 else kind)


def _legal(deal: Deal, tasks: list[TaskSpec], mission: Mission, made: list[int]) -> list[int]:
    g = GameState(deal, list(tasks), Rules.of(mission))
    for c in made:
        g.play(g.to_play, c)
    return _legal_now(g)


def _legal_now(g: GameState) -> list[int]:
    return [c for c in range(40) if g.can_play(g.to_play, c)]
