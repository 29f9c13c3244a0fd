"""Shared helpers of the solver tests: rigged deals, replay a line through the referee, a plain
search."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crewsim.cards import mask_of, parse_card
from crewsim.rules.deal import Deal
from crewsim.rules.game import GameState, Rules, TaskSpec
from crewsim.rules.objectives import JUDGES, HandSoFar, Verdict
from crewsim.rules.order import OMEGA, predecessors
from crewsim.rules.play import legal_plays, trick_winner
from crewsim.solver.api import Problem, Result


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
) -> bool:
    """Plain depth-first search over every legal play, judged like the referee does."""
    seats = len(hands)
    commander = next(s for s, h in enumerate(hands) if h >> 39 & 1)
    pred = predecessors([t.token for t in tasks])
    tof = {t.card: i for i, t in enumerate(tasks)}

    def judge(tricks: list[tuple[int, ...]], winners: list[int], wcards: list[int],
              done: int, hs: list[int]) -> tuple[str, int]:
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
            in_hands = 0
            for h in hs:
                in_hands |= h
            v = JUDGES[objective[0]](
                HandSoFar(tuple(tricks), tuple(winners), tuple(wcards), in_hands, n_tricks,
                          seats, commander, designated, tuple(hands)),
                objective[1],
            )
            if v is Verdict.FAILED:
                return "fail", done
            obj_done = v is Verdict.DONE
        if done == (1 << len(tasks)) - 1 and obj_done:
            return "win", done
        return ("fail" if last else "go"), done

    def rec(hs: list[int], leader: int, trick: list[int], tricks: list[tuple[int, ...]],
            winners: list[int], wcards: list[int], done: int) -> bool:
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
