"""What the deciding seat can tell, and the chances built on it.

A bot decides for one seat and reads only what that seat may see: its own hand (the dummy's
decisions also read the commander's, who plays it), the public state (played cards, the
trick, the task cards, tricks won) and the public knowledge arrays: ``possible`` (the cards a
seat may still hold, narrowed by revealed voids and communications) and ``known`` (the cards
it has shown).  From them: who holds a card, who may still top one, and how likely a follower
is forced above a card.  Every score is weighed against ``BIG``, a task card won or lost.
"""

from typing import NamedTuple

import numpy as np

from crewsim.bots.weights import (
    FORCED_ALL_ABOVE,
    FORCED_ONE_CARD,
    FORCED_TWO_CARDS,
)
from crewsim.kernel.bits import BEATS, SUIT, highest, lowest, popcount, seat_after, suit_of
from crewsim.kernel.jit import compiled, inlined
from crewsim.kernel.layout import G_CMD, G_DUMMY, G_LEADER, G_NIN, G_NT, G_PLAYED, G_SEATS, G_T


class Decision(NamedTuple):
    """One card decision's context, worked out once before the legal cards are scored
    (``play``): what the seat sees, where the open task cards sit, what it keeps or sheds."""

    mine: np.int64  # my cards (deciding for the dummy: the commander's too)
    unseen: np.int64  # the cards neither in ``mine`` nor played
    unheld: np.int64  # as ``unseen``, but the commander's cards count (kept for the dummy)
    shown: np.int64  # cards the others have shown and still hold
    open_cards: np.int64  # the task cards not yet played
    my_tasks: np.int64  # ... those I own
    mine_open: np.int64  # ... those I own but other seats hold
    with_owner: np.int64  # ... those known (communicated) to sit with their owners
    bans: np.int64  # the cards I may not lead (``lead_bans``)
    omega: np.int64  # mission 48's omega card while it must wait, else -1
    keep_last: np.int64  # the card I keep for the last trick (mission 48), else -1
    keep_trumps: bool  # my trumps are the only way to win my task cards held elsewhere
    void_in: np.int64  # my cards of the colours I must be void in to ruff those task cards
    shed_high: bool  # my high cards go: I must win no more tricks (pn-33)
    spend: bool  # I must still win tricks for an exact count: a sure winner goes now
    cash: bool  # I am the captain or the owner of 'as many tricks as the captain'
    avoid: int  # the seats that must not win this trick (bits)
    deep: bool  # a Deep Sea game (a constant where the game loop is compiled for one game)
    ds: int  # the Deep Sea scores the open task cards call for (``deep_sea.DS_*``)
    bad_others: np.int64  # the cards another seat's open Deep Sea card says it may not win
    bad_mine: np.int64  # ... mine says I may not win
    fit_cards: np.int64  # the cards that fit an open trick of fitting cards
    fit_owners: int  # the owners of those (bits)
    keeper: np.int64  # my best card, kept for a card due in the last trick, else -1
    subs: np.int64  # the task cards to be won with a submarine
    counts: np.int64  # the cards that open counting cards count
    collectors: int  # the owners of those counting cards (bits)
    drawn: np.int64  # following: a card of the suit led per seat still to play


@compiled
def knows(g, me, owner):
    """Whether seat ``me`` decides with ``owner``'s private knowledge: the same seat, or the
    two-player commander and the dummy it plays."""
    if me == owner:
        return True
    d, cmd = g[G_DUMMY], g[G_CMD]
    return d >= 0 and (me == d or me == cmd) and (owner == d or owner == cmd)


@inlined
def holder(hand, possible, me, seats, c):
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


@inlined
def only_with(possible, me, seats, h, cards):
    """Can none of ``cards`` sit with a seat other than ``h`` and me, as far as I can tell?"""
    for q in range(seats):
        if q != me and q != h and possible[q] & cards:
            return False
    return True


@inlined
def holds(S, me, q):
    """The cards seat ``q`` may hold, as seen by ``me``."""
    return S.hands[me] if q == me else S.possible[q] & ~S.hands[me]


@inlined
def never_played(g, o, held):
    """Cards of seat ``o``'s hand ``held`` it will never play (0 when unknown): the hand of
    14 at three players keeps one back."""
    if held == 0:
        return 0
    played = (o - g[G_LEADER]) % g[G_SEATS] < g[G_NIN]  # in the trick under way
    return max(popcount(held) - (g[G_NT] - g[G_T] - played), 0)


@inlined
def to_play(g, o):
    """Whether seat ``o`` plays in this trick after the card now being chosen."""
    for k in range(g[G_NIN] + 1, g[G_SEATS]):
        if seat_after(g[G_LEADER], k, g[G_SEATS]) == o:
            return True
    return False


@inlined
def led_suit(S, g, c):
    """The mask of the suit led in this trick (``c``'s own when I lead it)."""
    return SUIT[suit_of(c if g[G_NIN] == 0 else S.trick[0])]


@inlined
def beats_card(c, w):
    return BEATS[w] >> c & 1 == 1


@inlined
def current_winner(g, trick):
    w = trick[0]
    wi = 0
    for k in range(1, g[G_NIN]):
        if beats_card(trick[k], w):
            w = trick[k]
            wi = k
    return seat_after(g[G_LEADER], wi, g[G_SEATS]), w


@inlined
def drawn_from(g, led, possible, unseen):
    """One card of suit ``led`` for each seat still to play that may hold one."""
    drawn = np.int64(0)
    for k in range(g[G_NIN] + 1, g[G_SEATS]):
        m = possible[seat_after(g[G_LEADER], k, g[G_SEATS])] & SUIT[led] & unseen & ~drawn
        if m:
            drawn |= np.int64(1) << lowest(m)
    return drawn


@inlined
def later_toppers(g, w, possible, unseen):
    """The seats still to play that may hold a card of ``w``'s suit above it."""
    tops = 0
    for k in range(g[G_NIN] + 1, g[G_SEATS]):
        q = seat_after(g[G_LEADER], k, g[G_SEATS])
        if possible[q] & unseen & SUIT[suit_of(w)] & BEATS[w]:
            tops |= 1 << q
    return tops


@inlined
def shown_only(kn, poss, suit, unseen, tc):
    """Whether a seat has shown task card ``tc`` as its only card of ``suit`` (communicated,
    or the rest of the colour gone): it must follow with it."""
    return kn >> tc & 1 == 1 and poss & suit & unseen == np.int64(1) << tc


@inlined
def over_known(g, c, o, me, mine, possible, known):
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


@inlined
def forced_chance(poss, kn, unseen, hi, r):
    """Chance that a follower who may hold ``poss`` must overtake: all its cards of the suit
    lie in ``hi``.  Singletons are common, so a mix of r (one card) and r**2 (two cards)."""
    mine_suit = poss & unseen
    if mine_suit & hi == 0 or kn & unseen & ~hi:  # cannot overtake, or shown a card to duck
        return 0.0
    if mine_suit & ~hi == 0:
        return FORCED_ALL_ABOVE
    return FORCED_ONE_CARD * r + FORCED_TWO_CARDS * r * r


@inlined
def overtake_risk(g, wcard, led, mine, possible, known, first):
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
        safe *= 1.0 - forced_chance(possible[q], known[q], unseen, hi, r)
    return 1.0 - safe


@inlined
def lead_risk(g, c, mine, possible, known, me):
    """Overtake risk when I lead ``c``: every other seat plays after me."""
    unseen = SUIT[suit_of(c)] & ~mine & ~g[G_PLAYED]
    hi = unseen & BEATS[c]
    if hi == 0:
        return 0.0
    r = popcount(hi) / popcount(unseen)
    safe = 1.0
    for q in range(g[G_SEATS]):
        if q != me:
            safe *= 1.0 - forced_chance(possible[q], known[q], unseen, hi, r)
    return 1.0 - safe


@inlined
def forces(g, w, me, avoid, possible, known, unseen, first):
    """How likely the seats in ``avoid`` (that must not win the trick) are forced above ``w``
    and take it, summed over them (``forced_chance``): those playing after position ``first`` of
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
            tot += forced_chance(possible[q], known[q], su, hi, r)
    return tot
