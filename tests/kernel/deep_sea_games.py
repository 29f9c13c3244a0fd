"""Recorded Deep Sea games for the set-up tests: the task cards in play and their owners."""

from __future__ import annotations

import numpy as np

from crewsim.bots import get_bot
from crewsim.engine.run import run_chunk
from crewsim.kernel import layout as L
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission


def deep_games(mission_id: str, players: int, bot: str, n: int = 300) -> dict[str, np.ndarray]:
    mp = KernelMission(get_mission(mission_id), players, distress="never").vector()
    return run_chunk(mp, get_bot(bot).vector(), n, 31 * players + 7, record=True)


def captain(rec: dict[str, np.ndarray], i: int, seats: int) -> int:
    return next(s for s in range(seats) if int(rec["rec_hands"][i][s]) >> 39 & 1)


def in_play(rec: dict[str, np.ndarray], i: int) -> tuple[list[int], list[int]]:
    """Game ``i``'s task card numbers (0-based rows of the deck) and their seats."""
    row = rec["rec_ds"][i]
    n = int(row[3 * L.MAX_DS])
    return [int(x) for x in row[:n]], [int(x) for x in row[L.MAX_DS : L.MAX_DS + n]]
