"""Moves other than plain trick play: communication, distress, draft, hand-over, draw, tokens."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from rules_helpers import (
    ANA,
    BETO,
    CARLA,
    DIEGO,
    SUITED_HANDS,
    c,
    dummy_deal,
    m,
    play_trick,
    suited_deal,
    worked_deal,
    worked_state,
)

from crewsim.cards import SUIT_MASK
from crewsim.rules import Claim, Deal, GameState, IllegalMove, TaskSpec, deal_cards
from crewsim.rules.game import Rules, true_claim
from crewsim.rules.order import OMEGA, must_precede, predecessors

PINK = int(SUIT_MASK[0])


def first_trick(state: GameState) -> None:
    """Ana wins with pink 9 and completes pink 1; the hand goes on (blue 9 pending)."""
    play_trick(state, "pink9", "pink5", "yellow2", "pink1")
    assert state.outcome is None and state.winners == [ANA]


def second_trick(state: GameState) -> None:
    play_trick(state, "pink8", "pink3", "yellow3", "pink4")
    assert state.outcome is None and state.winners[-1] == ANA


# ---- communication (rule nuances 5-8) ------------------------------------------------------


def test_true_claim_function() -> None:
    h = m("green9", "green8", "green3", "yellow7")
    assert true_claim(h, c("green9")) is Claim.HIGHEST
    assert true_claim(h, c("green3")) is Claim.LOWEST
    assert true_claim(h, c("yellow7")) is Claim.ONLY
    with pytest.raises(IllegalMove, match="neither"):
        true_claim(h, c("green8"))


def test_communicate_colour_cards_only() -> None:
    state = worked_state()
    for claim in Claim:
        assert not state.can_communicate(ANA, c("rocket4"), claim)
    with pytest.raises(IllegalMove, match="colour card"):
        state.verify_communicate(ANA, c("rocket4"), Claim.ONLY)


def test_communicate_claim_must_be_true() -> None:
    state = worked_state()
    assert state.can_communicate(BETO, c("green9"), Claim.HIGHEST)
    assert not state.can_communicate(BETO, c("green9"), Claim.LOWEST)
    assert not state.can_communicate(BETO, c("green9"), Claim.ONLY)
    assert state.can_communicate(BETO, c("green3"), Claim.LOWEST)
    assert not state.can_communicate(BETO, c("green3"), Claim.HIGHEST)
    for claim in Claim:  # a middle card has no true claim
        assert not state.can_communicate(BETO, c("green8"), claim)
    with pytest.raises(IllegalMove, match="not the lowest"):
        state.verify_communicate(BETO, c("green9"), Claim.LOWEST)
    assert not state.can_communicate(BETO, c("pink9"), Claim.HIGHEST)  # not his card


def test_singleton_must_be_claimed_only() -> None:
    state = worked_state()
    assert state.can_communicate(ANA, c("yellow9"), Claim.ONLY)
    assert not state.can_communicate(ANA, c("yellow9"), Claim.HIGHEST)
    assert not state.can_communicate(ANA, c("yellow9"), Claim.LOWEST)


def test_claim_is_judged_at_that_moment() -> None:
    state = worked_state()
    assert not state.can_communicate(ANA, c("pink8"), Claim.HIGHEST)  # pink 9 still held
    assert state.can_communicate(BETO, c("pink5"), Claim.HIGHEST)
    first_trick(state)
    assert state.can_communicate(ANA, c("pink8"), Claim.HIGHEST)  # now it is
    assert not state.can_communicate(BETO, c("pink5"), Claim.HIGHEST)  # played
    assert state.can_communicate(BETO, c("pink3"), Claim.ONLY)
    assert not state.can_communicate(BETO, c("pink3"), Claim.LOWEST)


def test_communicate_once_per_player() -> None:
    state = worked_state()
    state.communicate(BETO, c("green9"), Claim.HIGHEST)
    assert state.comms == [(BETO, c("green9"), Claim.HIGHEST, 0)]
    with pytest.raises(IllegalMove, match="already"):
        state.verify_communicate(BETO, c("green3"), Claim.LOWEST)
    first_trick(state)
    assert not state.can_communicate(BETO, c("green3"), Claim.LOWEST)
    assert state.can_communicate(CARLA, c("green5"), Claim.HIGHEST)
    state.communicate(CARLA, c("green5"), Claim.HIGHEST)
    assert state.comms[-1] == (CARLA, c("green5"), Claim.HIGHEST, 1)


def test_communicate_only_between_tricks() -> None:
    state = worked_state()
    state.play(ANA, c("pink9"))
    for seat, card, claim in [
        (BETO, c("green9"), Claim.HIGHEST),
        (CARLA, c("green5"), Claim.HIGHEST),
        (ANA, c("yellow9"), Claim.ONLY),
    ]:
        assert not state.can_communicate(seat, card, claim)
    with pytest.raises(IllegalMove, match="between tricks"):
        state.verify_communicate(BETO, c("green9"), Claim.HIGHEST)
    play_trick(state, "pink5", "yellow2", "pink1")
    assert state.can_communicate(BETO, c("green9"), Claim.HIGHEST)


def test_communicate_only_after_tasks_are_taken() -> None:
    state = GameState(worked_deal(), tasks=[TaskSpec(c("pink1"))])
    with pytest.raises(IllegalMove, match="after the tasks"):
        state.verify_communicate(BETO, c("green9"), Claim.HIGHEST)
    state.assign_task(0, ANA)
    assert state.can_communicate(BETO, c("green9"), Claim.HIGHEST)


def test_communication_disrupted_until_trick_n() -> None:
    state = worked_state(Rules(comm_from_trick=3))
    with pytest.raises(IllegalMove, match="disrupted until trick 3"):
        state.verify_communicate(BETO, c("green9"), Claim.HIGHEST)
    first_trick(state)
    assert not state.can_communicate(BETO, c("green9"), Claim.HIGHEST)
    second_trick(state)
    assert state.can_communicate(BETO, c("green9"), Claim.HIGHEST)  # before trick 3


def test_disruption_two_allows_communication_after_first_trick() -> None:
    state = worked_state(Rules(comm_from_trick=2))
    assert not state.can_communicate(BETO, c("green9"), Claim.HIGHEST)
    first_trick(state)
    assert state.can_communicate(BETO, c("green9"), Claim.HIGHEST)


def test_silenced_member_may_not_communicate() -> None:
    state = worked_state(Rules(silenced_member=True))
    with pytest.raises(IllegalMove, match="commander"):
        state.verify_silence(ANA)
    state.silence(BETO)
    assert state.silenced == BETO
    assert not state.can_communicate(BETO, c("green9"), Claim.HIGHEST)
    with pytest.raises(IllegalMove, match="silenced"):
        state.verify_communicate(BETO, c("green9"), Claim.HIGHEST)
    assert state.can_communicate(ANA, c("yellow9"), Claim.ONLY)  # the commander still may
    assert state.can_communicate(CARLA, c("green5"), Claim.HIGHEST)
    with pytest.raises(IllegalMove, match="already silenced"):
        state.verify_silence(CARLA)


def test_silence_needs_the_mission_rule() -> None:
    with pytest.raises(IllegalMove, match="silences nobody"):
        worked_state().verify_silence(BETO)


def test_silence_rejects_unknown_seat() -> None:
    state = worked_state(Rules(silenced_member=True))
    with pytest.raises(IllegalMove):
        state.verify_silence(9)


def test_communicate_rejects_unknown_seat() -> None:
    """An unknown seat is an illegal move, not a crash (IndexError) inside ``can_communicate``."""
    state = worked_state()
    with pytest.raises(IllegalMove):
        state.verify_communicate(9, c("green9"), Claim.HIGHEST)
    assert not state.can_communicate(9, c("green9"), Claim.HIGHEST)


def test_dead_zone_hides_the_claim_in_history() -> None:
    state = worked_state(Rules(communication="dead_zone"))
    # still a true claim: a false one is refused
    assert not state.can_communicate(BETO, c("green9"), Claim.LOWEST)
    state.communicate(BETO, c("green9"), Claim.HIGHEST)
    line = state.history[-1]
    assert line == "P1 communicates green9 (?)"
    assert "highest" not in state.trace()
    assert state.comms == [(BETO, c("green9"), Claim.HIGHEST, 0)]
    assert not state.can_communicate(BETO, c("green3"), Claim.LOWEST)  # still once


def test_normal_communication_shows_the_claim() -> None:
    state = worked_state()
    state.communicate(BETO, c("green3"), Claim.LOWEST)
    assert state.history[-1] == "P1 communicates green3 (lowest)"


def test_no_communication_mission() -> None:
    state = worked_state(Rules(communication="none"))
    with pytest.raises(IllegalMove, match="no communication"):
        state.verify_communicate(BETO, c("green9"), Claim.HIGHEST)


def test_rapture_shared_pool() -> None:
    state = worked_state(Rules(communication="rapture"))  # 4 players: 2 shared tokens
    state.communicate(BETO, c("green9"), Claim.HIGHEST)
    state.communicate(BETO, c("green3"), Claim.LOWEST)  # the same player may use a second
    with pytest.raises(IllegalMove, match="pool is empty"):
        state.verify_communicate(CARLA, c("green5"), Claim.HIGHEST)


def test_rapture_with_two_players_shares_one_token() -> None:
    """The rule says players - 2 tokens, which would silence two players altogether; the
    rulebook leaves the dummy open (reference: EXPO), and we seat it as the third member."""
    state = GameState(
        dummy_deal(), tasks=[TaskSpec(c("pink1"), owner=1)], rules=Rules(communication="rapture")
    )
    state.communicate(0, c("green9"), Claim.HIGHEST)
    with pytest.raises(IllegalMove, match="pool is empty"):
        state.verify_communicate(1, c("yellow9"), Claim.HIGHEST)


def test_dummy_does_not_communicate() -> None:
    state = GameState(dummy_deal(), tasks=[TaskSpec(c("pink1"), owner=1)])
    with pytest.raises(IllegalMove, match="dummy"):
        state.verify_communicate(2, c("green1"), Claim.LOWEST)
    assert state.can_communicate(0, c("green9"), Claim.HIGHEST)


def test_no_communication_after_the_hand() -> None:
    state = GameState(worked_deal(), tasks=[TaskSpec(c("pink1"), owner=ANA)])
    first_trick_cards = ("pink9", "pink5", "yellow2", "pink1")
    play_trick(state, *first_trick_cards)
    assert state.outcome is not None and state.outcome.success
    assert not state.can_communicate(BETO, c("green9"), Claim.HIGHEST)


# ---- distress signal (rule nuance 20) ----------------------------------------------------------

PASSES = [c("blue1"), c("green3"), c("blue6"), c("yellow6")]  # Ana, Beto, Carla, Diego


def test_distress_clockwise() -> None:
    state = worked_state()
    before = list(state.hands)
    state.distress_signal(1, PASSES)
    assert state.distress == 1
    for seat, card in enumerate(PASSES):
        assert not state.hands[seat] >> card & 1
        assert state.hands[(seat + 1) % 4] >> card & 1
    assert sum(bin(h).count("1") for h in state.hands) == 40
    assert [bin(h).count("1") for h in state.hands] == [bin(h).count("1") for h in before]
    assert "clockwise" in state.history[-1]


def test_distress_counter_clockwise() -> None:
    state = worked_state()
    state.distress_signal(-1, PASSES)
    assert state.distress == -1
    for seat, card in enumerate(PASSES):
        assert state.hands[(seat - 1) % 4] >> card & 1
    assert "counter-clockwise" in state.history[-1]


@pytest.mark.parametrize("direction", [0, 2, -2])
def test_distress_one_direction_for_all(direction: int) -> None:
    assert not worked_state().can_distress(direction, PASSES)


@pytest.mark.parametrize(
    "passes",
    [
        [c("rocket4"), c("green3"), c("blue6"), c("yellow6")],  # trump
        [c("blue1"), c("green3"), c("rocket1"), c("yellow6")],  # trump
        [c("blue1"), c("green3"), c("blue6")],  # one short
        [c("blue1"), c("green3"), c("blue6"), c("yellow6"), c("pink2")],  # one too many
        [c("pink5"), c("green3"), c("blue6"), c("yellow6")],  # Ana does not hold pink 5
    ],
)
def test_distress_one_non_trump_card_each(passes: Sequence[int]) -> None:
    state = worked_state()
    assert not state.can_distress(1, passes)
    with pytest.raises(IllegalMove):
        state.distress_signal(1, passes)
    assert state.hands == list(worked_deal().hands)  # nothing moved


def test_distress_only_once() -> None:
    state = worked_state()
    state.distress_signal(1, PASSES)
    back = [c("yellow6"), c("blue1"), c("green3"), c("blue6")]  # now held by 0, 1, 2, 3
    with pytest.raises(IllegalMove, match="already"):
        state.verify_distress(-1, back)


def test_distress_before_first_trick() -> None:
    state = worked_state()
    state.play(ANA, c("pink9"))
    assert not state.can_distress(1, [c("blue1"), c("green3"), c("blue6"), c("yellow6")])
    play_trick(state, "pink5", "yellow2", "pink1")
    with pytest.raises(IllegalMove, match="before the first trick"):
        state.verify_distress(1, PASSES)


def test_distress_before_any_communication() -> None:
    state = worked_state()
    state.communicate(BETO, c("green9"), Claim.HIGHEST)
    with pytest.raises(IllegalMove, match="before any communication"):
        state.verify_distress(1, PASSES)


def test_distress_after_tasks_taken() -> None:
    state = GameState(worked_deal(), tasks=[TaskSpec(c("pink1"))])
    assert not state.can_distress(1, PASSES)


def test_distress_two_players_dummy_passes_face_up() -> None:
    """The commander passes one of the dummy's face-up cards; the card the dummy receives lies
    face up where it lay, on the same face-down card (BGA)."""
    state = GameState(dummy_deal(), tasks=[TaskSpec(c("pink1"), owner=1)])
    assert not state.can_distress(1, [c("blue1"), c("pink2")])  # the dummy passes too
    assert not state.can_distress(1, [c("blue1"), c("pink2"), c("yellow3")])  # face down
    state.distress_signal(1, [c("blue1"), c("pink2"), c("green3")])
    assert state.hands[1] >> c("blue1") & 1 and state.hands[2] >> c("pink2") & 1
    assert state.hands[0] >> c("green3") & 1 and not state.hands[2] >> c("green3") & 1
    assert state.under[c("pink2")] == c("yellow3") and c("green3") not in state.under
    assert state.distress_passes == (c("blue1"), c("pink2"), c("green3"))


# ---- draft order (rule nuance 12) ----------------------------------------------------------------


def five_tasks() -> list[TaskSpec]:
    return [TaskSpec(c(x)) for x in ("pink1", "blue2", "green3", "yellow4", "pink5")]


def test_draft_commander_first_then_clockwise() -> None:
    state = GameState(worked_deal(), tasks=five_tasks())
    with pytest.raises(IllegalMove, match="turn"):
        state.verify_assign_task(0, BETO)
    order = []
    for i in range(5):
        seat = state.next_drafter()
        order.append(seat)
        assert not state.can_assign_task(i, (seat + 1) % 4)
        state.assign_task(i, seat)
    assert order == [0, 1, 2, 3, 0]
    assert [t.owner for t in state.tasks] == order
    assert state.history[0] == "task pink1 -> P0*"


def test_draft_starts_at_commander_seat() -> None:
    rotated = SUITED_HANDS[2:] + SUITED_HANDS[:2]  # rocket 4 at seat 2
    state = GameState(Deal(4, rotated), tasks=five_tasks())
    order = []
    for i in (4, 0, 3, 1, 2):  # any task, in any order: only the drafter is fixed
        order.append(state.next_drafter())
        state.assign_task(i, order[-1])
    assert order == [2, 3, 0, 1, 2]


def test_draft_includes_the_dummy() -> None:
    state = GameState(dummy_deal(), tasks=five_tasks()[:3])
    order = []
    for i in range(3):
        order.append(state.next_drafter())
        state.assign_task(i, order[-1])
    assert order == [1, 2, 0]


def test_draft_errors() -> None:
    state = GameState(worked_deal(), tasks=five_tasks())
    state.assign_task(2, ANA)
    with pytest.raises(IllegalMove, match="already taken"):
        state.verify_assign_task(2, BETO)
    with pytest.raises(IllegalMove, match="no task"):
        state.verify_assign_task(7, BETO)
    with pytest.raises(IllegalMove, match="no seat"):
        state.verify_assign_task(0, 4)
    with pytest.raises(IllegalMove, match="all tasks"):
        state.verify_play(ANA, c("pink9"))


def test_free_allocation_has_no_draft_order() -> None:
    state = GameState(worked_deal(), tasks=five_tasks(), rules=Rules(allocation="free"))
    state.assign_task(0, DIEGO)
    state.assign_task(1, DIEGO)
    assert [t.owner for t in state.tasks[:2]] == [DIEGO, DIEGO]


def test_commander_distributes_evenly() -> None:
    """Planet Nine 24/32/36/43: five tasks at four seats end 2-1-1-1 in any order (BGA keeps
    the seats at most one task apart), so a seat with two gets no third and, once one seat
    has two, nobody else gets a second."""
    rules = Rules(allocation="commander_distributes")
    state = GameState(worked_deal(), tasks=five_tasks(), rules=rules)
    state.assign_task(0, BETO)
    state.assign_task(1, BETO)
    with pytest.raises(IllegalMove, match="distributes evenly"):
        state.verify_assign_task(2, BETO)
    state.assign_task(2, ANA)
    assert not state.can_assign_task(3, ANA)
    state.assign_task(3, DIEGO)
    state.assign_task(4, CARLA)
    assert sorted(t.owner for t in state.tasks) == [ANA, BETO, BETO, CARLA, DIEGO]


def test_one_member_takes_every_task_and_is_not_the_commander() -> None:
    """Planet Nine 20/27/37: the commander gives all the tasks to one other crew member."""
    state = GameState(worked_deal(), tasks=five_tasks(), rules=Rules(allocation="one_member"))
    with pytest.raises(IllegalMove, match="to another"):
        state.verify_assign_task(0, state.commander)
    other = (state.commander + 1) % state.seats
    state.assign_task(0, other)
    with pytest.raises(IllegalMove, match="same crew member"):
        state.verify_assign_task(1, (other + 1) % state.seats)
    for k in range(1, 5):
        state.assign_task(k, other)
    assert {t.owner for t in state.tasks} == {other}


# ---- 5-player task hand-over (rule nuance 14) --------------------------------------------------


def five_player_state(rules: Rules) -> GameState:
    deal = deal_cards(5, np.random.default_rng(5))
    tasks = [TaskSpec(c("pink1"), owner=0), TaskSpec(c("blue1"), owner=1)]
    return GameState(deal, tasks=tasks, rules=rules)


def test_hand_over_once_in_five_player_game() -> None:
    state = five_player_state(Rules(task_handover_5p=True))
    with pytest.raises(IllegalMove, match="its owner"):
        state.verify_hand_over(0, 0)
    state.hand_over(0, 3)
    assert state.tasks[0].owner == 3
    with pytest.raises(IllegalMove, match="only one"):
        state.verify_hand_over(1, 2)


def test_hand_over_needs_rule_and_five_players() -> None:
    with pytest.raises(IllegalMove, match="5-player"):
        five_player_state(Rules()).verify_hand_over(0, 3)
    with pytest.raises(IllegalMove, match="5-player"):
        worked_state(Rules(task_handover_5p=True)).verify_hand_over(0, 2)


def test_hand_over_rejects_unknown_seat() -> None:
    state = five_player_state(Rules(task_handover_5p=True))
    with pytest.raises(IllegalMove):
        state.verify_hand_over(0, 7)


# ---- card draw (Planet Nine mission 12) --------------------------------------------------------


def test_card_draw_after_first_trick() -> None:
    state = worked_state(Rules(card_draw_after_trick=1))
    with pytest.raises(IllegalMove, match="right after trick 1"):
        state.verify_draw([c("yellow6"), c("pink2"), c("pink3"), c("blue6")])
    first_trick(state)
    with pytest.raises(IllegalMove, match="drawn before"):
        state.verify_play(ANA, c("pink8"))
    draws = [c("yellow6"), c("pink2"), c("pink3"), c("blue6")]  # each from the right neighbour
    assert not state.can_play(ANA, c("pink8"))
    state.draw_cards(draws)
    assert state.hands[ANA] >> c("yellow6") & 1 and not state.hands[DIEGO] >> c("yellow6") & 1
    assert state.hands[DIEGO] >> c("blue6") & 1 and not state.hands[CARLA] >> c("blue6") & 1
    with pytest.raises(IllegalMove, match="already"):
        state.verify_draw(draws)
    assert state.can_play(ANA, c("pink8"))
    assert state.draws == tuple(draws)


def test_card_draw_never_takes_a_communicated_card() -> None:
    """A communicated card lies face up on the table: the neighbour cannot draw it (BGA)."""
    state = worked_state(Rules(card_draw_after_trick=1))
    state.communicate(DIEGO, c("yellow6"), Claim.HIGHEST)
    first_trick(state)
    assert c("yellow6") in state.shown(DIEGO)
    with pytest.raises(IllegalMove, match="face up"):
        state.verify_draw([c("yellow6"), c("pink2"), c("pink3"), c("blue6")])
    state.draw_cards([c("yellow1"), c("pink2"), c("pink3"), c("blue6")])
    assert state.hands[DIEGO] >> c("yellow6") & 1


def test_card_draw_two_players_jarvis_gives_and_takes_face_down() -> None:
    """JARVIS gives one of its face-down cards and the card it draws goes face down in that
    place: its face-up cards do not change (BGA)."""
    state = GameState(dummy_deal(), tasks=[], rules=Rules(card_draw_after_trick=1))
    play_trick(state, "pink9", "green1", "blue1")  # seat 1 leads; the dummy shows yellow 1
    up = state.hands[2]
    assert up >> c("yellow1") & 1
    with pytest.raises(IllegalMove, match="cannot draw"):  # a face-up card of JARVIS
        state.verify_draw([c("green2"), c("blue2"), c("pink8")])
    state.draw_cards([c("yellow2"), c("blue2"), c("pink8")])
    assert state.hands[2] == up and state.under[c("green2")] == c("pink8")
    assert state.hands[0] >> c("yellow2") & 1 and state.hands[1] >> c("blue2") & 1
    assert not state.hands[1] >> c("pink8") & 1


# ---- order tokens (rule nuance 13) -------------------------------------------------------------


def token_state(*specs: tuple[str, str | None], rules: Rules | None = None) -> GameState:
    """Suited deal, every task owned by seat 0 (who wins every trick it leads with a pink)."""
    tasks = [TaskSpec(c(card), token, 0) for card, token in specs]
    return GameState(suited_deal(), tasks=tasks, rules=rules or Rules())


def seat0_wins(state: GameState, blue: str, green: str, yellow: str) -> None:
    """Seat 0 leads its highest pink; the others discard the named cards (void in pink)."""
    lead = max(x for x in range(9) if state.hands[0] >> x & 1)
    state.play(0, lead)
    play_trick(state, blue, green, yellow)
    assert state.winners[-1] == 0


def test_numbered_tokens_in_order() -> None:
    state = token_state(("blue1", "1"), ("green1", "2"), ("yellow1", "3"))
    seat0_wins(state, "blue1", "green9", "yellow9")
    assert state.outcome is None
    seat0_wins(state, "blue9", "green1", "yellow8")
    assert state.outcome is None
    seat0_wins(state, "blue8", "green8", "yellow1")
    assert state.outcome is not None and state.outcome.success and state.outcome.trick == 2


def test_numbered_tokens_out_of_order_fail_at_once() -> None:
    state = token_state(("blue1", "1"), ("green1", "2"), ("yellow1", "3"))
    seat0_wins(state, "blue9", "green1", "yellow9")
    assert state.outcome is not None and not state.outcome.success
    assert state.outcome.trick == 0
    assert "green1" in state.outcome.reason and "order" in state.outcome.reason


def test_unnumbered_task_after_numbered_ones() -> None:
    early = token_state(("blue1", "1"), ("green1", None))
    seat0_wins(early, "blue9", "green1", "yellow9")
    assert early.outcome is not None and not early.outcome.success

    fine = token_state(("blue1", "1"), ("green1", None))
    seat0_wins(fine, "blue1", "green9", "yellow9")
    seat0_wins(fine, "blue9", "green1", "yellow8")
    assert fine.outcome is not None and fine.outcome.success


@pytest.mark.parametrize(("first", "second"), [("1", "2"), ("2", "1"), (">", ">>")])
def test_same_trick_completion_keeps_order(first: str, second: str) -> None:
    state = token_state(("blue1", first), ("green1", second))
    seat0_wins(state, "blue1", "green1", "yellow9")
    assert state.outcome is not None and state.outcome.success


def test_arrows_relative_order_unmarked_free() -> None:
    ok = token_state(("blue1", ">"), ("green1", ">>"), ("yellow1", None))
    seat0_wins(ok, "blue9", "green9", "yellow1")  # unmarked first: fine
    assert ok.outcome is None
    seat0_wins(ok, "blue1", "green8", "yellow9")
    assert ok.outcome is None
    seat0_wins(ok, "blue8", "green1", "yellow8")
    assert ok.outcome is not None and ok.outcome.success

    bad = token_state(("blue1", ">"), ("green1", ">>"), ("yellow1", None))
    seat0_wins(bad, "blue9", "green1", "yellow9")
    assert bad.outcome is not None and not bad.outcome.success
    assert bad.outcome.trick == 0


def test_arrows_three_before_two_fails() -> None:
    state = token_state(("blue1", ">>"), ("green1", ">>>"))
    seat0_wins(state, "blue9", "green1", "yellow9")
    assert state.outcome is not None and not state.outcome.success


def test_omega_must_be_last() -> None:
    bad = token_state(("blue1", OMEGA), ("green1", None))
    seat0_wins(bad, "blue1", "green9", "yellow9")
    assert bad.outcome is not None and not bad.outcome.success and bad.outcome.trick == 0

    ok = token_state(("blue1", OMEGA), ("green1", None))
    seat0_wins(ok, "blue9", "green1", "yellow9")
    seat0_wins(ok, "blue1", "green9", "yellow8")
    assert ok.outcome is not None and ok.outcome.success

    same = token_state(("blue1", OMEGA), ("green1", "1"))
    seat0_wins(same, "blue1", "green1", "yellow9")
    assert same.outcome is not None and same.outcome.success


def test_omega_last_trick_rule() -> None:
    rules = Rules(objectives=(("omega_last_trick", {}),))
    early = token_state(("blue1", OMEGA), rules=rules)
    seat0_wins(early, "blue1", "green9", "yellow9")
    assert early.outcome is not None and not early.outcome.success
    assert "before the last" in early.outcome.reason

    plain = token_state(("blue1", OMEGA))
    seat0_wins(plain, "blue1", "green9", "yellow9")
    assert plain.outcome is not None and plain.outcome.success

    last = token_state(("blue1", OMEGA), rules=rules)
    for k in range(9, 1, -1):
        play_trick(last, f"pink{k}", f"blue{k}", f"green{k}", f"yellow{k}")
    play_trick(last, "pink1", "rocket3", "green1", "yellow1")  # seat 1 trumps, leads last
    assert last.outcome is None and last.to_play == 1
    play_trick(last, "blue1", "rocket2", "rocket1", "rocket4")
    assert len(last.tricks) == 10
    assert last.outcome is not None and last.outcome.success and last.outcome.trick == 9


def test_task_won_by_wrong_player_fails_at_once() -> None:
    state = GameState(suited_deal(), tasks=[TaskSpec(c("blue1"), "1", 2)])
    seat0_wins(state, "blue1", "green9", "yellow9")
    assert state.outcome is not None and not state.outcome.success
    assert state.outcome.trick == 0
    assert state.outcome.reason == "task blue1 won by P0*"


def test_must_precede_relation() -> None:
    assert must_precede("1", "2") and not must_precede("2", "1")
    assert must_precede("1", None) and must_precede("5", ">")
    assert not must_precede(None, "1")  # unnumbered tasks come after numbered ones
    assert must_precede(">", ">>") and not must_precede(">>", ">")
    assert not must_precede(None, ">") and not must_precede(">", None)
    assert must_precede(None, OMEGA) and must_precede("1", OMEGA) and must_precede(">", OMEGA)
    assert not must_precede(OMEGA, None) and not must_precede(OMEGA, OMEGA)
    assert not must_precede(None, None)
    assert predecessors(["1", "2", None, OMEGA]) == [0b0000, 0b0001, 0b0011, 0b0111]
    assert predecessors([">", ">>", None]) == [0, 0b001, 0]
