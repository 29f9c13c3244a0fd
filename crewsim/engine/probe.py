"""One decision of a kernel game, taken again after the cards hidden from its seat were re-dealt.

The honest-information test plays a game to its ``at``-th decision, asks the referee for another
world consistent with everything the deciding seat has seen (``crewsim.rules.knowledge``), and
plays the same game from the same seed again, replacing the hidden cards at that decision: an
honest crew decides the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from crewsim.engine.run import new_state, run_chunk
from crewsim.kernel import layout as L


@dataclass(frozen=True)
class Decision:
    """What the kernel decided at the probed decision, and where in the game."""

    kind: int  # L.DEC_*
    seat: int  # the seat deciding (the dummy's seat when the commander plays for it)
    value: int  # task index, 0/1, card, or -1 (no communication)
    trick: int  # -1 during set-up
    nin: int  # cards already in the trick
    comms: int  # communications made before it


@dataclass(frozen=True)
class Swap:
    """The re-dealt hidden cards: every hand, the dummy's face-down cards (face-up card ->
    card beneath), and for a decision before hidden tasks are shown, other task cards."""

    hands: tuple[int, ...]
    under: Mapping[int, int]
    tasks: tuple[int, ...] = ()


def count_decisions(mp: np.ndarray, bp: np.ndarray, seed: int) -> int:
    """How many decisions the probe counts in the game played from ``seed``."""
    state = new_state()
    state.probe[0, L.PR_AT] = np.iinfo(np.int64).max
    run_chunk(mp, bp, 1, seed, state=state)
    return int(state.probe[0, L.PR_COUNT])


def probe(
    mp: np.ndarray, bp: np.ndarray, seed: int, at: int, swap: Swap | None = None
) -> tuple[Decision, dict[str, np.ndarray]]:
    """Decision ``at`` (from 1) of the game from ``seed``, and the game as recorded."""
    state = new_state()
    p = state.probe[0]
    p[L.PR_AT] = at
    if swap is not None:
        p[L.PR_SWAP] = 1
        state.probe_hands[0, : len(swap.hands)] = swap.hands
        state.probe_under[0] = -1
        for top, card in swap.under.items():
            state.probe_under[0, top] = card
        state.probe_tasks[0, : len(swap.tasks)] = swap.tasks
    rec = run_chunk(mp, bp, 1, seed, record=True, state=state)
    if p[L.PR_COUNT] < at:
        raise ValueError(f"the game from seed {seed} has only {p[L.PR_COUNT]} decisions")
    fields = (L.PR_KIND, L.PR_SEAT, L.PR_VALUE, L.PR_TRICK, L.PR_NIN, L.PR_COMMS)
    return Decision(*(int(p[f]) for f in fields)), rec
