"""The PIMC crew (``crewsim.solver.pimc``): its numba encoder states the positions of a game as
the Python solver path does, its games are legal and repeatable, and with the real deal as its
only world it never gives away a game the solver says can still be won."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from crewsim.bots import get_bot
from crewsim.cli.app import app
from crewsim.engine.run import _tables, new_state, run_chunk
from crewsim.errors import CrewsimError
from crewsim.kernel import layout as L
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission, resolve_missions
from crewsim.missions.schema import Mission
from crewsim.runs.folder import config_from_manifest
from crewsim.runs.plan import plan
from crewsim.runs.reader import game_outcomes, load_run
from crewsim.runs.replay import replay, set_up
from crewsim.solver.api import solve
from crewsim.solver.pimc import check_mission, position_verdicts, run_pimc_chunk
from crewsim.solver.problem import Problem, problem_from_mission
from tests.cli.exits import exit_2

BUDGET = 200_000
EASY = {"pn-5"}  # no task, one objective: every position of these games stays winnable
# tasks alone, order tokens (absolute, relative, omega), every objective the crew models,
# the two-player dummy and every crew size
CASES = (
    ("pn-10", 4),
    ("pn-10", 3),
    ("pn-10", 2),
    ("pn-3", 5),
    ("pn-7", 4),
    ("pn-14", 3),
    ("pn-28", 3),
    ("pn-22", 5),
    ("pn-23", 2),
    ("pn-48", 4),
    ("pn-5", 4),
    ("pn-9", 4),
    ("pn-26", 3),
    ("pn-16", 3),
    ("pn-17", 2),
    ("pn-46", 4),
    ("pn-45", 5),
)


def _problem(mission: Mission, players: int, rec: dict[str, np.ndarray], i: int) -> Problem:
    """The Python path's problem of recorded game ``i`` before its first card (after any
    distress pass), as the autopsy builds it."""
    state = set_up(mission, players, rec, i)
    deal = replace(state.deal, hands=tuple(state.hands), dummy_under=tuple(state.under.items()))
    return problem_from_mission(deal, state.tasks, mission, state.designated or None)


def _plays(rec: dict[str, np.ndarray], i: int) -> tuple[int, ...]:
    return tuple(int(c) for c in rec["rec_plays"][i] if c >= 0)


@pytest.mark.parametrize(("mission_id", "players"), CASES)
def test_encoder_agrees_with_the_python_path(mission_id: str, players: int) -> None:
    """At every card play with a choice of a few heuristic games, for every legal card, the
    numba encoder's mid-hand position and the Python path's whole hand with the plays made as
    ``prefix`` get the same verdict (where both searches settle within the budget)."""
    mission = get_mission(mission_id)
    mp = KernelMission(mission, players, distress="never").vector()
    bp = get_bot("heuristic").vector()
    n, seed = 3, 7 * mission.number + players
    out = np.zeros((2000, 4), dtype=np.int64)
    tab, codes = _tables(mp)
    rows = position_verdicts(new_state(), mp, bp, tab, codes, n, np.int64(seed), BUDGET, out)
    assert 0 < rows < len(out)
    rec = run_chunk(mp, bp, n, seed, record=True)
    problems = [_problem(mission, players, rec, i) for i in range(n)]
    compared = 0
    lost = won = 0
    for gi, before, card, verdict in out[:rows]:
        plays = _plays(rec, int(gi))
        assert before < len(plays) and card in range(40)
        prefix = (*plays[:before], int(card))
        result = solve(replace(problems[gi], prefix=prefix), budget=BUDGET, conflicts=0)
        if verdict == 1 or result.verdict == "unknown":
            continue
        where = f"{mission_id} {players}p game {gi} after {before} plays, card {card}"
        assert (verdict == 2) == (result.verdict == "feasible"), where
        compared += 1
        won += verdict == 2
        lost += verdict == 0
    assert compared >= 20
    assert won > 0 and (lost > 0 or mission_id in EASY)


def _pimc(worlds: int) -> np.ndarray:
    bp = get_bot("pimc").vector()
    bp[L.BP_PIMC_WORLDS] = worlds
    return bp


@pytest.mark.parametrize(("mission_id", "players"), [("pn-10", 4), ("pn-28", 3), ("pn-9", 2)])
def test_pimc_games_replay_through_the_referee(mission_id: str, players: int) -> None:
    """Every move of the PIMC crew's games is legal for the referee, which reaches the same
    outcome on the same trick."""
    mission = get_mission(mission_id)
    mp = KernelMission(mission, players, distress="auto").vector()
    n = 6
    rec = run_pimc_chunk(mp, _pimc(4), n, 1000 * mission.number + players, record=True)
    for i in range(n):
        state = replay(mission, players, rec, i)
        out = state.outcome
        kernel = (
            bool(rec["success"][i]),
            int(rec["fail_trick"][i]),
            L.FAIL_REASONS[int(rec["fail_kind"][i])],
        )
        assert out is not None and (out.success, out.trick, out.kind) == kernel


def test_same_seed_same_games() -> None:
    mp = KernelMission(get_mission("pn-10"), 4).vector()
    a = run_pimc_chunk(mp, _pimc(4), 8, 42, record=True)
    b = run_pimc_chunk(mp, _pimc(4), 8, 42, record=True)
    for key in ("success", "rec_plays", "rec_comms", "rec_tasks"):
        assert (a[key] == b[key]).all(), key


def test_pimc_meets_the_same_deals_and_set_up_as_the_heuristic() -> None:
    """Deals, task draft and communication before the first card are the heuristic's."""
    mp = KernelMission(get_mission("pn-10"), 4, distress="never").vector()
    a = run_pimc_chunk(mp, _pimc(2), 10, 5, record=True)
    b = run_chunk(mp, get_bot("heuristic").vector(), 10, 5, record=True)
    for key in ("rec_hands", "rec_tasks", "rec_setup"):
        assert (a[key] == b[key]).all(), key


@pytest.mark.parametrize(("mission_id", "players"), [("pn-10", 4), ("pn-28", 3), ("pn-16", 5)])
def test_the_real_deal_as_only_world_never_throws_a_game_away(
    mission_id: str, players: int
) -> None:
    """With the real deal as its one world, the crew's card after a position the (Python path)
    solver can still win keeps it winnable: no card play turns won into lost."""
    mission = get_mission(mission_id)
    mp = KernelMission(mission, players, distress="never").vector()
    n = 6
    bp = _pimc(1)
    bp[L.BP_PIMC_BUDGET] = BUDGET
    rec = run_pimc_chunk(mp, bp, n, 11, record=True, oracle=True)
    checked = 0
    for i in range(n):
        problem = _problem(mission, players, rec, i)
        plays = _plays(rec, i)
        start = solve(problem, budget=BUDGET, conflicts=0).verdict
        if start != "feasible":
            continue
        assert rec["success"][i], f"{mission_id} {players}p game {i}: a winnable deal lost"
        for k in range(len(plays)):  # every prefix of a won game stays winnable
            verdict = solve(replace(problem, prefix=plays[: k + 1]), budget=BUDGET, conflicts=0)
            assert verdict.verdict != "infeasible", f"game {i}: play {k} threw it away"
            checked += 1
    assert checked > 0


def test_missions_it_cannot_model_are_refused_in_one_line() -> None:
    refused = {}
    for mission in resolve_missions("all"):
        mp = KernelMission(mission, 4).vector()
        try:
            check_mission(mp, mission.id)
        except CrewsimError as exc:
            refused[mission.id] = str(exc)
    assert "pn-12" in refused and "ds-1" in refused and "pn-10" not in refused
    assert refused["ds-1"].startswith("mission 'ds-1': the pimc crew cannot play it")
    assert all("\n" not in m for m in refused.values())


@pytest.mark.parametrize(
    ("mission_id", "why"),
    [("ds-1", "Deep Sea is not modelled"), ("pn-13", "objective each_trump_wins")],
)
def test_simulate_refuses_a_mission_it_cannot_model(
    mission_id: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", mission_id, "-p", "4", "-n", "5", "--bot", "pimc"]
    line = exit_2([*argv, "--out", str(tmp_path / "run")], capsys)
    assert line.startswith(f"error: mission '{mission_id}': the pimc crew cannot play it")
    assert why in line
    assert not (tmp_path / "run").exists()


def test_simulate_plays_the_pimc_crew(tmp_path: Path) -> None:
    """``crewsim simulate --bot pimc`` plays its games with this crew's chunk function (the
    engine's would play the heuristic's cards): each game's outcome is the one
    ``run_pimc_chunk`` gives for the chunk's seed."""
    out = tmp_path / "run"
    argv = ["simulate", "pn-10", "-p", "4", "-n", "6", "--seed", "3", "--bot", "pimc", "-j", "1"]
    result = CliRunner().invoke(app, [*argv, "--distress", "never", "--out", str(out)])
    assert result.exit_code == 0, result.output
    config = config_from_manifest(out)
    mp = config.mission_vector(config.cells()[0])
    wins = []
    for task in plan(config):
        res = run_pimc_chunk(mp, config.bot.vector(), task.games, task.seed)
        wins += res["success"].tolist()
    assert game_outcomes(load_run(out))["success"].to_list() == wins
    with pytest.raises(CrewsimError, match="pimc"):  # the engine's loop would play the heuristic
        run_chunk(mp, config.bot.vector(), 6, plan(config)[0].seed)
