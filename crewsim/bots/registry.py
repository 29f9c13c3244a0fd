"""Bot crews registered by name; their parameters are data (``scenarios/bots.toml``).

The kernel runs the crews' decisions (``crewsim.bots.crew``); this module turns a named crew
into the float vector the kernel reads, so a variant needs a TOML table, not code.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from crewsim.errors import CrewsimError
from crewsim.kernel import layout as L
from crewsim.missions import scenarios_dir

KINDS = {"random": 0, "heuristic": 1, "search": 2, "pimc": 3}
_PARAMS: dict[str, tuple[int, float]] = {  # name -> (slot, default)
    "communicate": (L.BP_COMM, 1.0),
    "distress_threshold": (L.BP_DISTRESS_THRESHOLD, 1.0),
    "yes_threshold": (L.BP_YES_THRESHOLD, 7.0),
    "handover_gain": (L.BP_HANDOVER_GAIN, 4.0),
    "poor_score": (L.BP_POOR_SCORE, 2.0),
    "token_gain": (L.BP_TOKEN_GAIN, 3.0),
    "endgame_tricks": (L.BP_ENDGAME, 3.0),
    "blind_yes_threshold": (L.BP_BLIND_YES, 8.0),
    "search_min_worlds": (L.BP_SEARCH_MIN, 16.0),
    "search_max_worlds": (L.BP_SEARCH_MAX, 128.0),
    "search_z": (L.BP_SEARCH_Z, 2.0),
    "search_loss_credit": (L.BP_SEARCH_CREDIT, 0.1),
    "search_communication": (L.BP_SEARCH_COMM, 0.0),
    "search_setup": (L.BP_SEARCH_SETUP, 1.0),
    "search_distress": (L.BP_SEARCH_DISTRESS, 1.0),
    "search_exact": (L.BP_SEARCH_EXACT, 3.0),
    "pimc_worlds": (L.BP_PIMC_WORLDS, 32.0),
    "pimc_budget": (L.BP_PIMC_BUDGET, 5000.0),
}
_RANGES = {  # a switch, shares, counts of worlds
    "communicate": (0.0, 1.0),
    "distress_threshold": (0.0, 1.0),
    "search_min_worlds": (1.0, 4096.0),
    "search_max_worlds": (0.0, 4096.0),
    "search_loss_credit": (0.0, 1.0),
    "search_communication": (0.0, 1.0),
    "search_setup": (0.0, 1.0),
    "search_distress": (0.0, 1.0),
    "search_exact": (0.0, 4.0),
    "pimc_worlds": (1.0, 4096.0),
    "pimc_budget": (1.0, 10_000_000.0),
}


@dataclass(frozen=True)
class Bot:
    """A named crew policy with its parameters."""

    name: str
    kind: str
    params: tuple[tuple[str, float], ...] = field(default=())

    def vector(self) -> np.ndarray:
        """The kernel's view: kind code and parameters at fixed slots."""
        bp = np.zeros(L.BP_SIZE, dtype=np.float64)
        bp[L.BP_KIND] = KINDS[self.kind]
        for name, (slot, default) in _PARAMS.items():
            bp[slot] = dict(self.params).get(name, default)
        return bp


def load_bots(path: Path | None = None) -> dict[str, Bot]:
    """All crews of a bots file (default: the shipped ``scenarios/bots.toml``)."""
    path = path or scenarios_dir() / "bots.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CrewsimError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CrewsimError(f"{path}: cannot read bots file: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CrewsimError(f"{path}: not valid TOML: {exc}") from None
    table = data.get("bot")
    if not isinstance(table, dict):
        raise CrewsimError(f"{path}: expected [bot.NAME] tables")
    return {name: _parse(path, name, spec) for name, spec in table.items()}


def _parse(path: Path, name: str, spec: Any) -> Bot:
    where = f"{path}: bot '{name}'"
    if not isinstance(spec, dict):
        raise CrewsimError(f"{where}: expected a table")
    kind = spec.get("kind")
    if kind not in KINDS:
        raise CrewsimError(f"{where}: field 'kind': expected one of {sorted(KINDS)}, got {kind!r}")
    params = []
    for key, value in spec.items():
        if key == "kind":
            continue
        if key not in _PARAMS:
            raise CrewsimError(f"{where}: unknown field {key!r} (known: {sorted(_PARAMS)})")
        if isinstance(value, bool):
            value = float(value)
        if not isinstance(value, int | float) or not math.isfinite(value):
            raise CrewsimError(f"{where}: field {key!r}: expected a number, got {value!r}")
        lo, hi = _RANGES.get(key, (-math.inf, math.inf))
        if not lo <= value <= hi:
            raise CrewsimError(f"{where}: field {key!r}: expected {lo:g} to {hi:g}, got {value!r}")
        own = key.partition("_")[0]  # search_* and pimc_* steer only their own kind of crew
        if own in ("search", "pimc") and own != kind:
            raise CrewsimError(
                f"{where}: field {key!r} is for a crew of kind {own!r}, not {kind!r}"
            )
        params.append((key, float(value)))
    return Bot(name, kind, tuple(params))


@cache
def _shipped() -> dict[str, Bot]:
    return load_bots()


def get_bot(name: str, path: Path | None = None) -> Bot:
    bots = load_bots(path) if path else _shipped()
    if name not in bots:
        raise CrewsimError(f"unknown bot {name!r} (known: {', '.join(sorted(bots))})")
    return bots[name]
