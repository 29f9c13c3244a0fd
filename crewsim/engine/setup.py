"""One game's deal and the decisions before its first trick, in numba.

``set_up_game`` does both; the search crew deals the real game and its worlds with
``deal_game`` and takes the decisions with ``decide_set_up``, which can replay the set-up's
script and stop at a decision the search crew takes (``kernel.script``).
"""

import numpy as np
from numba import njit

from crewsim.bots.crew import (
    allocate,
    call_distress,
    change_tokens,
    designate,
    handover,
    predict,
    select,
)
from crewsim.kernel.bits import COLOURS, FULL, lowest, rand_below, rng_next
from crewsim.kernel.deep_sea_tables import C_EXACT, C_NEED, N_COLS
from crewsim.kernel.deepsea import draw, needs_redeal, repair, terrain
from crewsim.kernel.layout import (
    DISTRESS_NEVER,
    G_CMD,
    G_COMM,
    G_COMM_LEFT,
    G_COMM_UNTIL,
    G_DUMMY,
    G_LEADER,
    G_NDS,
    G_NT,
    G_NTASK,
    G_OWNED,
    G_PINK_TARGET,
    G_PLAYED,
    G_PLAYERS,
    G_REDEALS,
    G_SEATS,
    G_SILENCED,
    G_SU_FORCE,
    G_SU_FORCE_V,
    G_SU_J,
    G_SU_N,
    G_SU_SEARCH,
    G_SU_STOP,
    G_TASKMASK,
    MAX_DS,
    MAX_TASKS,
    MP_ALLOC,
    MP_COMM,
    MP_COMM_IF_PASSED,
    MP_DISTRESS,
    MP_GAME,
    MP_HANDOVER,
    MP_NTASKS,
    MP_PLAYERS,
    MP_PRED,
    MP_TERRAIN,
    MP_TOKEN_ADJUST,
    MP_TOKENS,
)
from crewsim.kernel.script import stopped


@njit(cache=True, forceinline=True)
def _shuffle(a, n, st):
    """Fisher-Yates on the first ``n`` entries of ``a``."""
    for i in range(n - 1, 0, -1):
        j = rand_below(st, i + 1)
        a[i], a[j] = a[j], a[i]


@njit(cache=True, forceinline=True)
def _deal(players, hands, under, deck, st):
    """Deal as the rules say; 2 players: dummy stacks (7 under, 7 up), trump 4 to a human."""
    for s in range(5):
        hands[s] = 0
    for c in range(40):
        under[c] = -1
        deck[c] = c
    if players == 2:
        _shuffle(deck, 39, st)  # trump 4 (id 39) stays aside at deck[39]
        for k in range(7):
            under[deck[7 + k]] = deck[k]
            hands[2] |= np.int64(1) << deck[7 + k]
        for k in range(26):
            deck[k] = deck[14 + k]
        _shuffle(deck, 26, st)
        for k in range(26):
            hands[k & 1] |= np.int64(1) << deck[k]
    else:
        _shuffle(deck, 40, st)
        s = 0  # k % players, without a division per card
        for k in range(40):
            hands[s] |= np.int64(1) << deck[k]
            s = s + 1 if s + 1 < players else 0


@njit(cache=True, forceinline=True)
def _distress(S, mp, bp, g, hands, under, tcard, towner, passes, st):
    """The distress signal, if the mission allows it and the crew calls it: every seat passes
    a card (``passes``) to its neighbour in the direction returned (+1/-1; 0: no signal).

    The dummy passes too (the commander picks one of its face-up cards) and takes the card it
    receives face up in that place."""
    if mp[MP_DISTRESS] == DISTRESS_NEVER:
        return 0
    for s in range(g[G_SEATS]):
        if hands[s] & COLOURS == 0:  # a seat without a colour card cannot pass
            return 0
    d = call_distress(S, mp, bp, g, hands, tcard, towner, passes, st)
    if d == 0 or stopped(S):
        return 0
    seats = g[G_SEATS]
    for s in range(seats):
        hands[s] &= ~(np.int64(1) << passes[s])
    for s in range(seats):
        to = (s + d) % seats
        hands[to] |= np.int64(1) << passes[s]
        if to == g[G_DUMMY]:
            under[passes[s]], under[passes[to]] = under[passes[to]], -1
    return d


@njit(cache=True, forceinline=True)
def _record_owners(g, ct):
    """``G_OWNED``: the task cards each seat owns, once every task card has its owner."""
    m = g[G_TASKMASK]
    while m:
        c = lowest(m)
        m &= m - 1
        g[G_OWNED + ct[c]] |= np.int64(1) << c


@njit(cache=True, forceinline=True)
def _reset_knowledge(g, hands, possible, known):
    """Public knowledge at the start of play."""
    dummy = g[G_DUMMY]
    face_up = hands[dummy] if dummy >= 0 else np.int64(0)
    for s in range(g[G_SEATS]):
        possible[s] = FULL & ~g[G_PLAYED] & ~face_up
        known[s] = 0
    if dummy >= 0:
        possible[dummy] = face_up


@njit(cache=True)
def set_up_game(
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
    replay=0,
    search=False,
):
    """Deal game ``gi`` of the chunk from ``seed`` and take every decision before the first
    trick; returns the distress signal's direction (0: none).  ``replay``, ``search``: see
    ``decide_set_up``."""
    deal_game(S, seed, gi)
    return decide_set_up(
        S,
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
        search,
        0,
        0,
    )


@njit(cache=True)
def deal_game(S, seed, gi):
    """Deal game ``gi`` of the chunk from ``seed``: hands, commander, the task cards drawn
    (Deep Sea: terrain, the draw and its redeals); every other field of the game is reset."""
    mp, g = S.mp, S.g
    deep = mp[MP_GAME] == 1
    deal_st = S.deal_rng  # deals come from their own stream: every bot meets the same deals
    players = mp[MP_PLAYERS]
    seats = 3 if players == 2 else players
    nt = 13 if players <= 3 else (10 if players == 4 else 8)
    hands, under, deck = S.hands, S.under, S.deck
    tcard, tpred, ttok = S.tcard, S.tpred, S.ttok
    ntask = mp[MP_NTASKS]
    g[:] = 0
    for s in range(5):  # nothing shown yet (the search crew's set-up worlds read this)
        S.known[s] = 0
    g[G_SEATS], g[G_PLAYERS], g[G_NT], g[G_NTASK] = seats, players, nt, ntask
    g[G_DUMMY] = 2 if players == 2 else -1
    deal_st[0] = seed ^ (gi * np.int64(-7046029254386353131))
    rng_next(deal_st)
    _deal(players, hands, under, deck, deal_st)
    cmd = 0
    for s in range(seats):
        if hands[s] >> 39 & 1:
            cmd = s
    g[G_COMM] = mp[MP_COMM]
    if deep:  # terrain, the task draw, and a redeal while a drawn card says so
        if mp[MP_TERRAIN]:
            g[G_COMM] = terrain(deal_st)
        draw(S, mp, deal_st)
        while needs_redeal(S, hands, under, seats) and g[G_REDEALS] < 100:
            _deal(players, hands, under, deck, deal_st)
            g[G_REDEALS] += 1
        for s in range(seats):
            if hands[s] >> 39 & 1:
                cmd = s
    g[G_CMD], g[G_LEADER] = cmd, cmd
    pink9_holder = 2  # no hand holds pink 9: it lies under a face-up dummy card
    for s in range(seats):
        if hands[s] >> 8 & 1:
            pink9_holder = s
    g[G_PINK_TARGET] = (pink9_holder + 1) % seats
    # tasks: a random draw of colour cards, tokens laid in draw order
    for c in range(36):
        deck[c] = c
    for i in range(ntask):
        j = i + rand_below(deal_st, 36 - i)
        deck[i], deck[j] = deck[j], deck[i]
        tcard[i] = deck[i]
        ttok[i] = mp[MP_TOKENS + i]
        tpred[i] = mp[MP_PRED + i]


@njit(cache=True)
def decide_set_up(
    S,
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
    search,
    force,
    force_value,
):
    """Take every decision of the dealt game before the first trick; returns the distress
    signal's direction (0: none).

    The first ``replay`` decisions of the set-up's script (``kernel.script``) are taken from
    ``S.script``; with ``search``, the pass stops at the first later decision the search crew
    takes (``kernel.script.stopped``): the caller decides it and runs the set-up again.
    ``force``: 1 + a decision taken as ``force_value`` (a search rollout's option)."""
    mp, bp, g, st = S.mp, S.bp, S.g, S.rng
    deep = mp[MP_GAME] == 1
    players, seats, ntask = g[G_PLAYERS], g[G_SEATS], g[G_NTASK]
    hands, possible, known, won = S.hands, S.possible, S.known, S.won
    passes, comm_used, under = S.passes, S.comm_used, S.under
    tcard, towner, ttok, pick = S.tcard, S.towner, S.ttok, S.pick
    desig, obj_done, res = S.desig, S.obj_done, S.res
    ct = S.ct  # per card: task owner (-1 none), then task index
    g[G_SU_J], g[G_SU_N], g[G_SU_SEARCH], g[G_SU_STOP] = 0, replay, search, 0
    g[G_SU_FORCE], g[G_SU_FORCE_V] = force, force_value
    if mp[MP_TOKEN_ADJUST]:  # 23 / 40: the crew may swap or move one token
        change_tokens(bp, tcard, ttok, ntask, mp[MP_TOKEN_ADJUST])
    if record:
        for s in range(seats):
            r_hands[ri, s] = hands[s]
        k = 0
        for c in range(40):
            if under[c] >= 0:
                r_under[ri, k, 0], r_under[ri, k, 1] = c, under[c]
                k += 1
    if not deep:  # Deep Sea gives its task cards out in the selection below
        allocate(S, mp, bp, g, hands, tcard, towner, pick, st)
    if stopped(S):
        return 0
    if record:
        for i in range(ntask):
            r_tasks[ri, i, 0], r_tasks[ri, i, 1] = tcard[i], towner[i]
            r_tasks[ri, i, 2], r_pick[ri, i] = ttok[i], pick[i]
    designate(S, mp, bp, g, hands, desig, st)
    if stopped(S):
        return 0
    if deep:
        if select(S, bp, mp[MP_ALLOC], hands, st) and mp[MP_COMM_IF_PASSED]:
            g[G_COMM_UNTIL] = 1
        if stopped(S):
            return 0
        repair(S, mp, hands, under, st)
        predict(S, hands)
        for k in range(g[G_NDS]):  # the cards in play after selection and repair
            ds_cards[gi, k] = S.ds_task[k] + 1
            ds_owners[gi, k] = S.ds_owner[k]
        for s in range(5):
            S.won_cards[s] = 0
        if record:
            nds = g[G_NDS]
            for k in range(nds):
                r_ds[ri, k] = S.ds_task[k]
                r_ds[ri, MAX_DS + k] = S.ds_owner[k]
                r_ds[ri, 2 * MAX_DS + k] = S.ds_pred[k]
            r_ds[ri, 3 * MAX_DS] = nds
            r_ds[ri, 3 * MAX_DS + 1] = g[G_COMM]
            r_ds[ri, 3 * MAX_DS + 2] = g[G_COMM_UNTIL]
    ho_i, ho_to = -1, -1
    if mp[MP_HANDOVER] and players == 5 and ntask > 0:
        ho_i, ho_to = handover(bp, g, hands, tcard, towner)
        if ho_i >= 0:
            towner[ho_i] = ho_to
    for c in range(40):
        ct[c] = -1
    for i in range(ntask):
        ct[tcard[i]], ct[40 + tcard[i]] = towner[i], i
        g[G_TASKMASK] |= np.int64(1) << tcard[i]
    if deep:  # Deep Sea cards naming exact cards to win are played like Planet Nine tasks
        for k in range(g[G_NDS]):
            row = S.ds_task[k] * N_COLS
            if S.ds_tab[row + C_EXACT]:
                m = S.ds_tab[row + C_NEED]
                while m:
                    c = lowest(m)
                    m &= m - 1
                    ct[c], ct[40 + c] = S.ds_owner[k], MAX_TASKS - 1  # no order token
                    g[G_TASKMASK] |= np.int64(1) << c
    _record_owners(g, ct)
    d = _distress(S, mp, bp, g, hands, under, tcard, towner, passes, st)
    if stopped(S):
        return 0
    if record:
        r_setup[ri, 0], r_setup[ri, 1], r_setup[ri, 2] = desig[0], desig[1], g[G_SILENCED]
        r_setup[ri, 3], r_setup[ri, 4], r_setup[ri, 5] = ho_i, ho_to, d
        for s in range(5):
            r_setup[ri, 6 + s] = passes[s] if d != 0 and s < seats else -1
    _reset_knowledge(g, hands, possible, known)
    for s in range(5):
        won[s] = 0
        comm_used[s] = 0
    for k in range(3):
        obj_done[k] = 0
    g[G_COMM_LEFT] = max(players - 2, 1)
    res[0] = 0
    return d
