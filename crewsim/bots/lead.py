"""Leading a trick: what each card is worth on lead.  The crew leads to the seat it wants to
take the trick, owners cash their own task cards or draw out the cards above them, and nobody
leads into a trick that surely fails a task."""

import numpy as np

from crewsim.bots.deep_sea import (
    DS_EQUAL,
    DS_KEEP,
    DS_WITH,
)
from crewsim.bots.deep_sea_cards import (
    deep_sea_bad,
    deep_sea_bad_lead,
    deep_sea_collect,
    deep_sea_keep,
    deep_sea_own_bad,
    deep_sea_sub,
)
from crewsim.bots.deep_sea_counts import run_sub4
from crewsim.bots.deep_sea_tricks import (
    clears_for,
    deep_sea_equal,
    deep_sea_fit,
    deep_sea_with,
    wins_with,
)
from crewsim.bots.hand import spent
from crewsim.bots.lead_bans import banned_lead
from crewsim.bots.objectives import objective_of, rank_lead
from crewsim.bots.view import (
    drawn_from,
    forces,
    later_toppers,
    lead_risk,
    over_known,
    shown_only,
)
from crewsim.bots.weights import (
    BIG,
    CARD_ECONOMY,
    CASH_SUB,
    CLEAR_FOR_WITH,
    DRAW_FOR_MY_TASK,
    DRAW_TOPPED,
    ENTRY_GAIN,
    ENTRY_RUFFABLE,
    FAIL,
    FORCE_HOLDER,
    FORCE_HOLDER_SHORT,
    FORCE_OTHER_ONE,
    FORCED,
    GUARD_TRUMP,
    HOT,
    KEEP_LAST,
    KEEP_RUFF,
    KEPT_TASK_COLOUR,
    LEAD_FORBIDDEN_RANK,
    LEAD_SURE_WIN,
    MUST_WIN_WANT,
    MY_RUFF_COLOUR,
    OMEGA_COLOUR,
    ONE_LOST,
    ONE_WINS,
    ONES_STRIP,
    ONES_STRIP_MAX,
    OTHER_RUFF,
    OTHER_TASK_LOST,
    OTHER_TASK_RUFF,
    OTHER_TASK_SURE,
    OTHERS_WANT_SHARE,
    OVER_OTHER_TASK,
    OWN_TASK_TOPPED,
    OWN_TASK_URGENCY,
    PINK_LEAD,
    PULL_COLOUR,
    PULL_FIRST,
    ROUTE_SHARE,
    ROUTE_SHOWN_NEXT,
    ROUTE_SHOWN_TOP,
    SHED_HIGH,
    SPARE_TRUMP,
    STAY_AHEAD,
    STRIP_MY_ONE,
    STRIP_MY_ONE_SHORT,
    SUB_RUFF_LEAD,
    TRUMP_TRICK,
    UNDER_MY_TASK,
    UNDER_OTHER_TASK,
)
from crewsim.kernel.bits import (
    BEATS,
    SUIT,
    TRUMPS,
    highest,
    lowest,
    popcount,
    suit_of,
    value_of,
)
from crewsim.kernel.jit import inlined
from crewsim.kernel.layout import (
    G_DONE,
    G_DUMMY,
    G_FIRST_WINNER,
    G_NT,
    G_ONES_WINS,
    G_PINK_TARGET,
    G_PLAYED,
    G_SEATS,
    G_T,
    G_TASKMASK,
    G_TRICKMASK,
    G_TRUMP_WINS,
    MP_NOBJ,
    MP_OBJ,
    OBJ_CARD_LAST,
    OBJ_FIRST_MOST,
    OBJ_NO_RANK,
    OBJ_NO_TRICKS,
    OBJ_ONES,
    OBJ_PINK,
    OBJ_RANK,
    OBJ_TRUMPS,
)


@inlined
def lead_score(
    S,
    g,
    mp,
    me,
    c,
    mine,
    want,
    possible,
    known,
    ct,
    tpred,
    others_poss,
    avg_other,
    hot,
    guard,
    d0,
    subs,
    shown,
):
    """Value of leading card ``c`` (``others_poss``: unseen cards the others may hold; ``hot``:
    another seat wants the trick badly; ``subs``: task cards to be won with a submarine;
    ``shown``: cards the others have shown and still hold)."""
    done = g[G_DONE]
    played = g[G_PLAYED]
    s = suit_of(c)
    top = others_poss & SUIT[s] & BEATS[c] == 0
    sc = 0.0
    if top:
        sc += want[me]
        if c < 36 and others_poss & TRUMPS == 0:
            sc += LEAD_SURE_WIN
    else:
        route = _route(g, c, me, mine, possible, known, want) if hot else -1e18
        sc += ROUTE_SHARE * (route + avg_other) if route >= HOT * BIG else avg_other
    m = g[G_TASKMASK] & ~played & SUIT[s]
    while m:
        tc = lowest(m)
        m &= m - 1
        o = ct[tc]
        blocked = (tpred[ct[40 + tc]] & ~done) != 0
        if tc == c:
            if o == me:
                if blocked:
                    sc -= FAIL * BIG
                else:
                    risk = 0.0 if top else lead_risk(g, c, mine, possible, known, me)
                    urgency = 0.0 if top else OWN_TASK_URGENCY * g[G_T] / g[G_NT]
                    sc += BIG * (1.0 - risk) - OWN_TASK_TOPPED * BIG * risk + urgency
                    hi = highest(S.hands[me] & SUIT[s])
                    if risk > 0 and g[G_DUMMY] < 0 and others_poss & SUIT[s] & BEATS[hi] == 0:
                        sc -= PULL_FIRST * risk  # my top card of the colour pulls theirs first
            elif subs >> c & 1:  # only a ruff wins it: its owner void in the colour, with subs
                void = possible[o] & SUIT[s] == 0 and possible[o] & TRUMPS != 0
                sc += SUB_RUFF_LEAD * BIG if void and not blocked else -OTHER_TASK_LOST * BIG
            else:
                # lead another's task card only if its owner surely beats it
                sure = over_known(g, c, o, me, mine, possible, known) == 0 and not blocked
                # an owner known void in the colour who may hold trumps can ruff a high card
                ruff = (
                    not blocked
                    and value_of(c) >= 8
                    and possible[o] & SUIT[s] == 0
                    and possible[o] & TRUMPS != 0
                )
                sc += (
                    OTHER_TASK_SURE * BIG
                    if sure
                    else (OTHER_TASK_RUFF * BIG if ruff else -OTHER_TASK_LOST * BIG)
                )
        elif o == me and subs >> tc & 1:
            sc -= MY_RUFF_COLOUR  # my card to ruff: I empty its colour instead of leading into it
        elif o == me and not (mine >> tc & 1):
            if top and c > tc and not blocked:
                sc += DRAW_FOR_MY_TASK * BIG
            elif c > tc and not blocked:  # not the top card: someone may be forced above it
                risk = lead_risk(g, c, mine, possible, known, me)
                sc += DRAW_FOR_MY_TASK * BIG * (1.0 - risk) - DRAW_TOPPED * BIG * risk
            elif c < tc:
                sc -= UNDER_MY_TASK
        elif o == me and mine >> tc & 1:
            sc += PULL_COLOUR  # pull the colour out of the other hands before leading my task card
        elif mine >> tc & 1:
            sc -= KEPT_TASK_COLOUR  # I would have to keep it; leading its colour risks losing it
        else:
            sc -= UNDER_OTHER_TASK if c < tc else OVER_OTHER_TASK
    out = popcount(SUIT[s] & ~mine & ~played) if mp[MP_NOBJ] else 0  # in the other hands
    short = out < 2 * (g[G_SEATS] - 1)  # under 2 a seat: a lone 1 or 9 of it may be forced out
    for k in range(mp[MP_NOBJ]):
        kind, a = mp[MP_OBJ + 3 * k], mp[MP_OBJ + 3 * k + 1]
        if kind == OBJ_ONES and g[G_ONES_WINS] < a and c < 36:
            if value_of(c) == 1:  # a led 1 wins only when the others cannot follow
                sc += ONE_WINS if others_poss & SUIT[s] == 0 else -ONE_LOST
            elif mine >> (9 * s) & 1:  # strip the colour of my 1 from the other hands, if my
                guards = popcount(mine & SUIT[s]) - 2  # other cards of it outlast theirs
                sc += (
                    STRIP_MY_ONE if (guards + 1) * (g[G_SEATS] - 1) >= out else -STRIP_MY_ONE_SHORT
                )
            elif shown >> (9 * s) & 1:  # its holder has the length
                # to follow above it: strip the colour, unless I am as long (each lead costs
                # the holder a guard, and I would outlast them)
                sc += ONES_STRIP if popcount(mine & SUIT[s]) <= ONES_STRIP_MAX else -ONES_STRIP
            elif not played >> (9 * s) & 1 and short:
                # another seat's 1 of this colour, likely short, would have to follow
                sc -= FORCE_OTHER_ONE
        elif kind == OBJ_CARD_LAST and c == a and g[G_T] < g[G_NT] - 1:
            sc -= FAIL * BIG
        elif kind == OBJ_FIRST_MOST and g[G_T] > 0 and me == g[G_FIRST_WINNER] and not top:
            sc -= STAY_AHEAD * lead_risk(g, c, mine, possible, known, me)  # stay ahead: lead high
        elif kind == OBJ_RANK and c < 36:
            sc += rank_lead(S, g, mp, k, me, c, mine, possible, top, short)
        elif kind == OBJ_CARD_LAST and suit_of(c) == suit_of(a) and not (played | mine) >> a & 1:
            sc -= (
                FORCE_HOLDER_SHORT if short else FORCE_HOLDER
            )  # its holder may have to follow with it
        elif kind == OBJ_NO_TRICKS and me == d0:
            sc += SHED_HIGH * value_of(c)  # shed high cards while someone else can still take them
        elif kind == OBJ_TRUMPS and c >= 36:
            others = TRUMPS & ~mine & ~played
            sc += -FAIL * BIG if others else TRUMP_TRICK
            if a and value_of(c) != g[G_TRUMP_WINS] + 1:
                sc -= FAIL * BIG
        elif kind == OBJ_NO_RANK and c < 36:
            if value_of(c) == a:
                sc -= LEAD_FORBIDDEN_RANK
            else:  # another seat's card of the rank, the top one left and alone in its
                r = 9 * s + a - 1  # colour, would have to win
                top_r = SUIT[s] & BEATS[r] & ~played == 0
                if top_r and not (mine | played) >> r & 1:
                    sc -= FORCE_HOLDER_SHORT if short else FORCE_HOLDER
        elif kind == OBJ_PINK and c < 9:
            sc += PINK_LEAD if me == g[G_PINK_TARGET] and top else -PINK_LEAD
    if c >= 36:  # keep trumps, unless they guard my own low task card against ruffs
        sc += GUARD_TRUMP if guard else -SPARE_TRUMP
    sc -= CARD_ECONOMY * value_of(c)
    return sc


@inlined
def _route(g, c, me, mine, possible, known, want):
    """What leading ``c`` is worth when others may beat it: the followers steer the trick to
    the seat that wants it most among those who may top it (with a submarine only when the
    seat may be void in the colour led); more when that seat has shown a card at most one
    other card can top."""
    best = -1e18
    suit = SUIT[suit_of(c)]
    unseen = ~mine & ~g[G_PLAYED]
    for q in range(g[G_SEATS]):
        poss = possible[q] & unseen
        tops = poss & suit & BEATS[c] != 0 or (c < 36 and poss & suit == 0 and poss & TRUMPS != 0)
        if q != me and tops:
            w = want[q]
            over = over_known(g, c, q, me, mine, possible, known) if w > 0 else -1
            if over == 0:
                w *= ROUTE_SHOWN_TOP
            elif over == 1:
                w *= ROUTE_SHOWN_NEXT
            best = max(best, w)
    return best


@inlined
def sure_loss(g, me, c, ct, possible, known, unseen, shown):
    """Leading ``c`` surely fails a task: a seat that has shown a task card as its only card
    of the colour must follow with it, and that card's owner cannot take the trick (another
    owner's task card is in it; or the owner is me and the card tops ``c``; or the owner must
    follow with nothing above ``c``, or is void in the colour without a submarine)."""
    suit = SUIT[suit_of(c)]
    owners = np.int64(1) << ct[c] if g[G_TASKMASK] >> c & 1 else np.int64(0)
    m = g[G_TASKMASK] & suit & unseen & shown  # only a shown card can be shown as the only one
    while m:
        tc = lowest(m)
        m &= m - 1
        for q in range(g[G_SEATS]):
            if q != me and shown_only(known[q], possible[q], suit, unseen, tc):
                o = ct[tc]
                owners |= np.int64(1) << o
                if o == me:
                    if tc > c:  # it tops my lead
                        return True
                    continue
                held = possible[o] & suit & unseen
                if known[o] & suit & unseen and not held & BEATS[c]:
                    return True  # it must follow, with nothing above the lead
                if held == 0 and possible[o] & TRUMPS & unseen == 0:
                    return True  # void in the colour, without a submarine to ruff with
    return owners & (owners - 1) != 0


@inlined
def others_need_trumps(g, me, ct, possible, unseen):
    """Whether another owner, known not to hold an open task card of a colour, may hold trumps:
    a trump led draws the one it may need to ruff that card with."""
    m = g[G_TASKMASK] & ~g[G_PLAYED] & ~g[G_TRICKMASK] & ~TRUMPS
    while m:
        tc = lowest(m)
        m &= m - 1
        o = ct[tc]
        if o != me and not possible[o] >> tc & 1 and possible[o] & unseen & TRUMPS:
            return True
    return False


@inlined
def entry_bonus(g, me, c, ct, tpred, omega, mine_open, possible, known, others_poss, unseen):
    """Leading ``c``, a sure winner of another colour than my open task cards held by others:
    a holder void in it can discard my task card onto the trick.  Worth the chance that the
    holder is void (known void: certain), more as the tricks run out."""
    s = suit_of(c)
    if others_poss & SUIT[s] & BEATS[c]:
        return 0.0
    if c < 36 and others_poss & TRUMPS:
        ruff = ENTRY_RUFFABLE
    else:
        ruff = 1.0
    seats = g[G_SEATS]
    left = g[G_NT] - g[G_T]
    u_all = max(popcount(unseen), 1)
    u_suit = popcount(unseen & SUIT[s])
    best = 0.0
    m = mine_open
    while m:
        tc = lowest(m)
        m &= m - 1
        if suit_of(tc) == s or tc == omega or tpred[ct[40 + tc]] & ~g[G_DONE]:
            continue  # (not yet: its order token waits for another task, or omega)
        k = 0
        for q in range(seats):
            if q != me and possible[q] >> tc & 1:
                k += 1
        d = g[G_DUMMY]  # two players: every hidden card may also lie face down in the dummy,
        if d >= 0 and k == 1 and not possible[d] >> tc & 1:  # which ``possible`` does not list
            k = 2
            for q in range(seats):
                if known[q] >> tc & 1:
                    k = 1
        if k == 0 or d >= 0 and k > 1:  # two players: it may lie face down under a dummy card
            continue  # instead, where no discard can reach it: only a holder that showed it counts
        p = 0.0
        for q in range(seats):
            if q != me and possible[q] >> tc & 1:
                if possible[q] & unseen & SUIT[s] == 0:
                    pv = 1.0
                else:
                    pv = (1.0 - min(left / u_all, 1.0)) ** u_suit
                p += pv / k
        best = max(best, p)
    return ENTRY_GAIN * ruff * best * (1.0 + g[G_T] / g[G_NT])


@inlined
def lead_card(S, mp, g, me, hand, legal, won, desig, possible, known, ct, tpred, want, dc):
    """The card to lead: each legal card's ``lead_score`` and what the decision's context
    (``dc``), the special objectives and the Deep Sea task cards add to it."""
    seats = g[G_SEATS]
    mine, unseen, unheld, shown = dc.mine, dc.unseen, dc.unheld, dc.shown
    open_cards, my_tasks, mine_open = dc.open_cards, dc.my_tasks, dc.mine_open
    with_owner, bans, omega, keep_last = dc.with_owner, dc.bans, dc.omega, dc.keep_last
    keep_trumps, shed_high, spend, cash = dc.keep_trumps, dc.shed_high, dc.spend, dc.cash
    avoid, keeper, subs, counts, drawn = dc.avoid, dc.keeper, dc.subs, dc.counts, dc.drawn
    ds, collectors = dc.ds, dc.collectors
    best, best_c = -1e18, np.int64(-1)
    drawn_suit = -1
    others_poss = np.int64(0)
    tot, hot = 0.0, False
    for q in range(seats):
        if q != me:
            others_poss |= possible[q]
            tot += want[q]
            hot = hot or want[q] >= HOT * BIG
    others_poss &= unseen
    avg_other = OTHERS_WANT_SHARE * tot / max(seats - 1, 1)
    # a Deep Sea trick I want (a named trick, a streak, a count to reach) and no sure
    # winner: lead the likeliest one, not the card kept for the last trick
    must_win = dc.deep and want[me] >= MUST_WIN_WANT * BIG
    m = legal
    while m and must_win:
        c = lowest(m)
        m &= m - 1
        must_win = others_poss & SUIT[suit_of(c)] & BEATS[c] != 0
    # trumps threaten a low task card held by its owner: I hold one of mine, or every open
    # task card is known (communicated) to sit with its owner
    guard = my_tasks & mine != 0 or open_cards != 0 and open_cards & ~with_owner == 0
    # (where no 9 may win a trick, a trump lead is the safe one)
    their_ruffs = objective_of(mp, 4) < 0 and others_need_trumps(g, me, ct, possible, unseen)
    m = legal  # every legal card is scored: cutting equal cards cost more than it saved
    while m:
        c = lowest(m)
        m &= m - 1
        sc = lead_score(
            S,
            g,
            mp,
            me,
            c,
            mine,
            want,
            possible,
            known,
            ct,
            tpred,
            others_poss,
            avg_other,
            hot,
            guard,
            desig[0],
            subs,
            shown,
        )
        if bans:
            sc += banned_lead(S, g, mp, me, c, hand, bans, possible, unheld)
        if shown & g[G_TASKMASK] & SUIT[suit_of(c)] and sure_loss(
            g, me, c, ct, possible, known, unseen, shown
        ):
            sc -= FAIL * BIG
        if omega >= 0 and suit_of(c) == suit_of(omega):  # its holder would have to
            sc -= FAIL * BIG if c == omega else OMEGA_COLOUR  # follow, perhaps with it
        if c == keep_last:
            sc -= KEEP_LAST
        if keep_trumps and c >= 36:
            sc -= KEEP_RUFF
        if c >= 36 and their_ruffs:
            sc -= OTHER_RUFF
        if mine_open:
            sc += entry_bonus(
                g, me, c, ct, tpred, omega, mine_open, possible, known, others_poss, unseen
            )
        if must_win and c != keeper:
            sc += want[me] * (1.0 - lead_risk(g, c, mine, possible, known, me))
        if shed_high:  # while someone else can still take them
            sc += SHED_HIGH * value_of(c)
        if spend and others_poss & SUIT[suit_of(c)] & BEATS[c] == 0:  # a sure winner
            sc += spent(c)
        if cash and c >= 36 and c != 39 and others_poss & TRUMPS & BEATS[c] == 0:
            sc += CASH_SUB  # a trick it takes anyway: taken now, the other can catch up
        if avoid:
            sc -= forces(g, c, me, avoid, possible, known, unseen, 0) * FORCED
        if counts and suit_of(c) != drawn_suit:  # (the legal cards come suit by suit)
            drawn_suit = suit_of(c)
            drawn = drawn_from(g, drawn_suit, possible, unseen)
        if ds & DS_KEEP:
            sc += deep_sea_keep(S, g, me, c, keeper)
        if c == 39 and dc.deep:
            sc += run_sub4(S, g, me, won)
        if ds & DS_WITH:
            risk = 0.0
            if wins_with(S, g, me, c):
                if others_poss & SUIT[suit_of(c)] & BEATS[c]:
                    risk = lead_risk(g, c, mine, possible, known, me)
            elif clears_for(S, g, me, c, hand, others_poss):
                sc += CLEAR_FOR_WITH
            sc += deep_sea_with(S, g, me, c, me, c, risk)
        if dc.fit_owners >> me & 1 or dc.fit_cards >> c & 1:
            sc += deep_sea_fit(S, g, me, c, me)
        if ds & DS_EQUAL:
            sc += deep_sea_equal(S, g, me, c, me)
        if dc.bad_others & SUIT[suit_of(c)]:
            sc += deep_sea_bad(S, g, me, c, me, c) + deep_sea_bad_lead(S, g, me, c)
        if dc.bad_mine >> c & 1:
            sc += deep_sea_own_bad(S, g, me, c, 1, possible, mine)
        if subs:
            sc += deep_sea_sub(S, g, me, c, me, c)
        if counts and (drawn | np.int64(1) << c) & counts:
            toppers = later_toppers(g, c, possible, unseen)
            risk = 0.0
            if (collectors >> me & 1 or toppers & collectors) and toppers:
                risk = lead_risk(g, c, mine, possible, known, me)
            sc += deep_sea_collect(S, g, me, c, me, risk, drawn, np.int64(0), toppers & collectors)

        if sc > best:
            best, best_c = sc, c
    return best_c
