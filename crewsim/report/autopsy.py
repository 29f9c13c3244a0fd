"""The report's section "Why games are lost": the loss autopsy of the run (``crewsim
autopsy``), a stacked bar per mission and crew size and its table; with ``--beside`` a run
that has its own autopsy, both crews' shares side by side."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl
from matplotlib.figure import Figure

from crewsim.analysis.autopsy import KINDS
from crewsim.analysis.autopsy_run import SUMMARY_SCHEMA, read_summary
from crewsim.analysis.beside import Beside
from crewsim.report import charts
from crewsim.report.beside import crew_names
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
    title = f"{players} players: what lost each game (solver's yardstick)"
    return _stacked(run, part, part["mission"].to_list(), title)


def _stacked(run: Run, part: pl.DataFrame, labels: list[str], title: str) -> Figure:
    """A stacked bar of the kinds' shares per row of ``part``, labelled ``labels``."""
    kinds = [k for k in KINDS if part[k].sum() > 0]
    fig = charts._figure(8.0, max(2.5, 0.22 * part.height + 1.6))
    ax = fig.subplots()
    left = [0.0] * part.height
    for kind in kinds:
        share = [100 * v for v in part[kind].to_list()]
        ax.barh(labels, share, left=left, color=COLOURS[kind], label=LABELS[kind])
        left = [a + b for a, b in zip(left, share, strict=True)]
    ax.set_xlim(0, 100)
    ax.margins(y=0.5 / max(part.height, 1))  # half a bar above and below, not 5 % of a long chart
    ax.set_xlabel("share of the lost games examined (%)")
    ax.tick_params(axis="y", labelsize=7)
    # right of the bars, in room the constrained layout keeps for it: clear of the axis label
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="what lost it")
    ax.set_title(title, fontsize=10)
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
    lead = {"mission": part["mission"].to_list()}
    if run is not None:
        lead["rule"] = [rule(run, m, 40) for m in lead["mission"]]
    return _shares_table(part, lead)


def _shares_table(part: pl.DataFrame, lead: dict[str, list[str]]) -> Table:
    """The autopsy's counts and shares per row of ``part`` after the columns ``lead`` (header
    -> a cell per row), each kind of loss seen in ``part`` a column."""
    kinds = [k for k in KINDS if part[k].fill_null(0).sum() > 0]
    rows = tuple(
        (
            *(cells[i] for cells in lead.values()),
            f"{r['games_lost']:,}",
            f"{r['analysed']:,}",
            *(pct(r[k], 0) for k in kinds),
            "" if r["median_trick"] is None else f"{r['median_trick']:.0f}",
        )
        for i, r in enumerate(part.iter_rows(named=True))
    )
    header = (*lead, "lost", "examined", *(LABELS[k] for k in kinds), "median trick")
    return Table(header, rows, align="l" * len(lead) + "r" * (len(header) - len(lead)))


# ---------------------------------------------------------------- the crew beside


@dataclass(frozen=True)
class Crews:
    """This run's autopsy and the ``--beside`` run's, for the section to set side by side;
    ``names``: this crew's and the other's, as the report names them (``beside.crew_names``)."""

    this: pl.DataFrame
    other: pl.DataFrame
    names: tuple[str, str]
    other_path: str

    def players(self) -> list[int]:
        """The crew sizes both autopsies examined."""
        return sorted(_examined(self.this) & _examined(self.other))

    def pair(self, run: Run, players: int) -> pl.DataFrame:
        """The missions both crews had examined at ``players``: a row per crew (``crew``),
        this crew's first, in logbook order."""
        mine, theirs = (_at(s, players) for s in (self.this, self.other))
        both = mine.join(theirs.select("mission"), on="mission", how="semi")
        rows = pl.concat(
            [
                both.with_columns(pl.lit(self.names[0]).alias("crew"), pl.lit(0).alias("order")),
                theirs.join(both.select("mission"), on="mission", how="semi").with_columns(
                    pl.lit(self.names[1]).alias("crew"), pl.lit(1).alias("order")
                ),
            ]
        )
        number = pl.col("mission").map_elements(run.number, return_dtype=pl.Int64)
        return rows.with_columns(number.alias("number")).sort("number", "order")


def _examined(summary: pl.DataFrame) -> set[int]:
    return set(summary.filter(pl.col("analysed") > 0)["players"].to_list())


def _at(summary: pl.DataFrame, players: int) -> pl.DataFrame:
    return summary.filter((pl.col("players") == players) & (pl.col("analysed") > 0))


def crews(this: pl.DataFrame | None, side: Beside | None) -> Crews | None:
    """Both autopsies when this run and the ``--beside`` run each have one (None else)."""
    if this is None or side is None:
        return None
    other = read_summary(side.other.path)
    if other is None:
        return None
    return Crews(this, other, crew_names(side), str(side.other.path))


def beside_chart(run: Run, both: Crews, players: int) -> Figure:
    """The two crews' bars for each mission both examined, one above the other."""
    part = both.pair(run, players).sort("number", "order", descending=True)
    labels = [f"{m} · {c}" for m, c in part.select("mission", "crew").iter_rows()]
    a, b = both.names
    return _stacked(run, part, labels, f"{players} players: what lost the games, {a} and {b}")


def beside_blocks(both: Crews, images: dict[int, Image], run: Run) -> list[Block]:
    """The other crew's autopsy beside this one's, per crew size both examined."""
    a, b = both.names
    examined = sorted(_examined(both.other))
    sizes = ", ".join(str(p) for p in examined)
    made_for = (
        f"made for {sizes} players only"
        if set(examined) < set(both.this["players"].to_list())
        else f"made for {sizes} players"
    )
    blocks: list[Block] = [
        Para(
            f"**Beside the {b} crew.** The run beside this one (`{both.other_path}`) has its "
            f"own autopsy, {made_for}; below, per crew size both "
            f"autopsies examined, each mission's {a} crew above its {b} crew. The deals are "
            "the same but each crew loses its own games, so each share is of that crew's "
            "lost games examined."
        )
    ]
    if not both.players():
        return [*blocks, Para("No crew size was examined in both runs.")]
    for p in both.players():
        part = both.pair(run, p)
        table = _shares_table(
            part, {"mission": part["mission"].to_list(), "crew": part["crew"].to_list()}
        )
        blocks += [
            Heading(3, f"{p} players: the {a} and {b} crews", f"why-lost-beside-{p}p"),
            *((images[p],) if p in images else ()),
            Fold(f"Table: the {part.height // 2} missions both crews had examined", (table,)),
        ]
    return blocks


def beside_rows(run: Run, both: Crews) -> pl.DataFrame:
    """Both crews' rows of every crew size both examined (``tables/autopsy_beside.csv``)."""
    parts = [both.pair(run, p).drop("order", "number") for p in both.players()]
    rows = pl.concat(parts) if parts else pl.DataFrame(schema={**SUMMARY_SCHEMA, "crew": pl.String})
    return rows.select(
        "mission",
        "players",
        "crew",
        *(k for k in SUMMARY_SCHEMA if k not in ("mission", "players")),
    )
