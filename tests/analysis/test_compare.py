"""Two bots on the same deals: the premise (identical deals per game seed) and the statistics
(McNemar by hand, the paired interval against a published example)."""

from __future__ import annotations

import numpy as np
import pytest

from crewsim.analysis.compare import Paired, game_seeds, paired, play_paired
from crewsim.bots import get_bot
from crewsim.engine.run import run_chunk
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission


def test_one_seed_per_game_gives_every_bot_the_same_deal() -> None:
    mission = get_mission("pn-10")
    mp = KernelMission(mission, 4, "auto").vector()
    bots = [get_bot("heuristic"), get_bot("random")]
    for seed in game_seeds(11, 25):
        a, b = (run_chunk(mp, bot.vector(), 1, seed, record=True) for bot in bots)
        assert (a["rec_hands"] == b["rec_hands"]).all()
        assert (a["rec_tasks"][..., 0] == b["rec_tasks"][..., 0]).all()  # same task cards


def test_play_paired_and_cross_table() -> None:
    wins = play_paired(get_mission("pn-2"), 4, [get_bot("heuristic"), get_bot("random")], 300, 5)
    assert set(wins) == {"heuristic", "random"}
    p = paired(wins["heuristic"], wins["random"])
    assert p.both + p.only_a + p.only_b + p.neither == 300
    assert p.rate_a == pytest.approx(wins["heuristic"].mean())
    assert p.rate_a > p.rate_b  # the heuristic crew beats random play on the same deals
    low, high = p.difference_ci()
    assert low < p.difference < high
    again = play_paired(get_mission("pn-2"), 4, [get_bot("heuristic")], 300, 5)
    assert (again["heuristic"] == wins["heuristic"]).all()


def test_mcnemar_exact() -> None:
    a = np.array([True] * 10 + [False] * 5)
    b = np.array([False] * 10 + [False] * 5)
    assert paired(a, b).mcnemar_p() == pytest.approx(2 * 0.5**10)
    same = paired(a, a)
    assert same.mcnemar_p() == 1.0 and same.difference == 0


def test_mcnemar_by_hand() -> None:
    """8 deals only A won, 2 only B: twice P(X <= 2) for X ~ Bin(10, 1/2) = 2 * 56 / 1024."""
    p = Paired(games=30, both=12, only_a=8, only_b=2, neither=8)
    assert p.mcnemar_p() == pytest.approx(112 / 1024)
    assert Paired(30, 12, 2, 8, 8).mcnemar_p() == pytest.approx(112 / 1024)  # two-sided


def test_paired_interval_is_newcombes() -> None:
    """Altman et al., Statistics with Confidence (2000), table 6.2: 14 both, 5 only A, none
    only B, 22 neither; the difference 0.122 with the interval 0.011 to 0.226."""
    p = Paired(games=41, both=14, only_a=5, only_b=0, neither=22)
    assert p.difference == pytest.approx(5 / 41)
    low, high = p.difference_ci()
    assert (round(low, 3), round(high, 3)) == (0.011, 0.226)


def test_no_disagreement_still_has_an_interval() -> None:
    """Wald's interval shrinks to a point when no deal splits the crews; Newcombe's does not."""
    p = Paired(games=200, both=150, only_a=0, only_b=0, neither=50)
    low, high = p.difference_ci()
    assert p.difference == 0 and p.mcnemar_p() == 1.0
    assert low < -0.005 and high > 0.005 and low == pytest.approx(-high)
