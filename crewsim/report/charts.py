"""Report charts: matplotlib figures that read without the surrounding text.

Figures are built on ``matplotlib.figure.Figure`` with the Agg canvas, never through pyplot:
no global backend switch, so the same functions work headless in `make reports`, in tests and
inline in a notebook.  Colours are the Okabe-Ito palette (safe for the common colour-vision
deficiencies) and every series also differs by marker or hatch, so a grey-scale print works.
Each chart carries the run's n, bot, seed, version and date in a caption line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import product
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator

from crewsim.report.format import num
from crewsim.report.tables import FAIL_KIND_LABELS, solved_deals
from crewsim.runs.reader import Run

# Okabe & Ito (2008), "Color Universal Design"
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
}
PLAYER_COLOURS = {
    2: OKABE_ITO["purple"],
    3: OKABE_ITO["blue"],
    4: OKABE_ITO["vermillion"],
    5: OKABE_ITO["green"],
}
PLAYER_MARKERS = {2: "D", 3: "o", 4: "s", 5: "^"}
KIND_COLOURS = {
    1: OKABE_ITO["blue"],
    2: OKABE_ITO["orange"],
    3: OKABE_ITO["sky_blue"],
    4: OKABE_ITO["vermillion"],
    5: OKABE_ITO["purple"],
}
KIND_HATCHES = {1: "", 2: "//", 3: "..", 4: "xx", 5: "\\\\"}
GAME_TITLES = {"planet-nine": "Planet Nine", "deep-sea": "Deep Sea"}
LOGIT_TICKS = (0.0001, 0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999)
_CLIP = 1e-4  # success rates are drawn within [_CLIP, 1 - _CLIP] on the logit axis
DPI = 144
OUTLIER_GAP = 15.0  # percentage points between winnable and won: a ceiling point worth naming


def _figure(width: float, height: float) -> Figure:
    """A pyplot-free figure with a constrained layout that leaves room for the caption."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.set(rect=(0, 0.035, 1, 0.965))  # type: ignore[call-arg]
    return fig


def _caption(fig: Figure, run: Run) -> None:
    fig.text(0.005, 0.005, run.caption(), fontsize=7.5, color="#444444", ha="left", va="bottom")


def _pct(x: float, _pos: object = None) -> str:
    """Percent labels as the tables write them (``5 %``, ``99.9 %``), keeping the digits small
    rates need (0.01 %, 0.1 %)."""
    v = 100 * x
    if v < 1 or v > 99:
        return f"{v:.2g} %" if v < 1 else f"{v:.1f} %"
    return f"{v:.0f} %"


def _plain(v: float, _pos: object = None) -> str:
    """A tick as the tables print a count: 1, 2.5, 30, 1,000 (never ``2×10⁰``)."""
    return f"{v:,.0f}" if v >= 10 else f"{v:g}"


def plain_log_axis(axis: Axis) -> None:
    """A log axis labelled in plain numbers; minor ticks (2, 5, 20, 50 ...) labelled too when
    the axis spans under two and a half decades, where the major ones alone are two or three."""
    axis.set_major_formatter(FuncFormatter(_plain))

    def minor(v: float, _pos: object = None) -> str:
        lo, hi = axis.get_view_interval()  # at drawing time, once the limits are final
        few = 0 < lo < hi and math.log10(hi / lo) < 2.5
        return _plain(v) if few and round(v / 10 ** math.floor(math.log10(v))) in (2, 5) else ""

    axis.set_minor_formatter(FuncFormatter(minor))


def campaign_label(game: str, players: int, both: bool) -> str:
    """A campaign's name in tables and legends: the box too when the run has both."""
    return f"{players} players, {GAME_TITLES.get(game, game)}" if both else f"{players} players"


def _campaign_title(run: Run) -> str:
    return " + ".join(GAME_TITLES.get(g, g) for g in run.games)


def _mission_order(run: Run, rank: pl.DataFrame) -> list[str]:
    """Missions in logbook order (game by game), the x axis of per-mission charts."""
    ms = rank.select("mission", "number").unique()
    games = run.games
    return [
        m
        for m, _ in sorted(
            ms.iter_rows(),
            key=lambda r: (
                games.index(run.missions[r[0]].game) if r[0] in run.missions else 0,
                r[1],
            ),
        )
    ]


def _mission_labels(run: Run, order: list[str]) -> list[str]:
    """Logbook numbers when the run is one campaign (short), ids when it mixes both."""
    if len(run.games) == 1:
        return [str(run.number(m)) for m in order]
    return order


def success_by_mission(run: Run, rank: pl.DataFrame) -> Figure:
    """Success rate per mission with its 95 % interval, one series per player count.

    The y axis is logit-scaled: the campaign spans 0.1 % to 95 %, and on a linear axis every
    hard mission collapses onto the floor although 1 % and 0.2 % mean 100 versus 500 attempts.
    """
    order = _mission_order(run, rank)
    x_of = {m: i for i, m in enumerate(order)}
    fig = _figure(max(8.0, 0.22 * len(order) + 3), 5.2)
    ax = fig.add_subplot()
    players = run.players
    width = 0.7 / max(len(players), 1)
    for k, p in enumerate(players):
        part = rank.filter(pl.col("players") == p)
        x = np.array([x_of[m] for m in part["mission"]]) + (k - (len(players) - 1) / 2) * width
        y = np.clip(part["success_rate"].to_numpy(), _CLIP, 1 - _CLIP)
        lo = np.clip(part["ci_low"].to_numpy(), _CLIP, 1 - _CLIP)
        hi = np.clip(part["ci_high"].to_numpy(), _CLIP, 1 - _CLIP)
        ax.errorbar(
            x,
            y,
            yerr=[y - lo, hi - y],
            fmt=PLAYER_MARKERS.get(p, "o"),
            ms=4.5,
            color=PLAYER_COLOURS.get(p, "black"),
            ecolor=PLAYER_COLOURS.get(p, "black"),
            elinewidth=1.2,
            capsize=2,
            label=f"{p} players",
        )
    ax.set_yscale("logit")
    ax.yaxis.set_major_locator(FixedLocator(LOGIT_TICKS))
    ax.yaxis.set_major_formatter(FuncFormatter(_pct))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda _x, _p: ""))
    top = float(rank["ci_high"].max() or 1.0)  # type: ignore[arg-type]
    low = float(rank["ci_low"].min() or 0.0)  # type: ignore[arg-type]
    floor = max((t for t in LOGIT_TICKS if t <= low), default=LOGIT_TICKS[0])
    ax.set_ylim(max(floor * 0.8, _CLIP * 0.8), 0.995 if top < 0.99 else 1 - _CLIP * 0.8)
    ax.set_xticks(range(len(order)), _mission_labels(run, order), fontsize=7.5)
    ax.set_xlim(-0.8, len(order) - 0.2)
    ax.grid(axis="y", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_xlabel("mission (logbook number)" if len(run.games) == 1 else "mission")
    ax.set_ylabel("games won (%, logit scale; bars: 95 % interval)")
    ax.set_title(f"{_campaign_title(run)}: how often the {run.bot} bot crew wins each mission")
    ax.legend(title="crew size", loc="lower left", frameon=True, fontsize=8.5)
    _caption(fig, run)
    return fig


def attempts_ranking(run: Run, rank: pl.DataFrame, players: int) -> Figure:
    """Missions from hardest (top) to easiest: expected attempts per success, log scale."""
    part = rank.filter(pl.col("players") == players).sort("rank")
    n = part.height
    fig = _figure(8.0, max(3.5, 0.19 * n + 1.6))
    ax = fig.add_subplot()
    y = np.arange(n)
    att = part["expected_attempts"].to_numpy()
    lo = part["attempts_low"].to_numpy()
    hi = part["attempts_high"].to_numpy()
    finite = np.isfinite(att)
    colour = PLAYER_COLOURS.get(players, "black")
    ax.barh(y[finite], att[finite], color=colour, alpha=0.35, height=0.7)
    ax.errorbar(
        att[finite],
        y[finite],
        xerr=[
            att[finite] - lo[finite],
            np.where(np.isfinite(hi[finite]), hi[finite], att[finite]) - att[finite],
        ],
        fmt="none",
        ecolor=colour,
        elinewidth=1.2,
        capsize=2,
    )
    for yi, a, h in zip(y, att, hi, strict=True):
        label = "no win seen" if not math.isfinite(a) else num(a)
        at = h if math.isfinite(h) else (a if math.isfinite(a) else 1.0)
        ax.text(at, float(yi), f" {label}", va="center", fontsize=7)
    ax.set_yticks(y, [f"{m}" for m in part["mission"]], fontsize=7.5)
    ax.set_xscale("log")
    ends = np.concatenate([hi[np.isfinite(hi)], att[finite]])  # a mission no crew won is inf
    top = float(ends.max()) if ends.size else 10.0
    ax.set_xlim(0.9, max(10.0, top * 3))
    plain_log_axis(ax.xaxis)
    ax.set_ylim(-0.7, n - 0.3)
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_xlabel("expected attempts per success (log scale; bars: 95 % interval)")
    ax.set_ylabel("mission (hardest at the top)")
    ax.set_title(f"{_campaign_title(run)}, {players} players: attempts a crew should expect")
    _caption(fig, run)
    return fig


def logbook_chart(run: Run, book: pl.DataFrame) -> Figure:
    """Running total of expected attempts through the campaign, per game (solid Planet Nine,
    dashed Deep Sea when a run has both) and player count.  A total that a never-won mission
    makes infinite ends its line there, labelled so, not with the last finite total."""
    fig = _figure(9.0, 5.0)
    ax = fig.add_subplot()
    both = book["game"].n_unique() > 1
    ends: list[tuple[float, float, str, str]] = []  # each line's end: x, y, label, colour
    for game, p in book.select("game", "players").unique(maintain_order=True).iter_rows():
        part = book.filter((pl.col("game") == game) & (pl.col("players") == p)).sort("number")
        x = part["number"].to_numpy()
        y = part["cumulative_attempts"].to_numpy()
        lo = part["cumulative_low"].to_numpy()
        hi = part["cumulative_high"].to_numpy()
        ok = np.isfinite(y)
        colour = PLAYER_COLOURS.get(p, "black")
        style = "--" if both and game == "deep-sea" else "-"
        sx, sy, slo, shi = _mission_steps(x[ok], y[ok], lo[ok], hi[ok])
        ax.fill_between(sx, slo, shi, color=colour, alpha=0.18, linewidth=0)
        ax.plot(sx, sy, style, color=colour, linewidth=1.8, label=campaign_label(game, p, both))
        ax.plot(x[ok][-1:] + 0.5, y[ok][-1:], PLAYER_MARKERS.get(p, "o"), color=colour, ms=6)
        if ok.any():
            text = num(float(y[ok][-1])) if ok.all() else f"∞ from mission {x[~ok][0]}"
            ends.append((float(x[ok][-1]) + 0.5, float(y[ok][-1]), text, colour))
    ax.set_yscale("log")
    first = float(book["number"].min() or 1)  # type: ignore[arg-type]
    last = float(book["number"].max() or 1)  # type: ignore[arg-type]
    longest = max((len(t) for *_, t, _c in ends), default=0)
    # room right of the last mission for the end labels, inside the frame
    ax.set_xlim(first - 0.7, last + 0.5 + (last - first + 1) * (0.03 + 0.011 * longest))
    _end_labels(ax, ends)
    plain_log_axis(ax.yaxis)
    ax.grid(which="major", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_xlabel("mission (logbook number)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("attempts so far, expected (log scale)")
    ax.set_title(
        f"{_campaign_title(run)}: attempts a crew should expect to log through the campaign"
    )
    ax.legend(title="crew size (band: 95 % interval)", loc="upper left", fontsize=8.5)
    _caption(fig, run)
    return fig


def _end_labels(ax: Axes, ends: list[tuple[float, float, str, str]]) -> None:
    """Each line's total beside its end, inside the frame, pushed apart on the log axis so no
    two overlap (at least a label's height between them, in the order of the ends)."""
    lo, hi = ax.get_ylim()
    span = math.log10(hi / lo)
    gap = span * 0.045  # a label's height, in decades, on a 5-inch chart
    placed: list[float] = []
    order = sorted(ends, key=lambda e: e[1])
    for end in order:
        at = math.log10(end[1])
        if placed and at < placed[-1] + gap:
            at = placed[-1] + gap
        placed.append(at)
    top = math.log10(hi) - gap / 2
    if placed and placed[-1] > top:  # pushed past the top: shift the stack down
        placed = [v - (placed[-1] - top) for v in placed]
    for (x, _y, text, colour), at in zip(order, placed, strict=True):
        ax.text(x, 10**at, f"  {text}", ha="left", va="center", fontsize=8, color=colour)


def _mission_steps(x: np.ndarray, *ys: np.ndarray) -> tuple[np.ndarray, ...]:
    """Step lines over the logbook: each simulated mission holds its running total over its
    own number (one mission wide, centred), and the line breaks (NaN) where missions are
    missing from the run, so no flat step claims that missions never simulated cost nothing."""
    xs: list[float] = []
    cols: list[list[float]] = [[] for _ in ys]
    for i, xi in enumerate(x):
        xs += [xi - 0.5, xi + 0.5]
        for col, y in zip(cols, ys, strict=True):
            col += [y[i], y[i]]
        if i + 1 < len(x) and x[i + 1] != xi + 1:
            xs.append(math.nan)
            for col in cols:
                col.append(math.nan)
    return (np.array(xs), *(np.array(c) for c in cols))


def fail_tricks_chart(run: Run, ft: pl.DataFrame) -> Figure:
    """On which trick lost games are lost, by failure kind; one panel per player count."""
    players = run.players
    fig = _figure(max(8.0, 3.6 * len(players)), 4.3)
    axes = fig.subplots(1, len(players), sharey=True, squeeze=False)[0]
    seen = set(ft.filter(pl.col("share") > 0)["kind"].to_list()) if ft.height else set()
    kinds = [k for k in sorted(FAIL_KIND_LABELS) if k in seen]  # the legend: kinds that occur
    for ax, p in zip(axes, players, strict=True):
        part = ft.filter(pl.col("players") == p)
        tricks = 13 if p <= 3 else (10 if p == 4 else 8)
        x = np.arange(1, tricks + 1)
        bottom = np.zeros(tricks)
        for kind in kinds:
            rows = part.filter(pl.col("kind") == kind)
            share = np.zeros(tricks)
            for t, s in zip(rows["trick"], rows["share"], strict=True):
                if 1 <= t <= tricks:
                    share[t - 1] += s
            ax.bar(
                x,
                100 * share,
                bottom=100 * bottom,
                color=KIND_COLOURS[kind],
                hatch=KIND_HATCHES[kind],
                edgecolor="white",
                linewidth=0.4,
                label=FAIL_KIND_LABELS[kind],
            )
            bottom += share
        ax.set_xticks(x)
        ax.set_title(f"{p} players", fontsize=10)
        ax.set_xlabel("trick on which the mission failed")
        ax.grid(axis="y", color="#dddddd", linewidth=0.8)
        ax.set_axisbelow(True)
    axes[0].set_ylabel("share of lost games (%)")
    axes[0].set_ylim(top=axes[0].get_ylim()[1] * 1.08)  # headroom above the tallest bar
    axes[0].legend(fontsize=8, loc="upper left", title="why")
    fig.suptitle(f"{_campaign_title(run)}: when missions are lost (all missions together)")
    _caption(fig, run)
    return fig


def ceiling_chart(run: Run, rank: pl.DataFrame) -> Figure:
    """Feasible share (solver) against bot success per mission: the gap is the bots' room."""
    fig = _figure(7.0, 6.5)
    ax = fig.add_subplot()
    ax.plot(
        [0, 100],
        [0, 100],
        color="#888888",
        linestyle="--",
        linewidth=1,
        label="bots win every winnable deal",
    )
    labels, points = [], []
    for p in run.players:
        part = rank.filter(pl.col("players") == p)
        colour = PLAYER_COLOURS.get(p, "black")
        x = 100 * part["ceiling_success_rate"].to_numpy()
        y = 100 * part["feasible_share"].to_numpy()
        below = np.clip(y - 100 * part["feasible_low"].to_numpy(), 0, None)
        above = np.clip(100 * part["feasible_high"].to_numpy() - y, 0, None)
        ax.errorbar(
            x,
            y,
            yerr=np.nan_to_num(np.vstack([below, above])),
            fmt="none",
            ecolor=colour,
            alpha=0.35,
            linewidth=0.8,
        )
        ax.scatter(
            x, y, color=colour, marker=PLAYER_MARKERS.get(p, "o"), s=22, label=f"{p} players"
        )
        points += [(a, b) for a, b in zip(x, y, strict=True) if np.isfinite(a + b)]
        gap = np.nan_to_num(y - x, nan=-1)
        for i in np.argsort(gap)[-3:]:  # the outliers only: the 3 widest gaps, if wide
            if gap[i] >= OUTLIER_GAP:
                labels.append((str(part["mission"][int(i)]), float(x[i]), float(y[i]), colour))
    # the axes start where the data do (a multiple of 10 below the lowest point or bar)
    xs = [a for a, _ in points]
    lows = 100 * rank["feasible_low"].drop_nulls().drop_nans().to_numpy()
    x0 = 10 * math.floor(min(xs, default=0) / 10 - 0.5) if xs else 0
    y0 = 10 * math.floor(min([*lows, *(b for _, b in points)], default=0) / 10 - 0.5)
    ax.set_xlim(max(0, x0), 100)
    ax.set_ylim(max(0, y0), 105)  # room above 100 % for the labels of always-winnable missions
    ax.set_yticks([t for t in ax.get_yticks() if max(0, y0) <= t <= 100])
    ax.set_xlabel(f"bot crew wins (% of the first {solved_deals(rank)} deals, the solved ones)")
    ax.set_ylabel("deals that can be won at all (%, perfect-information solver, 95 % CI)")
    ax.set_title(f"{_campaign_title(run)}: winnable deals against bot wins")
    ax.grid(color="#eeeeee")
    ax.legend(fontsize=8.5, loc="lower right")
    _caption(fig, run)
    annotate_apart(ax, labels, points)
    return fig


def annotate_apart(
    ax: Axes,
    labels: Sequence[tuple[str, float, float, str]],
    points: Sequence[tuple[float, float]] = (),
    size: float = 7.5,
) -> None:
    """Label points (text, x, y, colour) beside them, none over another label or a point.

    Each label takes the free slot inside the axes nearest its point, right or left of it, on a
    grid of one line height (clustered points crowd one spot); a label moved off its point gets
    a thin leader line.  Labels are placed in the order given, so the most
    important come first.
    """
    fig = ax.figure
    assert isinstance(fig, Figure)  # a chart's axes sit on the figure itself, never a subfigure
    fig.draw_without_rendering()  # settle the constrained layout: points are final
    line = 1.2 * size  # line height, in points
    to_points = 72.0 / fig.dpi
    fx0, fy0, fx1, fy1 = (v * to_points for v in ax.bbox.extents)
    taken = [  # every marker, a 6-point square, and the legend
        (px - 3, py - 3, px + 3, py + 3)
        for px, py in (np.asarray(ax.transData.transform(p)) * to_points for p in points)
    ]
    if (legend := ax.get_legend()) is not None:
        lx0, ly0, lx1, ly1 = (v * to_points for v in legend.get_window_extent().extents)
        taken.append((lx0, ly0, lx1, ly1))

    def free(box: tuple[float, float, float, float]) -> bool:
        inside = fx0 <= box[0] and box[2] <= fx1 and fy0 <= box[1] and box[3] <= fy1
        return inside and not any(
            box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in taken
        )

    for text, x, y, colour in labels:
        px, py = (v * to_points for v in ax.transData.transform((x, y)))
        width = 0.6 * size * len(text)
        shifts = sorted(product(range(25), range(-30, 31)), key=lambda s: s[0] ** 2 + s[1] ** 2)
        slots = [
            (left, py + 2 + k * line, left + width, py + 2 + (k + 1) * line)
            for i, k in shifts
            for left in (px + 4 + i * line, px - 4 - i * line - width)
        ]
        box = next((b for b in slots if free(b)), slots[0])
        taken.append(box)
        moved = box not in slots[:2]
        ax.annotate(
            text,
            (x, y),
            xytext=(box[0] - px, box[1] - py),
            textcoords="offset points",
            fontsize=size,
            color=colour,
            va="bottom",
            arrowprops={
                "arrowstyle": "-",
                "color": colour,
                "linewidth": 0.5,
                "shrinkA": 0,
                "shrinkB": 3,
            }
            if moved
            else None,
        )


def save(fig: Figure, folder: Path, name: str) -> tuple[Path, Path]:
    """Write ``name.png`` (for Markdown and the HTML report) and ``name.svg`` (for print)."""
    folder.mkdir(parents=True, exist_ok=True)
    png, svg = folder / f"{name}.png", folder / f"{name}.svg"
    fig.savefig(png, dpi=DPI, metadata={"Software": None})
    with rc_context({"svg.hashsalt": "crewsim"}):  # fixed ids: the same chart, the same bytes
        fig.savefig(svg, metadata={"Date": None})
    return png, svg
