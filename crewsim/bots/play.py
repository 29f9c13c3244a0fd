"""The heuristic crew's card.  A forced card is played at once; else the crew first settles
who it wants to take the trick (``want``), works out what it knows and plans for this decision
once (``Decision``), and scores every legal card on lead (``lead``) or following (``follow``).
"""

import numpy as np

from crewsim.bots.deep_sea import (
    DS_COLLECT,
    DS_KEEP,
    DS_SHED,
    DS_SUB,
    deep_sea_scores,
    deep_sea_want,
)
from crewsim.bots.deep_sea_cards import collect_scope, sub_cards
from crewsim.bots.deep_sea_counts import equal_pair, needs_trick
from crewsim.bots.follow import follow_card
from crewsim.bots.hand import best_card, ruffs_needed
from crewsim.bots.lead import lead_card
from crewsim.bots.lead_bans import lead_bans
from crewsim.bots.objectives import (
    names_member,
    objective_of,
    omega_early,
    omega_keeper,
    sheds_high,
)
from crewsim.bots.view import Decision, drawn_from
from crewsim.bots.want import fill_want
from crewsim.bots.weights import (
    BIG,
    HOT,
)
from crewsim.kernel.bits import FULL, TRUMPS, lowest, popcount, suit_of
from crewsim.kernel.jit import inlined
from crewsim.kernel.layout import (
    G_DUMMY,
    G_NIN,
    G_NT,
    G_OWNED,
    G_PLAYED,
    G_SEATS,
    G_T,
    G_TASKMASK,
)


@inlined
def heuristic_play(
    S,
    mp,
    g,
    me,
    hand,
    legal,
    viewer_hand,
    trick,
    won,
    desig,
    possible,
    known,
    ct,
    tpred,
    want,
    deep,
):
    """The heuristic's card (``viewer_hand``: the commander's cards when it plays the dummy;
    ``deep``: a Deep Sea game, a constant where the game loop is compiled for one game, which
    drops the Deep Sea branches from the Planet Nine loop)."""
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
    mine = hand | viewer_hand
    unseen = FULL & ~mine & ~g[G_PLAYED]
    omega = omega_early(S, g, mp)
    fill_want(S, g, mp, me, won, desig, ct, want, hand, possible, omega)
    sea = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))  # (Planet Nine)
    drawn = np.int64(0)
    if deep:
        sea = deep_sea_scores(S, g, me)
        if sea[0] & DS_COLLECT and g[G_NIN] > 0:
            drawn = drawn_from(g, suit_of(trick[0]), possible, unseen)
        deep_sea_want(S, g, me, won, want, trick, drawn)
    dc = _decision(
        S, mp, g, me, hand, mine, unseen, won, desig, known, ct, want, omega, deep, sea, drawn
    )
    if g[G_NIN] == 0:
        return lead_card(
            S, mp, g, me, hand, legal, won, desig, possible, known, ct, tpred, want, dc
        )
    return follow_card(
        S, mp, g, me, hand, legal, trick, won, desig, possible, known, ct, tpred, want, dc
    )


@inlined
def _decision(
    S, mp, g, me, hand, mine, unseen, won, desig, known, ct, want, omega, deep, sea, drawn
):
    """What the seat knows and plans for this card, once ``want`` is filled: the open task
    cards and where they sit, the cards to keep or shed, the seats that must not win
    (``sea``: ``deep_sea_scores``)."""
    ds = sea[0]
    seats = g[G_SEATS]
    played = g[G_PLAYED]
    unheld = FULL & ~hand & ~played  # as ``unseen``, the commander's cards kept for the dummy
    bans = lead_bans(S, g, mp, me, me)
    keeper = best_card(hand) if ds & DS_KEEP else np.int64(-1)
    cash = ds & DS_SHED != 0 and equal_pair(S, g, me)
    spend = ds & DS_SHED != 0 and needs_trick(S, g, me, won)
    counts, collectors = collect_scope(S, g) if ds & DS_COLLECT else (np.int64(0), 0)
    subs = sub_cards(S, g) if ds & DS_SUB else np.int64(0)
    open_cards = g[G_TASKMASK] & ~played
    my_tasks = open_cards & g[G_OWNED + me]
    with_owner = np.int64(0)  # open task cards known (communicated) to sit with their owners
    for q in range(seats if open_cards else 0):
        with_owner |= open_cards & g[G_OWNED + q] & known[q]
    mine_open = my_tasks & ~mine
    # my trumps are the only way to win these: spending one on a trick without my task card
    # leaves a task card I cannot take (in the last trick a card kept back is lost anyway).
    # Three or more (Deep Sea's four 9s) are won rather by leading trumps their holders may
    # discard them onto, which keeping them would forgo
    n_ruffs, colour = ruffs_needed(hand, mine_open)
    keep_trumps = g[G_T] < g[G_NT] - 1 and popcount(hand & TRUMPS) <= n_ruffs <= 2
    void_in = colour if hand & TRUMPS else np.int64(0)  # its colour: my discards go there
    keep_last = omega_keeper(ct, me, hand, omega)
    shed_high = sheds_high(mp, me, desig, won)
    shown = np.int64(0)  # cards the others have shown and still hold (rare: checks gated on it)
    for q in range(seats):
        if q != me:
            shown |= known[q]
    avoid = 0  # the seats that must not win this trick
    first_last = objective_of(mp, 7) >= 0
    if deep or names_member(mp):
        for q in range(seats):
            if q != me and want[q] <= -HOT * BIG:
                avoid |= 1 << q
            elif first_last and want[q] >= HOT * BIG:  # pn-41's member must take the first
                avoid = 0  # (or last) trick: the others play to it, forced above my card or not
                break
    return Decision(
        mine=mine,
        unseen=unseen,
        unheld=unheld,
        shown=shown,
        open_cards=open_cards,
        my_tasks=my_tasks,
        mine_open=mine_open,
        with_owner=with_owner,
        bans=bans,
        omega=omega,
        keep_last=keep_last,
        keep_trumps=keep_trumps,
        void_in=void_in,
        shed_high=shed_high,
        spend=spend,
        cash=cash,
        avoid=avoid,
        deep=deep,
        ds=ds,
        bad_others=sea[1],
        bad_mine=sea[2],
        fit_cards=sea[3],
        fit_owners=sea[4],
        keeper=keeper,
        subs=subs,
        counts=counts,
        collectors=collectors,
        drawn=drawn,
    )


@inlined
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
