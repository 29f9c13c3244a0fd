"""Can these Deep Sea task cards be completed together?  The answers `crewsim check-tasks` gives.

The static answer comes from the rules alone (``crewsim.rules.deep_sea_setup``'s
``contradictions``, which proves impossibility by counting and never plays a hand out).
Without owners a contradiction only counts as proven when it holds for *every* way the rules
allow to hand the tasks out (the captain never holds a "... than the captain" card; volunteer
and free-selection missions allow any split, so any split is considered).  The search assigns
the tasks one by one and prunes a partial assignment as soon as its tasks already contradict:
a contradiction is a proof that those tasks cannot all be completed, so adding tasks cannot lift
it.  Non-captain seats are interchangeable for the checker, so each split is tried once up to
renaming them.  Two readings are shown as well: "one owner" (a crew member other than the
captain takes everything) and "all different owners" (nobody takes two).

The Monte Carlo answer (``estimate``) plays random deals with a bot crew in the kernel, the
tasks riding on a plain carrier mission; ``ceiling`` solves the first of those deals as the bots
drafted them, so a low rate can be told apart from a hard combination.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from crewsim.cards import Game, seats_of
from crewsim.kernel.layout import FAIL_CONDITION
from crewsim.missions import TaskCard, get_mission
from crewsim.rules.deal import Deal
from crewsim.rules.deep_sea_setup import captain_may_take, contradictions, draft_problems
from crewsim.runs.stats import describe_failure, wilson

if TYPE_CHECKING:
    from crewsim.missions.schema import Mission
    from crewsim.runs.plan import ChunkTask
    from crewsim.solver.problem import Problem, Result

CARRIER = "ds-1"  # a plain Deep Sea mission: normal communication, draft selection
CHUNK = 10_000  # games per kernel call; the plan is prefix-stable (runs.plan.plan_chunks)
CAPTAIN = 0


class Shape(Enum):
    """Which ways of handing the tasks out a search tries."""

    ANY = "any"
    ONE = "one"  # one seat takes all
    DISTINCT = "distinct"  # nobody takes two


# ---------------------------------------------------------------- static check


def _assignments(
    cards: Sequence[TaskCard],
    seats: int,
    players: int,
    shape: Shape,
) -> Iterator[list[int]]:
    """Full assignments the rules allow, up to renaming non-captain seats, pruned as they grow.

    ``shape``: any split, one seat takes all, or nobody takes two.  A partial
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
            if shape is Shape.ONE and i and seat != owners[0]:
                continue
            if shape is Shape.DISTINCT and seat in owners:
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
    shape: Shape,
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
    seats = seats_of(players)
    if owners is not None:  # the captain's forbidden cards are among the contradictions
        given = contradictions(cards, owners, players, CAPTAIN)
        return StaticResult(given, [], None, draft_problems(cards, owners, players, CAPTAIN))
    n = len(cards)
    one = _reading("one owner", cards, seats, players, Shape.ONE, lambda: [1] * n, "")
    distinct = _reading(
        "all different owners",
        cards,
        seats,
        players,
        Shape.DISTINCT,
        lambda: _distinct_canonical(cards, seats),
        f"{n} tasks but only {seats} seats"
        if n > seats
        else "every seat must take one, and the captain may take none of these",
    )
    readings = [one, distinct]
    witness = next(_assignments(cards, seats, players, Shape.ANY), None)
    found: list[str] = []
    if witness is None:
        found = [
            f"{r.name} ({owners_text(r.owners)}): {reason}"
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


def owners_text(owners: Sequence[int] | None) -> str:
    return "owners " + ",".join(map(str, owners)) if owners is not None else "impossible"


# ---------------------------------------------------------------- Monte Carlo


def _play(
    mp: np.ndarray, bp: np.ndarray, games: int, seed: int
) -> tuple[int, Counter[tuple[int, int]]]:
    """One chunk in the kernel: successes and failure (kind, detail) counts (runs in a worker)."""
    from crewsim.solver.pimc import runner

    res = runner(bp)(mp, bp, games, seed)
    fails = ~res["success"]
    kinds = zip(res["fail_kind"][fails].tolist(), res["fail_detail"][fails].tolist(), strict=True)
    return int(res["success"].sum()), Counter(kinds)


def warm_up() -> None:
    """Compile (or load) the game kernel here, so a progress bar counts games only and the
    workers find it in the cache."""
    from crewsim.bots import get_bot
    from crewsim.kernel.spec import KernelMission
    from crewsim.runs.chunks import warm_kernel

    warm_kernel(
        KernelMission(get_mission(CARRIER), 4, distress="never").vector(),
        get_bot("heuristic").vector(),
    )


def _vectors(
    cards: Sequence[TaskCard], owners: Sequence[int] | None, players: int, bot: str
) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's mission and bot parameters: the tasks on the carrier, no distress signal."""
    from crewsim.bots import get_bot
    from crewsim.kernel.spec import KernelMission

    mp = KernelMission(
        get_mission(CARRIER),
        players,
        distress="never",
        tasks=tuple(c.number for c in cards),
        owners=tuple(owners) if owners is not None else (),
    ).vector()
    return mp, get_bot(bot).vector()


def _chunks(players: int, games: int, seed: int) -> list[ChunkTask]:
    """The Monte Carlo's chunks, seeded as ``crewsim simulate`` seeds a cell's."""
    from crewsim.runs.plan import plan_chunks

    return plan_chunks([f"check-tasks-{players}p"], games, seed, CHUNK)


def estimate(
    cards: Sequence[TaskCard],
    owners: Sequence[int] | None,
    players: int,
    games: int,
    seed: int,
    bot: str,
    jobs: int,
    on_games: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Share of random deals the bot crew completes, with its Wilson 95 % interval.

    The tasks ride on the carrier mission (``CARRIER``); its difficulty is ignored, the kernel
    never repairs given tasks, and the distress signal is never used.  Chunk seeds come from
    the root seed as ``crewsim simulate`` derives them (``crewsim.runs.plan.plan_chunks``), so the
    numbers do not depend on ``jobs``.  ``on_games`` hears the games of each chunk done.
    """
    from crewsim.runs.backends import LokyBackend

    mp, bp = _vectors(cards, owners, players, bot)
    chunks = _chunks(players, games, seed)
    workers = LokyBackend(jobs)  # one chunk runs in this process (LokyBackend caps workers)
    parts = []
    for t, part in zip(
        chunks, workers.imap(_play, [(mp, bp, t.games, t.seed) for t in chunks]), strict=True
    ):
        parts.append(part)
        if on_games is not None:
            on_games(t.games)
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
                "text": _failure_text(kind, detail, by_number),
                "games": count,
                "share": count / games,
            }
            for (kind, detail), count in top
        ],
    }


def ceiling(
    cards: Sequence[TaskCard],
    owners: Sequence[int] | None,
    players: int,
    games: int,
    seed: int,
    bot: str,
    deals: int,
    conflicts: int,
    on_deal: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """The perfect-information ceiling beside the bots' rate: the first ``deals`` deals of the
    Monte Carlo's first chunk, exactly as the bots drafted and played them, solved
    (``crewsim.solver``, up to ``conflicts`` SAT conflicts each).  ``on_deal`` hears each one."""
    from crewsim.runs.ceiling import ceiling_cell
    from crewsim.solver.api import solve

    mp, bp = _vectors(cards, owners, players, bot)
    n = min(deals, games, CHUNK)

    def solve_one(problem: Problem) -> Result:
        result = solve(problem, conflicts=conflicts)
        if on_deal is not None:
            on_deal()
        return result

    row = ceiling_cell(
        get_mission(CARRIER),
        players,
        mp,
        bp,
        _chunks(players, games, seed)[0].seed,
        n,
        conflicts,
        solver=solve_one,
        problem=_problem,
    )
    del row["mission"], row["players"]
    return {"conflicts": conflicts, **row}


def _problem(mission: Mission, players: int, rec: Mapping[str, np.ndarray], i: int) -> Problem:
    """Game ``i`` of a recorded chunk as a solver problem: its deal and task cards as drafted.
    Not through the referee's set-up, which would refuse owners a plain draft cannot give
    (``--owners`` may give them; the kernel plays them anyway)."""
    from crewsim.runs.replay import recorded_deep_tasks
    from crewsim.solver.problem import problem_from_mission

    under = tuple((int(a), int(b)) for a, b in rec["rec_under"][i] if a >= 0)
    deal = Deal(players, tuple(int(h) for h in rec["rec_hands"][i][: seats_of(players)]), under)
    return problem_from_mission(deal, (), mission, deep=recorded_deep_tasks(rec, i))


def _failure_text(kind: int, detail: int, by_number: dict[int, TaskCard]) -> str:
    if kind == FAIL_CONDITION and detail in by_number:
        return f"task card {detail} {by_number[detail].ref_id!r} failed"
    return describe_failure(kind, detail, None, Game.DEEP_SEA)
