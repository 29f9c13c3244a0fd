"""Runs that stop early: the same numbers whatever --jobs, the stop recorded in the summary,
the chunks a cell does not count kept aside, resume and top-up as for any run."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from crewsim.bots import get_bot
from crewsim.errors import CrewsimError
from crewsim.missions import resolve_missions
from crewsim.runs.backends import open_workers
from crewsim.runs.chunks import ChunkCounts, play_chunk
from crewsim.runs.montecarlo import RunInterrupted, execute, prepare, run
from crewsim.runs.plan import ChunkTask, RunConfig
from crewsim.runs.reader import load_run
from crewsim.runs.stopping import CAP, PRECISION, SEPARATED, Stopping

CHUNK = 500
CAP_GAMES = 8_000  # 16 chunks per cell


def _config(stopping: Stopping, games: int = CAP_GAMES, jobs: int = 1) -> RunConfig:
    return RunConfig(
        missions=tuple(resolve_missions("pn-2,pn-6")),
        players=(3, 5),
        games=games,
        bot=get_bot("heuristic"),
        seed=4,
        jobs=jobs,
        chunk_size=CHUNK,
        stopping=stopping,
    )


def _files(out: Path, folder: str = "chunks") -> list[str]:
    return sorted(p.name for p in (out / folder).glob("*.parquet"))


@pytest.fixture(scope="module")
def loose(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    """A run stopping at +-2 points, on one job: the reference."""
    return run(_config(Stopping(0.02)), tmp_path_factory.mktemp("loose") / "run").summary


def test_a_loose_width_stops_each_cell_before_the_cap(loose: pl.DataFrame) -> None:
    assert loose["stopped"].to_list() == [PRECISION] * 4
    assert (loose["games"] < CAP_GAMES).all() and (loose["games"] % CHUNK == 0).all()
    half = (loose["ci_high"] - loose["ci_low"]) / 2
    assert (half <= 0.02).all() and (half > 0.02 * 0.8).all()  # stopped soon after, too


def test_two_jobs_give_the_same_numbers(loose: pl.DataFrame, tmp_path: Path) -> None:
    two = run(_config(Stopping(0.02), jobs=2), tmp_path / "two")
    assert_frame_equal(two.summary, loose)
    counted = two.summary.select("mission", "players", "games").rows()
    per_cell = {f"{m}-{p}p": n // CHUNK for m, p, n in counted}
    assert _files(tmp_path / "two") == sorted(
        f"{key}-{k:05d}.parquet" for key, n in per_cell.items() for k in range(n)
    )
    loaded = load_run(tmp_path / "two")  # the reader expects each cell's own chunks
    assert loaded.games_each == f"up to {CAP_GAMES:,}"


def test_a_tiny_width_plays_to_the_cap(tmp_path: Path) -> None:
    summary = run(_config(Stopping(0.001), games=1_500), tmp_path).summary
    assert summary["stopped"].to_list() == [CAP] * 4 and summary["games"].to_list() == [1_500] * 4
    fixed = run(_config(Stopping(), games=1_500), tmp_path / "fixed").summary
    assert_frame_equal(summary, fixed)  # the same chunks, the same numbers


def test_separate_stops_the_cells_whose_order_is_settled(tmp_path: Path) -> None:
    one = run(_config(Stopping(None, True), games=3_000), tmp_path / "one").summary
    assert set(one["stopped"]) <= {SEPARATED, CAP} and SEPARATED in set(one["stopped"])
    two = run(_config(Stopping(None, True), games=3_000, jobs=2), tmp_path / "two").summary
    assert_frame_equal(one, two)


def _interrupt_after(count: int):  # type: ignore[no-untyped-def]
    """A worker function that plays ``count`` chunks, then acts as Ctrl-C."""
    played: list[int] = []

    def play(task: ChunkTask, mp: np.ndarray, bp: np.ndarray) -> tuple[ChunkCounts, bytes]:
        if len(played) == count:
            raise KeyboardInterrupt
        played.append(task.index)
        return play_chunk(task, mp, bp)

    return play


def test_resume_after_an_interruption_gives_the_same_numbers(
    loose: pl.DataFrame, tmp_path: Path
) -> None:
    config = _config(Stopping(0.02))
    with open_workers("loky", 1) as backend, pytest.raises(RunInterrupted):
        execute(prepare(config, tmp_path), backend, play=_interrupt_after(6))
    assert len(_files(tmp_path)) == 6 and not (tmp_path / "summary.parquet").exists()
    resumed = run(config, tmp_path)
    assert resumed.reused == 6
    assert_frame_equal(resumed.summary, loose)


def test_uncounted_chunks_are_kept_aside_and_taken_back(
    loose: pl.DataFrame, tmp_path: Path
) -> None:
    """A whole run resumed with a width counts a prefix of each cell; the rest waits in
    ``unused/`` and counts again when the run is resumed without it."""
    fixed = run(_config(Stopping()), tmp_path)
    assert len(_files(tmp_path)) == 4 * 16
    stopped = run(_config(Stopping(0.02)), tmp_path)
    assert_frame_equal(stopped.summary, loose)
    assert stopped.played == 0 and stopped.reused == 4 * 16
    assert len(_files(tmp_path)) == sum(loose["games"]) // CHUNK
    assert len(_files(tmp_path, "unused")) == 4 * 16 - len(_files(tmp_path))
    again = run(_config(Stopping()), tmp_path)
    assert again.played == 0 and not (tmp_path / "unused").exists()
    assert_frame_equal(again.summary, fixed.summary)


def test_a_top_up_raises_the_cap_of_the_capped_cells_only(tmp_path: Path) -> None:
    config = _config(Stopping(0.02), games=1_000)
    small = run(config, tmp_path / "grown").summary
    assert set(small["stopped"]) == {CAP}
    grown = run(replace(config, games=CAP_GAMES), tmp_path / "grown")
    fresh = run(replace(config, games=CAP_GAMES), tmp_path / "fresh")
    assert_frame_equal(grown.summary, fresh.summary)
    assert grown.reused == 4 * 2


def test_other_stops_drop_the_old_summary_until_theirs_is_done(tmp_path: Path) -> None:
    run(_config(Stopping(), games=1_000), tmp_path)
    prepare(_config(Stopping(), games=1_000), tmp_path)  # the same run: kept
    assert (tmp_path / "summary.csv").exists()
    prepare(_config(Stopping(0.02), games=1_000), tmp_path)  # started, and stopped here
    assert not (tmp_path / "summary.csv").exists()


def test_a_cap_whose_plan_would_fill_the_memory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CrewsimError, match=r"-n: at most 400,000,000 games per cell in chunks"):
        prepare(replace(_config(Stopping(0.01)), games=10**9, chunk_size=2_000), tmp_path)
    assert not (tmp_path / "manifest.json").exists()
