"""A report folder from a real run: files, self-contained HTML, Markdown, optional sections."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from crewsim.report.build import Report, build
from crewsim.report.document import Table
from crewsim.report.format import num, num_ci, pct, pct_ci
from crewsim.report.html import render as render_html
from crewsim.report.markdown import render as render_md

SetCeiling = Callable[[Path, list[tuple[int, int, int, int]]], None]  # conftest's set_ceiling


@pytest.fixture(scope="module")
def rep(small_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Report:
    """One report of the small run, shared: charts take a second or two to draw."""
    return build(small_run, tmp_path_factory.mktemp("rep"))


def test_report_folder(rep: Report) -> None:
    out = rep.out
    for name in ("index.html", "report.md"):
        assert (out / name).stat().st_size > 0
    charts = {p.name for p in (out / "charts").iterdir()}
    for stem in (
        "success-by-mission",
        "attempts-ranking-3p",
        "attempts-ranking-4p",
        "logbook",
        "fail-tricks",
    ):
        assert {f"{stem}.png", f"{stem}.svg"} <= charts
    assert "ceiling.png" not in charts
    for t in ("ranking", "logbook", "fail_tricks", "correlations", "summary"):
        text = (out / "tables" / f"{t}.csv").read_text()
        assert "NaN" not in text  # a missing value is an empty field (`csv_out`)
        csv = pl.read_csv(io.StringIO(text))
        assert csv.height > 0
        assert pl.read_parquet(out / "tables" / f"{t}.parquet").height == csv.height
    assert (out / "charts" / "logbook.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_html_is_self_contained_and_shows_the_ranking(rep: Report) -> None:
    page = (rep.out / "index.html").read_text()
    # nothing fetched from anywhere: no external scripts, styles, fonts or images
    assert not re.search(r"""src\s*=\s*["'](https?:|//|charts/)""", page)
    # links only within the report: its sections, and its own files, which exist
    links = re.findall(r'href="([^"]+)"', page)
    assert links and not [h for h in links if re.match(r"https?:|//|/", h)]
    files = [h for h in links if not h.startswith("#")]
    assert "tables/ranking.csv" in files and "charts/logbook.svg" in files
    assert [h for h in files if not (rep.out / h).exists()] == []
    anchors = set(re.findall(r'id="([^"]+)"', page))
    assert [h for h in links if h.startswith("#") and h[1:] not in anchors] == []
    assert "<link" not in page and "<script" not in page
    assert page.count('src="data:image/png;base64,') == 5
    assert "Ranking at 4 players" in page and "pn-4" in page
    assert "root seed 7" in page and "crewsim" in page
    assert "not in this run" in page  # the ceiling and Deep Sea are said to be missing


def test_markdown_links_charts_and_has_tables(rep: Report) -> None:
    md = (rep.out / "report.md").read_text()
    assert "![" in md and "(charts/success-by-mission.png)" in md
    assert "| rank | mission | rule | success [95 % CI]" in md
    part = md[md.index("## The hardest and easiest missions") :]
    table = part[part.index("### 4 players") :].split("\n\n")[1].splitlines()
    rows = table[2:]  # 4 missions: all hardest, none left over for the easiest
    assert len(rows) == 4 and rows[0].startswith("| hardest | pn-") and "| easiest |" not in part
    assert all(r.count(" % [") == 1 for r in rows)  # each rate with its interval
    assert "Standard: 1 task card" in md  # pn-1's rule in words beside its id


def test_contents_link_every_section_as_github_names_them(rep: Report) -> None:
    md = (rep.out / "report.md").read_text()
    contents = md[md.index("**Contents**") : md.index("## At a glance")]
    assert "- [At a glance](#at-a-glance)" in contents
    assert "[Ranking at 4 players](#ranking-at-4-players)" in contents
    # the second "3 players" heading of the page is GitHub's #3-players-1
    assert "[3 players](#3-players) · [4 players](#4-players)" in contents
    assert md.count("<details>") == len(rep.run.players) * 2  # each ranking's chart and table


def test_ceiling_section_appears_when_the_run_has_verdicts(
    run_copy: Path, tmp_path: Path, set_ceiling: SetCeiling
) -> None:
    set_ceiling(run_copy, [(100, 99, 1, 90)] * 8)
    rep = build(run_copy, tmp_path / "rep")
    assert (rep.out / "charts" / "ceiling.png").exists()
    md = (rep.out / "report.md").read_text()
    assert "feasible [95 % CI]" in md and "bot efficiency" in md
    assert "perfect-information ceiling" in md
    assert "undecided" not in md  # every deal decided: nothing to qualify


def test_ceiling_says_how_many_deals_were_left_undecided(
    run_copy: Path, tmp_path: Path, set_ceiling: SetCeiling
) -> None:
    set_ceiling(run_copy, [(100, 90, 10, 30)] * 7 + [(100, 36, 4, 30)])
    md = (build(run_copy, tmp_path / "rep").out / "report.md").read_text()
    assert "at most 60 % (" in md and "undecided" in md


def test_formatting() -> None:
    assert pct(0.12345) == "12.35 %"
    assert pct_ci(0.0041, 0.0033, 0.0051) == "0.410 % [0.330, 0.510]"
    assert num(float("inf")) == "∞" and num(1234.5) == "1,234" and num(3.14159) == "3.14"
    assert num_ci(1.97, 1.94, 2.0) == "1.97 [1.94, 2.00]"  # one style across an interval
    assert num_ci(9.8, 8.62, 11.2) == "9.80 [8.62, 11.20]"
    assert num_ci(24.4, 23.7, 25.1) == "24.4 [23.7, 25.1]"


def test_renderers_escape_text() -> None:
    t = Table(("a|b", "<x>"), (("1|2", "<script>"),))
    assert "a\\|b" in render_md([t])
    page = render_html([t], "t")
    assert "<script>" not in page and "&lt;script&gt;" in page


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Report:
    """A report of a run with both boxes: pn-1, pn-2, ds-20 and ds-29 at 3 players."""
    from crewsim.bots import get_bot
    from crewsim.missions import resolve_missions
    from crewsim.runs.montecarlo import run
    from crewsim.runs.plan import RunConfig

    folder = tmp_path_factory.mktemp("mixed")
    config = RunConfig(
        missions=tuple(resolve_missions("pn-1,pn-2,ds-20,ds-29")),
        players=(3,),
        games=600,
        bot=get_bot("heuristic"),
        seed=3,
        jobs=1,
    )
    run(config, folder / "run")
    return build(folder / "run", folder / "rep")


def test_a_deep_sea_report_says_how_often_the_set_up_was_repaired(mixed: Report) -> None:
    md = (mixed.out / "report.md").read_text()
    summary = mixed.run.summary
    summary = summary.filter(pl.col("mission").is_in(["ds-20", "ds-29"]))
    top = summary.sort("repair_share", descending=True).row(0, named=True)
    share = summary["repair_share"].mean()  # Planet Nine games are no part of it
    assert f"Deep Sea set-up: {pct(share, 1)} of the games had" in md  # type: ignore[arg-type]
    assert f"(most: {top['mission']} at 3 players, {pct(top['repair_share'], 1)})" in md


def test_each_box_is_its_own_campaign(mixed: Report) -> None:
    """Planet Nine and Deep Sea share logbook numbers, never a running total: pn-1, ds-20,
    pn-2, ds-29 used to add up in that order, and the glance table showed one of the two."""
    book = pl.read_csv(mixed.out / "tables" / "logbook.csv")
    for game, missions in (("planet-nine", ["pn-1", "pn-2"]), ("deep-sea", ["ds-20", "ds-29"])):
        part = book.filter(pl.col("game") == game)
        assert part["mission"].to_list() == missions
        each = part["expected_attempts"].to_list()
        assert part["cumulative_attempts"].to_list() == pytest.approx([each[0], sum(each)])
    md = (mixed.out / "report.md").read_text()
    assert "| 3 players, Planet Nine |" in md and "| 3 players, Deep Sea |" in md
    assert "after mission 20" in md  # ds-20 is in the run: the tenth missions it has


def test_a_perfect_order_is_not_blamed_on_too_few_missions() -> None:
    """Fisher's z has no interval at |rho| = 1, whatever the number of missions."""
    from crewsim.report.build import _no_interval

    assert _no_interval(-1.0) == " (a perfect order: no interval)"
    assert _no_interval(0.5) == " (too few missions)"
