"""A hand of The Crew applied one move at a time, with verify_/can_/do triples and a history.

``verify_x`` raises :class:`IllegalMove` naming the broken rule, ``can_x`` answers yes/no and
``x`` applies the move.  Moves: assign a task, designate crew members, hand a task over
(5 players), distress signal, communicate, draw a card (Planet Nine 12), play a card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from crewsim.cards import (
    SUIT_MASK,
    TRUMP,
    Game,
    card_name,
    cards_of,
    format_cards,
    popcount,
    suit_of,
)
from crewsim.rules.deal import Deal
from crewsim.rules.deep_sea_setup import allocation_problems
from crewsim.rules.objectives import DESIGNATED, JUDGES, HandSoFar, Verdict
from crewsim.rules.order import OMEGA, predecessors
from crewsim.rules.play import legal_plays, n_tricks, trick_winner
from crewsim.rules.task_cards import HeldTask, judge_tasks

if TYPE_CHECKING:
    from crewsim.missions.schema import Mission


class IllegalMove(ValueError):
    """A move the rules forbid; the message names the rule."""


class Claim(str, Enum):
    """Where the communication token sits on the shown card."""

    HIGHEST = "highest"
    ONLY = "only"
    LOWEST = "lowest"


@dataclass(frozen=True)
class TaskSpec:
    """A Planet Nine task card: win the trick holding ``card``; ``token`` orders it."""

    card: int
    token: str | None = None
    owner: int | None = None


@dataclass(frozen=True)
class Rules:
    """The parts of a mission the referee enforces (built from a Mission record)."""

    communication: str = "normal"  # normal | dead_zone | rapture | none
    comm_from_trick: int = 1
    comm_until_trick: int = 0  # Deep Sea 10/13: only before this trick (0 = no limit)
    silenced_member: bool = False
    task_handover_5p: bool = False
    card_draw_after_trick: int = 0
    objectives: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    allocation: str = "draft"

    @classmethod
    def of(cls, mission: Mission) -> Rules:
        """Read the fields the referee needs from a ``crewsim.missions.Mission``."""
        return cls(
            communication=str(getattr(mission.communication, "value", mission.communication)),
            comm_from_trick=mission.comm_from_trick,
            silenced_member=mission.silenced_member,
            task_handover_5p=mission.task_handover_5p,
            card_draw_after_trick=mission.card_draw_after_trick,
            objectives=tuple(
                (str(getattr(o.kind, "value", o.kind)), dict(o.params)) for o in mission.objectives
            ),
            allocation=str(getattr(mission.allocation, "value", mission.allocation)),
        )

    @property
    def n_designated(self) -> int:
        return max((DESIGNATED.get(k, 0) for k, _ in self.objectives), default=0)

    @property
    def omega_last_trick(self) -> bool:
        return any(k == "omega_last_trick" for k, _ in self.objectives)


@dataclass(frozen=True)
class Outcome:
    success: bool
    trick: int  # index of the trick that decided it (0-based)
    reason: str
    kind: str = ""  # wrong_winner | order | not_done | objective | condition ("" on success)


@dataclass
class GameState:
    """Mutable state of one hand; every change goes through a verified move."""

    deal: Deal
    tasks: list[TaskSpec] = field(default_factory=list)
    rules: Rules = field(default_factory=Rules)
    game: Game = Game.PLANET_NINE
    deep_tasks: list[HeldTask] = field(default_factory=list)  # Deep Sea condition tasks

    def __post_init__(self) -> None:
        self.hands = list(self.deal.hands)
        self.under = dict(self.deal.dummy_under)
        self.seats = self.deal.seats
        self.n_tricks = n_tricks(self.deal.players)
        self.commander = self.deal.commander
        self.leader = self.commander
        self.trick: list[int] = []
        self.tricks: list[tuple[int, ...]] = []
        self.leaders: list[int] = []
        self.winners: list[int] = []
        self.winning_cards: list[int] = []
        self.done_tasks: dict[int, int] = {}  # task index -> trick completed
        self.comm_used = [False] * self.seats
        self.comms: list[tuple[int, int, Claim, int]] = []  # seat, card, claim, before trick
        self.distress: int = 0  # 0 unused, +1 passed clockwise, -1 counter-clockwise
        self.distress_passes: tuple[int, ...] = ()  # the card each seat passed
        self.designated: tuple[int, ...] = ()
        self.silenced: int | None = None
        self.handed_over = False
        self.draws: tuple[int, ...] = ()  # Planet Nine 12: the card each seat drew
        self.comms_before_draw = 0  # the communications made before the draw
        self.outcome: Outcome | None = None
        self.history: list[str] = []
        self._objective_done = [False] * len(self.rules.objectives)
        self._deep_verdicts: tuple[Verdict, ...] | None = None
        self._pred = predecessors([t.token for t in self.tasks])

    # ---- derived facts -------------------------------------------------------------------
    @property
    def is_dummy_game(self) -> bool:
        return self.deal.players == 2

    def is_dummy(self, seat: int) -> bool:
        return self.is_dummy_game and seat == 2

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.seats

    @property
    def tasks_assigned(self) -> bool:
        return all(t.owner is not None for t in self.tasks)

    @property
    def started(self) -> bool:
        return bool(self.tricks or self.trick)

    @property
    def in_hands(self) -> int:
        m = 0
        for h in self.hands:
            m |= h
        for u in self.under.values():
            m |= 1 << u
        return m

    def _name(self, c: int) -> str:
        return card_name(c, self.game)

    def _who(self, seat: int) -> str:
        if self.is_dummy(seat):
            return "JARVIS" if self.game is Game.PLANET_NINE else "dummy"
        return f"P{seat}" + ("*" if seat == self.commander else "")

    def _require(self, ok: bool, why: str) -> None:
        if not ok:
            raise IllegalMove(why)

    def _require_running(self) -> None:
        self._require(self.outcome is None, "the hand is over")

    # ---- task allocation -----------------------------------------------------------------
    def next_drafter(self) -> int:
        """Draft order: commander first, then clockwise, one task at a time (dummy included)."""
        taken = sum(1 for t in self.tasks if t.owner is not None)
        return (self.commander + taken) % self.seats

    def verify_assign_task(self, index: int, owner: int, by: int | None = None) -> None:
        self._require(0 <= index < len(self.tasks), f"no task number {index}")
        self._require(self.tasks[index].owner is None, "that task is already taken")
        self._require(0 <= owner < self.seats, f"no seat {owner}")
        self._require(not self.started, "tasks are allocated before the first trick")
        if self.rules.allocation == "draft":
            self._require(
                owner == self.next_drafter(),
                f"it is {self._who(self.next_drafter())}'s turn to take a task",
            )
        elif self.rules.allocation == "commander_distributes":
            self._require(
                self._even_share_allows(owner),
                f"{self._who(owner)} has enough tasks: the commander distributes evenly",
            )
        elif self.rules.allocation == "one_member":  # Planet Nine 20/27/37
            self._require(owner != self.commander, "the commander gives the tasks to another")
            taken = {t.owner for t in self.tasks if t.owner is not None}
            self._require(taken <= {owner}, "every task goes to the same crew member")

    def _even_share_allows(self, owner: int) -> bool:
        """Whether ``owner`` may get one more task when every seat must end with ``n // seats``
        tasks or one more (BGA: at most one task apart)."""
        counts = [0] * self.seats
        for t in self.tasks:
            if t.owner is not None:
                counts[t.owner] += 1
        q, r = divmod(len(self.tasks), self.seats)
        return counts[owner] < q or (counts[owner] == q and sum(c > q for c in counts) < r)

    def can_assign_task(self, index: int, owner: int) -> bool:
        return _can(self.verify_assign_task, index, owner)

    def assign_task(self, index: int, owner: int) -> None:
        self.verify_assign_task(index, owner)
        t = self.tasks[index]
        self.tasks[index] = TaskSpec(t.card, t.token, owner)
        tok = f" [{t.token}]" if t.token else ""
        self.history.append(f"task {self._name(t.card)}{tok} -> {self._who(owner)}")

    def verify_deep_allocation(self, repaired: bool = False) -> None:
        """Deep Sea's task cards come with the deal, not as moves: their owners are checked
        once, before play, against the mission's selection rule (and Deep Sea 10/13's
        communication, which ends before trick 1 once the captain passed the tasks on).
        ``repaired``: a card was swapped after the selection (rule 16)."""
        if not self.deep_tasks:
            return
        problems = allocation_problems(
            self.rules.allocation,
            [t.card for t in self.deep_tasks],
            [t.owner for t in self.deep_tasks],
            self.deal.players,
            self.commander,
            repaired,
        )
        self._require(not problems, "; ".join(problems))
        if self.rules.allocation == "captain_all_or_pass":
            passed = any(t.owner != self.commander for t in self.deep_tasks)
            self._require(
                self.rules.comm_until_trick == (1 if passed else 0),
                "communication must end before trick 1 exactly when the captain passed the "
                "tasks on",
            )

    def verify_designate(self, seats: Sequence[int]) -> None:
        need = self.rules.n_designated
        self._require(need > 0, "this mission designates no crew member")
        self._require(not self.designated, "crew members are already designated")
        self._require(len(seats) == need, f"this mission designates {need} crew member(s)")
        self._require(len(set(seats)) == len(seats), "designated crew members must differ")
        self._require(all(0 <= s < self.seats for s in seats), "no such seat")
        roles = any(k == "role_split" for k, _ in self.rules.objectives)
        self._require(
            roles or self.commander not in seats, "the commander may not designate themself"
        )
        self._require(not self.started, "designation happens before the first trick")

    def designate(self, seats: Sequence[int]) -> None:
        self.verify_designate(seats)
        self.designated = tuple(seats)
        self.history.append("designated " + ", ".join(self._who(s) for s in seats))

    def verify_silence(self, seat: int) -> None:
        self._require(0 <= seat < self.seats, f"no seat {seat}")
        self._require(not self.started, "silencing happens before the first trick")
        self._require(self.rules.silenced_member, "this mission silences nobody")
        self._require(self.silenced is None, "a crew member is already silenced")
        self._require(seat != self.commander, "the commander cannot silence themself")
        self._require(not self.is_dummy(seat), "the dummy has no token to silence")

    def silence(self, seat: int) -> None:
        self.verify_silence(seat)
        self.silenced = seat
        self.history.append(f"{self._who(seat)} may not communicate")

    def verify_hand_over(self, index: int, to: int) -> None:
        self._require(
            self.rules.task_handover_5p and self.deal.players == 5,
            "task hand-over is a 5-player rule of missions 25 and later",
        )
        self._require(not self.handed_over, "only one task may be handed over")
        self._require(self.tasks_assigned and not self.started, "hand over after the draft")
        self._require(0 <= index < len(self.tasks), f"no task number {index}")
        self._require(0 <= to < self.seats, f"no seat {to}")
        self._require(self.tasks[index].owner != to, "a task cannot be handed to its owner")

    def hand_over(self, index: int, to: int) -> None:
        self.verify_hand_over(index, to)
        t = self.tasks[index]
        self.tasks[index] = TaskSpec(t.card, t.token, to)
        self.handed_over = True
        self.history.append(
            f"task {self._name(t.card)} handed from {self._who(t.owner or 0)} to {self._who(to)}"
        )

    # ---- distress signal -----------------------------------------------------------------
    def verify_distress(self, direction: int, passes: Sequence[int]) -> None:
        """Everyone passes one non-trump card to the same neighbour, before trick 1 and comms.

        With two players the dummy takes part: the commander picks one of its face-up cards."""
        self._require_running()
        self._require(direction in (1, -1), "direction is +1 (clockwise) or -1")
        self._require(self.distress == 0, "the distress signal was already used")
        self._require(not self.started, "the distress signal comes before the first trick")
        self._require(not self.comms, "the distress signal comes before any communication")
        self._require(self.tasks_assigned, "the distress signal comes after the tasks are taken")
        self._require(len(passes) == self.seats, f"{self.seats} cards must be passed")
        for seat, c in enumerate(passes):
            self._require(
                self.hands[seat] >> c & 1 == 1,
                f"{self._who(seat)} does not hold {self._name(c)}"
                + (" face up" if self.is_dummy(seat) else ""),
            )
            self._require(suit_of(c) != TRUMP, "trump cards may not be passed")

    def can_distress(self, direction: int, passes: Sequence[int]) -> bool:
        return _can(self.verify_distress, direction, passes)

    def distress_signal(self, direction: int, passes: Sequence[int]) -> None:
        self.verify_distress(direction, passes)
        for seat, c in enumerate(passes):
            self.hands[seat] &= ~(1 << c)
        for seat, c in enumerate(passes):
            to = (seat + direction) % self.seats
            self.hands[to] |= 1 << c
            if self.is_dummy(to) and passes[2] in self.under:  # face up where its card lay
                self.under[c] = self.under.pop(passes[2])
        self.distress = direction
        self.distress_passes = tuple(passes)
        self.history.append(
            "distress signal, passing "
            + ("clockwise" if direction == 1 else "counter-clockwise")
            + ": "
            + ", ".join(f"{self._who(s)} {self._name(c)}" for s, c in enumerate(passes))
        )

    # ---- communication -------------------------------------------------------------------
    def verify_communicate(self, seat: int, card: int, claim: Claim) -> None:
        """Rule nuance 5: a colour card, a true claim, between tricks, once per player."""
        self._require_running()
        self._require(self.rules.communication != "none", "this mission allows no communication")
        self._require(self.tasks_assigned, "communication starts after the tasks are taken")
        self._require(not self.trick, "communication only between tricks")
        self._require(
            len(self.tricks) + 1 >= self.rules.comm_from_trick,
            f"communication is disrupted until trick {self.rules.comm_from_trick}",
        )
        self._require(0 <= seat < self.seats, f"no seat {seat}")
        self._require(0 <= card < 40, f"no card {card}")
        self._require(
            not self.rules.comm_until_trick or len(self.tricks) < self.rules.comm_until_trick,
            f"communication ended before trick {self.rules.comm_until_trick}",
        )
        self._require(not self.is_dummy(seat), "the dummy does not communicate")
        self._require(seat != self.silenced, f"{self._who(seat)} was silenced for this mission")
        if self.rules.communication == "rapture":  # players - 2 shared tokens; two players
            pool = max(self.deal.players - 2, 1)  # sit with the dummy as a third: 3 - 2 = 1
            self._require(len(self.comms) < pool, "the shared token pool is empty")
        else:
            self._require(not self.comm_used[seat], f"{self._who(seat)} has communicated already")
        hand = self.hands[seat]
        self._require(hand >> card & 1 == 1, f"{self._who(seat)} does not hold {self._name(card)}")
        self._require(suit_of(card) != TRUMP, "only a colour card can be communicated")
        self._require(
            claim == true_claim(hand, card),
            f"{self._name(card)} is not the {claim.value} card of its colour in hand"
            f" (it is the {true_claim(hand, card).value})",
        )

    def can_communicate(self, seat: int, card: int, claim: Claim) -> bool:
        return _can(self.verify_communicate, seat, card, claim)

    def communicate(self, seat: int, card: int, claim: Claim) -> None:
        self.verify_communicate(seat, card, claim)
        self.comm_used[seat] = True
        self.comms.append((seat, card, claim, len(self.tricks)))
        shown = "?" if self.rules.communication == "dead_zone" else claim.value
        self.history.append(f"{self._who(seat)} communicates {self._name(card)} ({shown})")

    def shown(self, seat: int) -> set[int]:
        """The cards ``seat`` has communicated that it still holds (face up on the table)."""
        return {c for s, c, _, _ in self.comms if s == seat and self.hands[seat] >> c & 1}

    # ---- random draw (Planet Nine 12) ----------------------------------------------------
    def verify_draw(self, draws: Sequence[int]) -> None:
        """After trick N every player takes one card (drawn at random) from the right neighbour.

        A card its holder has communicated lies face up on the table and cannot be drawn; the
        dummy gives one of its face-down cards and takes the new one face down in its place."""
        self._require(self.rules.card_draw_after_trick > 0, "this mission has no card draw")
        self._require(not self.draws, "the cards were already drawn")
        self._require(
            not self.trick and len(self.tricks) == self.rules.card_draw_after_trick,
            f"cards are drawn right after trick {self.rules.card_draw_after_trick}",
        )
        self._require(len(draws) == self.seats, "one card per seat")
        for seat, c in enumerate(draws):
            right = (seat - 1) % self.seats
            held = set(self.under.values()) if self.is_dummy(right) else cards_of(self.hands[right])
            self._require(
                c in held,
                f"{self._who(seat)} cannot draw {self._name(c)} from {self._who(right)}",
            )
            self._require(
                c not in self.shown(right),
                f"{self._name(c)} lies face up ({self._who(right)} communicated it): not drawn",
            )

    def draw_cards(self, draws: Sequence[int]) -> None:
        self.verify_draw(draws)
        for seat, c in enumerate(draws):
            right = (seat - 1) % self.seats
            self.hands[right] &= ~(1 << c)
        for seat, c in enumerate(draws):
            if self.is_dummy(seat):  # face down, where the card it gave lay
                top = next(t for t, u in self.under.items() if u == draws[(seat + 1) % self.seats])
                self.under[top] = c
            else:
                self.hands[seat] |= 1 << c
        self.draws = tuple(draws)
        self.comms_before_draw = len(self.comms)
        self.history.append(
            "draw: "
            + ", ".join(f"{self._who(s)} takes {self._name(c)}" for s, c in enumerate(draws))
        )

    # ---- play ----------------------------------------------------------------------------
    def legal(self, seat: int | None = None) -> int:
        """Mask of cards the seat to play may play now."""
        seat = self.to_play if seat is None else seat
        led = suit_of(self.trick[0]) if self.trick else None
        return legal_plays(self.hands[seat], led)

    def verify_play(self, seat: int, card: int) -> None:
        self._require_running()
        self._require(self.tasks_assigned, "all tasks must be taken before the first trick")
        self._require(
            len(self.designated) == self.rules.n_designated,
            "the commander must designate crew members first",
        )
        if (
            self.rules.card_draw_after_trick
            and len(self.tricks) == (self.rules.card_draw_after_trick)
            and not self.draws
        ):
            raise IllegalMove("the cards must be drawn before the next trick")
        for task in self.deep_tasks:
            if task.card.kind == "win_predicted_trick_count" and task.predicted is None:
                raise IllegalMove(f"task {task.card.number}: predict the trick count first")
        if seat != self.to_play:  # (messages built only when raised: replays check every play)
            raise IllegalMove(f"it is {self._who(self.to_play)}'s turn")
        if not self.hands[seat] >> card & 1:
            raise IllegalMove(
                f"{self._who(seat)} does not hold {self._name(card)}"
                + (" face up" if self.is_dummy(seat) else "")
            )
        if not self.legal(seat) >> card & 1:
            led = suit_of(self.trick[0])
            raise IllegalMove(f"{self._who(seat)} must follow {self._suit_name(led)}")

    def _suit_name(self, s: int) -> str:
        return self.game.trump_name + "s" if s == TRUMP else ("pink", "blue", "green", "yellow")[s]

    def can_play(self, seat: int, card: int) -> bool:
        return _can(self.verify_play, seat, card)

    def play(self, seat: int, card: int) -> None:
        self.verify_play(seat, card)
        self.hands[seat] &= ~(1 << card)
        if self.is_dummy(seat) and card in self.under:  # uncovered after the trick ends
            self._uncover = card
        self.trick.append(card)
        if len(self.trick) == self.seats:
            self._finish_trick()

    def _finish_trick(self) -> None:
        trick, leader = tuple(self.trick), self.leader
        winner, wcard = trick_winner(trick, leader, self.seats)
        self.tricks.append(trick)
        self.leaders.append(leader)
        self.winners.append(winner)
        self.winning_cards.append(wcard)
        self.trick = []
        self.leader = winner
        if hasattr(self, "_uncover"):
            self.hands[2] |= 1 << self.under.pop(self._uncover)
            del self._uncover
        seq = " ".join(
            f"{self._who((leader + i) % self.seats)}:{self._name(c)}" for i, c in enumerate(trick)
        )
        self.history.append(f"trick {len(self.tricks)}: {seq}  -> {self._who(winner)} wins")
        self._judge(trick, winner)

    def _judge(self, trick: tuple[int, ...], winner: int) -> None:
        t = len(self.tricks) - 1
        last = t == self.n_tricks - 1
        fails: list[tuple[str, str]] = []  # (kind, reason); the first one decides
        newly = []
        for i, task in enumerate(self.tasks):
            if i in self.done_tasks or task.card not in trick:
                continue
            if winner != task.owner:
                fails.append(
                    ("wrong_winner", f"task {self._name(task.card)} won by {self._who(winner)}")
                )
            else:
                self.done_tasks[i] = t
                newly.append(i)
        done_mask = sum(1 << i for i in self.done_tasks)
        for i in newly:
            if self._pred[i] & ~done_mask:
                fails.append(
                    ("order", f"task {self._name(self.tasks[i].card)} completed out of order")
                )
            if self.rules.omega_last_trick and self.tasks[i].token == OMEGA and not last:
                fails.append(
                    (
                        "order",
                        f"task {self._name(self.tasks[i].card)} completed before the last trick",
                    )
                )
        for i, task in enumerate(self.tasks):  # after Omega is done, nothing may follow
            if i not in self.done_tasks and any(
                self.tasks[j].token == OMEGA for j in self.done_tasks
            ):
                fails.append(("order", f"task {self._name(task.card)} can no longer precede Omega"))
        all_tasks = len(self.done_tasks) == len(self.tasks)
        if last and not all_tasks:
            pending = next(t for i, t in enumerate(self.tasks) if i not in self.done_tasks)
            fails.append(("not_done", f"task {self._name(pending.card)} not completed"))
        hand = HandSoFar(
            tricks=tuple(self.tricks),
            winners=tuple(self.winners),
            winning_cards=tuple(self.winning_cards),
            in_hands=self.in_hands,
            n_tricks=self.n_tricks,
            seats=self.seats,
            commander=self.commander,
            designated=self.designated,
            start_hands=tuple(self.deal.full_hand(s) for s in range(self.seats)),
        )
        for k, (kind, params) in enumerate(self.rules.objectives):
            if kind not in JUDGES or self._objective_done[k]:
                continue
            v = JUDGES[kind](hand, params)
            if v is Verdict.FAILED:
                fails.append(("objective", f"objective {kind} failed"))
            elif v is Verdict.DONE:
                self._objective_done[k] = True
        deep_done = True
        if self.deep_tasks:  # Deep Sea: every condition card, judged by rules.conditions
            judged = judge_tasks(self, self.deep_tasks, self._deep_verdicts)
            self._deep_verdicts = judged.verdicts
            if judged.mission is Verdict.FAILED:
                fails.append(("condition", judged.reason))
            deep_done = judged.mission is Verdict.DONE
        if fails:
            self.outcome = Outcome(False, t, fails[0][1], fails[0][0])
        elif (
            all_tasks
            and deep_done
            and all(
                self._objective_done[k]
                for k, (kind, _) in enumerate(self.rules.objectives)
                if kind in JUDGES
            )
        ):
            self.outcome = Outcome(True, t, "all tasks and objectives done")
        if self.outcome:
            self.history.append(
                ("SUCCESS" if self.outcome.success else "FAILURE") + f": {self.outcome.reason}"
            )

    # ---- display -------------------------------------------------------------------------
    def trace(self) -> str:
        """A readable account of the hand: the deal, then every move."""
        lines = [
            f"{self._who(s)}: {format_cards(cards_of(self.deal.full_hand(s)), self.game)}"
            for s in range(self.seats)
        ]
        for t in self.deep_tasks:  # Deep Sea: the cards come with the deal, not as moves
            guess = "" if t.predicted is None else f" (predicted: {t.predicted})"
            card = f'task card {t.card.number} "{t.card.text}"{guess}'
            lines.append(f"{card} -> {self._who(t.owner)}")
        return "\n".join(lines + self.history)


def true_claim(hand: int, card: int) -> Claim:
    """The only claim that is true for ``card`` in ``hand``: only, else highest or lowest.

    Raises IllegalMove when the card is a middle card (no true claim exists).
    """
    same = hand & int(SUIT_MASK[suit_of(card)])
    if popcount(same) == 1:
        return Claim.ONLY
    if same >> (card + 1) == 0:
        return Claim.HIGHEST
    if same & ((1 << card) - 1) == 0:
        return Claim.LOWEST
    raise IllegalMove(f"{card_name(card)} is neither the highest, only nor lowest of its colour")


def _can(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except IllegalMove:
        return False
    return True
