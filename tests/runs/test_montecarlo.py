"""Planning, seeding and streaming of Monte Carlo runs: same seed, same numbers, any --jobs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from crewsim.bots import get_bot
from crewsim.errors import CrewsimError
from crewsim.kernel import layout as L
from crewsim.missions import resolve_missions
from crewsim.runs.montecarlo import run
from crewsim.runs.plan import RunConfig, plan, plan_chunks
from crewsim.runs.reader import load_run

CHUNK = 2000


def _config(games: int = 5000, jobs: int = 1, **kw: object) -> RunConfig:
    return RunConfig(
        missions=tuple(resolve_missions("pn-1,pn-5")),
        players=(3, 4),
        games=games,
        bot=get_bot("heuristic"),
        seed=kw.pop("seed", 11),  # type: ignore[arg-type]
        jobs=jobs,
        chunk_size=CHUNK,
        **kw,  # type: ignore[arg-type]
    )


def test_plan_is_fixed_size_chunks_with_a_smaller_last_one() -> None:
    tasks = plan(_config(games=5000))
    assert len(tasks) == 4 * 3
    assert [t.games for t in tasks[:3]] == [2000, 2000, 1000]
    assert [t.key for t in tasks[::3]] == ["pn-1-3p", "pn-1-4p", "pn-5-3p", "pn-5-4p"]
    seeds = [t.seed for t in tasks]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < 2**63 for s in seeds)


def test_seeds_follow_seed_sequence_and_not_jobs() -> None:
    tasks = plan_chunks(["pn-1-3p", "pn-7-4p"], 5, root_seed=7, chunk_size=2)
    key = int.from_bytes(b"pn-7-4p", "big")
    child = np.random.SeedSequence(7, spawn_key=(key,)).spawn(3)[2]
    assert tasks[-1].seed == int(child.generate_state(1, np.uint64)[0]) & (2**63 - 1)
    assert plan(_config(jobs=1)) == plan(_config(jobs=2))
    assert plan(_config(seed=12)) != plan(_config())


def test_a_cell_gets_the_same_seeds_whatever_else_is_in_the_run() -> None:
    alone = RunConfig(
        missions=tuple(resolve_missions("pn-5")),
        players=(4,),
        games=5000,
        bot=get_bot("heuristic"),
        seed=11,
        jobs=1,
        chunk_size=CHUNK,
    )
    in_company = [(t.index, t.seed) for t in plan(_config()) if t.key == "pn-5-4p"]
    assert [(t.index, t.seed) for t in plan(alone)] == in_company


def test_same_seed_same_summary_for_one_and_two_jobs(tmp_path: Path) -> None:
    one = run(_config(jobs=1), tmp_path / "one")
    two = run(_config(jobs=2), tmp_path / "two")
    assert_frame_equal(one.summary, two.summary)
    assert_frame_equal(one.failures, two.failures)
    assert one.games == 4 * 5000
    for key in ("pn-1-4p-00001", "pn-5-3p-00002"):
        a = pl.read_parquet(tmp_path / "one" / "chunks" / f"{key}.parquet")
        b = pl.read_parquet(tmp_path / "two" / "chunks" / f"{key}.parquet")
        assert_frame_equal(a, b)


def test_run_folder_contents(tmp_path: Path) -> None:
    result = run(_config(games=3000), tmp_path)
    files = sorted(p.name for p in (tmp_path / "chunks").iterdir())
    names = [
        f"{c}-{k:05d}.parquet" for c in ("pn-1-3p", "pn-1-4p", "pn-5-3p", "pn-5-4p") for k in (0, 1)
    ]
    assert files == sorted([*names, *(f"{n}.sha256" for n in names)])
    games = pl.read_parquet(tmp_path / "chunks" / "pn-5-4p-00001.parquet")
    assert games.height == 1000
    assert games.columns == [
        "success",
        "fail_trick",
        "fail_kind",
        "fail_detail",
        "distress",
        "redeals",
        "repairs",
        "ds_cards",
        "ds_owners",
    ]
    summary = pl.read_parquet(tmp_path / "summary.parquet")
    assert_frame_equal(summary, result.summary)
    assert pl.read_csv(tmp_path / "summary.csv").height == 4
    row = summary.row(3, named=True)
    assert (row["mission"], row["players"], row["games"]) == ("pn-5", 4, 3000)
    assert row["successes"] == int(games["success"].sum()) + int(
        pl.read_parquet(tmp_path / "chunks" / "pn-5-4p-00000.parquet")["success"].sum()
    )
    assert row["ci_low"] <= row["success_rate"] <= row["ci_high"]
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["root_seed"] == 11 and manifest["chunk_size"] == CHUNK
    assert manifest["bot"]["name"] == "heuristic" and len(manifest["bot"]["vector"]) == L.BP_SIZE
    assert manifest["crewsim_version"]
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize(
    ("change", "message"),
    [({"games": 0}, "-n"), ({"distress": "often"}, "--distress")],
)
def test_bad_config_is_a_user_error(change: dict[str, object], message: str) -> None:
    cfg = _config(
        **{"games": change.get("games", 10), "jobs": change.get("jobs", 1)},
        **{k: v for k, v in change.items() if k not in ("games", "jobs")},
    )
    with pytest.raises(CrewsimError, match=message):
        cfg.check()


def test_deep_sea_missions_run(tmp_path: Path) -> None:
    """Both campaigns go through the same runner; Deep Sea rows carry their own mission id."""
    cfg = RunConfig(tuple(resolve_missions("ds-1,ds-8")), (3, 4), 300, get_bot("heuristic"), jobs=1)
    summary = run(cfg, tmp_path / "run").summary
    assert set(summary["mission"].to_list()) == {"ds-1", "ds-8"}
    assert summary["games"].sum() == 4 * 300


def test_first_game_of_a_chunk_is_the_traced_game(tmp_path: Path) -> None:
    """`simulate --trace` replays game 0 of chunk 0: it must be the run's game, not another."""
    from crewsim.engine.run import RESULT_COLUMNS, run_chunk

    cfg = _config(games=300)
    run(cfg, tmp_path)
    games = load_run(tmp_path).game_rows().collect()
    assert games.height == 4 * 300 and games["mission"].null_count() == 0
    for task in plan(cfg)[:2]:
        cell = cfg.cells()[task.cell]
        one = run_chunk(cfg.mission_vector(cell), cfg.bot.vector(), 1, task.seed, record=True)
        first = pl.read_parquet(tmp_path / "chunks" / task.file_name).row(0, named=True)
        assert {c: one[c][0].item() for c in RESULT_COLUMNS} == {
            c: first[c] for c in RESULT_COLUMNS
        }
        assert first["ds_cards"] == [] and first["ds_owners"] == []  # Planet Nine: no cards


def test_each_game_knows_its_place_in_the_cell(tmp_path: Path) -> None:
    """``game`` counts a cell's games across its chunks, in the order they were dealt; with
    ``first`` only the chunks that hold those games are read."""
    from crewsim.runs.reader import game_outcomes

    run(_config(games=CHUNK + 300), tmp_path)
    loaded = load_run(tmp_path)
    games = loaded.game_rows().collect()
    for _, cell in games.group_by("mission", "players"):
        assert sorted(cell["game"]) == list(range(CHUNK + 300))
    chunk_1 = pl.read_parquet(tmp_path / "chunks" / "pn-5-4p-00001.parquet")["success"]
    first = game_outcomes(loaded, CHUNK + 10)
    cell = first.filter((pl.col("mission") == "pn-5") & (pl.col("players") == 4))
    assert cell["game"].to_list() == list(range(CHUNK + 10))
    assert cell["success"][CHUNK:].to_list() == chunk_1[:10].to_list()
    assert first.height == 4 * (CHUNK + 10)


def test_deep_sea_chunks_keep_the_task_cards_in_play(tmp_path: Path) -> None:
    """Every Deep Sea game stores its cards and seats, equal to what a recorded replay shows;
    the summary carries the redeal and repair shares."""
    from crewsim.engine.run import run_chunk
    from crewsim.kernel.layout import MAX_DS
    from crewsim.runs.chunks import CHUNK_SCHEMA

    cfg = RunConfig(tuple(resolve_missions("ds-6")), (4,), 400, get_bot("heuristic"), jobs=1)
    summary = run(cfg, tmp_path).summary
    task = plan(cfg)[0]
    stored = pl.read_parquet(tmp_path / "chunks" / task.file_name)
    assert dict(stored.schema) == CHUNK_SCHEMA
    rec = run_chunk(
        cfg.mission_vector(cfg.cells()[0]), cfg.bot.vector(), 400, task.seed, record=True
    )["rec_ds"]
    for i in (0, 1, 57, 399):
        n = int(rec[i, 3 * MAX_DS])
        assert stored["ds_cards"][i].to_list() == [int(c) + 1 for c in rec[i, :n]]
        assert stored["ds_owners"][i].to_list() == [int(s) for s in rec[i, MAX_DS : MAX_DS + n]]
    assert (stored["ds_cards"].list.len() > 0).all()
    row = summary.row(0, named=True)
    assert row["repair_share"] == pytest.approx((stored["repairs"] > 0).mean())
    assert row["redeal_share"] == pytest.approx((stored["redeals"] > 0).mean())
    assert row["repair_share"] > 0  # ds-6 repairs contradictions in about 9 % of games
