"""`crewsim solve FILE`: can this deal be won at all by a crew that sees every card?"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from crewsim.cards import Game, card_name
from crewsim.errors import CrewsimError
from crewsim.solver.api import DEFAULT_BUDGET, DEFAULT_CONFLICTS, Problem, Result, solve
from crewsim.solver.deals import read_deals


def result_record(problem: Problem | None, res: Result, line: int) -> dict[str, Any]:
    """One result line: verdict, nodes, seconds, the winning line (cards per seat per trick)."""
    rec: dict[str, Any] = {
        "line": line,
        "verdict": res.verdict,
        "nodes": res.nodes,
        "seconds": round(res.seconds, 6),
    }
    if res.verdict == "feasible" and problem is not None:
        game = Game.DEEP_SEA if problem.deep_sea else Game.PLANET_NINE
        rec["tricks"] = [[card_name(c, game) for c in t] for t in res.tricks]
        if res.designated:
            rec["designated"] = list(res.designated)
    if res.reason:
        rec["reason"] = res.reason
    return rec


def solve_cmd(
    file: Annotated[Path, typer.Argument(help="A deal (.json) or one deal per line (.jsonl).")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON result line per deal.")] = False,
    budget: Annotated[
        int, typer.Option(help="Card plays tried per deal before answering 'unknown'.")
    ] = DEFAULT_BUDGET,
    conflicts: Annotated[
        int,
        typer.Option(help="SAT engine conflicts per deal the search leaves open (0: off)."),
    ] = DEFAULT_CONFLICTS,
) -> None:
    """Solve deals: feasible (with a winning line), infeasible, unknown or unsupported."""
    if budget < 1:
        raise CrewsimError(f"--budget: expected a positive number, got {budget}")
    if conflicts < 0:
        raise CrewsimError(f"--conflicts: expected 0 or more, got {conflicts}")
    records = list(read_deals(file))  # validate the whole file before printing anything
    jsonl = file.suffix.lower() == ".jsonl"
    for rec in records:
        if rec.problem is None:
            res = Result("unsupported", 0, 0.0, reason=rec.unsupported)
        else:
            res = solve(rec.problem, budget=budget, conflicts=conflicts)
        out = result_record(rec.problem, res, rec.line)
        if as_json or jsonl:
            typer.echo(json.dumps(out))
            continue
        head = f"{res.verdict}  ({res.nodes} nodes, {res.seconds * 1000:.1f} ms)"
        typer.echo(head if not res.reason else f"{head}: {res.reason}")
        for k, trick in enumerate(out.get("tricks", []), start=1):
            typer.echo(f"  trick {k:2d}: " + "  ".join(f"P{s}:{c}" for s, c in enumerate(trick)))
