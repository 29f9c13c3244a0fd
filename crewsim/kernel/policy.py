"""Bot crews inside the kernel: draft, designate, distress, communicate and play.

A policy decides for one seat and reads only what that seat may see: its own hand (for the
dummy, also the commander's hand, who decides for it), the public state (played cards, trick,
tasks, won counts) and the public knowledge arrays ``possible`` (cards a seat may still hold,
narrowed by revealed voids and communications) and ``known`` (communicated cards).
"""

import numpy as np
from numba import njit

from crewsim.kernel.bits import (
    BEATS,
    COLOURS,
    FULL,
    ONES,
    SUIT,
    TRUMPS,
    highest,
    lowest,
    popcount,
    rand_below,
    rand_card,
    seat_after,
    suit_of,
    value_of,
)
from crewsim.kernel.collect import collect_value, counted, is_collect
from crewsim.kernel.conditions import CODE_SIZE, K_CARD_WITH_SUB, K_TRICK_EQUAL_COLOURS
from crewsim.kernel.deep_sea_tables import (
    C_BAD,
    C_CMP,
    C_EXACT,
    C_FAMILY,
    C_FIT,
    C_LAST,
    C_NEED,
    C_NEVER_LEAD,
    C_PREDICT,
    C_RUN,
    C_SUM_HI,
    C_SUM_LO,
    C_TARGET,
    C_TRICKS,
    C_WITH,
    CMP_EQUAL_CAPT,
    CMP_FEWER_CAPT,
    CMP_FEWER_EACH,
    CMP_MORE_ALL,
    CMP_MORE_CAPT,
    CMP_MORE_EACH,
    FAM_AVOID,
    FAM_COUNT,
    FAM_WIN,
    N_COLS,
    RUN_EXACTLY,
)
from crewsim.kernel.endgame import endgame_play
from crewsim.kernel.layout import (
    BP_BLIND_YES,
    BP_COMM,
    BP_KIND,
    BP_POOR_SCORE,
    BP_YES_THRESHOLD,
    G_CMD,
    G_DONE,
    G_DUMMY,
    G_FIRST_WINNER,
    G_LEADER,
    G_NDS,
    G_NIN,
    G_NT,
    G_NTASK,
    G_ONES_WINS,
    G_PINK_TARGET,
    G_PLAYED,
    G_SEATS,
    G_T,
    G_TASKMASK,
    G_TRICKMASK,
    G_TRUMP_WINS,
    MP_GAME,
    MP_NOBJ,
    MP_OBJ,
    MP_OMEGA_LAST,
    OMEGA_CODE,
)

BIG = 100.0
# Deep Sea scores a decision computes (``_deep_sea_scores``)
DS_SHED, DS_KEEP, DS_WITH, DS_FIT, DS_COLLECT, DS_SUB, DS_EQUAL, DS_BAD = (1 << k for k in range(8))
OWN_BAD = 40.0  # the owner's own card it may not win, taking a trick a later seat may top
BAD_AHEAD = 20.0  # a card its owner may not win, into a trick that owner is still to play to
BAD_LEAD = 20.0  # leading the colour of a 9 another seat may not win and may hold
NAMED_RISK = 20.0  # leading the colour of a card named for the last trick that another holds
WITH_CLEAR = 10.0  # discarding a card above the one another seat must win a trick with
LEAD_TO = 20.0  # leading so that the seat with a card to win a trick with takes the lead
ENTRY = 20.0  # the owner of that card taking a trick, its card being safe to lead next
FIT_KEEP = 8.0  # playing a card a trick of fitting cards will be short of into another trick
CASH_SUB = 30.0  # leading a submarine nobody tops, for the pair of 'as many as the captain'
FORCED = 50.0  # per seat that must not win the trick and may be forced to top my card
URGENT = 100.0  # a seat that must still win a trick, times the urgency (``_fewer_want``)


@njit(cache=True, forceinline=True)
def task_score(hand: np.int64, tc: np.int64):
    """How well a hand can deliver task card ``tc``: high cards and length in its colour, trumps."""
    s = suit_of(tc)
    mine = hand & SUIT[s]
    trumps = popcount(hand & TRUMPS)
    if hand >> tc & 1:
        higher_mine = popcount(mine & BEATS[tc] & COLOURS)
        return value_of(tc) + 1.5 * higher_mine + 0.5 * trumps
    if mine:
        top = highest(mine)
        if top > tc:
            return 2.0 + value_of(top) + 0.3 * popcount(mine) + 0.5 * trumps
        return 1.0 + 0.3 * value_of(top) + 0.5 * trumps
    return 1.0 + 2.0 * trumps


@njit(cache=True, forceinline=True)
def choose_draft(bp, hand, free_tasks, tcard, st):
    """Index of the task to take from the ``free_tasks`` mask (of task indices)."""
    if bp[BP_KIND] == 0:
        return np.int64(lowest(_nth_index(free_tasks, rand_below(st, popcount(free_tasks)))))
    best, best_i = -1e9, np.int64(-1)
    m = free_tasks
    while m:
        i = lowest(m)
        m &= m - 1
        sc = task_score(hand, tcard[i])
        if sc > best:
            best, best_i = sc, i
    return best_i


@njit(cache=True)
def _nth_index(m: np.int64, k: np.int64):
    """Mask holding only the ``k``-th set bit of ``m``."""
    for _ in range(k):
        m &= m - 1
    return m & -m


@njit(cache=True)
def says_yes(bp, hand, tc):
    """A crew member's yes/no answer to "can you take this task?" (no card is revealed)."""
    return task_score(hand, tc) >= bp[BP_YES_THRESHOLD]


@njit(cache=True)
def says_yes_blind(bp, hand):
    """The answer to "will you take all the tasks?" asked before they are shown (Planet Nine
    20, 27, 37): the task score my hand expects of a task card drawn from all 36."""
    tot = 0.0
    for c in range(36):
        tot += task_score(hand, c)
    return tot >= bp[BP_BLIND_YES] * 36


@njit(cache=True)
def strength(hand: np.int64):
    """Trick-taking power of a hand: trumps, nines and eights."""
    s = 2.0 * popcount(hand & TRUMPS)
    for c in range(4):
        top = hand & SUIT[c]
        if top >> (9 * c + 8) & 1:
            s += 1.0
        if top >> (9 * c + 7) & 1:
            s += 0.5
    return s


@njit(cache=True)
def answers_good(kind: np.int64, hand: np.int64):
    """Answer to the commander when a crew member is to be designated for an objective."""
    if kind == 1:  # win no tricks: a weak hand is "good"
        return popcount(hand & TRUMPS) == 0 and strength(hand) <= 1.0
    if kind == 6:  # exactly one trick, not with a trump
        return strength(hand - (hand & TRUMPS)) >= 1.0
    if kind == 7:  # first and last trick only
        return strength(hand - (hand & TRUMPS)) >= 2.0
    return True


@njit(cache=True)
def distress_poorness(bp, hand, me, towner, tcard, ntask):
    """How many of my tasks I judge poor (would vote for the distress signal)."""
    n = 0
    for i in range(ntask):
        if towner[i] == me and task_score(hand, tcard[i]) < bp[BP_POOR_SCORE]:
            n += 1
    return n


@njit(cache=True)
def distress_vote(hand, me, seats, towner, tcard, ntask):
    """+1 or -1: the direction in which my pass would help a task owner (0 = no opinion)."""
    for d in (1, -1):
        to = (me + d) % seats
        for i in range(ntask):
            if towner[i] == to and hand >> tcard[i] & 1:
                return d
    return 0


@njit(cache=True)
def distress_card(bp, hand, me, to, towner, tcard, ntask, st):
    """The non-trump card to pass to ``to``: its task card, a high card of its task colour, or
    my least useful low card."""
    colours = hand & COLOURS
    if bp[BP_KIND] == 0:
        return rand_card(st, colours)
    for i in range(ntask):
        if towner[i] == to and hand >> tcard[i] & 1:
            return tcard[i]
    my_task_suits = 0
    for i in range(ntask):
        if towner[i] == me:
            my_task_suits |= 1 << suit_of(tcard[i])
    for i in range(ntask):
        if towner[i] == to:
            s = suit_of(tcard[i])
            cand = colours & SUIT[s]
            if cand and not (my_task_suits >> s & 1):
                return highest(cand)
    best, best_c = 1e9, np.int64(-1)
    m = colours
    while m:
        c = lowest(m)
        m &= m - 1
        sc = float(value_of(c))
        if my_task_suits >> suit_of(c) & 1:
            sc += 10.0
        for i in range(ntask):
            if tcard[i] == c:
                sc += 20.0
        if sc < best:
            best, best_c = sc, c
    return best_c


@njit(cache=True, forceinline=True)
def choose_comm(S, bp, g, mp, me, hand, told, ct):
    """The card to communicate now, or -1.  The claim follows from the hand.

    Open task cards (``ct``: owner per card) are Planet Nine tasks and the Deep Sea cards that
    name exact cards; only they make a communication worth a token, and so does the card that
    must come last (Deep Sea 27): the seat after its holder has to lead the final trick.  A
    seat whose task card needs the first trick, or that is named to win it (pn-41, pn-50),
    shows before it a high card that at most one other card tops, so the leader can lead that
    colour to it."""
    if bp[BP_KIND] == 0 or bp[BP_COMM] == 0:
        return -1
    for k in range(mp[MP_NOBJ]):
        a = mp[MP_OBJ + 3 * k + 1]
        if mp[MP_OBJ + 3 * k] == 13 and hand >> a & 1 and not told >> a & 1:
            same = hand & SUIT[suit_of(a)]
            if a == lowest(same) or a == highest(same):
                return a
    first = (1 << FAM_WIN) | (1 << FAM_COUNT)  # a card of mine needing the first trick
    if g[G_T] == 0 and g[G_LEADER] != me and (
        _owns_open(S, g, me, C_TRICKS, first) or _takes_first(mp, S.desig, me)
    ):
        top = _top_card(g, hand)
        if top >= 0:
            return top
    if hand & TRUMPS == 0 and _owns_open(S, g, me, C_LAST, 1 << FAM_COUNT):  # only the last
        return _best_card(hand)
    one = _one_to_show(g, mp, hand)
    if one >= 0:
        return one
    open_cards = g[G_TASKMASK] & ~g[G_PLAYED]
    if open_cards == 0:
        return -1
    best, best_c = 4.5, np.int64(-1)
    for suit in range(4):  # only a colour's lowest and highest card can be claimed
        same = hand & SUIT[suit]
        tasks = open_cards & SUIT[suit]  # task cards of other colours never score here
        if same == 0 or tasks == 0:
            continue
        lo, hi = lowest(same), highest(same)
        sc = _comm_score(me, hand, same, lo, lo == hi, True, tasks, ct)
        if sc > best:
            best, best_c = sc, lo
        if hi != lo:
            sc = _comm_score(me, hand, same, hi, True, False, tasks, ct)
            if sc > best:
                best, best_c = sc, hi
    return best_c


# missions 9 / 26: the fewest cards of a colour whose 1 is worth showing, per card in a hand
# (3 of 8 or 10 cards, 4 of 13: 2 or 4 lost 4-11 pp at 4 / 5 players, 3 of 13 lost 3-6 pp)
ONES_SHOWN = 0.3
ONES_SHED = 20.0  # a discard of the colour of a 1 another seat has shown (5 for another's 1)
ONES_STRIP = 10.0  # leading the colour of a 1 another seat has shown (when short in it)
ONES_STRIP_MAX = 2  # the most cards of that colour I may hold to lead it


@njit(cache=True, forceinline=True)
def _takes_first(mp, desig, me):
    """Am I the member named to win the first trick (pn-41 first and last only, pn-50's first
    tricks)?"""
    return me == desig[0] and (_objective_of(mp, 7) >= 0 or _objective_of(mp, 9) >= 0)


@njit(cache=True, forceinline=True)
def _one_to_show(g, mp, hand):
    """Missions 9 and 26: my 1 of the colour I hold most of (at least ``ONES_SHOWN`` of a hand's
    cards), or -1.  Shown, it tells the crew whose colour to strip and whom to give the lead."""
    k = _objective_of(mp, 2)
    if k < 0 or g[G_ONES_WINS] >= mp[MP_OBJ + 3 * k + 1]:
        return np.int64(-1)
    best, best_c = np.ceil(ONES_SHOWN * g[G_NT]) - 1, np.int64(-1)
    for u in range(4):
        same = hand & SUIT[u]
        if same >> (9 * u) & 1 and popcount(same) > best:
            best, best_c = popcount(same), np.int64(9 * u)
    return best_c


@njit(cache=True, forceinline=True)
def _owns_open(S, g, me, col, families):
    """Does one of my open Deep Sea task cards have bit 0 of column ``col`` set (``C_TRICKS``:
    the first trick; ``C_LAST``: the last) and a family in the ``families`` bits?"""
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        if (
            S.ds_owner[k] == me
            and not S.ds_done[k]
            and S.ds_tab[row + col] & 1
            and families >> S.ds_tab[row + C_FAMILY] & 1
        ):
            return True
    return False


@njit(cache=True, forceinline=True)
def _top_card(g, hand):
    """My highest card of a colour that at most one other card tops, the fewest such cards
    first, then the colour the others hold most of (the least likely to be ruffed); or -1."""
    best, best_c = -1000, np.int64(-1)
    for suit in range(4):
        same = hand & SUIT[suit]
        if same == 0:
            continue
        hi = highest(same)
        rest = SUIT[suit] & ~hand & ~g[G_PLAYED]
        above = popcount(rest & BEATS[hi])
        sc = popcount(rest) - 20 * above
        if above <= 1 and sc > best:
            best, best_c = sc, hi
    return best_c


@njit(cache=True, forceinline=True)
def _comm_score(me, hand, same, c, is_hi, is_lo, tasks, ct):
    """Worth of communicating ``c`` (my highest and/or lowest of its colour) given the open
    task cards ``tasks`` of that colour."""
    sc = 0.0
    while tasks:
        tc = lowest(tasks)
        tasks &= tasks - 1
        o = ct[tc]
        if tc == c and o != me:
            sc = max(sc, 6.0 + (1.0 if popcount(same) == 1 else 0.0))
        elif o != me and is_lo and c > tc and not (hand >> tc & 1):
            sc = max(sc, 5.5)  # warn: all my cards of that colour lie above the task card
        elif o != me and is_lo and c < tc and (same & BEATS[tc] & COLOURS):
            sc = max(sc, 5.1)  # I hold cards above the task card but can duck under it
        elif o == me and is_hi and c > tc:
            if not (hand >> tc & 1):
                sc = max(sc, 5.0 + 0.2 * value_of(c))
        elif tc == c and o == me and popcount(same) > 1:
            sc = max(sc, 5.2)  # tell the crew I hold my own task card and can duck
    return sc


@njit(cache=True, forceinline=True)
def _want(S, g, mp, me, won, desig, ct, want, hand, possible, omega):
    """Fill ``want[s]``: how much the crew wants seat ``s`` to win the current trick."""
    seats, t, nt = g[G_SEATS], g[G_T], g[G_NT]
    for s in range(seats):
        want[s] = 0.0
    m = g[G_TASKMASK] & g[G_TRICKMASK]  # task cards already lying in this trick
    while m:
        c = lowest(m)
        m &= m - 1
        for s in range(seats):
            want[s] += BIG if s == ct[c] else -BIG
    _cash_want(g, me, ct, S.tpred, omega, want, hand, possible)
    if mp[MP_NOBJ] == 0:
        return
    mn, mx = won[0], won[0]
    for s in range(seats):
        mn = min(mn, won[s])
        mx = max(mx, won[s])
    for k in range(mp[MP_NOBJ]):
        kind, a, b = mp[MP_OBJ + 3 * k], mp[MP_OBJ + 3 * k + 1], mp[MP_OBJ + 3 * k + 2]
        d = desig[0]
        if kind == 1:
            want[d] -= BIG
        elif kind == 5:
            for s in range(seats):
                mn_after = mn
                if won[s] == mn:  # s may have been the only one at the minimum
                    cnt = 0
                    for q in range(seats):
                        if won[q] == mn:
                            cnt += 1
                    if cnt == 1:
                        mn_after = mn + 1
                if max(mx, won[s] + 1) - mn_after > a:
                    want[s] -= BIG
                elif won[s] == mn:  # the trick must go to someone behind; the last one most
                    want[s] += 0.6 * BIG if mn_after > mn else 20.0
                want[s] -= 2.0 * (won[s] - mn)
            if b and (t == 0 or t == nt - 1):
                for s in range(seats):
                    want[s] += BIG if s == g[G_CMD] else -BIG
        elif kind == 6:
            if won[d] >= 1:
                want[d] -= BIG
            else:
                want[d] += 5.0 + 10.0 * t / nt
        elif kind == 7:
            must = t == 0 or t == nt - 1
            for s in range(seats):
                if must:
                    want[s] += BIG if s == d else -BIG
                elif s == d:
                    want[s] -= BIG
        elif kind == 10:  # Deep Sea 8/21: wins of rank-a cards stay within b of each other
            rank_cards = ONES << (a - 1)
            inside = popcount(g[G_TRICKMASK] & rank_cards)
            if inside:
                for s in range(seats):  # no seat past the spread; one with the fewest catches up
                    spread, needy = _rank_spread(S, g, rank_cards, s, inside)
                    want[s] += -BIG if spread > b else (30.0 if needy else 0.0)
        elif kind == 2 and g[G_ONES_WINS] < a:
            _ones_want(g, me, hand, possible, want)
        elif kind == 8 and g[G_TRICKMASK] & SUIT[0]:  # a pink lies in the trick: the target
            for s in range(seats):
                want[s] += BIG if s == g[G_PINK_TARGET] else -BIG
        elif kind == 8 and SUIT[0] & ~g[G_PLAYED]:  # a trick the target wins may catch pinks
            want[g[G_PINK_TARGET]] += 15.0
        elif kind == 12 and t > 0:  # Deep Sea 23: the first trick's winner stays ahead
            w0 = g[G_FIRST_WINNER]
            want[w0] += 50.0
            for s in range(seats):
                if s != w0 and won[s] + 1 >= won[w0]:
                    want[s] -= BIG
        elif kind == 13 and t == nt - 2 and not g[G_PLAYED] >> a & 1:  # Deep Sea 27: card a
            h = _holder(hand, possible, me, seats, a)  # comes last in the final trick if the
            if h >= 0:  # seat after its holder leads it, i.e. wins this trick
                for s in range(seats):
                    want[s] += BIG if s == seat_after(h, 1, seats) else -BIG
        elif kind == 9:
            target = desig[0] if t < a else (desig[1] if t >= nt - b else -1)
            for s in range(seats):
                if target >= 0:
                    want[s] += BIG if s == target else -BIG
                elif s == desig[0] or s == desig[1]:
                    want[s] -= BIG


CASH_WANT = 30.0  # the lead for an owner whose own task card has become the top of its colour


@njit(cache=True, forceinline=True)
def _cash_want(g, me, ct, tpred, omega, want, hand, possible):
    """An owner known to hold its own open task card, which no other hand can top in its
    colour, wins it by leading it: the crew wants that owner to get the lead.  The holder is
    found with masks (``_holder`` per card was a tenth of the kernel's time on pn-10)."""
    one, two = np.int64(0), np.int64(0)  # cards that one / two or more other seats may hold
    for q in range(g[G_SEATS]):
        if q != me:
            two |= one & possible[q]
            one |= possible[q]
    m = g[G_TASKMASK] & ~g[G_PLAYED] & ~g[G_TRICKMASK] & (hand | (one & ~two))
    while m:
        tc = lowest(m)
        m &= m - 1
        o = ct[tc]
        if (o == me) != bool(hand >> tc & 1) or o != me and not (possible[o] >> tc & 1):
            continue  # the owner is not known to hold it
        if tc == omega or tpred[ct[40 + tc]] & ~g[G_DONE]:
            continue
        above = SUIT[suit_of(tc)] & BEATS[tc] & ~g[G_PLAYED]
        if o != me and hand & above:
            continue
        if _only_with(possible, me, g[G_SEATS], o, above):
            want[o] += CASH_WANT


@njit(cache=True, forceinline=True)
def _holder(hand, possible, me, seats, c):
    """The seat that holds card ``c`` as far as ``me`` can tell, or -1."""
    if hand >> c & 1:
        return me
    h = -1
    for q in range(seats):
        if q != me and possible[q] >> c & 1:
            if h >= 0:
                return -1
            h = q
    return h


@njit(cache=True, forceinline=True)
def _spare(g, o, held):
    """Cards of seat ``o``'s hand ``held`` it will never play (0 when unknown): the hand of
    14 at three players keeps one back."""
    if held == 0:
        return 0
    played = (o - g[G_LEADER]) % g[G_SEATS] < g[G_NIN]  # in the trick under way
    return max(popcount(held) - (g[G_NT] - g[G_T] - played), 0)


@njit(cache=True)
def _deep_sea_want(S, g, me, won, want, trick, drawn):
    """Add what the open Deep Sea task cards want from the current trick (coarse hints from
    ``deep_sea_tables``; exact-card tasks are handled as task cards already).  A counting card
    weighs the trick with the cards ``drawn`` from the seats still to play (``_drawn``), and
    notes both values in ``S.ds_base`` for ``_deep_sea_collect``.  A secret
    prediction steers only the seat that knows it: its owner (and, at two players, the
    commander, who plays the dummy too)."""
    tab, t, nt = S.ds_tab, g[G_T], g[G_NT]
    inside = g[G_TRICKMASK]
    for k in range(g[G_NDS]):
        if S.ds_done[k]:
            continue
        row = S.ds_task[k] * N_COLS
        o = S.ds_owner[k]
        at = S.ds_task[k] * CODE_SIZE
        if is_collect(S.ds_code[at]):  # a count of won cards: what the trick's cards do to it
            held = S.hands[o] if _knows(g, me, o) else np.int64(0)
            spare = _spare(g, o, held)
            rest = FULL & ~g[G_PLAYED] & ~drawn
            taken, short = collect_value(S.ds_code, at, S.won_cards[o] | inside | drawn, rest,
                                         held, spare)  # fmt: skip
            lost, _ = collect_value(S.ds_code, at, S.won_cards[o], rest, held, spare)
            want[o] += taken - lost if taken != lost else (8.0 if short > 0 else 0.0)
            S.ds_base[2 * k], S.ds_base[2 * k + 1] = lost, taken
            continue
        fam = tab[row + C_FAMILY]
        need, bad = tab[row + C_NEED], tab[row + C_BAD]
        named = tab[row + C_TRICKS] >> t & 1 or (tab[row + C_LAST] and t == nt - 1)
        target = tab[row + C_TARGET]
        if tab[row + C_PREDICT] == 1 or (tab[row + C_PREDICT] == 2 and _knows(g, me, o)):
            target = S.ds_pred[k]
        elif tab[row + C_PREDICT] == 2:
            target = -1  # someone else's secret number: no steering by it
        if inside & bad:
            want[o] -= BIG
        run = tab[row + C_RUN]
        sure = _sub4_left(g) if o == g[G_CMD] else 0  # the captain's sure trick
        if tab[row + C_WITH]:  # taken with one of these cards: nobody tops the owner's
            if g[G_NIN] > 0:
                ws, wc = _current_winner(g, trick)
                if ws == o and tab[row + C_WITH] >> wc & 1:
                    want[o] += BIG if need == 0 or inside & need & ~(np.int64(1) << wc) else 40.0
        elif tab[row + C_FIT]:  # a trick of fitting cards: the owner takes one while it fits
            if _fits(tab, row, inside, g[G_SEATS] - g[G_NIN]):
                want[o] += 40.0 if inside else 10.0
        elif S.ds_code[at] == K_TRICK_EQUAL_COLOURS:  # as many of two colours: the same
            gap = _colour_gap(S.ds_code, at, inside)
            if gap <= g[G_SEATS] - g[G_NIN]:
                want[o] += 40.0 if gap == 0 else 10.0
        elif tab[row + C_CMP] == CMP_FEWER_EACH:
            _fewer_want(o, g[G_CMD], g[G_SEATS], won, want, nt - t, _sub4_left(g))
        elif tab[row + C_CMP]:
            _compare_want(tab[row + C_CMP], o, g[G_CMD], g[G_SEATS], won, want,
                          _capt_lead(g, won, o))  # fmt: skip
        elif run:  # a streak: start one, keep it going, and (exactly n) stop at n
            streak = won[o] if run == RUN_EXACTLY else S.ds_state[4 * k]
            if run == RUN_EXACTLY and won[o] >= target:
                want[o] -= BIG
            elif streak > 0:
                want[o] += BIG if run == RUN_EXACTLY else 40.0 + 20.0 * streak
            elif run != RUN_EXACTLY or me != o or sure_tricks(S.hands[o], g[G_PLAYED]) >= target:
                want[o] += 10.0  # start one (its owner an exact one only with sure winners)
        elif fam == FAM_AVOID:
            if named:  # none of the first n tricks
                want[o] -= BIG
            elif tab[row + C_TRICKS] == 0 and bad == 0 and t > 0 and g[G_LEADER] == o:
                want[o] -= BIG  # never two in a row: the leader won the previous trick
            else:
                want[o] -= 5.0
        elif fam == FAM_COUNT:
            if tab[row + C_TRICKS] or tab[row + C_LAST]:  # only these tricks
                want[o] += BIG if named else -BIG
            elif target >= 0:  # exactly this many tricks
                want[o] += 20.0 if won[o] + sure < target else -BIG
        elif fam == FAM_WIN and not tab[row + C_EXACT]:
            if named:
                want[o] += BIG
            elif tab[row + C_TRICKS] or tab[row + C_LAST]:
                pass  # only the named tricks count: the others are not worth a card
            else:
                want[o] += 8.0


@njit(cache=True, forceinline=True)
def _fewer_want(o, capt, seats, won, want, left, sub4):
    """Fewer tricks than each other seat: the owner loses its tricks and the seats at most one
    ahead of it lean towards taking them; those not yet ahead (submarine 4 counted as the
    captain's trick) the more, the fewer tricks are left to hand them: the urgency is the
    square of the tricks they still need over the tricks left (measured: linear cost 2.5 pp
    at three players), and when it rises the seats already ahead give up their winners."""
    mine = won[o] + (sub4 if o == capt else 0)
    need = 0
    for q in range(seats):
        if q != o:
            need += max(mine + 1 - won[q] - (sub4 if q == capt else 0), 0)
    u = min(need / max(left - sub4, 1), 1.0)
    u = u * u
    want[o] -= 25.0 + 25.0 * u
    for q in range(seats):
        if q != o:
            have = won[q] + (sub4 if q == capt else 0)
            if have <= mine:
                want[q] += 15.0 + 5.0 * (mine - have) + URGENT * u
            elif have == mine + 1:
                want[q] += 10.0
            else:
                want[q] -= 25.0 * u


@njit(cache=True, forceinline=True)
def _compare_want(cmp, o, capt, seats, won, want, lead):
    """A trick count compared with the others': the owner and the seats it is measured
    against lean towards the tricks that keep the comparison reachable.  ``lead``: the
    captain's tricks over the owner's (``_capt_lead``)."""
    if cmp == CMP_MORE_EACH:
        want[o] += 25.0
        for q in range(seats):
            if q != o and won[q] + 1 >= won[o]:
                want[q] -= 15.0
    elif cmp == CMP_MORE_ALL:
        want[o] += 40.0
    elif cmp == CMP_MORE_CAPT:
        want[o] += 20.0
        want[capt] -= 20.0
    elif cmp == CMP_FEWER_CAPT:
        want[o] -= 20.0
        want[capt] += 20.0
    elif lead > 0:  # as many as the captain: the one behind catches up
        want[o] += 25.0
        want[capt] -= 10.0
    elif lead < 0:
        want[capt] += 25.0
        want[o] -= 10.0
    else:  # level: a trick to either of them has to be matched later
        want[o] -= 15.0
        want[capt] -= 15.0


@njit(cache=True)
def _knows(g, me, owner):
    """Whether seat ``me`` decides with ``owner``'s private knowledge: the same seat, or the
    two-player commander and the dummy it plays."""
    if me == owner:
        return True
    d, cmd = g[G_DUMMY], g[G_CMD]
    return d >= 0 and (me == d or me == cmd) and (owner == d or owner == cmd)


@njit(cache=True)
def _deep_sea_shed(S, g, me, c, wseat, won):
    """Owners of "win no X" cards get rid of X while someone else takes the trick, and owners
    who may not win this trick (a trick count reached, or only other tricks allowed) get rid
    of high cards and submarines."""
    sc = 0.0
    if wseat == me:
        return sc
    tab, t, nt = S.ds_tab, g[G_T], g[G_NT]
    high = _spent(c)
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        if S.ds_done[k]:
            continue
        cmp = tab[row + C_CMP]
        if cmp == CMP_EQUAL_CAPT:  # as many as the captain: whoever is not behind sheds
            lead = _capt_lead(g, won, S.ds_owner[k])
            if (me == g[G_CMD] and lead >= 0) or (me == S.ds_owner[k] and lead <= 0):
                sc += high
            continue
        if S.ds_owner[k] != me:  # its owner must out-win the others: they give up winners
            if _feeds(cmp, me, g[G_CMD]) and (cmp == CMP_MORE_CAPT or wseat == S.ds_owner[k]):
                sc += high
            continue
        if cmp == CMP_FEWER_EACH or cmp == CMP_FEWER_CAPT:  # fewer tricks: lose them all
            sc += high
            continue
        if tab[row + C_BAD] >> c & 1:
            sc += 30.0
        at = S.ds_task[k] * CODE_SIZE
        if tab[row + C_FAMILY] == FAM_COUNT and is_collect(S.ds_code[at]):
            # exactly n cards, all of them won: any trick it takes now may bring one too many
            _, short = collect_value(S.ds_code, at, S.won_cards[me], FULL & ~g[G_PLAYED],
                                     S.hands[me], _spare(g, me, S.hands[me]))  # fmt: skip
            if short == 0:
                sc += high
            continue
        run = tab[row + C_RUN] == RUN_EXACTLY
        if (tab[row + C_FAMILY] != FAM_COUNT and not run) or tab[row + C_NEED]:
            continue
        target = S.ds_pred[k] if tab[row + C_PREDICT] else tab[row + C_TARGET]
        only = tab[row + C_TRICKS] | tab[row + C_LAST]
        if only:  # only the named tricks: the others are tricks to lose
            off = not (tab[row + C_TRICKS] >> t & 1 or (tab[row + C_LAST] and t == nt - 1))
        else:
            off = 0 <= target <= won[me]
        if off:
            sc += high
    return sc


@njit(cache=True)
def _needs_trick(S, g, me, won):
    """Whether I own a card that must win exactly n tricks, or only named ones, and still
    need this trick: I take it with a high card or a submarine, one card fewer
    that could force me to win a trick too many later."""
    tab, t, nt = S.ds_tab, g[G_T], g[G_NT]
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        if S.ds_done[k] or S.ds_owner[k] != me or tab[row + C_FAMILY] != FAM_COUNT:
            continue
        if tab[row + C_CMP] or tab[row + C_PREDICT] or tab[row + C_NEED]:
            continue
        if tab[row + C_TRICKS] | tab[row + C_LAST]:
            ok = tab[row + C_TRICKS] >> t & 1 or (tab[row + C_LAST] and t == nt - 1)
        else:
            ok = 0 <= won[me] < tab[row + C_TARGET]
        if ok:
            return True
    return False


@njit(cache=True, forceinline=True)
def _forces(g, w, me, avoid, possible, known, unseen, first):
    """How likely the seats in ``avoid`` (that must not win the trick) are forced above ``w``
    and take it, summed over them (``_forced``): those playing after position ``first`` of
    the trick, or with ``first`` 0 (my lead) every other seat."""
    su = SUIT[suit_of(w)] & unseen
    hi = su & BEATS[w]
    if hi == 0:
        return 0.0
    r = popcount(hi) / popcount(su)
    tot = 0.0
    for k in range(first, g[G_SEATS]):
        q = seat_after(g[G_LEADER], k, g[G_SEATS]) if first else k
        if q != me and avoid >> q & 1:
            tot += _forced(possible[q], known[q], su, hi, r)
    return tot


@njit(cache=True)
def _equal_pair(S, g, me):
    """Whether I am the captain or the owner of an open 'as many tricks as the captain':
    a submarine of mine that nobody tops (but the 4, which everyone counts as the captain's
    trick already) is a trick the other cannot see coming."""
    for k in range(g[G_NDS]):
        if S.ds_done[k] or S.ds_tab[S.ds_task[k] * N_COLS + C_CMP] != CMP_EQUAL_CAPT:
            continue
        if me == g[G_CMD] or me == S.ds_owner[k]:
            return True
    return False


@njit(cache=True)
def _deep_sea_own_bad(S, g, me, c, first, possible, mine):
    """A card its owner may not win ("no 5s") played by that owner to take the trick: lost
    for sure when no seat after position ``first`` may top it; following, else a gamble on a
    rescue by the seats that may (``first`` 1: a lead, only the sure loss counts)."""
    for k in range(g[G_NDS]):
        if S.ds_done[k] or S.ds_owner[k] != me:
            continue
        if not S.ds_tab[S.ds_task[k] * N_COLS + C_BAD] >> c & 1:
            continue
        hi = BEATS[c] & ~mine & ~g[G_PLAYED]
        later = np.int64(0)
        for j in range(first, g[G_SEATS]):
            later |= possible[seat_after(g[G_LEADER], j, g[G_SEATS])]
        top = popcount(hi & later)
        if top == 0:
            return -BIG
        return -OWN_BAD / top if first > 1 else 0.0  # (a lead: only a sure winner)
    return 0.0


@njit(cache=True)
def _deep_sea_bad_lead(S, g, me, c):
    """Leading the colour of the one card of it another seat may not win, when that card tops
    the colour ("no 9s", a 9): the seat may hold it, and holding nothing else of the colour
    it has to win it.  (Not a whole colour, "no green": its owner sheds it by leading it.)"""
    sc = 0.0
    s = SUIT[suit_of(c)]
    played = g[G_PLAYED]
    for k in range(g[G_NDS]):
        o = S.ds_owner[k]
        if S.ds_done[k] or o == me:
            continue
        bad = s & S.ds_tab[S.ds_task[k] * N_COLS + C_BAD]
        if bad == 0 or bad & (bad - 1) or s & BEATS[lowest(bad)]:  # (not a colour, nor a 5)
            continue
        if S.possible[o] & ~played & bad:
            sc -= BAD_LEAD
    return sc


@njit(cache=True)
def _deep_sea_bad(S, g, me, c, wseat, wcard):
    """Cards another seat may not win ("no 5s", "no submarines"): the crew keeps them out of a
    trick that seat takes, and out of one it is still to play to and may have to win: with a
    card of the suit led above the winning one."""
    sc = 0.0
    led = _led_suit(S, g, c)
    for k in range(g[G_NDS]):
        o = S.ds_owner[k]
        if S.ds_done[k] or o == me or not S.ds_tab[S.ds_task[k] * N_COLS + C_BAD] >> c & 1:
            continue
        if wseat == o:
            sc -= BIG
        elif (o - g[G_LEADER] + g[G_SEATS]) % g[G_SEATS] > g[G_NIN] and (
            S.possible[o] & ~g[G_PLAYED] & led & BEATS[wcard]
        ):
            sc -= BAD_AHEAD
    return sc


@njit(cache=True, forceinline=True)
def _sub4_left(g):
    """1 while submarine 4 is unplayed: the captain holds it and takes a trick with it."""
    return 1 - (g[G_PLAYED] >> 39 & 1)


@njit(cache=True, forceinline=True)
def _capt_lead(g, won, o):
    """The captain's tricks over seat ``o``'s, submarine 4's sure trick counted."""
    return won[g[G_CMD]] + _sub4_left(g) - won[o]


@njit(cache=True, forceinline=True)
def _feeds(cmp, me, capt):
    """Whether seat ``me``, not the owner, gives up its winners under a trick count compared
    with its own: every other seat's against "more than each" or "than all the others", the
    captain's against "more than the captain"."""
    return cmp == CMP_MORE_ALL or cmp == CMP_MORE_EACH or (cmp == CMP_MORE_CAPT and me == capt)


@njit(cache=True)
def _deep_sea_scores(S, g, me):
    """Which per-card Deep Sea scores the open task cards call for now (``DS_*`` bits): a
    decision skips the others' loops over the task cards."""
    tab = S.ds_tab
    ds = 0
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        if S.ds_done[k]:
            continue
        mine = S.ds_owner[k] == me
        if tab[row + C_CMP] or (mine and (tab[row + C_BAD] or tab[row + C_FAMILY] == FAM_COUNT
                                          or tab[row + C_RUN] == RUN_EXACTLY)):  # fmt: skip
            ds |= DS_SHED  # (who sheds under a compared trick count: ``_deep_sea_shed``)
        if tab[row + C_LAST]:
            ds |= DS_KEEP
        if tab[row + C_BAD] and not mine:
            ds |= DS_BAD
        if tab[row + C_WITH]:
            ds |= DS_WITH
        if tab[row + C_FIT]:
            ds |= DS_FIT
        at = S.ds_task[k] * CODE_SIZE
        if is_collect(S.ds_code[at]):
            ds |= DS_COLLECT
        elif S.ds_code[at] == K_CARD_WITH_SUB:
            ds |= DS_SUB
        elif S.ds_code[at] == K_TRICK_EQUAL_COLOURS:
            ds |= DS_EQUAL
    return ds


@njit(cache=True)
def _sub_cards(S, g):
    """The open task cards that must be won with a submarine."""
    cards = np.int64(0)
    for k in range(g[G_NDS]):
        at = S.ds_task[k] * CODE_SIZE
        if not S.ds_done[k] and S.ds_code[at] == K_CARD_WITH_SUB:
            cards |= np.int64(1) << S.ds_code[at + 1]
    return cards


@njit(cache=True)
def _deep_sea_sub(S, g, me, c, wseat, wcard):
    """A card to win with a submarine: a trick holding it that its owner takes with a colour
    card fails the task, and the owner empties the card's colour to ruff it."""
    sc = 0.0
    inside = g[G_TRICKMASK] | np.int64(1) << c
    for k in range(g[G_NDS]):
        at = S.ds_task[k] * CODE_SIZE
        if S.ds_done[k] or S.ds_code[at] != K_CARD_WITH_SUB:
            continue
        x, o = S.ds_code[at + 1], S.ds_owner[k]
        if inside >> x & 1 and wseat == o and wcard < 36:
            sc -= 2 * BIG
        elif me == o and c != x and suit_of(c) == suit_of(x) and wseat != o:
            sc += 15.0
    return sc


@njit(cache=True)
def _deep_sea_keep(S, g, me, c, keeper):
    """Before the last trick, for a card that must win it or lie in it: its owner keeps
    ``keeper``, the best card of its own hand (``_best_card``), the others spend submarines
    and high cards, the later the more, and a card named for the last trick stays in its
    hand.  When the owner may win only the last trick, the others do not lead submarines
    while it may hold one (that would draw its keeper), and once it has shown its keeper
    they play the cards above it and keep one below it, for the final lead."""
    t, nt = g[G_T], g[G_NT]
    if t >= nt - 1:
        return 0.0
    sc = 0.0
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        if S.ds_done[k] or not S.ds_tab[row + C_LAST]:
            continue
        if S.ds_tab[row + C_EXACT] and S.ds_tab[row + C_NEED] >> c & 1:
            sc -= 3 * BIG
        if S.ds_tab[row + C_EXACT] and g[G_NIN] == 0:
            sc -= _draws_named(S, g, me, c, S.ds_tab[row + C_NEED])
        o = S.ds_owner[k]
        if o == me:
            if c == keeper:
                sc -= 40.0
            continue
        late = 3.0 if t >= nt - 3 else 1.0
        sc += late * ((6.0 if c >= 36 else 0.0) + 0.3 * value_of(c))
        if S.ds_tab[row + C_FAMILY] != FAM_COUNT:
            continue
        if c >= 36 and g[G_NIN] == 0 and S.possible[o] & TRUMPS & ~S.hands[me] & ~g[G_PLAYED]:
            sc -= 30.0 + late * 6.0  # a submarine lead draws the owner's, kept for the end
        told = S.known[o] & COLOURS & ~g[G_PLAYED]
        if told:  # its card for the last trick
            top, same = highest(told), SUIT[suit_of(c)]
            if suit_of(c) == suit_of(top):  # keep one card under it, to lead or follow
                if c > top:
                    sc += late * 10.0
                elif popcount(S.hands[me] & same & ~BEATS[top]) == 1:
                    sc -= late * 15.0
    return sc


@njit(cache=True, forceinline=True)
def _draws_named(S, g, me, c, named):
    """What leading ``c`` risks for a card named for the last trick that another seat holds:
    it must follow with it if it has no other card of the colour (certainly so once it has
    no other that it may hold)."""
    same = SUIT[suit_of(c)]
    m = named & same & ~S.hands[me] & ~g[G_PLAYED]
    risk = 0.0
    while m:
        x = lowest(m)
        m &= m - 1
        for q in range(g[G_SEATS]):
            if q != me and S.possible[q] >> x & 1:
                other = S.possible[q] & same & ~g[G_PLAYED] & ~S.hands[me] & ~(np.int64(1) << x)
                risk += 2 * BIG if other == 0 else NAMED_RISK
    return risk


@njit(cache=True, forceinline=True)
def sure_tricks(hand, played):
    """How many tricks ``hand`` surely takes on lead: per suit, its cards above every card
    still out."""
    n = 0
    for u in range(5):
        out = SUIT[u] & ~hand & ~played
        m = hand & SUIT[u]
        while m:
            c = highest(m)
            if out & BEATS[c]:
                break
            n += 1
            m &= ~(np.int64(1) << c)
    return n


@njit(cache=True)
def _run_sub4(S, g, me, won):
    """Submarine 4 takes a trick whenever it is played, so the captain who must win exactly
    n tricks in a row spends it on the streak's last trick and not before."""
    sc = 0.0
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        if S.ds_done[k] or S.ds_owner[k] != me or S.ds_tab[row + C_RUN] != RUN_EXACTLY:
            continue
        if won[me] > 0:
            sc += 60.0 if won[me] + 1 == S.ds_tab[row + C_TARGET] else -30.0
    return sc


@njit(cache=True, forceinline=True)
def _best_card(hand):
    """The highest submarine in ``hand``, else its highest-valued colour card."""
    if hand & TRUMPS:
        return highest(hand & TRUMPS)
    best, best_v = np.int64(-1), -1
    m = hand
    while m:
        c = lowest(m)
        m &= m - 1
        if value_of(c) > best_v:
            best, best_v = c, value_of(c)
    return best


@njit(cache=True, forceinline=True)
def _wins_with(S, g, me, c):
    """Whether ``c`` is a card ``me`` must take a trick with (an open card of its own)."""
    for k in range(g[G_NDS]):
        with_ = S.ds_tab[S.ds_task[k] * N_COLS + C_WITH]
        if not S.ds_done[k] and S.ds_owner[k] == me and with_ >> c & 1:
            return True
    return False


@njit(cache=True, forceinline=True)
def _clears_for(S, g, me, c, hand, others_poss):
    """Whether leading ``c`` draws out the others' cards above one of my cards of its colour
    that I must take a trick with: a 2 or a 3 wins only once they are gone, and a card to
    capture that no other card of that colour can be comes only from a seat void in it."""
    same = SUIT[suit_of(c)]
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        with_ = S.ds_tab[row + C_WITH] & hand & same
        if S.ds_done[k] or S.ds_owner[k] != me or with_ == 0 or with_ >> c & 1:
            continue
        w = lowest(with_)
        need = S.ds_tab[row + C_NEED]
        # a card to capture of w's colour must lie under w; the others come from void seats
        low = value_of(w) <= 3 if need == 0 else need & same & others_poss & ~BEATS[w] == 0
        if low and others_poss & same & BEATS[w]:
            return True
    return False


@njit(cache=True)
def _deep_sea_with(S, g, me, c, wseat, wcard, risk):
    """Cards won with a given rank: the owner takes the trick with one (``risk``: that a later
    card tops it), keeps them otherwise and takes the lead once one is safe to lead; the
    others drop a card to capture into it, clear what would top it, and hand it the lead."""
    sc = 0.0
    inside = g[G_TRICKMASK]
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        with_ = S.ds_tab[row + C_WITH]
        if S.ds_done[k] or with_ == 0:
            continue
        need = S.ds_tab[row + C_NEED]
        if S.ds_owner[k] == me and with_ >> c & 1:
            later = need != 0 and _may_drop(S, g, me, c, need)  # a card to capture may come
            if wseat == me and wcard == c and (need == 0 or inside & need or later):
                gain = 50.0 if need == 0 or inside & need else 15.0
                sc += gain * (1.0 - risk) - 20.0 * risk
            else:
                sc -= 10.0
        elif S.ds_owner[k] == me and wseat == me and g[G_NIN] > 0:
            # taking this trick leads the next: worth it once my card to win with is safe
            if _ready(S, g, me, me, with_, g[G_PLAYED] | inside | np.int64(1) << c):
                sc += ENTRY * (1.0 - risk)
        elif wseat == S.ds_owner[k] and with_ >> wcard & 1 and need >> c & 1:
            sc += 50.0
        elif S.ds_owner[k] != me:
            o = S.ds_owner[k]
            if need >> c & 1:
                if _owner_may_take(S, g, o, with_, wcard):
                    sc += 25.0  # the owner plays after me and may take it with its card
                else:
                    sc -= FIT_KEEP  # a card to capture, kept for such a trick
            same = SUIT[suit_of(c)]
            low = S.possible[o] & with_ & same & ~g[G_PLAYED]
            if (
                c >= 36 and g[G_NIN] == 0 and (need != 0 or value_of(lowest(with_)) <= 3)
                and _holds(S, me, o) & with_ & ~TRUMPS & ~g[G_PLAYED]
            ):
                sc += WITH_CLEAR  # a submarine would top any card the owner must win with
            if g[G_NIN] == 0:
                under = with_ & same & BEATS[c]  # the owner's card above my lead
                if _ready(S, g, me, o, under, g[G_PLAYED] | S.hands[me]):
                    sc += LEAD_TO
                elif c < 36 and _ready(S, g, me, o, with_, g[G_PLAYED]):
                    # its card to win with is safe: hand it the lead, by a colour it may top
                    above = same & BEATS[c] & ~g[G_PLAYED] & ~S.hands[me]
                    if above:
                        sc += LEAD_TO * popcount(_holds(S, me, o) & above) / popcount(above)
            if g[G_NIN] > 0 and low and c > lowest(low) and inside & with_ & same == 0:
                # following or discarding: a card above the owner's card to win with is
                # better gone, unless the owner still to play might have won this trick
                if not _to_play(g, o) or inside & same & BEATS[lowest(low)]:
                    sc += WITH_CLEAR
    return sc


@njit(cache=True, forceinline=True)
def _holds(S, me, q):
    """The cards seat ``q`` may hold, as seen by ``me``."""
    return S.hands[me] if q == me else S.possible[q] & ~S.hands[me]


@njit(cache=True)
def _ready(S, g, me, o, with_, out):
    """Whether seat ``o`` may hold a colour card of ``with_`` that no other seat may top
    (``out``: the cards gone): led, it takes the trick."""
    cand = _holds(S, me, o) & with_ & ~TRUMPS & ~out
    while cand:
        w = lowest(cand)
        cand &= cand - 1
        top = SUIT[suit_of(w)] & BEATS[w] & ~out
        for q in range(g[G_SEATS]):
            if q != o and _holds(S, me, q) & top:
                break
        else:
            return True
    return False


@njit(cache=True, forceinline=True)
def _to_play(g, o):
    """Whether seat ``o`` plays in this trick after the card now being chosen."""
    for k in range(g[G_NIN] + 1, g[G_SEATS]):
        if seat_after(g[G_LEADER], k, g[G_SEATS]) == o:
            return True
    return False


@njit(cache=True, forceinline=True)
def _owner_may_take(S, g, o, with_, wcard):
    """Whether seat ``o``, still to play in this trick, may hold a card of ``with_`` of the
    colour led that tops the trick's winning card ``wcard``."""
    if g[G_NIN] == 0 or suit_of(wcard) != suit_of(S.trick[0]) or not _to_play(g, o):
        return False
    return S.possible[o] & with_ & SUIT[suit_of(wcard)] & BEATS[wcard] & ~g[G_PLAYED] != 0


@njit(cache=True, forceinline=True)
def _led_suit(S, g, c):
    """The mask of the suit led in this trick (``c``'s own when I lead it)."""
    return SUIT[suit_of(c if g[G_NIN] == 0 else S.trick[0])]


@njit(cache=True, forceinline=True)
def _may_drop(S, g, me, c, need):
    """Whether a seat still to play after my ``c`` may put one of the ``need`` cards into
    the trick: one of the colour led, or any once it is void in that colour."""
    nin, seats = g[G_NIN], g[G_SEATS]
    led = _led_suit(S, g, c)
    live = FULL & ~g[G_PLAYED] & ~S.hands[me]
    for k in range(nin + 1, seats):
        p = S.possible[seat_after(g[G_LEADER], k, seats)] & live
        if p & need & led or (p & need and p & led == 0):
            return True
    return False


@njit(cache=True)
def _deep_sea_fit(S, g, me, c, wseat):
    """A trick of fitting cards for its owner: while the trick still fits and goes to the
    owner, cards that keep it fitting are worth playing into it, and the others spoil it;
    into any other trick the crew plays the cards such a trick will be short of last."""
    sc = 0.0
    inside = g[G_TRICKMASK]
    after = g[G_SEATS] - g[G_NIN] - 1  # cards still to come after ``c``
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        if S.ds_done[k] or S.ds_tab[row + C_FIT] == 0:
            continue
        if wseat == S.ds_owner[k] and _fits(S.ds_tab, row, inside, after + 1):
            sc += 30.0 if _fits(S.ds_tab, row, inside | np.int64(1) << c, after) else -30.0
        elif _scarce(S.ds_tab, row, c, g[G_SEATS]):
            sc -= FIT_KEEP
    return sc


@njit(cache=True, forceinline=True)
def _colour_gap(code, at, cards):
    """The cards a trick holding ``cards`` still lacks to hold as many of one colour as of
    the other (and at least the least number of each) for an equal-colours card."""
    na, nb, least = popcount(cards & code[at + 1]), popcount(cards & code[at + 2]), code[at + 3]
    return abs(na - nb) + 2 * max(least - max(na, nb), 0)


@njit(cache=True)
def _deep_sea_equal(S, g, me, c, wseat):
    """As many cards of two colours in one trick its owner wins: cards that make the owner's
    trick even are worth playing into it, and those that leave it out of reach spoil it;
    into any other trick the crew plays cards of those colours last."""
    sc = 0.0
    inside = g[G_TRICKMASK] | np.int64(1) << c
    after = g[G_SEATS] - g[G_NIN] - 1  # cards still to come after ``c``
    for k in range(g[G_NDS]):
        at = S.ds_task[k] * CODE_SIZE
        if S.ds_done[k] or S.ds_code[at] != K_TRICK_EQUAL_COLOURS:
            continue
        if wseat == S.ds_owner[k]:
            gap = _colour_gap(S.ds_code, at, inside)
            sc += 30.0 if gap == 0 else (0.0 if gap <= after else -30.0)
        elif (S.ds_code[at + 1] | S.ds_code[at + 2]) >> c & 1:
            sc -= FIT_KEEP
    return sc


@njit(cache=True, forceinline=True)
def _scarce(tab, row, c, seats):
    """Whether ``c`` is a card the owner's trick of fitting cards will be short of: any
    fitting card, or for a sum only a low (or high) bound limits, the low (high) ones: up to
    two above (from two below) the average value a card of the trick may have."""
    if not tab[row + C_FIT] >> c & 1:
        return False
    lo, hi = tab[row + C_SUM_LO], tab[row + C_SUM_HI]
    v = value_of(c)
    if hi == 0:
        return True
    if lo == 0:
        return v * seats <= hi + 2 * seats
    if hi == 99:
        return v * seats >= lo - 2 * seats
    return False


@njit(cache=True)
def _collect_scope(S, g):
    """(cards, owners) of the open counting cards: a card outside the first changes none of
    them, and the chance that a trick slips away matters only for a trick going to an owner."""
    cards, owners = np.int64(0), 0
    for k in range(g[G_NDS]):
        at = S.ds_task[k] * CODE_SIZE
        if not S.ds_done[k] and is_collect(S.ds_code[at]):
            cards |= counted(S.ds_code, at)
            owners |= 1 << S.ds_owner[k]
    return cards, owners


@njit(cache=True)
def _deep_sea_collect(S, g, me, c, wseat, risk, drawn, base, toppers):
    """What ``c`` does to the counting cards (``collect``) if the trick goes to ``wseat``
    (``risk``: that a later card takes it elsewhere), against ``base``, the trick as already
    weighed in ``want`` (its values in ``S.ds_base``), with the cards ``drawn`` from the seats
    still to play.  ``toppers``: the owners still to play that may be forced above the winning
    card; they share the risk among themselves only (leaving out the other seats that may top
    it measured better: 10 % against 3 % on card 46 at 4 players)."""
    sc = 0.0
    bit = np.int64(1) << c
    live = FULL & ~g[G_PLAYED]  # c still in my hand
    inside = g[G_TRICKMASK] | bit | drawn
    for k in range(g[G_NDS]):
        at = S.ds_task[k] * CODE_SIZE
        if S.ds_done[k] or not is_collect(S.ds_code[at]) or not inside & ~base & counted(
            S.ds_code, at
        ):
            continue  # (a card it does not count changes nothing)
        o = S.ds_owner[k]
        mine = S.won_cards[o]
        held = S.hands[o] if _knows(g, me, o) else np.int64(0)
        spare = _spare(g, o, held)
        kept = S.ds_base[2 * k]
        lost, _ = collect_value(S.ds_code, at, mine, live & ~inside, held & ~bit, spare)
        p = 1.0 - risk if wseat == o else 0.0  # the chance the owner takes the trick
        if toppers >> o & 1:
            p = risk / popcount(toppers)
        if p > 0.0:
            taken, _ = collect_value(S.ds_code, at, mine | inside, live & ~inside, held & ~bit,
                                     spare)  # fmt: skip
            sc += p * (taken - S.ds_base[2 * k + 1]) + (1.0 - p) * (lost - kept)
        else:
            sc += lost - kept
    return sc


@njit(cache=True, forceinline=True)
def _toppers(g, w, possible, unseen):
    """The seats still to play that may hold a card of ``w``'s suit above it."""
    tops = 0
    for k in range(g[G_NIN] + 1, g[G_SEATS]):
        q = seat_after(g[G_LEADER], k, g[G_SEATS])
        if possible[q] & unseen & SUIT[suit_of(w)] & BEATS[w]:
            tops |= 1 << q
    return tops


@njit(cache=True, forceinline=True)
def _drawn(g, led, possible, unseen):
    """One card of suit ``led`` for each seat still to play that may hold one."""
    drawn = np.int64(0)
    for k in range(g[G_NIN] + 1, g[G_SEATS]):
        m = possible[seat_after(g[G_LEADER], k, g[G_SEATS])] & SUIT[led] & unseen & ~drawn
        if m:
            drawn |= np.int64(1) << lowest(m)
    return drawn


@njit(cache=True, forceinline=True)
def _fits(tab, row, cards, more):
    """Whether a trick holding ``cards``, with ``more`` cards still to come, can still fit."""
    if cards & ~tab[row + C_FIT]:
        return False
    hi = tab[row + C_SUM_HI]
    if hi == 0:
        return True
    total = 0
    m = cards
    while m:
        total += value_of(lowest(m))
        m &= m - 1
    return total + more <= hi and total + 9 * more >= tab[row + C_SUM_LO]


@njit(cache=True)
def _lead_bans(S, g, mp, seat, me):
    """The cards ``seat`` may not open a trick with: Deep Sea 12's objective's suits and the
    colours of its "I will not open a trick with ..." task cards (only ``me`` knows when mine
    is settled early: the judge settles it once its owner holds none of those colours)."""
    m = np.int64(0)
    for k in range(mp[MP_NOBJ]):
        if mp[MP_OBJ + 3 * k] == 11:
            bits = mp[MP_OBJ + 3 * k + 1]
            for u in range(5):
                if (bits >> u) & 1:
                    m |= SUIT[u]
    for k in range(g[G_NDS]):
        if S.ds_owner[k] == seat and not (seat == me and S.ds_done[k]):
            m |= S.ds_tab[S.ds_task[k] * N_COLS + C_NEVER_LEAD]
    return m


@njit(cache=True)
def _banned_follow(g, me, c, hand, winner, bans, wbans, possible, unseen):
    """Following with cards that may not lead (``bans``: mine, ``wbans``: the winner's): such
    a card leaves a hand only as a discard, so shed one whenever void; whoever takes the trick
    must still hold a card it may lead, and a seat with more banned cards than others left
    had better not take it.  ``hand``: my own cards (the dummy's, not its commander's);
    ``unseen``: the cards I do not hold and nobody played."""
    if g[G_T] == g[G_NT] - 1:
        return 0.0
    sc = 20.0 if bans >> c & 1 else 0.0
    if winner == me:
        rest = hand & ~(np.int64(1) << c)
        safe = popcount(rest & ~bans)
        if safe == 0:
            return sc - 2 * BIG
        sc += 4.0 * (safe - popcount(rest & bans))
    elif possible[winner] & unseen & ~wbans == 0:
        sc -= 2 * BIG
    return sc


@njit(cache=True)
def _banned_lead(S, g, mp, me, c, hand, bans, possible, unseen):
    """Leading when some cards may not lead (``bans``: mine): never one of those; open a
    colour that seats still holding their banned cards lack (they shed them on it) or that I
    empty (to shed mine later); with my last card I may lead, go low: taking the trick would
    strand me.  ``hand`` and ``unseen`` as for ``_banned_follow``."""
    if bans >> c & 1:
        return -2 * BIG
    if g[G_T] == g[G_NT] - 1:
        return 0.0
    su = SUIT[suit_of(c)]
    sc = 0.0
    for q in range(g[G_SEATS]):
        if q != me and possible[q] & unseen & su == 0:
            if possible[q] & unseen & _lead_bans(S, g, mp, q, me):
                sc += 15.0
    rest = hand & ~(np.int64(1) << c)
    if hand & bans and rest & su == 0 and rest & ~bans:
        sc += 10.0
    if rest & ~bans == 0:
        sc -= 40.0 + 8.0 * value_of(c)
    return sc


@njit(cache=True, forceinline=True)
def _objective_score(g, mp, me, c, winner, wcard, desig, risk, hand, shown):
    """Special objectives' view of card ``c`` going to ``winner`` with ``wcard`` on top
    (``risk``: that a seat still to play takes the trick over; ``shown``: cards the others
    have shown and still hold)."""
    sc = 0.0
    for k in range(mp[MP_NOBJ]):
        kind, a = mp[MP_OBJ + 3 * k], mp[MP_OBJ + 3 * k + 1]
        if kind == 2:
            wins = g[G_ONES_WINS]
            if wcard < 36 and value_of(wcard) == 1:
                sc += 60.0
                wins += 1
            if c < 36 and wins < a:
                if value_of(c) > 1:
                    sc += _ones_length(g, hand, c, shown)
                elif c != wcard:
                    sc -= 40.0  # a 1 that does not win the trick is lost for good
        elif kind == 1 and me == desig[0]:
            sc += _spent(c)  # shed what could win later
        elif kind == 3 and c >= 36:
            if wcard != c or a and value_of(c) != g[G_TRUMP_WINS] + 1:
                sc -= 2 * BIG
            else:
                sc += 40.0
        elif kind == 13 and c == a and (g[G_T] < g[G_NT] - 1 or g[G_NIN] < g[G_SEATS] - 1):
            sc -= 2 * BIG
        elif kind == 12 and g[G_T] > 0 and me != g[G_FIRST_WINNER]:  # Deep Sea 23: the others
            sc += 0.4 * value_of(c) + (3.0 if c >= 36 else 0.0)  # shed what could win later
        elif kind == 13 and hand >> a & 1 and g[G_T] >= g[G_NT] - 4:  # its holder must lose
            sc += 0.6 * value_of(c) + (6.0 if c >= 36 else 0.0)  # the second-to-last trick
        elif kind == 4:
            if wcard < 36 and value_of(wcard) == a:
                sc -= 2 * BIG
            elif c < 36 and value_of(c) == a:
                sc += 30.0  # a card of the forbidden rank gone without winning: one less danger
        elif kind == 8 and c < 9:
            if _keeps_last_pink(g, hand, c):
                sc -= BIG
            elif winner != g[G_PINK_TARGET]:
                sc -= 2 * BIG
            else:  # pinks go to the target while it surely wins
                sc += 25.0 + 4.0 * value_of(c)
                if not g[G_TRICKMASK] & SUIT[0]:  # the first pink in: the target must keep it
                    sc -= 2 * BIG * risk
        elif (kind == 6 or kind == 7) and a and wcard >= 36 and winner == desig[0]:
            sc -= 2 * BIG
    return sc


@njit(cache=True, forceinline=True)
def _names_member(mp):
    """Whether an objective names crew members who must win given tricks and no others
    (missions 5, 33, 41 and 50): seats to keep from being forced to take a trick."""
    for k in range(mp[MP_NOBJ]):
        kind = mp[MP_OBJ + 3 * k]
        if kind == 1 or kind == 6 or kind == 7 or kind == 9:
            return True
    return False


@njit(cache=True)
def _objective_of(mp, kind):
    """The index of the mission's objective of ``kind``, or -1."""
    for k in range(mp[MP_NOBJ]):
        if mp[MP_OBJ + 3 * k] == kind:
            return k
    return -1


@njit(cache=True)
def _rank_spread(S, g, rank, s, n):
    """(the spread of rank-card wins if seat ``s`` took ``n`` more, whether ``s`` has fewest)."""
    lo, hi, least = np.int64(99), np.int64(0), np.int64(99)
    for q in range(g[G_SEATS]):
        k = popcount(S.won_cards[q] & rank)
        least = min(least, k)
        if q == s:
            k += n
        lo = min(lo, k)
        hi = max(hi, k)
    return hi - lo, popcount(S.won_cards[s] & rank) == least


@njit(cache=True)
def _rank_follow(S, g, mp, k, me, c, wseat, risk):
    """Playing rank card ``c`` into a trick ``wseat`` would take: never past the allowed
    spread; best to a seat with the fewest such wins, which must catch up anyway, unless a
    seat still to play (``risk``: that one overtakes) has no room for it."""
    a, b = mp[MP_OBJ + 3 * k + 1], mp[MP_OBJ + 3 * k + 2]
    if c >= 36 or value_of(c) != a:
        return 0.0
    rank = ONES << (a - 1)
    n = popcount(g[G_TRICKMASK] & rank) + 1
    spread, needy = _rank_spread(S, g, rank, wseat, n)
    if spread > b:
        return -2 * BIG
    sc = (25.0 if needy else 0.0) + (10.0 if wseat != me else 0.0)
    if risk > 0.0:
        for j in range(g[G_NIN] + 1, g[G_SEATS]):
            if _rank_spread(S, g, rank, seat_after(g[G_LEADER], j, g[G_SEATS]), n)[0] > b:
                return sc * (1.0 - risk) - 2 * BIG * risk
    return sc


@njit(cache=True)
def _rank_lead(S, g, mp, k, me, c, mine, possible, top, short):
    """Leading colour card ``c`` under the rank balance: a ``top`` card takes its colour's rank
    card if that is forced out (likely when the colour is ``short`` in the other hands), a rank
    card led goes to whoever tops it; either must not stretch the spread."""
    a, b = mp[MP_OBJ + 3 * k + 1], mp[MP_OBJ + 3 * k + 2]
    rank = ONES << (a - 1)
    s = suit_of(c)
    if value_of(c) == a:
        if top:
            spread, needy = _rank_spread(S, g, rank, me, 1)
            return -BIG if spread > b else (30.0 if needy else 0.0)
        for q in range(g[G_SEATS]):  # someone tops it: each seat that may must have room
            if q != me and possible[q] & ~g[G_PLAYED] & SUIT[s] & BEATS[c]:
                if _rank_spread(S, g, rank, q, 1)[0] > b:
                    return -40.0
        return 10.0
    r = 9 * s + a - 1  # the colour's rank card, out in another hand
    if (mine | g[G_PLAYED]) >> r & 1:
        return 0.0
    penalty = 30.0 if short else 8.0
    if SUIT[s] & BEATS[r] & ~g[G_PLAYED] == 0:  # the top one left: its holder takes it
        for q in range(g[G_SEATS]):
            if q != me and possible[q] >> r & 1 and _rank_spread(S, g, rank, q, 1)[0] > b:
                return -penalty
        return 0.0
    if top and _rank_spread(S, g, rank, me, 1)[0] > b:  # dropped under my top card
        return -penalty
    return 0.0


@njit(cache=True, forceinline=True)
def _card_score(
    g, mp, me, c, winner, wcard, want, ct, tpred, desig, risk, others_open, mine_open, hand,
    shown,
):
    """Value of playing card ``c`` when the trick would then go to ``winner`` with ``wcard``.

    ``others_open``: open task cards of other owners that I do not hold; ``mine_open``: open
    task cards I own but do not hold."""
    sc = want[winner]
    done = g[G_DONE]
    if g[G_TASKMASK] >> c & 1:
        if ct[c] == winner:  # a risk weighs less as the chances to place the card run out
            late = 1.0  # (measured: helps with 2, 4 and 5 players, costs a little with 3,
            if (  # and a very little in Deep Sea)
                ct[c] != me and mp[MP_GAME] == 0 and (g[G_SEATS] >= 4 or g[G_DUMMY] >= 0)
            ):
                late -= 0.75 * g[G_T] / g[G_NT]
            sc += BIG * (1.0 - risk) - 2 * BIG * risk * late
            if tpred[ct[40 + c]] & ~done:  # would break the order
                sc -= 2 * BIG
        else:
            sc -= 2 * BIG
    if mp[MP_NOBJ]:
        sc += _objective_score(g, mp, me, c, winner, wcard, desig, risk, hand, shown)
    # card economy: keep high cards and trumps; shed cards above other owners' open task
    # cards (keep the ones below to duck with later); keep cards above my own open ones
    sc -= 0.15 * value_of(c) + (2.0 if c >= 36 else 0.0)
    below = (np.int64(1) << c) - 1
    same = SUIT[suit_of(c)]
    sc += 4.0 * (popcount(others_open & same & below) - popcount(others_open & same & ~below))
    sc -= 3.0 * popcount(mine_open & same & below)
    return sc


@njit(cache=True, forceinline=True)
def choose_play(
    S, bp, mp, g, me, hand, legal, viewer_hand, trick, won, desig, possible, known, ct, tpred,
    want, st,
):  # fmt: skip
    """The card to play now: the heuristic's, checked in the endgame (``kernel.endgame``)."""
    c = _heuristic_play(S, bp, mp, g, me, hand, legal, viewer_hand, trick, won, desig, possible,
                        known, ct, tpred, want, st)  # fmt: skip
    if bp[BP_KIND] == 0 or c < 0:
        return c
    return endgame_play(S, bp, mp, g, me, hand, viewer_hand, legal, trick, won, possible, c)


@njit(cache=True, forceinline=True)
def _heuristic_play(
    S, bp, mp, g, me, hand, legal, viewer_hand, trick, won, desig, possible, known, ct, tpred,
    want, st,
):  # fmt: skip
    """The heuristic's card."""
    if bp[BP_KIND] == 0:
        return rand_card(st, legal)
    if legal & (legal - 1) == 0:  # a forced card needs no thought
        return lowest(legal)
    # the last trick with a card to keep back (the 14th, the dummy's): a task card kept is
    # never done
    if g[G_T] == g[G_NT] - 1 and legal & g[G_TASKMASK]:
        return lowest(legal & g[G_TASKMASK])
    if me == g[G_DUMMY]:
        legal = _uncover_in_time(S, g, hand, viewer_hand, legal, known)
        if legal & (legal - 1) == 0:
            return lowest(legal)
    seats = g[G_SEATS]
    nin = g[G_NIN]
    mine = hand | viewer_hand
    played = g[G_PLAYED]
    unseen = FULL & ~mine & ~played
    unheld = FULL & ~hand & ~played  # as ``unseen``, the commander's cards kept for the dummy
    bans = _lead_bans(S, g, mp, me, me)
    omega = _omega_early(S, g, mp)
    _want(S, g, mp, me, won, desig, ct, want, hand, possible, omega)
    ds = 0
    drawn = np.int64(0)
    if mp[MP_GAME] == 1:
        ds = _deep_sea_scores(S, g, me)
        if ds & DS_COLLECT and nin > 0:
            drawn = _drawn(g, suit_of(trick[0]), possible, unseen)
        _deep_sea_want(S, g, me, won, want, trick, drawn)
    keeper = _best_card(hand) if ds & DS_KEEP else np.int64(-1)
    cash = ds & DS_SHED != 0 and _equal_pair(S, g, me)
    spend = ds & DS_SHED != 0 and _needs_trick(S, g, me, won)
    counts, collectors = _collect_scope(S, g) if ds & DS_COLLECT else (np.int64(0), 0)
    subs = _sub_cards(S, g) if ds & DS_SUB else np.int64(0)
    drawn_suit = -1
    open_cards = g[G_TASKMASK] & ~played
    my_tasks = np.int64(0)
    with_owner = np.int64(0)  # open task cards known (communicated) to sit with their owners
    m = open_cards
    while m:
        c = lowest(m)
        m &= m - 1
        if ct[c] == me:
            my_tasks |= np.int64(1) << c
        if known[ct[c]] >> c & 1:
            with_owner |= np.int64(1) << c
    others_open = open_cards & ~mine & ~my_tasks
    mine_open = my_tasks & ~mine
    # others' task cards in my hand, with long hands (2-3 players): the low cards of their
    # colour, kept, duck under them later (shorter hands do better to get void and discard them)
    carried = open_cards & hand & ~my_tasks if seats <= 3 else np.int64(0)
    # my trumps are the only way to win these: spending one on a trick without my task card
    # leaves a task card I cannot take (in the last trick a card kept back is lost anyway).
    # Three or more (Deep Sea's four 9s) are won rather by leading trumps their holders may
    # discard them onto: keeping them lost card 32 at 4 players 50 -> 39 %
    n_ruffs, colour = _ruffs_needed(hand, mine_open)
    keep_trumps = g[G_T] < g[G_NT] - 1 and popcount(hand & TRUMPS) <= n_ruffs <= 2
    void_in = colour if hand & TRUMPS else np.int64(0)  # its colour: my discards go there
    keep_last = _omega_keeper(ct, me, hand, omega)
    shed_trumps = _sheds_trumps(g, mp, me, desig, ct, omega)
    shed_high = _sheds_high(mp, me, desig, won)
    rk = _objective_of(mp, 10)  # Deep Sea 8/21: wins of one rank kept balanced
    rank_cards = ONES << (mp[MP_OBJ + 3 * rk + 1] - 1) if rk >= 0 else np.int64(0)
    best, best_c = -1e18, np.int64(-1)
    shown = np.int64(0)  # cards the others have shown and still hold (rare: checks gated on it)
    for q in range(seats):
        if q != me:
            shown |= known[q]
    avoid = 0  # the seats that must not win this trick
    first_last = _objective_of(mp, 7) >= 0
    if mp[MP_GAME] == 1 or _names_member(mp):
        for q in range(seats):
            if q != me and want[q] <= -0.5 * BIG:
                avoid |= 1 << q
            elif first_last and want[q] >= 0.5 * BIG:  # pn-41's member must take the first
                avoid = 0  # (or last) trick: the others play to it, forced above my card or not
                break
    if nin == 0:
        others_poss = np.int64(0)
        tot, hot = 0.0, False
        for q in range(seats):
            if q != me:
                others_poss |= possible[q]
                tot += want[q]
                hot = hot or want[q] >= 0.5 * BIG
        others_poss &= unseen
        avg_other = 0.5 * tot / max(seats - 1, 1)
        # a Deep Sea trick I want (a named trick, a streak, a count to reach) and no sure
        # winner: lead the likeliest one, not the card kept for the last trick
        must_win = mp[MP_GAME] == 1 and want[me] >= 0.2 * BIG
        m = legal
        while m and must_win:
            c = lowest(m)
            m &= m - 1
            must_win = others_poss & SUIT[suit_of(c)] & BEATS[c] != 0
        # trumps threaten a low task card held by its owner: I hold one of mine, or every open
        # task card is known (communicated) to sit with its owner
        guard = my_tasks & mine != 0 or open_cards != 0 and open_cards & ~with_owner == 0
        # (where no 9 may win a trick, a trump lead is the safe one)
        their_ruffs = _objective_of(mp, 4) < 0 and _their_ruffs(g, me, ct, possible, unseen)
        m = legal  # every legal card is scored: cutting equal cards cost more than it saved
        while m:
            c = lowest(m)
            m &= m - 1
            sc = _lead_score(S, g, mp, me, c, mine, want, possible, known, ct, tpred, others_poss,
                             avg_other, hot, guard, desig[0], subs, shown)  # fmt: skip
            if bans:
                sc += _banned_lead(S, g, mp, me, c, hand, bans, possible, unheld)
            if shown & g[G_TASKMASK] & SUIT[suit_of(c)] and _sure_loss(
                g, me, c, ct, possible, known, unseen, shown
            ):
                sc -= 2 * BIG
            if omega >= 0 and suit_of(c) == suit_of(omega):  # its holder would have to
                sc -= 2 * BIG if c == omega else 30.0  # follow, perhaps with it
            if c == keep_last:
                sc -= 40.0
            if keep_trumps and c >= 36:
                sc -= KEEP_RUFF
            if c >= 36 and their_ruffs:
                sc -= OTHER_RUFF
            if mine_open:
                sc += _entry_bonus(g, me, c, ct, tpred, omega, mine_open, possible, known,
                                   others_poss, unseen)
            if must_win and c != keeper:
                sc += want[me] * (1.0 - _lead_risk(g, c, mine, possible, known, me))
            if shed_high:  # while someone else can still take them
                sc += 0.6 * value_of(c)
            if spend and others_poss & SUIT[suit_of(c)] & BEATS[c] == 0:  # a sure winner
                sc += _spent(c)
            if cash and c >= 36 and c != 39 and others_poss & TRUMPS & BEATS[c] == 0:
                sc += CASH_SUB  # a trick it takes anyway: taken now, the other can catch up
            if avoid:
                sc -= _forces(g, c, me, avoid, possible, known, unseen, 0) * FORCED
            if ds & DS_KEEP:
                sc += _deep_sea_keep(S, g, me, c, keeper)
            if c == 39 and mp[MP_GAME] == 1:
                sc += _run_sub4(S, g, me, won)
            if ds & DS_WITH:
                risk = 0.0
                if _wins_with(S, g, me, c):
                    if others_poss & SUIT[suit_of(c)] & BEATS[c]:
                        risk = _lead_risk(g, c, mine, possible, known, me)
                elif _clears_for(S, g, me, c, hand, others_poss):
                    sc += 12.0
                sc += _deep_sea_with(S, g, me, c, me, c, risk)
            if ds & DS_FIT:
                sc += _deep_sea_fit(S, g, me, c, me)
            if ds & DS_EQUAL:
                sc += _deep_sea_equal(S, g, me, c, me)
            if ds & DS_BAD:
                sc += _deep_sea_bad(S, g, me, c, me, c) + _deep_sea_bad_lead(S, g, me, c)
            if ds & DS_SHED:
                sc += _deep_sea_own_bad(S, g, me, c, 1, possible, mine)
            if subs:
                sc += _deep_sea_sub(S, g, me, c, me, c)
            if counts:
                if suit_of(c) != drawn_suit:  # (the legal cards come suit by suit)
                    drawn_suit = suit_of(c)
                    drawn = _drawn(g, drawn_suit, possible, unseen)
                if (drawn | np.int64(1) << c) & counts:
                    toppers = _toppers(g, c, possible, unseen)
                    risk = 0.0
                    if (collectors >> me & 1 or toppers & collectors) and toppers:
                        risk = _lead_risk(g, c, mine, possible, known, me)
                    sc += _deep_sea_collect(S, g, me, c, me, risk, drawn, np.int64(0),
                                            toppers & collectors)  # fmt: skip
            if sc > best:
                best, best_c = sc, c
        return best_c
    led = suit_of(trick[0])
    # winning while a later player may still drop my task card into this trick is worth it
    m = open_cards & ~mine & SUIT[led]
    while m:
        tc = lowest(m)
        m &= m - 1
        for k in range(nin + 1, seats):
            q = seat_after(g[G_LEADER], k, seats)
            if _shown_only(known[q], possible[q], SUIT[led], unseen, tc):  # it must come
                for s in range(seats):
                    want[s] += BIG if s == ct[tc] else -BIG
                break
            if possible[q] >> tc & 1:
                want[ct[tc]] += 25.0
                break
    cur_seat, cur_card = _current_winner(g, trick)
    cur_risk = -1.0  # computed when first needed
    cur_forced = -1.0  # (as is ``_forces`` for the current winning card)
    cur_bans = _lead_bans(S, g, mp, cur_seat, me)
    pink_to = _pink_target(g, mp)
    takers = _safe_tops(g, led, want, possible, known, unseen) if shown & SUIT[led] else 0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        wseat, wcard, risk = cur_seat, cur_card, 0.0
        beats = _beats(c, cur_card)
        if beats:
            wseat, wcard = me, c
        sure = False  # a seat still to play surely takes the trick from an unwanted winner
        if takers and want[wseat] < 0 and suit_of(wcard) == led:
            q, kc = _sure_taker(g, wcard, led, known, takers)
            if q >= 0:
                wseat, wcard, sure = q, kc, True
        # the overtake risk only counts when the crew wants this winner or c is its task card
        # (or the pink the target must take, or a card of the rank to keep balanced)
        if not sure and nin + 1 < seats and (
            want[wseat] > 0 or (ct[c] == wseat and g[G_TASKMASK] >> c & 1)
            or c < 9 and wseat == pink_to or rank_cards >> c & 1
        ):
            if beats:
                risk = _overtake_risk(g, wcard, led, mine, possible, known, nin + 1)
            else:
                if cur_risk < 0:
                    cur_risk = _overtake_risk(g, cur_card, led, mine, possible, known, nin + 1)
                risk = cur_risk
        sc = _card_score(g, mp, me, c, wseat, wcard, want, ct, tpred, desig, risk, others_open,
                         mine_open, hand, shown)  # fmt: skip
        if want[wseat] > 0:
            sc -= risk * want[wseat]
        if c == omega:
            sc -= 2 * BIG
        elif c == keep_last:
            sc -= 40.0
        elif shed_trumps and c >= 36:
            sc += 8.0
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
                forced = _forces(g, wcard, me, avoid, possible, known, unseen, nin + 1)
            else:  # the same for every card that does not take the lead
                if cur_forced < 0:
                    cur_forced = _forces(g, cur_card, me, avoid, possible, known, unseen, nin + 1)
                forced = cur_forced
            sc -= forced * FORCED
        if shed_high:
            sc += _spent(c)
        if bans or cur_bans:
            wbans = bans if wseat == me else cur_bans
            sc += _banned_follow(g, me, c, hand, wseat, bans, wbans, possible, unheld)
        if rk >= 0:
            sc += _rank_follow(S, g, mp, rk, me, c, wseat, risk)
        if spend and wseat == me:
            sc += _spent(c)
        if ds & DS_SHED:
            sc += _deep_sea_shed(S, g, me, c, wseat, won)
            if wseat == me:
                sc += _deep_sea_own_bad(S, g, me, c, nin + 1, possible, mine)
        if ds & DS_KEEP:
            sc += _deep_sea_keep(S, g, me, c, keeper)
        if c == 39 and mp[MP_GAME] == 1:
            sc += _run_sub4(S, g, me, won)
        if ds & DS_WITH:
            if beats and risk == 0.0 and nin + 1 < seats and _wins_with(S, g, me, c):
                risk = _overtake_risk(g, c, led, mine, possible, known, nin + 1)
            sc += _deep_sea_with(S, g, me, c, wseat, wcard, risk)
        if ds & DS_FIT:
            sc += _deep_sea_fit(S, g, me, c, wseat)
        if ds & DS_EQUAL:
            sc += _deep_sea_equal(S, g, me, c, wseat)
        if ds & DS_BAD:
            sc += _deep_sea_bad(S, g, me, c, wseat, wcard)
        if subs:
            sc += _deep_sea_sub(S, g, me, c, wseat, wcard)
        if counts >> c & 1:
            toppers = _toppers(g, wcard, possible, unseen) if suit_of(wcard) == led else 0
            if (collectors >> wseat & 1 or toppers & collectors) and toppers and risk == 0.0:
                risk = _overtake_risk(g, wcard, led, mine, possible, known, nin + 1)
            sc += _deep_sea_collect(S, g, me, c, wseat, risk, drawn, g[G_TRICKMASK] | drawn,
                                    toppers & collectors)  # fmt: skip
        if sc > best:
            best, best_c = sc, c
    return best_c


@njit(cache=True, forceinline=True)
def _sure_loss(g, me, c, ct, possible, known, unseen, shown):
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
            if q != me and _shown_only(known[q], possible[q], suit, unseen, tc):
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


@njit(cache=True, forceinline=True)
def _shown_only(kn, poss, suit, unseen, tc):
    """Whether a seat has shown task card ``tc`` as its only card of ``suit`` (communicated,
    or the rest of the colour gone): it must follow with it."""
    return kn >> tc & 1 == 1 and poss & suit & unseen == np.int64(1) << tc


@njit(cache=True, forceinline=True)
def _safe_tops(g, led, want, possible, known, unseen):
    """The shown cards a seat still to play takes the trick with: the highest card of the
    colour led shown by a seat the crew wants to take it, when no other seat still to play
    may top it (nor ruff it, being void in the colour)."""
    seats, tops = g[G_SEATS], np.int64(0)
    for k in range(g[G_NIN] + 1, seats):
        q = seat_after(g[G_LEADER], k, seats)
        if want[q] < 0.5 * BIG or known[q] & SUIT[led] == 0:
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


@njit(cache=True, forceinline=True)
def _sure_taker(g, wcard, led, known, tops):
    """The first seat still to play holding one of ``tops`` (``_safe_tops``) above ``wcard``:
    it takes the trick.  The seat and that card, or -1s."""
    seats = g[G_SEATS]
    for k in range(g[G_NIN] + 1, seats):
        q = seat_after(g[G_LEADER], k, seats)
        if known[q] & SUIT[led]:
            kc = highest(known[q] & SUIT[led])
            if tops >> kc & 1 and BEATS[wcard] >> kc & 1:
                return q, kc
    return -1, np.int64(-1)


@njit(cache=True, forceinline=True)
def _uncover_in_time(S, g, hand, commander_hand, legal, known):
    """The two-player dummy keeps one card back: a face-down card still covered in the last
    trick is never played, and an open task card nobody has seen may lie there.  So once the
    covered stacks need every trick left but the last, the dummy plays a covering card."""
    covers = np.int64(0)
    m = hand
    while m:
        c = lowest(m)
        m &= m - 1
        if S.under[c] >= 0:  # (whether a card covers another is public; which one is not)
            covers |= np.int64(1) << c
    if legal & covers == 0 or popcount(covers) < g[G_NT] - g[G_T] - 1:
        return legal
    hidden = g[G_TASKMASK] & ~g[G_PLAYED] & ~hand & ~commander_hand
    for q in range(g[G_SEATS]):
        hidden &= ~known[q]
    return legal & covers if hidden else legal


PULL_FIRST = 50.0  # times the risk: my task card led while my top card of its colour could pull
STRIP = 5.0  # a discard of a card above another owner's task card known in its own hand
GUARD = 6.0  # a discard of a card under another owner's task card I hold (2-3 players)
VOID_SHED = 5.0  # discarding a card of the colour I must be void in to ruff my task card
OTHER_RUFF = 15.0  # leading trumps while another owner may need its own to ruff with
KEEP_RUFF = 40.0  # a trump spent that my task card, held elsewhere and unbeatable, needs
ENTRY_GAIN = 40.0  # leading a sure winner when the holder of my task card may be void in it


@njit(cache=True, forceinline=True)
def _ruffs_needed(hand, mine_open):
    """My open task cards held by others that no card of mine tops in their colour: each
    needs a trump of mine (once void in the colour) unless its holder discards it.  (How
    many, and the colour cards of mine to be rid of.)"""
    n = 0
    shed = np.int64(0)
    m = mine_open & ~TRUMPS
    while m:
        tc = lowest(m)
        m &= m - 1
        if hand & SUIT[suit_of(tc)] & BEATS[tc] == 0:
            n += 1
            shed |= hand & SUIT[suit_of(tc)]
    return n, shed


@njit(cache=True, forceinline=True)
def _their_ruffs(g, me, ct, possible, unseen):
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


@njit(cache=True, forceinline=True)
def _entry_bonus(g, me, c, ct, tpred, omega, mine_open, possible, known, others_poss, unseen):
    """Leading ``c``, a sure winner of another colour than my open task cards held by others:
    a holder void in it can discard my task card onto the trick.  Worth the chance that the
    holder is void (known void: certain), more as the tricks run out."""
    s = suit_of(c)
    if others_poss & SUIT[s] & BEATS[c]:
        return 0.0
    if c < 36 and others_poss & TRUMPS:
        ruff = 0.5
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


@njit(cache=True, forceinline=True)
def _spent(c):
    """What playing high card ``c`` now is worth to a hand that sheds its winners (a submarine
    a little more)."""
    return 0.6 * value_of(c) + (4.0 if c >= 36 else 0.0)


@njit(cache=True, forceinline=True)
def _omega_early(S, g, mp):
    """Mission 48: the card of the omega task, which falls too early before the last trick;
    -1 in the last trick or without that rule."""
    if mp[MP_OMEGA_LAST] and g[G_T] < g[G_NT] - 1:
        for i in range(g[G_NTASK]):
            if S.ttok[i] == OMEGA_CODE:
                return S.tcard[i]
    return -1


@njit(cache=True, forceinline=True)
def _omega_keeper(ct, me, hand, omega):
    """Mission 48: the card the omega task's owner keeps to take the last trick with (its top
    trump, else its top card above the task card), or -1."""
    if omega < 0 or ct[omega] != me or hand >> omega & 1:
        return -1
    if hand & TRUMPS:
        return highest(hand & TRUMPS)
    above = hand & SUIT[suit_of(omega)] & BEATS[omega]
    return highest(above) if above else -1


@njit(cache=True, forceinline=True)
def _sheds_high(mp, me, desig, won):
    """Whether I am the chosen member who must win exactly one trick (pn-33) and have won
    it: every high card left could win another."""
    for k in range(mp[MP_NOBJ]):
        if mp[MP_OBJ + 3 * k] == 6 and me == desig[0] and won[me] >= 1:
            return True
    return False


@njit(cache=True, forceinline=True)
def _sheds_trumps(g, mp, me, desig, ct, omega):
    """Whether my trumps should go before the last trick, where one could beat the seat that
    must take it: the omega task's owner (pn-48), the chosen member who may not win it with a
    rocket (pn-41)."""
    if omega >= 0:
        return ct[omega] != me
    if g[G_NT] - 4 <= g[G_T] < g[G_NT] - 1:  # (earlier they keep the lead away from it)
        for k in range(mp[MP_NOBJ]):
            if mp[MP_OBJ + 3 * k] == 7 and mp[MP_OBJ + 3 * k + 1] and me != desig[0]:
                return True
    return False


@njit(cache=True, forceinline=True)
def _ones_want(g, me, hand, possible, want):
    """Missions 9 and 26: the holder of a 1 whose colour the others no longer hold should get
    the lead (public knowledge only: my own 1, or a 1 whose holder is shown or given away by
    the play, no other hand I can tell may hold its colour)."""
    played = g[G_PLAYED]
    for u in range(4):
        one = np.int64(1) << (9 * u)
        if played & one:
            continue
        rest = SUIT[u] & ~one & ~played
        if hand & one:
            if rest & ~hand == 0:
                want[me] += 40.0
        elif rest & hand == 0:
            h = _holder(hand, possible, me, g[G_SEATS], 9 * u)
            if h >= 0 and _only_with(possible, me, g[G_SEATS], h, rest):
                want[h] += 40.0


@njit(cache=True, forceinline=True)
def _only_with(possible, me, seats, h, cards):
    """Can none of ``cards`` sit with a seat other than ``h`` and me, as far as I can tell?"""
    for q in range(seats):
        if q != me and q != h and possible[q] & cards:
            return False
    return True


@njit(cache=True, forceinline=True)
def _ones_length(g, hand, c, shown):
    """Missions 9 and 26 (colour 1s must win): a 1 wins only once the others are void in its colour,
    so I shed the colour of another seat's 1 (first a shown one's), and keep the length guarding
    my own."""
    one = 9 * suit_of(c)
    if hand >> one & 1:
        return -5.0
    if g[G_PLAYED] >> one & 1:
        return 0.0
    return (ONES_SHED if shown >> one & 1 else 5.0) + 2.0 * value_of(c)


@njit(cache=True, forceinline=True)
def _keeps_last_pink(g, hand, c):
    """Mission 46 with three players: the seat dealt 14 cards never plays one, and a pink
    kept to the end need not be won, so it keeps its last pink ``c`` as that card."""
    spare = popcount(hand) > g[G_NT] - g[G_T]
    return spare and hand & SUIT[0] == np.int64(1) << c


@njit(cache=True, forceinline=True)
def _pink_target(g, mp):
    """The seat that must win every pink (mission 46), or -1."""
    for k in range(mp[MP_NOBJ]):
        if mp[MP_OBJ + 3 * k] == 8:
            return g[G_PINK_TARGET]
    return -1


@njit(cache=True, forceinline=True)
def _beats(c, w):
    return BEATS[w] >> c & 1 == 1


@njit(cache=True, forceinline=True)
def _current_winner(g, trick):
    w = trick[0]
    wi = 0
    for k in range(1, g[G_NIN]):
        if _beats(trick[k], w):
            w = trick[k]
            wi = k
    return seat_after(g[G_LEADER], wi, g[G_SEATS]), w


@njit(cache=True, forceinline=True)
def _overtake_risk(g, wcard, led, mine, possible, known, first):
    """Chance-like score that a seat playing after position ``first`` ends up beating ``wcard``.

    Co-operative players never overtake on purpose, but a follower whose cards of the led suit
    all lie above ``wcard`` must.  Public knowledge: unseen cards above and below ``wcard``."""
    if suit_of(wcard) != led:
        return 0.0
    unseen = SUIT[led] & ~mine & ~g[G_PLAYED]
    hi = unseen & BEATS[wcard]
    if hi == 0:
        return 0.0
    r = popcount(hi) / popcount(unseen)
    safe = 1.0
    for k in range(first, g[G_SEATS]):
        q = seat_after(g[G_LEADER], k, g[G_SEATS])
        safe *= 1.0 - _forced(possible[q], known[q], unseen, hi, r)
    return 1.0 - safe


@njit(cache=True, forceinline=True)
def _forced(poss, kn, unseen, hi, r):
    """Chance that a follower who may hold ``poss`` must overtake: all its cards of the suit
    lie in ``hi``.  Singletons are common, so a mix of r (one card) and r**2 (two cards)."""
    mine_suit = poss & unseen
    if mine_suit & hi == 0 or kn & unseen & ~hi:  # cannot overtake, or shown a card to duck
        return 0.0
    if mine_suit & ~hi == 0:
        return 0.9
    return 0.35 * r + 0.65 * r * r


@njit(cache=True, forceinline=True)
def _lead_score(S, g, mp, me, c, mine, want, possible, known, ct, tpred, others_poss, avg_other,
                hot, guard, d0, subs, shown):  # fmt: skip
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
            sc += 1.0
    else:
        route = _route(g, c, me, mine, possible, known, want) if hot else -1e18
        sc += 0.5 * (route + avg_other) if route >= 0.5 * BIG else avg_other
    m = g[G_TASKMASK] & ~played & SUIT[s]
    while m:
        tc = lowest(m)
        m &= m - 1
        o = ct[tc]
        blocked = (tpred[ct[40 + tc]] & ~done) != 0
        if tc == c:
            if o == me:
                if blocked:
                    sc -= 2 * BIG
                else:
                    risk = 0.0 if top else _lead_risk(g, c, mine, possible, known, me)
                    urgency = 0.0 if top else 30.0 * g[G_T] / g[G_NT]
                    sc += BIG * (1.0 - risk) - 0.5 * BIG * risk + urgency
                    hi = highest(S.hands[me] & SUIT[s])
                    if risk > 0 and g[G_DUMMY] < 0 and others_poss & SUIT[s] & BEATS[hi] == 0:
                        sc -= PULL_FIRST * risk  # my top card of the colour pulls theirs first
            elif subs >> c & 1:  # only a ruff wins it: its owner void in the colour, with subs
                void = possible[o] & SUIT[s] == 0 and possible[o] & TRUMPS != 0
                sc += 0.5 * BIG if void and not blocked else -1.5 * BIG
            else:
                # lead another's task card only if its owner surely beats it
                sure = _over_known(g, c, o, me, mine, possible, known) == 0 and not blocked
                # an owner known void in the colour who may hold trumps can ruff a high card
                ruff = (
                    not blocked
                    and value_of(c) >= 8
                    and possible[o] & SUIT[s] == 0
                    and possible[o] & TRUMPS != 0
                )
                sc += 0.8 * BIG if sure else (0.5 * BIG if ruff else -1.5 * BIG)
        elif o == me and subs >> tc & 1:
            sc -= 30.0  # my card to ruff: I empty its colour instead of leading into it
        elif o == me and not (mine >> tc & 1):
            if top and c > tc and not blocked:
                sc += 0.7 * BIG
            elif c > tc and not blocked:  # not the top card: someone may be forced above it
                risk = _lead_risk(g, c, mine, possible, known, me)
                sc += 0.7 * BIG * (1.0 - risk) - 0.25 * BIG * risk
            elif c < tc:
                sc -= 5.0
        elif o == me and mine >> tc & 1:
            sc += 8.0  # pull the colour out of the other hands before leading my task card
        elif mine >> tc & 1:
            sc -= 30.0  # I would have to keep it; leading its colour risks losing it
        else:
            sc -= 12.0 if c < tc else 4.0
    out = popcount(SUIT[s] & ~mine & ~played) if mp[MP_NOBJ] else 0  # in the other hands
    short = out < 2 * (g[G_SEATS] - 1)  # under 2 a seat: a lone 1 or 9 of it may be forced out
    for k in range(mp[MP_NOBJ]):
        kind, a = mp[MP_OBJ + 3 * k], mp[MP_OBJ + 3 * k + 1]
        if kind == 2 and g[G_ONES_WINS] < a and c < 36:
            if value_of(c) == 1:  # a led 1 wins only when the others cannot follow
                sc += 60.0 if others_poss & SUIT[s] == 0 else -40.0
            elif mine >> (9 * s) & 1:  # strip the colour of my 1 from the other hands, if my
                guards = popcount(mine & SUIT[s]) - 2  # other cards of it outlast theirs
                sc += 8.0 if (guards + 1) * (g[G_SEATS] - 1) >= out else -10.0
            elif shown >> (9 * s) & 1:  # its holder has the length
                # to follow above it: strip the colour, unless I am as long (each lead costs
                # the holder a guard, and I would outlast them)
                sc += ONES_STRIP if popcount(mine & SUIT[s]) <= ONES_STRIP_MAX else -ONES_STRIP
            elif not played >> (9 * s) & 1 and short:
                sc -= 15.0  # another seat's 1 of this colour, likely short, would have to follow
        elif kind == 13 and c == a and g[G_T] < g[G_NT] - 1:
            sc -= 2 * BIG
        elif kind == 12 and g[G_T] > 0 and me == g[G_FIRST_WINNER] and not top:
            sc -= 40.0 * _lead_risk(g, c, mine, possible, known, me)  # stay ahead: lead high
        elif kind == 10 and c < 36:
            sc += _rank_lead(S, g, mp, k, me, c, mine, possible, top, short)
        elif kind == 13 and suit_of(c) == suit_of(a) and not (played | mine) >> a & 1:
            sc -= 30.0 if short else 8.0  # its holder may have to follow with it
        elif kind == 1 and me == d0:
            sc += 0.6 * value_of(c)  # shed high cards while someone else can still take them
        elif kind == 3 and c >= 36:
            others = TRUMPS & ~mine & ~played
            sc += -2 * BIG if others else 40.0
            if a and value_of(c) != g[G_TRUMP_WINS] + 1:
                sc -= 2 * BIG
        elif kind == 4 and c < 36:
            if value_of(c) == a:
                sc -= 30.0
            else:  # another seat's card of the rank, the top one left and alone in its
                r = 9 * s + a - 1  # colour, would have to win
                top_r = SUIT[s] & BEATS[r] & ~played == 0
                if top_r and not (mine | played) >> r & 1:
                    sc -= 30.0 if short else 8.0
        elif kind == 8 and c < 9:
            sc += 20.0 if me == g[G_PINK_TARGET] and top else -20.0
    if c >= 36:  # keep trumps, unless they guard my own low task card against ruffs
        sc += 2.0 if guard else -3.0
    sc -= 0.15 * value_of(c)
    return sc


@njit(cache=True, forceinline=True)
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
            over = _over_known(g, c, q, me, mine, possible, known) if w > 0 else -1
            if over == 0:
                w *= 1.5
            elif over == 1:
                w *= 1.2
            best = max(best, w)
    return best


@njit(cache=True, forceinline=True)
def _lead_risk(g, c, mine, possible, known, me):
    """Overtake risk when I lead ``c``: every other seat plays after me."""
    unseen = SUIT[suit_of(c)] & ~mine & ~g[G_PLAYED]
    hi = unseen & BEATS[c]
    if hi == 0:
        return 0.0
    r = popcount(hi) / popcount(unseen)
    safe = 1.0
    for q in range(g[G_SEATS]):
        if q != me:
            safe *= 1.0 - _forced(possible[q], known[q], unseen, hi, r)
    return 1.0 - safe


@njit(cache=True, forceinline=True)
def _over_known(g, c, o, me, mine, possible, known):
    """How many cards the other seats may hold above seat ``o``'s highest known card of
    ``c``'s suit, or -1 when ``o`` has shown no card above ``c``."""
    s = suit_of(c)
    k_mask = known[o] & SUIT[s] & BEATS[c]
    if k_mask == 0:
        return -1
    above = SUIT[s] & BEATS[highest(k_mask)] & ~mine & ~g[G_PLAYED]
    others = np.int64(0)
    for q in range(g[G_SEATS]):
        if q != o and q != me:
            others |= possible[q]
    return popcount(above & others)
