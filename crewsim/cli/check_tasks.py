"""`crewsim check-tasks TASK...`: can these Deep Sea task cards be completed together?

Two answers of different strength (``crewsim.analysis.task_check``).  The static one comes from the
rules alone: it decides the exit status, so scripts can sort combinations without simulating.
The optional Monte Carlo one (``-n``) plays random deals with the bot crew in the kernel and
says how often the combination is actually completed; it never changes the exit status,
because a low rate is a fact about the bots, not a proof.  ``--ceiling`` puts the share of
those deals that could be won at all (the solver, every hand known) beside it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
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
from crewsim.bots import get_bot
from crewsim.cards import seats_of
from crewsim.cli.options import (
    ALL_CORES,
    Format,
    FormatOpt,
    Jobs,
    JsonAlias,
    Quiet,
    Seed,
    bot_help_no_file,
    chosen_format,
    count_option,
    plural,
    refuse_ceiling_options_without_it,
)
from crewsim.cli.output import (
    deals_bar,
    games_bar,
    json_text,
    loading_kernel,
    set_quiet,
    warn_if_long,
)
from crewsim.cli.runs import GAMES_PER_SECOND_PER_CORE
from crewsim.errors import CrewsimError
from crewsim.kernel.layout import MAX_FIXED
from crewsim.missions import TaskCard, get_task_card
from crewsim.report.format import pct, pct_ci
from crewsim.runs.backends import worker_count
from crewsim.runs.ceiling import DEFAULT_CEILING_N
from crewsim.solver.api import DEFAULT_CONFLICTS

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
                f"task {spec!r} given twice (card {card.label}, first as {seen[card.number]!r})"
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
            "(`crewsim tasks show`, any case), e.g. 71 0tricks.",
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
        count_option(
            "-n",
            "--games",
            help="Also play this many random deals with the bot crew (0 = no).",
            default=0,
        ),
    ] = 0,
    seed: Seed = 0,
    bot: Annotated[
        str, typer.Option(help=bot_help_no_file("Bot crew for the Monte Carlo deals"))
    ] = "heuristic",
    jobs: Jobs = ALL_CORES,
    fmt: FormatOpt = Format.TABLE,
    as_json: JsonAlias = False,
    quiet: Quiet = False,
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
        int,
        count_option(
            "--ceiling-n", help="Deals solved (at most -n and 10,000).", default=DEFAULT_CEILING_N
        ),
    ] = DEFAULT_CEILING_N,
    ceiling_conflicts: Annotated[
        int,
        count_option(
            "--ceiling-conflicts",
            help="SAT engine conflicts per deal the search leaves open (0: search only).",
            default=DEFAULT_CONFLICTS,
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

    set_quiet(quiet)
    fmt = chosen_format(fmt, as_json)
    seats = _seats(players)
    cards = resolve_tasks(tasks)
    given = parse_owners(owners, len(cards), seats) if owners is not None else None
    if games < 0:
        raise CrewsimError(f"-n: expected 0 or more games, got {games}")
    check_games(games)
    if games > 0 and get_bot(bot).kind == "pimc":  # its solver does not take Deep Sea tasks
        raise CrewsimError("--bot pimc: the pimc crew plays no Deep Sea mission; use another crew")
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
        warn_if_long(
            games / (GAMES_PER_SECOND_PER_CORE.get(get_bot(bot).kind, 5.0) * worker_count(jobs)),
            f"{plural(games, 'game')} of the bot crew",
        )
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
    if fmt is Format.JSON:
        typer.echo(json_text(_json(cards, given, players, seats, result, mc)))
    elif fmt is Format.CSV:
        typer.echo(_csv(cards, given, players, result, mc), nl=False)
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


def _csv(
    cards: Sequence[TaskCard],
    owners: Sequence[int] | None,
    players: int,
    result: StaticResult,
    mc: dict[str, Any] | None,
) -> str:
    """One row per task: the card, its owner, and the verdict of the whole set (the same on
    every row): contradiction or not, the first reason, the Monte Carlo rate."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(
        [
            "number",
            "ref_id",
            "text",
            "difficulty",
            "owner",
            "contradiction",
            "reason",
            "success_rate",
        ]
    )
    reason = result.contradictions[0] if result.contradictions else ""
    rate = "" if mc is None or mc["success_rate"] is None else mc["success_rate"]
    for i, c in enumerate(cards):
        owner = "" if owners is None else owners[i]
        writer.writerow(
            [
                c.number,
                c.ref_id,
                c.text,
                c.difficulty_for(players),
                owner,
                "yes" if result.contradictions else "no",
                reason,
                rate,
            ]
        )
    return buf.getvalue()


def _lines(
    cards: Sequence[TaskCard],
    owners: Sequence[int] | None,
    players: int,
    seats: int,
    result: StaticResult,
    mc: dict[str, Any] | None,
) -> Iterator[str]:
    yield f"{plural(len(cards), 'task')}, {players} players ({seats} seats, captain = seat 0):"
    for i, c in enumerate(cards):
        who = "" if owners is None else f"  -> seat {owners[i]}"
        yield f"  {c.label} (difficulty {c.difficulty_for(players)}){who}"
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
            f"Monte Carlo ({mc['bot']} crew, {plural(mc['games'], 'deal')}, seed {mc['seed']}): "
            f"{pct_ci(mc['success_rate'], mc['ci_low'], mc['ci_high'])} completed (95 % CI)"
        )
        top = mc["top_failing_card"]
        if top is not None:
            yield (
                f"most frequent failing card: {get_task_card(top['number']).label} "
                f"({100 * top['share']:.1f} % of deals)"
            )
        if mc["ceiling"] is not None:
            yield from _ceiling_lines(mc["ceiling"])


def _ceiling_lines(c: dict[str, Any]) -> Iterator[str]:
    """The ceiling in words: what could be won, and what the bots won of the same deals."""
    feasible = pct_ci(c["feasible_share"], c["feasible_low"], c["feasible_high"], 1)
    yield (
        f"perfect-information ceiling (the first {c['ceiling_games']:,} of those deals, as the "
        f"bots drafted them): {feasible} could be won, "
        f"{pct(c['unknown_share'], 1)} undecided"
    )
    yield (
        f"the bots won {pct(c['ceiling_success_rate'], 1)} of those deals: efficiency "
        f"{pct_ci(c['bot_efficiency'], c['efficiency_low'], c['efficiency_high'], 1)} "
        "of the winnable ones"
    )
