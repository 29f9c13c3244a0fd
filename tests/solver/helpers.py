"""Shared helpers of the solver tests: rigged deals, replay a line through the referee, a plain
search, the Deep Sea judges trick by trick."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from crewsim.cards import mask_of, parse_card
from crewsim.kernel.conditions import DONE, FAILED, K_PREDICTED, ds_judge
from crewsim.kernel.judge import judge_objective
from crewsim.kernel.layout import G_CMD, G_FIRST_WINNER, G_NT, G_PLAYERS, G_SEATS, G_SIZE, G_T
from crewsim.rules.deal import Deal
from crewsim.rules.game import GameState, Rules, TaskSpec
from crewsim.rules.objectives import JUDGES, HandSoFar, Verdict
from crewsim.rules.order import OMEGA, predecessors
from crewsim.rules.play import legal_plays, trick_winner
from crewsim.solver.problem import Problem, Result


def deal4(*hands: str) -> Deal:
    """A rigged 4-player deal, one string of card names per seat."""
    return Deal(4, tuple(mask_of(parse_card(c) for c in h.split()) for h in hands))


def replay(problem: Problem, res: Result) -> GameState:
    """Play ``res.plays`` through the referee (designating the solver's choice first)."""
    objectives: tuple[tuple[str, Any], ...] = ()
    if problem.objective is not None:
        objectives += ((problem.objective[0], problem.objective[1]),)
    if problem.omega_last_trick:
        objectives += (("omega_last_trick", {}),)
    g = GameState(problem.deal, list(problem.tasks), Rules(objectives=objectives))
    if g.rules.n_designated:
        g.designate(res.designated)
    for c in res.plays:
        g.play(g.to_play, c)
    return g


def exhaustive(
    hands: Sequence[int],
    tasks: Sequence[TaskSpec],
    n_tricks: int,
    objective: tuple[str, dict[str, Any]] | None = None,
    designated: tuple[int, ...] = (),
    under: Sequence[tuple[int, int]] = (),
) -> bool:
    """Plain depth-first search over every legal play, judged like the referee does.

    ``under``: a dummy's (face-up, beneath) stacks; ``hands`` then holds its face-up cards,
    and a card beneath joins them when the trick its cover went in ends."""
    seats = len(hands)
    beneath = dict(under)
    commander = next(s for s, h in enumerate(hands) if h >> 39 & 1)
    pred = predecessors([t.token for t in tasks])
    tof = {t.card: i for i, t in enumerate(tasks)}

    def judge(
        tricks: list[tuple[int, ...]],
        winners: list[int],
        wcards: list[int],
        done: int,
        hs: list[int],
    ) -> tuple[str, int]:
        t = len(tricks) - 1
        last = t == n_tricks - 1
        trick, w = tricks[-1], winners[-1]
        newly = 0
        for c in trick:
            if c in tof:
                if tasks[tof[c]].owner != w:
                    return "fail", done
                newly |= 1 << tof[c]
        done |= newly
        for i in range(len(tasks)):
            if newly >> i & 1 and pred[i] & ~done:
                return "fail", done
        obj_done = True
        if objective is not None:
            in_hands = sum(1 << b for a, b in under if not any(a in tr for tr in tricks))
            for h in hs:
                in_hands |= h
            v = JUDGES[objective[0]](
                HandSoFar(
                    tuple(tricks),
                    tuple(winners),
                    tuple(wcards),
                    in_hands,
                    n_tricks,
                    seats,
                    commander,
                    designated,
                    tuple(hands),
                ),
                objective[1],
            )
            if v is Verdict.FAILED:
                return "fail", done
            obj_done = v is Verdict.DONE
        if done == (1 << len(tasks)) - 1 and obj_done:
            return "win", done
        return ("fail" if last else "go"), done

    def rec(
        hs: list[int],
        leader: int,
        trick: list[int],
        tricks: list[tuple[int, ...]],
        winners: list[int],
        wcards: list[int],
        done: int,
    ) -> bool:
        seat = (leader + len(trick)) % seats
        led = trick[0] // 9 if trick else None
        legal = legal_plays(hs[seat], led)
        c = 0
        while legal:
            if legal & 1:
                nh = list(hs)
                nh[seat] &= ~(1 << c)
                nt = [*trick, c]
                if len(nt) == seats:
                    for k, played in enumerate(nt):  # the dummy turns a card over
                        if played in beneath:
                            nh[(leader + k) % seats] |= 1 << beneath[played]
                    w, wc = trick_winner(nt, leader, seats)
                    ntr, nw, nwc = [*tricks, tuple(nt)], [*winners, w], [*wcards, wc]
                    status, nd = judge(ntr, nw, nwc, done, nh)
                    if status == "win":
                        return True
                    if status == "go" and rec(nh, w, [], ntr, nw, nwc, nd):
                        return True
                elif rec(nh, leader, nt, tricks, winners, wcards, done):
                    return True
            legal >>= 1
            c += 1
        return False

    return rec(list(hands), commander, [], [], [], [], 0)


__all__ = ["OMEGA", "exhaustive", "replay"]


# ---- Deep Sea: the kernel's judges after each trick, in plain Python


@dataclass(frozen=True)
class DeepHand:
    """What the Deep Sea judges know between tricks (arrays are never changed in place)."""

    won: np.ndarray  # tricks per seat
    cards: np.ndarray  # cards won per seat
    scratch: np.ndarray  # the judges' scratch, one row per task card
    done: int = 0
    obj_done: bool = False
    first: int = -1  # the first trick's winner


class DeepJudge:
    """``ds_judge`` and ``judge_objective`` called after each trick as the kernel calls them
    (a prediction card is the crew's choice: done at the hand's end)."""

    def __init__(
        self,
        hands: Sequence[int],
        codes: np.ndarray,
        owners: Sequence[int],
        players: int,
        nt: int,
        objective: tuple[int, int, int],
    ) -> None:
        self.seats, self.players, self.nt = len(hands), players, nt
        self.codes, self.owners, self.objective = codes, list(owners), objective
        self.captain = next((s for s, h in enumerate(hands) if h >> 39 & 1), 0)
        self.g = np.zeros(G_SIZE, dtype=np.int64)
        self.g[G_SEATS], self.g[G_PLAYERS], self.g[G_NT] = self.seats, players, nt
        self.g[G_CMD] = self.captain
        self.desig = np.full(2, -1, dtype=np.int64)

    def start(self) -> DeepHand:
        return DeepHand(
            np.zeros(5, dtype=np.int64),
            np.zeros(5, dtype=np.int64),
            np.zeros((max(len(self.owners), 1), 4), dtype=np.int64),
            obj_done=self.objective[0] == 0,
        )

    def after(
        self, h: DeepHand, t: int, trick: list[int], leader: int, hs: list[int]
    ) -> tuple[str, DeepHand, int]:
        """("win" | "fail" | "on", the hand after trick ``t``, its winner); ``hs`` the hands
        after it."""
        winner, wcard = trick_winner(trick, leader, self.seats)
        won, cards, sc = h.won.copy(), h.cards.copy(), h.scratch.copy()
        won[winner] += 1
        for c in trick:
            cards[winner] |= 1 << c
        live = np.int64(0)
        for x in hs:
            live |= x
        tr = np.array(trick + [0] * (5 - self.seats), dtype=np.int64)
        h5 = np.array(hs + [0] * (5 - self.seats), dtype=np.int64)
        last = t == self.nt - 1
        done = h.done
        for j, o in enumerate(self.owners):
            if done >> j & 1:
                continue
            if self.codes[j, 0] == K_PREDICTED:
                v = DONE if last else 0
            else:
                v = ds_judge(
                    self.codes[j],
                    o,
                    -1,
                    sc[j],
                    t,
                    self.nt,
                    self.seats,
                    self.players,
                    self.captain,
                    tr,
                    leader,
                    winner,
                    wcard,
                    won,
                    cards,
                    live,
                    h5,
                )
            if v == FAILED:
                return "fail", h, winner
            if v == DONE:
                done |= 1 << j
        first = winner if t == 0 else h.first
        obj_done = h.obj_done
        if not obj_done:
            self.g[G_T], self.g[G_FIRST_WINNER] = t, first
            v = judge_objective(
                self.g, *self.objective, tr, winner, wcard, won, cards, self.desig, live, last
            )
            if v == 2:
                return "fail", h, winner
            obj_done = v == 1
        nxt = DeepHand(won, cards, sc, done, obj_done, first)
        if done == (1 << len(self.owners)) - 1 and obj_done:
            return "win", nxt, winner
        return ("fail" if last else "on"), nxt, winner


# every Planet Nine objective kind the solvers model, with typical parameters
OBJECTIVES: list[tuple[str, dict[str, Any]] | None] = [
    None,
    ("player_wins_no_tricks", {}),
    ("colour_ones_win", {"count": 1}),
    ("each_trump_wins", {"ordered": False}),
    ("no_win_with_rank", {"rank": 9}),
    ("balanced_tricks", {"max_lead": 1, "commander_first_last": True}),
    ("player_exactly_one_trick", {"no_trump_win": True}),
    ("player_first_and_last_only", {"no_trump_win": True}),
    ("left_of_pink9_wins_pink", {}),
    ("role_split", {"first": 4, "last": 1}),
]
