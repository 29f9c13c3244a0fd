"""Every Deep Sea condition kind on rigged hands: done, failed and still pending.

Cases are a table so the guard test can insist that each kind on the shipped 96 cards has a
judge and all three verdicts covered.  ``rig`` builds a snapshot from tricks written in play
order (the leader's card first); a short ``n_tricks`` stands for "the hand ends here".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pytest

from crewsim.cards import FULL_DECK, cards_of, mask_of, parse_card
from crewsim.missions import get_task_card, load_task_cards
from crewsim.missions.schema import TaskKind
from crewsim.rules import GameState
from crewsim.rules.conditions import JUDGES, TaskSnapshot, judge
from crewsim.rules.deal import Deal, deal_cards
from crewsim.rules.objectives import Verdict
from crewsim.rules.play import legal_plays, n_tricks, trick_winner
from crewsim.rules.task_cards import HeldTask, PlayRecord, judge_tasks, snapshot
from tests.rules.rules_helpers import Record

D, F, P = Verdict.DONE, Verdict.FAILED, Verdict.PENDING


def rig(
    tricks: Sequence[str] = (),
    *,
    players: int = 4,
    owner: int = 0,
    captain: int = 0,
    hands: dict[int, str] | None = None,
    n: int | None = None,
    predicted: int | None = None,
) -> TaskSnapshot:
    """Snapshot after ``tricks``; "2: g1 g2 g3 g4" names the leader, else the last winner leads.

    Seats listed in ``hands`` hold exactly those cards; every other unplayed card is spread
    over the remaining seats (none left over if all seats are listed).
    """
    seats = 3 if players == 2 else players
    leader, played = captain, 0
    cards_list: list[tuple[int, ...]] = []
    leaders: list[int] = []
    for spec in tricks:
        if ":" in spec:
            head, spec = spec.split(":")
            leader = int(head)
        cards = tuple(parse_card(x) for x in spec.split())
        assert len(cards) == seats
        cards_list.append(cards)
        leaders.append(leader)
        played |= mask_of(cards)
        leader = trick_winner(cards, leader, seats)[0]
    fixed = {s: mask_of(parse_card(x) for x in h.split()) for s, h in (hands or {}).items()}
    masks = [fixed.get(s, 0) for s in range(seats)]
    free = [s for s in range(seats) if s not in fixed]
    rest = FULL_DECK & ~played
    for m in fixed.values():
        assert not m & played
        rest &= ~m
    for i, c in enumerate(cards_of(rest) if free else []):
        masks[free[i % len(free)]] |= 1 << c
    return TaskSnapshot.from_play(
        cards_list,
        leaders,
        masks,
        n if n is not None else n_tricks(players),
        captain,
        players,
        owner,
        predicted,
    )


NO_COLOURS_LEFT = {0: "s1", 1: "s2", 2: "s3", 3: "s4"}  # only subs live
NO_SUBS_LEFT = {0: "g5", 1: "g6", 2: "g7", 3: "g8"}
W1, W2, W3 = "p9 p1 p2 p3", "b9 b1 b2 b3", "g9 g1 g2 g3"  # owner (seat 0) leads and wins
LOSE = "p4 p8 p5 p6"  # owner leads, seat 1 wins (seat 1 leads next)


@dataclass(frozen=True)
class Case:
    ref: str  # shipped card (number or ref_id): its kind and params are judged
    snap: TaskSnapshot
    want: Verdict
    why: str
    extra: dict[str, object] = field(default_factory=dict)


def case(ref: str, want: Verdict, why: str, *tricks: str, **kw: object) -> Case:
    return Case(ref, rig(tricks, **kw), want, why)  # type: ignore[arg-type]


CASES: list[Case] = [
    # never_win_consecutive_tricks
    case("neverTwoTricksInARow", F, "two wins in a row", W1, W2),
    case("neverTwoTricksInARow", P, "one win, tricks left", W1),
    case("neverTwoTricksInARow", D, "last trick cannot extend a run", W1, LOSE, n=3),
    # never_lead_color
    case("noLeadRedGreen", F, "owner leads pink", W1),
    case("noLeadRedGreen", P, "still holds pink", W2, hands={0: "p5 g5 y5"}),
    case("noLeadRedGreen", D, "no pink/green left", W2, hands={0: "b8 y5"}),
    case("noLeadRedGreen", P, "others leading pink is fine", "b4 b8 b5 b6", "1: p7 y9 y8 y7"),
    # win_exactly_n_tricks
    case("exactly1trick", F, "two wins", W1, W2),
    case("exactly1trick", F, "cannot reach 1", LOSE, n=1),
    case("exactly1trick", P, "one win, tricks left", W1),
    case("exactly1trick", D, "one win at the end", W1, LOSE, n=2),
    case("0tricks", F, "won a trick", W1),
    case("0tricks", D, "no trick at the end", LOSE, n=1),
    case("0tricks", P, "no trick yet", LOSE),
    # win_consecutive_tricks_at_least
    case("2tricksInARow", D, "two in a row", W1, W2),
    case("2tricksInARow", P, "one so far", W1),
    case("2tricksInARow", F, "one trick left, no open run", W1, LOSE, n=3),
    # win_rank_with_rank
    case("5with7", D, "pink 7 wins with pink 5 in it", "p7 p5 b1 b2"),
    case("5with7", F, "no 7 left in owner's hand", W1, hands={0: "b8"}),
    case("5with7", P, "owner still holds a 7", W1, hands={0: "y7 b8"}),
    case("6with6", D, "6 wins with another 6", "p6 b6 b1 b2"),
    case("6with6", P, "only one 6 in the trick", "p6 p1 p2 p3", hands={0: "y6"}),
    case("6with6", F, "owner's 6 has no other 6 left to catch", "p9 b6 g6 y6", hands={0: "p6"}),
    # win_trick_all_ranks_parity
    case("onlyEvenTrick", D, "all even", "p8 p2 p4 p6"),
    case("onlyEvenTrick", P, "a 9 in it", "p9 p2 p4 p6"),
    case("onlyEvenTrick", F, "end of hand", "p9 p2 p4 p6", n=1),
    case("onlyEvenTrick", P, "a submarine spoils it", "s4 p2 p4 p6"),
    case("onlyOddTrick", D, "all odd", "p9 p1 p3 p5"),
    case(
        "onlyOddTrick", F, "too few odd cards left", W1, hands={0: "p4", 1: "p6", 2: "b1", 3: "b2"}
    ),
    case("onlyOddTrick", P, "odd cards left", W1),
    # win_trick_with_rank
    case("trickWith2", D, "pink 2 wins", "p2 b9 g9 y9"),
    case("trickWith2", P, "owner holds a 2", W1, hands={0: "y2"}),
    case("trickWith2", F, "owner holds no 2", W1, hands={0: "y3"}),
    case("trickWith2", F, "a submarine 2 is not a 2", "s2 p4 p5 p6", hands={0: "y3"}),
    # win_trick_all_ranks_gt
    case("allGreater5", D, "all above 5", "p9 p6 p7 p8"),
    case("allGreater5", P, "a 1 in it", W1),
    case("allGreater5", F, "end of hand", W1, n=1),
    # win_trick_all_ranks_lt
    case("allLess7", D, "all below 7", "p6 p1 p2 p3"),
    case("allLess7", P, "a 9 in it", W1),
    case("allLess7", P, "a submarine spoils it", "s1 p1 p2 p3"),
    case("allLess7", F, "end of hand", W1, n=1),
    # win_trick_sum_gt (4p: > 28; 2p uses the 3-player 23)
    case("sumAbove", D, "four 9s = 36", "p9 b9 g9 y9"),
    case("sumAbove", P, "sum 15", W1),
    case(
        "sumAbove",
        F,
        "the highest live cards sum 10",
        W1,
        hands={0: "b1", 1: "b2", 2: "b3", 3: "b4"},
    ),
    case("sumAbove", D, "2 players: 26 > 23", "p9 b9 g8", players=2),
    # win_trick_sum_lt (4p: < 12)
    case("sumBelow", D, "sum 10", "p4 p1 p2 p3"),
    case("sumBelow", P, "sum 15", W1),
    case("sumBelow", F, "lowest live cards sum 30", W1, hands={0: "b9", 1: "b8", 2: "b7", 3: "b6"}),
    # win_trick_sum_in
    case("value22or23", D, "sum 22", "p9 p8 p4 b1"),
    case("value22or23", P, "sum 15", W1),
    case("value22or23", F, "at most 10 reachable", W1, hands={0: "b1", 1: "b2", 2: "b3", 3: "b4"}),
    # win_trick_equal_colors
    case("equalGreenYellowInTrick", D, "1 green 1 yellow", "g9 y1 p1 p2"),
    case("equalGreenYellowInTrick", P, "2 green 1 yellow", "g9 g1 y1 p2"),
    case(
        "equalGreenYellowInTrick",
        F,
        "no yellow left",
        W1,
        hands={0: "g5", 1: "p5", 2: "b5", 3: "b6"},
    ),
    # win_equal_colors_total
    case("equalRedYellow", D, "1 and 1, none left", "p9 y1 b1 b2", hands=NO_COLOURS_LEFT),
    case("equalRedYellow", P, "1 and 1, more to come", "p9 y1 b1 b2"),
    case("equalRedYellow", F, "2 pink, no yellow left", "p9 p1 b1 b2", hands=NO_COLOURS_LEFT),
    # win_more_color_than_color
    case("moreRedThanGreen", D, "2 pink, no green left", "p9 p1 b1 b2", hands=NO_COLOURS_LEFT),
    case("moreRedThanGreen", P, "2 pink, greens live", "p9 p1 b1 b2"),
    case("moreRedThanGreen", F, "2 green, no pink left", "g9 g1 b1 b2", hands=NO_COLOURS_LEFT),
    case("moreRedThanGreen", F, "0 and 0 at the end", W2, n=1),
    case("moreRedThanGreen", D, "1 pink 0 green at the end", "p9 b1 b2 b3", n=1),
    # win_each_color
    case("eachColor", D, "one of each", "p9 b1 g1 y1"),
    case("eachColor", P, "pink only", W1),
    case("eachColor", F, "no yellow left", W1, hands={0: "b5", 1: "b6", 2: "g7", 3: "g8"}),
    # win_all_cards_of_one_color
    case("allOneColor", D, "all nine pinks", W1, "p8 p4 p5 p6", "p7 b1 b2 b3"),
    case("allOneColor", P, "four pinks so far", W1),
    case("allOneColor", F, "every colour touched by others", "b1 b9 p1 g1", "1: y1 y9 y2 y3"),
    # win_at_least_rank
    case("2orMore7", D, "two 7s", "p7 b7 g1 g2"),
    case("2orMore7", P, "one 7", "p7 p1 p2 p3"),
    case("3orMore9", F, "three 9s gone to seat 1", "p1 p9 b9 g9"),
    # win_cards
    case("red3", D, "won pink 3", "p9 p3 p1 p2"),
    case("red3", F, "seat 2 won pink 3", "p1 p3 p9 p2"),
    case("red3", P, "pink 3 not played", W2),
    case("red3", F, "3 players: never played", "b9 b1 b2", players=3, n=1),
    case("4x3", P, "one of four", "p9 p3 p1 p2"),
    # win_at_least_color
    case("5orMoreRed", D, "five pinks", W1, "p8 p4 b1 b2"),
    case("5orMoreRed", P, "four pinks", W1),
    case("5orMoreRed", F, "eight pinks elsewhere", "p1 p9 p2 p3", "1: p8 p7 p6 p5"),
    # win_exactly_n_consecutive_tricks
    case("exactly2trickInARow", D, "two in a row, then lost", W1, W2, LOSE, n=3),
    case("exactly2trickInARow", P, "one so far", W1),
    case("exactly2trickInARow", F, "wins split", W1, LOSE, "1: y1 y2 y3 y9"),
    case("exactly2trickInARow", F, "block closed at 1", W1, LOSE),
    case("exactly2trickInARow", F, "a third win", W1, W2, W3),
    # win_exactly_color
    case("1red", D, "one pink, none left", "p9 b1 b2 b3", hands=NO_COLOURS_LEFT),
    case("1red", P, "one pink, more live", "p9 b1 b2 b3"),
    case("1red", F, "two pinks", "p9 p1 b2 b3"),
    case("1red+1green", D, "one each, none left", "p9 g1 b2 b3", hands=NO_COLOURS_LEFT),
    case("1red+1green", P, "one each, more live", "p9 g1 b2 b3"),
    # win_exactly_submarines
    case("1black", D, "one sub, none left", "s4 p1 p2 p3", hands=NO_SUBS_LEFT),
    case("1black", F, "two subs", "s4 s1 p2 p3"),
    case("1black", P, "one sub, more live", "s4 p1 p2 p3"),
    # win_exactly_rank
    case("2x9", D, "two 9s, none left", "p9 b9 g1 g2", hands={0: "y1", 1: "y2", 2: "y3", 3: "y4"}),
    case("2x9", F, "three 9s", "p9 b9 g9 y1"),
    case("2x9", P, "two 9s, more live", "p9 b9 g1 g2"),
    # compare_tricks_vs_each_other_player (3 players)
    case("lessTricksThanOthers", F, "owner won the only trick", "p9 p1 p2", players=3, n=1),
    case(
        "lessTricksThanOthers",
        D,
        "others lead by 2, 1 trick left",
        "p1 p9 p2",
        "b1 b9 b2",
        "g1 g2 g9",
        "y1 y9 y2",
        players=3,
        n=5,
    ),
    case("lessTricksThanOthers", P, "early", "p1 p9 p2", players=3),
    case("moreTricksThanOthers", D, "2 up with 1 left", W1, W2, n=3),
    case("moreTricksThanOthers", F, "seat 1 took the only trick", LOSE, n=1),
    case("moreTricksThanOthers", P, "early", W1),
    # win_more_tricks_than_others_combined
    case("moreThanHalfTricks", D, "2 of 3", W1, W2, n=3),
    case("moreThanHalfTricks", F, "others took 2 of 3", "p1 p9 p2 p3", "1: b1 b9 b2 b3", n=3),
    case("moreThanHalfTricks", P, "early", W1),
    # compare_tricks_vs_captain (owner seat 1, captain seat 0)
    case(
        "moreTricksThanCaptain", D, "2-0 with 1 left", "p1 p9 p2 p3", "1: b9 b1 b2 b3", owner=1, n=3
    ),
    case("moreTricksThanCaptain", F, "captain 1-0 at the end", W1, owner=1, n=1),
    case("moreTricksThanCaptain", P, "early", W1, owner=1),
    case("moreTricksThanCaptain", F, "held by the captain", W1, owner=0),
    case("lessTricksThanCaptain", D, "0-2 with 1 left", W1, W2, owner=1, n=3),
    case("lessTricksThanCaptain", F, "1-0 at the end", "p1 p9 p2 p3", owner=1, n=1),
    case("lessTricksThanCaptain", P, "early", W1, owner=1),
    case(
        "equalTricksThanCaptain", D, "1-1 at the end", "p1 p9 p2 p3", "1: b1 b2 b3 b9", owner=1, n=2
    ),
    case("equalTricksThanCaptain", F, "0-2 with 1 left", W1, W2, owner=1, n=3),
    case("equalTricksThanCaptain", P, "early", W1, owner=1),
    # win_no_rank
    case("no9", F, "won pink 9", W1),
    case("no9", D, "no 9 live", "b1 b9 b2 b3", hands={0: "y1", 1: "y2", 2: "y3", 3: "y4"}),
    case("no9", P, "9s live", "p8 p1 p2 p3"),
    case("no123", P, "a submarine 1 is not a 1", "s1 p4 p5 p6"),
    # win_no_submarines
    case("noBlack", F, "won sub 4", "s4 p1 p2 p3"),
    case("noBlack", D, "no sub live", W1, hands=NO_SUBS_LEFT),
    case("noBlack", P, "subs live", W1),
    # win_no_color
    case("noGreen", F, "won green 1", "p9 g1 b1 b2"),
    case("noGreen", D, "no green live", W1, hands={0: "b5", 1: "b6", 2: "y7", 3: "y8"}),
    case("noGreen", P, "greens live", W1),
    # win_none_of_first_n_tricks
    case("noneFirst3Tricks", F, "won trick 1", W1),
    case("noneFirst3Tricks", P, "1 of 3 lost", LOSE),
    case("noneFirst3Tricks", D, "3 lost", "p1 p9 p2 p3", "1: b1 b9 b2 b3", "2: g1 g9 g2 g3"),
    # win_only_tricks
    case("onlyFirstTrick", F, "lost trick 1", LOSE),
    case("onlyFirstTrick", F, "won trick 2 too", W1, W2),
    case("onlyFirstTrick", P, "won trick 1", W1),
    case("onlyFirstTrick", D, "won 1, lost 2, end", W1, LOSE, n=2),
    case("onlyLastTrick", D, "lost 1, won the last", "p1 p9 p2 p3", "1: b1 b2 b3 b9", n=2),
    case("onlyLastTrick", F, "won trick 1", W1),
    case("onlyLastTrick", P, "lost trick 1", LOSE),
    # win_tricks
    case("firstTrick", D, "won trick 1", W1),
    case("firstTrick", F, "lost trick 1", LOSE),
    case("firstAndLastTrick", P, "won 1, last to come", W1),
    case("lastTrick", D, "won the last", LOSE, "1: b1 b2 b3 b9", n=2),
    case("lastTrick", F, "lost the last", W1, LOSE, n=2),
    # win_only_submarine
    case("black1", D, "sub 1 won, no sub live", "s1 p1 p2 p3", hands=NO_SUBS_LEFT),
    case("black1", P, "sub 1 won, subs live", "s1 p1 p2 p3"),
    case("black1", F, "won sub 2", "s2 p1 p2 p3"),
    case("black1", F, "seat 1 won sub 1", "p1 s1 p2 p3"),
    # win_card_with_submarine
    case("red7WithBlack", D, "sub 1 takes pink 7", "1: p1 p7 p2 s1"),
    case("red7WithBlack", F, "pink 7 won with pink 9", "p9 p7 p2 p3"),
    case("red7WithBlack", P, "owner holds a sub", W2, hands={0: "s2 p5"}),
    case("red7WithBlack", F, "owner holds no sub", W2, hands={0: "p5"}),
    # win_card_in_last_trick
    case("green2lastTrick", F, "green 2 in trick 1", "g9 g2 g3 g4"),
    case("green2lastTrick", P, "not played yet", W1),
    case("green2lastTrick", D, "won in the last trick", "g9 g2 g3 g4", n=1),
    case("green2lastTrick", F, "never played", W1, n=1),
    # win_predicted_trick_count
    case("exactlyXtrick", P, "1 of 1 so far", W1, predicted=1),
    case("exactlyXtrick", F, "2 of 1", W1, W2, predicted=1),
    case("exactlyXtrick", D, "1 of 1 at the end", W1, LOSE, predicted=1, n=2),
    case("exactlyXtrickSecret", D, "0 of 0 at the end", LOSE, predicted=0, n=1),
]


@pytest.mark.parametrize("c", CASES, ids=lambda c: f"{c.ref}-{c.want.value}-{c.why}")
def test_case(c: Case) -> None:
    assert judge(get_task_card(c.ref), c.snap) is c.want


def test_every_kind_has_a_judge_and_all_three_verdicts_tested() -> None:
    assert set(JUDGES) == set(TaskKind)
    shipped = {card.kind for card in load_task_cards()}
    seen: dict[TaskKind, set[Verdict]] = {}
    for c in CASES:
        seen.setdefault(get_task_card(c.ref).kind, set()).add(c.want)
    for kind in shipped:
        assert seen.get(kind) == {D, F, P}, f"{kind.value}: tested {seen.get(kind)}"


def test_prediction_must_be_fixed() -> None:
    with pytest.raises(ValueError, match="prediction"):
        judge(get_task_card("exactlyXtrick"), rig([W1]))


def test_two_player_last_trick_is_13() -> None:
    card = get_task_card("lastTrick")
    assert judge(card, rig(["p9 p1 p2"] * 0 + ["p9 p1 p2"], players=2)) is P
    assert rig([], players=2).n_tricks == 13


# ---------------------------------------------------------------- whole random hands


def play_random_hand(
    players: int, rng: np.random.Generator, after: Callable[[Record], None] | None = None
) -> list[TaskSnapshot]:
    """Random legal play to the end (dummy: face-up cards only); a snapshot after each trick."""
    snaps = []
    deal = deal_cards(players, rng)
    rec = Record(deal, list(deal.hands), dict(deal.dummy_under), n_tricks(players), deal.commander)
    leader = deal.commander
    for _ in range(rec.n_tricks):
        trick: list[int] = []
        uncover: list[int] = []
        for k in range(deal.seats):
            seat = (leader + k) % deal.seats
            led = trick[0] // 9 if trick else None
            options = cards_of(legal_plays(rec.hands[seat], led))
            card = options[int(rng.integers(len(options)))]
            rec.hands[seat] &= ~(1 << card)
            if card in rec.under:
                uncover.append(card)
            trick.append(card)
        for top in uncover:
            rec.hands[2] |= 1 << rec.under.pop(top)
        winner, wcard = trick_winner(trick, leader, deal.seats)
        rec.tricks.append(tuple(trick))
        rec.leaders.append(leader)
        rec.winners.append(winner)
        rec.winning_cards.append(wcard)
        leader = winner
        snaps.append(snapshot(rec))
        if after is not None:
            after(rec)
    return snaps


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_hands_verdicts_are_monotone_and_final(players: int) -> None:
    """Unlatched judges never change their mind, and nothing is pending after the last trick."""
    rng = np.random.default_rng(players)
    cards = load_task_cards()
    seats = 3 if players == 2 else players
    for _ in range(25):
        owners = [int(rng.integers(seats)) for _ in cards]
        preds = [int(rng.integers(4)) for _ in cards]
        history = [
            [judge(c, snap.for_owner(o, x)) for c, o, x in zip(cards, owners, preds, strict=True)]
            for snap in play_random_hand(players, rng)
        ]
        for i, card in enumerate(cards):
            seq = [h[i] for h in history]
            first = next((k for k, v in enumerate(seq) if v is not P), None)
            assert first is not None, f"{card.ref_id} still pending at the end"
            assert all(v is seq[first] for v in seq[first:]), f"{card.ref_id}: {seq}"


def test_judge_tasks_latches_and_decides_the_mission() -> None:
    rng = np.random.default_rng(7)
    tasks = [
        HeldTask(get_task_card("firstTrick"), 0),
        HeldTask(get_task_card("exactlyXtrick"), 1, predicted=3),
    ]
    verdicts: list[Verdict] | None = None
    results = []

    def after(rec: Record) -> None:
        nonlocal verdicts
        j = judge_tasks(rec, tasks, verdicts)
        if verdicts is not None:
            for before, now in zip(verdicts, j.verdicts, strict=True):
                assert before is P or now is before
        verdicts = list(j.verdicts)
        results.append(j)

    play_random_hand(4, rng, after)
    final = results[-1]
    assert final.mission is not P
    if final.mission is F:
        assert final.reason
    else:
        assert all(v is D for v in final.verdicts)
    first_decided = next(j for j in results if j.verdicts[0] is not P)
    assert first_decided is results[0]  # "win the first trick" is decided by trick 1


def test_game_state_is_a_play_record() -> None:
    deal = Deal(4, tuple(mask_of(range(s, 40, 4)) for s in range(4)))
    state = GameState(deal)
    leader = state.to_play
    for _ in range(4):
        seat = state.to_play
        state.play(seat, cards_of(state.legal(seat))[0])
    rec: PlayRecord = state
    snap = snapshot(rec)
    assert snap.played == 1 and snap.leaders == (leader,)
    assert sum(bin(h).count("1") for h in snap.hands) == 36
    j = judge_tasks(state, [HeldTask(get_task_card("firstTrick"), snap.winners[0])])
    assert j.mission is D
