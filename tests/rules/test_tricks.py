"""Rigged-deal regression tests of trick play (rule nuances 1-3 and 21)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import (
    ANA,
    BETO,
    CARLA,
    DIEGO,
    c,
    dummy_deal,
    hand,
    m,
    play_trick,
    suited_deal,
    worked_deal,
)

from crewsim.cards import (
    SUIT_MASK,
    TRUMP_MASK,
    Game,
    card_name,
    cards_of,
    popcount,
)
from crewsim.rules import (
    Claim,
    Deal,
    GameState,
    IllegalMove,
    TaskSpec,
    legal_plays,
    n_tricks,
    trick_winner,
)
from crewsim.rules.play import tricks_of

PINK = int(SUIT_MASK[0])


# ---- the worked trick of the seed document ------------------------------------------------


def test_worked_trick_from_seed_document() -> None:
    deal = worked_deal()
    assert deal.commander == ANA
    assert deal.hands[ANA] >> c("rocket4") & 1 and deal.hands[ANA] >> c("pink9") & 1
    state = GameState(deal, tasks=[TaskSpec(c("pink1"))])
    assert state.next_drafter() == ANA  # the commander drafts first
    state.assign_task(0, ANA)
    state.communicate(BETO, c("green9"), Claim.HIGHEST)
    assert state.to_play == ANA  # the commander leads trick 1

    state.play(ANA, c("pink9"))
    assert state.legal(BETO) == m("pink5", "pink3")
    assert not state.can_play(BETO, c("green9"))  # shown card is still bound by follow-suit
    state.play(BETO, c("pink5"))
    # Carla is void in pink: anything goes, a rocket included
    assert state.legal(CARLA) == deal.hands[CARLA]
    assert state.can_play(CARLA, c("rocket1"))
    state.play(CARLA, c("yellow2"))
    assert state.legal(DIEGO) == m("pink1", "pink4", "pink6", "pink7")
    state.play(DIEGO, c("pink1"))

    assert state.tricks == [(c("pink9"), c("pink5"), c("yellow2"), c("pink1"))]
    assert state.winners == [ANA]
    assert state.winning_cards == [c("pink9")]
    assert state.done_tasks == {0: 0}
    assert state.outcome is not None and state.outcome.success and state.outcome.trick == 0
    assert state.leader == ANA
    text = state.trace()
    assert "P1 communicates green9 (highest)" in text
    assert "trick 1: P0*:pink9 P1:pink5 P2:yellow2 P3:pink1  -> P0* wins" in text
    assert text.rstrip().endswith("SUCCESS: all tasks and objectives done")
    # the hand is over: nothing more can be played
    assert not state.can_play(ANA, c("pink8"))


def test_worked_trick_then_winner_leads_next() -> None:
    """With a second task pending the hand goes on and Ana, the winner, leads trick 2."""
    state = GameState(worked_deal(), tasks=[TaskSpec(c("pink1")), TaskSpec(c("blue9"))])
    state.assign_task(0, ANA)
    state.assign_task(1, BETO)
    play_trick(state, "pink9", "pink5", "yellow2", "pink1")
    assert state.outcome is None
    assert state.to_play == ANA
    with pytest.raises(IllegalMove, match="turn"):
        state.verify_play(BETO, c("pink3"))
    assert not state.can_play(DIEGO, c("blue9"))
    play_trick(state, "pink8", "pink3", "rocket1", "pink4")  # Carla trumps and wins
    assert state.winners == [ANA, CARLA]
    assert state.leaders == [ANA, ANA]
    assert state.to_play == CARLA
    assert state.outcome is None


def test_wrong_winner_of_task_card_fails_at_once() -> None:
    state = GameState(worked_deal(), tasks=[TaskSpec(c("pink1")), TaskSpec(c("blue9"))])
    state.assign_task(0, ANA)
    state.assign_task(1, BETO)
    play_trick(state, "pink2", "pink5", "yellow2", "pink1")  # Beto wins Ana's pink 1
    assert state.winners == [BETO]
    assert state.outcome is not None and not state.outcome.success
    assert state.outcome.trick == 0
    assert "pink1" in state.outcome.reason


# ---- follow suit ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(Game))
def test_led_trump_must_be_followed_with_trump(game: Game) -> None:
    state = GameState(suited_deal(), tasks=[TaskSpec(c("pink1"), owner=0)], game=game)
    state.play(0, c("rocket4"))
    assert state.legal(1) == m("rocket3")
    assert not state.can_play(1, c("blue9"))
    with pytest.raises(IllegalMove, match="must follow " + game.trump_name + "s"):
        state.verify_play(1, c("blue9"))
    with pytest.raises(IllegalMove):
        state.play(1, c("blue1"))
    assert state.trick == [c("rocket4")]  # the illegal play changed nothing
    assert state.can_play(1, c("rocket3"))
    play_trick(state, "rocket3", "rocket2", "rocket1")
    assert state.winners == [0]


def test_void_player_may_trump_or_discard() -> None:
    for card in ("rocket3", "blue1", "blue9"):
        state = GameState(suited_deal(), tasks=[TaskSpec(c("pink1"), owner=0)])
        state.play(0, c("pink9"))
        assert state.legal(1) == state.hands[1]  # void in pink: any card
        state.play(1, c(card))
        play_trick(state, "green1", "yellow1")
        assert state.winners == [1 if card == "rocket3" else 0]


def test_follow_suit_with_a_low_card_is_legal() -> None:
    """Nobody is forced to win: any card of the led suit may be played."""
    state = GameState(worked_deal(), tasks=[TaskSpec(c("blue9"), owner=0)])
    state.play(ANA, c("pink2"))
    assert state.can_play(BETO, c("pink3"))
    assert state.can_play(BETO, c("pink5"))
    play_trick(state, "pink3", "yellow3", "pink4")
    assert state.winners == [DIEGO]  # Diego wins his pink 4, Ana's blue 9 task not involved


def test_legal_plays_function() -> None:
    h = hand("pink1 pink9 blue3 rocket2")
    assert legal_plays(h, None) == h
    assert legal_plays(h, 0) == m("pink1", "pink9")
    assert legal_plays(h, 1) == m("blue3")
    assert legal_plays(h, 2) == h  # void in green
    assert legal_plays(h, 4) == m("rocket2")
    assert legal_plays(hand("pink1 blue3"), 4) == hand("pink1 blue3")


def test_trick_winner_function() -> None:
    names = [c(x) for x in ("green3", "green9", "pink9", "green1")]
    assert trick_winner(names, 0, 4) == (1, c("green9"))
    assert trick_winner(names, 2, 4) == (3, c("green9"))  # seats wrap round
    off = [c(x) for x in ("blue2", "yellow9", "pink9", "green9")]
    assert trick_winner(off, 1, 4) == (1, c("blue2"))  # off-suit cards never win
    trumps = [c(x) for x in ("blue9", "rocket1", "blue8", "rocket2", "rocket1")[:4]]
    assert trick_winner(trumps, 0, 4) == (3, c("rocket2"))
    assert trick_winner([c("rocket1"), c("rocket4"), c("rocket3")], 2, 3) == (0, c("rocket4"))


# ---- commander leads, winner leads --------------------------------------------------------


def test_commander_leads_first_trick_and_winner_leads_next() -> None:
    hands = suited_deal().hands
    rotated = hands[2:] + hands[:2]  # the rocket 4 holder now sits at seat 2
    state = GameState(Deal(4, rotated), tasks=[TaskSpec(c("yellow9"), owner=0)])
    assert state.commander == 2
    assert state.to_play == 2
    for seat in (0, 1, 3):
        with pytest.raises(IllegalMove, match="turn"):
            state.verify_play(seat, cards_of(state.hands[seat])[0])
    play_trick(state, "pink1", "blue1", "green1", "rocket1")  # seat 1 (ex seat 3) trumps
    assert state.winners == [1]
    assert state.to_play == 1
    play_trick(state, "yellow1", "pink2", "blue2", "green2")
    assert state.winners == [1, 1]
    assert state.leaders == [2, 1]


# ---- three players ----------------------------------------------------------------------------


def _three_player_deal() -> Deal:
    """Seat 0: all pinks + 5 more (14 cards); seats 1 and 2: 13 each; seat 1 commander."""
    s0 = hand("pink1 pink2 pink3 pink4 pink5 pink6 pink7 pink8 pink9 blue1 blue2 blue3 green1")
    s0 |= m("yellow1")
    s1 = hand("blue4 blue5 blue6 blue7 green2 green3 green4 green5 yellow2 yellow3 yellow4")
    s1 |= m("rocket4", "rocket1")
    s2 = ((1 << 40) - 1) & ~(s0 | s1)
    return Deal(3, (s0, s1, s2))


def _play_avoiding(state: GameState, avoid: int) -> None:
    """Play out the hand, never playing ``avoid`` (lowest other legal card each time)."""
    while state.outcome is None:
        legal = [x for x in cards_of(state.legal()) if x != avoid]
        state.play(state.to_play, legal[0])


def test_three_players_deal_sizes() -> None:
    deal = _three_player_deal()
    assert [popcount(h) for h in deal.hands] == [14, 13, 13]
    assert deal.unplayed_seat == 0
    assert deal.commander == 1
    assert n_tricks(3) == 13


def test_three_players_fourteenth_card_never_played() -> None:
    """A task on the card that is never played fails at the 13th and last trick."""
    state = GameState(_three_player_deal(), tasks=[TaskSpec(c("pink1"), owner=0)])
    _play_avoiding(state, c("pink1"))
    assert len(state.tricks) == 13
    assert state.outcome is not None and not state.outcome.success
    assert state.outcome.trick == 12
    assert "pink1" in state.outcome.reason and "not completed" in state.outcome.reason
    assert state.hands == [m("pink1"), 0, 0]
    assert state.in_hands == m("pink1")
    assert not state.can_play(state.to_play, c("pink1"))


def test_three_players_hand_lasts_exactly_13_tricks() -> None:
    """A task completed in the 13th trick succeeds there; the 14th card stays in hand."""
    state = GameState(_three_player_deal(), tasks=[TaskSpec(c("yellow9"), owner=1)])
    # seat 2 holds yellow 9 and keeps it until it is the only card left; seat 1 wins trick 13
    while state.outcome is None:
        seat = state.to_play
        legal = cards_of(state.legal())
        choice = [x for x in legal if x != c("yellow9")] or legal
        state.play(seat, choice[0])
        assert len(state.tricks) <= 13
    assert len(state.tricks) == 13
    assert state.outcome is not None
    assert state.outcome.success and state.outcome.trick == 12
    assert c("yellow9") in state.tricks[12] and state.winners[12] == 1
    assert sum(len(t) for t in state.tricks) == 39
    assert popcount(state.in_hands) == 1
    assert popcount(state.hands[0]) == 1


# ---- two players: the dummy ---------------------------------------------------------------


def test_dummy_deal_shape() -> None:
    deal = dummy_deal()
    assert deal.seats == 3
    assert deal.commander == 1
    assert popcount(deal.hands[2]) == 7
    assert popcount(deal.full_hand(2)) == 14
    assert n_tricks(2) == 13


def test_dummy_plays_only_face_up_cards() -> None:
    state = GameState(dummy_deal(), tasks=[TaskSpec(c("pink1")), TaskSpec(c("blue1"))])
    state.assign_task(0, 1)  # commander
    state.assign_task(1, 2)  # then clockwise: the dummy
    state.play(1, c("yellow9"))
    # covered yellows do not oblige the dummy to follow, and cannot be played
    assert state.legal(2) == state.hands[2] == m(*(f"green{v}" for v in range(1, 8)))
    assert not state.can_play(2, c("yellow1"))
    with pytest.raises(IllegalMove, match="face up"):
        state.verify_play(2, c("yellow1"))
    state.play(2, c("green1"))
    # the card beneath green 1 is revealed only when the trick is over
    assert not state.hands[2] >> c("yellow1") & 1
    assert not state.can_play(2, c("yellow1"))
    state.play(0, c("blue9"))
    assert state.winners == [1]
    assert state.hands[2] >> c("yellow1") & 1
    # now face up, it obliges the dummy to follow yellow
    state.play(1, c("yellow8"))
    assert state.legal(2) == m("yellow1")
    assert not state.can_play(2, c("green2"))
    state.play(2, c("yellow1"))
    state.play(0, c("rocket1"))
    assert state.winners == [1, 0]
    assert state.hands[2] == m(*(f"green{v}" for v in range(2, 8)))  # yellow1 had nothing under


def test_dummy_in_hands_counts_covered_card_during_trick() -> None:
    """Mid-trick, the card under the dummy's played card is still unplayed (in ``in_hands``)."""
    state = GameState(dummy_deal(), tasks=[TaskSpec(c("pink1"), owner=1)])
    state.play(1, c("yellow9"))
    state.play(2, c("green1"))
    played = 2
    assert popcount(state.in_hands) + played == 40
    assert state.in_hands >> c("yellow1") & 1


def test_dummy_game_lasts_13_tricks_and_dummy_keeps_one_card() -> None:
    state = GameState(dummy_deal(), tasks=[TaskSpec(c("pink9"), owner=1)])
    while state.outcome is None:
        legal = [x for x in cards_of(state.legal()) if x != c("pink9")] or cards_of(state.legal())
        state.play(state.to_play, legal[0])
    assert len(state.tricks) == 13
    assert state.hands[0] == state.hands[1] == 0
    assert popcount(state.hands[2]) == 1
    assert state.under == {}
    assert "JARVIS" in state.trace()


def test_trump_mask_constant() -> None:
    assert cards_of(TRUMP_MASK) == [36, 37, 38, 39]
    assert card_name(39, Game.DEEP_SEA) == "sub4"
    assert m(*(f"pink{v}" for v in range(1, 10))) == PINK


@settings(max_examples=200, deadline=None)
@given(
    seats=st.integers(3, 5),
    leader=st.integers(0, 4),
    order=st.permutations(list(range(40))),
    length=st.integers(0, 40),
)
def test_a_line_walked_trick_by_trick(
    seats: int, leader: int, order: list[int], length: int
) -> None:
    """``tricks_of``: the tricks hold the line's cards in order, each complete trick's winner
    is the referee's and leads the next one, and only the last trick may be incomplete."""
    leader %= seats
    plays = order[:length]
    tricks = list(tricks_of(plays, leader, seats))
    assert [c for t in tricks for c in t.cards] == plays
    for t, nxt in zip(tricks, tricks[1:], strict=False):
        assert t.winner == trick_winner(t.cards, t.leader, seats)[0] == nxt.leader
    assert all(len(t.cards) == seats for t in tricks[:-1])
    if tricks and len(tricks[-1].cards) < seats:
        assert tricks[-1].winner is None
    assert tricks[0].leader == leader if tricks else plays == []
