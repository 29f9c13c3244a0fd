"""Judging a finished trick in numba: the task cards, the order tokens, the special objectives and
the Deep Sea task cards (the kernel's twins of ``crewsim.rules``; the cross-check holds them
to one answer).  The game loop and the solver's searches both judge with these."""

import numpy as np

from crewsim.kernel.bits import (
    FULL,
    SUIT,
    popcount,
    suit_of,
    value_of,
)
from crewsim.kernel.conditions import CODE_SIZE, ds_judge
from crewsim.kernel.jit import compiled, inlined
from crewsim.kernel.layout import (
    FAIL_CONDITION,
    FAIL_NOT_DONE,
    FAIL_OBJECTIVE,
    FAIL_ORDER,
    FAIL_WRONG_WINNER,
    G_CMD,
    G_D_TRUMP,
    G_DONE,
    G_FIRST_CMD,
    G_FIRST_WINNER,
    G_NDS,
    G_NT,
    G_NTASK,
    G_ONES_WINS,
    G_PINK_TARGET,
    G_PLAYED,
    G_PLAYERS,
    G_SEATS,
    G_T,
    G_TASKMASK,
    G_TRICKMASK,
    G_TRUMP_WINS,
    MP_NOBJ,
    MP_OBJ,
    MP_OMEGA_LAST,
    OBJ_BALANCED,
    OBJ_CARD_LAST,
    OBJ_FIRST_LAST,
    OBJ_FIRST_MOST,
    OBJ_NO_LEAD,
    OBJ_NO_RANK,
    OBJ_NO_TRICKS,
    OBJ_ONE_TRICK,
    OBJ_ONES,
    OBJ_PINK,
    OBJ_RANK,
    OBJ_ROLES,
    OBJ_TRUMPS,
    OMEGA_CODE,
)


@inlined
def judge_trick(
    g, mp, trick, winner, wcard, tcard, towner, tpred, ttok, won, won_cards, desig, obj_done, res
):
    """After a trick: res = (status 0 pending/1 success/2 failed, fail kind, fail detail).

    Mirrors ``GameState._judge``: tasks first, then order, then objectives; first failure wins.
    """
    t, nt = g[G_T], g[G_NT]
    last = t == nt - 1
    res[0] = 0
    if not last and mp[MP_NOBJ] == 0 and g[G_TASKMASK] & g[G_TRICKMASK] == 0:
        return  # nothing was won that could complete or break a task (most tricks)
    fk, fd = 0, -1
    done = g[G_DONE]
    newly = np.int64(0)
    for i in range(g[G_NTASK]):
        if done >> i & 1:
            continue
        if not (g[G_TRICKMASK] >> tcard[i] & 1):
            continue
        if winner != towner[i]:
            if fk == 0:
                fk, fd = FAIL_WRONG_WINNER, tcard[i]
        else:
            newly |= np.int64(1) << i
    done |= newly
    g[G_DONE] = done
    for i in range(g[G_NTASK]):
        if newly >> i & 1:
            if tpred[i] & ~done and fk == 0:
                fk, fd = FAIL_ORDER, tcard[i]
            if mp[MP_OMEGA_LAST] and ttok[i] == OMEGA_CODE and not last and fk == 0:
                fk, fd = FAIL_ORDER, tcard[i]
    omega_done = False
    for i in range(g[G_NTASK]):
        if done >> i & 1 and ttok[i] == OMEGA_CODE:
            omega_done = True
    all_done = done == (np.int64(1) << g[G_NTASK]) - 1
    if omega_done and not all_done and fk == 0:
        for i in range(g[G_NTASK]):
            if not (done >> i & 1):
                fk, fd = FAIL_ORDER, tcard[i]
                break
    if last and not all_done and fk == 0:
        for i in range(g[G_NTASK]):
            if not (done >> i & 1):
                fk, fd = FAIL_NOT_DONE, tcard[i]
                break
    in_hands = FULL & ~g[G_PLAYED]
    objs_done = True
    for k in range(mp[MP_NOBJ]):
        if obj_done[k]:
            continue
        kind, a, b = mp[MP_OBJ + 3 * k], mp[MP_OBJ + 3 * k + 1], mp[MP_OBJ + 3 * k + 2]
        v = judge_objective(
            g, kind, a, b, trick, winner, wcard, won, won_cards, desig, in_hands, last
        )
        if v == 2 and fk == 0:
            fk, fd = FAIL_OBJECTIVE, kind
        elif v == 1:
            obj_done[k] = True
        if not obj_done[k]:
            objs_done = False
    if fk != 0:
        res[0], res[1], res[2] = 2, fk, fd
    elif all_done and objs_done:
        res[0] = 1


@compiled
def _at_end(ok, last):
    if not ok:
        return 2
    return 1 if last else 0


@compiled
def judge_objective(g, kind, a, b, trick, winner, wcard, won, won_cards, desig, in_hands, last):
    """One special objective after a trick: 0 pending, 1 done, 2 failed (see rules.objectives)."""
    seats, t, nt = g[G_SEATS], g[G_T], g[G_NT]
    d = desig[0]
    if kind == OBJ_NO_TRICKS:
        return _at_end(won[d] == 0, last)
    if kind == OBJ_ONES:
        if g[G_ONES_WINS] >= a:
            return 1
        ones = np.int64(0)
        for s in range(4):
            ones |= np.int64(1) << (9 * s)
        possible = min(popcount(in_hands & ones), nt - (t + 1))
        return 2 if g[G_ONES_WINS] + possible < a else 0
    if kind == OBJ_TRUMPS:
        n_trumps = 0
        for k in range(seats):
            if trick[k] >= 36:
                n_trumps += 1
        if n_trumps >= 2:
            return 2
        if a and wcard >= 36 and value_of(wcard) != g[G_TRUMP_WINS]:
            return 2
        if g[G_TRUMP_WINS] == 4:
            return 1
        return 2 if last else 0
    if kind == OBJ_NO_RANK:
        if wcard < 36 and value_of(wcard) == a:
            return 2
        rank_cards = np.int64(0)
        for s in range(4):
            rank_cards |= np.int64(1) << (9 * s + a - 1)
        return 1 if last or not (in_hands & rank_cards) else 0
    if kind == OBJ_BALANCED:
        mn, mx = won[0], won[0]
        for s in range(seats):
            mn = min(mn, won[s])
            mx = max(mx, won[s])
        ok = mx - mn <= a
        if b:
            ok = ok and g[G_FIRST_CMD] == 1
            if last:
                ok = ok and winner == g[G_CMD]
        return _at_end(ok, last)
    if kind == OBJ_ONE_TRICK:
        ok = won[d] <= 1 and not (a and g[G_D_TRUMP] == 1)
        if last and won[d] != 1:
            ok = False
        return _at_end(ok, last)
    if kind == OBJ_FIRST_LAST:
        must = t == 0 or t == nt - 1
        w = winner == d
        ok = w == must and not (w and a and wcard >= 36)
        return _at_end(ok, last)
    if kind == OBJ_PINK:
        has_pink = False
        for k in range(seats):
            if trick[k] < 9:
                has_pink = True
        if has_pink and winner != g[G_PINK_TARGET]:
            return 2
        if last or not (in_hands & SUIT[0]):  # a pink never played need not be won
            return 1
        return 0
    if kind == OBJ_ROLES:
        if t < a:
            ok = winner == desig[0]
        elif t >= nt - b:
            ok = winner == desig[1]
        else:
            ok = winner != desig[0] and winner != desig[1]
        return _at_end(ok, last)
    if kind == OBJ_RANK:  # Deep Sea 8/21: colour cards of rank a won, spread at most b apart
        rank_cards = np.int64(0)
        for s in range(4):
            rank_cards |= np.int64(1) << (9 * s + a - 1)
        mn, mx = np.int64(99), np.int64(0)
        for s in range(seats):
            k = popcount(won_cards[s] & rank_cards)
            mn = min(mn, k)
            mx = max(mx, k)
        if mx - mn > b:
            return 2
        return 1 if last or not (in_hands & rank_cards) else 0
    if kind == OBJ_NO_LEAD:  # Deep Sea 12: no trick opened with a suit in bitmask a
        return _at_end(not (a >> suit_of(trick[0]) & 1), last)
    if kind == OBJ_FIRST_MOST:  # Deep Sea 23: the first trick's winner stays strictly ahead
        w0 = g[G_FIRST_WINNER]
        ok = True
        for s in range(seats):
            if s != w0 and won[s] >= won[w0]:
                ok = False
        return _at_end(ok, last)
    if kind == OBJ_CARD_LAST:  # Deep Sea 27: card a is the last card of the final trick
        for k in range(seats):
            if trick[k] == a:
                return 1 if last and k == seats - 1 else 2
        return 2 if last else 0
    return 1


@compiled
def judge_deep(S, g, trick, leader, winner, wcard, won, hands, res):
    """Judge every pending Deep Sea task card after the trick (crewsim.kernel.conditions);
    the mission fails on the first failed card and succeeds once all are done."""
    t, nt, seats, players = g[G_T], g[G_NT], g[G_SEATS], g[G_PLAYERS]
    in_hands = FULL & ~g[G_PLAYED]
    all_done = True
    for k in range(g[G_NDS]):
        if S.ds_done[k]:
            continue
        row = S.ds_task[k]
        v = ds_judge(
            S.ds_code[row * CODE_SIZE : (row + 1) * CODE_SIZE],
            S.ds_owner[k],
            S.ds_pred[k],
            S.ds_state[k * 4 : k * 4 + 4],
            t,
            nt,
            seats,
            players,
            g[G_CMD],
            trick,
            leader,
            winner,
            wcard,
            won,
            S.won_cards,
            in_hands,
            hands,
        )
        if v == 1:
            S.ds_done[k] = 1
        else:
            all_done = False
            if v == 2 and res[0] != 2:
                res[0], res[1], res[2] = 2, FAIL_CONDITION, row + 1
    if res[0] == 1 and not all_done:
        res[0] = 0  # the Planet Nine part is done, a Deep Sea card is still open
    elif res[0] == 0 and all_done and g[G_NDS] > 0 and _others_done(S, g):
        res[0] = 1


@compiled
def _others_done(S, g):
    """Every crew objective of the mission is done as well (missions 8-27 have none with tasks)."""
    for k in range(S.mp[MP_NOBJ]):
        if not S.obj_done[k]:
            return False
    return True
