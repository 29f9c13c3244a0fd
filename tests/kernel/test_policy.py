"""The bot policy's hints (Deep Sea task tables, special objectives): what steers play and
what it buys."""

from __future__ import annotations

import numpy as np
import pytest

from crewsim.bots import get_bot
from crewsim.cards import (
    BEATS,
    COLOUR_MASK,
    SUIT_MASK,
    TRUMP_MASK,
    card_id,
    mask_of,
    popcount,
    suit_of,
)
from crewsim.kernel.deep_sea_tables import (
    C_CMP,
    C_FIT,
    C_LAST,
    C_RUN,
    C_SUM_HI,
    C_SUM_LO,
    C_TRICKS,
    C_WITH,
    CMP_EQUAL_CAPT,
    CMP_FEWER_CAPT,
    CMP_FEWER_EACH,
    CMP_MORE_ALL,
    CMP_MORE_CAPT,
    CMP_MORE_EACH,
    RUN_AT_LEAST,
    RUN_EXACTLY,
    task_table,
)
from crewsim.kernel.layout import FAIL_NOT_DONE
from crewsim.kernel.run import run_chunk
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission
from crewsim.missions.schema import Mission
from crewsim.replay import moves, set_up
from crewsim.rules.game import Claim
from crewsim.rules.play import trick_winner


def _rank(r: int) -> int:
    return sum(1 << card_id(s, r) for s in range(4))


def test_the_table_marks_streaks_comparisons_and_winning_ranks() -> None:
    tab = task_table(4)
    runs = {n: int(tab[n - 1, C_RUN]) for n in range(1, 97) if tab[n - 1, C_RUN]}
    assert runs == {5: RUN_AT_LEAST, 6: RUN_AT_LEAST, 38: RUN_EXACTLY, 39: RUN_EXACTLY}
    cmps = {n: int(tab[n - 1, C_CMP]) for n in range(1, 97) if tab[n - 1, C_CMP]}
    assert cmps == {49: CMP_FEWER_EACH, 50: CMP_MORE_EACH, 51: CMP_MORE_ALL,
                    52: CMP_EQUAL_CAPT, 53: CMP_FEWER_CAPT, 54: CMP_MORE_CAPT}  # fmt: skip
    withs = {n: int(tab[n - 1, C_WITH]) for n in range(1, 97) if tab[n - 1, C_WITH]}
    assert withs == {7: _rank(7), 8: _rank(6), 9: _rank(4),
                     12: _rank(2), 13: _rank(3), 14: _rank(5), 15: _rank(6)}  # fmt: skip
    fits = {n: int(tab[n - 1, C_FIT]) for n in range(1, 97) if tab[n - 1, C_FIT]}
    colours = sum(_rank(r) for r in range(1, 10))
    assert fits == {10: _rank(2) | _rank(4) | _rank(6) | _rank(8),
                    11: _rank(1) | _rank(3) | _rank(5) | _rank(7) | _rank(9),
                    16: _rank(6) | _rank(7) | _rank(8) | _rank(9),
                    17: sum(_rank(r) for r in range(1, 7)),
                    18: colours, 19: colours, 20: colours}  # fmt: skip
    sums = {n: (int(tab[n - 1, C_SUM_LO]), int(tab[n - 1, C_SUM_HI])) for n in (18, 19, 20)}
    assert sums == {18: (29, 99), 19: (0, 11), 20: (22, 23)}  # at 4 players: > 28, < 12
    assert tab[74, C_LAST] == 1 and tab[74, C_TRICKS] == 0  # 75: the last trick
    assert tab[73, C_LAST] == 1 and tab[73, C_TRICKS] == 1  # 74: the first and the last


# (card, players, share completed at least): the bots' share was before these hints, with
# the same carrier and 10,000 deals, 1.9 % (75 at 4 players), 1.8 % (74), 6.1 % (94), 5.0 %
# (38), 12 % (50), 19 % (54), 21 % (7 at 3 players), 7.9 % (12 at 3 players), 10.4 % (52),
# 16.6 % (16 at 3 players), 22.9 % (20), 3.9 % (18), 23.8 % (4), 19.2 % (35 at 3 players)
CASES = [
    (75, 4, 0.6),  # I will win the last trick: its owner keeps its best card for it
    (74, 4, 0.6),  # the first and the last trick
    # the green 2 in the last trick: its holder keeps it until then, and nobody leads green
    # while that may draw it (that last, on the same deals: 52 -> 61 %)
    (94, 4, 0.55),
    (52, 3, 0.13),  # as many tricks as the captain
    (7, 3, 0.45),  # a 5 won with a 7
    # a trick won with a 2: the others discard the cards above the 2s its owner may hold
    # (that last, on the same deals: 45 -> 60 %, at 4 players 25 -> 39 %)
    (12, 3, 0.5),
    (12, 4, 0.3),
    (16, 3, 0.5),  # a trick of cards above 5: fitting cards go into the owner's trick
    (20, 4, 0.4),  # a trick adding up to 22 or 23
    (18, 4, 0.15),  # a trick adding up to more than 28
    (4, 4, 0.45),  # no trick: its owner sheds high cards and submarines
    (35, 3, 0.45),  # exactly one trick: once it is won, the same
]
# Later rules, the share on these same deals before -> after (2,000 deals a card):
# 70 9.6 -> 41 %, 69 47 -> 69 %, 52 at 4 players 18 -> 39 %, 38 23 -> 50 %, 39 23 -> 53 %,
# 51 19 -> 64 %, 49 52 -> 76 %, 50 50 -> 66 %, 54 61 -> 71 %, 53 83 -> 96 %, 73 57 -> 86 %,
# 72 87 -> 98 %, 6 63 -> 89 %, 8 10 -> 16 %
CASES += [
    (70, 4, 0.3),  # only the last trick: shed high cards, show the keeper, others keep one under
    (69, 4, 0.6),  # only the first trick: shed high cards after it
    (52, 4, 0.3),  # as many as the captain: submarine 4 is its sure trick, the one ahead sheds
    (38, 4, 0.4),  # exactly 2 in a row: submarine 4 ends the streak, then shed high cards
    (39, 4, 0.42),  # exactly 3 in a row: started only with enough sure winners
    (51, 4, 0.5),  # more than all the others together: they shed winners under its tricks
    (49, 4, 0.68),  # fewer than everyone else: its owner sheds high cards
    (50, 4, 0.58),  # more than anyone else: the others shed winners under its tricks
    (54, 4, 0.66),  # more than the captain: the captain sheds
    (53, 4, 0.9),  # fewer than the captain: its owner sheds
    (73, 4, 0.75),  # the first three tricks: no sure winner left, lead the likeliest
    (72, 4, 0.93),  # the first two tricks: the same
    (6, 4, 0.78),  # 3 tricks in a row: the same
    # a 6 won with a 6: led only when a void seat may drop a 6 into it, the others keep their
    # 6s for it and discard the cards above the owner's 6s (those two, on the same deals:
    # 22 -> 30 -> 43 %)
    (8, 4, 0.36),
    (9, 4, 0.24),  # an 8 won with a 4: the same (21 -> 28 %)
]
# The draft: a hand that rules a card out passes on it (the same deals, before -> after):
# 76 2.0 -> 87 %, 77 1.4 -> 88 %, 7 45 -> 68 %, 14 34 -> 52 %, 15 46 -> 72 %, 93 47 -> 56 %
CASES += [
    (76, 4, 0.75),  # submarine 1 and no other: never the captain with submarine 4
    (77, 4, 0.75),  # submarine 2 and no other: the same
    (7, 4, 0.58),  # a 5 won with a 7: only a hand with a 7
    (15, 4, 0.6),  # a trick won with a 6: only a hand with a 6
]
# A trick of fitting cards: the crew keeps the cards it will be short of out of other tricks
# (the same deals, before -> after): 10 23 -> 47 %, 19 21 -> 48 % (3 players 44 -> 60 %),
# 17 60 -> 76 %, 11 49 -> 66 %
CASES += [
    (10, 4, 0.35),  # only even cards: odd ones go into the other tricks
    (19, 4, 0.35),  # adding up to less than 12: low cards are kept for it
    (19, 3, 0.52),  # ... less than 8
]
# As many cards of two colours in one trick (the same deals, before -> after):
# 21 25 -> 62 % (3 players 26 -> 62 %), 22 31 -> 66 %
CASES += [
    (21, 4, 0.5),  # green and yellow: a seat void in the colour led evens the owner's trick
    (22, 4, 0.5),  # pink and blue: the same
    (21, 3, 0.5),
]
# "Win no X": the crew keeps X out of the owner's tricks, and out of a trick the owner is still
# to play to with a card that may have to win it (the same deals, before -> after):
# 56 46 -> 77 % (3 players 24 -> 55 %), 55 58 -> 89 %, 61 71 -> 89 %, 64 55 -> 76 %
CASES += [
    (56, 4, 0.65),  # no 1s, 2s or 3s: low leads no longer open the tricks
    (56, 3, 0.4),
    (55, 4, 0.75),  # no 1s
    (64, 4, 0.65),  # no pink and no blue
]

# An owner's own card it may not win ("no 5s"): it no longer takes a trick with it that no
# later seat may top; nobody leads the colour of a 9 a "no 9s" owner may hold; and "win the
# yellow 1" gets the lead and the entries Planet Nine's task cards have.  The same deals,
# 3 / 4 players, before -> after: 57 70.3 / 78.9 -> 75.8 / 84.9 %, 59 85.1 / 87.0 -> 88.5 /
# 90.6 %, 90 90.5 / 83.8 -> 92.3 / 86.1 %
CASES += [
    (57, 3, 0.73), (57, 4, 0.82),  # no 5s
    (59, 3, 0.868), (59, 4, 0.887),  # no 9s
    (90, 3, 0.914), (90, 4, 0.85),  # the yellow 1
]  # fmt: skip
# Trick counts (a helper's audit against the solver's ceiling, 95-100 % winnable): an owner
# of "exactly n tricks" or "only the first / last trick" takes the trick it still needs with
# its highest card; nobody leads or plays a card a seat that must not win may be forced to
# top; "fewer tricks than each" hands tricks to the seats not yet ahead, the more urgently the
# fewer are left; the captain and the owner of "as many as the captain" cash sure submarines
# early.  The same deals, 3 / 4 / 5 players, before -> after: 35 65.5 / 75.3 / 80.2 -> 74.0 /
# 80.8 / 84.1 %, 36 71.5 -> 78.8 % (3), 69 64.6 / 68.8 -> 74.6 / 75.8 %, 49 76.3 / 41.2 ->
# 83.1 / 55.0 % (4 / 5), 52 27.1 / 39.1 / 45.7 -> 35.2 / 51.0 / 51.9 %
CASES += [
    (35, 3, 0.70), (35, 4, 0.78),  # exactly 1 trick
    (36, 3, 0.75),  # exactly 2 tricks
    (69, 3, 0.70), (69, 4, 0.72),  # only the first trick
    (49, 4, 0.80), (49, 5, 0.48),  # fewer tricks than each other seat
    (52, 3, 0.31), (52, 4, 0.45), (52, 5, 0.49),  # as many tricks as the captain
]  # fmt: skip

# The draft (a helper's audit against the solver's ceiling, 95-100 % winnable): a hand takes a
# card only when it suits it better than the average hand: fewer cards of the colours for
# "exactly n" of them, more high cards of the colour and submarines for "at least n", more
# cards of its own above its card to win with for "won with a rank", no submarines counted
# for a trick of high colour cards; and the owner of "exactly n" cards, once it has them all,
# sheds its winners.  The same deals (20,000, seed 777), 3 / 4 / 5 players, before -> after:
# 41 22.4 / 24.9 / 23.7 -> 41.7 / 37.0 / 31.7 %, 18 33.5 / 31.2 / 30.7 -> 54.1 / 41.8 / 42.8 %,
# 16 74.8 / 35.4 / 16.3 -> 92.3 / 61.9 / 34.5 %, 34 41.0 / 36.3 / 36.1 -> 55.8 / 42.7 / 45.8 %
CASES += [
    (41, 3, 0.3), (41, 4, 0.28),  # exactly 1 pink and 1 green
    (18, 3, 0.48), (18, 4, 0.36),  # a trick adding up to more than 23 / 28
    (16, 4, 0.55), (16, 5, 0.3),  # a trick of cards above 5
    (34, 3, 0.48), (33, 4, 0.72),  # at least 7 yellow / 5 pink
    (42, 4, 0.52), (43, 4, 0.52),  # exactly 2 blue / 2 green
]  # fmt: skip
# "Exactly 3 submarines" goes to a hand that can end up with three (``collect.sub_wins``),
# not to the last seat of the draft: the solver found 38 % of the bots' deals winnable before,
# 97 % after (4 players); and its owner, seeing its own hand, takes a count it can no longer
# end on as lost (holding a submarine no other hand can top once it has three).  The same
# deals (20,000, seed 777), 3 / 4 / 5 players: 23.8 / 10.5 / 7.1 %, with the draft 61.6 /
# 34.9 / 26.2 %, with both 63.9 / 43.0 / 36.3 % (its floors are further down)
# "Exactly 1 / 2 submarines": the last member that may pass keeps the card when its hand can
# end on the count, rather than leave it to the next, which may hold none (the same deals,
# 3 / 4 / 5 players: 44 70.8 / 75.2 / 75.4 -> 81.3 / 79.4 / 77.5 %, 45 52.0 / 44.5 / 35.5 ->
# 58.7 / 46.6 / 36.6 %)
CASES += [(44, 3, 0.78)]  # 45's floors are further down
# "Exactly 2 / 3 submarines": the crew gets rid of the submarines beyond the count early
# (``collect.SUB_EXCESS``), or they meet in the last trick (the same deals, 3 / 4 / 5 players:
# 45 57.2 / 47.1 / 36.1 -> 90.4 / 84.1 / 75.6 %, 46 61.7 / 43.2 / 35.8 -> 76.4 / 86.0 / 87.1 %)
CASES += [
    (45, 3, 0.87), (45, 4, 0.8), (45, 5, 0.72),
    (46, 3, 0.73), (46, 4, 0.82), (46, 5, 0.83),
]  # fmt: skip
# "I will win X tricks": with 13 tricks its owner counts in the tricks that fall to a hand
# unasked, more of them for a secret X (``deepsea.predict``; the same deals, before -> after:
# 95 at 2 / 3 players 45.6 / 21.0 -> 65.5 / 54.9 %, 96 78.8 / 78.5 -> 83.9 / 82.8 %)
CASES += [(95, 2, 0.62), (95, 3, 0.51), (96, 2, 0.81), (96, 3, 0.8)]
# "Win X with Y": the others follow or discard above the owner's card to win with, unless the
# owner still to play might take this trick; a seat ahead of an owner that may take the trick
# drops the card to capture into it; and leads keep the cards to capture too.  The same
# deals, 3 / 4 players, before -> after: 9 48.8 / 30.9 -> 66.8 / 56.9 %, 8 59.9 / 48.4 ->
# 73.5 / 66.0 %, 7 85.0 / 78.0 -> 88.5 / 82.9 %, 13 71.2 / 43.0 -> 82.3 / 53.6 %
CASES += [
    (9, 3, 0.6), (9, 4, 0.5),  # an 8 won with a 4
    (8, 3, 0.68), (8, 4, 0.6),  # a 6 won with a 6
    (7, 4, 0.8),  # a 5 won with a 7
    (13, 3, 0.77), (13, 4, 0.49),  # a trick won with a 3
]  # fmt: skip
# Then a non-owner leads its submarines while the owner may hold its card (one would top it;
# only for cards of 3 or less when no card is to be captured), and, with no card to capture,
# leads below the owner's card when no third seat may top it, or once that card is safe a
# colour the owner may top; that owner takes a trick once its card is safe to lead next.
# The same deals, 3 / 4 / 5 players, before -> after: 12 67.8 / 44.6 / 26.1 -> 71.4 / 51.6 /
# 32.2 %, 13 82.3 / 53.6 -> 85.5 / 59.3 %, 14 68.4 / 51.3 -> 70.0 / 54.2 % (4 / 5), 9 56.9 /
# 40.5 -> 58.4 / 44.1 % (4 / 5)
CASES += [
    (12, 3, 0.69), (12, 4, 0.48), (12, 5, 0.29),  # a trick won with a 2
    (13, 3, 0.84), (13, 4, 0.56),  # a trick won with a 3
    (9, 5, 0.42),  # an 8 won with a 4
]  # fmt: skip
# The same lead and entry for the cards that also name a card to capture (the same deals,
# 3 / 4 / 5 players, before -> after): 9 68.1 / 58.4 / 44.1 -> 72.5 / 61.9 / 46.0 %, 8 75.0 /
# 68.8 / 59.5 -> 76.3 / 72.4 / 63.0 %, 7 89.8 / 84.4 / 73.6 -> 90.9 / 86.0 / 75.7 %
CASES += [
    (9, 3, 0.7), (9, 4, 0.6), (9, 5, 0.45),  # an 8 won with a 4
    (8, 4, 0.7), (8, 5, 0.61),  # a 6 won with a 6
    (7, 5, 0.745),  # a 5 won with a 7
]  # fmt: skip


# cards that count what their owner wins, and a card won with a submarine: (card, players,
# share completed at least); with the same carrier and 4,000 deals the bots' share was,
# before ``collect``, 5.4 % (30), 24 % (28), 8.4 % (34), 3.5 % (41), 14 % (42), 2.1 % (46),
# 9.9 % (44), 44 % (24), 10.6 % (27), 13 % (23), 17.6 % (47); 19 % (92)
COLLECT_CASES = [
    (30, 4, 0.5),  # at least three 9s
    (28, 4, 0.8),  # at least two 7s
    (34, 4, 0.22),  # at least 7 yellow cards
    (41, 4, 0.15),  # exactly 1 pink and 1 green card: leads that draw the colour are feared
    (42, 4, 0.35),  # exactly 2 blue cards
    (46, 4, 0.05),  # exactly 3 submarines
    # exactly 1 / 2 submarines: taken by a hand holding about as many (the same deals, before
    # -> after: 48 -> 73 %, 17 -> 45 %)
    (44, 4, 0.6),
    (45, 4, 0.35),
    (24, 4, 0.7),  # more pink than green cards
    (27, 4, 0.25),  # all cards of one colour
    (23, 4, 0.25),  # as many pink as yellow cards
    (47, 4, 0.5),  # exactly two 9s
    (92, 4, 0.35),  # the pink 7 won with a submarine (77 % of deals allow it)
]


def _highest_floors(cases: list[tuple[int, int, float]]) -> list[tuple[int, int, float]]:
    """Each card and crew size once, at its highest floor: a later rule raised the floor on
    the same deals, so the lower ones add a run and no check."""
    best: dict[tuple[int, int], float] = {}
    for number, players, floor in cases:
        best[number, players] = max(floor, best.get((number, players), 0.0))
    return [(number, players, floor) for (number, players), floor in best.items()]


@pytest.mark.parametrize(("number", "players", "floor"), _highest_floors(CASES + COLLECT_CASES))
def test_the_crew_plays_for_the_card(number: int, players: int, floor: float) -> None:
    """One card alone on the check-tasks carrier: the crew now plays for it."""
    from crewsim.task_check import CARRIER

    mp = KernelMission(get_mission(CARRIER), players, distress="never", tasks=(number,)).vector()
    rec = run_chunk(mp, get_bot("heuristic").vector(), 2000, 1000 + number)
    assert rec["success"].mean() >= floor


# Deep Sea 12 (no trick opened with pink or a submarine): before the crew shed those cards
# when void and kept a card it may lead for the tricks it takes, it won 0.04 / 0 / 0 / 0.2 %
# of 20,000 games at 2 / 3 / 4 / 5 players (seed 5), now 18 / 16 / 22 / 33 %; the solver
# finds 99 / 66 / 87 / 95 % of the deals winnable
@pytest.mark.parametrize(("players", "floor"), [(2, 0.12), (3, 0.1), (4, 0.15), (5, 0.25)])
def test_the_crew_keeps_a_lead_under_deep_sea_12(players: int, floor: float) -> None:
    mp = KernelMission(get_mission("ds-12"), players).vector()
    rec = run_chunk(mp, get_bot("heuristic").vector(), 3000, 12)
    assert rec["success"].mean() >= floor


# "I will not open a trick with ...": the same play for the card's owner; with the carrier
# and 4,000 deals its share was 48 % (3 at 3 players), 61 % (3 at 4) and 83 % (2 at 4)
@pytest.mark.parametrize(("number", "players", "floor"), [(3, 3, 0.56), (3, 4, 0.7), (2, 4, 0.89)])
def test_the_owner_keeps_a_lead_for_a_never_lead_card(number: int, players: int,
                                                       floor: float) -> None:  # fmt: skip
    test_the_crew_plays_for_the_card(number, players, floor)


# Objectives the crew used to ignore, success at 2 / 3 / 4 / 5 players before (the
# shipped report) and after (20,000 games, seed 5); the solver finds 89-100 % of these deals
# winnable.  Colour 1s must win (pn-9: one, 63 / 74 / 50 / 29 -> 80 / 89 / 64 / 45 -> 84 / 93 /
# 81 / 68 %; pn-26: two, 8.2 / 10 / 1.4 / 0.2 -> 22 / 31 / 5.7 / 1.6 -> 45 / 70 / 38 / 16 %):
# the crew sheds the colours of other seats' 1s, a holder keeps its guards and is put on lead;
# then a holder long in the colour shows its 1, the crew sheds and (when short in it) leads
# that colour, and no 1 is thrown onto a trick another 1 wins.  The seat left of the pink 9 wins
# every pink (pn-46, 1.3 / 1.1 / 1.6 / 1.4 -> 19 / 29 / 16 / 10 %): pinks are shed onto the
# target's tricks.  The omega task in the very last trick (pn-48, 5.9 / 4.7 / 6.4 / 7.8 -> 30 /
# 38 / 27 / 25 %): its card and colour wait, its owner keeps a top card, the others shed trumps.
# The chosen member takes the first and last tricks only, not with a rocket (pn-41, 4 and 5
# players, 5.6 / 3.9 -> 7.3 / 6.6 -> 9.5 / 9.1 %): the others shed trumps in the last four
# tricks, and the member shows a high card before the first trick.  No
# trick won by a 9 (pn-16, 29 / 29 / 34 / 38 -> 54 / 66 / 69 / 72 %; pn-17, 16 / 17 / 15 / 13 ->
# 26 / 33 / 27 / 20 %): nobody leads a colour whose 9, held by another seat, may be left alone.
# Deep Sea: no member may have won two more 9s (ds-8, 30 / 29 / 6.3 / 9.7 -> 78 / 82 / 39 / 47 %)
# or 1s (ds-21, 37 / 49 / 18 / 21 -> 62 / 67 / 26 / 41 %) than another: such a card goes only to
# a winner with room, and leads weigh who would take the colour's 9 or 1.  The yellow 5 comes
# last in the final trick (ds-27, 14 / 15 / 12 / 10 -> 34 / 31 / 35 / 32 %): its holder tells
# it and sheds winners, the seat after it is wanted for the second-to-last trick.  Trick 1's
# winner always ahead (ds-23, 53 / 61 / 49 / 41 -> 79 / 90 / 79 / 69 %): the others shed high
# cards, the first winner leads its card least likely to be topped.  Nobody two tricks ahead
# (pn-29, 2 to 4 players, 11 / 13 / 10 -> 19 / 21 / 14 %; pn-34, 2 and 3, 6.7 / 7.4 -> 11 / 13 %):
# a seat behind is wanted for the trick, strongly when it is the last one behind.  The chosen
# member wins exactly one trick (pn-33, 15 / 18 / 44 / 64 -> 50 / 61 / 70 / 79 %): once it has
# its trick it sheds its high cards and trumps.  A seat whose task card needs the first trick
# shows its highest card of a colour that at most one other card tops, and the leader leads
# that colour to it (ds-32, 4 and 5 players, 6.0 / 2.7 -> 14.3 / 7.8 % on these seeds).
# Where an objective names the members who must win given tricks and no others, no card is
# played that a member who must not win the trick may be forced to top, but in pn-41's
# tricks that the member must take (3,000 games here, before -> after: pn-5 56 / 62 / 77 / 90
# -> 73 / 74 / 85 / 95 %, pn-33 49 / 61 / 70 / 79 -> 64 / 71 / 78 / 85 %, pn-41 8.0 / 10.3 /
# 9.5 / 9.1 -> 13.2 / 14.6 / 12.4 / 11.1 %, pn-50 4.9 / 6.1 -> 8.8 / 8.8 % at 4 / 5).
OBJECTIVE_CASES = [
    ("pn-9", 2, 0.8), ("pn-9", 3, 0.9), ("pn-9", 4, 0.77), ("pn-9", 5, 0.63),
    ("pn-26", 2, 0.41), ("pn-26", 3, 0.65), ("pn-26", 4, 0.33), ("pn-26", 5, 0.13),
    ("pn-46", 2, 0.1), ("pn-46", 3, 0.15), ("pn-46", 4, 0.09), ("pn-46", 5, 0.05),
    ("pn-48", 2, 0.18), ("pn-48", 3, 0.22), ("pn-48", 4, 0.15), ("pn-48", 5, 0.14),
    ("pn-41", 2, 0.11), ("pn-41", 3, 0.125), ("pn-41", 4, 0.11), ("pn-41", 5, 0.1),
    ("pn-16", 2, 0.48), ("pn-16", 3, 0.6), ("pn-16", 4, 0.64), ("pn-16", 5, 0.64),
    ("pn-17", 2, 0.22), ("pn-17", 3, 0.3), ("pn-17", 4, 0.22), ("pn-17", 5, 0.18),
    ("ds-8", 2, 0.7), ("ds-8", 3, 0.75), ("ds-8", 4, 0.33), ("ds-8", 5, 0.42),
    ("ds-21", 2, 0.55), ("ds-21", 3, 0.6), ("ds-21", 4, 0.22), ("ds-21", 5, 0.36),
    ("ds-27", 2, 0.29), ("ds-27", 3, 0.27), ("ds-27", 4, 0.3), ("ds-27", 5, 0.26),
    ("ds-23", 2, 0.72), ("ds-23", 3, 0.84), ("ds-23", 4, 0.72), ("ds-23", 5, 0.6),
    ("pn-29", 2, 0.16), ("pn-29", 3, 0.18), ("pn-29", 4, 0.115), ("pn-34", 2, 0.09),
    ("pn-34", 3, 0.1),
    ("pn-33", 2, 0.58), ("pn-33", 3, 0.67), ("pn-33", 4, 0.74), ("pn-33", 5, 0.82),
    ("pn-5", 2, 0.68), ("pn-5", 3, 0.69), ("pn-5", 4, 0.82), ("pn-5", 5, 0.925),
    ("pn-50", 4, 0.07), ("pn-50", 5, 0.07),
    ("ds-32", 4, 0.105), ("ds-32", 5, 0.055),
]  # fmt: skip


@pytest.mark.parametrize(("mission", "players", "floor"), OBJECTIVE_CASES)
def test_the_crew_plays_for_the_objective(mission: str, players: int, floor: float) -> None:
    mp = KernelMission(get_mission(mission), players).vector()
    rec = run_chunk(mp, get_bot("heuristic").vector(), 3000, int(mission[3:]))
    assert rec["success"].mean() >= floor


# Task cards held by the wrong seat until forced, most often into the last trick (an audit of
# 1,312 lost deals the solver found winnable).  The owner of a task card another seat holds
# now leads sure winners in colours that holder may be void in, the crew hands the lead to an
# owner whose own task card has become its colour's top, and (with 2, 4 or 5 players) a holder
# fears an overtake less as the tricks run out.  Success on these seeds, 3,000 games at 2 / 3
# / 4 / 5 players, before -> after: pn-2 69.0 / 78.8 / 64.0 / 46.8 -> 72.9 / 83.1 / 69.4 /
# 53.0 %; pn-3 58.5 / 71.5 / 51.9 / 33.2 -> 63.4 / 78.4 / 61.3 / 43.3 %; pn-10 47.5 / 65.5 /
# 27.2 / 10.8 -> 52.4 / 68.5 / 31.2 / 12.6 %.
PLACING_CASES = [
    ("pn-2", 2, 0.71), ("pn-2", 3, 0.81), ("pn-2", 4, 0.67), ("pn-2", 5, 0.5),
    ("pn-3", 2, 0.61), ("pn-3", 3, 0.75), ("pn-3", 4, 0.57), ("pn-3", 5, 0.39),
    ("pn-10", 2, 0.5), ("pn-10", 3, 0.67), ("pn-10", 4, 0.29), ("pn-10", 5, 0.117),
]  # fmt: skip


@pytest.mark.parametrize(("mission", "players", "floor"), PLACING_CASES)
def test_the_crew_places_task_cards(mission: str, players: int, floor: float) -> None:
    mp = KernelMission(get_mission(mission), players).vector()
    rec = run_chunk(mp, get_bot("heuristic").vector(), 3000, int(mission[3:]) + 100)
    assert rec["success"].mean() >= floor


# With 2 or 3 players one card is never played (the dummy's last, the 14-card hand's): a task
# card kept back is never done.  Such a hand now plays its task card in the last trick, and
# the dummy turns its covered stacks over in time while an open task card is unseen.  Games
# of 20,000 (seed 5) ending "task not completed", before -> after: pn-1 3.7 / 1.6 % ->
# 0.4 / 0.1 % at 2 / 3 players, pn-10 9.7 / 5.1 % -> 1.3 / 0.3 %.  Owners that keep the
# trump their task card needs (and a crew that leaves such trumps alone) took pn-10 at 3
# players to 0.46 % (24 of the 36 new games were lost anyway; its success rate rose).
@pytest.mark.parametrize(
    ("mission", "players", "most"),
    [("pn-1", 2, 0.006), ("pn-1", 3, 0.002), ("pn-10", 2, 0.016), ("pn-10", 3, 0.005)],
)
def test_no_task_card_is_kept_back(mission: str, players: int, most: float) -> None:
    mp = KernelMission(get_mission(mission), players).vector()
    rec = run_chunk(mp, get_bot("heuristic").vector(), 20000, 5)
    assert (rec["fail_kind"] == FAIL_NOT_DONE).mean() <= most


def _sure_clash_leads(mission: Mission, players: int, rec: dict[str, np.ndarray], i: int) -> int:
    """Leads in game ``i`` that surely bring two owners' task cards into one trick while
    another lead would not: a seat that showed a task card as its only card of the colour
    must follow with it (the lead itself may be a task card too)."""
    state = set_up(mission, players, rec, i)
    owner = {t.card: t.owner for t in state.tasks if t.owner is not None}
    played: set[int] = set()
    count = 0
    for seat, card in moves(state, mission, rec, i):
        if not state.trick:
            shown = {c: s for s, c, claim, _ in state.comms
                     if claim is Claim.ONLY and c in owner and c not in played}  # fmt: skip

            def owners(c: int, seat: int = seat, shown: dict[int, int] = shown) -> set[int]:
                forced = {owner[t] for t, s in shown.items() if s != seat and t // 9 == c // 9}
                return forced | ({owner[c]} if c in owner else set())

            legal = [c for c in range(40) if state.legal(seat) >> c & 1]
            count += len(owners(card)) > 1 and any(len(owners(c)) < 2 for c in legal)
        played.add(card)
    return count


@pytest.mark.parametrize(("mission", "players"), [("pn-10", 4), ("pn-18", 3)])
def test_no_lead_brings_two_owners_task_cards_together(mission: str, players: int) -> None:
    """Such a lead fails a task for sure.  Before this rule, 4.9 % of pn-10's games at 4
    players (97 of 2,000) and 2.0 % of pn-18's at 3 (39) had one.  The few left come in the
    last tricks of games every lead loses (pn-18: 3 of 1,500)."""
    m = get_mission(mission)
    rec = run_chunk(KernelMission(m, players).vector(), get_bot("heuristic").vector(), 1500, 31,
                    record=True)  # fmt: skip
    assert sum(_sure_clash_leads(m, players, rec, i) for i in range(1500)) <= 3


def _taken_from_a_shown_owner(mission: Mission, players: int, rec: dict[str, np.ndarray],
                              i: int) -> int:  # fmt: skip
    """Cards in game ``i`` that take a trick holding another seat's task card from its owner,
    still to play and known (communicated) to hold a card of the colour led above the trick,
    when a card that lets the owner take it was legal."""
    state = set_up(mission, players, rec, i)
    owner = {t.card: t.owner for t in state.tasks if t.owner is not None}
    count = 0
    for seat, card in moves(state, mission, rec, i):
        trick = list(state.trick)
        if not trick:
            continue
        seats = state.seats
        _, best = trick_winner(trick, state.leader, seats)
        later = {(state.leader + k) % seats for k in range(len(trick) + 1, seats)}
        shown = [(s, c) for s, c, _, _ in state.comms if state.hands[s] >> c & 1]
        for tc in (c for c in trick if c in owner and owner[c] in later):
            tops = [c for s, c in shown if s == owner[tc] and c // 9 == trick[0] // 9
                    and c < 36 and c > best]  # fmt: skip
            if not tops:
                continue
            keep = [best, max(tops)]  # the card must top both to take it from the owner
            legal = [c for c in range(40) if state.legal(seat) >> c & 1]
            count += _tops(card, keep) and any(not _tops(c, keep) for c in legal)
    return count


def _tops(c: int, cards: list[int]) -> bool:
    """Whether ``c``, played after each of ``cards``, would take the trick from it."""
    return all(trick_winner([w, c], 0, 2)[0] == 1 for w in cards)


@pytest.mark.parametrize(("mission", "players"), [("pn-10", 4), ("pn-25", 3)])
def test_a_follower_leaves_the_trick_to_a_shown_owner(mission: str, players: int) -> None:
    """A follower counts a trick as won by the owner of the task card in it when that owner,
    still to play, has shown a card above it no one else may top.  Before, followers took such
    tricks: 14 of pn-10's 1,500 games at 4 players, 11 of pn-25's at 3; paired over 20,000
    games the rule gains up to 2.7 pp (pn-25 at 3 players), none worse."""
    m = get_mission(mission)
    rec = run_chunk(KernelMission(m, players).vector(), get_bot("heuristic").vector(), 1500, 32,
                    record=True)  # fmt: skip
    assert sum(_taken_from_a_shown_owner(m, players, rec, i) for i in range(1500)) <= 3


def _needed_trumps_led(mission: Mission, players: int, rec: dict[str, np.ndarray], i: int) -> int:
    """Trump leads in game ``i`` by an owner whose open task cards in other hands top every
    card it holds of their colour, holding no more trumps than such cards (each is then the
    only way to win one), while a colour card was legal; the last trick aside."""
    state = set_up(mission, players, rec, i)
    count = 0
    for seat, card in moves(state, mission, rec, i):
        if state.trick or len(state.tricks) == state.n_tricks - 1:
            continue
        hand = state.hands[seat]
        elsewhere = [t.card for k, t in enumerate(state.tasks)
                     if t.owner == seat and k not in state.done_tasks and not hand >> t.card & 1]
        ruffs = sum(hand & int(SUIT_MASK[suit_of(tc)] & BEATS[tc]) == 0 for tc in elsewhere)
        trumps = popcount(hand & TRUMP_MASK)
        count += card >= 36 and 0 < trumps <= ruffs and state.legal(seat) & COLOUR_MASK != 0
    return count


def test_an_owner_keeps_the_trump_its_task_card_needs() -> None:
    """Such a lead leaves a task card no card of the owner can take.  Before this rule, pn-1's
    1,500 games at 4 players had 319; now 103, mostly leads worth their trump: a sure winner
    onto which a holder void in trumps may discard the task card (simulate planet-nine,
    20,000 paired games: the rule with its siblings, +0.4 to +0.6 pp at 2-4 players)."""
    m = get_mission("pn-1")
    rec = run_chunk(KernelMission(m, 4).vector(), get_bot("heuristic").vector(), 1500, 33,
                    record=True)  # fmt: skip
    assert sum(_needed_trumps_led(m, 4, rec, i) for i in range(1500)) <= 130


def _ones_thrown_away(mission: Mission, players: int, rec: dict[str, np.ndarray], i: int) -> int:
    """Plays in game ``i`` of a colour 1 onto a trick led by another colour 1, when that 1's win
    would still leave the objective short and a colour card other than a 1 was legal (a trump
    would take the trick from the led 1)."""
    state = set_up(mission, players, rec, i)
    need = int(mission.objectives[0].params["count"])
    ones = mask_of(card_id(u, 1) for u in range(4))
    count = 0
    for seat, card in moves(state, mission, rec, i):
        won = sum(ones >> c & 1 for c in state.winning_cards)
        led_one = bool(state.trick) and ones >> state.trick[0] & 1
        if led_one and won + 1 < need and ones >> card & 1:
            count += state.legal(seat) & COLOUR_MASK & ~ones != 0
    return count


def test_a_seat_keeps_its_1_off_a_trick_another_1_wins() -> None:
    """pn-26 needs two winning 1s: a 1 discarded onto the first one's trick is lost for good.
    The objective's +60 for the winning 1 used to skip the -40 for the discarded one: 1,500
    games at 4 players had 1,390 such plays, now none (simulate pn-26, 20,000 games: 5.7 -> 38 %
    at 4 players with the rules beside it)."""
    m = get_mission("pn-26")
    rec = run_chunk(KernelMission(m, 4).vector(), get_bot("heuristic").vector(), 1500, 26,
                    record=True)  # fmt: skip
    assert sum(_ones_thrown_away(m, 4, rec, i) for i in range(1500)) == 0


@pytest.mark.parametrize(("players", "bound"), [(4, 0.05), (5, 0.14)])
def test_the_member_named_for_the_first_trick_shows_a_high_card(players: int,
                                                                  bound: float) -> None:
    """pn-41: the named member must win trick 1, which the commander leads blind.  Showing a
    high card before it (the leader then leads that colour to it) took the games lost in trick
    1 at 4 / 5 players, 3,000 games here, from 24.4 / 36.9 % to 3.1 / 9.9 % (simulate pn-41,
    20,000 paired games: +2.0 to +2.8 pp at 2-5 players)."""
    mp = KernelMission(get_mission("pn-41"), players).vector()
    rec = run_chunk(mp, get_bot("heuristic").vector(), 3000, 41)
    assert (~rec["success"] & (rec["fail_trick"] == 0)).mean() <= bound
