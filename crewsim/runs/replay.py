"""Replaying kernel games through the referee: the cross-check and the `--trace` view."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

import numpy as np

from crewsim.cards import Game, seats_of
from crewsim.kernel import layout as L
from crewsim.missions import load_task_cards
from crewsim.missions.schema import Mission
from crewsim.rules.deal import Deal
from crewsim.rules.game import Claim, GameState, Rules, TaskSpec
from crewsim.rules.task_cards import HeldTask
from crewsim.runs.plan import Cell, RunConfig, plan

_CLAIMS = (Claim.HIGHEST, Claim.ONLY, Claim.LOWEST)


def recorded_deep_tasks(rec: Mapping[str, np.ndarray], i: int) -> list[HeldTask]:
    """Game ``i``'s Deep Sea task cards in play after selection: card, owner, prediction."""
    ds = [int(x) for x in rec["rec_ds"][i]]
    cards = load_task_cards()
    return [
        HeldTask(
            cards[ds[k]],
            ds[L.MAX_DS + k],
            None if ds[2 * L.MAX_DS + k] < 0 else ds[2 * L.MAX_DS + k],
        )
        for k in range(ds[3 * L.MAX_DS])
    ]


def dealt(mission: Mission, players: int, rec: Mapping[str, np.ndarray], i: int) -> GameState:
    """Game ``i`` of a recorded chunk as dealt: the hands and the task cards, no move yet."""
    seats = seats_of(players)
    under = tuple((int(a), int(b)) for a, b in rec["rec_under"][i] if a >= 0)
    deal = Deal(players, tuple(int(h) for h in rec["rec_hands"][i][:seats]), under)
    n = mission.tasks
    tasks = [TaskSpec(int(c), L.TOKEN_NAMES[int(tok)]) for c, _, tok in rec["rec_tasks"][i][:n]]
    rules = Rules.of(mission)
    deep: list[HeldTask] = []
    if mission.game is Game.DEEP_SEA:
        deep = recorded_deep_tasks(rec, i)
        comm, until = (int(x) for x in rec["rec_ds"][i][3 * L.MAX_DS + 1 : 3 * L.MAX_DS + 3])
        names = {v: k for k, v in L.COMM_CODES.items()}
        rules = replace(rules, communication=names[comm], comm_until_trick=max(until, 0))
    return GameState(deal, tasks, rules, Game(mission.game), deep)


def set_up(mission: Mission, players: int, rec: Mapping[str, np.ndarray], i: int) -> GameState:
    """Game ``i`` of a recorded chunk up to its first card: the tasks handed out, the
    designation, the silenced member, the hand-over and the distress pass, each checked by the
    referee (raises IllegalMove on any it refuses)."""
    state = dealt(mission, players, rec, i)
    n = mission.tasks
    state.verify_deep_allocation(repaired=int(rec["repairs"][i]) > 0)
    for k in range(n):
        t = int(rec["rec_pick"][i][k])
        state.assign_task(t, int(rec["rec_tasks"][i][t][1]))
    setup = [int(x) for x in rec["rec_setup"][i]]
    if state.rules.n_designated:
        state.designate(setup[: state.rules.n_designated])
    if mission.silenced_member:
        state.silence(setup[2])
    if setup[3] >= 0:
        state.hand_over(setup[3], setup[4])
    if setup[5] != 0:
        state.distress_signal(setup[5], setup[6 : 6 + state.seats])
    return state


def moves(
    state: GameState, mission: Mission, rec: Mapping[str, np.ndarray], i: int
) -> Iterator[tuple[int, int]]:
    """Play game ``i`` of a recorded chunk on ``state`` (from ``set_up``) card by card: yield
    the seat to play and its card before each, which is played once the caller resumes."""
    comms = [tuple(int(x) for x in c) for c in rec["rec_comms"][i] if c[0] >= 0]
    plays = [int(c) for c in rec["rec_plays"][i] if c >= 0]
    for trick in range(state.n_tricks):
        if state.outcome is not None:
            break
        for seat, card, claim, before in comms:
            if before == trick:
                state.communicate(seat, card, _CLAIMS[claim])
        if mission.card_draw_after_trick and trick == mission.card_draw_after_trick:
            state.draw_cards([int(c) for c in rec["rec_draws"][i][: state.seats]])
        for card in plays[trick * state.seats : (trick + 1) * state.seats]:
            seat = state.to_play
            yield seat, card
            state.play(seat, card)


def replay(mission: Mission, players: int, rec: Mapping[str, np.ndarray], i: int) -> GameState:
    """Apply game ``i`` of a recorded chunk move by move; raises IllegalMove on any bad move."""
    state = set_up(mission, players, rec, i)
    for _ in moves(state, mission, rec, i):
        pass
    return state


@dataclass(frozen=True)
class TracedGame:
    """One game replayed through the referee, with the cell and chunk seed that dealt it."""

    cell: Cell
    seed: int
    state: GameState


def first_games(config: RunConfig) -> Iterator[TracedGame]:
    """The first game of each cell's first chunk, played again with its moves recorded and
    replayed through the referee (`simulate --trace`): the very deal the run starts with."""
    from crewsim.solver.pimc import runner

    bp = config.bot.vector()
    run_chunk = runner(bp)
    first = {t.cell: t for t in plan(config) if t.index == 0}
    for i, cell in enumerate(config.cells()):
        seed = first[i].seed
        rec = run_chunk(config.mission_vector(cell), bp, 1, seed, record=True)
        yield TracedGame(cell, seed, replay(cell.mission, cell.players, rec, 0))
