"""`crewsim feasibility MISSION...`: share of random deals a perfect-information crew can win."""

from __future__ import annotations

import json
import math
import time
from typing import Annotated, Any

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from crewsim.cli.options import Backend, Jobs, Scheduler, Seed, count_option, parse_players
from crewsim.cli.output import deals_bar, json_row, stdout_console
from crewsim.errors import CrewsimError
from crewsim.missions import resolve_missions
from crewsim.report.format import pct, pct_ci
from crewsim.runs.backends import backend_named, check_backend, describe, open_workers, worker_count
from crewsim.runs.plan import cell_seed_sequence
from crewsim.runs.stats import share_bounds
from crewsim.solver.api import DEFAULT_BUDGET, DEFAULT_CONFLICTS
from crewsim.solver.problem import unsupported_reason

DEFAULT_N = 5000  # a 4-task mission (pn-10), DFS + SAT defaults: about 5 s on 2 cores
CHUNK = 25


def feasibility(
    missions: Annotated[
        list[str], typer.Argument(help="Mission ids, ranges or campaigns: pn-1 pn-3..10 deep-sea.")
    ],
    players: Annotated[
        str,
        typer.Option("--players", "-p", help="Player counts, comma-separated (2-5), e.g. 3,4,5."),
    ] = "4",
    n: Annotated[
        int,
        count_option("-n", help="Random deals per mission and player count."),
    ] = DEFAULT_N,
    seed: Seed = 0,
    budget: Annotated[int, typer.Option(help="Card plays tried per deal.")] = DEFAULT_BUDGET,
    conflicts: Annotated[
        int, typer.Option(help="SAT engine conflicts per deal the search leaves open (0: off).")
    ] = DEFAULT_CONFLICTS,
    draft: Annotated[
        str,
        typer.Option(
            help="Task assignments: 'random' (each task to a random seat) or 'heuristic' (the "
            "heuristic bot crew's draft, played by the kernel on the same deal)."
        ),
    ] = "random",
    jobs: Jobs = 0,
    backend: Backend = None,
    scheduler: Scheduler = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per cell.")] = False,
) -> None:
    """Share of random deals (random task draw, random or bot draft) that some line of play wins.

    Deals are solved in small chunks that idle workers pick up one at a time (solve times are
    heavy-tailed), here or on a Dask cluster, with the same numbers either way; the last line
    (on stderr with --json) says how many deals were solved and how long it took.
    The share is that of the decided deals (as in `simulate --ceiling` and the reports); its
    95 % interval spans every way the undecided ones could go.
    """
    from crewsim.analysis.feasibility import DRAFTS, solve_chunk
    from crewsim.runs.plan import check_games

    if n < 1:
        raise CrewsimError(f"-n: expected a positive number, got {n}")
    check_games(n, "deals")
    if budget < 1:
        raise CrewsimError(f"--budget: expected a positive number, got {budget}")
    if conflicts < 0:
        raise CrewsimError(f"--conflicts: expected 0 or more, got {conflicts}")
    if draft not in DRAFTS:
        raise CrewsimError(f"--draft: expected one of {', '.join(DRAFTS)}, got {draft!r}")
    backend = backend_named(backend, scheduler)
    check_backend(backend, scheduler)
    chosen = [m for spec in missions for m in resolve_missions(spec)]
    seats = list(parse_players(players))
    # what the solver cannot model is found before any time is spent, and gets its own line
    unsupported = {m.id: why for m in chosen if (why := unsupported_reason(m))}
    if len(unsupported) == len(chosen):
        raise CrewsimError("unsupported: " + "; ".join(unsupported.values()))
    solvable = [m for m in chosen if m.id not in unsupported]
    if draft == "heuristic":  # the kernel must be able to play them (raises CrewsimError)
        from crewsim.kernel.spec import KernelMission

        for m in solvable:
            for p in seats:
                KernelMission(m, p).vector()
    n_jobs = worker_count(jobs)
    cells = [(m.id, p) for m in solvable for p in seats]
    of_cell: list[int] = []
    calls: list[tuple[Any, ...]] = []
    names: list[str] = []
    for ci, (mid, p) in enumerate(cells):  # seeds by cell key: the same deals in any company
        children = cell_seed_sequence(seed, f"{mid}-{p}p").spawn((n + CHUNK - 1) // CHUNK)
        for part, child in enumerate(children):
            of_cell.append(ci)
            calls.append((mid, p, child, min(CHUNK, n - part * CHUNK), budget, conflicts, draft))
            names.append(f"feasibility-{mid}-{p}p-{part}")
    results = []
    with (
        open_workers(backend, n_jobs, scheduler) as workers,
        deals_bar(n * len(cells), Console(stderr=True)) as advance,
    ):
        start = time.perf_counter()
        for chunk in workers.imap(solve_chunk, calls, names):
            results.append(chunk)
            advance(sum(chunk.counts.values()))
    wall = time.perf_counter() - start
    rows: list[dict[str, Any]] = []
    for ci, (mid, p) in enumerate(cells):
        counts: dict[str, int] = {}
        secs: list[float] = []
        wins = won_infeasible = by_sat = 0
        for cj, chunk in zip(of_cell, results, strict=True):
            if cj == ci:
                for k, v in chunk.counts.items():
                    counts[k] = counts.get(k, 0) + v
                secs.extend(chunk.seconds)
                wins += chunk.bot_wins
                won_infeasible += chunk.won_but_infeasible
                by_sat += chunk.by_sat
        feas, unk = counts.get("feasible", 0), counts.get("unknown", 0)
        lo, hi = share_bounds(feas, unk, n)
        rows.append(
            {
                "mission": mid,
                "players": p,
                "draft": draft,
                "deals": n,
                "feasible": feas,
                "infeasible": counts.get("infeasible", 0),
                "unknown": unk,
                "feasible_share": feas / (n - unk) if n > unk else math.nan,
                "ci_low": lo,
                "ci_high": hi,
                "unknown_share": unk / n,
                "lower_if_unknown_infeasible": feas / n,
                "upper_if_unknown_feasible": (feas + unk) / n,
                "median_ms": float(np.median(secs) * 1000),
                "max_ms": float(np.max(secs) * 1000),
                "sat_decided_share": by_sat / n,
            }
        )
        if draft == "heuristic":  # the drafting crew's own result on exactly these deals
            rows[-1].update(bot_success_share=wins / n, won_but_infeasible=won_infeasible)
    done = (
        f"{n * len(cells)} deals solved in {wall:.1f} s on {describe(backend, n_jobs, scheduler)}"
    )
    if as_json:  # stdout is for the rows alone; the closing line goes to stderr
        by_cell = {(r["mission"], r["players"]): r for r in rows}
        blank = dict.fromkeys(rows[0])  # an unsupported cell: the same keys, all null
        for m in chosen:  # one shape and the command line's order, unsupported cells too
            for p in seats:
                r = by_cell.get((m.id, p), blank | {"mission": m.id, "players": p, "draft": draft})
                row = json_row(r | {"unsupported": unsupported.get(m.id)})
                typer.echo(json.dumps(row, allow_nan=False))
        typer.echo(done, err=True)
        return
    table = Table(
        title=f"perfect-information feasibility, {draft} draft, budget {budget} plays/deal"
    )
    cols = ["mission", "players", "deals", "feasible [95 % CI]", "unknown"]
    cols += ["bots won"] if draft == "heuristic" else []
    for col in [*cols, "by SAT", "max ms"]:
        table.add_column(col, justify="left" if col == "mission" else "right")
    for r in rows:
        shown = [
            r["mission"],
            str(r["players"]),
            str(r["deals"]),
            pct_ci(r["feasible_share"], r["ci_low"], r["ci_high"]),
            pct(r["unknown_share"], 1),
        ]
        if draft == "heuristic":
            shown.append(pct(r["bot_success_share"], 1))
        table.add_row(*shown, pct(r["sat_decided_share"], 1), f"{r['max_ms']:.0f}")
    stdout_console().print(table)
    for why in unsupported.values():
        typer.echo(f"left out: {why}")
    typer.echo(done)
