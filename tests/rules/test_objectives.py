"""The special objectives' judges (rule nuance 18), alone and inside a game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from rules_helpers import (
    SUITED_HANDS,
    c,
    play_trick,
    suited_deal,
    worked_state,
)

from crewsim.cards import FULL_DECK, SUIT_MASK, mask_of
from crewsim.rules import GameState, IllegalMove, TaskSpec, trick_winner
from crewsim.rules.game import Rules
from crewsim.rules.objectives import JUDGES, HandSoFar, Verdict

PINK = int(SUIT_MASK[0])


# ---- special objectives (rule nuance 18) -----------------------------------------------------


def hsf(
    tricks: Sequence[tuple[str, ...]],
    *,
    n_tricks: int = 10,
    commander: int = 0,
    designated: tuple[int, ...] = (),
    in_hands: int | None = None,
) -> HandSoFar:
    """A suited-deal HandSoFar: tricks in play order, the first led by ``commander``."""
    leader, cards_t, winners, wcards = commander, [], [], []
    for names in tricks:
        cards = tuple(c(x) for x in names)
        w, wc = trick_winner(cards, leader, 4)
        cards_t.append(cards)
        winners.append(w)
        wcards.append(wc)
        leader = w
    played = mask_of(x for t in cards_t for x in t)
    return HandSoFar(
        tricks=tuple(cards_t),
        winners=tuple(winners),
        winning_cards=tuple(wcards),
        in_hands=FULL_DECK & ~played if in_hands is None else in_hands,
        n_tricks=n_tricks,
        seats=4,
        commander=commander,
        designated=designated,
        start_hands=SUITED_HANDS,
    )


def judge(kind: str, h: HandSoFar, **params: Any) -> Verdict:
    p: Mapping[str, Any] = params
    return JUDGES[kind](h, p)


S0_WINS = ("pink9", "blue1", "green1", "yellow1")  # led by 0, won by 0 with pink 9
S1_TRUMPS = ("pink9", "rocket3", "green1", "yellow1")  # led by 0, won by 1 with rocket 3


def test_player_wins_no_tricks() -> None:
    k, d = "player_wins_no_tricks", (1,)
    assert judge(k, hsf([S0_WINS], designated=d)) is Verdict.PENDING
    assert judge(k, hsf([S1_TRUMPS], designated=d)) is Verdict.FAILED
    assert judge(k, hsf([S0_WINS], designated=d, n_tricks=1)) is Verdict.DONE


def test_colour_ones_win() -> None:
    k = "colour_ones_win"
    assert judge(k, hsf([("pink1", "blue2", "green2", "yellow2")]), count=1) is Verdict.DONE
    assert judge(k, hsf([S0_WINS]), count=1) is Verdict.PENDING  # pink 1 still out
    assert judge(k, hsf([S0_WINS], n_tricks=1), count=1) is Verdict.FAILED  # no tricks left
    all_ones_gone = [S0_WINS, ("pink1", "rocket3", "green2", "yellow2")]
    assert judge(k, hsf(all_ones_gone), count=1) is Verdict.FAILED
    one = [("pink1", "blue2", "green2", "yellow2")]
    assert judge(k, hsf(one), count=2) is Verdict.PENDING
    assert judge(k, hsf(one, n_tricks=1), count=2) is Verdict.FAILED


def test_each_trump_wins() -> None:
    k = "each_trump_wins"
    assert judge(k, hsf([("pink9", "rocket3", "rocket2", "yellow1")])) is Verdict.FAILED
    assert judge(k, hsf([S1_TRUMPS])) is Verdict.PENDING
    assert judge(k, hsf([S1_TRUMPS]), ordered=True) is Verdict.FAILED  # rocket 3 before 1
    r1 = ("pink9", "blue1", "green1", "rocket1")
    assert judge(k, hsf([r1]), ordered=True) is Verdict.PENDING
    assert judge(k, hsf([r1], n_tricks=1)) is Verdict.FAILED  # last trick, trumps left
    four = [
        r1,  # seat 3 wins with rocket 1
        ("yellow9", "pink8", "blue2", "rocket2"),  # seat 2
        ("green9", "yellow8", "pink7", "rocket3"),  # seat 1
        ("blue9", "green8", "yellow7", "rocket4"),  # seat 0
    ]
    assert hsf(four).winners == (3, 2, 1, 0)
    assert judge(k, hsf(four), ordered=True) is Verdict.DONE
    assert judge(k, hsf(four)) is Verdict.DONE


def test_no_win_with_rank() -> None:
    k = "no_win_with_rank"
    assert judge(k, hsf([S0_WINS]), rank=9) is Verdict.FAILED
    p8 = ("pink8", "blue1", "green1", "yellow1")
    assert judge(k, hsf([p8]), rank=9) is Verdict.PENDING
    assert judge(k, hsf([p8], n_tricks=1), rank=9) is Verdict.DONE
    nines_gone = [("pink8", "blue9", "green9", "yellow9"), S1_TRUMPS]
    assert judge(k, hsf(nines_gone), rank=9) is Verdict.DONE


def test_balanced_tricks() -> None:
    k = "balanced_tricks"
    assert judge(k, hsf([S0_WINS]), max_lead=1) is Verdict.PENDING
    two = [S0_WINS, ("pink8", "blue2", "green2", "yellow2")]
    assert judge(k, hsf(two), max_lead=1) is Verdict.FAILED
    assert judge(k, hsf(two), max_lead=2) is Verdict.PENDING
    rota = [
        S0_WINS,
        ("pink8", "rocket3", "green2", "yellow2"),  # seat 1
        ("blue9", "rocket2", "yellow3", "pink7"),  # seat 2
        ("green9", "rocket1", "pink6", "blue8"),  # seat 3
    ]
    assert hsf(rota).winners == (0, 1, 2, 3)
    assert judge(k, hsf(rota, n_tricks=4), max_lead=1) is Verdict.DONE
    assert judge(k, hsf(rota[:2]), max_lead=1, commander_first_last=True) is Verdict.PENDING
    assert judge(k, hsf([S1_TRUMPS]), max_lead=1, commander_first_last=True) is Verdict.FAILED
    last_not_cmdr = judge(k, hsf(rota, n_tricks=4), max_lead=1, commander_first_last=True)
    assert last_not_cmdr is Verdict.FAILED


def test_player_exactly_one_trick() -> None:
    k, d = "player_exactly_one_trick", (1,)
    assert judge(k, hsf([S1_TRUMPS], designated=d)) is Verdict.PENDING
    assert judge(k, hsf([S1_TRUMPS], designated=d), no_trump_win=True) is Verdict.FAILED
    twice = [S1_TRUMPS, ("blue9", "green2", "yellow2", "pink2")]
    assert judge(k, hsf(twice, designated=d)) is Verdict.FAILED
    assert judge(k, hsf([S1_TRUMPS], designated=d, n_tricks=1)) is Verdict.DONE
    assert judge(k, hsf([S0_WINS], designated=d, n_tricks=1)) is Verdict.FAILED
    plain = [("blue9", "green1", "yellow1", "pink1")]  # led and won by seat 1, no trump
    assert judge(k, hsf(plain, commander=1, designated=d, n_tricks=1), no_trump_win=True) is (
        Verdict.DONE
    )


def test_player_first_and_last_only() -> None:
    k, d = "player_first_and_last_only", (1,)
    assert judge(k, hsf([S0_WINS], designated=d)) is Verdict.FAILED
    b9 = ("blue9", "green1", "yellow1", "pink1")  # seat 1 leads and wins
    assert judge(k, hsf([b9], commander=1, designated=d)) is Verdict.PENDING
    again = [b9, ("blue8", "green2", "yellow2", "pink2")]
    assert judge(k, hsf(again, commander=1, designated=d)) is Verdict.FAILED
    assert judge(k, hsf(again, commander=1, designated=d, n_tricks=2)) is Verdict.DONE
    three = [
        b9,
        ("blue8", "green2", "yellow2", "rocket4"),
        ("pink9", "rocket3", "green3", "yellow3"),
    ]
    assert hsf(three, commander=1).winners == (1, 0, 1)
    assert judge(k, hsf(three[:2], commander=1, designated=d, n_tricks=3)) is Verdict.PENDING
    assert judge(k, hsf(three, commander=1, designated=d, n_tricks=3)) is Verdict.DONE
    with_trump = judge(k, hsf(three, commander=1, designated=d, n_tricks=3), no_trump_win=True)
    assert with_trump is Verdict.FAILED


def test_left_of_pink9_wins_pink() -> None:
    k = "left_of_pink9_wins_pink"  # seat 0 holds pink 9: seat 1 must win every pink
    assert judge(k, hsf([S0_WINS])) is Verdict.FAILED
    assert judge(k, hsf([S1_TRUMPS])) is Verdict.PENDING
    no_pink = ("blue9", "green1", "yellow1", "rocket4")  # seat 0 wins, but no pink inside
    assert judge(k, hsf([no_pink], commander=1)) is Verdict.PENDING
    played = mask_of(c(x) for x in S1_TRUMPS)
    pinks_gone = FULL_DECK & ~played & ~PINK
    assert judge(k, hsf([S1_TRUMPS], in_hands=pinks_gone)) is Verdict.DONE
    # pinks left after the last trick are the card never played (2 and 3 players), not lost
    assert judge(k, hsf([S1_TRUMPS], n_tricks=1)) is Verdict.DONE


def test_role_split() -> None:
    k, d = "role_split", (1, 2)
    p = {"first": 1, "last": 1}
    assert judge(k, hsf([S1_TRUMPS], designated=d), **p) is Verdict.PENDING
    assert judge(k, hsf([S0_WINS], designated=d), **p) is Verdict.FAILED
    a_again = [S1_TRUMPS, ("blue9", "green2", "yellow2", "pink2")]
    assert judge(k, hsf(a_again, designated=d, n_tricks=3), **p) is Verdict.FAILED
    mid = [S1_TRUMPS, ("blue9", "green2", "rocket1", "pink2")]  # seat 3 wins the middle
    assert judge(k, hsf(mid, designated=d, n_tricks=3), **p) is Verdict.PENDING
    good = [*mid, ("yellow9", "pink3", "blue8", "rocket2")]  # seat 2 wins the last
    assert hsf(good).winners == (1, 3, 2)
    assert judge(k, hsf(good, designated=d, n_tricks=3), **p) is Verdict.DONE
    bad = [*mid, ("yellow9", "pink3", "blue8", "green3")]  # seat 3 wins the last
    assert judge(k, hsf(bad, designated=d, n_tricks=3), **p) is Verdict.FAILED


def test_deep_sea_balance_of_rank_wins() -> None:
    p = {"rank": 9, "max_difference": 1}
    assert judge("balance_rank_wins", hsf([S0_WINS]), **p) is Verdict.PENDING
    two = [S0_WINS, ("pink8", "blue9", "green2", "yellow2")]  # seat 0 takes blue 9 too
    assert judge("balance_rank_wins", hsf(two), **p) is Verdict.FAILED
    assert judge("balance_rank_wins", hsf([S0_WINS], in_hands=0), **p) is Verdict.DONE


def test_deep_sea_forbidden_leads() -> None:
    p = {"suits": ("pink", "trump")}
    blue = ("blue1", "pink2", "green1", "yellow1")
    assert judge("no_lead_suits", hsf([blue]), **p) is Verdict.PENDING
    assert judge("no_lead_suits", hsf([blue], n_tricks=1), **p) is Verdict.DONE
    assert judge("no_lead_suits", hsf([S0_WINS]), **p) is Verdict.FAILED


def test_deep_sea_first_trick_winner_stays_ahead() -> None:
    assert judge("first_trick_winner_most", hsf([S0_WINS])) is Verdict.PENDING
    assert judge("first_trick_winner_most", hsf([S0_WINS], n_tricks=1)) is Verdict.DONE
    tie = [S0_WINS, ("blue1", "rocket3", "green1", "yellow2")]
    assert judge("first_trick_winner_most", hsf(tie)) is Verdict.FAILED


def test_deep_sea_card_last_in_final_trick() -> None:
    p = {"card": "yellow5"}
    last = ("pink9", "blue1", "green1", "yellow5")
    assert judge("card_last_in_final_trick", hsf([S0_WINS]), **p) is Verdict.PENDING
    assert judge("card_last_in_final_trick", hsf([last], n_tricks=1), **p) is Verdict.DONE
    assert judge("card_last_in_final_trick", hsf([last], n_tricks=2), **p) is Verdict.FAILED
    assert judge("card_last_in_final_trick", hsf([S0_WINS], n_tricks=1), **p) is Verdict.FAILED


def test_every_judge_is_tested() -> None:
    tested = {
        "balance_rank_wins",
        "no_lead_suits",
        "first_trick_winner_most",
        "card_last_in_final_trick",
        "player_wins_no_tricks",
        "colour_ones_win",
        "each_trump_wins",
        "no_win_with_rank",
        "balanced_tricks",
        "player_exactly_one_trick",
        "player_first_and_last_only",
        "left_of_pink9_wins_pink",
        "role_split",
    }
    assert set(JUDGES) == tested


# ---- objectives inside a game ------------------------------------------------------------------


def test_objective_designation_and_failure_in_game() -> None:
    rules = Rules(objectives=(("player_wins_no_tricks", {}),))
    state = GameState(suited_deal(), tasks=[TaskSpec(c("blue9"), owner=0)], rules=rules)
    with pytest.raises(IllegalMove, match="designate"):
        state.verify_play(0, c("pink9"))
    with pytest.raises(IllegalMove, match="themself"):
        state.verify_designate([0])
    with pytest.raises(IllegalMove, match="1 crew member"):
        state.verify_designate([1, 2])
    state.designate([1])
    with pytest.raises(IllegalMove, match="already"):
        state.verify_designate([2])
    play_trick(state, *S1_TRUMPS)
    assert state.outcome is not None and not state.outcome.success
    assert state.outcome.reason == "objective player_wins_no_tricks failed"


def test_objective_done_and_tasks_done_is_success() -> None:
    rules = Rules(objectives=(("colour_ones_win", {"count": 1}),))
    state = GameState(suited_deal(), tasks=[TaskSpec(c("blue2"), owner=0)], rules=rules)
    play_trick(state, "pink1", "blue2", "green2", "yellow2")
    assert state.outcome is not None and state.outcome.success and state.outcome.trick == 0


def test_objective_pending_keeps_hand_going_after_tasks() -> None:
    rules = Rules(objectives=(("colour_ones_win", {"count": 1}),))
    state = GameState(suited_deal(), tasks=[TaskSpec(c("blue2"), owner=0)], rules=rules)
    play_trick(state, "pink9", "blue2", "green2", "yellow2")
    assert state.outcome is None  # task done, objective pending
    play_trick(state, "pink1", "blue3", "green3", "yellow3")
    assert state.outcome is not None and state.outcome.success and state.outcome.trick == 1


def test_role_split_lets_commander_be_designated() -> None:
    rules = Rules(objectives=(("role_split", {"first": 1, "last": 1}),))
    state = GameState(suited_deal(), tasks=[], rules=rules)
    state.designate([0, 1])
    assert state.designated == (0, 1)


def test_designation_needs_an_objective() -> None:
    with pytest.raises(IllegalMove, match="designates no crew member"):
        worked_state().verify_designate([1])
