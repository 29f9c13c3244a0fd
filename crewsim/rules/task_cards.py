"""The Deep Sea task cards of one hand, each held by a seat, judged together after every trick.

``judge_tasks`` freezes the hand (``snapshot``) and asks each pending card's judge
(``crewsim.rules.conditions``); the mission fails with the first failed card and succeeds once
every card is done.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from crewsim.missions.schema import TaskCard
from crewsim.rules.conditions import DONE, FAILED, PENDING, TaskSnapshot, judge
from crewsim.rules.objectives import Verdict


@dataclass(frozen=True)
class HeldTask:
    """A task card as held in one hand: its owner and, for prediction cards, the number."""

    card: TaskCard
    owner: int
    predicted: int | None = None


class PlayRecord(Protocol):
    """What the hand-level judge reads from a ``GameState`` (or any record shaped like it)."""

    @property
    def deal(self) -> Any: ...  # a crewsim.rules.Deal (only ``players`` is read)
    @property
    def hands(self) -> Sequence[int]: ...  # unplayed cards per seat (dummy: face-up only)
    @property
    def under(self) -> Mapping[int, int]: ...  # dummy: face-up card -> covered card
    @property
    def tricks(self) -> Sequence[tuple[int, ...]]: ...
    @property
    def leaders(self) -> Sequence[int]: ...
    @property
    def winners(self) -> Sequence[int]: ...
    @property
    def winning_cards(self) -> Sequence[int]: ...
    @property
    def n_tricks(self) -> int: ...
    @property
    def commander(self) -> int: ...


def snapshot(record: PlayRecord) -> TaskSnapshot:
    """Freeze a record between tricks; the dummy's covered cards count as in its hand."""
    hands = list(record.hands)
    covered = 0
    for c in record.under.values():
        covered |= 1 << c
    if covered:
        hands[2] |= covered
    won = [0] * len(hands)
    for trick, w in zip(record.tricks, record.winners, strict=True):
        for c in trick:
            won[w] |= 1 << c
    return TaskSnapshot(
        tricks=tuple(tuple(t) for t in record.tricks),
        leaders=tuple(record.leaders),
        winners=tuple(record.winners),
        winning_cards=tuple(record.winning_cards),
        won=tuple(won),
        hands=tuple(hands),
        n_tricks=record.n_tricks,
        captain=record.commander,
        players=record.deal.players,
    )


@dataclass(frozen=True)
class TaskJudgement:
    """Every task's verdict after a trick, and what they mean for the mission."""

    verdicts: tuple[Verdict, ...]
    mission: Verdict  # FAILED if any task failed, DONE if all are done, else PENDING
    reason: str  # why the mission failed ("" unless mission is FAILED)


def judge_tasks(
    record: PlayRecord,
    tasks: Sequence[HeldTask],
    previous: Sequence[Verdict] | None = None,
) -> TaskJudgement:
    """Judge every task of a Deep Sea hand after a trick (call between tricks only).

    ``previous`` is the last judgement's verdicts: DONE and FAILED are kept as they are (a
    task never changes its mind), only PENDING tasks are judged again.  The mission fails the
    moment one task fails and succeeds the moment every task is done (rule 17).
    """
    snap = snapshot(record)
    out: list[Verdict] = []
    for i, task in enumerate(tasks):
        before = previous[i] if previous is not None else PENDING
        if before is not PENDING:
            out.append(before)
            continue
        out.append(judge(task.card, snap.for_owner(task.owner, task.predicted)))
    reason = ""
    if FAILED in out:
        i = out.index(FAILED)
        t = tasks[i]
        reason = f"task {t.card.number} {t.card.ref_id!r} of seat {t.owner} failed"
        mission = FAILED
    elif all(v is DONE for v in out):
        mission = DONE
    else:
        mission = PENDING
    return TaskJudgement(tuple(out), mission, reason)
