"""Two bot crews on exactly the same deals: a paired comparison (McNemar).

Deals come from their own random stream (``engine.setup``: ``deal_st``, seeded by the chunk's
seed and the game's place in it), apart from the bots' choices.  Two runs of the same root
seed, distress setting and chunk size therefore deal game ``i`` of every cell alike, whatever
the crew, and can be paired game by game (``analysis.run_pairs``); ``play_paired`` does the
same in memory, one seed per game.  Paired games cancel the luck of the deal: the difference
between crews is measured on the deals where they disagree, which needs far fewer games than
two independent samples.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from crewsim.bots import Bot
from crewsim.kernel.spec import KernelMission
from crewsim.missions.schema import Mission
from crewsim.runs.plan import chunk_seed
from crewsim.runs.stats import wilson


def game_seeds(root_seed: int, games: int) -> list[int]:
    """One independent kernel seed per game, from ``SeedSequence(root_seed)``."""
    return [chunk_seed(s) for s in np.random.SeedSequence(root_seed).spawn(games)]


def play_paired(
    mission: Mission,
    players: int,
    bots: list[Bot],
    games: int,
    seed: int = 0,
    distress: str = "auto",
) -> dict[str, np.ndarray]:
    """Each bot plays the same ``games`` deals; returns bot name -> bool array of wins."""
    from crewsim.solver.pimc import runner

    mp = KernelMission(mission, players, distress).vector()
    seeds = game_seeds(seed, games)
    out: dict[str, np.ndarray] = {}
    for bot in bots:
        bp = bot.vector()
        run_chunk = runner(bp)
        out[bot.name] = np.array([bool(run_chunk(mp, bp, 1, s)["success"][0]) for s in seeds])
    return out


@dataclass(frozen=True)
class Paired:
    """Outcome of bot A against bot B on the same deals."""

    games: int
    both: int
    only_a: int
    only_b: int
    neither: int

    @property
    def rate_a(self) -> float:
        return (self.both + self.only_a) / self.games

    @property
    def rate_b(self) -> float:
        return (self.both + self.only_b) / self.games

    @property
    def difference(self) -> float:
        """Success rate of A minus that of B."""
        return (self.only_a - self.only_b) / self.games

    def difference_ci(self) -> tuple[float, float]:
        """95 % interval for the paired difference of success rates: Newcombe's (1998) method
        10, Wilson intervals of both rates squared and added with their correlation.  Unlike
        Wald's it stays wide when few deals disagree (a few hundred games, rates near 0 or 1),
        where Wald's shrinks to a point."""
        n, both, neither = self.games, self.both, self.neither
        if n == 0:
            return (math.nan, math.nan)
        wins_a, wins_b = both + self.only_a, both + self.only_b
        p1, p2 = wins_a / n, wins_b / n
        l1, u1 = wilson(wins_a, n)
        l2, u2 = wilson(wins_b, n)
        margins = wins_a * (n - wins_a) * wins_b * (n - wins_b)
        cross = both * neither - self.only_a * self.only_b
        # Newcombe's correction: a positive association counts only beyond n / 2
        shrunk = max(cross - n / 2, 0.0) if cross > 0 else float(cross)
        phi = shrunk / math.sqrt(margins) if margins else 0.0
        d = self.difference
        low = d - _square_and_add(p1 - l1, u2 - p2, phi)
        high = d + _square_and_add(p2 - l2, u1 - p1, phi)
        return (max(low, -1.0), min(high, 1.0))

    def mcnemar_p(self) -> float:
        """Exact two-sided McNemar p-value: binomial test on the discordant pairs."""
        b, c = self.only_a, self.only_b
        k, m = min(b, c), b + c
        if m == 0:
            return 1.0
        log_half = m * math.log(0.5)
        tail = sum(
            math.exp(math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1) + log_half)
            for i in range(k + 1)
        )
        return min(1.0, 2 * tail)


def _square_and_add(x: float, y: float, phi: float) -> float:
    """Two interval half-widths combined, as for a difference of correlated estimates."""
    return math.sqrt(max(x * x - 2 * phi * x * y + y * y, 0.0))


def paired(a: np.ndarray, b: np.ndarray) -> Paired:
    """Cross-tabulate two win arrays over the same deals (an empty pair: no games)."""
    if a.shape != b.shape:
        raise ValueError("both bots must have played the same deals")
    a, b = a.astype(bool), b.astype(bool)
    return Paired(
        games=int(a.size),
        both=int((a & b).sum()),
        only_a=int((a & ~b).sum()),
        only_b=int((~a & b).sum()),
        neither=int((~a & ~b).sum()),
    )
