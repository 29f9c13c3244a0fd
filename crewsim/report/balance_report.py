"""The Deep Sea balance report: charts, tables and the document ``crewsim balance --out``
writes from a fitted ``balance.Balance`` (the model itself is in ``balance``)."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter

from crewsim.analysis.balance import (
    FLAG_MARGIN,
    MIN_CARD_GAMES,
    Balance,
    unidentified_reason,
)
from crewsim.report import charts, html, markdown
from crewsim.report.document import Block, Bullets, Contents, Fold, Heading, Image, Para, Table
from crewsim.report.format import card_label, num, pct, pct_ci, rho_ci
from crewsim.runs.csv_out import write_csv
from crewsim.runs.stats import Z95

LABEL_TOP = 12  # flagged cards named in the chart, per player count (most mis-rated first)


# ---------------------------------------------------------------- charts


def card_chart(bal: Balance) -> Figure:
    """Printed against estimated difficulty per task card, one panel per player count.

    Points are jittered sideways within a printed value so the cards of one value do not hide
    each other; flagged cards are filled, drawn in a second colour and named.
    """
    players = bal.players
    fig = charts._figure(max(8.0, 5.0 * len(players)), 6.0)
    axes = fig.subplots(1, len(players), sharey=True, squeeze=False)[0]
    rng = np.random.default_rng(0)  # fixed jitter: the chart is the same at every rebuild
    top = max(6.0, float(bal.cards["est_high"].drop_nans().max() or 6.0))  # type: ignore[arg-type]
    bottom = min(0.0, float(bal.cards["est_low"].drop_nans().min() or 0.0))  # type: ignore[arg-type]
    labelled = []  # per panel: flagged cards to name, every point
    for ax, p in zip(axes, players, strict=True):
        part = bal.cards.filter((pl.col("players") == p) & pl.col("estimated").is_not_nan())
        x = part["printed"].to_numpy() + rng.uniform(-0.28, 0.28, part.height)
        y, lo, hi = (part[c].to_numpy() for c in ("estimated", "est_low", "est_high"))
        flag = part["flagged"].to_numpy()
        hi_x = max(int(part["printed"].max() or 6), 6) + 0.8  # type: ignore[arg-type]
        ax.fill_between(
            [0, hi_x],
            [-FLAG_MARGIN, hi_x - FLAG_MARGIN],
            [FLAG_MARGIN, hi_x + FLAG_MARGIN],
            color="#eeeeee",
            linewidth=0,
            label=f"within ±{FLAG_MARGIN:g} point",
        )
        ax.plot(
            [0, hi_x],
            [0, hi_x],
            color="#888888",
            linestyle="--",
            linewidth=1,
            label="estimated = printed",
        )
        for mask, colour, marker, label in (
            (~flag, charts.OKABE_ITO["blue"], "o", "card"),
            (flag, charts.OKABE_ITO["vermillion"], "D", "flagged: mis-rated"),
        ):
            ax.errorbar(
                x[mask],
                y[mask],
                yerr=[y[mask] - lo[mask], hi[mask] - y[mask]],
                fmt=marker,
                ms=4 if marker == "o" else 5,
                color=colour,
                ecolor=colour,
                elinewidth=0.8,
                alpha=0.85,
                capsize=0,
                label=label,
            )
        named = part.with_columns(pl.Series("x", x)).filter(pl.col("flagged"))
        named = named.sort(pl.col("off_by").abs(), descending=True).head(LABEL_TOP)
        colour = charts.OKABE_ITO["vermillion"]
        labelled.append(
            (
                ax,
                [
                    (card_label(r["card"], r["text"], 24), r["x"], r["estimated"], colour)
                    for r in named.iter_rows(named=True)
                ],
                list(zip(x, y, strict=True)),
            )
        )
        ax.set_xlim(0.3, hi_x)
        ax.set_ylim(bottom - 0.3, top + 0.3)
        ax.set_xticks(range(1, int(hi_x) + 1))
        ax.set_title(f"{p} players", fontsize=10)
        ax.set_xlabel("printed difficulty (points; cards jittered sideways)")
        ax.grid(color="#eeeeee")
        ax.set_axisbelow(True)
    axes[0].set_ylabel("estimated difficulty (points; bars: 95 % interval)")
    axes[0].legend(fontsize=7.5, loc="upper left")
    per_fit = [g // max(m, 1) for g, m in zip(bal.fits["games"], bal.fits["missions"], strict=True)]
    fitted = max(per_fit, default=0)
    fig.suptitle(
        "Deep Sea task cards: printed against estimated difficulty\n"
        f"flagged: off by ≥ {FLAG_MARGIN:g} point and the interval excludes the printed value; "
        f"fit on {fitted:,} games per mission and crew size",
        fontsize=10,
    )
    charts._caption(fig, bal.run)
    for ax, labels, points in labelled:  # once the layout is whole: labels go where space is
        charts.annotate_apart(ax, labels, points, size=6.5)
    return fig


def mission_chart(bal: Balance) -> Figure:
    """Simulated success (logit scale, 95 % bars) against printed mission difficulty."""
    fig = charts._figure(8.5, 5.2)
    ax = fig.add_subplot()
    clip = 1e-4
    for p in bal.players:
        part = bal.missions.filter(pl.col("players") == p).drop_nulls("printed")
        colour = charts.PLAYER_COLOURS.get(p, "black")
        x = part["printed"].to_numpy() + (p - 4) * 0.15
        y, lo, hi = (
            np.clip(part[c].to_numpy(), clip, 1 - clip)
            for c in ("success_rate", "ci_low", "ci_high")
        )
        ax.errorbar(
            x,
            y,
            yerr=[y - lo, hi - y],
            fmt=charts.PLAYER_MARKERS.get(p, "o"),
            ms=4.5,
            color=colour,
            ecolor=colour,
            capsize=2,
            label=f"{p} players",
        )
    ax.set_yscale("logit")
    ax.yaxis.set_major_locator(FixedLocator(charts.LOGIT_TICKS))
    ax.yaxis.set_major_formatter(FuncFormatter(charts._pct))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda _x, _p: ""))
    ax.set_xlabel("printed mission difficulty (sum of the task cards' points)")
    ax.set_ylabel("games won (%, logit scale; bars: 95 % interval)")
    ax.set_title("Deep Sea: simulated success against printed mission difficulty")
    ax.grid(color="#eeeeee")
    ax.set_axisbelow(True)
    ax.legend(title="crew size", fontsize=8.5, loc="lower left")
    charts._caption(fig, bal.run)
    return fig


# ---------------------------------------------------------------- the report folder


def build(bal: Balance, out: Path | str) -> Path:
    """Write index.html, report.md, charts/ and tables/ for a balance analysis; return ``out``."""
    out = Path(out)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    named = [("cards", bal.cards), ("missions", bal.missions), ("fits", bal.fits)]
    if bal.ceiling is not None:
        named.append(("card-ceiling", bal.ceiling))
    for name, df in named:
        write_csv(df, out / "tables" / f"{name}.csv")
        df.write_parquet(out / "tables" / f"{name}.parquet")
    images = {}
    for name, fig, alt in (
        (
            "card-difficulty",
            card_chart(bal),
            "Printed against estimated difficulty of every Deep Sea task card per crew size, "
            "flagged cards named",
        ),
        (
            "mission-success",
            mission_chart(bal),
            "Simulated success of each Deep Sea mission against its printed difficulty",
        ),
    ):
        png, svg = charts.save(fig, out / "charts", name)
        images[name] = Image(png=png, svg=svg, alt=alt, rel=f"charts/{name}.png")
    blocks = content(bal, out, images)
    title = f"Deep Sea task-card balance: {bal.run.bot} bot crew"
    (out / "report.md").write_text(markdown.render(blocks))
    (out / "index.html").write_text(html.render(blocks, title))
    return out


def _points(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:+.2f}" if x < 0 else f"{x:.2f}"


def card_rows(bal: Balance, players: int, only_flagged: bool) -> list[tuple[str, ...]]:
    """Card table rows (most mis-rated first) shared by the report and the CLI; with the
    cards' ceilings, what the bots won of each card alone beside what could be won."""
    part = bal.cards.filter(pl.col("players") == players)
    if only_flagged:
        part = part.filter(pl.col("flagged"))
    if bal.ceiling is not None:
        part = part.join(
            bal.ceiling.select("players", "card", "deals", "bot_wins", "feasible"),
            on=["players", "card"],
            how="left",
        )
    part = part.sort(pl.col("off_by").abs().fill_nan(-1), descending=True)
    rows: list[tuple[str, ...]] = []
    for r in part.iter_rows(named=True):
        est = (
            "not estimated"
            if math.isnan(r["estimated"])
            else f"{r['estimated']:.2f} [{r['est_low']:.2f}, {r['est_high']:.2f}]"
        )
        number, sentence = card_label(r["card"], r["text"]).split(" ", 1)
        row: tuple[str, ...] = (  # the card as printed: its number, then its sentence
            number,
            sentence,
            str(r["printed"]),
            est,
            "-" if math.isnan(r["off_by"]) else f"{r['off_by']:+.2f}",
            f"{r['proposed']} ({r['proposed_low']}-{r['proposed_high']})" if r["flagged"] else "",
            f"{r['games']:,}",
        )
        if bal.ceiling is not None:
            row += (_alone(r),)
        rows.append(row)
    return rows


def _alone(r: dict[str, Any]) -> str:
    """``35 % of 96 %``: the card alone, won by the bots of the deals that could be won."""
    deals = r["deals"]
    if not deals:
        return "-"
    return f"{pct(r['bot_wins'] / deals, 0)} of {pct(r['feasible'] / deals, 0)}"


CARD_HEADER = (
    "card",
    "name",
    "printed",
    "estimated [95 % CI]",
    "off by",
    "proposed (95 % range)",
    "games",
)
ALONE_HEADER = "alone: bots won of winnable"


def card_header(bal: Balance) -> tuple[str, ...]:
    """The card tables' columns: the cards' ceilings when the analysis has them."""
    return CARD_HEADER + ((ALONE_HEADER,) if bal.ceiling is not None else ())


def _align(bal: Balance) -> str:
    return "rlrrrrr" + ("r" if bal.ceiling is not None else "")


def content(bal: Balance, out: Path, images: dict[str, Image]) -> list[Block]:
    """The balance report's sections, in reading order."""
    run = bal.run
    generated = datetime.now(UTC).date().isoformat()
    blocks: list[Block] = [
        Heading(1, f"Deep Sea task-card balance: {run.bot} bot crew"),
        Para(
            f"crewsim {run.version} · root seed {run.seed} · run {run.created} · report "
            f"{generated} · {run.games_each} games per mission and player count · bot "
            f"`{run.bot}` · {', '.join(str(p) for p in bal.players)} players"
        ),
        Contents(),
        Heading(2, "At a glance", "glance"),
        _fit_table(bal),
        *(
            Para("Warning: " + unidentified_reason(r))
            for r in bal.fits.iter_rows(named=True)
            if not r["identified"]
        ),
        images["card-difficulty"],
        Heading(2, "How to read this", "read"),
        Bullets(_notes(bal)),
    ]
    for p in bal.players:
        flagged = card_rows(bal, p, only_flagged=True)
        blocks += [
            Heading(2, f"Mis-rated cards at {p} players", f"flagged-{p}p"),
            Table(
                card_header(bal),
                tuple(flagged),
                align=_align(bal),
                caption=f"{len(flagged)} flagged cards, most mis-rated first",
            )
            if flagged
            else Para("No card is flagged at this crew size."),
        ]
    blocks += [
        Heading(2, "Missions: simulated success against printed difficulty", "missions"),
        images["mission-success"],
        Para(
            "Mission effect: how much harder (positive) or easier than its cards the mission "
            "plays, in printed points, from the fit's mission terms (rules such as terrain, "
            "rapture or volunteers). Missions without a task-card draw have no effect column."
        ),
    ]
    for p in bal.players:
        table = _mission_table(bal, p)
        blocks.append(Fold(f"Table: the {len(table.rows)} missions at {p} players", (table,)))
    blocks += [
        Heading(2, "All cards", "cards"),
        Para(
            "Every card at every crew size, most mis-rated first (also "
            "[`tables/cards.csv`](tables/cards.csv))."
        ),
    ]
    for p in bal.players:
        rows = tuple(card_rows(bal, p, only_flagged=False))
        blocks.append(
            Fold(
                f"Table: all {len(rows)} cards at {p} players",
                (Table(card_header(bal), rows, align=_align(bal), caption=f"{p} players"),),
            )
        )
    blocks += [
        Heading(2, "Files", "files"),
        Bullets(
            (
                "[`tables/cards.csv`](tables/cards.csv) (and "
                "[`.parquet`](tables/cards.parquet)): per card and crew size: printed value, "
                "games in play, coefficient and standard error, estimated difficulty with "
                "interval, flag, proposed value",
                "[`tables/missions.csv`](tables/missions.csv): per mission and crew size: "
                "printed difficulty, success with interval, expected attempts, mission effect",
                "[`tables/fits.csv`](tables/fits.csv): per crew size: games, calibration line, "
                "flagged count, Spearman ρ of success against printed mission difficulty",
                *(
                    (
                        "[`tables/card-ceiling.csv`](tables/card-ceiling.csv): per card and crew "
                        "size, the card alone: "
                        "deals, the bots' wins, the deals that could be won with their interval, "
                        "the bots' efficiency",
                    )
                    if bal.ceiling is not None
                    else ()
                ),
                "`charts/*.png` and `charts/*.svg`: every chart, raster and vector: "
                + ", ".join(f"[{name}]({image.rel})" for name, image in images.items()),
            )
        ),
        Para(
            f"Regenerate: `crewsim balance --run {run.path} --out {out}` (from the folder it "
            "was made in); the same seed and settings give the same numbers.",
            small=True,
        ),
    ]
    return blocks


def _fit_table(bal: Balance) -> Table:
    rows = []
    for r in bal.fits.iter_rows(named=True):
        top = bal.most_misrated(r["players"], 3)
        worst = (
            ", ".join(
                f"{card_label(c['card'], c['text'], 30)} ({c['printed']}→{c['proposed']})"
                for c in top.iter_rows(named=True)
            )
            or "-"
        )
        rho = rho_ci(r["spearman_rho"], r["rho_low"], r["rho_high"])
        rows.append(
            (
                f"{r['players']} players",
                f"{r['games']:,}",
                str(r["cards"]) if r["identified"] else "none (see the warning)",
                f"{r['slope']:+.3f} ± {Z95 * r['slope_se']:.3f}",
                f"{r['r2']:.2f}",
                str(r["flagged"]),
                worst,
                rho,
            )
        )
    return Table(
        (
            "crew",
            "games fitted",
            "cards estimated",
            "log-odds per printed point (± 95 %)",
            "R² printed vs coefficient",
            "flagged",
            "most mis-rated (printed→proposed)",
            "Spearman ρ, mission success vs printed",
        ),
        tuple(rows),
        align="lrrrrrlr",
    )


def _notes(bal: Balance) -> tuple[str, ...]:
    return _fit_notes() + _ceiling_notes(bal)


def _ceiling_notes(bal: Balance) -> tuple[str, ...]:
    """What the "alone" column means, and how far the bots stay below the cards' ceilings."""
    if bal.ceiling is None:
        return ()
    deals = int(bal.ceiling["deals"][0]) if bal.ceiling.height else 0
    lines = [
        f"Alone: each card by itself on a plain mission (`crewsim check-tasks CARD --ceiling`: "
        f"ds-1's rules, the bots' draft, {deals:,} deals, the same for every card): the share "
        "the bots won of the share that could be won at all (the solver, every hand known). "
        "Where the bots win far less than could be won, part of a card's estimated difficulty "
        "is the bots' play, not the card."
    ]
    for p in bal.players:
        part = bal.ceiling.filter(pl.col("players") == p)
        wins, feasible = int(part["bot_wins"].sum()), int(part["feasible"].sum())
        low = part.filter(pl.col("bot_wins") < 0.5 * pl.col("feasible")).height
        if feasible:
            lines.append(
                f"{p} players, every card alone: the bots won {pct(wins / feasible, 0)} of the "
                f"winnable deals; {low} of {part.height} cards under half"
            )
    return tuple(lines)


def _fit_notes() -> tuple[str, ...]:
    return (
        "Model: per crew size, a binomial GLM (statsmodels) of mission success on which task "
        "cards were in play (one indicator per card) plus mission effects, over every game of "
        "the Deep Sea missions that draw task cards.",
        "The printed mission difficulty cannot be a covariate: the draw makes the printed "
        "values of the cards in play add up to it in every game, so it is a sum of the card "
        "indicators. For the same reason free mission effects leave one direction open; the "
        "mission effects are restricted to have no linear trend in printed difficulty, so the "
        "cards carry the whole trend between missions, as the rules claim they do.",
        "Estimated difficulty: each card's coefficient on the printed scale through the line "
        "coefficient = a + b · printed fitted over all estimated cards (one point per card); "
        "interval: ±1.96 standard errors divided by |b| (the line's own uncertainty is left "
        "out).",
        f"Flagged: |estimated − printed| ≥ {FLAG_MARGIN:g} point and the 95 % interval "
        "excludes the printed value. Proposed: the estimate rounded to whole points (at least "
        "1; a proposal above the printed maximum says the card is harder than any value the "
        "scale has).",
        "A card's effect is what it does to the bot crew, including how the bots choose who "
        "takes it; cards seen in fewer than "
        f"{MIN_CARD_GAMES} games at a crew size are not estimated (and the games that hold "
        "them are left out of that fit).",
    )


def _mission_table(bal: Balance, p: int) -> Table:
    rows = []
    for r in bal.missions.filter(pl.col("players") == p).iter_rows(named=True):
        eff = r["mission_effect"]
        rows.append(
            (
                r["mission"],
                "-" if r["printed"] is None else str(r["printed"]),
                pct_ci(r["success_rate"], r["ci_low"], r["ci_high"]),
                num(r["expected_attempts"]),
                "-" if math.isnan(eff) else f"{_points(eff)} ± {Z95 * r['mission_effect_se']:.2f}",
            )
        )
    return Table(
        (
            "mission",
            "printed difficulty",
            "success [95 % CI]",
            "expected attempts",
            "mission effect (points, ± 95 %)",
        ),
        tuple(rows),
        align="lrrrr",
        caption=f"{p} players",
    )
