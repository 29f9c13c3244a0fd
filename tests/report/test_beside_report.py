"""The report's section "The crews side by side": another run's crew on the same deals; and
that crew's loss autopsy beside this one's in "Why games are lost"."""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from crewsim.analysis.autopsy import KINDS
from crewsim.analysis.autopsy_run import SUMMARY_SCHEMA
from crewsim.analysis.beside import side_by_side
from crewsim.bots import get_bot
from crewsim.missions import resolve_missions
from crewsim.report.build import build
from crewsim.runs.montecarlo import run
from crewsim.runs.plan import RunConfig
from crewsim.runs.reader import load_run

SetCeiling = Callable[[Path, list[tuple[int, int, int, int]]], None]  # conftest's set_ceiling


@pytest.fixture(scope="module")
def random_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The random crew on the first 100 deals of the small run's pn-1..3 at 4 players."""
    out = tmp_path_factory.mktemp("runs") / "random"
    config = RunConfig(
        missions=tuple(resolve_missions("pn-1..3")),
        players=(4,),
        games=100,
        bot=get_bot("random"),
        seed=7,
        jobs=1,
        chunk_size=600,
    )
    run(config, out)
    return out


def test_the_section_in_markdown_html_and_tables(
    run_copy: Path, random_run: Path, set_ceiling: SetCeiling, tmp_path: Path
) -> None:
    set_ceiling(run_copy, [(10, 8, 2, 7)] * 8)  # pn-1..4 at 3 and 4 players
    this = load_run(run_copy)
    rep = build(this, tmp_path / "rep", side_by_side(this, random_run))
    md = (rep.out / "report.md").read_text()
    section = md[md.index("## The crews side by side") : md.index("## Files")]
    assert "This run's crew is `heuristic`, on 1,200 games" in section
    assert f"the `random` crew of the run `{random_run}`, on its own 100" in section
    assert "perfect-information ceiling" in section and "It is perfect information" in section
    assert "### 3 players" in section and "### 4 players" in section
    header = (
        "| mission | rule | heuristic success [95 % CI] | random success [95 % CI] | difference on "
        "the shared deals [95 % CI] | solved | feasible [95 % CI] | heuristic efficiency | "
        "random efficiency |"
    )
    assert header in section
    assert "| pn-4 | Standard: 3 task cards |" in section  # the mission's rule in words beside it
    assert "| pn-4 | " in section and " | - | - | 10 | " in section  # random never played pn-4
    assert "At 4 players, Spearman's ρ between the two crews' success rates over 3 missions" in md
    assert "`tables/beside.csv`" in md and f"--beside {random_run}" in md
    page = (rep.out / "index.html").read_text()
    assert '<h2 id="beside">The crews side by side</h2>' in page
    assert '<h3 id="beside-4p">4 players</h3>' in page
    beside = pl.read_csv(io.StringIO((rep.out / "tables" / "beside.csv").read_text()))
    assert beside.height == 8 and beside["other_games"].null_count() == 5
    assert set(beside["ceiling_from"]) == {"this"} and set(beside["ceiling_games"]) == {10}
    assert pl.read_parquet(rep.out / "tables" / "beside.parquet").height == 8
    agreement = pl.read_csv(rep.out / "tables" / "beside_agreement.csv")
    assert agreement["players"].to_list() == [4] and agreement["missions"].to_list() == [3]


def test_no_section_without_another_crew(small_run: Path, tmp_path: Path) -> None:
    rep = build(small_run, tmp_path / "rep")
    assert "side by side" not in (rep.out / "report.md").read_text()
    assert not (rep.out / "tables" / "beside.csv").exists()


def test_crews_of_one_name_are_told_apart_by_run(small_run: Path, tmp_path: Path) -> None:
    other = tmp_path / "again"
    config = RunConfig(
        missions=tuple(resolve_missions("pn-1..2")),
        players=(3,),
        games=50,
        bot=get_bot("heuristic"),
        seed=7,
        jobs=1,
        chunk_size=600,
    )
    run(config, other)
    this = load_run(small_run)
    rep = build(this, tmp_path / "rep", side_by_side(this, other))
    md = (rep.out / "report.md").read_text()
    assert (
        "| mission | rule | heuristic (this run) success [95 % CI] | heuristic (other run) " in md
    )
    assert "+0.0 pp" in md  # the same crew on the same deals: no difference
    assert "2 missions are too few for Spearman's ρ" in md


def _autopsy(folder: Path, cells: dict[tuple[str, int], dict[str, float]]) -> None:
    """An autopsy summary as `crewsim autopsy` writes it: 20 lost games per cell, 10
    examined, the shares of the kinds given (the rest undecided)."""
    rows = []
    for (mission, players), shares in cells.items():
        row = dict.fromkeys(KINDS, 0.0) | shares
        row["undecided"] = 1 - sum(shares.values())
        rows.append(
            {"mission": mission, "players": players, "games_lost": 20, "analysed": 10}
            | row
            | {"median_trick": 6.0}
        )
    (folder / "autopsy").mkdir()
    pl.DataFrame(rows, schema=SUMMARY_SCHEMA).write_csv(folder / "autopsy" / "summary.csv")


def test_why_games_are_lost_sets_the_other_crews_autopsy_beside(
    run_copy: Path, random_run: Path, tmp_path: Path
) -> None:
    """This run's autopsy at 3 and 4 players, the random crew's at 4 only: at 4 players each
    mission both examined has a row per crew, named, in a table, a chart and
    tables/autopsy_beside.csv; the text says the other autopsy covers 4 players only."""
    mine = {(m, p): {"lead": 0.5, "follow": 0.25} for m in ("pn-1", "pn-2", "pn-4") for p in (3, 4)}
    _autopsy(run_copy, mine)
    other = Path(shutil.copytree(random_run, tmp_path / "random"))
    _autopsy(other, {("pn-1", 4): {"unwinnable_deal": 0.75}, ("pn-2", 4): {"discard": 0.5}})
    this = load_run(run_copy)
    rep = build(this, tmp_path / "rep", side_by_side(this, other))
    md = (rep.out / "report.md").read_text()
    why = md[md.index("## Why games are lost") : md.index("## When missions are lost")]
    assert "### 3 players" in why and "### 4 players" in why  # this crew's own, as before
    assert "**Beside the random crew.**" in why and "made for 4 players only" in why
    assert "### 4 players: the heuristic and random crews" in why
    assert "3 players: the heuristic and random" not in why
    assert (
        "| mission | crew | lost | examined | deal unwinnable | lead | follow | discard | "
        "undecided |" in why
    )
    assert "| pn-1 | heuristic | 20 | 10 | 0 % | 50 % | 25 % | 0 % | 25 % | 6 |" in why
    assert "| pn-1 | random | 20 | 10 | 75 % | 0 % | 0 % | 0 % | 25 % | 6 |" in why
    assert "| pn-4 | random |" not in why  # the random crew never played pn-4
    assert "charts/why-lost-beside-4p.png" in why and "charts/why-lost-4p.png" in why
    assert (rep.out / "charts" / "why-lost-beside-4p.svg").exists()
    page = (rep.out / "index.html").read_text()
    assert '<h3 id="why-lost-beside-4p">4 players: the heuristic and random crews</h3>' in page
    table = pl.read_csv(rep.out / "tables" / "autopsy_beside.csv")
    assert table.select("mission", "crew").rows() == [
        ("pn-1", "heuristic"),
        ("pn-1", "random"),
        ("pn-2", "heuristic"),
        ("pn-2", "random"),
    ]
    assert set(table["players"]) == {4} and "`tables/autopsy_beside.csv`" in md


def test_no_autopsy_beside_when_the_other_run_has_none(
    run_copy: Path, random_run: Path, tmp_path: Path
) -> None:
    _autopsy(run_copy, {("pn-1", 4): {"lead": 1.0}})
    this = load_run(run_copy)
    rep = build(this, tmp_path / "rep", side_by_side(this, random_run))
    md = (rep.out / "report.md").read_text()
    assert "## Why games are lost" in md and "Beside the random crew" not in md
    assert not (rep.out / "tables" / "autopsy_beside.csv").exists()
