"""Small real runs of several crews on the same deals (the analysis tests' fixtures)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from crewsim.bots import Bot, get_bot
from crewsim.missions import resolve_missions
from crewsim.runs.plan import RunConfig
from crewsim.runs.session import CeilingRequest, play

SEED = 5
CHUNK = 50  # games 50.. lie in a cell's second chunk: pairing must cross it


def small_search() -> Bot:
    """The search crew with at most 4 worlds per card play: a few games a second."""
    params = dict(get_bot("search").params) | {"search_max_worlds": 4.0, "search_min_worlds": 4.0}
    return Bot("search", "search", tuple(params.items()))


def make_crew_runs(root: Path) -> dict[str, Path]:
    """pn-1..3 at 3 and 4 players, seed 5, chunks of 50: the heuristic crew (120 games, the
    ceiling on the first 10 deals), and on fewer of the same deals the heuristic crew again,
    the random crew and a small search crew; one heuristic run of another seed."""
    base = RunConfig(
        missions=tuple(resolve_missions("pn-1..3")),
        players=(3, 4),
        games=120,
        bot=get_bot("heuristic"),
        seed=SEED,
        jobs=1,
        chunk_size=CHUNK,
    )
    made = {
        "heuristic": (base, CeilingRequest(10)),
        "heuristic_short": (replace(base, games=70), None),
        "random": (replace(base, games=70, bot=get_bot("random")), None),
        "search": (replace(base, games=12, bot=small_search()), None),
        "other_seed": (replace(base, games=60, seed=SEED + 1), None),
    }
    out = {}
    for name, (config, ceiling) in made.items():
        out[name], _ = play(config, root / name, ceiling)
    return out
