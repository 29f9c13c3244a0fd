"""Following and discarding: what each card is worth played into a trick already led, by the
seat that would then win it, and what a discard keeps or sheds."""

import numpy as np

from crewsim.bots.deep_sea import (
    DS_EQUAL,
    DS_KEEP,
    DS_SHED,
    DS_WITH,
)
from crewsim.bots.deep_sea_cards import (
    deep_sea_bad,
    deep_sea_collect,
    deep_sea_keep,
    deep_sea_own_bad,
    deep_sea_sub,
)
from crewsim.bots.deep_sea_counts import deep_sea_shed, run_sub4
from crewsim.bots.deep_sea_tricks import (
    deep_sea_equal,
    deep_sea_fit,
    deep_sea_with,
    wins_with,
)
from crewsim.bots.hand import spent
from crewsim.bots.lead_bans import banned_follow, lead_bans
from crewsim.bots.objectives import (
    objective_of,
    objective_score,
    pink_target,
    rank_follow,
    sheds_trumps,
)
from crewsim.bots.view import (
    beats_card,
    current_winner,
    forces,
    later_toppers,
    overtake_risk,
    shown_only,
)
from crewsim.bots.weights import (
    BIG,
    CARD_ECONOMY,
    FAIL,
    FORCED,
    GUARD,
    HOT,
    KEEP_LAST,
    KEEP_OVER_MINE,
    KEEP_RUFF,
    LATE_RISK,
    SHED_OVER_OTHERS,
    SHED_TRUMPS,
    SPEND_TRUMP,
    STRIP,
    TASK_MAY_COME,
    VOID_SHED,
)
from crewsim.kernel.bits import (
    BEATS,
    ONES,
    SUIT,
    TRUMPS,
    highest,
    lowest,
    popcount,
    seat_after,
    suit_of,
    value_of,
)
from crewsim.kernel.jit import inlined
from crewsim.kernel.layout import (
    G_DONE,
    G_DUMMY,
    G_LEADER,
    G_NIN,
    G_NT,
    G_SEATS,
    G_T,
    G_TASKMASK,
    G_TRICKMASK,
    MP_NOBJ,
    MP_OBJ,
)


@inlined
def card_score(
    g,
    mp,
    me,
    c,
    winner,
    wcard,
    want,
    ct,
    tpred,
    desig,
    risk,
    others_open,
    mine_open,
    hand,
    shown,
    deep,
):
    """Value of playing card ``c`` when the trick would then go to ``winner`` with ``wcard``.

    ``others_open``: open task cards of other owners that I do not hold; ``mine_open``: open
    task cards I own but do not hold; ``deep``: a Deep Sea game."""
    sc = want[winner]
    done = g[G_DONE]
    if g[G_TASKMASK] >> c & 1:
        if ct[c] == winner:  # a risk weighs less as the chances to place the card run out
            late = 1.0  # (Planet Nine with 4-5 players or the dummy: docs/tuning.md)
            if ct[c] != me and not deep and (g[G_SEATS] >= 4 or g[G_DUMMY] >= 0):
                late -= LATE_RISK * g[G_T] / g[G_NT]
            sc += BIG * (1.0 - risk) - FAIL * BIG * risk * late
            if tpred[ct[40 + c]] & ~done:  # would break the order
                sc -= FAIL * BIG
        else:
            sc -= FAIL * BIG
    if mp[MP_NOBJ]:
        sc += objective_score(g, mp, me, c, winner, wcard, desig, risk, hand, shown)
    # card economy: keep high cards and trumps; shed cards above other owners' open task
    # cards (keep the ones below to duck with later); keep cards above my own open ones
    sc -= CARD_ECONOMY * value_of(c) + (SPEND_TRUMP if c >= 36 else 0.0)
    below = (np.int64(1) << c) - 1
    same = SUIT[suit_of(c)]
    sc += SHED_OVER_OTHERS * (
        popcount(others_open & same & below) - popcount(others_open & same & ~below)
    )
    sc -= KEEP_OVER_MINE * popcount(mine_open & same & below)
    return sc


@inlined
def safe_tops(g, led, want, possible, known, unseen):
    """The shown cards a seat still to play takes the trick with: the highest card of the
    colour led shown by a seat the crew wants to take it, when no other seat still to play
    may top it (nor ruff it, being void in the colour)."""
    seats, tops = g[G_SEATS], np.int64(0)
    for k in range(g[G_NIN] + 1, seats):
        q = seat_after(g[G_LEADER], k, seats)
        if want[q] < HOT * BIG or known[q] & SUIT[led] == 0:
            continue
        kc = highest(known[q] & SUIT[led])
        safe = True
        for j in range(g[G_NIN] + 1, seats):
            r = seat_after(g[G_LEADER], j, seats)
            poss = possible[r] & unseen
            if r != q and (poss & SUIT[led] & BEATS[kc] or poss & SUIT[led] == 0 and poss & TRUMPS):
                safe = False
        if safe:
            tops |= np.int64(1) << kc
    return tops


@inlined
def sure_taker(g, wcard, led, known, tops):
    """The first seat still to play holding one of ``tops`` (``safe_tops``) above ``wcard``:
    it takes the trick.  The seat and that card, or -1s."""
    seats = g[G_SEATS]
    for k in range(g[G_NIN] + 1, seats):
        q = seat_after(g[G_LEADER], k, seats)
        if known[q] & SUIT[led]:
            kc = highest(known[q] & SUIT[led])
            if tops >> kc & 1 and BEATS[wcard] >> kc & 1:
                return q, kc
    return -1, np.int64(-1)


@inlined
def follow_card(S, mp, g, me, hand, legal, trick, won, desig, possible, known, ct, tpred, want, dc):
    """The card to play into a trick already led: each legal card's ``card_score`` for the seat
    that would then win the trick, and what the decision's context (``dc``), the special
    objectives and the Deep Sea task cards add to it."""
    seats = g[G_SEATS]
    nin = g[G_NIN]
    mine, unseen, unheld, shown = dc.mine, dc.unseen, dc.unheld, dc.shown
    open_cards, my_tasks, mine_open = dc.open_cards, dc.my_tasks, dc.mine_open
    with_owner, bans, omega, keep_last = dc.with_owner, dc.bans, dc.omega, dc.keep_last
    keep_trumps, shed_high, spend, void_in = dc.keep_trumps, dc.shed_high, dc.spend, dc.void_in
    avoid, ds, keeper, subs = dc.avoid, dc.ds, dc.keeper, dc.subs
    counts, collectors, drawn = dc.counts, dc.collectors, dc.drawn
    others_open = open_cards & ~mine & ~my_tasks
    # others' task cards in my hand, with long hands (2-3 players): the low cards of their
    # colour, kept, duck under them later (shorter hands do better to get void and discard them)
    carried = open_cards & hand & ~my_tasks if seats <= 3 else np.int64(0)
    shed_trumps = sheds_trumps(g, mp, me, desig, ct, omega)
    rk = objective_of(mp, 10)  # Deep Sea 8/21: wins of one rank kept balanced
    rank_cards = ONES << (mp[MP_OBJ + 3 * rk + 1] - 1) if rk >= 0 else np.int64(0)
    best, best_c = -1e18, np.int64(-1)
    led = suit_of(trick[0])
    # winning while a later player may still drop my task card into this trick is worth it
    m = open_cards & ~mine & SUIT[led]
    while m:
        tc = lowest(m)
        m &= m - 1
        for k in range(nin + 1, seats):
            q = seat_after(g[G_LEADER], k, seats)
            if shown_only(known[q], possible[q], SUIT[led], unseen, tc):  # it must come
                for s in range(seats):
                    want[s] += BIG if s == ct[tc] else -BIG
                break
            if possible[q] >> tc & 1:
                want[ct[tc]] += TASK_MAY_COME
                break
    cur_seat, cur_card = current_winner(g, trick)
    cur_risk = -1.0  # computed when first needed
    cur_forced = -1.0  # (as is ``forces`` for the current winning card)
    cur_bans = lead_bans(S, g, mp, cur_seat, me)
    pink_to = pink_target(g, mp)
    takers = safe_tops(g, led, want, possible, known, unseen) if shown & SUIT[led] else 0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        wseat, wcard, risk = cur_seat, cur_card, 0.0
        beats = beats_card(c, cur_card)
        if beats:
            wseat, wcard = me, c
        sure = False  # a seat still to play surely takes the trick from an unwanted winner
        if takers and want[wseat] < 0 and suit_of(wcard) == led:
            q, kc = sure_taker(g, wcard, led, known, takers)
            if q >= 0:
                wseat, wcard, sure = q, kc, True
        # the overtake risk only counts when the crew wants this winner or c is its task card
        # (or the pink the target must take, or a card of the rank to keep balanced)
        if (
            not sure
            and nin + 1 < seats
            and (
                want[wseat] > 0
                or (ct[c] == wseat and g[G_TASKMASK] >> c & 1)
                or c < 9
                and wseat == pink_to
                or rank_cards >> c & 1
            )
        ):
            if beats:
                risk = overtake_risk(g, wcard, led, mine, possible, known, nin + 1)
            else:
                if cur_risk < 0:
                    cur_risk = overtake_risk(g, cur_card, led, mine, possible, known, nin + 1)
                risk = cur_risk
        sc = card_score(
            g,
            mp,
            me,
            c,
            wseat,
            wcard,
            want,
            ct,
            tpred,
            desig,
            risk,
            others_open,
            mine_open,
            hand,
            shown,
            dc.deep,
        )
        if want[wseat] > 0:
            sc -= risk * want[wseat]
        if c == omega:
            sc -= FAIL * BIG
        elif c == keep_last:
            sc -= KEEP_LAST
        elif shed_trumps and c >= 36:
            sc += SHED_TRUMPS
        if keep_trumps and c >= 36 and not (g[G_TRICKMASK] | mine_open & SUIT[led]) & my_tasks:
            sc -= KEEP_RUFF  # (unless my task card lies in the trick or may still come)
        if suit_of(c) != led:  # a discard (or a ruff)
            same = SUIT[suit_of(c)]
            if void_in >> c & 1:
                sc += VOID_SHED
            if c < 36 and with_owner & ~my_tasks & same & ~BEATS[c]:
                sc += STRIP  # a card that could top that owner's own task card leaves
            if carried & same & BEATS[c]:
                sc -= GUARD  # under another's task card I hold: kept, it ducks later
        if avoid and suit_of(wcard) == led:
            if beats:
                forced = forces(g, wcard, me, avoid, possible, known, unseen, nin + 1)
            else:  # the same for every card that does not take the lead
                if cur_forced < 0:
                    cur_forced = forces(g, cur_card, me, avoid, possible, known, unseen, nin + 1)
                forced = cur_forced
            sc -= forced * FORCED
        if shed_high:
            sc += spent(c)
        if bans or cur_bans:
            wbans = bans if wseat == me else cur_bans
            sc += banned_follow(g, me, c, hand, wseat, bans, wbans, possible, unheld)
        if rk >= 0:
            sc += rank_follow(S, g, mp, rk, me, c, wseat, risk)
        if spend and wseat == me:
            sc += spent(c)
        if ds & DS_SHED:
            sc += deep_sea_shed(S, g, me, c, wseat, won)
            if wseat == me and dc.bad_mine >> c & 1:
                sc += deep_sea_own_bad(S, g, me, c, nin + 1, possible, mine)
        if ds & DS_KEEP:
            sc += deep_sea_keep(S, g, me, c, keeper)
        if c == 39 and dc.deep:
            sc += run_sub4(S, g, me, won)
        if ds & DS_WITH:
            if beats and risk == 0.0 and nin + 1 < seats and wins_with(S, g, me, c):
                risk = overtake_risk(g, c, led, mine, possible, known, nin + 1)
            sc += deep_sea_with(S, g, me, c, wseat, wcard, risk)
        if dc.fit_owners >> wseat & 1 or dc.fit_cards >> c & 1:
            sc += deep_sea_fit(S, g, me, c, wseat)
        if ds & DS_EQUAL:
            sc += deep_sea_equal(S, g, me, c, wseat)
        if dc.bad_others >> c & 1:
            sc += deep_sea_bad(S, g, me, c, wseat, wcard)
        if subs:
            sc += deep_sea_sub(S, g, me, c, wseat, wcard)
        if counts >> c & 1:
            toppers = later_toppers(g, wcard, possible, unseen) if suit_of(wcard) == led else 0
            if (collectors >> wseat & 1 or toppers & collectors) and toppers and risk == 0.0:
                risk = overtake_risk(g, wcard, led, mine, possible, known, nin + 1)
            sc += deep_sea_collect(
                S, g, me, c, wseat, risk, drawn, g[G_TRICKMASK] | drawn, toppers & collectors
            )
        if sc > best:
            best, best_c = sc, c
    return best_c
