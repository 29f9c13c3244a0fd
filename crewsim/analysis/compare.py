"""Two bot crews on exactly the same deals: a paired comparison (McNemar).

Why not just compare two runs with the same seed?  Inside a chunk the kernel draws deals and
the bots' random choices from one random stream, so after the first game two different bots
have consumed different numbers and see different deals.  The deal (hands, then task cards) is
the first thing drawn from a game's seed, so giving every game its own seed makes the deals
identical for any bot.  Paired games cancel the luck of the deal: the difference between bots
is measured on the games where they disagree, which needs far fewer games than two
independent runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from crewsim.bots import Bot
from crewsim.kernel.spec import KernelMission
from crewsim.missions.schema import Mission
from crewsim.runs.plan import chunk_seed
from crewsim.runs.stats import Z95


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
    from crewsim.engine.run import run_chunk

    mp = KernelMission(mission, players, distress).vector()
    seeds = game_seeds(seed, games)
    out: dict[str, np.ndarray] = {}
    for bot in bots:
        bp = bot.vector()
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
        """95 % Wald interval for a paired difference of proportions (fine for n in hundreds+)."""
        n, b, c = self.games, self.only_a, self.only_b
        se = math.sqrt(max(b + c - (b - c) ** 2 / n, 0.0)) / n
        d = self.difference
        return (d - Z95 * se, d + Z95 * se)

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


def paired(a: np.ndarray, b: np.ndarray) -> Paired:
    """Cross-tabulate two win arrays over the same deals."""
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
