"""Where a lost game was lost: the first decision after which no line of play wins.

Perfect information is the yardstick: a lost game is replayed through the referee and the
solver asks of each position whether the crew, seeing every card, could still win from it.
Winnability is only ever lost along a game, so a binary search over the plays finds the
decisive one in a handful of solves.  Before the first card, the set-up is examined the same
way: could some allocation of the drawn tasks have won the deal as dealt (``free_choice``),
did this one win it, and the hands after the distress pass.  A decisive play is decisive for
a crew that sees every card; in the player's shoes it can be a fair guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from itertools import islice

import numpy as np

from crewsim.cards import card_name, seats_of
from crewsim.missions.schema import Mission
from crewsim.rules.game import GameState
from crewsim.rules.play import tricks_of
from crewsim.runs.replay import dealt, moves, set_up
from crewsim.solver.api import DEFAULT_BUDGET, DEFAULT_CONFLICTS, solve
from crewsim.solver.free_choice import freed
from crewsim.solver.problem import Problem, Result, problem_from_mission

# what lost a game, in the order a report stacks them: the deal, the set-up, then the plays
SETUP_KINDS = ("draft", "distress", "prediction")
PLAY_KINDS = ("lead", "follow", "discard", "trump")
KINDS = ("unwinnable_deal", *SETUP_KINDS, *PLAY_KINDS, "undecided")
KIND_TEXT = {
    "unwinnable_deal": "no allocation of the tasks and no line of play wins the deal",
    "draft": "the tasks' allocation (or designation) left no winning line; another would win",
    "distress": "the distress pass left no winning line; the hands before it had one",
    "prediction": "a Deep Sea trick-count prediction left no winning line; another would win",
    "lead": "a lead",
    "follow": "a card of the colour led",
    "discard": "a card off the colour led, not a submarine/rocket",
    "trump": "a trump (rocket or submarine) off the colour led",
    "undecided": "the solver's budget left a position open",
}


@dataclass(frozen=True)
class Finding:
    """One lost game's verdict: the kind of decision that lost it, and for a play where in
    the hand it came (``trick`` counts from 1), whose it was, and a card that would have kept
    the game winnable."""

    game: int
    kind: str
    trick: int = 0  # 0: not a play
    seat: int = -1
    role: str = ""  # commander | task owner | dummy | crew
    card: int = -1
    alternative: int = -1
    failed: str = ""  # the referee's reason the game was lost in the end
    failed_kind: str = ""
    failed_trick: int = 0
    solves: int = 0

    def row(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Examination:
    """A finding with what ``--trace`` shows: the game as played and a winning line from the
    last winnable position (empty when there is none)."""

    finding: Finding
    state: GameState
    plays: tuple[int, ...]
    line: tuple[int, ...]
    setup: Result | None = None  # a game lost at set-up: an allocation that wins, with its line


class _Solver:
    """Counts the solves, and turns a verdict into True / False / None (open)."""

    def __init__(self, budget: int, conflicts: int) -> None:
        self.budget, self.conflicts, self.solves = budget, conflicts, 0
        self.last: Result | None = None
        self.allocation: Result | None = None  # the free choice's winning answer

    def winnable(self, problem: Problem) -> bool | None:
        self.solves += 1
        self.last = solve(problem, self.budget, conflicts=self.conflicts)
        return {"feasible": True, "infeasible": False}.get(self.last.verdict)

    def line(self) -> tuple[int, ...]:
        """The winning line the last solve found."""
        return tuple(self.last.plays) if self.last else ()


def examine(
    mission: Mission,
    players: int,
    rec: Mapping[str, np.ndarray],
    i: int,
    game: int,
    budget: int = DEFAULT_BUDGET,
    conflicts: int = DEFAULT_CONFLICTS,
) -> Examination:
    """Lost game ``i`` of a recorded chunk (``game``: its place in the cell)."""
    replayed = set_up(mission, players, rec, i)
    plays = tuple(card for _, card in moves(replayed, mission, rec, i))
    before = dealt(mission, players, rec, i)
    exam = examine_play(
        mission, set_up(mission, players, rec, i), before, plays, game, budget, conflicts
    )
    return replace(exam, state=replayed)  # its history holds the communications too


def examine_play(
    mission: Mission,
    state: GameState,
    before: GameState,
    plays: tuple[int, ...],
    game: int = 0,
    budget: int = DEFAULT_BUDGET,
    conflicts: int = DEFAULT_CONFLICTS,
) -> Examination:
    """A lost game given as its position before the first card (``state``: tasks given out,
    any pass made), the deal as dealt (``before``) and the cards played in order."""
    played = replace(_problem(mission, state, state), predictions_made=True)
    for card in plays:
        state.play(state.to_play, card)
    outcome = state.outcome
    if outcome is None or outcome.success:
        raise ValueError("only a lost game has an autopsy")
    base = Finding(
        game,
        "undecided",
        failed=outcome.reason,
        failed_kind=outcome.kind,
        failed_trick=outcome.trick + 1,
    )
    solver = _Solver(budget, conflicts)
    setup_kind = _setup_kind(mission, before, state, played, solver)
    if setup_kind is not None:
        found = replace(base, kind=setup_kind, solves=solver.solves)
        return Examination(found, state, plays, (), solver.allocation)
    # winnable before the first card, lost after the last: find the play in between
    lo, hi = 0, len(plays)
    line = solver.line()
    verdict = solver.winnable(replace(played, prefix=plays))
    while verdict is False and hi - lo > 1:
        mid = (lo + hi) // 2
        verdict = solver.winnable(replace(played, prefix=plays[:mid]))
        if verdict:
            lo, line, verdict = mid, solver.line(), False
        elif verdict is False:
            hi = mid
    if verdict is not False:  # open, or the solver calls the lost end winnable
        return Examination(replace(base, solves=solver.solves), state, plays, line)
    finding = _play_finding(state, plays, lo, line, replace(base, solves=solver.solves))
    return Examination(finding, state, plays, line)


def _problem(mission: Mission, hands_of: GameState, owners_of: GameState) -> Problem:
    """The solver's problem with the hands of one state and the owners and designation of
    another (the set-up's): the deal as dealt or after the distress pass."""
    deal = replace(
        hands_of.deal, hands=tuple(hands_of.hands), dummy_under=tuple(hands_of.under.items())
    )
    return problem_from_mission(
        deal, owners_of.tasks, mission, owners_of.designated or None, owners_of.deep_tasks
    )


def _setup_kind(
    mission: Mission, before: GameState, state: GameState, played: Problem, solver: _Solver
) -> str | None:
    """What lost the game before its first card (None: it could still be won then)."""
    if solver.winnable(played):
        return None
    if solver.last is not None and solver.last.verdict != "infeasible":
        return "undecided"
    as_dealt = _problem(mission, before, state)
    free = freed(as_dealt, mission)
    any_split = solver.winnable(free)
    if any_split is None:
        return "undecided"
    if not any_split:
        return "unwinnable_deal"
    solver.allocation = solver.last
    if any(t.predicted is not None for t in played.deep):
        guessed = solver.winnable(replace(played, predictions_made=False))
        if guessed is not False:
            return "prediction" if guessed else "undecided"
    if as_dealt.deal == played.deal:  # no pass: the allocation lost it
        return "draft"
    return {True: "distress", False: "draft", None: "undecided"}[solver.winnable(as_dealt)]


def _play_finding(
    state: GameState, plays: tuple[int, ...], k: int, line: tuple[int, ...], base: Finding
) -> Finding:
    """Play ``k`` lost the game: which kind of play it was, whose, and what would have won."""
    seats = seats_of(state.deal.players)
    trick, pos = divmod(k, seats)
    seat = (_leader(state, plays, trick) + pos) % seats
    card = plays[k]
    if pos == 0:
        kind = "lead"
    elif card // 9 == plays[trick * seats] // 9:
        kind = "follow"
    elif card >= 36:
        kind = "trump"
    else:
        kind = "discard"
    return replace(
        base,
        kind=kind,
        trick=trick + 1,
        seat=seat,
        role=_role(state, seat),
        card=card,
        alternative=line[k] if len(line) > k else -1,
    )


def _leader(state: GameState, plays: Sequence[int], trick: int) -> int:
    """Who led trick ``trick`` of the game (the commander leads the first)."""
    seats = seats_of(state.deal.players)
    return next(islice(tricks_of(plays, state.deal.commander, seats), trick, None)).leader


def _role(state: GameState, seat: int) -> str:
    if state.is_dummy(seat):
        return "dummy"
    if seat == state.deal.commander:
        return "commander"
    owners = {t.owner for t in state.tasks} | {t.owner for t in state.deep_tasks}
    return "task owner" if seat in owners else "crew"


def trace_text(exam: Examination) -> str:
    """The game trick by trick with the decisive play marked, and the winning line the solver
    found from the last position that could still be won."""
    state, f = exam.state, exam.finding
    seats = seats_of(state.deal.players)
    lines = [
        f"game {f.game}: lost in trick {f.failed_trick} ({f.failed}); "
        f"lost by: {f.kind} ({KIND_TEXT[f.kind]})",
        *state.trace().split("\n")[: seats + 1],
        *_tricks(state, exam.plays, f.trick, f.card),
    ]
    if exam.setup is not None and exam.setup.plays:
        names = [card_name(t.card, state.game) for t in state.tasks]
        names += [t.card.label for t in state.deep_tasks]
        given = [f"{n} to {state._who(o)}" for n, o in zip(names, exam.setup.owners, strict=False)]
        given += [f"{state._who(s)} designated" for s in exam.setup.designated]
        lines.append(f"set up so ({', '.join(given)}), the crew wins with every card seen:")
        lines += _tricks(state, exam.setup.plays, 0, -1)
    if f.trick and f.alternative >= 0:
        lines.append(
            f"instead of {card_name(f.card, state.game)}, {state._who(f.seat)} could play "
            f"{card_name(f.alternative, state.game)}; with every card seen the crew then wins:"
        )
        lines += _tricks(state, exam.line, 0, -1)[f.trick - 1 :]
    lines.append(
        "(decisive for a crew that sees every card: in the player's shoes it can be a fair guess)"
    )
    return "\n".join(lines)


def _tricks(state: GameState, plays: Sequence[int], mark_trick: int, mark: int) -> list[str]:
    """One line a trick: who played what, ``mark`` flagged in trick ``mark_trick`` (from 1)."""
    seats = seats_of(state.deal.players)
    lines = []
    for t, trick in enumerate(tricks_of(plays, state.deal.commander, seats), start=1):
        cards = [
            f"{state._who(seat)} {card_name(c, state.game)}"
            + (" <== decisive" if (t, c) == (mark_trick, mark) else "")
            for seat, c in trick.seats(seats)
        ]
        lines.append(f"trick {t}: " + ", ".join(cards))
    return lines
