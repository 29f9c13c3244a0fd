"""Planet Nine's set-up decisions: the draft, the yes/no answers, the commander's allocation
and designations, the hand-over at five players, and the distress signal."""

import numpy as np

from crewsim.bots import random_crew
from crewsim.bots.hand import strength, sure_tricks, task_score
from crewsim.bots.random_crew import RANDOM
from crewsim.bots.weights import (
    DESIG_LAST_SURE,
    DESIG_SURE_TRICK,
    FIRST_LAST_POWER,
    HANDOVER_MARGIN,
    ONE_TRICK_POWER,
    PASS_TASK_CARD,
    PASS_TASK_COLOUR,
    WEAK_HAND,
)
from crewsim.kernel.bits import (
    COLOURS,
    SUIT,
    TRUMPS,
    count_seat,
    highest,
    lowest,
    popcount,
    seat_count,
    suit_of,
    value_of,
)
from crewsim.kernel.jit import compiled, inlined
from crewsim.kernel.layout import (
    ALLOC_DISTRIBUTE,
    ALLOC_DRAFT,
    BP_BLIND_YES,
    BP_DISTRESS_THRESHOLD,
    BP_HANDOVER_GAIN,
    BP_KIND,
    BP_POOR_SCORE,
    BP_SEARCH_DISTRESS,
    BP_YES_THRESHOLD,
    DEC_ANSWER,
    DEC_BLIND_YES,
    DEC_DRAFT,
    DEC_PASS,
    DEC_YES,
    DISTRESS_AUTO,
    G_CMD,
    G_DUMMY,
    G_NTASK,
    G_SEATS,
    G_SILENCED,
    G_SU_GROUP,
    G_SU_J,
    MP_ALLOC,
    MP_DISTRESS,
    MP_NOBJ,
    MP_OBJ,
    MP_SILENCED,
    OBJ_FIRST_LAST,
    OBJ_NO_TRICKS,
    OBJ_ONE_TRICK,
    OBJ_ROLES,
)
from crewsim.kernel.script import UNPROBED, YES_NO, begin, end


@inlined
def choose_draft(bp, hand, free_tasks, tcard, st):
    """Index of the task to take from the ``free_tasks`` mask (of task indices)."""
    if bp[BP_KIND] == RANDOM:
        return random_crew.draft(free_tasks, st)
    best, best_i = -1e9, np.int64(-1)
    m = free_tasks
    while m:
        i = lowest(m)
        m &= m - 1
        sc = task_score(hand, tcard[i])
        if sc > best:
            best, best_i = sc, i
    return best_i


@compiled
def says_yes(bp, hand, tc):
    """A crew member's yes/no answer to "can you take this task?" (no card is revealed)."""
    return task_score(hand, tc) >= bp[BP_YES_THRESHOLD]


@compiled
def says_yes_blind(bp, hand):
    """The answer to "will you take all the tasks?" asked before they are shown (Planet Nine
    20, 27, 37): the task score my hand expects of a task card drawn from all 36."""
    tot = 0.0
    for c in range(36):
        tot += task_score(hand, c)
    return tot >= bp[BP_BLIND_YES] * 36


@compiled
def answers_good(kind: np.int64, hand: np.int64):
    """Answer to the commander when a crew member is to be designated for an objective."""
    if kind == OBJ_NO_TRICKS:  # win no tricks: a weak hand is "good"
        return popcount(hand & TRUMPS) == 0 and strength(hand) <= WEAK_HAND
    if kind == OBJ_ONE_TRICK:  # exactly one trick, not with a trump
        return strength(hand - (hand & TRUMPS)) >= ONE_TRICK_POWER
    if kind == OBJ_FIRST_LAST:  # first and last trick only
        return strength(hand - (hand & TRUMPS)) >= FIRST_LAST_POWER
    return True


@compiled
def distress_poorness(bp, hand, me, towner, tcard, ntask):
    """How many of my tasks I judge poor (would vote for the distress signal)."""
    n = 0
    for i in range(ntask):
        if towner[i] == me and task_score(hand, tcard[i]) < bp[BP_POOR_SCORE]:
            n += 1
    return n


@compiled
def distress_vote(hand, me, seats, towner, tcard, ntask):
    """+1 or -1: the direction in which my pass would help a task owner (0 = no opinion)."""
    for d in (1, -1):
        to = (me + d) % seats
        for i in range(ntask):
            if towner[i] == to and hand >> tcard[i] & 1:
                return d
    return 0


@compiled
def distress_card(bp, hand, me, to, towner, tcard, ntask, st):
    """The non-trump card to pass to ``to``: its task card, a high card of its task colour, or
    my least useful low card."""
    if bp[BP_KIND] == RANDOM:
        return random_crew.pass_card(hand, st)
    colours = hand & COLOURS
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
            sc += PASS_TASK_COLOUR
        for i in range(ntask):
            if tcard[i] == c:
                sc += PASS_TASK_CARD
        if sc < best:
            best, best_c = sc, c
    return best_c


@inlined
def allocate(S, mp, bp, g, hands, tcard, towner, pick, st):
    """Give every task an owner by the mission's allocation rule; ``pick`` keeps the order."""
    seats, cmd, n = g[G_SEATS], g[G_CMD], g[G_NTASK]
    alloc = mp[MP_ALLOC]
    if alloc == ALLOC_DRAFT:  # draft: commander first, then clockwise
        free = (np.int64(1) << n) - 1
        for k in range(n):
            s = (cmd + k) % seats
            i = -1
            if not begin(S, DEC_DRAFT, s):
                i = choose_draft(bp, hands[s], free, tcard, st)
            i = end(S, DEC_DRAFT, s, i, free)
            towner[i] = s
            pick[k] = i
            free &= ~(np.int64(1) << i)
    elif alloc == ALLOC_DISTRIBUTE:
        # the commander distributes, asking yes/no per task, evenly (BGA):
        # every seat ends with n // seats or one more, so a seat at the floor may take one
        # more only while fewer than n % seats seats are above it
        q, r = n // seats, n % seats
        counts = np.int64(0)  # tasks per seat (seat_count)
        for i in range(n):
            above = 0
            for s in range(seats):
                if seat_count(counts, s) > q:
                    above += 1
            chosen, fewest = -1, -1
            for k in range(seats):
                s = (cmd + k) % seats
                c = seat_count(counts, s)
                if c > q or (c == q and above >= r):
                    continue
                if fewest < 0 or c < seat_count(counts, fewest):
                    fewest = s
                yes = False
                if not begin(S, DEC_YES, s):
                    if bp[BP_KIND] == RANDOM:
                        yes = random_crew.answer(st)
                    else:
                        yes = says_yes(bp, hands[s], tcard[i])
                if end(S, DEC_YES, s, yes, YES_NO):
                    chosen = s
                    break
            if chosen < 0:  # nobody said yes: the seat with the fewest tasks takes it
                chosen = fewest
            towner[i] = chosen
            counts = count_seat(counts, chosen)
            pick[i] = i
    else:  # one crew member (not the commander) takes every task; the members answer before
        # the task cards are shown, the commander picks the first who says yes (the random
        # crew: nobody answers, the commander picks any other member)
        chosen = -1
        if bp[BP_KIND] == RANDOM:
            chosen = random_crew.other_member(cmd, seats, st)
        else:
            for k in range(1, seats):
                s = (cmd + k) % seats
                yes = False  # not searched: the task cards are hidden, so worlds would need them
                if not begin(S, DEC_BLIND_YES, s):
                    yes = says_yes_blind(bp, hands[s])
                if end(S, DEC_BLIND_YES, s, yes, 0):
                    chosen = s
                    break
            if chosen < 0:
                chosen = (cmd + 1) % seats
        for i in range(n):
            towner[i] = chosen
            pick[i] = i


@compiled  # not inline="always": numba 0.68 then miscompiled the random crew's draw
def designate(S, mp, bp, g, hands, desig, st):
    """Crew members named by the commander for objectives that need them (and mission 11)."""
    seats, cmd = g[G_SEATS], g[G_CMD]
    desig[0], desig[1] = -1, -1
    for k in range(mp[MP_NOBJ]):
        kind = mp[MP_OBJ + 3 * k]
        if kind == OBJ_NO_TRICKS or kind == OBJ_ONE_TRICK or kind == OBJ_FIRST_LAST:
            if bp[BP_KIND] == RANDOM:
                desig[0] = random_crew.other_member(cmd, seats, st)
                continue
            desig[0] = (cmd + 1) % seats
            for j in range(1, seats):
                s = (cmd + j) % seats
                yes = False
                if not begin(S, DEC_ANSWER, s):
                    yes = answers_good(kind, hands[s])
                if end(S, DEC_ANSWER, s, yes, YES_NO):
                    desig[0] = s
                    break
        elif kind == OBJ_ROLES:  # roles, agreed without showing cards: the first tricks go to the
            # member with the most sure winners (then the strongest), the last one to the
            # weakest other member holding a sure winner to keep (or the weakest other)
            if bp[BP_KIND] == RANDOM:
                desig[0] = random_crew.any_member(seats, st)
                desig[1] = random_crew.other_member(desig[0], seats, st)
                continue
            if not begin(S, UNPROBED, cmd):  # agreed in the open: replayed in every world
                _roles(hands, seats, cmd, desig)
            desig[0] = end(S, UNPROBED, cmd, desig[0], 0)
            begin(S, UNPROBED, cmd)
            desig[1] = end(S, UNPROBED, cmd, desig[1], 0)
    g[G_SILENCED] = -1
    if mp[MP_SILENCED]:
        for j in range(1, seats):
            s = (cmd + j) % seats
            if s != g[G_DUMMY]:
                g[G_SILENCED] = s
                break


@compiled
def _roles(hands, seats, cmd, desig):
    """The member to win the first tricks (the most sure winners, then the strongest) and the
    one to win the last (the weakest other holding a sure winner to keep, or the weakest)."""
    first, last = -1e9, -1e9
    for j in range(seats):
        s = (cmd + j) % seats
        sc = DESIG_SURE_TRICK * sure_tricks(hands[s], 0) + strength(hands[s])
        if sc > first:
            desig[0], first = s, sc
    for j in range(seats):
        s = (cmd + j) % seats
        sc = (DESIG_LAST_SURE if sure_tricks(hands[s], 0) else 0.0) - strength(hands[s])
        if s != desig[0] and sc > last:
            desig[1], last = s, sc


@compiled
def handover(bp, g, hands, tcard, towner):
    """5 players: in turn from the commander, an owner whose own hand fits one of its tasks
    badly offers it; the first other member to say yes (from its own hand) takes it.

    Returns (task index, new owner) or (-1, -1); the random crew hands nothing over."""
    if bp[BP_KIND] == RANDOM:
        return -1, -1
    seats = g[G_SEATS]
    for j0 in range(seats):
        o = (g[G_CMD] + j0) % seats
        worst, wi = 1e9, -1
        for i in range(g[G_NTASK]):
            if towner[i] == o:
                sc = task_score(hands[o], tcard[i])
                if sc < worst:
                    worst, wi = sc, i
        if wi < 0 or worst >= bp[BP_HANDOVER_GAIN]:
            continue
        for j in range(1, seats):
            s = (o + j) % seats
            if task_score(hands[s], tcard[wi]) >= bp[BP_HANDOVER_GAIN] + HANDOVER_MARGIN:
                return wi, s
    return -1, -1


@inlined
def call_distress(S, mp, bp, g, hands, tcard, towner, passes, st):
    """Whether the crew calls the distress signal (always, when the run says so; else when it
    finds enough of its tasks poor) and the card each seat passes: the direction (+1/-1, with
    ``passes`` filled) or 0."""
    mode = mp[MP_DISTRESS]
    if mode == DISTRESS_AUTO and bp[BP_KIND] == RANDOM:
        # the random crew calls it only when it must
        return 0
    seats, n = g[G_SEATS], g[G_NTASK]
    d = 0
    if not begin(S, UNPROBED, g[G_CMD]):  # the call and its direction, agreed in the open
        d = _call(mode, bp, hands, seats, towner, tcard, n, st)
    d = end(S, UNPROBED, g[G_CMD], d, 0)
    if d == 0:
        return 0
    g[G_SU_GROUP] = 1 + g[G_SU_J]  # the passes are chosen at once, each unseen by the others
    searched = bp[BP_SEARCH_DISTRESS] != 0
    for s in range(seats):
        c = -1
        if not begin(S, DEC_PASS, s):
            c = distress_card(bp, hands[s], s, (s + d) % seats, towner, tcard, n, st)
        passes[s] = end(S, DEC_PASS, s, c, hands[s] & COLOURS if searched else 0)
    g[G_SU_GROUP] = 0
    return d


@inlined
def _call(mode, bp, hands, seats, towner, tcard, n, st):
    """The distress signal's direction, or 0 when the crew does not call it."""
    if mode == DISTRESS_AUTO:
        # every task counts: the commander judges the dummy's from its face-up cards
        poor = 0
        for s in range(seats):
            poor += distress_poorness(bp, hands[s], s, towner, tcard, n)
        if n == 0 or poor < bp[BP_DISTRESS_THRESHOLD] * n:
            return 0
    vote = 0
    for s in range(seats):
        vote += distress_vote(hands[s], s, seats, towner, tcard, n)
    d = 1 if vote >= 0 else -1
    if bp[BP_KIND] == RANDOM:
        d = random_crew.direction(st)
    return d
