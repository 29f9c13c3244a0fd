"""Deep Sea task cards about how one trick is won: with a given rank ("a 5 won with a 7"), of
fitting cards (even cards, a sum of values), or with as many cards of two colours."""

import numpy as np

from crewsim.bots.view import holds, led_suit, to_play
from crewsim.bots.weights import (
    ENTRY,
    EQUAL_SPOIL,
    EQUAL_TAKE,
    FIT_KEEP,
    FIT_SPOIL,
    FIT_TAKE,
    LEAD_TO,
    WITH_CAPTURE,
    WITH_CLEAR,
    WITH_DROP_AHEAD,
    WITH_KEEP,
    WITH_TAKE,
    WITH_TAKE_EARLY,
    WITH_TOPPED,
)
from crewsim.kernel.bits import (
    BEATS,
    FULL,
    SUIT,
    TRUMPS,
    lowest,
    popcount,
    seat_after,
    suit_of,
    value_of,
)
from crewsim.kernel.conditions import CODE_SIZE
from crewsim.kernel.deep_sea_tables import C_FIT, C_NEED, C_SUM_HI, C_SUM_LO, C_WITH, N_COLS
from crewsim.kernel.jit import compiled, inlined
from crewsim.kernel.layout import (
    G_LEADER,
    G_NIN,
    G_PLAYED,
    G_SEATS,
    G_TRICKMASK,
    TK_EQUAL,
    TK_FIT,
    TK_MINE,
    TK_WITH,
)


@inlined
def wins_with(S, g, me, c):
    """Whether ``c`` is a card ``me`` must take a trick with (an open card of its own)."""
    m = S.ds_open[TK_WITH] & S.ds_open[TK_MINE]
    while m:
        k = lowest(m)
        m &= m - 1
        if S.ds_tab[S.ds_task[k] * N_COLS + C_WITH] >> c & 1:
            return True
    return False


@inlined
def clears_for(S, g, me, c, hand, others_poss):
    """Whether leading ``c`` draws out the others' cards above one of my cards of its colour
    that I must take a trick with: a 2 or a 3 wins only once they are gone, and a card to
    capture that no other card of that colour can be comes only from a seat void in it."""
    same = SUIT[suit_of(c)]
    m = S.ds_open[TK_WITH] & S.ds_open[TK_MINE]
    while m:
        k = lowest(m)
        m &= m - 1
        row = S.ds_task[k] * N_COLS
        with_ = S.ds_tab[row + C_WITH] & hand & same
        if with_ == 0 or with_ >> c & 1:
            continue
        w = lowest(with_)
        need = S.ds_tab[row + C_NEED]
        # a card to capture of w's colour must lie under w; the others come from void seats
        low = value_of(w) <= 3 if need == 0 else need & same & others_poss & ~BEATS[w] == 0
        if low and others_poss & same & BEATS[w]:
            return True
    return False


@compiled
def deep_sea_with(S, g, me, c, wseat, wcard, risk):
    """Cards won with a given rank: the owner takes the trick with one (``risk``: that a later
    card tops it), keeps them otherwise and takes the lead once one is safe to lead; the
    others drop a card to capture into it, clear what would top it, and hand it the lead."""
    sc = 0.0
    inside = g[G_TRICKMASK]
    m = S.ds_open[TK_WITH]
    while m:
        k = lowest(m)
        m &= m - 1
        row = S.ds_task[k] * N_COLS
        with_ = S.ds_tab[row + C_WITH]
        need = S.ds_tab[row + C_NEED]
        if S.ds_owner[k] == me and with_ >> c & 1:
            later = need != 0 and _may_drop(S, g, me, c, need)  # a card to capture may come
            if wseat == me and wcard == c and (need == 0 or inside & need or later):
                gain = WITH_TAKE if need == 0 or inside & need else WITH_TAKE_EARLY
                sc += gain * (1.0 - risk) - WITH_TOPPED * risk
            else:
                sc -= WITH_KEEP
        elif S.ds_owner[k] == me and wseat == me and g[G_NIN] > 0:
            # taking this trick leads the next: worth it once my card to win with is safe
            if _ready(S, g, me, me, with_, g[G_PLAYED] | inside | np.int64(1) << c):
                sc += ENTRY * (1.0 - risk)
        elif wseat == S.ds_owner[k] and with_ >> wcard & 1 and need >> c & 1:
            sc += WITH_CAPTURE
        elif S.ds_owner[k] != me:
            o = S.ds_owner[k]
            if need >> c & 1:
                if _owner_may_take(S, g, o, with_, wcard):
                    sc += WITH_DROP_AHEAD  # the owner plays after me and may take it with its card
                else:
                    sc -= FIT_KEEP  # a card to capture, kept for such a trick
            same = SUIT[suit_of(c)]
            low = S.possible[o] & with_ & same & ~g[G_PLAYED]
            if (
                c >= 36
                and g[G_NIN] == 0
                and (need != 0 or value_of(lowest(with_)) <= 3)
                and holds(S, me, o) & with_ & ~TRUMPS & ~g[G_PLAYED]
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
                        sc += LEAD_TO * popcount(holds(S, me, o) & above) / popcount(above)
            if g[G_NIN] > 0 and low and c > lowest(low) and inside & with_ & same == 0:
                # following or discarding: a card above the owner's card to win with is
                # better gone, unless the owner still to play might have won this trick
                if not to_play(g, o) or inside & same & BEATS[lowest(low)]:
                    sc += WITH_CLEAR
    return sc


@compiled
def _ready(S, g, me, o, with_, out):
    """Whether seat ``o`` may hold a colour card of ``with_`` that no other seat may top
    (``out``: the cards gone): led, it takes the trick."""
    cand = holds(S, me, o) & with_ & ~TRUMPS & ~out
    while cand:
        w = lowest(cand)
        cand &= cand - 1
        top = SUIT[suit_of(w)] & BEATS[w] & ~out
        for q in range(g[G_SEATS]):
            if q != o and holds(S, me, q) & top:
                break
        else:
            return True
    return False


@inlined
def _owner_may_take(S, g, o, with_, wcard):
    """Whether seat ``o``, still to play in this trick, may hold a card of ``with_`` of the
    colour led that tops the trick's winning card ``wcard``."""
    if g[G_NIN] == 0 or suit_of(wcard) != suit_of(S.trick[0]) or not to_play(g, o):
        return False
    return S.possible[o] & with_ & SUIT[suit_of(wcard)] & BEATS[wcard] & ~g[G_PLAYED] != 0


@inlined
def _may_drop(S, g, me, c, need):
    """Whether a seat still to play after my ``c`` may put one of the ``need`` cards into
    the trick: one of the colour led, or any once it is void in that colour."""
    nin, seats = g[G_NIN], g[G_SEATS]
    led = led_suit(S, g, c)
    live = FULL & ~g[G_PLAYED] & ~S.hands[me]
    for k in range(nin + 1, seats):
        p = S.possible[seat_after(g[G_LEADER], k, seats)] & live
        if p & need & led or (p & need and p & led == 0):
            return True
    return False


@compiled
def deep_sea_fit(S, g, me, c, wseat):
    """A trick of fitting cards for its owner: while the trick still fits and goes to the
    owner, cards that keep it fitting are worth playing into it, and the others spoil it;
    into any other trick the crew plays the cards such a trick will be short of last."""
    sc = 0.0
    inside = g[G_TRICKMASK]
    after = g[G_SEATS] - g[G_NIN] - 1  # cards still to come after ``c``
    m = S.ds_open[TK_FIT]
    while m:
        k = lowest(m)
        m &= m - 1
        row = S.ds_task[k] * N_COLS
        if wseat == S.ds_owner[k] and fits(S.ds_tab, row, inside, after + 1):
            sc += FIT_TAKE if fits(S.ds_tab, row, inside | np.int64(1) << c, after) else -FIT_SPOIL
        elif _scarce(S.ds_tab, row, c, g[G_SEATS]):
            sc -= FIT_KEEP
    return sc


@inlined
def fits(tab, row, cards, more):
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


@inlined
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


@compiled
def deep_sea_equal(S, g, me, c, wseat):
    """As many cards of two colours in one trick its owner wins: cards that make the owner's
    trick even are worth playing into it, and those that leave it out of reach spoil it;
    into any other trick the crew plays cards of those colours last."""
    sc = 0.0
    inside = g[G_TRICKMASK] | np.int64(1) << c
    after = g[G_SEATS] - g[G_NIN] - 1  # cards still to come after ``c``
    m = S.ds_open[TK_EQUAL]
    while m:
        k = lowest(m)
        m &= m - 1
        at = S.ds_task[k] * CODE_SIZE
        if wseat == S.ds_owner[k]:
            gap = colour_gap(S.ds_code, at, inside)
            sc += EQUAL_TAKE if gap == 0 else (0.0 if gap <= after else -EQUAL_SPOIL)
        elif (S.ds_code[at + 1] | S.ds_code[at + 2]) >> c & 1:
            sc -= FIT_KEEP
    return sc


@inlined
def colour_gap(code, at, cards):
    """The cards a trick holding ``cards`` still lacks to hold as many of one colour as of
    the other (and at least the least number of each) for an equal-colours card."""
    na, nb, least = popcount(cards & code[at + 1]), popcount(cards & code[at + 2]), code[at + 3]
    return abs(na - nb) + 2 * max(least - max(na, nb), 0)
