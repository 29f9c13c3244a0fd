"""`crewsim check-tasks TASK...`: can these Deep Sea task cards be completed together?

Two answers of different strength.  The static one comes from the rules alone
(``crewsim.rules.deep_sea_setup.find_contradictions``, which proves impossibility by counting
and never plays a hand out): it decides the exit status, so scripts can sort combinations
without simulating.  The optional Monte Carlo one (``-n``) plays random deals with the bot crew
in the kernel and says how often the combination is actually completed; it never changes the
exit status, because a low rate is a fact about the bots, not a proof.

Without ``--owners`` nobody has taken the tasks yet, so a contradiction only counts as proven
when it holds for *every* way the rules allow to hand the tasks out (the captain never holds a
"... than the captain" card; volunteer and free-selection missions allow any split, so any
split is considered).  The search assigns the tasks one by one and prunes a partial assignment
as soon as its tasks already contradict: a contradiction is a proof that those tasks cannot all
be completed, so adding tasks cannot lift it.  Non-captain seats are interchangeable for the
checker, so each split is tried once up to renaming them.  Two readings are shown as
well: "one owner" (a crew member other than the captain takes everything) and "all different
owners" (nobody takes two), each with the contradictions it meets.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

import numpy as np
import typer

from crewsim.cards import seats_of
from crewsim.cli.options import Jobs, Seed, count_option
from crewsim.cli.output import KERNEL_FIRST_RUN, busy
from crewsim.errors import CrewsimError
from crewsim.kernel.layout import FAIL_CONDITION, MAX_FIXED
from crewsim.missions import TaskCard, get_mission, get_task_card
from crewsim.report.format import pct_ci
from crewsim.rules.deep_sea_setup import captain_may_take, contradictions, selection_problems

CARRIER = "ds-1"  # a plain Deep Sea mission: normal communication, draft selection
CHUNK = 10_000  # games per kernel call; the plan is prefix-stable (montecarlo.plan_chunks)
CAPTAIN = 0


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


# ---------------------------------------------------------------- static check


def _assignments(
    cards: Sequence[TaskCard],
    seats: int,
    players: int,
    shape: str,
) -> Iterator[list[int]]:
    """Full assignments the rules allow, up to renaming non-captain seats, pruned as they grow.

    ``shape``: "any", "one" (one seat takes all) or "distinct" (nobody takes two).  A partial
    assignment whose tasks already contradict is dropped with everything below it; tasks that
    clash with others in pairs are placed first, so an impossible combination is refuted near
    the root instead of below every split of the harmless tasks.  Yields owners in the given
    task order, non-captain seats numbered by first appearance.
    """
    n = len(cards)
    order = _search_order(cards, players)
    ordered = [cards[k] for k in order]

    def grow(owners: list[int], used: int) -> Iterator[list[int]]:
        i = len(owners)
        if i == n:
            yield list(owners)
            return
        options = list(range(1, min(used + 1, seats - 1) + 1))  # used seats, then one fresh
        if captain_may_take(ordered[i]):
            options.append(CAPTAIN)
        for seat in options:
            if shape == "one" and i and seat != owners[0]:
                continue
            if shape == "distinct" and seat in owners:
                continue
            owners.append(seat)
            if not contradictions(ordered[: i + 1], owners, players, CAPTAIN):
                yield from grow(owners, max(used, seat))
            owners.pop()

    for found in grow([], 0):
        back = [0] * n
        for pos, k in enumerate(order):
            back[k] = found[pos]
        yield _renumber(back)


def _search_order(cards: Sequence[TaskCard], players: int) -> list[int]:
    """Task indices, those in the most pairwise contradictions (same or two owners) first."""
    clashes = [0] * len(cards)
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            pair = [cards[i], cards[j]]
            k = sum(bool(contradictions(pair, o, players, CAPTAIN)) for o in ([1, 1], [1, 2]))
            clashes[i] += k
            clashes[j] += k
    return sorted(range(len(cards)), key=lambda i: -clashes[i])


def _renumber(owners: Sequence[int]) -> list[int]:
    """Non-captain seats 1, 2, ... in order of first appearance (the checker cannot tell them
    apart, and a witness reads better that way)."""
    names: dict[int, int] = {CAPTAIN: CAPTAIN}
    for o in owners:
        names.setdefault(o, len(names))
    return [names[o] for o in owners]


def _distinct_canonical(cards: Sequence[TaskCard], seats: int) -> list[int] | None:
    """Nobody takes two: crew members 1, 2, ... first, the captain only if seats run out."""
    n = len(cards)
    if n > seats:
        return None
    if n < seats:
        return list(range(1, n + 1))
    # every seat takes one: the captain takes the last card he may take
    allowed = [i for i, c in enumerate(cards) if captain_may_take(c)]
    if not allowed:
        return None
    owners, seat = [], 1
    for i in range(n):
        if i == allowed[-1]:
            owners.append(CAPTAIN)
        else:
            owners.append(seat)
            seat += 1
    return owners


@dataclass(frozen=True)
class Reading:
    """One way of handing the tasks out and what the checker proves about it."""

    name: str
    owners: list[int] | None  # a contradiction-free assignment, else the canonical one
    contradictions: list[str]  # empty when ``owners`` avoids every contradiction
    note: str = ""  # why the reading is impossible under the rules, if it is

    def to_dict(self) -> dict[str, Any]:
        return {
            "owners": self.owners,
            "contradiction": bool(self.contradictions),
            "contradictions": self.contradictions,
            "note": self.note,
        }


def _reading(
    name: str,
    cards: Sequence[TaskCard],
    seats: int,
    players: int,
    shape: str,
    canonical: Callable[[], list[int] | None],
    impossible: str,
) -> Reading:
    witness = next(_assignments(cards, seats, players, shape), None)
    if witness is not None:
        return Reading(name, witness, [])
    owners = canonical()
    if owners is None:
        return Reading(name, None, [], impossible)
    return Reading(name, owners, contradictions(cards, owners, players, CAPTAIN))


@dataclass(frozen=True)
class StaticResult:
    """The exit-status part of the answer."""

    contradictions: list[str]  # proven: the combination (as given) can never be completed
    readings: list[Reading]  # without --owners: the two readings
    witness: list[int] | None  # without --owners: an assignment that avoids them all
    notes: list[str]  # with --owners: why a plain draft could not produce them (no effect)


def check(cards: Sequence[TaskCard], owners: Sequence[int] | None, players: int) -> StaticResult:
    """Contradictions for the given owners, or for every assignment the rules allow."""
    seats = _seats(players)
    if owners is not None:
        given = contradictions(cards, owners, players, CAPTAIN)
        notes = [
            p
            for p in selection_problems(cards, owners, players, CAPTAIN)
            if "may not take" not in p
        ]
        return StaticResult(given, [], None, notes)
    n = len(cards)
    one = _reading("one owner", cards, seats, players, "one", lambda: [1] * n, "")
    distinct = _reading(
        "all different owners",
        cards,
        seats,
        players,
        "distinct",
        lambda: _distinct_canonical(cards, seats),
        f"{n} tasks but only {seats} seats"
        if n > seats
        else "every seat must take one, and the captain may take none of these",
    )
    readings = [one, distinct]
    witness = next(_assignments(cards, seats, players, "any"), None)
    found: list[str] = []
    if witness is None:
        found = [
            f"{r.name} ({_owners_text(r.owners)}): {reason}"
            for r in readings
            if r.owners is not None
            for reason in r.contradictions
        ]
        found.insert(
            0,
            "every way the rules allow to give these tasks out meets a contradiction "
            "(the readings show some)",
        )
    return StaticResult(found, readings, witness, [])


def _owners_text(owners: Sequence[int] | None) -> str:
    return "owners " + ",".join(map(str, owners)) if owners is not None else "impossible"


# ---------------------------------------------------------------- Monte Carlo


def _play(
    mp: np.ndarray, bp: np.ndarray, games: int, seed: int
) -> tuple[int, Counter[tuple[int, int]]]:
    """One chunk in the kernel: successes and failure (kind, detail) counts (runs in a worker)."""
    from crewsim.kernel.run import run_chunk

    res = run_chunk(mp, bp, games, seed)
    fails = ~res["success"]
    kinds = zip(res["fail_kind"][fails].tolist(), res["fail_detail"][fails].tolist(), strict=True)
    return int(res["success"].sum()), Counter(kinds)


def estimate(
    cards: Sequence[TaskCard],
    owners: Sequence[int] | None,
    players: int,
    games: int,
    seed: int,
    bot: str,
    jobs: int,
) -> dict[str, Any]:
    """Share of random deals the bot crew completes, with its Wilson 95 % interval.

    The tasks ride on the carrier mission (``CARRIER``); its difficulty is ignored, the kernel
    never repairs given tasks, and the distress signal is never used.  Chunk seeds come from
    the root seed as ``crewsim simulate`` derives them (``montecarlo.plan_chunks``), so the
    numbers do not depend on ``jobs``.
    """
    from crewsim.backends import LokyBackend
    from crewsim.bots import get_bot
    from crewsim.kernel.spec import KernelMission
    from crewsim.montecarlo import plan_chunks
    from crewsim.stats import describe_failure, wilson

    bp = get_bot(bot).vector()
    mp = KernelMission(
        get_mission(CARRIER),
        players,
        distress="never",
        tasks=tuple(c.number for c in cards),
        owners=tuple(owners) if owners is not None else (),
    ).vector()
    chunks = plan_chunks([f"check-tasks-{players}p"], games, seed, CHUNK)
    workers = LokyBackend(jobs)  # one chunk runs in this process (LokyBackend caps workers)
    parts = list(workers.imap(_play, [(mp, bp, t.games, t.seed) for t in chunks]))
    successes = sum(s for s, _ in parts)
    failures: Counter[tuple[int, int]] = Counter()
    for _, f in parts:
        failures.update(f)
    low, high = wilson(successes, games)
    by_number = {c.number: c for c in cards}
    card_fails = Counter({d: k for (kind, d), k in failures.items() if kind == FAIL_CONDITION})
    top_card = None
    if card_fails:
        number, count = max(card_fails.items(), key=lambda kv: (kv[1], -kv[0]))
        card = by_number.get(number)
        top_card = {
            "number": number,
            "ref_id": card.ref_id if card else "",
            "games": count,
            "share": count / games,
        }
    from crewsim.cards import Game

    top = sorted(failures.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    return {
        "games": games,
        "successes": successes,
        "success_rate": successes / games,
        "ci_low": low,
        "ci_high": high,
        "seed": seed,
        "bot": bot,
        "carrier": CARRIER,
        "top_failing_card": top_card,
        "failures": [
            {
                "kind": kind,
                "detail": detail,
                "text": _failure_text(kind, detail, by_number, describe_failure, Game.DEEP_SEA),
                "games": count,
                "share": count / games,
            }
            for (kind, detail), count in top
        ],
    }


def _failure_text(
    kind: int,
    detail: int,
    by_number: dict[int, TaskCard],
    describe: Callable[[int, int, int | None, Any], str],
    game: Any,
) -> str:
    if kind == FAIL_CONDITION and detail in by_number:
        return f"task card {detail} {by_number[detail].ref_id!r} failed"
    return describe(kind, detail, None, game)


# ---------------------------------------------------------------- command


def check_tasks(
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
    that fails most often.

    Exit status: 0 no contradiction, 1 contradiction, 2 bad input.
    """
    from crewsim.montecarlo import check_games

    seats = _seats(players)
    cards = resolve_tasks(tasks)
    given = parse_owners(owners, len(cards), seats) if owners is not None else None
    if games < 0:
        raise CrewsimError(f"-n: expected 0 or more games, got {games}")
    check_games(games)
    result = check(cards, given, players)
    mc = None
    if games > 0:  # a fresh install first compiles the kernel: a minute of silence otherwise
        with busy(f"playing {games:,} deals with the {bot} crew ({KERNEL_FIRST_RUN})"):
            mc = estimate(cards, given, players, games, seed, bot, jobs)
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
                yield f"{r.name}: no contradiction (e.g. {_owners_text(r.owners)})"
            else:
                for reason in r.contradictions:
                    yield f"{r.name} ({_owners_text(r.owners)}): {reason}"
    if result.contradictions:
        shown = result.contradictions if owners is not None else result.contradictions[:1]
        for reason in shown:  # without owners the readings above already gave the reasons
            yield f"contradiction: {reason}"
    elif owners is None:
        yield (
            f"no contradiction found: e.g. {_owners_text(result.witness)} avoid every "
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
