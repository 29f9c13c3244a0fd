"""Number formatting shared by the report renderers and `crewsim rank`.

A rate is never printed without its interval, and the number of digits follows the size of
the number (0.035 % needs three decimals, 92.61 % two), so a table stays narrow and honest.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from crewsim.missions import load_task_cards

if TYPE_CHECKING:
    from crewsim.runs.reader import Run
    from crewsim.runs.stats import FailureReason


def pct(x: float | None, digits: int = 2) -> str:
    if x is None or math.isnan(x):
        return "-"
    return f"{100 * x:.{digits}f} %"


def _rate_digits(x: float | None) -> int:
    """Two decimals, three below 1 % where two would round to 0.00."""
    return 3 if x is not None and x < 0.01 else 2


def rate(x: float | None) -> str:
    """A success rate alone, in the digits ``pct_ci`` gives it."""
    return pct(x, _rate_digits(x))


def pct_ci(rate: float | None, low: float, high: float, digits: int | None = None) -> str:
    """``4.10 % [3.98, 4.22]``: a rate always travels with its interval."""
    if rate is None or math.isnan(rate):
        return "-"
    d = _rate_digits(rate) if digits is None else digits
    return f"{pct(rate, d)} [{100 * low:.{d}f}, {100 * high:.{d}f}]"


def num(x: float | None, like: float | None = None) -> str:
    """A count of attempts: two decimals below 10, one below 1,000, none above; ``like``
    picks the style from another number, so an interval reads in its estimate's style."""
    if x is None or math.isnan(x):
        return "-"
    if math.isinf(x):
        return "∞"
    ref = x if like is None or not math.isfinite(like) else like
    return f"{x:,.0f}" if ref >= 1000 else f"{x:.2f}" if ref < 10 else f"{x:,.1f}"


def rho_ci(rho: float, low: float, high: float, alone: str = "") -> str:
    """``-0.86 [-0.97, -0.36]``: Spearman's rho with its interval; ``alone`` follows a rho
    that has none (too few missions), "-" stands for no rho at all."""
    if math.isnan(rho):
        return "-"
    return f"{rho:+.2f}" + (alone if math.isnan(low) else f" [{low:+.2f}, {high:+.2f}]")


def ceiling_cells(r: Mapping[str, Any]) -> list[str]:
    """A ranking row's ceiling columns as the rank and report tables print them: solved
    deals, feasible share and bot efficiency, each share with its interval."""
    return [
        f"{r['ceiling_games'] or 0:,}",
        pct_ci(r["feasible_share"], r["feasible_low"], r["feasible_high"], 1),
        pct_ci(r["bot_efficiency"], r["efficiency_low"], r["efficiency_high"], 1),
    ]


def rank_label(rank: int, tied: bool) -> str:
    """``7=`` when the mission's interval overlaps a neighbour's in the ranking."""
    return f"{rank}=" if tied else str(rank)


def num_ci(x: float, low: float, high: float) -> str:
    return f"{num(x)} [{num(low, x)}, {num(high, x)}]"


def pp_ci(d: float, low: float, high: float, digits: int = 1) -> str:
    """``+12.5 pp [+8.1, +16.9]``: a difference of two rates, in percentage points."""
    if math.isnan(d):
        return "-"
    return f"{100 * d:+.{digits}f} pp [{100 * low:+.{digits}f}, {100 * high:+.{digits}f}]"


def p_value(p: float) -> str:
    """A p-value in two significant digits, ``<0.0001`` below that: smaller says no more."""
    if math.isnan(p):
        return "-"
    return "<0.0001" if p < 1e-4 else f"{p:.2g}"


def moves_text(rows: Sequence[Mapping[str, Any]], name_a: str, name_b: str) -> str:
    """``pn-7 (heuristic 12, search 4); ...``: the missions whose rank moves most, with each
    crew's rank (1: won most often; tied rates share an average rank)."""
    if not rows:
        return "none: both crews rank the missions alike"
    return "; ".join(
        f"{r['mission']} ({name_a} {r['rank_a']:g}, {name_b} {r['rank_b']:g})" for r in rows
    )


_DRAW = re.compile(r"^Draw task cards up to a total difficulty of (\d+)\.\s*")


def short_rule(description: str, limit: int = 60) -> str:
    """A mission's rule in a few words, for a table beside its id: the description's opening,
    cut at a word before ``limit`` characters (``…`` marks the cut); Deep Sea's standard
    "Draw task cards up to a total difficulty of 5." reads "tasks worth 5"."""
    text = " ".join(description.split())
    if hit := _DRAW.match(text):
        rest = text[hit.end() :]
        text = f"tasks worth {hit.group(1)}" + (f"; {rest[:1].lower()}{rest[1:]}" if rest else "")
    text = text.removesuffix(".")
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def card_label(number: int, text: str, limit: int = 0) -> str:
    """A Deep Sea task card as people name it, in ``TaskCard.label``'s words: its number and
    printed sentence (``17 "I will never win 2 tricks in a row"``), never the internal
    ``ref_id``; ``limit`` > 0 cuts the sentence at a word (``…``) for a chart label."""
    if limit and len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return f'{number} "{text}"'


_TASK_FAILED = {  # a reason on one task's card
    "wrong_winner": "task {card} won by the wrong player",
    "order": "task {card}: order broken",
    "not_done": "task {card} not completed",
}
_KIND_FAILED = {  # a reason of several cards, or of the mission's objective
    "wrong_winner": "any task won by the wrong player",
    "order": "any task's order broken",
    "not_done": "any task not completed",
    "objective": "the mission's objective failed",
    "condition": "any task card failed",
}


def failure_what(reason: FailureReason) -> str:
    """What failed, as a reader names it: a Deep Sea task card by its number and printed
    sentence (the data keep its ref_id), the objective as "the mission's objective" (its rule
    is in words beside it), not by the engine's name for it."""
    if reason.kind == "condition" and reason.card:
        card = {c.ref_id: c for c in load_task_cards()}.get(reason.card)  # shipped, cached
        return f"task card {card.label if card else reason.card} failed"
    if reason.card and reason.kind in _TASK_FAILED:
        return _TASK_FAILED[reason.kind].format(card=reason.card)
    return _KIND_FAILED.get(reason.kind, f"failure {reason.kind}")


def failure_sentence(reason: FailureReason) -> str:
    """A failure reason in one line, built from its fields where a person reads it:
    ``task pink3 won by the wrong player (6.7%, most often trick 5)``; ``trick 5`` alone when
    every such failure struck there."""
    where = "trick" if reason.trick_share >= 1 else "most often trick"
    return f"{failure_what(reason)} ({100 * reason.share:.1f}%, {where} {reason.trick})"


def rule(run: Run, mission: str, limit: int = 60) -> str:
    """The mission's rule in words, shortened, from the run's manifest ("" if unknown)."""
    info = run.missions.get(mission)
    return short_rule(info.description, limit) if info is not None else ""
