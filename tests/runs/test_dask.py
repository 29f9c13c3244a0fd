"""Dask: a real LocalCluster on loopback gives the loky numbers, and survives a dying worker."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from polars.testing import assert_frame_equal

from crewsim.bots import get_bot
from crewsim.missions import resolve_missions
from crewsim.runs.chunks import ChunkCounts, play_chunk
from crewsim.runs.montecarlo import execute, open_backend, prepare, run
from crewsim.runs.plan import ChunkTask, RunConfig
from crewsim.runs.stopping import Stopping

distributed = pytest.importorskip("distributed")


def _config(**kw: object) -> RunConfig:
    base: dict[str, object] = {"games": 1500, "jobs": 1, "seed": 21, "chunk_size": 500}
    return RunConfig(
        missions=tuple(resolve_missions("pn-3,pn-8")),
        players=(4,),
        bot=get_bot("heuristic"),
        **{**base, **kw},  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """Two single-threaded worker processes on 127.0.0.1, shared by this module's tests."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    ) as local:
        yield str(local.scheduler_address)


def test_same_seed_same_summary_on_loky_and_dask(tmp_path: Path, cluster: str) -> None:
    serial = run(_config(), tmp_path / "serial")
    two = run(_config(jobs=2), tmp_path / "two")
    remote = run(_config(backend="dask", scheduler=cluster), tmp_path / "dask")
    for other in (two, remote):
        assert_frame_equal(serial.summary, other.summary)
        assert_frame_equal(serial.failures, other.failures)
    for name in ("pn-3-4p-00002.parquet", "pn-8-4p-00000.parquet"):
        assert (tmp_path / "serial" / "chunks" / name).read_bytes() == (
            tmp_path / "dask" / "chunks" / name
        ).read_bytes()


@pytest.mark.parametrize("stopping", [Stopping(0.03), Stopping(0.01, True)], ids=str)
def test_cells_stop_after_the_same_chunk_on_dask(
    tmp_path: Path, cluster: str, stopping: Stopping
) -> None:
    kw = {"games": 6000, "stopping": stopping}
    serial = run(_config(**kw), tmp_path / "serial")
    remote = run(_config(backend="dask", scheduler=cluster, **kw), tmp_path / "dask")
    assert_frame_equal(serial.summary, remote.summary)
    assert_frame_equal(serial.failures, remote.failures)
    assert (serial.summary["games"] < 6000).any()


def _die_once(marker: str) -> object:
    """A worker function that kills its worker process the first time it meets chunk 1."""

    def play(task: ChunkTask, mp: np.ndarray, bp: np.ndarray) -> tuple[ChunkCounts, bytes]:
        if task.index == 1 and task.key == "pn-8-4p":
            try:
                fd = os.open(marker, os.O_CREAT | os.O_EXCL)
            except FileExistsError:
                pass
            else:
                os.close(fd)
                os._exit(1)  # the worker dies mid-chunk, as on a lost machine
        return play_chunk(task, mp, bp)

    return play


def test_a_dying_worker_costs_only_its_chunk(tmp_path: Path, cluster: str) -> None:
    import cloudpickle

    cloudpickle.register_pickle_by_value(__import__(__name__))  # workers cannot import tests
    marker = tmp_path / "died"
    cfg = _config(backend="dask", scheduler=cluster)
    with open_backend(cfg) as backend:
        state = prepare(cfg, tmp_path / "dask")
        result = execute(state, backend, play=_die_once(str(marker)))  # type: ignore[arg-type]
    assert marker.exists()  # a worker really died
    reference = run(_config(), tmp_path / "serial")
    assert_frame_equal(result.summary, reference.summary)


def test_backend_dask_without_scheduler_starts_a_local_cluster(tmp_path: Path) -> None:
    result = run(_config(backend="dask", jobs=2, games=600), tmp_path / "local")
    reference = run(_config(games=600), tmp_path / "serial")
    assert_frame_equal(result.summary, reference.summary)


def _without_timings(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in r.items() if not k.endswith(("_ms", "_seconds"))} for r in rows]


def test_the_ceiling_is_solved_on_the_cluster_with_the_loky_rows(cluster: str) -> None:
    from distributed import get_task_stream

    from crewsim.runs.ceiling import ceiling_rows

    cfg = _config(games=200, chunk_size=100)
    local = ceiling_rows(cfg, 30)
    remote_cfg = _config(games=200, chunk_size=100, backend="dask", scheduler=cluster)
    with open_backend(remote_cfg) as backend, get_task_stream(backend.client) as stream:
        remote = ceiling_rows(remote_cfg, 30, backend=backend)
    assert _without_timings(remote) == _without_timings(local)
    assert [r["ceiling_games"] for r in remote] == [30, 30]
    keys = {str(t["key"]) for t in stream.data}
    assert sum("ceiling-pn-3-4p" in k or "ceiling-pn-8-4p" in k for k in keys) == 2


def test_feasibility_on_the_cluster_gives_the_local_numbers(cluster: str) -> None:
    import json

    from typer.testing import CliRunner

    from crewsim.cli.app import app

    got = []
    with distributed.Client(cluster) as watcher, distributed.get_task_stream(watcher) as stream:
        for where in (["--jobs", "1"], ["--scheduler", cluster]):
            args = ["feasibility", "pn-6", "ds-4", "-n", "60", "--seed", "5", "--json", *where]
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 0, result.output
            got.append(_without_timings(json.loads(result.stdout)["cells"]))
    assert got[0] == got[1] and [r["deals"] for r in got[0]] == [60, 60]
    keys = {str(t["key"]) for t in stream.data}  # 3 chunks of 25 deals or fewer per mission
    assert sum("feasibility-" in k for k in keys) == 6


def test_rank_on_the_cluster_gives_the_local_ranking(tmp_path: Path, cluster: str) -> None:
    import json

    from typer.testing import CliRunner

    from crewsim.cli.app import app

    got = []
    with distributed.Client(cluster) as watcher, distributed.get_task_stream(watcher) as stream:
        for k, where in enumerate((["--jobs", "1"], ["--scheduler", cluster])):
            args = [
                "rank",
                "pn-3,pn-8",
                "-p",
                "4",
                "-n",
                "600",
                "--seed",
                "21",
                "--ceiling",
                "--format",
                "json",
                "--out",
                str(tmp_path / str(k)),
                *where,
            ]
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 0, result.output
            got.append(_without_timings(json.loads(result.stdout)["ranking"]))
    assert got[0] == got[1] and {r["mission"] for r in got[0]} == {"pn-3", "pn-8"}
    assert all(r["feasible_share"] is not None for r in got[1])
    keys = {str(t["key"]) for t in stream.data}  # one simulation chunk and one ceiling per cell
    assert sum("pn-3-4p-00000" in k or "pn-8-4p-00000" in k for k in keys) == 2
    assert sum("ceiling-pn-" in k for k in keys) == 2
