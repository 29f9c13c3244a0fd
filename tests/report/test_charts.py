"""Charts on awkward data: a mission nobody won beside very hard ones."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.text import Text

from crewsim.report import charts, tables
from crewsim.runs.reader import load_run


def test_attempts_axis_reaches_the_hardest_won_mission(small_run: Path) -> None:
    rank = pl.DataFrame(
        {
            "players": [4, 4, 4],
            "rank": [1, 2, 3],
            "mission": ["pn-1", "pn-2", "pn-3"],
            "expected_attempts": [math.inf, 500.0, 2.0],
            "attempts_low": [math.inf, 400.0, 1.9],
            "attempts_high": [math.inf, 800.0, 2.1],
        }
    )
    fig = charts.attempts_ranking(load_run(small_run), rank, 4)
    assert fig.axes[0].get_xlim()[1] >= 800  # the no-win mission's inf no longer hides the rest


def test_logbook_steps_break_where_missions_are_missing() -> None:
    """Missions 1, 2 and 5 simulated: no line runs over 3 and 4 as if they cost nothing."""
    x, y = charts._mission_steps(np.array([1, 2, 5]), np.array([1.0, 3.0, 7.0]))
    assert list(x[:4]) == [0.5, 1.5, 1.5, 2.5] and list(y[:4]) == [1.0, 1.0, 3.0, 3.0]
    assert np.isnan(x[4]) and np.isnan(y[4])
    assert list(x[5:]) == [4.5, 5.5] and list(y[5:]) == [7.0, 7.0]


def test_the_same_chart_gives_the_same_svg_bytes(small_run: Path, tmp_path: Path) -> None:
    run = load_run(small_run)
    rank = tables.ranking(run)
    paths = [charts.save(charts.attempts_ranking(run, rank, 4), tmp_path / k, "c") for k in "ab"]
    assert paths[0][1].read_bytes() == paths[1][1].read_bytes()


def test_labels_of_crowded_points_overlap_neither_each_other_nor_a_point() -> None:
    """Twelve names on a tight cluster (the balance chart's flagged cards, the ceiling chart's
    missions near 100 %): each goes to a free slot inside the axes, a moved one with a line."""
    fig = charts._figure(6.0, 4.0)
    ax = fig.add_subplot()
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    points = [(5 + 0.05 * k, 5 + 0.03 * k) for k in range(12)]
    ax.scatter(*zip(*points, strict=True))
    labels = [(f"card {k} someLongName", x, y, "black") for k, (x, y) in enumerate(points)]
    charts.annotate_apart(ax, labels, points)
    fig.draw_without_rendering()
    boxes = [Text.get_window_extent(t) for t in ax.texts]  # the words, not the leader line
    assert len(boxes) == 12
    for i, a in enumerate(boxes):
        assert ax.bbox.contains(a.x0, a.y0) and ax.bbox.contains(a.x1, a.y1)
        assert not any(a.overlaps(b) for b in boxes[:i])
        for px, py in ax.transData.transform(points):
            assert not (a.x0 < px < a.x1 and a.y0 < py < a.y1)
    assert sum(t.arrow_patch is not None for t in ax.texts) >= 10  # most had to move


def _labels(fig: object) -> list[str]:
    """Every tick label of every axis of a drawn figure."""
    fig.draw_without_rendering()  # type: ignore[attr-defined]
    return [
        t.get_text()
        for ax in fig.axes  # type: ignore[attr-defined]
        for axis in (ax.xaxis, ax.yaxis)
        for t in [*axis.get_majorticklabels(), *axis.get_minorticklabels()]
    ]


def test_logbook_end_labels_sit_inside_the_frame_and_apart(small_run: Path) -> None:
    """Four crews ending on nearly the same total: four labels, none over another or outside."""
    rows = [
        {
            "game": "planet-nine",
            "players": p,
            "number": m,
            "cumulative_attempts": m * (1.0 + 0.01 * p),
            "cumulative_low": m * 0.9,
            "cumulative_high": m * 1.1 + 0.01 * p,
        }
        for p in (2, 3, 4, 5)
        for m in range(1, 11)
    ]
    fig = charts.logbook_chart(load_run(small_run), pl.DataFrame(rows))
    ax = fig.axes[0]
    fig.draw_without_rendering()
    ends = [t for t in ax.texts if t.get_text().strip()[:1].isdigit()]
    assert len(ends) == 4
    boxes = [t.get_window_extent() for t in ends]
    for i, a in enumerate(boxes):
        assert ax.bbox.contains(a.x0, a.y0) and ax.bbox.contains(a.x1, a.y1)
        assert not any(a.overlaps(b) for b in boxes[:i])
    assert ax.get_xlim()[0] > 0  # the axis starts at the first mission, not at 0
    ticks = _labels(fig)
    assert not [t for t in ticks if "times" in t or "^" in t]  # no 2×10⁰ ticks
    assert {"1", "2", "5", "10"} <= set(ticks)  # a decade or so: 2 and 5 labelled too


def test_attempts_ticks_read_as_plain_numbers(small_run: Path) -> None:
    run = load_run(small_run)
    fig = charts.attempts_ranking(run, tables.ranking(run), 4)
    fig.draw_without_rendering()
    x = fig.axes[0].xaxis
    labels = [t.get_text() for t in [*x.get_majorticklabels(), *x.get_minorticklabels()]]
    labels = [t for t in labels if t]
    assert labels and all(t.replace(",", "").replace(".", "").isdigit() for t in labels)
    assert "2" in labels  # under 2.5 decades, 2 and 5 are labelled too


def test_fail_tricks_legend_lists_the_kinds_that_occur(small_run: Path) -> None:
    run = load_run(small_run)
    ft = tables.fail_tricks(run)
    fig = charts.fail_tricks_chart(run, ft)
    legend = fig.axes[0].get_legend()
    assert legend is not None
    shown = {t.get_text() for t in legend.get_texts()}
    occurring = {tables.FAIL_KIND_LABELS[k] for k in set(ft.filter(pl.col("share") > 0)["kind"])}
    assert shown == occurring and len(shown) < len(tables.FAIL_KIND_LABELS)


def test_percent_ticks_read_as_the_tables() -> None:
    assert [charts._pct(x) for x in (0.0001, 0.05, 0.5, 0.999)] == [
        "0.01 %",
        "5 %",
        "50 %",
        "99.9 %",
    ]
