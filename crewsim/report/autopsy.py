"""The report's section "Why games are lost": the loss autopsy of the run (``crewsim
autopsy``), a stacked bar per mission and crew size and its table."""

from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from crewsim.analysis.autopsy import KINDS
from crewsim.report import charts
from crewsim.report.document import Block, Fold, Heading, Image, Para, Table
from crewsim.report.format import pct, rule
from crewsim.runs.reader import Run

LABELS = {
    "unwinnable_deal": "deal unwinnable",
    "draft": "draft",
    "distress": "distress pass",
    "prediction": "prediction",
    "lead": "lead",
    "follow": "follow",
    "discard": "discard",
    "trump": "trump",
    "undecided": "undecided",
}
COLOURS = {
    "unwinnable_deal": "#555555",
    "draft": "#8c564b",
    "distress": "#e377c2",
    "prediction": "#bcbd22",
    "lead": "#1f77b4",
    "follow": "#2ca02c",
    "discard": "#ff7f0e",
    "trump": "#d62728",
    "undecided": "#cccccc",
}


def chart(run: Run, summary: pl.DataFrame, players: int) -> Figure:
    """One horizontal bar per mission: how its lost games were lost, stacked to 100 %."""
    part = summary.filter((pl.col("players") == players) & (pl.col("analysed") > 0))
    part = part.with_columns(
        pl.col("mission").map_elements(run.number, return_dtype=pl.Int64).alias("number")
    ).sort("number", descending=True)
    kinds = [k for k in KINDS if part[k].sum() > 0]
    fig = charts._figure(8.0, max(2.5, 0.22 * part.height + 1.6))
    ax = fig.subplots()
    left = [0.0] * part.height
    for kind in kinds:
        share = [100 * v for v in part[kind].to_list()]
        ax.barh(part["mission"], share, left=left, color=COLOURS[kind], label=LABELS[kind])
        left = [a + b for a, b in zip(left, share, strict=True)]
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of the lost games examined (%)")
    ax.tick_params(axis="y", labelsize=7)
    # right of the bars, in room the constrained layout keeps for it: clear of the axis label
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="what lost it")
    ax.set_title(f"{players} players: what lost each game (solver's yardstick)", fontsize=10)
    charts._caption(fig, run)
    return fig


def section(summary: pl.DataFrame, images: dict[int, Image], run: Run | None = None) -> list[Block]:
    """The section: what the autopsy is, then per crew size the chart and its table."""
    blocks: list[Block] = [
        Heading(2, "Why games are lost", "why-lost"),
        Para(
            "For each lost game examined, the solver replays the game and finds the first "
            "decision after which a crew that sees every card could no longer win: the deal "
            "itself (no allocation of its tasks wins), the draft, the distress pass, a Deep Sea "
            "prediction, or a play (a lead, a card of the colour led, a discard or a trump). "
            "Perfect information is the yardstick, so a decisive play can be a fair guess in "
            "the player's shoes. `crewsim autopsy RUN --trace GAME` shows one game with its "
            "decisive play and a winning alternative."
        ),
    ]
    for p, image in images.items():
        part = summary.filter(pl.col("players") == p)
        if run is not None:  # in logbook order, as the chart
            part = part.sort(pl.col("mission").map_elements(run.number, return_dtype=pl.Int64))
        table = _table(part, run)
        blocks += [
            Heading(3, f"{p} players", f"why-lost-{p}p"),
            image,
            Fold(f"Table: the {len(table.rows)} missions examined at {p} players", (table,)),
        ]
    return blocks


def _table(part: pl.DataFrame, run: Run | None = None) -> Table:
    """Per mission: the lost games, those examined and the share of each kind of loss that
    occurs at this crew size (a kind never seen here has no column), with the mission's rule
    in words when the run is known."""
    kinds = [k for k in KINDS if part[k].fill_null(0).sum() > 0]
    rows = tuple(
        (
            r["mission"],
            *((rule(run, r["mission"], 40),) if run is not None else ()),
            f"{r['games_lost']:,}",
            f"{r['analysed']:,}",
            *(pct(r[k], 0) for k in kinds),
            "" if r["median_trick"] is None else f"{r['median_trick']:.0f}",
        )
        for r in part.iter_rows(named=True)
    )
    header = (
        "mission",
        *(("rule",) if run is not None else ()),
        "lost",
        "examined",
        *(LABELS[k] for k in kinds),
        "median trick",
    )
    return Table(
        header,
        rows,
        align="l" + ("l" if run is not None else "") + "r" * (len(header) - 1 - (run is not None)),
    )
