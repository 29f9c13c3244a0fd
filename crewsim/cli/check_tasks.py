"""`crewsim check-tasks TASK...`: can these Deep Sea task cards be completed together?

Two answers of different strength (``crewsim.analysis.task_check``).  The static one comes from the
rules alone: it decides the exit status, so scripts can sort combinations without simulating.
The optional Monte Carlo one (``-n``) plays random deals with the bot crew in the kernel and
says how often the combination is actually completed; it never changes the exit status,
because a low rate is a fact about the bots, not a proof.  ``--ceiling`` puts the share of
those deals that could be won at all (the solver, every hand known) beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console

from crewsim.analysis.task_check import (
    CHUNK,
    StaticResult,
    ceiling,
    check,
    estimate,
    owners_text,
    warm_up,
)
from crewsim.cards import seats_of
from crewsim.cli.options import Jobs, Seed, count_option, refuse_ceiling_options_without_it
from crewsim.cli.output import deals_bar, games_bar, loading_kernel
from crewsim.errors import CrewsimError
from crewsim.kernel.layout import MAX_FIXED
from crewsim.missions import TaskCard, get_task_card
from crewsim.report.format import pct, pct_ci
from crewsim.runs.ceiling import DEFAULT_CEILING_N
from crewsim.solver.api import DEFAULT_CONFLICTS


class CheckFormat(StrEnum):
    """Plain lines for people, one JSON object for scripts."""

    TABLE = "table"
    JSON = "json"


# ---------------------------------------------------------------- input


def _seats(players: int) -> int:
    if players not in (2, 3, 4, 5):
        raise CrewsimError(f"--players: expected 2 to 5, got {players}")
    return seats_of(players)


def resolve_tasks(specs: Sequence[str]) -> list[TaskCard]:
    """Cards by number or short name; refuses duplicates and more than the kernel holds."""
    if not specs:
        raise CrewsimError("no task given (a card number 1-96 or its short name)")
    cards = [get_task_card(s) for s in specs]
    seen: dict[int, str] = {}
    for spec, card in zip(specs, cards, strict=True):
        if card.number in seen:
            raise CrewsimError(
                f"task {spec!r} given twice (card {card.number} {card.ref_id!r}, "
                f"first as {seen[card.number]!r})"
            )
        seen[card.number] = spec
    if len(cards) > MAX_FIXED:  # the kernel's fixed-task rows
        raise CrewsimError(f"at most {MAX_FIXED} tasks, got {len(cards)}")
    return cards


def parse_owners(spec: str, n_tasks: int, seats: int) -> list[int]:
    """``--owners 0,2,1``: one seat per task, the captain is 0, clockwise from there."""
    owners: list[int] = []
    for item in spec.split(","):
        try:
            owners.append(int(item.strip()))
        except ValueError:
            raise CrewsimError(
                f"--owners: expected seat numbers like 0,1,2, got {spec!r}"
            ) from None
    if len(owners) != n_tasks:
        raise CrewsimError(f"--owners: {n_tasks} task(s) but {len(owners)} owner(s)")
    for o in owners:
        if not 0 <= o < seats:
            raise CrewsimError(f"--owners: seat {o} out of range 0..{seats - 1}")
    return owners


# ---------------------------------------------------------------- command


def check_tasks(
    ctx: typer.Context,
    tasks: Annotated[
        list[str],
        typer.Argument(
            help="Task cards: numbers 1-96 as in `crewsim tasks list`, or short names "
            "(ref_id, any case), e.g. 71 0tricks.",
            show_default=False,
        ),
    ],
    players: Annotated[int, typer.Option("--players", "-p", help="Crew size, 2 to 5.")] = 4,
    owners: Annotated[
        str | None,
        typer.Option(
            "--owners",
            help="Seat of each task in order, e.g. 0,1,1: the captain is seat 0, then "
            "clockwise (2 players: 3 seats with the dummy).  Without it every way the rules "
            "allow to hand the tasks out is considered.",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int,
        count_option("-n", help="Also play this many random deals with the bot crew (0 = no)."),
    ] = 0,
    seed: Seed = 0,
    bot: Annotated[str, typer.Option(help="Bot crew for the Monte Carlo deals.")] = "heuristic",
    jobs: Jobs = 1,
    fmt: Annotated[
        CheckFormat, typer.Option("--format", "-f", help="table for reading, json for scripts.")
    ] = CheckFormat.TABLE,
    with_ceiling: Annotated[
        bool,
        typer.Option(
            "--ceiling",
            help="Also solve the first of those deals as the bots drafted and played them "
            "(perfect information): the share that could be won at all, and the bots' "
            "success on them.  Needs -n.",
        ),
    ] = False,
    ceiling_n: Annotated[
        int, count_option("--ceiling-n", help="Deals solved (at most -n and 10,000).")
    ] = DEFAULT_CEILING_N,
    ceiling_conflicts: Annotated[
        int,
        count_option(
            "--ceiling-conflicts",
            help="SAT engine conflicts per deal the search leaves open (0: search only).",
        ),
    ] = DEFAULT_CONFLICTS,
) -> None:
    """Name every contradiction the rules prove for these Deep Sea tasks.

    With --owners that assignment is checked.  Without it a contradiction
    counts only when every assignment the rules allow meets one (the
    captain never takes a "... than the Captain" card; any split is
    allowed, as volunteer and free-selection missions allow it); the "one
    owner" and "all different owners" readings are shown either way.  The
    checker proves by counting: "no contradiction" does not promise that
    the tasks can be done.

    With -n the bot crew also plays the tasks on random deals, carried by
    mission ds-1 (plain draft, normal communication; its own difficulty is
    ignored, no distress signal; without --owners the bots' draft assigns
    the tasks): the share completed, its Wilson 95 % interval and the card
    that fails most often.  With --ceiling the first of those deals are
    also solved with every hand known: how many could be won at all, and
    the bots' success on exactly those deals (their efficiency).

    Exit status: 0 no contradiction, 1 contradiction, 2 bad input.
    """
    from crewsim.runs.plan import check_games

    seats = _seats(players)
    cards = resolve_tasks(tasks)
    given = parse_owners(owners, len(cards), seats) if owners is not None else None
    if games < 0:
        raise CrewsimError(f"-n: expected 0 or more games, got {games}")
    check_games(games)
    refuse_ceiling_options_without_it(ctx, with_ceiling)
    if with_ceiling and games == 0:
        raise CrewsimError("--ceiling solves deals the bots played: give -n too")
    if ceiling_n < 1:
        raise CrewsimError(f"--ceiling-n: expected 1 or more, got {ceiling_n}")
    if ceiling_conflicts < 0:
        raise CrewsimError(f"--ceiling-conflicts: expected 0 or more, got {ceiling_conflicts}")
    result = check(cards, given, players)
    mc = None
    if games > 0:  # a fresh install first compiles the kernel: the spinner says so
        with loading_kernel():
            warm_up()
        stderr = Console(stderr=True)
        with games_bar(f"playing ({bot} crew)", games, stderr) as advance:
            mc = estimate(cards, given, players, games, seed, bot, jobs, on_games=advance)
        mc["ceiling"] = None
        if with_ceiling:
            deals = min(ceiling_n, games, CHUNK)
            with deals_bar(deals, stderr) as solved:
                mc["ceiling"] = ceiling(
                    cards,
                    given,
                    players,
                    games,
                    seed,
                    bot,
                    deals,
                    ceiling_conflicts,
                    lambda: solved(1),
                )
    if fmt is CheckFormat.JSON:
        typer.echo(json.dumps(_json(cards, given, players, seats, result, mc), indent=2))
    else:
        for line in _lines(cards, given, players, seats, result, mc):
            typer.echo(line)
    if result.contradictions:
        raise typer.Exit(1)


def _json(
    cards: Sequence[TaskCard],
    owners: Sequence[int] | None,
    players: int,
    seats: int,
    result: StaticResult,
    mc: dict[str, Any] | None,
) -> dict[str, Any]:
    return {
        "players": players,
        "seats": seats,
        "tasks": [
            {
                "number": c.number,
                "ref_id": c.ref_id,
                "text": c.text,
                "difficulty": c.difficulty_for(players),
                "owner": owners[i] if owners is not None else None,
            }
            for i, c in enumerate(cards)
        ],
        "owners": list(owners) if owners is not None else None,
        "contradiction": bool(result.contradictions),
        "contradictions": result.contradictions,
        "readings": {r.name: r.to_dict() for r in result.readings} if owners is None else None,
        "witness": result.witness,
        "notes": result.notes,
        "monte_carlo": mc,
    }


def _lines(
    cards: Sequence[TaskCard],
    owners: Sequence[int] | None,
    players: int,
    seats: int,
    result: StaticResult,
    mc: dict[str, Any] | None,
) -> Iterator[str]:
    yield f"{len(cards)} task(s), {players} players ({seats} seats, captain = seat 0):"
    for i, c in enumerate(cards):
        who = "" if owners is None else f"  -> seat {owners[i]}"
        yield f"  {c.number:>2} {c.ref_id} [{c.difficulty_for(players)}] {c.text}{who}"
    for note in result.notes:
        yield f"note: {note} (a plain draft could not give these owners; checked anyway)"
    if owners is None:
        for r in result.readings:
            if r.owners is None:
                yield f"{r.name}: not possible ({r.note})"
            elif not r.contradictions:
                yield f"{r.name}: no contradiction (e.g. {owners_text(r.owners)})"
            else:
                for reason in r.contradictions:
                    yield f"{r.name} ({owners_text(r.owners)}): {reason}"
    if result.contradictions:
        shown = result.contradictions if owners is not None else result.contradictions[:1]
        for reason in shown:  # without owners the readings above already gave the reasons
            yield f"contradiction: {reason}"
    elif owners is None:
        yield (
            f"no contradiction found: e.g. {owners_text(result.witness)} avoid every "
            "contradiction the checker knows (it counts; it does not play the hand out)"
        )
    else:
        yield "no contradiction found (the checker counts; it does not play the hand out)"
    if mc is not None:
        yield (
            f"Monte Carlo ({mc['bot']} crew, {mc['games']:,} deals, seed {mc['seed']}): "
            f"{pct_ci(mc['success_rate'], mc['ci_low'], mc['ci_high'])} completed (95 % CI)"
        )
        top = mc["top_failing_card"]
        if top is not None:
            yield (
                f"most frequent failing card: {top['number']} {top['ref_id']} "
                f"({100 * top['share']:.1f} % of deals)"
            )
        if mc["ceiling"] is not None:
            yield from _ceiling_lines(mc["ceiling"])


def _ceiling_lines(c: dict[str, Any]) -> Iterator[str]:
    """The ceiling in words: what could be won, and what the bots won of the same deals."""
    feasible = pct_ci(c["feasible_share"], c["feasible_low"], c["feasible_high"], 1)
    yield (
        f"perfect-information ceiling (the first {c['ceiling_games']:,} of those deals, as the "
        f"bots drafted them): {feasible} could be won, {pct(c['unknown_share'], 1)} undecided"
    )
    yield (
        f"the bots won {pct(c['ceiling_success_rate'], 1)} of those deals: efficiency "
        f"{pct_ci(c['bot_efficiency'], c['efficiency_low'], c['efficiency_high'], 1)} "
        "of the winnable ones"
    )
