"""The kernel's Deep Sea condition judges against the referee's, trick by trick.

Random hands (random legal play, plus hands where one seat is dealt the strongest cards and
plays them, so that rare conditions such as "all nine cards of one colour" also come true) at
2-5 players: after every trick each task is judged by ``crewsim.rules.conditions`` on a fresh
snapshot and by ``crewsim.kernel.conditions.ds_judge`` on the kernel's inputs, latched as the
engine latches it.  Both must give the same verdict on every trick.  The rigged cases of the
referee's own unit tests are replayed the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pytest

from crewsim.cards import FULL_DECK, mask_of
from crewsim.kernel.conditions import CODE_SIZE, KIND_CODES, ST_SIZE, ds_judge, encode_task
from crewsim.missions import get_task_card, load_task_cards
from crewsim.missions.schema import TaskCard, TaskKind
from crewsim.rules import Deal, deal_cards, legal_plays, n_tricks, trick_winner
from crewsim.rules.conditions import TaskSnapshot, judge
from crewsim.rules.objectives import Verdict
from crewsim.rules.task_cards import snapshot
from tests.rules.rules_helpers import Record
from tests.rules.test_conditions import CASES, Case

CARDS = load_task_cards()
CODE = {Verdict.PENDING: 0, Verdict.DONE: 1, Verdict.FAILED: 2}
NAME = {0: "pending", 1: "done", 2: "failed"}
HANDS_PER_PLAYERS = {2: 500, 3: 500, 4: 500, 5: 500}
TASKS_PER_HAND = 24


@dataclass
class Tally:
    mismatches: list[str] = field(default_factory=list)
    seen: dict[str, set[int]] = field(default_factory=dict)  # kind -> kernel verdicts met
    cards: set[int] = field(default_factory=set)  # numbers of the task cards judged
    judged: int = 0


def _strength(c: int) -> int:
    """Submarines first, then colour cards by value (9s before 8s ...)."""
    return 100 + c if c >= 36 else 10 * (c % 9)


def _strong_deal(players: int, rng: np.random.Generator) -> tuple[Deal, int]:
    """Deal a random seat the strongest cards (a little shuffled), the rest at random."""
    seats = players
    sizes = [40 // players + (1 if players == 3 and s == 0 else 0) for s in range(seats)]
    strong = int(rng.integers(seats))
    order = sorted(range(40), key=lambda c: _strength(c) + rng.uniform(0, 25), reverse=True)
    top = order[: sizes[strong]]
    rest = [order[i] for i in rng.permutation(len(order) - len(top)) + len(top)]
    hands = [0] * seats
    hands[strong] = mask_of(top)
    i = 0
    for s in range(seats):
        if s != strong:
            hands[s] = mask_of(rest[i : i + sizes[s]])
            i += sizes[s]
    return Deal(players, tuple(hands)), strong


def _kernel_inputs(rec: Record, full_dummy: bool) -> tuple[np.ndarray, ...]:
    seats = rec.deal.seats
    won_tricks = np.zeros(5, dtype=np.int64)
    won_cards = np.zeros(5, dtype=np.int64)
    for trick, w in zip(rec.tricks, rec.winners, strict=True):
        won_tricks[w] += 1
        won_cards[w] |= mask_of(trick)
    hands = np.zeros(5, dtype=np.int64)
    hands[:seats] = rec.hands
    if full_dummy and rec.under:  # the engine may pass the dummy with or without its stacks
        hands[2] |= mask_of(rec.under.values())
    last = np.full(5, -1, dtype=np.int64)
    last[:seats] = rec.tricks[-1]
    return last, won_tricks, won_cards, hands


@dataclass
class Held:
    card: TaskCard
    owner: int
    pred: int
    code: np.ndarray
    st: np.ndarray = field(default_factory=lambda: np.zeros(ST_SIZE, dtype=np.int64))
    verdict: int = 0


def _judge_all(rec: Record, tasks: Sequence[Held], tally: Tally, tag: str) -> None:
    """Referee and kernel verdicts of every task after the trick just finished."""
    snap = snapshot(rec)
    t = len(rec.tricks) - 1
    trick, won_tricks, won_cards, hands = _kernel_inputs(rec, full_dummy=t % 2 == 1)
    in_hands = 0
    for h in rec.hands:
        in_hands |= h
    for u in rec.under.values():
        in_hands |= 1 << u
    for task in tasks:
        want = CODE[judge(task.card, snap.for_owner(task.owner, task.pred))]
        if task.verdict == 0:
            task.verdict = int(
                ds_judge(
                    task.code,
                    task.owner,
                    task.pred,
                    task.st,
                    t,
                    rec.n_tricks,
                    rec.deal.seats,
                    rec.deal.players,
                    rec.commander,
                    trick,
                    rec.leaders[-1],
                    rec.winners[-1],
                    rec.winning_cards[-1],
                    won_tricks,
                    won_cards,
                    np.int64(in_hands),
                    hands,
                )
            )
        tally.judged += 1
        tally.cards.add(task.card.number)
        tally.seen.setdefault(task.card.kind.value, set()).add(task.verdict)
        if task.verdict != want and len(tally.mismatches) < 20:
            tally.mismatches.append(
                f"{tag} trick {t}: {task.card.ref_id} owner {task.owner} pred {task.pred}: "
                f"kernel {NAME[task.verdict]}, referee {NAME[want]}; tricks {rec.tricks}"
            )


def _play_hand(players: int, rng: np.random.Generator, tally: Tally, tag: str) -> None:
    strong_style = rng.random() < 0.4
    strong = -1
    if strong_style and players > 2:
        deal, strong = _strong_deal(players, rng)
    else:
        deal = deal_cards(players, rng)
        if strong_style:
            strong = int(rng.integers(deal.seats))
    seats, nt = deal.seats, n_tricks(players)
    tasks = []
    for i in rng.choice(len(CARDS), TASKS_PER_HAND, replace=False):
        task_card = CARDS[int(i)]
        owner = strong if strong >= 0 and rng.random() < 0.7 else int(rng.integers(seats))
        pred = int(rng.integers(0, 5))
        tasks.append(Held(task_card, owner, pred, encode_task(task_card, players)))
    rec = Record(deal, list(deal.hands), dict(deal.dummy_under), nt, deal.commander)
    leader = deal.commander
    for _ in range(nt):
        trick: list[int] = []
        uncover: list[int] = []
        for k in range(seats):
            seat = (leader + k) % seats
            led = trick[0] // 9 if trick else None
            options = legal_plays(rec.hands[seat], led)
            if seat == strong and rng.random() < 0.9:
                card = max(range(40), key=lambda c: _strength(c) if options >> c & 1 else -1)
            else:
                card = int(rng.choice([c for c in range(40) if options >> c & 1]))
            rec.hands[seat] &= ~(1 << card)
            if card in rec.under:
                uncover.append(card)
            trick.append(card)
        for top in uncover:
            rec.hands[2] |= 1 << rec.under.pop(top)
        winner, wcard = trick_winner(trick, leader, seats)
        rec.tricks.append(tuple(trick))
        rec.leaders.append(leader)
        rec.winners.append(winner)
        rec.winning_cards.append(wcard)
        leader = winner
        _judge_all(rec, tasks, tally, tag)


@pytest.fixture(scope="module")
def tallies() -> dict[int, Tally]:
    out = {}
    for players, hands in HANDS_PER_PLAYERS.items():
        rng = np.random.default_rng(4000 + players)
        tally = Tally()
        for i in range(hands):
            _play_hand(players, rng, tally, f"{players}p hand {i}")
        out[players] = tally
    return out


@pytest.mark.parametrize("players", sorted(HANDS_PER_PLAYERS))
def test_kernel_judges_agree_with_referee_on_random_hands(
    tallies: dict[int, Tally], players: int
) -> None:
    tally = tallies[players]
    assert tally.judged > 10_000
    assert not tally.mismatches, "\n".join(tally.mismatches)


def test_every_kind_has_a_code_and_meets_every_verdict(tallies: dict[int, Tally]) -> None:
    assert set(KIND_CODES) == {k.value for k in TaskKind}
    assert sorted(KIND_CODES.values()) == list(range(1, len(TaskKind) + 1))
    assert set().union(*(t.cards for t in tallies.values())) == {c.number for c in CARDS}
    seen: dict[str, set[int]] = {}
    for tally in tallies.values():
        for kind, verdicts in tally.seen.items():
            seen.setdefault(kind, set()).update(verdicts)
    shipped = {c.kind.value for c in CARDS}
    missing = {k: sorted(NAME[v] for v in {0, 1, 2} - seen.get(k, set())) for k in shipped}
    assert not {k: v for k, v in missing.items() if v}, missing


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_card_encodes(players: int) -> None:
    for card in CARDS:
        row = encode_task(card, players)
        assert row.dtype == np.int64 and row.shape == (CODE_SIZE,)
        assert row[0] == KIND_CODES[card.kind.value]


# ---------------------------------------------------------------- the referee's rigged cases


def _replay_snapshot(card: TaskCard, snap: TaskSnapshot) -> list[tuple[int, int]]:
    """(referee, kernel) verdicts after each trick of a rigged snapshot, hands rebuilt."""
    seats = snap.seats
    code = encode_task(card, snap.players, snap.n_tricks)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    verdict, out = 0, []
    for t in range(snap.played):
        hands = list(snap.hands)  # cards of later tricks are still in the hands
        for u in range(t + 1, snap.played):
            for k, c in enumerate(snap.tricks[u]):
                hands[(snap.leaders[u] + k) % seats] |= 1 << c
        prefix = TaskSnapshot.from_play(
            snap.tricks[: t + 1],
            snap.leaders[: t + 1],
            hands,
            snap.n_tricks,
            snap.captain,
            snap.players,
            snap.owner,
            snap.predicted,
        )
        want = CODE[judge(card, prefix)]
        if verdict == 0:
            in_hands = 0
            for h in hands:
                in_hands |= h
            won_tricks = np.zeros(5, dtype=np.int64)
            won_cards = np.zeros(5, dtype=np.int64)
            won_tricks[:seats] = [prefix.wins_of(s) for s in range(seats)]
            won_cards[:seats] = prefix.won
            kernel_hands = np.zeros(5, dtype=np.int64)
            kernel_hands[:seats] = hands
            trick = np.full(5, -1, dtype=np.int64)
            trick[:seats] = snap.tricks[t]
            verdict = int(
                ds_judge(
                    code,
                    snap.owner,
                    -1 if snap.predicted is None else snap.predicted,
                    st,
                    t,
                    snap.n_tricks,
                    seats,
                    snap.players,
                    snap.captain,
                    trick,
                    snap.leaders[t],
                    snap.winners[t],
                    snap.winning_cards[t],
                    won_tricks,
                    won_cards,
                    np.int64(in_hands & FULL_DECK),
                    kernel_hands,
                )
            )
        out.append((want, verdict))
    return out


@pytest.mark.parametrize("c", CASES, ids=lambda c: f"{c.ref}-{c.want.value}-{c.why}")
def test_rigged_case(c: Case) -> None:
    """Replayed trick by trick, the kernel follows the referee to the case's verdict."""
    steps = _replay_snapshot(get_task_card(c.ref), c.snap)
    assert steps[-1][0] == CODE[c.want]
    assert all(want == got for want, got in steps), steps
