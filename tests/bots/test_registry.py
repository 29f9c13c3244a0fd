"""Bot crews from TOML: the shipped ones load; a bad value is one line naming file, bot, field."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewsim.bots import get_bot, load_bots
from crewsim.errors import CrewsimError
from crewsim.kernel import layout as L


def test_the_shipped_crews_load() -> None:
    assert set(load_bots()) == {"random", "heuristic", "heuristic-silent", "search", "pimc"}
    assert get_bot("heuristic").kind == "heuristic"
    assert get_bot("search").kind == "search"


def test_the_search_crew_is_the_heuristic_with_search_parameters() -> None:
    """Everything but the kind and the search's own slots is the heuristic's."""
    search, heuristic = get_bot("search").vector(), get_bot("heuristic").vector()
    own = [L.BP_KIND, L.BP_SEARCH_MIN, L.BP_SEARCH_MAX, L.BP_SEARCH_Z, L.BP_SEARCH_CREDIT]
    rest = [i for i in range(L.BP_SIZE) if i not in own]
    assert (search[rest] == heuristic[rest]).all()
    assert search[L.BP_SEARCH_MAX] >= search[L.BP_SEARCH_MIN] > 0


def test_the_pimc_crew_is_the_heuristic_with_pimc_parameters() -> None:
    pimc, heuristic = get_bot("pimc").vector(), get_bot("heuristic").vector()
    own = [L.BP_KIND, L.BP_PIMC_WORLDS, L.BP_PIMC_BUDGET]
    rest = [i for i in range(L.BP_SIZE) if i not in own]
    assert (pimc[rest] == heuristic[rest]).all()
    assert pimc[L.BP_KIND] == 3 and pimc[L.BP_PIMC_WORLDS] >= 1 and pimc[L.BP_PIMC_BUDGET] >= 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("distress_threshold = nan", "expected a number, got nan"),
        ("distress_threshold = -5.0", "expected 0 to 1, got -5.0"),  # a share of the tasks
        ("communicate = 2", "expected 0 to 1, got 2"),
        ("yes_threshold = inf", "expected a number, got inf"),
        ('poor_score = "low"', "expected a number, got 'low'"),
        ("poorscore = 1", "unknown field 'poorscore'"),
        ("search_loss_credit = 2", "expected 0 to 1, got 2"),
        ("search_max_worlds = -1", "expected 0 to 4096, got -1"),
        ("pimc_worlds = 8", "field 'pimc_worlds' is for a crew of kind 'pimc', not 'heuristic'"),
        ("search_z = 3", "field 'search_z' is for a crew of kind 'search', not 'heuristic'"),
    ],
)
def test_a_bad_value_is_one_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bots.toml"
    path.write_text(f'[bot.x]\nkind = "heuristic"\n{line}\n')
    with pytest.raises(CrewsimError) as err:
        load_bots(path)
    assert str(err.value).startswith(f"{path}: bot 'x': ")
    assert message in str(err.value) and "\n" not in str(err.value)
