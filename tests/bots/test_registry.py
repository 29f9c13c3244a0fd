"""Bot crews from TOML: the shipped ones load; a bad value is one line naming file, bot, field."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewsim.bots import get_bot, load_bots
from crewsim.errors import CrewsimError


def test_the_shipped_crews_load() -> None:
    assert set(load_bots()) == {"random", "heuristic", "heuristic-silent", "search"}
    assert get_bot("heuristic").kind == "heuristic"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("distress_threshold = nan", "expected a number, got nan"),
        ("distress_threshold = -5.0", "expected 0 to 1, got -5.0"),  # a share of the tasks
        ("communicate = 2", "expected 0 to 1, got 2"),
        ("yes_threshold = inf", "expected a number, got inf"),
        ('poor_score = "low"', "expected a number, got 'low'"),
        ("poorscore = 1", "unknown field 'poorscore'"),
    ],
)
def test_a_bad_value_is_one_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bots.toml"
    path.write_text(f'[bot.x]\nkind = "heuristic"\n{line}\n')
    with pytest.raises(CrewsimError) as err:
        load_bots(path)
    assert str(err.value).startswith(f"{path}: bot 'x': ")
    assert message in str(err.value) and "\n" not in str(err.value)
