"""Deep Sea balance: does each task card's printed difficulty match what it does to a mission?

The model, per player count, over every game of the Deep Sea missions that draw task cards::

    logit P(success) = mu + alpha_m + sum_i beta_i * [card i in play]

fitted as a binomial GLM (statsmodels) on games grouped by (mission, set of cards in play),
which gives the same estimates as one row per game at a fraction of the memory.

Why mission effects, and why not the printed mission difficulty as a covariate: the draw keeps
cards until their printed values add up to the mission's difficulty, so in every game
``sum_i v_i x_i`` *equals* the printed difficulty.  That covariate is therefore an exact linear
combination of the card indicators (the fit would be singular), and with a free effect per
mission the design has the same one-dimensional hole: adding ``c * v_i`` to every card and
``-c * d_m`` to every mission changes no prediction.  We close it with the designers' own
claim: ``alpha_m`` is restricted to mission effects with *no linear trend in printed
difficulty* (the mission dummies projected orthogonally to [1, d]).  The cards then carry the
whole difficulty trend between missions, and the mission effects keep what the printed
number does not explain (terrain, rapture, volunteers, free selection, ...).

From coefficient to the printed scale: across the estimated cards we fit ``beta = a + b v``
(ordinary least squares, one point per card, because each card is one rating) and read a card
back as ``(beta - a) / b``: its estimated difficulty in printed points.  A card is flagged when
``|estimated - printed| >= FLAG_MARGIN`` *and* its 95 % interval excludes the printed value;
the proposed rating is the estimate rounded to the printed scale's whole points, beside the
whole points its interval allows (another seed may well propose one of those).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from crewsim.errors import CrewsimError
from crewsim.runs.progress import Bar, no_bar
from crewsim.runs.reader import Run, load_run, require_games
from crewsim.runs.stats import Z95, spearman, wilson

if TYPE_CHECKING:
    from crewsim.runs.backends import Workers

FLAG_MARGIN = 1.0  # printed points: a card off by less is within the scale's own rounding
MIN_CARD_GAMES = 200  # a card seen in fewer games (at one player count) is not estimated
MIN_CARDS = 5  # fewer estimated cards (or one printed value) cannot carry the calibration line
FIT_GAMES = 25_000  # games per mission and crew size the fit reads (see ``grouped_games``)

CARD_SCHEMA = {
    "players": pl.Int64,
    "card": pl.Int64,
    "name": pl.String,
    "text": pl.String,
    "printed": pl.Int64,
    "games": pl.Int64,
    "success_rate": pl.Float64,
    "coef": pl.Float64,
    "se": pl.Float64,
    "estimated": pl.Float64,
    "est_low": pl.Float64,
    "est_high": pl.Float64,
    "off_by": pl.Float64,
    "flagged": pl.Boolean,
    "proposed": pl.Int64,
    "proposed_low": pl.Int64,
    "proposed_high": pl.Int64,
}
MISSION_SCHEMA = {
    "players": pl.Int64,
    "mission": pl.String,
    "number": pl.Int64,
    "printed": pl.Int64,
    "games": pl.Int64,
    "successes": pl.Int64,
    "success_rate": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "expected_attempts": pl.Float64,
    "mission_effect": pl.Float64,
    "mission_effect_se": pl.Float64,
}
CEILING_SCHEMA = {
    "players": pl.Int64,
    "card": pl.Int64,
    "name": pl.String,
    "deals": pl.Int64,
    "bot_wins": pl.Int64,
    "feasible": pl.Int64,
    "decided": pl.Int64,
    "feasible_share": pl.Float64,
    "feasible_low": pl.Float64,
    "feasible_high": pl.Float64,
    "bot_efficiency": pl.Float64,
    "efficiency_low": pl.Float64,
    "efficiency_high": pl.Float64,
}
FIT_SCHEMA = {
    "players": pl.Int64,
    "games": pl.Int64,
    "groups": pl.Int64,
    "missions": pl.Int64,
    "cards": pl.Int64,
    "intercept": pl.Float64,
    "slope": pl.Float64,
    "slope_se": pl.Float64,
    "r2": pl.Float64,
    "flagged": pl.Int64,
    "spearman_rho": pl.Float64,
    "rho_low": pl.Float64,
    "rho_high": pl.Float64,
    "converged": pl.Boolean,
    "identified": pl.Boolean,
}


@dataclass
class Balance:
    """The balance analysis of one run: per-card, per-mission and per-fit tables."""

    run: Run
    cards: pl.DataFrame  # CARD_SCHEMA, one row per card and player count
    missions: pl.DataFrame  # MISSION_SCHEMA, one row per Deep Sea mission and player count
    fits: pl.DataFrame  # FIT_SCHEMA, one row per player count
    ceiling: pl.DataFrame | None = None  # CEILING_SCHEMA (``card_ceilings``), when asked for

    @property
    def players(self) -> list[int]:
        return sorted(set(self.fits["players"].to_list()))

    def most_misrated(self, players: int, k: int = 5) -> pl.DataFrame:
        """The ``k`` flagged cards furthest from their printed value at one player count."""
        return (
            self.cards.filter((pl.col("players") == players) & pl.col("flagged"))
            .sort(pl.col("off_by").abs(), descending=True)
            .head(k)
        )


# ---------------------------------------------------------------- data


def drawing_missions(run: Run) -> dict[str, int]:
    """Deep Sea missions of the run that draw task cards, with their printed difficulty."""
    out: dict[str, int] = {}
    for cell in run.manifest["cells"]:
        rec = cell["mission_record"]
        draws = rec["draws_task_cards"] and int(rec["difficulty"]) > 0
        if rec["game"] == "deep-sea" and draws and not rec["fixed_tasks"]:
            out[str(cell["mission"])] = int(rec["difficulty"])
    return out


def grouped_games(
    run: Run, missions: dict[str, int], fit_games: int | None = FIT_GAMES
) -> pl.DataFrame:
    """Games per (players, mission, sorted cards in play): ``games`` and ``successes``.

    Grouping loses nothing for a binomial model (the likelihood depends on the counts only)
    and shrinks the design matrix: easy missions repeat the same few cards very often.
    Only the first ``fit_games`` games of each cell are read (None: all).  The fit's cost
    grows with the rows (about a minute per crew size at 25,000 games per mission on two
    cores) while its precision is already a tenth of a point or better there; and because a
    run's plan is prefix-stable these are exactly the games a run of ``-n fit_games`` with
    the same seed plays, so a big run and a small one fit the same games.
    """
    require_games(run, "the fit reads every game's task cards")
    games = run.game_rows(fit_games).filter(pl.col("mission").is_in(list(missions)))
    return (
        games.select("players", "mission", "success", pl.col("ds_cards").list.sort().alias("cards"))
        .group_by("players", "mission", "cards")
        .agg(pl.len().cast(pl.Int64).alias("games"), pl.col("success").sum().alias("successes"))
        .sort("players", "mission", "games", descending=[False, False, True])
        .collect()
    )


# ---------------------------------------------------------------- the fit


@dataclass(frozen=True)
class _Fit:
    players: int
    cards: list[dict[str, Any]]
    missions: dict[str, tuple[float, float]]  # mission -> (effect in points, its s.e.)
    summary: dict[str, Any]


def _trendless_mission_basis(difficulty: np.ndarray) -> np.ndarray:
    """Columns spanning mission effects orthogonal to a constant and to printed difficulty.

    ``difficulty`` has one entry per mission; the result is (missions x missions - 2), or
    fewer columns when all missions share a difficulty (then only the constant is removed).
    """
    a = np.column_stack([np.ones_like(difficulty, dtype=float), difficulty.astype(float)])
    u, s, _ = np.linalg.svd(a, full_matrices=True)
    rank = int((s > 1e-9 * s.max()).sum())
    return u[:, rank:]


def fit_players(
    groups: pl.DataFrame, missions: dict[str, int], players: int, task_cards: dict[int, Any]
) -> _Fit:
    """Fit the balance model at one player count (see the module docstring)."""
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import ModelWarning

    g = groups.filter(pl.col("players") == players)
    if g.is_empty():
        raise CrewsimError(f"no Deep Sea games with drawn task cards at {players} players")
    per_card = (
        g.select("cards", "games", "successes")
        .explode("cards")
        .group_by("cards")
        .agg(pl.col("games").sum(), pl.col("successes").sum())
    )
    usable = per_card.filter(
        (pl.col("games") >= MIN_CARD_GAMES)
        & (pl.col("successes") > 0)
        & (pl.col("successes") < pl.col("games"))
    )
    est_cards = sorted(int(c) for c in usable["cards"].to_list())
    printed = np.array([task_cards[c].difficulty_for(players) for c in est_cards], dtype=float)
    if len(est_cards) < MIN_CARDS or len(set(printed)) < 2:
        raise CrewsimError(
            f"balance at {players} players: only {len(est_cards)} task cards were seen in "
            f"{MIN_CARD_GAMES}+ games with both a win and a loss (at least {MIN_CARDS} of two "
            "printed values are needed); play more games per mission (-n)"
        )
    # rows holding a card that cannot be estimated would push its effect onto the others
    g = g.filter(pl.col("cards").list.eval(pl.element().is_in(est_cards)).list.all())
    # a mission never (or always) won says nothing about its cards, and its effect would run
    # off to infinity and stop the fit from converging
    g = g.filter(
        (pl.col("successes").sum().over("mission") > 0)
        & (pl.col("successes").sum().over("mission") < pl.col("games").sum().over("mission"))
    )
    mission_ids = sorted(g["mission"].unique().to_list(), key=lambda m: int(m.split("-")[-1]))
    m_index = {m: i for i, m in enumerate(mission_ids)}
    diff = np.array([missions[m] for m in mission_ids], dtype=float)
    basis = _trendless_mission_basis(diff)
    rows = g.height
    col = {c: k for k, c in enumerate(est_cards)}
    x_cards = np.zeros((rows, len(est_cards)))
    for r, cards in enumerate(g["cards"].to_list()):
        for c in cards:
            x_cards[r, col[int(c)]] = 1.0
    mi = np.array([m_index[m] for m in g["mission"].to_list()])
    exog = np.column_stack([np.ones(rows), basis[mi], x_cards])
    succ = g["successes"].to_numpy().astype(float)
    games = g["games"].to_numpy().astype(float)
    endog = np.column_stack([succ, games - succ])
    # Newton on the analytic Hessian (k x k): the default IRLS solves a least-squares problem
    # on the whole design every iteration, several times slower at a million rows
    with warnings.catch_warnings(record=True) as caught:  # kept in the result, not on stderr
        warnings.simplefilter("always", ModelWarning)
        res = sm.GLM(endog, exog, family=sm.families.Binomial()).fit(method="newton", maxiter=100)
    troubled = any(issubclass(w.category, ModelWarning) for w in caught)
    converged = bool(getattr(res, "converged", True)) and not troubled
    params, cov = np.asarray(res.params), np.asarray(res.cov_params())
    k0 = 1 + basis.shape[1]
    beta, se = params[k0:], np.sqrt(np.diag(cov)[k0:])
    line = sm.OLS(beta, sm.add_constant(printed)).fit()
    a, b = (float(v) for v in line.params)
    # printed points exist only where harder cards clearly cost success: a slope whose interval
    # reaches 0 would turn every card's interval into hundreds of points
    identified = converged and b + Z95 * float(line.bse[1]) < 0
    estimated = (beta - a) / b
    est_se = se / abs(b)
    counts = {int(r["cards"]): r for r in per_card.iter_rows(named=True)}
    card_rows = []
    for number, card in sorted(task_cards.items()):
        pc = counts.get(number)
        row: dict[str, Any] = {
            "players": players,
            "card": number,
            "name": card.ref_id,
            "text": card.text,
            "printed": card.difficulty_for(players),
            "games": int(pc["games"]) if pc else 0,
            "success_rate": pc["successes"] / pc["games"] if pc else math.nan,
            "coef": math.nan,
            "se": math.nan,
            "estimated": math.nan,
            "est_low": math.nan,
            "est_high": math.nan,
            "off_by": math.nan,
            "flagged": False,
            "proposed": card.difficulty_for(players),
            "proposed_low": None,
            "proposed_high": None,
        }
        if number in col and identified:
            k = col[number]
            e, s = float(estimated[k]), float(est_se[k])
            low, high = e - Z95 * s, e + Z95 * s
            off = e - row["printed"]
            flagged = abs(off) >= FLAG_MARGIN and not low <= row["printed"] <= high
            row.update(
                coef=float(beta[k]),
                se=float(se[k]),
                estimated=e,
                est_low=low,
                est_high=high,
                off_by=off,
                flagged=flagged,
                proposed=max(round(e), 1) if flagged else row["printed"],
                # the whole points the interval allows: another seed may well propose those
                proposed_low=max(round(low), 1) if flagged else None,
                proposed_high=max(round(high), 1) if flagged else None,
            )
        card_rows.append(row)
    # mission effects alpha_m = basis[m] . gamma, in printed points (positive = harder)
    gamma, cov_g = params[1:k0], cov[1:k0, 1:k0]
    effects = {}
    for m, i in m_index.items():
        u = basis[i]
        effects[m] = (float(u @ gamma) / b, float(math.sqrt(max(u @ cov_g @ u, 0.0))) / abs(b))
    flagged_n = sum(1 for r in card_rows if r["flagged"])
    summary = {
        "players": players,
        "games": int(games.sum()),
        "groups": rows,
        "missions": len(mission_ids),
        "cards": len(est_cards),
        "intercept": a,
        "slope": b,
        "slope_se": float(line.bse[1]),
        "r2": float(line.rsquared),
        "flagged": flagged_n,
        "converged": converged,
        "identified": identified,
    }
    return _Fit(players, card_rows, effects, summary)


def mission_table(run: Run, fits: dict[int, _Fit]) -> pl.DataFrame:
    """Every Deep Sea mission of the run: success against printed difficulty, mission effect."""
    rows = []
    for r in run.summary.iter_rows(named=True):
        info = run.missions.get(r["mission"])
        if info is None or info.game != "deep-sea":
            continue
        p = int(r["players"])
        n, s = int(r["games"]), int(r["successes"])
        low, high = wilson(s, n)
        eff, eff_se = (
            fits[p].missions.get(r["mission"], (math.nan, math.nan))
            if p in fits
            else (math.nan, math.nan)
        )
        rows.append(
            {
                "players": p,
                "mission": r["mission"],
                "number": info.number,
                "printed": info.printed_difficulty.get(p),
                "games": n,
                "successes": s,
                "success_rate": s / n if n else math.nan,
                "ci_low": low,
                "ci_high": high,
                "expected_attempts": r["expected_attempts"],
                "mission_effect": eff,
                "mission_effect_se": eff_se,
            }
        )
    return pl.DataFrame(rows, schema=MISSION_SCHEMA).sort("players", "number")


def analyse(
    run: Run | Path | str, players: list[int] | None = None, fit_games: int | None = FIT_GAMES
) -> Balance:
    """Fit the balance model for each player count of a run (or the ``players`` asked for)."""
    from crewsim.missions import load_task_cards

    run = run if isinstance(run, Run) else load_run(run)
    missions = drawing_missions(run)
    if not missions:
        raise CrewsimError(f"{run.path}: no Deep Sea missions that draw task cards in this run")
    wanted = players or run.players
    absent = [p for p in wanted if p not in run.players]
    if absent:
        raise CrewsimError(f"run {run.path} has no games at {absent[0]} players")
    task_cards = {c.number: c for c in load_task_cards()}
    groups = grouped_games(run, missions, fit_games)
    fits = {p: fit_players(groups, missions, p, task_cards) for p in wanted}
    mtab = mission_table(run, fits).filter(pl.col("players").is_in(wanted))
    summaries = []
    for p, f in fits.items():
        part = mtab.filter(pl.col("players") == p).drop_nulls("printed")
        c = spearman([float(v) for v in part["printed"]], [float(v) for v in part["success_rate"]])
        summaries.append({**f.summary, "spearman_rho": c.rho, "rho_low": c.low, "rho_high": c.high})
    cards = pl.DataFrame([r for f in fits.values() for r in f.cards], schema=CARD_SCHEMA)
    return Balance(run, cards, mtab, pl.DataFrame(summaries, schema=FIT_SCHEMA))


def card_ceilings(
    players: list[int],
    deals: int,
    seed: int,
    bot: str,
    conflicts: int,
    workers: Workers,
    bar: Bar = no_bar,
) -> pl.DataFrame:
    """Each card alone on ``crewsim check-tasks``' carrier, per crew size: the bots' wins on
    ``deals`` deals and how many of those deals could be won at all (the solver, every hand
    known, up to ``conflicts`` SAT conflicts a deal), one card per task on ``workers``.  The
    fit says what a card does to the bot crew; this says how much of that is the bots': a
    card they win on a third of its winnable deals looks harder than it is.  Every card gets
    the same deals (the carrier's seed), the same as ``check-tasks CARD --ceiling``."""
    from crewsim.analysis.task_check import ceiling
    from crewsim.missions import load_task_cards

    cards = load_task_cards()
    calls = [([c], None, p, deals, seed, bot, deals, conflicts) for p in players for c in cards]
    names = [f"ceiling-card-{c.number}-{p}p" for p in players for c in cards]
    rows = []
    with workers.open() as backend, bar(len(calls) * deals) as solved:
        for (one, _, p, *_rest), r in zip(calls, backend.imap(ceiling, calls, names), strict=True):
            rows.append(
                {
                    "players": p,
                    "card": one[0].number,
                    "name": one[0].ref_id,
                    "deals": deals,
                    "bot_wins": r["ceiling_wins"],
                    "feasible": r["feasible_games"],
                    "decided": r["decided_games"],
                    "feasible_share": r["feasible_share"],
                    "feasible_low": r["feasible_low"],
                    "feasible_high": r["feasible_high"],
                    "bot_efficiency": r["bot_efficiency"],
                    "efficiency_low": r["efficiency_low"],
                    "efficiency_high": r["efficiency_high"],
                }
            )
            solved(deals)
    return pl.DataFrame(rows, schema=CEILING_SCHEMA)


def unidentified_reason(fit: dict[str, Any]) -> str:
    """Why a crew size got no card on the printed scale, in a line a reader can act on."""
    why = (
        "the model did not converge"
        if not fit["converged"]
        else f"printed difficulty does not clearly lower success (slope {fit['slope']:+.3f} "
        f"± {Z95 * fit['slope_se']:.3f} log-odds per point, 95 %)"
    )
    return f"{fit['players']} players: no card estimated, {why}; play more games per mission (-n)"


def to_json(bal: Balance) -> dict[str, Any]:
    """The analysis as plain JSON-ready data (NaN and infinity become null)."""

    def clean(df: pl.DataFrame) -> list[dict[str, Any]]:
        return [
            {
                k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in r.items()
            }
            for r in df.iter_rows(named=True)
        ]

    run = bal.run
    return {
        "run": str(run.path),
        "seed": run.seed,
        "bot": run.bot,
        "games_per_cell": run.games_per_cell,
        "flag_rule": {
            "margin_points": FLAG_MARGIN,
            "interval": "95 %",
            "min_card_games": MIN_CARD_GAMES,
        },
        "fits": clean(bal.fits),
        "cards": clean(bal.cards),
        "missions": clean(bal.missions),
        "card_ceiling": None if bal.ceiling is None else clean(bal.ceiling),
    }
