"""Where work runs: loky processes on this machine, or a Dask ``distributed`` cluster.

One interface for every parallel job (simulation chunks, ceiling cells, feasibility chunks):
``imap`` yields results in the order of the calls, ``imap_unordered`` as they finish.  Workers
pick calls up one at a time, since their costs are heavy-tailed.  Results depend on the calls'
arguments only (their seeds), so a run's numbers never depend on the backend or worker count.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from crewsim.errors import CrewsimError

BACKENDS = ("loky", "dask")
DASK_CONNECT_TIMEOUT = 5.0  # seconds: an unreachable scheduler is an error, not a hang
DASK_RETRIES = 2  # a call that raises is re-run this many times (worker loss: see DaskBackend)

T = TypeVar("T")


class RunFailed(CrewsimError):
    """The backend gave up on a call (e.g. it killed worker after worker): not bad input."""

    exit_code = 1


def worker_count(jobs: int) -> int:
    """Worker processes for ``jobs``: joblib's meaning (-1 all cores, -2 all but one), and 0
    also all cores, the same in every command; never more than the cores, since more
    processes only fight over them (``-j 1000`` on two cores spent minutes starting)."""
    cores = os.cpu_count() or 1
    return min(jobs, cores) if jobs > 0 else max(1, cores + 1 + (jobs or -1))


def backend_named(backend: str | None, scheduler: str | None) -> str:
    """The backend a command was given: ``--scheduler`` alone means Dask, neither loky."""
    return backend or ("dask" if scheduler is not None else "loky")


def describe(backend: str, workers: int, scheduler: str | None) -> str:
    """Where a run's work went, for its summary line."""
    if backend != "dask":
        return f"{workers} local process" + ("" if workers == 1 else "es")
    if scheduler:
        return f"Dask at {scheduler}"
    return f"a local Dask cluster of {workers} worker" + ("" if workers == 1 else "s")


def check_backend(backend: str, scheduler: str | None) -> None:
    """Reject an unknown backend or a scheduler without Dask, in one line."""
    if backend not in BACKENDS:
        raise CrewsimError(f"--backend: expected {'|'.join(BACKENDS)}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise CrewsimError("--scheduler: only with --backend dask")
    if scheduler is not None and not scheduler.strip():
        raise CrewsimError("--scheduler: expected an address such as tcp://HOST:8786")


class Backend(Protocol):
    """Runs ``fn(*args)`` for each tuple of ``calls`` somewhere; ``names`` label the tasks."""

    def imap(
        self,
        fn: Callable[..., T],
        calls: Sequence[tuple[Any, ...]],
        names: Sequence[str] | None = None,
    ) -> Iterator[T]: ...

    def imap_unordered(
        self,
        fn: Callable[..., T],
        calls: Sequence[tuple[Any, ...]],
        names: Sequence[str] | None = None,
    ) -> Iterator[T]: ...


@contextmanager
def _ctrl_c_after() -> Iterator[None]:
    """Ctrl-C inside the block takes effect when it ends: raised inside polars, a
    KeyboardInterrupt can come out as another error (or twice), so a call is never cut."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    hit: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: hit.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if hit:
        raise KeyboardInterrupt


_PARENT_CHECK = 2.0  # seconds between a worker's looks at whether its parent still runs
_watching: list[int] = []  # the parent a worker process watches (set once per process)


def _exit_with_parent() -> None:
    """In a loky worker: exit once the process that started it is gone.  loky's workers
    otherwise outlive a parent killed hard (``kill -9``, the OOM killer, a batch limit),
    waiting on their queue for ever with the kernel loaded (about 250 MB each)."""
    if _watching:
        return
    parent = os.getppid()
    _watching.append(parent)

    def watch() -> None:
        while True:
            time.sleep(_PARENT_CHECK)
            if os.getppid() != parent:  # re-parented: the parent died
                os._exit(1)

    threading.Thread(target=watch, name="crewsim-parent-watch", daemon=True).start()


def _watched(fn: Callable[..., T], *args: Any) -> T:
    _exit_with_parent()
    return fn(*args)


@dataclass
class LokyBackend:
    """joblib's loky processes on this machine (in-process for one job)."""

    jobs: int

    def imap(
        self,
        fn: Callable[..., T],
        calls: Sequence[tuple[Any, ...]],
        names: Sequence[str] | None = None,
    ) -> Iterator[T]:
        return self._run(fn, calls, "generator")

    def imap_unordered(
        self,
        fn: Callable[..., T],
        calls: Sequence[tuple[Any, ...]],
        names: Sequence[str] | None = None,
    ) -> Iterator[T]:
        return self._run(fn, calls, "generator_unordered")

    def _run(self, fn: Callable[..., T], calls: Sequence[tuple[Any, ...]], how: str) -> Iterator[T]:
        from joblib import Parallel, delayed

        workers = min(worker_count(self.jobs), len(calls))  # idle processes cost a start-up
        if workers <= 1:  # in-process: no pickling, the compiled kernel reused
            for args in calls:
                with _ctrl_c_after():
                    result = fn(*args)
                yield result
            return
        parallel = Parallel(n_jobs=workers, batch_size=1, backend="loky", return_as=how)
        with warnings.catch_warnings():  # on Ctrl-C joblib warns about the cancelled tasks
            warnings.filterwarnings("ignore", message=".*tasks have been successfully executed")
            yield from parallel(delayed(_watched)(fn, *args) for args in calls)


@dataclass
class DaskBackend:
    """Calls as Dask futures on a ``distributed`` cluster.

    Futures rather than joblib's Dask backend: results stream back as they land (the driver
    stores each chunk at once), Ctrl-C cancels exactly this run's tasks, and each task carries
    ``retries``.  A worker that dies mid-call is the scheduler's business: it reschedules that
    worker's tasks elsewhere (up to ``distributed.scheduler.allowed-failures`` deaths per task),
    so only that call is recomputed; its seed makes the result identical.
    """

    client: Any

    def imap(
        self,
        fn: Callable[..., T],
        calls: Sequence[tuple[Any, ...]],
        names: Sequence[str] | None = None,
    ) -> Iterator[T]:
        return self._run(fn, calls, names, ordered=True)

    def imap_unordered(
        self,
        fn: Callable[..., T],
        calls: Sequence[tuple[Any, ...]],
        names: Sequence[str] | None = None,
    ) -> Iterator[T]:
        return self._run(fn, calls, names, ordered=False)

    def _run(
        self,
        fn: Callable[..., T],
        calls: Sequence[tuple[Any, ...]],
        names: Sequence[str] | None,
        ordered: bool,
    ) -> Iterator[T]:
        from distributed import as_completed

        run_id = uuid.uuid4().hex[:8]
        labels = names if names is not None else [str(k) for k in range(len(calls))]
        futures = [
            self.client.submit(
                fn, *args, key=f"crewsim-{run_id}-{label}", pure=False, retries=DASK_RETRIES
            )
            for args, label in zip(calls, labels, strict=True)
        ]
        try:
            for fut in futures if ordered else as_completed(futures):
                try:
                    result: T = fut.result()
                except Exception as exc:
                    raise RunFailed(
                        f"Dask gave up on {fut.key}: {type(exc).__name__}: "
                        f"{' '.join(str(exc).split())}"
                    ) from exc
                fut.release()
                yield result
        finally:
            self.client.cancel(futures)


@contextmanager
def dask_session(workers: int, scheduler: str | None) -> Iterator[DaskBackend]:
    """Connect to ``scheduler`` (short timeout), or start a loopback LocalCluster of
    ``workers`` single-threaded processes for the session."""
    from distributed import Client, LocalCluster

    cluster = None
    address = scheduler
    if address is None:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.ERROR,
        )
        address = cluster.scheduler_address
    try:
        try:
            client = Client(address, timeout=DASK_CONNECT_TIMEOUT)
        except Exception as exc:  # OSError, TimeoutError, ValueError for a bad address, ...
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise CrewsimError(
                f"--scheduler: cannot reach the Dask scheduler at {address} ({reason})"
            ) from None
        try:
            yield DaskBackend(client)
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


@contextmanager
def open_workers(backend: str, jobs: int, scheduler: str | None = None) -> Iterator[Backend]:
    """The backend named ``backend`` for ``jobs`` workers (joblib's meaning), opened before any
    work is sent: an unreachable scheduler fails first."""
    check_backend(backend, scheduler)
    if backend == "dask":
        with dask_session(worker_count(jobs), scheduler) as session:
            yield session
    else:
        yield LokyBackend(jobs)


@dataclass(frozen=True)
class Workers:
    """Where a command's work runs, as its options say: the backend's name, ``jobs`` (joblib's
    meaning) and the Dask scheduler; one value handed down instead of three."""

    backend: str = "loky"
    jobs: int = -1
    scheduler: str | None = None

    def open(self) -> AbstractContextManager[Backend]:
        """The backend, opened before any work is sent (``open_workers``)."""
        return open_workers(self.backend, self.jobs, self.scheduler)

    def describe(self) -> str:
        """Where the work went, for a command's closing line."""
        return describe(self.backend, worker_count(self.jobs), self.scheduler)
