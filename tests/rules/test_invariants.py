"""Property tests of the referee: random deals played out with random legal moves."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from crewsim.cards import FULL_DECK, N_CARDS, SUIT_MASK, cards_of, popcount, suit_of
from crewsim.rules import Deal, GameState, deal_cards, n_tricks
from crewsim.rules.deal import TRUMP4
from crewsim.rules.game import Rules

SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.sampled_from([2, 3, 4, 5])
# With no task the crew has won as soon as the first trick is over; an objective that cannot
# fail (and is judged only at the end) keeps the hand going for all its tricks.
PLAY_ALL = Rules(objectives=(("balanced_tricks", {"max_lead": N_CARDS}),))


def _winner(cards: tuple[int, ...], leader: int, seats: int) -> int:
    """Independent re-statement of the trick rule: highest trump, else highest of led suit."""
    trumps = [(x, i) for i, x in enumerate(cards) if suit_of(x) == 4]
    pool = trumps or [(x, i) for i, x in enumerate(cards) if suit_of(x) == suit_of(cards[0])]
    return (leader + max(pool)[1]) % seats


def play_random_hand(players: int, seed: int) -> GameState:
    """Deal from ``seed`` and play random legal cards, checking the rules at every step."""
    deal = deal_cards(players, np.random.default_rng(seed))
    state = GameState(deal, rules=PLAY_ALL)
    rnd = random.Random(seed)
    assert state.to_play == deal.commander
    while state.outcome is None:
        seat = state.to_play
        before = state.hands[seat]
        led = suit_of(state.trick[0]) if state.trick else None
        can_follow = led is not None and before & int(SUIT_MASK[led]) != 0
        for x in range(N_CARDS):
            held = before >> x & 1 == 1
            expected = held and (not can_follow or suit_of(x) == led)
            assert state.can_play(seat, x) == expected
        card = rnd.choice(cards_of(state.legal()))
        if can_follow:  # never fails to follow suit when able
            assert suit_of(card) == led
        n_done = len(state.tricks)
        state.play(seat, card)
        assert not state.hands[seat] >> card & 1
        if len(state.tricks) > n_done:  # a trick just ended: check it
            trick, leader = state.tricks[-1], state.leaders[-1]
            assert len(trick) == state.seats
            assert state.winners[-1] == _winner(trick, leader, state.seats)
            assert state.leader == state.winners[-1]
            played = sum(len(t) for t in state.tricks)
            assert popcount(state.in_hands) + played == N_CARDS
        assert len(state.tricks) <= n_tricks(players)
    return state


@settings(deadline=None, max_examples=150)
@given(seed=SEEDS, players=PLAYERS)
def test_deal_every_card_exactly_once(seed: int, players: int) -> None:
    deal = deal_cards(players, np.random.default_rng(seed))
    full = [deal.full_hand(s) for s in range(deal.seats)]
    union = 0
    for h in full:
        assert union & h == 0
        union |= h
    assert union == FULL_DECK
    sizes = sorted(popcount(h) for h in deal.hands)
    expected = {2: [7, 13, 13], 3: [13, 13, 14], 4: [10] * 4, 5: [8] * 5}[players]
    assert sizes == expected
    assert deal.hands[deal.commander] >> TRUMP4 & 1
    if players == 2:
        assert deal.commander in (0, 1)  # trump 4 always goes to a human
        assert popcount(deal.hands[2]) == 7 and len(deal.dummy_under) == 7
        assert popcount(full[2]) == 14
        assert {top for top, _ in deal.dummy_under} == set(cards_of(deal.hands[2]))
    if players == 3:
        assert deal.unplayed_seat == 0
    # the Deal constructor accepts its own output
    assert Deal(deal.players, deal.hands, deal.dummy_under) == deal


@settings(deadline=None, max_examples=150)
@given(seed=SEEDS, players=PLAYERS)
def test_random_legal_hand(seed: int, players: int) -> None:
    state = play_random_hand(players, seed)
    assert state.outcome is not None and state.outcome.success
    assert len(state.tricks) == n_tricks(players)
    assert len(state.winners) == len(state.leaders) == len(state.tricks)
    assert state.leaders[0] == state.commander
    for t in range(1, len(state.tricks)):
        assert state.leaders[t] == state.winners[t - 1]
    played = [x for t in state.tricks for x in t]
    assert len(set(played)) == len(played)
    assert len(played) + popcount(state.in_hands) == N_CARDS
    assert state.trick == []
    leftover = {2: 1, 3: 1, 4: 0, 5: 0}[players]
    assert popcount(state.in_hands) == leftover
    if players == 3:
        unplayed = state.deal.unplayed_seat
        assert unplayed is not None
        assert popcount(state.hands[unplayed]) == 1
        assert state.in_hands == state.hands[unplayed]
    if players == 2:
        assert state.hands[0] == state.hands[1] == 0
        assert popcount(state.hands[2]) == 1 and state.under == {}
    assert not any(state.can_play(s, x) for s in range(state.seats) for x in range(N_CARDS))


@settings(deadline=None, max_examples=150)
@given(seed=SEEDS, players=PLAYERS)
def test_same_seed_same_trace(seed: int, players: int) -> None:
    a = play_random_hand(players, seed)
    b = play_random_hand(players, seed)
    assert a.trace() == b.trace()
    assert a.history == b.history
    assert a.tricks == b.tricks
    assert len(a.history) == n_tricks(players) + 1  # one line per trick, then the outcome
