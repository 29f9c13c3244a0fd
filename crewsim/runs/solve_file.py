"""A file's deals solved on every core: small chunks of deals to loky workers, results in the
file's order, the same whatever ``jobs``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from crewsim.runs.backends import open_workers, worker_count
from crewsim.runs.progress import Advance
from crewsim.solver.api import solve, warm_up
from crewsim.solver.deals import DealRecord
from crewsim.solver.problem import Problem, Result

CHUNK = 20  # deals per worker task: solve times are heavy-tailed, so small chunks balance


def solve_records(
    problems: Sequence[Problem | None], budget: int, conflicts: int
) -> list[Result | None]:
    """Solve one chunk of a file's deals (None: a deal the solver does not model), the
    solver warmed up first so the first deal's time is its own."""
    for p in problems:
        if p is not None:
            warm_up(p, budget, conflicts)
            break
    return [None if p is None else solve(p, budget=budget, conflicts=conflicts) for p in problems]


def solve_deals(
    records: Sequence[DealRecord],
    budget: int,
    conflicts: int,
    jobs: int,
    on_deals: Advance | None = None,
) -> Iterator[tuple[DealRecord, Result]]:
    """Each record with its result, in the file's order, as its chunk lands; a deal the solver
    does not model comes back "unsupported" with the reason.  ``on_deals`` hears each chunk's
    deals once they are all out."""
    chunks = [records[k : k + CHUNK] for k in range(0, len(records), CHUNK)]
    calls = [([r.problem for r in chunk], budget, conflicts) for chunk in chunks]
    workers = min(worker_count(jobs), len(chunks))
    with open_workers("loky", workers) as pool:
        for chunk, results in zip(chunks, pool.imap(solve_records, calls), strict=True):
            for rec, res in zip(chunk, results, strict=True):
                yield rec, res or Result("unsupported", 0, 0.0, reason=rec.unsupported)
            if on_deals is not None:
                on_deals(len(chunk))
