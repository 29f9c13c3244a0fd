"""Turn a run folder into a report folder: tables, charts, report.md and index.html.

Layout of the output folder::

    index.html          self-contained (charts embedded), opens offline
    report.md           the same content; charts linked from charts/
    charts/*.png, *.svg
    tables/*.csv, *.parquet   ranking, logbook, fail_tricks, correlations, summary; with
                              another crew beside (``--beside``): beside, beside_agreement
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl
from matplotlib.figure import Figure

from crewsim.analysis.autopsy_run import read_summary
from crewsim.analysis.beside import Beside
from crewsim.report import autopsy, beside, charts, html, markdown, tables
from crewsim.report.autopsy import Crews
from crewsim.report.document import Block, Bullets, Contents, Fold, Heading, Image, Para, Table
from crewsim.report.format import (
    ceiling_cells,
    failure_sentence,
    num,
    num_ci,
    pct,
    pct_ci,
    rank_label,
    rate,
    rho_ci,
    rule,
)
from crewsim.runs.csv_out import write_csv
from crewsim.runs.reader import Run, load_run
from crewsim.runs.stats import reasons_of


@dataclass
class Report:
    """Everything one report shows, computed once; both renderers read it."""

    run: Run
    out: Path
    ranking: pl.DataFrame
    logbook: pl.DataFrame
    fail_tricks: pl.DataFrame
    correlations: pl.DataFrame
    headline: pl.DataFrame
    generated: str
    images: dict[str, Image] = field(default_factory=dict)
    beside: Beside | None = None  # another run's crew on the same deals
    autopsy: pl.DataFrame | None = None  # the run's loss autopsy (``crewsim autopsy``)
    crews: Crews | None = None  # both autopsies, when the run beside has one too

    @property
    def has_ceiling(self) -> bool:
        return "feasible_share" in self.ranking.columns

    @property
    def has_printed(self) -> bool:
        return "printed_difficulty" in self.ranking.columns

    @property
    def title(self) -> str:
        camp = " + ".join(charts.GAME_TITLES.get(g, g) for g in self.run.games)
        return f"{camp} mission difficulty: {self.run.bot} bot crew"


def _undecided_note(ranking: pl.DataFrame) -> str:
    """What the feasible shares leave out: the deals the solver could not settle."""
    unknown = ranking["unknown_share"].drop_nulls().drop_nans()
    if unknown.is_empty() or float(unknown.max()) == 0:  # type: ignore[arg-type]
        return ""
    worst = ranking.filter(pl.col("unknown_share") == unknown.max()).row(0, named=True)
    return (
        f" The solver left {100 * float(unknown.mean()):.1f} % of the deals undecided on "  # type: ignore[arg-type]
        f"average, at most {100 * worst['unknown_share']:.0f} % ({worst['mission']}, "
        f"{worst['players']} players); each feasible share counts the decided deals only, and "
        "its interval spans every way the undecided ones could go."
    )


def _first_failure(row: dict[str, Any]) -> str:
    """The cell's most common failure in words, "-" for a cell that never failed."""
    reasons = reasons_of(row)
    return failure_sentence(reasons[0]) if reasons else "-"


# ---------------------------------------------------------------- building


def build(run: Run | Path | str, out: Path | str, beside: Beside | None = None) -> Report:
    """Write the run's tables, charts, report.md and index.html into ``out`` (``run``: read,
    or its folder); ``beside`` adds the section of another crew on the same deals
    (``analysis.beside.side_by_side``)."""
    run = run if isinstance(run, Run) else load_run(run)
    out = Path(out)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    rank = tables.ranking(run)
    rep = Report(
        run=run,
        out=out,
        ranking=rank,
        logbook=tables.logbook(run),
        fail_tricks=tables.fail_tricks(run),
        correlations=tables.order_correlations(run),
        headline=tables.headline(run, rank),
        generated=datetime.now(UTC).date().isoformat(),
        beside=beside,
        autopsy=read_summary(run.path),
    )
    rep.crews = autopsy.crews(rep.autopsy, beside)
    _write_tables(rep)
    _write_charts(rep)
    blocks = content(rep)
    (out / "report.md").write_text(markdown.render(blocks))
    (out / "index.html").write_text(html.render(blocks, rep.title))
    return rep


def _write_tables(rep: Report) -> None:
    summary = rep.run.summary.with_columns(
        pl.col("mission").map_elements(rep.run.number, return_dtype=pl.Int64).alias("number")
    )
    for name, df in (
        ("ranking", rep.ranking),
        ("logbook", rep.logbook),
        ("fail_tricks", rep.fail_tricks),
        ("correlations", rep.correlations),
        ("summary", summary),
    ):
        write_csv(df, rep.out / "tables" / f"{name}.csv")
        df.write_parquet(rep.out / "tables" / f"{name}.parquet")
    if rep.beside is not None:
        beside.write_tables(rep.beside, rep.out / "tables")
    if rep.autopsy is not None:
        write_csv(rep.autopsy, rep.out / "tables" / "autopsy.csv")
    if rep.crews is not None:
        write_csv(
            autopsy.beside_rows(rep.run, rep.crews), rep.out / "tables" / "autopsy_beside.csv"
        )


def _add_image(rep: Report, name: str, fig: Figure, alt: str) -> None:
    png, svg = charts.save(fig, rep.out / "charts", name)
    rep.images[name] = Image(png=png, svg=svg, alt=alt, rel=f"charts/{name}.png")


def _write_charts(rep: Report) -> None:
    run = rep.run
    _add_image(
        rep,
        "success-by-mission",
        charts.success_by_mission(run, rep.ranking),
        "Share of games the bot crew wins, per mission and crew size, "
        "with 95 % intervals (logit scale)",
    )
    for p in run.players:
        _add_image(
            rep,
            f"attempts-ranking-{p}p",
            charts.attempts_ranking(run, rep.ranking, p),
            f"Missions ranked by expected attempts per success at {p} players, "
            "hardest at the top, with 95 % intervals",
        )
    _add_image(
        rep,
        "logbook",
        charts.logbook_chart(run, rep.logbook),
        "Running total of expected attempts through the campaign per crew size",
    )
    _add_image(
        rep,
        "fail-tricks",
        charts.fail_tricks_chart(run, rep.fail_tricks),
        "Share of lost games by the trick on which they were lost, by reason",
    )
    lost = rep.autopsy
    for p in sorted(set(lost["players"])) if lost is not None else ():
        assert lost is not None
        _add_image(
            rep,
            f"why-lost-{p}p",
            autopsy.chart(run, lost, p),
            f"How the lost games examined at {p} players were lost, per mission",
        )
    for p in rep.crews.players() if rep.crews is not None else ():
        assert rep.crews is not None
        a, b = rep.crews.names
        _add_image(
            rep,
            f"why-lost-beside-{p}p",
            autopsy.beside_chart(run, rep.crews, p),
            f"How the lost games examined at {p} players were lost, the {a} and {b} crews",
        )
    if rep.has_ceiling:
        _add_image(
            rep,
            "ceiling",
            charts.ceiling_chart(run, rep.ranking),
            "Share of deals that can be won at all against the bots' win rate",
        )


# ---------------------------------------------------------------- content


def content(rep: Report) -> list[Block]:
    """The report's sections, in reading order: what a reader came for first (the campaign at
    a glance, the hardest and easiest missions with every crew and the ceiling, why games are
    lost), then the full rankings, the logbook, the checks and the files."""
    run = rep.run
    blocks: list[Block] = [
        Heading(1, rep.title),
        Para(
            f"crewsim {run.version} · root seed {run.seed} · run {run.created} · report "
            f"{rep.generated} · {run.games_each} games per mission and player count "
            f"({run.total_games:,} games) · bot `{run.bot}` · distress signal {run.distress} · "
            f"{', '.join(str(p) for p in run.players)} players"
        ),
        Contents(),
        Heading(2, "At a glance", "glance"),
        _glance_table(rep),
        *_extremes(rep),
        rep.images["success-by-mission"],
        Heading(2, "How to read this", "read"),
        Bullets(_reading_notes(rep)),
    ]
    if rep.autopsy is not None:
        blocks += autopsy.section(rep.autopsy, _per_size(rep, "why-lost-"), run)
    if rep.crews is not None:
        blocks += autopsy.beside_blocks(rep.crews, _per_size(rep, "why-lost-beside-"), run)
    blocks += [
        Heading(2, "When missions are lost, trick by trick", "fail-tricks"),
        Para(
            "The trick on which a lost game became lost, over all missions, split by reason "
            "(the game's own verdict, not the solver's: a game can be lost long before the "
            "trick that shows it). Late losses are tasks whose card was still in a hand when "
            "the tricks ran out of room; early losses are plays that could not be taken back."
        ),
        rep.images["fail-tricks"],
    ]
    for p in run.players:
        n = rep.ranking.filter(pl.col("players") == p).height
        blocks += [
            Heading(2, f"Ranking at {p} players", f"ranking-{p}p"),
            Para(
                f"Rank 1 is the easiest mission for a crew of {p}; the table runs from easiest "
                "to hardest, the chart from hardest (top) to easiest."
            ),
            Fold(
                f"Chart: expected attempts per mission at {p} players",
                (rep.images[f"attempts-ranking-{p}p"],),
            ),
            Fold(f"Table: all {n} missions at {p} players", (_ranking_table(rep, p),)),
        ]
    blocks += [
        Heading(2, "The campaign: expected attempts", "logbook"),
        Para(
            "How many attempts a crew playing the campaign straight through should expect to "
            "write in its logbook, mission after mission (a mission in which the crew sent "
            "the distress signal logs one extra attempt)."
        ),
        _logbook_table(rep),
        rep.images["logbook"],
        Heading(2, "Does the simulated difficulty follow the book?", "order"),
        _correlation_table(rep),
        Para(_correlation_note(rep)),
    ]
    if rep.has_ceiling:
        blocks += [
            Heading(2, "Bots against the perfect-information ceiling", "ceiling"),
            Para(
                "For each deal the solver decides whether any sequence of legal plays wins it. "
                "Points far above the diagonal are missions where the bots leave the most "
                "winnable deals unwon; the missions furthest from it are named."
                + _undecided_note(rep.ranking)
            ),
            rep.images["ceiling"],
        ]
    if rep.beside is not None:
        blocks += beside.section(rep.beside)
    blocks += [
        Heading(2, "Files", "files"),
        Bullets(
            (
                "[`tables/ranking.csv`](tables/ranking.csv) (and "
                "[`.parquet`](tables/ranking.parquet)): every mission and crew size with rank, "
                "success rate and interval, expected attempts and interval, distress share"
                + (", feasible share, bot efficiency" if rep.has_ceiling else "")
                + ", top failure reasons",
                "[`tables/logbook.csv`](tables/logbook.csv): expected attempts per mission and "
                "the running total",
                "[`tables/fail_tricks.csv`](tables/fail_tricks.csv): lost games by trick and "
                "reason",
                "[`tables/correlations.csv`](tables/correlations.csv): Spearman rank "
                "correlations with intervals",
                "[`tables/summary.csv`](tables/summary.csv): the run's own summary, unchanged",
                *_beside_files(rep),
                *_autopsy_files(rep),
                "[`report.md`](report.md): this report in Markdown; `charts/*.png` and "
                "`charts/*.svg`: every chart, raster and vector: "
                + ", ".join(f"[{name}]({image.rel})" for name, image in rep.images.items()),
            )
        ),
        Para(
            f"Regenerate: `crewsim report {run.path} --out {rep.out}{_beside_option(rep)}` "
            "(from the folder it was made in); re-run the simulation with the seed and "
            "settings above to get the same numbers.",
            small=True,
        ),
    ]
    return blocks


EXTREMES_K = 5  # hardest missions per crew size near the top; the easiest get 3


def _extremes(rep: Report) -> list[Block]:
    """Per crew size the hardest and the easiest missions: this crew, the other crew of
    ``--beside`` and the perfect-information ceiling side by side."""
    side = rep.beside
    this = rep.run.bot if side is None else beside.crew_names(side)[0]
    that = None if side is None else beside.crew_names(side)[1]
    cells = side.cells if side is not None else None
    ceiling = rep.has_ceiling or (side is not None and beside.has_ceiling(side))
    header = ["", "mission", "rule", f"{this} wins [95 % CI]"]
    if that is not None:
        header.append(f"{that} wins [95 % CI]")
    if ceiling:
        header.append("winnable at all [95 % CI]")
    header.append("attempts")
    blocks: list[Block] = [
        Heading(2, "The hardest and easiest missions", "extremes"),
        Para(
            f"Per crew size the {EXTREMES_K} missions the `{rep.run.bot}` crew wins least "
            "often and the 3 it wins most often"
            + (f", beside the `{that}` crew on the same deals" if that else "")
            + (
                ", and the share of deals a solver that sees every hand can win (the ceiling: "
                "no crew can beat it)"
                if ceiling
                else ""
            )
            + ". Every mission is in the rankings below."
        ),
    ]
    for p in rep.run.players:
        part = rep.ranking.filter(pl.col("players") == p).sort("success_rate")
        picks = [("hardest", r) for r in part.head(EXTREMES_K).iter_rows(named=True)]
        easy = part.tail(min(3, max(part.height - EXTREMES_K, 0))).reverse()
        picks += [("easiest", r) for r in easy.iter_rows(named=True)]
        rows = []
        for i, (kind, r) in enumerate(picks):
            first = i == 0 or picks[i - 1][0] != kind
            row = [
                kind if first else "",
                r["mission"],
                rule(rep.run, r["mission"]),
                pct_ci(r["success_rate"], r["ci_low"], r["ci_high"]),
            ]
            other = None
            if cells is not None:
                hit = cells.filter((pl.col("players") == p) & (pl.col("mission") == r["mission"]))
                other = hit.row(0, named=True) if hit.height else None
            if that is not None:
                ok = other is not None and other["other_success_rate"] is not None
                row.append(
                    pct_ci(
                        other["other_success_rate"], other["other_ci_low"], other["other_ci_high"]
                    )
                    if ok and other is not None
                    else "-"
                )
            if ceiling:
                src = other if other is not None and other["ceiling_games"] else r
                row.append(
                    pct_ci(src["feasible_share"], src["feasible_low"], src["feasible_high"], 1)
                    if src.get("ceiling_games")
                    else "-"
                )
            row.append(num(r["expected_attempts"]))
            rows.append(tuple(row))
        blocks += [
            Heading(3, f"{p} players", f"extremes-{p}p"),
            Table(tuple(header), tuple(rows), align="lll" + "r" * (len(header) - 3)),
        ]
    return blocks


def _per_size(rep: Report, prefix: str) -> dict[int, Image]:
    """The charts named ``{prefix}{players}p``, by crew size."""
    sized = re.compile(re.escape(prefix) + r"(\d+)p")
    return {int(m[1]): v for k, v in rep.images.items() if (m := sized.fullmatch(k))}


def _beside_files(rep: Report) -> tuple[str, ...]:
    if rep.beside is None:
        return ()
    return (
        "[`tables/beside.csv`](tables/beside.csv): both crews per mission and crew size: "
        "success rates, the paired difference with McNemar's p-value, ranks, the ceiling and "
        "both efficiencies",
        "[`tables/beside_agreement.csv`](tables/beside_agreement.csv): Spearman's ρ of the two "
        "crews' success rates per crew size",
    )


def _autopsy_files(rep: Report) -> tuple[str, ...]:
    if rep.autopsy is None:
        return ()
    return (
        "[`tables/autopsy.csv`](tables/autopsy.csv): per mission and crew size, how the lost "
        "games were lost",
        *(
            ()
            if rep.crews is None
            else (
                "[`tables/autopsy_beside.csv`](tables/autopsy_beside.csv): the same for both "
                "crews (`crew`), per mission and crew size both autopsies examined",
            )
        ),
    )


def _beside_option(rep: Report) -> str:
    return "" if rep.beside is None else f" --beside {rep.beside.other.path}"


def _crew(rep: Report, game: str, players: int) -> str:
    return charts.campaign_label(game, players, len(rep.run.games) > 1)


def _glance_table(rep: Report) -> Table:
    book_end = rep.logbook.group_by("game", "players").agg(pl.all().sort_by("number").last())
    corr = {(r["game"], r["players"]): r for r in rep.correlations.iter_rows(named=True)}
    rows = []
    for h in rep.headline.iter_rows(named=True):
        g, p = h["game"], h["players"]
        end = book_end.filter((pl.col("game") == g) & (pl.col("players") == p)).row(0, named=True)
        c = corr.get((g, p))
        rho = (
            "-"
            if c is None
            else rho_ci(
                c["spearman_rho"], c["rho_low"], c["rho_high"], _no_interval(c["spearman_rho"])
            )
        )
        rows.append(
            (
                _crew(rep, g, p),
                str(h["missions"]),
                pct(h["median_success_rate"]),
                f"{h['easiest']} ({rate(h['easiest_rate'])})",
                f"{h['hardest']} ({rate(h['hardest_rate'])})",
                num_ci(end["cumulative_attempts"], end["cumulative_low"], end["cumulative_high"]),
                rho,
            )
        )
    against = "printed difficulty" if rep.has_printed else "logbook number"
    if len(rep.run.games) > 1:
        against = "printed difficulty (Deep Sea) or logbook number (Planet Nine)"
    return Table(
        (
            "crew",
            "missions",
            "median success",
            "easiest",
            "hardest",
            "attempts for these missions in a row [95 % CI]",
            f"Spearman ρ, success vs {against} [95 % CI]",
        ),
        tuple(rows),
        align="lrrllrr",
    )


def _no_interval(rho: float) -> str:
    """Why a rho has no interval: Fisher's z is infinite at a perfect order."""
    return " (a perfect order: no interval)" if abs(rho) >= 1 else " (too few missions)"


def _reading_notes(rep: Report) -> tuple[str, ...]:
    run = rep.run
    notes = [
        f"Success rate: the share of {run.games_each} random deals of that mission the "
        f"`{run.bot}` bot crew won. The bracket is a 95 % Wilson interval. A rank marked = "
        "has an interval that overlaps a neighbour's, a cautious mark: the order between "
        "them may be uncertain, though a test of the difference itself can still settle it "
        f"({int(rep.ranking['tied'].sum())} of the {rep.ranking.height} ranks here are "
        "marked).",
        "Expected attempts: the attempts a crew playing like the bots logs per mission won, "
        "1 / success rate, plus the one extra attempt the distress signal costs once per "
        "mission (times the chance that some attempt before the win sent it); the interval "
        "joins the Wilson bounds of both.",
        "These are bot results. A human crew will do better or worse, and not by the same "
        "amount on every mission, so the ranking too says how hard each mission is for these "
        "bots; where the run has a ceiling, its bot efficiency shows how much of a mission's "
        "difficulty is the bots' own.",
    ]
    if rep.has_ceiling:
        notes.append(
            f"Feasible share: of the first {tables.solved_deals(rep.ranking)} deals of each "
            "mission and crew size "
            "(the very deals, task assignments and passes the bots played; the 'solved deals' "
            "column), the share a perfect-information solver proves winnable. Deals it could "
            "not decide within its budget are left out of the share and counted in "
            "`tables/ranking.csv`; the interval spans every way they could go. A deal the bots "
            "won counts as winnable. Bot efficiency: the share of those winnable deals the bots "
            "won; its interval also spans the deals the solver left open. Both rest on these "
            "few deals, so their intervals are wide: the success rate beside them covers every "
            "game."
        )
    else:
        notes.append(
            "Feasibility ceiling: not in this run. The perfect-information solver was not run "
            "on these deals, so the feasible share and the bots' efficiency are not shown; a "
            "run that carries the solver's verdicts gets those columns and a chart "
            "automatically."
        )
    if "deep-sea" not in run.games:
        notes.append(
            "Deep Sea: not in this run. `crewsim simulate deep-sea` runs the Deep Sea campaign "
            "(printed against simulated difficulty), and `crewsim balance` rates the task cards."
        )
    else:
        notes.append(_setup_note(run))
    return tuple(notes)


def _setup_note(run: Run) -> str:
    """How often a Deep Sea task draw was repaired or the deal redealt (rule 16, the cards'
    deal exceptions): the games are played on those set-ups, so readers should know."""
    summary = run.summary.filter(pl.col("mission").is_in(run.missions_of("deep-sea")))
    games = int(summary["games"].sum())
    parts = []
    for col, what in (
        ("repair_share", "had a contradictory task draw repaired"),
        ("redeal_share", "were dealt again as a drawn card says"),
    ):
        share = float((summary[col] * summary["games"]).sum()) / games
        top = summary.sort(col, descending=True).row(0, named=True)
        parts.append(
            f"{pct(share, 1)} of the games {what} (most: {top['mission']} at "
            f"{top['players']} players, {pct(top[col], 1)})"
        )
    return (
        "Deep Sea set-up: " + "; ".join(parts) + ". Per mission and crew size in "
        "`tables/summary.csv`."
    )


def _ranking_table(rep: Report, p: int) -> Table:
    part = rep.ranking.filter(pl.col("players") == p).sort("rank")
    header = ["rank", "mission", "rule", "success [95 % CI]", "attempts [95 % CI]", "distress"]
    align = "rllrrr"
    if rep.has_ceiling:
        header += ["solved deals", "feasible [95 % CI]", "bot efficiency [95 % CI]"]
        align += "rrr"
    if rep.has_printed:
        header.append("printed difficulty")
        align += "r"
    header.append("most common failure (share of games)")
    align += "l"
    rows = []
    for r in part.iter_rows(named=True):
        row = [
            rank_label(r["rank"], r["tied"]),
            r["mission"],
            rule(rep.run, r["mission"], 48),
            pct_ci(r["success_rate"], r["ci_low"], r["ci_high"]),
            num_ci(r["expected_attempts"], r["attempts_low"], r["attempts_high"]),
            pct(r["distress_share"], 1),
        ]
        if rep.has_ceiling:
            row += ceiling_cells(r)
        if rep.has_printed:
            v = r["printed_difficulty"]
            row.append("-" if v is None else str(v))
        row.append(_first_failure(r))
        rows.append(tuple(row))
    return Table(tuple(header), tuple(rows), align=align)


def _logbook_table(rep: Report) -> Table:
    """The running total at every tenth mission the run has, and at its end."""
    rows = []
    marks = sorted({m for m in rep.logbook["number"].to_list() if m % 10 == 0})
    for g, p in tables.campaigns(rep.run):
        part = rep.logbook.filter((pl.col("game") == g) & (pl.col("players") == p))
        cells = []
        for m in marks:
            hit = part.filter(pl.col("number") == m)
            cells.append(num(hit["cumulative_attempts"][0]) if hit.height else "-")
        end = part.row(-1, named=True)
        rows.append(
            (
                _crew(rep, g, p),
                *cells,
                num_ci(end["cumulative_attempts"], end["cumulative_low"], end["cumulative_high"]),
            )
        )
    return Table(
        ("crew", *(f"after mission {m}" for m in marks), "total [95 % CI]"),
        tuple(rows),
        caption="Expected attempts so far",
    )


def _correlation_table(rep: Report) -> Table:
    rows = []
    for r in rep.correlations.iter_rows(named=True):
        rho = rho_ci(r["spearman_rho"], r["rho_low"], r["rho_high"])
        rows.append(
            (
                charts.GAME_TITLES.get(r["game"], r["game"]),
                f"{r['players']} players",
                f"success rate vs {r['success_rate_vs']}",
                str(r["missions"]),
                rho,
            )
        )
    return Table(
        ("campaign", "crew", "compared", "missions", "Spearman ρ [95 % CI]"),
        tuple(rows),
        align="lllrr",
    )


def _correlation_note(rep: Report) -> str:
    text = (
        "Spearman's ρ compares orders only: −1 would mean every later mission is harder than "
        "every earlier one. Planet Nine prints no difficulty, so the logbook number (the order "
        "the designers put the missions in) stands in for it."
    )
    if rep.has_printed:
        text += " Deep Sea missions are set against their printed difficulty."
    return text + " Interval: Fisher z with the Fieller-Hartley-Pearson standard error."
