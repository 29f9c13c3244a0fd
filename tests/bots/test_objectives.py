"""The special objectives: what the crew's play for each one buys, and a 1 kept off a trick
another 1 wins."""

from __future__ import annotations

import numpy as np
import pytest

from crewsim.bots import get_bot
from crewsim.cards import (
    COLOUR_MASK,
    card_id,
    mask_of,
)
from crewsim.engine.run import run_chunk
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission
from crewsim.missions.schema import Mission
from crewsim.runs.replay import moves, set_up

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
    ("pn-9", 2, 0.8),
    ("pn-9", 3, 0.9),
    ("pn-9", 4, 0.77),
    ("pn-9", 5, 0.63),
    ("pn-26", 2, 0.41),
    ("pn-26", 3, 0.65),
    ("pn-26", 4, 0.33),
    ("pn-26", 5, 0.13),
    ("pn-46", 2, 0.1),
    ("pn-46", 3, 0.15),
    ("pn-46", 4, 0.09),
    ("pn-46", 5, 0.05),
    ("pn-48", 2, 0.18),
    ("pn-48", 3, 0.22),
    ("pn-48", 4, 0.15),
    ("pn-48", 5, 0.14),
    ("pn-41", 2, 0.11),
    ("pn-41", 3, 0.125),
    ("pn-41", 4, 0.11),
    ("pn-41", 5, 0.1),
    ("pn-16", 2, 0.48),
    ("pn-16", 3, 0.6),
    ("pn-16", 4, 0.64),
    ("pn-16", 5, 0.64),
    ("pn-17", 2, 0.22),
    ("pn-17", 3, 0.3),
    ("pn-17", 4, 0.22),
    ("pn-17", 5, 0.18),
    ("ds-8", 2, 0.7),
    ("ds-8", 3, 0.75),
    ("ds-8", 4, 0.33),
    ("ds-8", 5, 0.42),
    ("ds-21", 2, 0.55),
    ("ds-21", 3, 0.6),
    ("ds-21", 4, 0.22),
    ("ds-21", 5, 0.36),
    ("ds-27", 2, 0.29),
    ("ds-27", 3, 0.27),
    ("ds-27", 4, 0.3),
    ("ds-27", 5, 0.26),
    ("ds-23", 2, 0.72),
    ("ds-23", 3, 0.84),
    ("ds-23", 4, 0.72),
    ("ds-23", 5, 0.6),
    ("pn-29", 2, 0.16),
    ("pn-29", 3, 0.18),
    ("pn-29", 4, 0.115),
    ("pn-34", 2, 0.09),
    ("pn-34", 3, 0.1),
    ("pn-33", 2, 0.58),
    ("pn-33", 3, 0.67),
    ("pn-33", 4, 0.74),
    ("pn-33", 5, 0.82),
    ("pn-5", 2, 0.68),
    ("pn-5", 3, 0.69),
    ("pn-5", 4, 0.82),
    ("pn-5", 5, 0.925),
    ("pn-50", 4, 0.07),
    ("pn-50", 5, 0.07),
    ("ds-32", 4, 0.105),
    ("ds-32", 5, 0.055),
]


@pytest.mark.parametrize(("mission", "players", "floor"), OBJECTIVE_CASES)
def test_the_crew_plays_for_the_objective(mission: str, players: int, floor: float) -> None:
    mp = KernelMission(get_mission(mission), players).vector()
    rec = run_chunk(mp, get_bot("heuristic").vector(), 3000, int(mission[3:]))
    assert rec["success"].mean() >= floor


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
    rec = run_chunk(
        KernelMission(m, 4).vector(), get_bot("heuristic").vector(), 1500, 26, record=True
    )
    assert sum(_ones_thrown_away(m, 4, rec, i) for i in range(1500)) == 0
