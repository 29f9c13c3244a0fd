"""Deep Sea task cards about given cards: cards a seat may not win ("no 5s"), a card to be won
with a submarine, a card that must win or lie in the last trick, and the cards that count what
their owner wins ("at least 5 pink", valued by ``collect``)."""

import numpy as np

from crewsim.bots.collect import collect_value, counted
from crewsim.bots.view import knows, led_suit, never_played
from crewsim.bots.weights import (
    BAD_AHEAD,
    BAD_LEAD,
    BIG,
    DS_DRAW_KEEPER,
    DS_KEEPER,
    DS_LAST_CARD_EARLY,
    DS_LAST_LATE,
    DS_LAST_SUB,
    DS_LAST_UNDER,
    DS_LAST_VALUE,
    DS_OVER_TOLD,
    DS_SUB_COLOUR,
    FAIL,
    NAMED_RISK,
    OWN_BAD,
)
from crewsim.kernel.bits import (
    BEATS,
    COLOURS,
    FULL,
    SUIT,
    TRUMPS,
    highest,
    lowest,
    popcount,
    seat_after,
    suit_of,
    value_of,
)
from crewsim.kernel.conditions import CODE_SIZE
from crewsim.kernel.deep_sea_tables import (
    C_BAD,
    C_EXACT,
    C_FAMILY,
    C_NEED,
    FAM_COUNT,
    N_COLS,
)
from crewsim.kernel.jit import compiled, inlined
from crewsim.kernel.layout import (
    G_LEADER,
    G_NIN,
    G_NT,
    G_PLAYED,
    G_SEATS,
    G_T,
    G_TRICKMASK,
    TK_BAD,
    TK_COLLECT,
    TK_LAST,
    TK_MINE,
    TK_SUB,
)


@compiled
def deep_sea_own_bad(S, g, me, c, first, possible, mine):
    """A card its owner may not win ("no 5s") played by that owner to take the trick: lost
    for sure when no seat after position ``first`` may top it; following, else a gamble on a
    rescue by the seats that may (``first`` 1: a lead, only the sure loss counts)."""
    m = S.ds_open[TK_BAD] & S.ds_open[TK_MINE]
    while m:
        k = lowest(m)
        m &= m - 1
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


@compiled
def deep_sea_bad_lead(S, g, me, c):
    """Leading the colour of the one card of it another seat may not win, when that card tops
    the colour ("no 9s", a 9): the seat may hold it, and holding nothing else of the colour
    it has to win it.  (Not a whole colour, "no green": its owner sheds it by leading it.)"""
    sc = 0.0
    s = SUIT[suit_of(c)]
    played = g[G_PLAYED]
    m = S.ds_open[TK_BAD] & ~S.ds_open[TK_MINE]
    while m:
        k = lowest(m)
        m &= m - 1
        o = S.ds_owner[k]
        bad = s & S.ds_tab[S.ds_task[k] * N_COLS + C_BAD]
        if bad == 0 or bad & (bad - 1) or s & BEATS[lowest(bad)]:  # (not a colour, nor a 5)
            continue
        if S.possible[o] & ~played & bad:
            sc -= BAD_LEAD
    return sc


@compiled
def deep_sea_bad(S, g, me, c, wseat, wcard):
    """Cards another seat may not win ("no 5s", "no submarines"): the crew keeps them out of a
    trick that seat takes, and out of one it is still to play to and may have to win: with a
    card of the suit led above the winning one."""
    sc = 0.0
    led = led_suit(S, g, c)
    m = S.ds_open[TK_BAD] & ~S.ds_open[TK_MINE]
    while m:
        k = lowest(m)
        m &= m - 1
        o = S.ds_owner[k]
        if not S.ds_tab[S.ds_task[k] * N_COLS + C_BAD] >> c & 1:
            continue
        if wseat == o:
            sc -= BIG
        elif (o - g[G_LEADER] + g[G_SEATS]) % g[G_SEATS] > g[G_NIN] and (
            S.possible[o] & ~g[G_PLAYED] & led & BEATS[wcard]
        ):
            sc -= BAD_AHEAD
    return sc


@compiled
def sub_cards(S, g):
    """The open task cards that must be won with a submarine."""
    cards = np.int64(0)
    m = S.ds_open[TK_SUB]
    while m:
        k = lowest(m)
        m &= m - 1
        cards |= np.int64(1) << S.ds_code[S.ds_task[k] * CODE_SIZE + 1]
    return cards


@compiled
def deep_sea_sub(S, g, me, c, wseat, wcard):
    """A card to win with a submarine: a trick holding it that its owner takes with a colour
    card fails the task, and the owner empties the card's colour to ruff it."""
    sc = 0.0
    inside = g[G_TRICKMASK] | np.int64(1) << c
    m = S.ds_open[TK_SUB]
    while m:
        k = lowest(m)
        m &= m - 1
        at = S.ds_task[k] * CODE_SIZE
        x, o = S.ds_code[at + 1], S.ds_owner[k]
        if inside >> x & 1 and wseat == o and wcard < 36:
            sc -= FAIL * BIG
        elif me == o and c != x and suit_of(c) == suit_of(x) and wseat != o:
            sc += DS_SUB_COLOUR
    return sc


@compiled
def deep_sea_keep(S, g, me, c, keeper):
    """Before the last trick, for a card that must win it or lie in it: its owner keeps
    ``keeper``, the best card of its own hand (``best_card``), the others spend submarines
    and high cards, the later the more, and a card named for the last trick stays in its
    hand.  When the owner may win only the last trick, the others do not lead submarines
    while it may hold one (that would draw its keeper), and once it has shown its keeper
    they play the cards above it and keep one below it, for the final lead."""
    t, nt = g[G_T], g[G_NT]
    if t >= nt - 1:
        return 0.0
    sc = 0.0
    m = S.ds_open[TK_LAST]
    while m:
        k = lowest(m)
        m &= m - 1
        row = S.ds_task[k] * N_COLS
        if S.ds_tab[row + C_EXACT] and S.ds_tab[row + C_NEED] >> c & 1:
            sc -= DS_LAST_CARD_EARLY * BIG
        if S.ds_tab[row + C_EXACT] and g[G_NIN] == 0:
            sc -= _draws_named(S, g, me, c, S.ds_tab[row + C_NEED])
        o = S.ds_owner[k]
        if o == me:
            if c == keeper:
                sc -= DS_KEEPER
            continue
        late = DS_LAST_LATE if t >= nt - 3 else 1.0
        sc += late * ((DS_LAST_SUB if c >= 36 else 0.0) + DS_LAST_VALUE * value_of(c))
        if S.ds_tab[row + C_FAMILY] != FAM_COUNT:
            continue
        if c >= 36 and g[G_NIN] == 0 and S.possible[o] & TRUMPS & ~S.hands[me] & ~g[G_PLAYED]:
            sc -= (
                DS_DRAW_KEEPER + late * DS_LAST_SUB
            )  # a submarine lead draws the owner's, kept for the end
        told = S.known[o] & COLOURS & ~g[G_PLAYED]
        if told:  # its card for the last trick
            top, same = highest(told), SUIT[suit_of(c)]
            if suit_of(c) == suit_of(top):  # keep one card under it, to lead or follow
                if c > top:
                    sc += late * DS_OVER_TOLD
                elif popcount(S.hands[me] & same & ~BEATS[top]) == 1:
                    sc -= late * DS_LAST_UNDER
    return sc


@inlined
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
                risk += FAIL * BIG if other == 0 else NAMED_RISK
    return risk


@compiled
def collect_scope(S, g):
    """(cards, owners) of the open counting cards: a card outside the first changes none of
    them, and the chance that a trick slips away matters only for a trick going to an owner."""
    cards, owners = np.int64(0), 0
    m = S.ds_open[TK_COLLECT]
    while m:
        k = lowest(m)
        m &= m - 1
        cards |= counted(S.ds_code, S.ds_task[k] * CODE_SIZE)
        owners |= 1 << S.ds_owner[k]
    return cards, owners


@compiled
def deep_sea_collect(S, g, me, c, wseat, risk, drawn, base, toppers):
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
    m = S.ds_open[TK_COLLECT]
    while m:
        k = lowest(m)
        m &= m - 1
        at = S.ds_task[k] * CODE_SIZE
        if not inside & ~base & counted(S.ds_code, at):
            continue  # (a card it does not count changes nothing)
        o = S.ds_owner[k]
        mine = S.won_cards[o]
        held = S.hands[o] if knows(g, me, o) else np.int64(0)
        spare = never_played(g, o, held)
        kept = S.ds_base[2 * k]
        lost, _ = collect_value(S.ds_code, at, mine, live & ~inside, held & ~bit, spare)
        p = 1.0 - risk if wseat == o else 0.0  # the chance the owner takes the trick
        if toppers >> o & 1:
            p = risk / popcount(toppers)
        if p > 0.0:
            taken, _ = collect_value(
                S.ds_code, at, mine | inside, live & ~inside, held & ~bit, spare
            )
            sc += p * (taken - S.ds_base[2 * k + 1]) + (1.0 - p) * (lost - kept)
        else:
            sc += lost - kept
    return sc
