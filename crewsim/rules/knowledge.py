"""What one seat may know, and other worlds it cannot tell from the real one.

A world is the initial deal plus the moves.  Relabelling the cards hidden from a seat by a
permutation σ (applied to the whole history: the deal, the distress passes, the Planet Nine 12
draw) gives another world; it is *consistent* with what the seat has seen iff the very same
moves replay in it through the referee (follow suit, true communication claims, cards passed
or drawn being held, the same commander, no Deep Sea redeal called for, the same outcome).
The referee is the judge: :func:`relabel` replays, :func:`redeal` walks through random
consistent relabellings.

Used to test that bots decide honestly: a seat's decision must not change when the cards it
cannot see are re-dealt in any consistent way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from crewsim.cards import card_id, cards_of
from crewsim.rules.deal import TRUMP4, Deal
from crewsim.rules.deep_sea_setup import needs_redeal
from crewsim.rules.game import GameState, IllegalMove, true_claim

__all__ = ["places", "redeal", "redeal_map", "relabel", "unseen"]

PINK9 = card_id(0, 9)
_UNDER = 100  # place id of the dummy's face-down card beneath face-up card t: _UNDER + t


def _pink9_public(state: GameState) -> bool:
    """Planet Nine 46: the pink 9's holder says so, so its dealt holder is public."""
    return any(k == "left_of_pink9_wins_pink" for k, _ in state.rules.objectives)


def _dealt_holder(deal: Deal, card: int) -> int:
    return next(s for s in range(deal.seats) if deal.full_hand(s) >> card & 1)


def _full_hands(deal: Deal) -> list[int]:
    return [deal.full_hand(s) for s in range(deal.seats)]


def unseen(state: GameState, seat: int) -> int:
    """Mask of the cards whose place ``seat`` does not know now.

    Known: every played card, the seat's own hand, the dummy's face-up cards, every
    communicated card still held (it lies face up), the card the seat passed in the distress
    signal (and the dummy's, which was face up), the card its left neighbour drew from it in
    Planet Nine 12 (the card it drew itself is in its hand or played), and on Planet Nine 46
    the pink 9 while no pass or draw can have moved it from its announced holder.  Everything
    else not played (other hands, the dummy's face-down cards) is unseen.  With two players
    ask for the commander, who decides for the dummy, or for the other human; asking for the
    dummy seat itself treats its face-up cards as its hand.
    """
    known = state.hands[seat]
    for trick in (*state.tricks, state.trick):
        for c in trick:
            known |= 1 << c
    if state.is_dummy_game:
        known |= state.hands[2]
    for q in range(state.seats):
        for c in state.shown(q):
            known |= 1 << c
    if state.distress_passes:
        known |= 1 << state.distress_passes[seat]
        if state.is_dummy_game:
            known |= 1 << state.distress_passes[2]
    if state.draws:
        known |= 1 << state.draws[seat]
        known |= 1 << state.draws[(seat + 1) % state.seats]
    if _pink9_public(state) and not state.distress_passes and not state.draws:
        known |= 1 << PINK9
    return state.in_hands & ~known


def places(state: GameState) -> dict[int, int]:
    """Where every card still in play lies: its seat, or ``100 + t`` for the dummy's
    face-down card beneath face-up card ``t`` (each covered stack is a place of its own)."""
    out = {c: s for s, h in enumerate(state.hands) for c in cards_of(h)}
    for top, under in state.under.items():
        out[under] = _UNDER + top
    return out


def _map_mask(mask: int, sigma: Mapping[int, int]) -> int:
    moved = [(a, b) for a, b in sigma.items() if mask >> a & 1]
    for a, _ in moved:
        mask &= ~(1 << a)
    for _, b in moved:
        mask |= 1 << b
    return mask


def relabel(state: GameState, swap: Mapping[int, int]) -> GameState:
    """The same history replayed in the world whose cards are renamed by ``swap`` (a
    permutation of card ids, identity where not given): a new GameState at the same position.

    Raises IllegalMove when that world is inconsistent with the public history: a move the
    referee refuses, another commander, another Planet Nine 46 pink 9 holder, a deal a Deep Sea
    task card would have had redealt (all its listed cards in one hand: nobody said so), a
    dead-zone communication of a middle card, or another outcome.  Claims of dead-zone
    communications are hidden, so each is replaced by the claim that is true in the new world.
    """
    sigma = {int(a): int(b) for a, b in swap.items() if a != b}
    if sorted(sigma) != sorted(sigma.values()):
        raise ValueError(f"not a permutation: {dict(swap)}")

    def s(c: int) -> int:
        return sigma.get(c, c)

    old = state.deal
    deal = Deal(
        old.players,
        tuple(_map_mask(h, sigma) for h in old.hands),
        tuple((s(a), s(b)) for a, b in old.dummy_under),
    )
    if _dealt_holder(deal, TRUMP4) != old.commander:
        raise IllegalMove("another seat would hold the trump 4 (the commander is public)")
    if _pink9_public(state) and _dealt_holder(deal, PINK9) != _dealt_holder(old, PINK9):
        raise IllegalMove("another seat would hold the pink 9 (its holder said so)")

    if state.deep_tasks:  # nobody called for the redeal a drawn task card asks for
        cards = [t.card for t in state.deep_tasks]
        if needs_redeal(cards, _full_hands(deal)) and not needs_redeal(cards, _full_hands(old)):
            raise IllegalMove("a task card would have called for a redeal of this deal")

    new = GameState(deal, list(state.tasks), state.rules, state.game, list(state.deep_tasks))
    new.handed_over = state.handed_over
    if state.designated:
        new.designate(state.designated)
    if state.silenced is not None:
        new.silence(state.silenced)
    if state.distress:
        new.distress_signal(state.distress, [s(c) for c in state.distress_passes])

    dead_zone = state.rules.communication == "dead_zone"
    draw_at = state.rules.card_draw_after_trick if state.draws else -1
    before_draw = state.comms_before_draw
    done = len(state.tricks)
    k = 0  # next communication
    for t in range(done + 1):
        plays: Sequence[int] = state.tricks[t] if t < done else state.trick
        while True:
            if t == draw_at and k == before_draw:
                new.draw_cards([s(c) for c in state.draws])
                draw_at = -1
            if k == len(state.comms) or state.comms[k][3] != t:
                break
            q, card, claim, _ = state.comms[k]
            card = s(card)
            new.communicate(q, card, true_claim(new.hands[q], card) if dead_zone else claim)
            k += 1
        if t == draw_at:  # the history put more communications before the draw
            raise IllegalMove("the history could not be replayed in order")
        if t < done and new.leader != state.leaders[t]:  # same cards, same winners: never
            raise IllegalMove(f"trick {t + 1} would be led by another seat")
        for c in plays:
            new.play(new.to_play, s(c))
    if k != len(state.comms) or draw_at != -1:
        raise IllegalMove("the history could not be replayed in order")
    a, b = new.outcome, state.outcome
    if (a and (a.success, a.trick, a.kind)) != (b and (b.success, b.trick, b.kind)):
        raise IllegalMove(f"the hand would end otherwise: {a} instead of {b}")
    return new


def redeal_map(
    state: GameState, seat: int, rng: np.random.Generator, steps: int = 60
) -> dict[int, int]:
    """A random permutation of the cards unseen by ``seat`` whose world is consistent (see
    :func:`relabel`): ``steps`` proposed swaps of two unseen cards lying in different places
    (one card at random, then one of those elsewhere), each kept when the world it leads to
    still replays.  Identity entries are left out."""
    where = places(state)
    cards = cards_of(unseen(state, seat))
    if len(cards) < 2 or len({where[c] for c in cards}) < 2:
        return {}
    label = {c: c for c in cards}  # real card -> its name in the walk's world
    for _ in range(steps):
        a = cards[int(rng.integers(len(cards)))]
        pa = where[a]
        others = [x for x in cards if where[x] != pa]
        b = others[int(rng.integers(len(others)))]
        trial = dict(label)
        trial[a], trial[b] = label[b], label[a]  # swapped names
        try:
            relabel(state, trial)
        except IllegalMove:
            continue
        label = trial
    return {c: x for c, x in label.items() if c != x}


def redeal(state: GameState, seat: int, rng: np.random.Generator, steps: int = 60) -> GameState:
    """Another world ``seat`` cannot tell from ``state``'s: the cards it does not see re-dealt
    by a random walk of consistent swaps (:func:`redeal_map`), replayed to the same position.
    The result is always a fresh GameState (the identity world when no swap was kept)."""
    return relabel(state, redeal_map(state, seat, rng, steps))
