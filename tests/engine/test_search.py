"""The search crew: the game stops at a card play and goes on, a rollout copy plays the same
game as the real one, and a search that samples no world is the heuristic crew."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from crewsim.bots import get_bot
from crewsim.bots.registry import Bot
from crewsim.engine.play import set_up_game
from crewsim.engine.run import _tables, new_state, run_chunk
from crewsim.engine.search import copy_game, prepare_rollouts
from crewsim.engine.tricks import crew_card, legal_cards, play_tricks
from crewsim.kernel import layout as L
from crewsim.kernel.bits import seat_after
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission, resolve_missions

MISSIONS = [m.id for m in resolve_missions("all")]


@njit
def _stop_and_copy(state, seed, gi, stops):
    """Set game ``gi`` up, stop it at its ``stops``-th card play with a choice (the crew's
    card played at each stop before), copy it into the rollout record, and play both on
    with the crew's card.  Returns (stopped, the same game)."""
    S, R = state[0], state[1]
    plays = np.zeros((1, L.REC_PLAYS), dtype=np.int64)
    comms = np.zeros((1, L.REC_COMMS, 4), dtype=np.int64)
    five = np.zeros((1, 5), dtype=np.int64)
    tasks = np.zeros((1, L.MAX_TASKS, 3), dtype=np.int64)
    pick = np.zeros((1, L.MAX_TASKS), dtype=np.int64)
    setup = np.zeros((1, 11), dtype=np.int64)
    under = np.zeros((1, 7, 2), dtype=np.int64)
    ds = np.zeros((1, L.REC_DS), dtype=np.int64)
    ds_cards = np.zeros((gi + 1, L.MAX_DS), dtype=np.int8)
    set_up_game(S, seed, gi, False, 0, five, under, tasks, pick, setup, ds, ds_cards, ds_cards)
    deep = S.mp[L.MP_GAME] == 1
    prepare_rollouts(S, R)
    for k in range(stops):
        if not play_tricks(S, deep, True, False, 0, comms, five, plays):
            return False, True
        seat = seat_after(S.g[L.G_LEADER], S.g[L.G_NIN], S.g[L.G_SEATS])
        S.g[L.G_FORCE] = 1 + crew_card(S, S.bp, S.mp, S.g, seat, legal_cards(S))
    copy_game(S, R)
    play_tricks(S, deep, False, False, 0, comms, five, plays)
    play_tricks(R, deep, False, False, 0, comms, five, plays)
    same = (S.res == R.res).all() and (S.won == R.won).all() and S.g[L.G_T] == R.g[L.G_T]
    return True, same and (S.won_cards == R.won_cards).all()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_rollout_copy_plays_the_same_game(players: int) -> None:
    """Whatever a game has in play is copied: the copy played on by the crew reaches the
    same outcome, the same tricks won, on the same trick, as the game itself."""
    stopped = 0
    for k, mission_id in enumerate(MISSIONS):
        mission = get_mission(mission_id)
        mp = KernelMission(mission, players).vector()
        state = new_state()
        tab, codes = _tables(mp)
        s = state[0]
        s.mp[:], s.bp[:] = mp, get_bot("heuristic").vector()
        s.ds_tab[:], s.ds_code[:] = tab, codes
        for gi in range(3):
            ok, same = _stop_and_copy(state, np.int64(k), gi, 1 + (7 * gi + k) % 20)
            stopped += ok
            assert same, f"{mission_id} {players}p game {gi}: the copy played another game"
    assert stopped > len(MISSIONS)


def _search(**params: float) -> np.ndarray:
    base = dict(get_bot("search").params)
    base.update(params)
    return Bot("s", "search", tuple(base.items())).vector()


@pytest.mark.parametrize("mission_id", ["pn-10", "pn-12", "pn-24", "pn-46", "ds-6", "ds-20"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_search_of_no_world_is_the_heuristic_crew(mission_id: str, players: int) -> None:
    """Stopping at every card play, asking the heuristic in the rollout copy and resuming
    with its card plays the heuristic crew's games move for move (the stop, the copy, the
    forced card and the recording lose nothing)."""
    mp = KernelMission(get_mission(mission_id), players, distress="always").vector()
    a = run_chunk(mp, get_bot("heuristic").vector(), 30, 7, record=True)
    b = run_chunk(mp, _search(search_max_worlds=0), 30, 7, record=True)
    for key in ("success", "fail_trick", "rec_plays", "rec_comms", "rec_draws"):
        np.testing.assert_array_equal(a[key], b[key], err_msg=f"{mission_id} {players}p {key}")


def test_search_wins_more_than_the_heuristic() -> None:
    """On the same 60 deals of pn-10 at 4 players the search crew wins clearly more often."""
    mp = KernelMission(get_mission("pn-10"), 4).vector()
    heuristic = run_chunk(mp, get_bot("heuristic").vector(), 60, 3)["success"].sum()
    search = run_chunk(mp, _search(search_max_worlds=32), 60, 3)["success"].sum()
    assert search >= heuristic + 8, (search, heuristic)


def test_same_seed_same_games() -> None:
    mp = KernelMission(get_mission("ds-20"), 3).vector()
    bp = _search(search_max_worlds=16)
    a = run_chunk(mp, bp, 6, 11, record=True)
    b = run_chunk(mp, bp, 6, 11, record=True)
    np.testing.assert_array_equal(a["rec_plays"], b["rec_plays"])
