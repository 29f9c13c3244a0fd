"""`crewsim solve FILE`: can this deal be won at all by a crew that sees every card?"""

from __future__ import annotations

import csv
import io
import json
import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from crewsim.cards import Game, card_name
from crewsim.cli.options import (
    ALL_CORES,
    Format,
    Jobs,
    JsonAlias,
    Quiet,
    chosen_format,
    count_option,
    plural,
)
from crewsim.cli.output import busy, deals_bar, say_err, set_quiet
from crewsim.errors import CrewsimError
from crewsim.rules.play import trick_winner
from crewsim.solver.api import DEFAULT_BUDGET, DEFAULT_CONFLICTS
from crewsim.solver.deals import DealRecord, read_deals
from crewsim.solver.problem import Problem, Result


def result_record(problem: Problem | None, res: Result, deal: int) -> dict[str, Any]:
    """One result line, in the format the README shows, with the same keys on every line (null
    where one does not apply, so a script can index any of them): ``deal`` (its line in the
    file), verdict, nodes, seconds, a winning ``line`` (cards per seat per trick) with each
    trick's leader and winner to replay it in play order, the crew members the commander
    designated, the owners the solver chose for tasks given without a player, the engine that
    decided it and the reason for an unsupported or counted one."""
    rec: dict[str, Any] = {
        "deal": deal,
        "verdict": res.verdict,
        "nodes": res.nodes,
        "seconds": round(res.seconds, 6),
        "line": None,
        "leaders": None,
        "winners": None,
        "designated": list(res.designated) if res.designated else None,
        "owners": list(res.owners) if res.owners else None,
        "engine": res.engine or None,
        "reason": res.reason or None,
    }
    if res.verdict == "feasible" and problem is not None:
        game = Game.DEEP_SEA if problem.deep_sea else Game.PLANET_NINE
        rec["line"] = [[card_name(c, game) for c in t] for t in res.tricks]
        turns = _leaders_and_winners(problem, res)
        rec["leaders"], rec["winners"] = [t[0] for t in turns], [t[1] for t in turns]
    return rec


ENGINES = {"dfs": "by the search", "sat": "by the SAT engine", "counting": "by counting"}


def solve_cmd(
    file: Annotated[
        Path,
        typer.Argument(help="A deal (.json) or one deal per line (.jsonl).", show_default=False),
    ],
    fmt: Annotated[
        Format | None,
        typer.Option(
            "--format",
            "-f",
            help="table for reading; csv, or json: one object per deal and line (JSON Lines).",
            case_sensitive=False,
            show_default="table; json for a .jsonl file",
        ),
    ] = None,
    as_json: JsonAlias = False,
    budget: Annotated[
        int,
        count_option(
            "--budget",
            help="Card plays tried per deal before answering 'unknown'.",
            default=DEFAULT_BUDGET,
        ),
    ] = DEFAULT_BUDGET,
    conflicts: Annotated[
        int,
        count_option(
            "--conflicts",
            help="SAT engine conflicts per deal the search leaves open (0: off).",
            default=DEFAULT_CONFLICTS,
        ),
    ] = DEFAULT_CONFLICTS,
    jobs: Jobs = ALL_CORES,
    quiet: Quiet = False,
) -> None:
    """Solve deals: feasible (with a winning line), infeasible, unknown or unsupported.

    A .jsonl file's deals are solved in chunks on every core, with a progress bar on
    stderr; results come out in the file's order, the same whatever --jobs."""
    from crewsim.runs.solve_file import solve_deals

    set_quiet(quiet)
    if budget < 1:
        raise CrewsimError(f"--budget: expected a positive number, got {budget}")
    if conflicts < 0:
        raise CrewsimError(f"--conflicts: expected 0 or more, got {conflicts}")
    records = list(read_deals(file))  # validate the whole file before printing anything
    jsonl = file.suffix.lower() == ".jsonl"
    shown = chosen_format(fmt or (Format.JSON if jsonl else Format.TABLE), as_json)
    if shown is Format.CSV:
        typer.echo(",".join(CSV_COLUMNS))
    bar = (
        deals_bar(len(records), Console(stderr=True))
        if jsonl  # one deal: a spinner, since a fresh install first compiles the solver (~25 s)
        else busy("solving (the first run of an install compiles the solver first: ~25 s)")
    )
    tally: Counter[str] = Counter()
    start = time.perf_counter()
    held: list[tuple[DealRecord, Result]] = []  # one deal: printed once the spinner is gone
    with bar as advance:
        for rec, res in solve_deals(records, budget, conflicts, jobs, on_deals=advance):
            if jsonl:
                _print(rec, res, shown, len(records) > 1)
            else:
                held.append((rec, res))
            tally[res.verdict] += 1
            tally[res.engine] += 1
    for rec, res in held:
        _print(rec, res, shown, False)
    if jsonl:  # stdout stays the deals' data
        say_err(_summary(tally, len(records), time.perf_counter() - start))


def _summary(tally: Counter[str], deals: int, seconds: float) -> str:
    """One line on a file's deals: the verdicts, and how many needed the SAT engine."""
    kinds = ("feasible", "infeasible", "unknown", "unsupported")
    shown = ", ".join(f"{tally[k]:,} {k}" for k in kinds if tally[k] or k != "unsupported")
    return (
        f"{plural(deals, 'deal')} in {seconds:.1f} s: {shown} ({tally['sat']:,} decided by the "
        "SAT engine)"
    )


CSV_COLUMNS = ("deal", "verdict", "nodes", "seconds", "engine", "reason", "line")


def _print(rec: DealRecord, res: Result, fmt: Format, numbered: bool) -> None:
    """One deal's result: a JSON line, a CSV row (the winning line as tricks of cards, ``|``
    between tricks) or text (``numbered``: headed by its line in the file)."""
    out = result_record(rec.problem, res, rec.line)
    if fmt is Format.JSON:
        typer.echo(json.dumps(out, allow_nan=False))
        return
    if fmt is Format.CSV:
        line = " | ".join(" ".join(t) for t in out["line"]) if out["line"] else ""
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow(
            [*("" if out[k] is None else out[k] for k in CSV_COLUMNS[:-1]), line]
        )
        typer.echo(buf.getvalue(), nl=False)
        return
    by = f"; {ENGINES[res.engine]}" if res.engine else ""
    head = f"{res.verdict}  ({res.nodes:,} nodes, {res.seconds * 1000:.1f} ms{by})"
    if numbered:
        head = f"deal {rec.line}: {head}"
    typer.echo(head if not res.reason else f"{head}: {res.reason}")
    if res.verdict == "feasible" and rec.problem is not None:
        for line in _play_lines(rec.problem, res, out["line"]):
            typer.echo(line)


def _leaders_and_winners(problem: Problem, res: Result) -> list[tuple[int, int]]:
    """(leader, winner) seat of each trick of a winning line: the commander leads first."""
    seats, leader, turns = problem.deal.seats, problem.deal.commander, []
    for trick in res.tricks:
        order = [(leader + i) % seats for i in range(seats)]
        winner, _ = trick_winner([trick[s] for s in order], leader, seats)
        turns.append((leader, winner))
        leader = winner
    return turns


def _play_lines(problem: Problem, res: Result, names: list[list[str]]) -> list[str]:
    """The winning line as played: each trick from its leader round the table, and who won."""
    deal = problem.deal
    seat = ["P0", "P1", "dummy"] if deal.players == 2 else [f"P{s}" for s in range(deal.seats)]
    lines = []
    turns = _leaders_and_winners(problem, res)
    for k, (named, (leader, winner)) in enumerate(zip(names, turns, strict=True), start=1):
        order = [(leader + i) % deal.seats for i in range(deal.seats)]
        plays = "  ".join(f"{seat[s]}:{named[s]}" for s in order)
        lines.append(f"  trick {k:2d}: {plays}  -> {seat[winner]}")
    return lines
