"""The game loop: deal, set up, play and judge whole chunks of games in numba.

``play_chunk`` fills result arrays for ``n`` games from one seed; with ``record`` it also keeps
every move so the referee can replay the game (the cross-check).  No allocation happens inside
the loop over games: all scratch arrays are made once per chunk.
"""

from numba import njit

from crewsim.engine.search import SEARCH, prepare_rollouts, search_decision, set_up_decision
from crewsim.engine.setup import set_up_game
from crewsim.engine.tricks import play_tricks
from crewsim.kernel.jit import inlined
from crewsim.kernel.layout import (
    BP_KIND,
    BP_SEARCH_SETUP,
    G_NPLAYS,
    G_REDEALS,
    G_REPAIRS,
    G_SU_STOP,
    G_T,
    MP_GAME,
    PR_SETUP,
)
from crewsim.kernel.script import stopped


@njit(cache=True)
def play_chunk(
    state,
    mp_in,
    bp_in,
    ds_tab_in,
    ds_code_in,
    n,
    seed,
    success,
    fail_trick,
    fail_kind,
    fail_detail,
    distress,
    record,
    r_hands,
    r_under,
    r_tasks,
    r_pick,
    r_setup,
    r_comms,
    r_draws,
    r_plays,
    r_ds,
    redeals,
    repairs,
    ds_cards,
    ds_owners,
    search=None,
):
    """Play ``n`` games of one mission from ``seed``; fill the result (and record) arrays.

    ``search``: ``True`` for the search crew.  Left out, numba prunes the search crew's
    branches before typing them (``search is None`` on an omitted argument), so a run of the
    other crews never compiles the search crew's code: minutes on first use (docs/speed.md).

    ``ds_cards``/``ds_owners`` (n x MAX_DS) are filled for every Deep Sea game, recorded or
    not: the balance report needs the task cards in play of millions of games, and keeping
    every move of those games just to learn their cards would cost far more than 32 bytes.
    """
    S, R = state[0], state[1]  # the game, and the search crew's rollouts
    S.mp[:] = mp_in
    S.bp[:] = bp_in
    S.ds_tab[:] = ds_tab_in
    S.ds_code[:] = ds_code_in
    searching = bp_in[BP_KIND] == SEARCH
    if search is not None and searching:
        prepare_rollouts(S, R)
    deep = mp_in[MP_GAME] == 1
    search_set_up = searching and bp_in[BP_SEARCH_SETUP] != 0
    g, res = S.g, S.res
    S.rng[0] = seed
    for gi in range(n):
        ri = gi if record else 0
        replay = 0
        S.probe[PR_SETUP] = 0  # the probe's set-up decision is one of this game's
        while True:  # the set-up, again after each decision the search crew took in it
            drawn = S.rng[0]
            d = set_up_game(
                S,
                seed,
                gi,
                record,
                ri,
                r_hands,
                r_under,
                r_tasks,
                r_pick,
                r_setup,
                r_ds,
                ds_cards,
                ds_owners,
                replay,
                search_set_up,
            )
            if not stopped(S) or search is None:  # (only the search crew's set-up stops)
                break
            S.rng[0] = drawn  # undo the stopped pass's draws (repairs, before a distress pass)
            replay = g[G_SU_STOP]
            S.script[replay - 1] = set_up_decision(S, R, seed, gi, deep, r_comms, r_draws, r_plays)
        distress[gi] = d != 0
        while _play_on(S, deep, searching, record, ri, r_comms, r_draws, r_plays):
            if search is None:  # (never: only the search crew's games stop)
                break
            search_decision(S, R, deep, r_comms, r_draws, r_plays)
        success[gi] = res[0] == 1
        redeals[gi] = g[G_REDEALS]
        repairs[gi] = g[G_REPAIRS]
        fail_trick[gi] = g[G_T]
        fail_kind[gi] = res[1] if res[0] == 2 else 0
        fail_detail[gi] = res[2] if res[0] == 2 else -1
        if record:
            for k in range(g[G_NPLAYS], r_plays.shape[1]):
                r_plays[ri, k] = -1


@inlined
def _play_on(S, deep, searching, record, ri, r_comms, r_draws, r_plays):
    """``play_tricks`` compiled apart for each game (``deep`` a constant): a Planet Nine game
    loop without Deep Sea's branches runs faster (docs/speed.md)."""
    if deep:
        return play_tricks(S, True, searching, record, ri, r_comms, r_draws, r_plays, 0)
    return play_tricks(S, False, searching, record, ri, r_comms, r_draws, r_plays, 0)
