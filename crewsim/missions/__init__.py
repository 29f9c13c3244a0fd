"""Mission records from ``scenarios/``: the shipped campaigns, custom files and id lookups.

The shipped files live in the repository's top-level ``scenarios/`` folder (found next to the
package: ``<repo>/scenarios``, the layout of an editable install).  Set ``CREWSIM_SCENARIOS``
to a folder holding ``planet_nine.toml``, ``deep_sea.toml`` and ``deep_sea_tasks.toml`` to use
other copies (for a non-editable install, or to try edited data without touching the repo).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from crewsim.cards import Game
from crewsim.errors import CrewsimError
from crewsim.missions.loader import (
    check_complete_deck,
    check_fixed_tasks,
    load_file,
    load_missions_file,
    load_task_cards_file,
)
from crewsim.missions.schema import (
    OBJECTIVE_PARAMS,
    ORDER_TOKENS,
    TASK_PARAMS,
    Allocation,
    CommMode,
    Mission,
    Objective,
    ObjectiveKind,
    Params,
    TaskCard,
    TaskKind,
    TokenAdjust,
)

__all__ = [
    "OBJECTIVE_PARAMS",
    "ORDER_TOKENS",
    "TASK_PARAMS",
    "Allocation",
    "CommMode",
    "Mission",
    "Objective",
    "ObjectiveKind",
    "Params",
    "TaskCard",
    "TaskKind",
    "TokenAdjust",
    "all_missions",
    "get_mission",
    "get_task_card",
    "load_campaign",
    "load_file",
    "load_scenario_file",
    "load_task_cards",
    "resolve_missions",
    "scenarios_dir",
]

SCENARIOS_ENV = "CREWSIM_SCENARIOS"
CAMPAIGN_FILES = {Game.PLANET_NINE: "planet_nine.toml", Game.DEEP_SEA: "deep_sea.toml"}
TASK_CARDS_FILE = "deep_sea_tasks.toml"
_GROUPS = {"planet-nine": Game.PLANET_NINE, "deep-sea": Game.DEEP_SEA}
_NUMBERED_ID = re.compile(r"^(.*?)(\d+)$")


def scenarios_dir() -> Path:
    """Folder of the shipped scenario files: $CREWSIM_SCENARIOS, else ``<repo>/scenarios`` (a
    checkout), else the copy ``pip install`` puts in the package (``crewsim/scenarios``)."""
    env = os.environ.get(SCENARIOS_ENV)
    package = Path(__file__).resolve().parents[1]
    folder = Path(env) if env else package.parent / "scenarios"
    if not env and not folder.is_dir():
        folder = package / "scenarios"
    if not folder.is_dir():
        raise CrewsimError(
            f"scenario folder {folder} not found (set {SCENARIOS_ENV} to the folder holding "
            f"{', '.join([*CAMPAIGN_FILES.values(), TASK_CARDS_FILE])})"
        )
    return folder


def _as_game(game: Game | str) -> Game:
    try:
        return Game(game)
    except ValueError:
        known = ", ".join(g.value for g in Game)
        raise CrewsimError(f"unknown game {game!r} (known: {known})") from None


def load_campaign(game: Game | str) -> tuple[Mission, ...]:
    """The shipped missions of one game, in logbook order (cached)."""
    return _campaign(_as_game(game), scenarios_dir())


@lru_cache(maxsize=8)
def _campaign(game: Game, folder: Path) -> tuple[Mission, ...]:
    path = folder / CAMPAIGN_FILES[game]
    missions = load_missions_file(path)
    for m in missions:
        if m.game is not game:
            raise CrewsimError(f"{path}: mission '{m.id}': field 'game': expected {game.value}")
    if game is Game.DEEP_SEA:
        check_fixed_tasks(missions, _shipped_task_cards(folder), str(path))
    return missions


def all_missions() -> tuple[Mission, ...]:
    """Both shipped campaigns: Planet Nine 1-50, then Deep Sea 1-32.  An id in both files is
    an error: a lookup would take the first and play the other game's mission silently."""
    planet, deep = load_campaign(Game.PLANET_NINE), load_campaign(Game.DEEP_SEA)
    clash = sorted({m.id for m in planet} & {m.id for m in deep})
    if clash:
        folder = scenarios_dir()
        raise CrewsimError(
            f"{folder / CAMPAIGN_FILES[Game.DEEP_SEA]}: mission '{clash[0]}': field 'id': "
            f"already a mission of {folder / CAMPAIGN_FILES[Game.PLANET_NINE]}"
        )
    return planet + deep


def get_mission(mission_id: str, pool: Sequence[Mission] | None = None) -> Mission:
    """One mission by id, from the shipped campaigns or from ``pool``."""
    missions = all_missions() if pool is None else tuple(pool)
    wanted = mission_id.strip().lower()
    for m in missions:
        if m.id == wanted:
            return m
    raise CrewsimError(f"unknown mission id '{mission_id}' (known: {summarise_ids(missions)})")


def load_scenario_file(path: str | Path) -> tuple[Mission, ...]:
    """Missions from any TOML (or YAML, with PyYAML) file, validated."""
    return load_missions_file(path)


def load_task_cards(path: str | Path | None = None) -> tuple[TaskCard, ...]:
    """The 96 Deep Sea task cards (shipped, cached) or the cards of another file."""
    if path is None:
        return _shipped_task_cards(scenarios_dir())
    return load_task_cards_file(path)


@lru_cache(maxsize=4)
def _shipped_task_cards(folder: Path) -> tuple[TaskCard, ...]:
    path = folder / TASK_CARDS_FILE
    cards = load_task_cards_file(path)
    check_complete_deck(cards, str(path))
    return cards


def get_task_card(number_or_ref_id: str | int, cards: Sequence[TaskCard] | None = None) -> TaskCard:
    """One task card by number (``17``, ``"17"``) or by ref_id (``"4x9"``, case-insensitive)."""
    deck = load_task_cards() if cards is None else cards
    key = str(number_or_ref_id).strip()
    for c in deck:
        if str(c.number) == key or c.ref_id.lower() == key.lower():
            return c
    numbers = sorted(c.number for c in deck)
    known = f"{numbers[0]}..{numbers[-1]}" if numbers else "none"
    raise CrewsimError(f"unknown task card {key!r} (known numbers: {known}, or a ref_id)")


def summarise_ids(missions: Iterable[Mission]) -> str:
    """Compact list of ids for error messages: ``pn-1..pn-50, ds-1..ds-32``."""
    runs: list[tuple[str, int, int]] = []
    others: list[str] = []
    for m in missions:
        match = _NUMBERED_ID.match(m.id)
        if not match:
            others.append(m.id)
            continue
        prefix, n = match.group(1), int(match.group(2))
        if runs and runs[-1][0] == prefix and runs[-1][2] == n - 1:
            runs[-1] = (prefix, runs[-1][1], n)
        else:
            runs.append((prefix, n, n))
    parts = [f"{p}{a}" if a == b else f"{p}{a}..{p}{b}" for p, a, b in runs]
    return ", ".join(parts + others) or "none"


def resolve_missions(spec: str, pool: Sequence[Mission] | None = None) -> list[Mission]:
    """Missions named by a spec: ``pn-1``, ``pn-1..10``, ``pn-3,pn-7``, ``deep-sea``, ``all``.

    Items are separated by commas; ranges are inclusive and may repeat the prefix
    (``ds-1..ds-32``).  Duplicates are dropped, first occurrence kept.  ``pool`` replaces the
    shipped campaigns (e.g. the missions of a custom scenario file).
    """
    missions = all_missions() if pool is None else tuple(pool)
    if not spec.strip():
        raise CrewsimError("empty mission list (examples: pn-1, pn-1..10, deep-sea)")
    chosen: list[Mission] = []
    for raw in spec.split(","):
        item = raw.strip().lower()
        if not item:
            raise CrewsimError(f"empty item in mission list {spec!r}")
        chosen.extend(_resolve_item(item, missions))
    unique: dict[str, Mission] = {}
    for m in chosen:
        unique.setdefault(m.id, m)
    return list(unique.values())


def _resolve_item(item: str, missions: Sequence[Mission]) -> list[Mission]:
    if item == "all":
        return list(missions)
    if item in _GROUPS:
        return [m for m in missions if m.game is _GROUPS[item]]
    if ".." not in item:
        return [get_mission(item, missions)]
    left, right = (s.strip() for s in item.split("..", 1))
    start = _NUMBERED_ID.match(left)
    if not start or not right:
        raise CrewsimError(f"bad mission range {item!r} (write e.g. pn-1..10 or ds-1..ds-32)")
    prefix, lo = start.group(1), int(start.group(2))
    end = _NUMBERED_ID.match(right)
    if not end or end.group(1) not in ("", prefix):
        raise CrewsimError(f"bad mission range {item!r}: both ends need the prefix '{prefix}'")
    hi = int(end.group(2))
    if hi < lo:
        raise CrewsimError(f"reversed mission range {item!r} (write {prefix}{hi}..{lo})")
    return [get_mission(f"{prefix}{n}", missions) for n in range(lo, hi + 1)]
