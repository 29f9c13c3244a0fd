"""Calling the kernel from Python: allocate the result arrays, run, return them by name."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from crewsim.bots.registry import KINDS
from crewsim.engine.play import play_chunk
from crewsim.errors import CrewsimError
from crewsim.kernel import layout as L
from crewsim.kernel.conditions import CODE_SIZE
from crewsim.kernel.deep_sea_tables import N_COLS

RESULT_COLUMNS = ("success", "fail_trick", "fail_kind", "fail_detail", "distress")
STATE_DTYPE = np.dtype([(name, kind, (size,)) for name, kind, size in L.STATE_FIELDS])


@cache
def _deep_sea_tables(players: int) -> tuple[np.ndarray, np.ndarray]:
    """The 96 task cards for this crew size: set-up/hint table and condition codes."""
    from crewsim.kernel.conditions import encode_tasks
    from crewsim.kernel.deep_sea_tables import task_table
    from crewsim.missions import load_task_cards

    return task_table(players).ravel(), encode_tasks(load_task_cards(), players).ravel()


def _tables(mp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if mp[L.MP_GAME] == 1:
        return _deep_sea_tables(int(mp[L.MP_PLAYERS]))
    return np.zeros(96 * N_COLS, dtype=np.int64), np.zeros(96 * CODE_SIZE, dtype=np.int64)


def new_state() -> np.recarray:
    """The kernel's scratch state for one chunk, zeroed: the game, and the search crew's
    rollout copy of it."""
    return np.zeros(2, dtype=STATE_DTYPE).view(np.recarray)


def run_chunk(
    mp: np.ndarray,
    bp: np.ndarray,
    n: int,
    seed: int,
    record: bool = False,
    state: np.recarray | None = None,
) -> dict[str, np.ndarray]:
    """Play ``n`` games from ``seed`` (an int64); with ``record`` keep every move as well.

    ``state`` (from ``new_state``) is given only to read or preset the scratch, as the
    honest-information probe (``crewsim.engine.probe``) does.

    Always returned besides the outcome columns: ``redeals`` and ``repairs`` per game, and
    for Deep Sea ``ds_cards`` (n x 16 card numbers in reveal order, 0 = none) and
    ``ds_owners`` (their seats, -1 = none); Planet Nine games leave those empty.
    """
    if int(bp[L.BP_KIND]) == KINDS["pimc"]:  # it would play the heuristic's cards here
        raise CrewsimError("the pimc crew plays through crewsim.solver.pimc.runner(bp)")
    if int(bp[L.BP_KIND]) == KINDS["search"]:  # (the other crews' runs leave it uncompiled)
        return play_with(play_chunk, mp, bp, n, seed, record, state, True)
    return play_with(play_chunk, mp, bp, n, seed, record, state)


def play_with(
    kernel: Callable[..., None],
    mp: np.ndarray,
    bp: np.ndarray,
    n: int,
    seed: int,
    record: bool,
    state: np.recarray | None,
    *extra: object,
) -> dict[str, np.ndarray]:
    """Allocate ``run_chunk``'s result arrays, let ``kernel`` (``play_chunk`` or a chunk
    function with its arguments, then ``extra``) fill them, and return them by name."""
    out: dict[str, np.ndarray] = {
        "success": np.zeros(n, dtype=np.bool_),
        "fail_trick": np.zeros(n, dtype=np.int8),
        "fail_kind": np.zeros(n, dtype=np.int8),
        "fail_detail": np.zeros(n, dtype=np.int8),
        "distress": np.zeros(n, dtype=np.bool_),
        "redeals": np.zeros(n, dtype=np.int8),
        "repairs": np.zeros(n, dtype=np.int8),
        # Deep Sea task cards in play (card number, 0 = none) and their seats (-1 = none)
        "ds_cards": np.zeros((n, L.MAX_DS), dtype=np.int8),
        "ds_owners": np.full((n, L.MAX_DS), -1, dtype=np.int8),
    }
    r = n if record else 1
    rec = {
        "hands": np.zeros((r, 5), dtype=np.int64),
        "under": np.full((r, 7, 2), -1, dtype=np.int64),
        "tasks": np.zeros((r, L.MAX_TASKS, 3), dtype=np.int64),
        "pick": np.zeros((r, L.MAX_TASKS), dtype=np.int64),
        "setup": np.zeros((r, 11), dtype=np.int64),
        "comms": np.full((r, L.REC_COMMS, 4), -1, dtype=np.int64),
        "draws": np.full((r, 5), -1, dtype=np.int64),
        "plays": np.full((r, L.REC_PLAYS), -1, dtype=np.int64),
        "ds": np.full((r, L.REC_DS), -1, dtype=np.int64),
    }
    tab, codes = _tables(mp)
    kernel(
        new_state() if state is None else state,
        mp,
        bp,
        tab,
        codes,
        n,
        np.int64(seed),
        out["success"],
        out["fail_trick"],
        out["fail_kind"],
        out["fail_detail"],
        out["distress"],
        record,
        rec["hands"],
        rec["under"],
        rec["tasks"],
        rec["pick"],
        rec["setup"],
        rec["comms"],
        rec["draws"],
        rec["plays"],
        rec["ds"],
        out["redeals"],
        out["repairs"],
        out["ds_cards"],
        out["ds_owners"],
        *extra,
    )
    if record:
        out.update({f"rec_{k}": v for k, v in rec.items()})
    return out
