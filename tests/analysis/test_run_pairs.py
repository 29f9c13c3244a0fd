"""Two run folders paired game by game: the same deals, the statistics per cell, refusals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from crewsim.analysis.run_pairs import compare_runs, paired_games
from crewsim.engine.run import run_chunk
from crewsim.errors import CrewsimError
from crewsim.runs.plan import cell_key, plan_chunks
from crewsim.runs.reader import game_outcomes, load_run
from tests.analysis.crews import CHUNK, SEED


def test_a_run_against_itself_differs_nowhere(crew_runs: dict[str, Path]) -> None:
    result = compare_runs(crew_runs["heuristic"], crew_runs["heuristic"])
    cells = result.cells
    assert result.games == 120 and cells.height == 6 and set(cells["games"]) == {120}
    assert (cells["only_a"] == 0).all() and (cells["only_b"] == 0).all()
    assert (cells["difference"] == 0).all() and (cells["mcnemar_p"] == 1).all()
    assert (cells["difference_low"] < 0).all() and (cells["difference_high"] > 0).all()
    assert result.moves.is_empty()


def test_a_shorter_run_of_the_same_crew_is_its_first_games(crew_runs: dict[str, Path]) -> None:
    """70 games cross the first chunk of 50: the second run's games 50-69 are the first's."""
    result = compare_runs(crew_runs["heuristic"], crew_runs["heuristic_short"])
    assert result.games == 70 and set(result.cells["games"]) == {70}
    assert (result.cells["only_a"] + result.cells["only_b"] == 0).all()


def test_game_i_is_the_same_deal_for_both_crews(crew_runs: dict[str, Path]) -> None:
    """The outcomes are read in deal order (chunk by chunk), and game 50 + i of a cell is the
    deal the second chunk's seed deals i-th, whichever crew plays it."""
    heuristic, rand = load_run(crew_runs["heuristic"]), load_run(crew_runs["random"])
    key = cell_key("pn-2", 4)
    second = next(t for t in plan_chunks([key], 120, SEED, CHUNK) if t.index == 1)
    mp = next(c["mission_vector"] for c in heuristic.manifest["cells"] if c["key"] == key)
    bots = [np.array(r.manifest["bot"]["vector"]) for r in (heuristic, rand)]
    records = [run_chunk(np.array(mp), bp, 20, second.seed, record=True) for bp in bots]
    assert (records[0]["rec_hands"] == records[1]["rec_hands"]).all()
    for run, rec in zip((heuristic, rand), records, strict=True):
        games = game_outcomes(run).filter((pl.col("mission") == "pn-2") & (pl.col("players") == 4))
        assert games["game"].to_list() == list(range(run.games_per_cell))
        assert games["success"][CHUNK : CHUNK + 20].to_list() == rec["success"].tolist()


def test_heuristic_against_random(crew_runs: dict[str, Path]) -> None:
    result = compare_runs(crew_runs["heuristic"], crew_runs["random"])
    cells = result.cells
    assert result.games == 70
    assert cells.select("players", "mission").rows() == [
        (3, "pn-1"),
        (3, "pn-2"),
        (3, "pn-3"),
        (4, "pn-1"),
        (4, "pn-2"),
        (4, "pn-3"),
    ]
    pairs = paired_games(load_run(crew_runs["heuristic"]), load_run(crew_runs["random"]))
    one = pairs.filter((pl.col("mission") == "pn-1") & (pl.col("players") == 3))
    row = cells.row(0, named=True)
    assert row["wins_a"] == one["success_a"].sum() and row["wins_b"] == one["success_b"].sum()
    assert row["only_a"] == (one["success_a"] & ~one["success_b"]).sum()
    assert (cells["wins_a"] > cells["wins_b"]).all()  # the heuristic crew wins far more
    assert (cells["mcnemar_p"] < 0.01).all() and (cells["difference_low"] > 0).all()
    assert result.agreement["players"].to_list() == [3, 4]
    assert set(result.agreement["missions"]) == {3}


def test_the_search_crew_pairs_with_the_heuristic(crew_runs: dict[str, Path]) -> None:
    result = compare_runs(crew_runs["search"], crew_runs["heuristic"], "pn-2,pn-3", [4])
    assert result.cells.select("players", "mission", "games").rows() == [
        (4, "pn-2", 12),
        (4, "pn-3", 12),
    ]
    assert result.a.bot == "search" and result.b.bot == "heuristic"


def test_runs_of_another_seed_are_refused(crew_runs: dict[str, Path]) -> None:
    a, b = crew_runs["heuristic"], crew_runs["other_seed"]
    with pytest.raises(CrewsimError) as err:
        compare_runs(a, b)
    message = str(err.value)
    assert f"{a} (root_seed 5) and {b} (root_seed 6) do not deal the same games" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("distress", "never", "(distress auto)"),
        ("chunk_size", 60, "(chunk_size 50)"),
    ],
)
def test_another_distress_setting_or_chunk_plan_is_refused(
    crew_runs: dict[str, Path], tmp_path: Path, field: str, value: object, said: str
) -> None:
    other = tmp_path / "other"
    shutil.copytree(crew_runs["heuristic_short"], other)
    doc = json.loads((other / "manifest.json").read_text())
    doc[field] = value
    (other / "manifest.json").write_text(json.dumps(doc))
    with pytest.raises(CrewsimError, match="do not deal the same games") as err:
        compare_runs(crew_runs["heuristic"], other)
    assert said in str(err.value) and field in str(err.value)


def test_other_mission_data_are_refused(crew_runs: dict[str, Path], tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(crew_runs["heuristic_short"], other)
    doc = json.loads((other / "manifest.json").read_text())
    doc["cells"][0]["mission_record"]["communication"] = "none"
    doc["cells"][1]["mission_record"]["description"] = "words change no game"
    (other / "manifest.json").write_text(json.dumps(doc))
    with pytest.raises(CrewsimError, match="the mission data of pn-1 differ"):
        compare_runs(crew_runs["heuristic"], other)


@pytest.mark.parametrize(
    ("missions", "players", "said"),
    [
        ("pn-9", None, "unknown mission id 'pn-9' (known: pn-1..pn-3)"),
        ("deep-sea", None, "share none of the missions 'deep-sea'"),
        (None, [5], "share no games at 5 players"),
    ],
)
def test_asking_for_what_both_runs_lack(
    crew_runs: dict[str, Path], missions: str | None, players: list[int] | None, said: str
) -> None:
    with pytest.raises(CrewsimError, match=said.replace("(", r"\(").replace(")", r"\)")):
        compare_runs(crew_runs["heuristic"], crew_runs["random"], missions, players)
