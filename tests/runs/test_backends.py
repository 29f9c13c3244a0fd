"""Backends: loky keeps call order in ``imap`` whatever the worker count; bad names fail early.
(The Dask backend is tested on a real LocalCluster in ``test_dask``.)"""

from __future__ import annotations

import os
import time

import pytest

from crewsim.errors import CrewsimError
from crewsim.runs.backends import LokyBackend, check_backend, open_workers, worker_count


def _slow_square(x: int) -> int:
    time.sleep(0.05 * (x % 3 == 0))  # the first calls finish last
    return x * x


@pytest.mark.parametrize("jobs", [1, 2])
def test_imap_keeps_the_call_order(jobs: int) -> None:
    calls = [(x,) for x in range(9)]
    assert list(LokyBackend(jobs).imap(_slow_square, calls)) == [x * x for x in range(9)]
    assert sorted(LokyBackend(jobs).imap_unordered(_slow_square, calls)) == [
        x * x for x in range(9)
    ]


def test_worker_count_reads_jobs_as_joblib_does() -> None:
    assert worker_count(1) == 1 and worker_count(3) == min(3, os.cpu_count() or 1)
    assert worker_count(1000) == worker_count(-1)  # never more processes than cores
    assert worker_count(-1) >= 1 and worker_count(-1000) == 1
    assert worker_count(0) == worker_count(-1)  # 0 is all cores too, in every command
    assert worker_count(-2) == max(1, worker_count(-1) - 1)


@pytest.mark.parametrize(
    ("backend", "scheduler", "message"),
    [
        ("ray", None, "--backend: expected loky|dask"),
        ("loky", "tcp://h:1", "only with"),
        ("dask", "  ", "expected an address"),
    ],
)
def test_bad_backends_fail_in_one_line(backend: str, scheduler: str | None, message: str) -> None:
    with pytest.raises(CrewsimError, match=message), open_workers(backend, 1, scheduler):
        pass
    with pytest.raises(CrewsimError, match=message):
        check_backend(backend, scheduler)
