"""Calling the kernel from Python: allocate the result arrays, run, return them by name."""

from __future__ import annotations

import numpy as np

from crewsim.kernel import layout as L
from crewsim.kernel.engine import play_chunk

RESULT_COLUMNS = ("success", "fail_trick", "fail_kind", "fail_detail", "distress")
STATE_DTYPE = np.dtype([(name, kind, (size,)) for name, kind, size in L.STATE_FIELDS])


def run_chunk(
    mp: np.ndarray, bp: np.ndarray, n: int, seed: int, record: bool = False
) -> dict[str, np.ndarray]:
    """Play ``n`` games from ``seed`` (an int64); with ``record`` keep every move as well."""
    out: dict[str, np.ndarray] = {
        "success": np.zeros(n, dtype=np.bool_),
        "fail_trick": np.zeros(n, dtype=np.int8),
        "fail_kind": np.zeros(n, dtype=np.int8),
        "fail_detail": np.zeros(n, dtype=np.int8),
        "distress": np.zeros(n, dtype=np.bool_),
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
    }
    play_chunk(
        np.zeros(1, dtype=STATE_DTYPE).view(np.recarray), mp, bp, n, np.int64(seed), out["success"],
        out["fail_trick"], out["fail_kind"], out["fail_detail"], out["distress"], record,
        rec["hands"], rec["under"], rec["tasks"],
        rec["pick"], rec["setup"], rec["comms"], rec["draws"], rec["plays"],
    )  # fmt: skip
    if record:
        out.update({f"rec_{k}": v for k, v in rec.items()})
    return out
