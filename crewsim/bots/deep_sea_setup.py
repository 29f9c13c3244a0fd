"""Deep Sea's set-up decisions: who takes which task card under the mission's selection rule
(rules 10 and 16: volunteers, passes, a draft that looks ahead for clashes), and the owners'
trick-count predictions."""

import numpy as np

from crewsim.bots import random_crew
from crewsim.bots.collect import sub_wins
from crewsim.bots.hand import strength
from crewsim.bots.random_crew import RANDOM
from crewsim.bots.weights import (
    DS_ACCEPT,
    DS_AVOID_PAR,
    DS_AVOID_POWER,
    DS_SHED_COUNT,
    DS_SUBS_MANY,
    DS_SUBS_MATCH,
    DS_TAKEN_COST,
    DS_TASK_VALUE,
    DS_WIN_CARDS,
    DS_WIN_POWER,
    NO_WAY,
    ONLY_ME,
    PASS_MARGIN,
    PREDICT_FREE_SHARE,
    PREDICT_POWER,
    PREDICT_PUBLIC,
    PREDICT_SECRET,
    TOP_GAIN,
    WITH_COVER,
)
from crewsim.kernel.bits import (
    BEATS,
    COLOURS,
    ONES,
    SUIT,
    TRUMPS,
    count_seat,
    lowest,
    popcount,
    seat_count,
    suit_of,
)
from crewsim.kernel.deep_sea_tables import (
    C_FAMILY,
    C_FIT,
    C_HOLD_ANY,
    C_HOLD_NONE,
    C_NEED,
    C_PREDICT,
    C_SUM_HI,
    C_TARGET,
    C_VALUE,
    C_WITH,
    FAM_AVOID,
    FAM_COUNT,
    FAM_WIN,
    N_COLS,
    contradiction,
    may_take,
)
from crewsim.kernel.jit import compiled, copy_into, inlined
from crewsim.kernel.layout import (
    ALLOC_CAPTAIN_ALL_OR_PASS,
    ALLOC_CAPTAIN_HARDEST_FIRST,
    ALLOC_CAPTAIN_SKIPS,
    ALLOC_FREE_SELECTION,
    ALLOC_ONE_MEMBER,
    ALLOC_VOLUNTEER_1,
    ALLOC_VOLUNTEER_2,
    BP_KIND,
    DEC_ANSWER,
    DEC_PREDICT,
    DEC_SELECT,
    G_CMD,
    G_NDS,
    G_NT,
    G_SEATS,
    MAX_DS,
    MP_FIXED_OWNER,
    MP_NFIXED,
    PR_VALUE,
)
from crewsim.kernel.probe_point import probe_point
from crewsim.kernel.script import YES_NO, begin, end

LOW = np.int64(0x1F) * ONES  # the colours' 1 to 5
HIGH = np.int64(0x7 << 6) * ONES  # the colours' 7 to 9


@compiled
def task_score(tab, row, hand):
    """How much a crew member wants a task card, from its own hand only."""
    fam = tab[row + C_FAMILY]
    sc = -DS_TASK_VALUE * tab[row + C_VALUE]
    hold = tab[row + C_HOLD_ANY]
    held = popcount(hand & hold)
    if (hold != 0 and held == 0) or (hand & tab[row + C_HOLD_NONE]) != 0:
        return sc - NO_WAY  # this hand can never complete it
    if hold != 0 and held == popcount(hold):
        sc += ONLY_ME  # nor can any other hand
    power = strength(hand)
    fit = tab[row + C_FIT]
    if fit and not fit & TRUMPS and (tab[row + C_SUM_HI] == 99 or not fit & LOW):
        power = strength(hand & COLOURS)  # a trick of high colour cards: submarines spoil it
    need = tab[row + C_NEED]
    if fam == FAM_WIN and popcount(need) == 9 and not fit and not tab[row + C_WITH]:
        # at least n cards of one colour: taken with its high cards and submarines, so a hand
        # with more of those than the average hand takes it
        sc += PASS_MARGIN + TOP_GAIN * _over_average(hand, need & HIGH | TRUMPS)
    elif fam == FAM_WIN:
        sc += DS_WIN_POWER * power + DS_WIN_CARDS * popcount(
            hand & (need | tab[row + C_WITH]) & COLOURS
        )
        sc += WITH_COVER * _with_cover(hand, tab[row + C_WITH])
    elif fam == FAM_AVOID:
        sc += DS_AVOID_POWER * (DS_AVOID_PAR - power)
    elif _only_held_count(tab, row):  # exactly n submarines: only a hand able to end on n
        fewest, most = sub_wins(hand & TRUMPS, TRUMPS & ~hand)
        n = tab[row + C_TARGET]
        if not fewest <= n <= most:
            sc -= NO_WAY
        elif n >= 3:  # hardly a hand holds three: waiting for one left the card to the last
            sc += DS_SUBS_MANY  # seat, whatever it held (a third of those deals could be won)
        else:  # best with about as many in hand (not any hand able to: docs/tuning.md)
            sc += DS_SUBS_MATCH - abs(held - n)
    elif fam == FAM_COUNT and popcount(need) >= 9 and tab[row + C_TARGET] >= 2:
        # exactly n (two or more) cards of some colours: each one in hand must be shed into
        # another seat's trick, so a hand with fewer of them than the average hand takes it
        sc += PASS_MARGIN - DS_SHED_COUNT * _over_average(hand, need)
    return sc


@compiled
def _with_cover(hand, with_):
    """For a card won with a given rank: the most cards of its own colour a hand holds above
    one of its cards to win with, over what an average hand holds (the fewer other hands hold
    above it, the sooner it wins); 0 without such a card."""
    best = -99.0
    m = hand & with_
    while m:
        w = lowest(m)
        m &= m - 1
        above = SUIT[suit_of(w)] & BEATS[w] & COLOURS
        best = max(best, _over_average(hand, above))
    return best if best > -99.0 else 0.0


@compiled
def _over_average(hand, cards):
    """How many of ``cards`` this hand holds beyond an average hand of its size: the draft's
    measure of how much better a card suits this hand than the others."""
    return popcount(hand & cards) - popcount(cards) * popcount(hand) / 40.0


@compiled
def clash_table(tab, task, n, clash):
    """``clash[k]`` / ``clash[MAX_DS + k]``: the slots whose card contradicts slot ``k``'s when
    the same seat / another seat owns it, in either reveal order (``clashes``, once per deal
    rather than once per look)."""
    for k in range(n):
        same, diff = np.int64(0), np.int64(0)
        for i in range(n):
            if i == k:
                continue
            if contradiction(tab, task[i], task[k], True) or contradiction(
                tab, task[k], task[i], True
            ):
                same |= np.int64(1) << i
            if contradiction(tab, task[i], task[k], False) or contradiction(
                tab, task[k], task[i], False
            ):
                diff |= np.int64(1) << i
        clash[k], clash[MAX_DS + k] = same, diff


@inlined
def clashes_at(clash, owner, k, seat):
    """``clashes(tab, task, owner, n, task[k], seat, k)`` read from ``clash_table``: whether
    slot ``k``'s card owned by ``seat`` contradicts a card already owned."""
    m = clash[k] | clash[MAX_DS + k]
    while m:
        i = lowest(m)
        m &= m - 1
        o = owner[i]
        if o >= 0 and clash[(0 if o == seat else MAX_DS) + k] >> i & 1:
            return True
    return False


@compiled
def select(S, bp, alloc, hands, st):
    """Give every task card an owner by the mission's selection rule.

    Returns True when the captain passed the tasks on (Deep Sea 10/13)."""
    tab, task, owner, score = S.ds_tab, S.ds_task, S.ds_owner, S.score
    g = S.g
    seats, cap, n = g[G_SEATS], g[G_CMD], g[G_NDS]
    rnd = bp[BP_KIND] == RANDOM  # its choices: ``random_crew``
    fixed = 0  # owners given in advance (crewsim check-tasks --owners), seats from the captain
    for k in range(n):
        owner[k] = -1
        if S.mp[MP_NFIXED] > 0 and S.mp[MP_FIXED_OWNER + k] >= 0:
            owner[k] = (cap + S.mp[MP_FIXED_OWNER + k]) % seats
            fixed += 1
    if fixed == n:
        return False
    if (
        alloc == ALLOC_ONE_MEMBER
        or alloc == ALLOC_CAPTAIN_ALL_OR_PASS
        or alloc == ALLOC_VOLUNTEER_1
    ):
        # one player takes every task
        for s in range(seats):
            score[s] = _all_score(tab, task, n, s, cap, hands[s])
        cap_ok = score[cap] > -1e5  # no captain card among the tasks
        chosen = cap
        if rnd:  # a random member who may take every task
            chosen = random_crew.taker_of_all(seats, cap, cap_ok, st)
        else:  # yes/no answers in turn, each from the member's own hand: 2 (the crew picks
            # one) and 3 (the captain keeps them or passes them on) start at the captain, 4 (a
            # volunteer) at the captain's left with the captain last
            chosen = -1
            first = 1 if alloc == ALLOC_VOLUNTEER_1 else 0
            # nobody says yes: the captain, or if a captain card is among them its left
            fallback = cap if cap_ok else (cap + 1) % seats
            for j in range(first, first + seats):
                s = (cap + j) % seats
                yes = False
                if not begin(S, DEC_ANSWER, s):
                    yes = _all_score(tab, task, n, s, cap, hands[s]) >= -DS_ACCEPT * n
                last = j == first + seats - 1 and s == fallback  # takes them either way
                free = score[s] > -1e5 and not last  # no card it may not take (a captain card)
                if end(S, DEC_ANSWER, s, yes, YES_NO if free else 0):
                    chosen = s
                    break
            if chosen < 0:
                chosen = fallback
        for k in range(n):
            owner[k] = chosen
        return alloc == ALLOC_CAPTAIN_ALL_OR_PASS and chosen != cap
    clash = S.ds_clash
    clash_table(tab, task, n, clash)
    takers = np.int64((1 << seats) - 1)
    if alloc == ALLOC_CAPTAIN_SKIPS:  # the captain skips the selection
        takers &= ~(np.int64(1) << cap)
    if alloc == ALLOC_VOLUNTEER_2:
        # two volunteers, asked clockwise from the captain's left, the captain
        # last; the first two yes split the tasks, and when too few say yes those asked last
        # must (seed: "the first two say no: the third member and the captain take them")
        takers = np.int64(0)
        got = 0
        for j in range(1, seats + 1):
            s = (cap + j) % seats
            yes = False
            if not begin(S, DEC_ANSWER, s):
                sc = 0.0
                for k in range(n):
                    sc += task_score(tab, task[k] * N_COLS, hands[s])
                yes = random_crew.answer(st) if rnd else sc >= -DS_ACCEPT * n
            must = seats - j + 1 <= 2 - got  # too few asked after it: a taker either way
            if end(S, DEC_ANSWER, s, yes, 0 if must else YES_NO) or must:
                takers |= np.int64(1) << s
                got += 1
                if got == 2:
                    break
    left = n - fixed
    turn = cap
    if alloc == ALLOC_CAPTAIN_HARDEST_FIRST:  # the captain takes the hardest task first
        hard = -1
        for k in range(n):
            if may_take(tab, task[k] * N_COLS, cap, cap) and (
                hard < 0 or tab[task[k] * N_COLS + C_VALUE] > tab[task[hard] * N_COLS + C_VALUE]
            ):
                hard = k
        if hard >= 0:
            owner[hard] = cap
            left -= 1
            turn = (cap + 1) % seats
    counts = np.int64(0)  # tasks per seat (seat_count)
    passes = max(popcount(takers) - left, 0) if n < seats else 0
    guard = 0
    while left > 0 and guard < 4 * MAX_DS * 5:
        guard += 1
        s = turn
        if alloc == ALLOC_FREE_SELECTION:
            # free selection: each task in reveal order goes to the first member,
            # from the captain, who says yes (from its own hand and the tasks it already has);
            # if nobody does, to a member with the fewest tasks (the random crew: at random);
            # the heuristic crew gives no member a task that contradicts one it holds
            k = 0
            while owner[k] >= 0:
                k += 1
            row = task[k] * N_COLS
            best_s, fewest, fewest_any = -1, -1, -1
            for j in range(seats):
                q = (cap + j) % seats
                if not (takers >> q & 1) or not may_take(tab, row, q, cap):
                    continue
                if fewest_any < 0 or seat_count(counts, q) < seat_count(counts, fewest_any):
                    fewest_any = q
                if not rnd and clashes_at(clash, owner, k, q):
                    continue
                if fewest < 0 or seat_count(counts, q) < seat_count(counts, fewest):
                    fewest = q
                yes = False
                if not begin(S, DEC_ANSWER, q):
                    if rnd:
                        yes = random_crew.answer(st)
                    else:
                        b = task_score(tab, row, hands[q]) - DS_TAKEN_COST * seat_count(counts, q)
                        yes = b >= PASS_MARGIN - tab[row + C_VALUE]
                if end(S, DEC_ANSWER, q, yes, YES_NO):
                    best_s = q
                    break
            if best_s < 0:
                best_s = fewest if fewest >= 0 else fewest_any
            owner[k] = best_s
            counts = count_seat(counts, best_s)
            left -= 1
            continue
        turn = (turn + 1) % seats
        if not (takers >> s & 1):
            continue
        v, options = np.int64(0), np.int64(0)
        if not begin(S, DEC_SELECT, s):
            v, options = _select_one(S, s, passes, rnd, takers, st)
        v = end(S, DEC_SELECT, s, v, options)
        if v <= 0:  # a pass, or nothing left to take
            if v == 0:
                passes -= 1
            continue
        best_k = v - 1
        owner[best_k] = s
        counts = count_seat(counts, s)
        left -= 1
    return False


@compiled
def _select_one(S, s, passes, rnd, takers, st):
    """Seat ``s``'s turn in the selection: 1 + the task card it takes, 0 to pass (with fewer
    tasks than players, while passes are to spare), -1 when none is left it may take; and the
    mask of those values the search crew may choose among (the cards that clash with no
    card taken, the heuristic's own choice, a pass)."""
    tab, task, owner = S.ds_tab, S.ds_task, S.ds_owner
    g = S.g
    seats, cap, n = g[G_SEATS], g[G_CMD], g[G_NDS]
    hands, clash = S.hands, S.ds_clash
    best_k, best_sc = -1, -1e18
    options = np.int64(1) if passes > 0 else np.int64(0)
    clashing = _clashing(clash, n)  # (most draws: none, and the draft ends clean anyway)
    for k in range(n):
        row = task[k] * N_COLS
        if owner[k] >= 0 or not may_take(tab, row, s, cap):
            continue
        sc = task_score(tab, row, hands[s])
        if rnd:
            sc = random_crew.pick_score(st)
        elif clashes_at(clash, owner, k, s):
            sc -= 1e9  # a bot takes a task that cannot go with the others only if forced
        else:
            options |= np.int64(1) << (k + 1)
            if clashing and not _ends_clean(
                tab, task, owner, n, k, s, seats, takers, cap, hands[s], clash, S.ds_sim
            ):
                sc -= 1e6  # ... or one that leaves a clash for the rest of the draft
        if sc > best_sc:
            best_k, best_sc = k, sc
    if best_k < 0:
        return np.int64(-1), np.int64(0)
    options |= np.int64(1) << (best_k + 1)
    # with fewer tasks than players a member may pass (rule 16); a bot passes on a task
    # that suits its hand worse than an average hand, while passes are still to spare
    value = tab[task[best_k] * N_COLS + C_VALUE]
    if (
        not rnd
        and passes > 0
        and best_sc < PASS_MARGIN - value
        and not (
            passes == 1 and best_sc > -NO_WAY / 2 and _only_held_count(tab, task[best_k] * N_COLS)
        )
    ):  # an exact count of submarines: with one pass left, a hand able to end on it keeps
        return np.int64(0), options  # it rather than leave it to the next, which may hold none
    return best_k + 1, options


@compiled
def _all_score(tab, task, n, s, cap, hand):
    """How well ``hand`` (seat ``s``) suits every task at once; -1e6 a card it may not take."""
    sc = 0.0
    for k in range(n):
        row = task[k] * N_COLS
        if not may_take(tab, row, s, cap):
            sc -= 1e6
        sc += task_score(tab, row, hand)
    return sc


@compiled
def _only_held_count(tab, row):
    """A count that only cards in its owner's hand can make (exactly n submarines)."""
    return tab[row + C_HOLD_ANY] != 0 and tab[row + C_FAMILY] == FAM_COUNT


@inlined
def _clashing(clash, n):
    """Whether any two of the ``n`` cards clash, whoever takes them (``clash_table``)."""
    every = np.int64(0)
    for k in range(n):
        every |= clash[k] | clash[MAX_DS + k]
    return every != 0


@compiled
def _ends_clean(tab, task, owner, n, k, seat, seats, takers, cap, hand, clash, sim):
    """Whether the draft, with task ``k`` to ``seat`` and each later member taking the first
    task that clashes with none it would hold, ends with no pairwise contradiction.  A crew
    looks that far ahead: the member who must take the last card cannot refuse it (ds-32).
    The others' hands are unseen: their picks are judged by the cards' clashes alone, and
    ``seat``'s own by its ``hand``.  (``clash``: ``clash_table``; ``sim``: scratch.)"""
    copy_into(sim, owner)
    sim[k] = seat
    left = 0  # slots without an owner: once none, the turns left change nothing
    for j in range(n):
        left += sim[j] < 0
    s = seat
    for _ in range(n * seats):
        s = s + 1 if s + 1 < seats else 0  # (no division in the loop)
        if left == 0:
            break
        if not takers >> s & 1:  # a member not taking tasks takes none
            continue
        best, best_sc = -1, -1e18
        for j in range(n):
            row = task[j] * N_COLS
            if sim[j] >= 0 or not may_take(tab, row, s, cap):
                continue
            sc = task_score(tab, row, hand) if s == seat else -float(j)
            if clashes_at(clash, sim, j, s):
                sc -= 1e9
            if sc > best_sc:
                best, best_sc = j, sc
        if best >= 0:
            sim[best] = s
            left -= 1
    for i in range(n):
        if sim[i] < 0 or clashes_at(clash, sim, i, sim[i]):
            return sim[i] < 0  # a task nobody may take: no verdict, no penalty
    return True


@compiled
def predict(S, hands):
    """Owners of prediction cards fix their trick count before trick 1, from hand strength,
    plus the tricks that fall to a hand unasked when there are more than 2.5 a seat (2 and 3
    players: 13 tricks), the more for a secret count, which only its owner steers
    (check-tasks at 2 / 3 players: 95 47 / 21 -> 67 / 55 %, 96 79 / 80 -> 84 / 84 %; more at
    4 or 5 players lowered the missions that draw these cards)."""
    tab, task, owner = S.ds_tab, S.ds_task, S.ds_owner
    nt = S.g[G_NT]
    share = nt / S.g[G_SEATS]
    for k in range(S.g[G_NDS]):
        kind = tab[task[k] * N_COLS + C_PREDICT]  # 1 public, 2 secret
        if kind:
            more = max(
                (PREDICT_SECRET if kind == 2 else PREDICT_PUBLIC) * (share - PREDICT_FREE_SHARE),
                0.0,
            )
            probed = probe_point(S, DEC_PREDICT, owner[k], 0)
            guess = np.int64(strength(hands[owner[k]]) * PREDICT_POWER + 0.5 + more)
            S.ds_pred[k] = min(max(guess, 0), nt)
            if probed:
                S.probe[PR_VALUE] = S.ds_pred[k]
