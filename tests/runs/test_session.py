"""A run as the commands play it: what it says, the ceiling solved or kept, and Ctrl-C turned
into the message that resumes it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import polars as pl
import pytest

from crewsim.bots import get_bot
from crewsim.missions import resolve_missions
from crewsim.runs.plan import RunConfig
from crewsim.runs.progress import Advance
from crewsim.runs.session import CeilingRequest, RunProgress, RunStopped, play, resume_hint


def _config(games: int = 1000) -> RunConfig:
    return RunConfig(
        missions=tuple(resolve_missions("pn-2,pn-12")),
        players=(4,),
        games=games,
        bot=get_bot("heuristic"),
        seed=6,
        jobs=1,
        chunk_size=500,
    )


class Heard:
    """Every message of a session, by channel, and the bar's totals and advances."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.lines: list[tuple[str, str]] = []
        self.bars: list[int] = []
        self.advanced = 0
        self.stop_after = stop_after

    @contextmanager
    def bar(self, total: int) -> Iterator[Advance]:
        self.bars.append(total)

        def advance(n: int) -> None:
            self.advanced += n
            if self.stop_after is not None and self.advanced >= self.stop_after:
                raise KeyboardInterrupt  # Ctrl-C once that many games are stored

        yield advance

    def progress(self) -> RunProgress:
        return RunProgress(
            say=lambda t: self.lines.append(("say", t)),
            note=lambda t: self.lines.append(("note", t)),
            warn=lambda t: self.lines.append(("warn", t)),
            games=self.bar,
        )

    def said(self, channel: str) -> list[str]:
        return [t for c, t in self.lines if c == channel]


def test_a_run_with_its_ceiling_then_resumed_keeping_it(tmp_path: Path) -> None:
    heard = Heard()
    folder, summary = play(_config(), tmp_path, CeilingRequest(10), heard.progress())
    assert folder == tmp_path.absolute() and heard.bars == [2000] and heard.advanced == 2000
    said = heard.said("say")
    assert said[0].startswith("2 mission x player cells, 1,000 games each, bot heuristic")
    assert said[1].startswith("2,000 games simulated in ")
    assert "ceiling: pn-12 at 4 players left out" in " ".join(said)
    assert summary["ceiling_games"].to_list() == [10, 0]
    assert pl.read_parquet(folder / "summary.parquet").equals(summary)

    again = Heard()
    _, kept = play(_config(), tmp_path, None, again.progress())
    assert again.said("note") == ["resuming: 4 of 4 chunks already done, 0 to run"]
    assert again.bars == []  # nothing to play: no bar
    assert again.said("say")[-1] == "kept the perfect-information ceiling this folder already had"
    assert kept.equals(summary)


def test_ctrl_c_stops_with_where_the_run_stands_and_how_to_resume(tmp_path: Path) -> None:
    heard = Heard(stop_after=500)
    ceiling = CeilingRequest(10, conflicts=5)
    with pytest.raises(RunStopped) as stop:
        play(_config(), tmp_path, ceiling, heard.progress())
    assert stop.value.exit_code == 130
    status, hint = stop.value.message.split("\n")
    assert status == f"interrupted: 1 of 4 chunks done (500 of 2,000 games) in {tmp_path}"
    assert hint == f"resume with: {resume_hint(tmp_path, ceiling)}"
    assert hint.endswith(" --ceiling --ceiling-n 10 --ceiling-conflicts 5")
    assert not (tmp_path / "summary.parquet").exists()

    topped = Heard()
    play(_config(games=1500), tmp_path, None, topped.progress())
    assert topped.said("note") == [
        f"topping up {tmp_path} from 1,000 to 1,500 games per cell",
        "resuming: 1 of 6 chunks already done, 5 to run",
    ]
    assert topped.bars == [2500]
