"""Reading deals for the solver: the JSON document ``crewsim deal --format json`` writes.

``{"game": "planet-nine", "players": 4, "hands": [["pink6", ...], ...],
"tasks": [{"card": "pink1", "player": 2, "token": null}], "mission": "pn-10"}`` (``"player": null``:
the solver chooses who takes it, within the mission's allocation rule); for two
players also ``"dummy_under": [[face-up, face-down], ...]``; optional ``"designated": [seat]``
for objectives where the commander names crew members (omitted: the solver may choose).  A
Deep Sea deal (``"game": "deep-sea"``) lists its task cards by number with their owners:
``"deep_tasks": [{"task": 17, "player": 2}]``; its ``mission`` brings the crew objective.
Every problem is reported as one line naming the file, the line and the field; exit status 2.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from crewsim.cards import mask_of, parse_card, seats_of
from crewsim.errors import CrewsimError
from crewsim.missions import load_task_cards
from crewsim.rules.deal import TRUMP4, Deal
from crewsim.rules.game import TaskSpec
from crewsim.rules.order import TOKENS
from crewsim.rules.task_cards import HeldTask
from crewsim.solver.free_choice import freed
from crewsim.solver.problem import FreeChoice, Problem, Unsupported, problem_from_mission


@dataclass(frozen=True)
class DealRecord:
    """One parsed line: the problem, or why the solver cannot take it (``unsupported``)."""

    line: int
    problem: Problem | None
    unsupported: str = ""


class _Bad(Exception):
    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"field '{field}': {why}")


def _card(value: Any, field: str) -> int:
    if not isinstance(value, str):
        raise _Bad(field, f"expected a card name like 'pink6', got {json.dumps(value)}")
    try:
        return parse_card(value)
    except ValueError as exc:
        raise _Bad(field, str(exc)) from None


DEAL_KEYS = (
    "game",
    "players",
    "commander",
    "hands",
    "tasks",
    "deep_tasks",
    "dummy_under",
    "mission",
    "designated",
)
TASK_KEYS = ("card", "player", "token")
DEEP_TASK_KEYS = ("task", "player")


def _known(rec: dict[str, Any], allowed: tuple[str, ...], where: str = "") -> None:
    """A key the format does not have is an error: a misspelt ``deep_tasks`` would otherwise
    drop every task without a word and change the verdict.  Keys starting with ``_`` are the
    writer's notes (the golden file's ``_expect`` and ``_why``), never read."""
    for key in rec:
        if key not in allowed and not str(key).startswith("_"):
            raise _Bad(
                where + str(key),
                f"unknown field (allowed: {', '.join(allowed)}; a note may go in a '_' key)",
            )


def _int(value: Any, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _Bad(field, f"expected an integer {lo}..{hi}, got {json.dumps(value)}")
    return value


def parse_record(rec: Any) -> tuple[Problem | None, str]:
    """(problem, "") or (None, reason) when the mission is unsupported; raises _Bad."""
    if not isinstance(rec, dict):
        raise _Bad("(deal)", "expected a JSON object")
    _known(rec, DEAL_KEYS)
    game = rec.get("game", "planet-nine")
    if game not in ("planet-nine", "deep-sea"):
        raise _Bad("game", f"expected 'planet-nine' or 'deep-sea', got {json.dumps(game)}")
    if "players" not in rec:
        raise _Bad("players", "missing")
    players = _int(rec["players"], "players", 2, 5)
    seats = seats_of(players)
    hands_raw = rec.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != seats:
        raise _Bad("hands", f"expected a list of {seats} hands")
    hands: list[int] = []
    seen: dict[int, str] = {}
    for s, hand in enumerate(hands_raw):
        if not isinstance(hand, list):
            raise _Bad(f"hands[{s}]", "expected a list of card names")
        cards = []
        for k, name in enumerate(hand):
            f = f"hands[{s}][{k}]"
            c = _card(name, f)
            if c in seen:
                raise _Bad(f, f"{name} is dealt twice (also {seen[c]})")
            seen[c] = f
            cards.append(c)
        hands.append(mask_of(cards))
    under: list[tuple[int, int]] = []
    if players == 2:
        raw = rec.get("dummy_under")
        if not isinstance(raw, list):
            raise _Bad("dummy_under", "two players need the dummy's [face-up, face-down] pairs")
        for k, pair in enumerate(raw):
            f = f"dummy_under[{k}]"
            if not isinstance(pair, list) or len(pair) != 2:
                raise _Bad(f, "expected [face-up card, face-down card]")
            top, below = _card(pair[0], f + "[0]"), _card(pair[1], f + "[1]")
            if not hands[2] >> top & 1:
                raise _Bad(f + "[0]", f"{pair[0]} is not a face-up card of the dummy (seat 2)")
            if below in seen:
                raise _Bad(f + "[1]", f"{pair[1]} is dealt twice (also {seen[below]})")
            seen[below] = f + "[1]"
            under.append((top, below))
    elif "dummy_under" in rec:
        raise _Bad("dummy_under", "only the two-player game has a dummy")
    if len(seen) != 40:
        raise _Bad("hands", f"every card must be dealt exactly once ({len(seen)} of 40 dealt)")
    try:
        deal = Deal(players, tuple(hands), tuple(under))
    except ValueError as exc:
        raise _Bad("hands", str(exc)) from None
    if players == 3 and sorted(bin(h).count("1") for h in hands) != [13, 13, 14]:
        raise _Bad("hands", "three players hold 14, 13 and 13 cards")
    if players in (4, 5) and any(bin(h).count("1") != 40 // players for h in hands):
        raise _Bad("hands", f"{players} players hold {40 // players} cards each")
    if players == 2:
        _check_dummy(hands, under)
    if "commander" in rec and rec["commander"] != deal.commander:
        raise _Bad(
            "commander", f"the commander is the holder of the 4 trump, seat {deal.commander}"
        )
    tasks_raw = rec.get("tasks", [])
    if not isinstance(tasks_raw, list):
        raise _Bad("tasks", "expected a list of {card, player, token}")
    tasks: list[TaskSpec] = []
    task_cards: set[int] = set()
    for k, t in enumerate(tasks_raw):
        f = f"tasks[{k}]"
        if not isinstance(t, dict):
            raise _Bad(f, "expected an object {card, player, token}")
        _known(t, TASK_KEYS, f + ".")
        c = _card(t.get("card"), f + ".card")
        if c >= 36:
            raise _Bad(f + ".card", "task cards are colour cards (no trumps)")
        if c in task_cards:
            raise _Bad(f + ".card", "the same task card twice")
        task_cards.add(c)
        if "player" not in t:
            raise _Bad(f + ".player", "missing (null: the solver chooses who takes it)")
        owner = None  # the solver gives it out (free choice)
        if t["player"] is not None:
            owner = _int(t["player"], f + ".player", 0, seats - 1)
        token = t.get("token")
        if token is not None and token not in TOKENS:
            raise _Bad(f + ".token", f"expected null or one of {', '.join(TOKENS)}")
        if token is not None and token in {tk.token for tk in tasks}:
            raise _Bad(f + ".token", f"the token {token} is on another task already")
        tasks.append(TaskSpec(c, token, owner))
    designated: tuple[int, ...] | None = None
    if "designated" in rec and rec["designated"] is not None:
        raw_d = rec["designated"]
        if not isinstance(raw_d, list) or not 1 <= len(raw_d) <= 2:
            raise _Bad("designated", "expected a list of one or two seats")
        designated = tuple(_int(x, f"designated[{i}]", 0, seats - 1) for i, x in enumerate(raw_d))
        if len(set(designated)) != len(designated):
            raise _Bad("designated", "the same seat twice")
    mission = None
    if rec.get("mission") is not None:
        from crewsim.missions import get_mission

        try:
            mission = get_mission(str(rec["mission"]))
        except CrewsimError as exc:
            raise _Bad("mission", str(exc)) from None
    if game == "planet-nine" and "deep_tasks" in rec:
        raise _Bad("deep_tasks", 'only a Deep Sea deal ("game": "deep-sea") has task cards')
    deep, unowned = _deep_tasks(rec, seats) if game == "deep-sea" else ([], False)
    if deep and tasks:
        raise _Bad("tasks", "a Deep Sea deal has task cards ('deep_tasks'), not card tasks")
    if mission is not None and mission.game.value != game:
        raise _Bad("mission", f"{mission.id} is a {mission.game.value} mission, the deal {game}")
    free = FreeChoice() if any(t.owner is None for t in tasks) or unowned else None
    try:
        problem = problem_from_mission(deal, tasks, mission, designated, deep, free)
    except Unsupported as exc:
        return None, str(exc)
    except ValueError as exc:
        raise _Bad("designated" if designated else "tasks", str(exc)) from None
    if free is not None:  # the mission's rule; tasks given an owner keep it
        problem = replace(freed(problem, mission), tasks=problem.tasks, designated=designated)
    return problem, ""


def _check_dummy(hands: list[int], under: list[tuple[int, int]]) -> None:
    """Two players as the rules deal them: 13 cards each (trump 4 among them), the dummy 7
    face up, each on its own face-down card."""
    if [bin(h).count("1") for h in hands] != [13, 13, 7] or len(under) != 7:
        raise _Bad(
            "hands",
            "two players hold 13 cards each, the dummy (seat 2) 7 face up and "
            "7 face down ('dummy_under')",
        )
    if len({top for top, _ in under}) != len(under):
        raise _Bad("dummy_under", "two face-down cards under one face-up card")
    if hands[2] >> TRUMP4 & 1 or any(below == TRUMP4 for _, below in under):
        raise _Bad("hands", "trump 4 goes to one of the two players, never to the dummy")


def _deep_tasks(rec: dict[str, Any], seats: int) -> tuple[list[HeldTask], bool]:
    """Deep Sea task cards: ``"deep_tasks": [{"task": 17, "player": 2}, ...]`` (numbers 1-96),
    and whether their players are null (the solver gives them out: every card's or none)."""
    raw = rec.get("deep_tasks", [])
    if not isinstance(raw, list):
        raise _Bad("deep_tasks", "expected a list of {task, player}")
    cards = {c.number: c for c in load_task_cards()}
    out: list[HeldTask] = []
    unowned = False
    for k, t in enumerate(raw):
        f = f"deep_tasks[{k}]"
        if not isinstance(t, dict):
            raise _Bad(f, "expected an object {task, player}")
        _known(t, DEEP_TASK_KEYS, f + ".")
        number = _int(t.get("task"), f + ".task", 1, len(cards))  # a whole deck: 1..96
        if any(h.card.number == number for h in out):
            raise _Bad(f + ".task", f"task card {number} twice")
        if "player" not in t:
            raise _Bad(f + ".player", "missing (null: the solver gives the cards out)")
        if (t["player"] is None) != (k > 0 and unowned) and k > 0:
            raise _Bad(f + ".player", "give every card's player, or none (the solver chooses)")
        unowned = t["player"] is None
        owner = 0 if unowned else _int(t["player"], f + ".player", 0, seats - 1)
        out.append(HeldTask(cards[number], owner))
    return out, bool(out) and unowned


def read_deals(path: str | Path) -> Iterator[DealRecord]:
    """Records of a ``.json`` file (one deal) or ``.jsonl`` file (one deal per line)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CrewsimError(f"{p}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    if p.suffix.lower() == ".jsonl":
        lines = text.split("\n")  # not splitlines(): U+2028 may stand inside a JSON string
        chunks = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    else:
        chunks = [(1, text)]
    if not chunks:
        raise CrewsimError(f"{p}: no deal in the file")
    for lineno, chunk in chunks:
        try:
            rec = json.loads(chunk)
        except json.JSONDecodeError as exc:
            where = lineno if p.suffix.lower() == ".jsonl" else exc.lineno
            hint = ""
            if exc.msg == "Extra data" and p.suffix.lower() != ".jsonl":
                hint = "; a .json file holds one deal, a .jsonl file one deal per line"
            raise CrewsimError(f"{p}:{where}: not JSON ({exc.msg}){hint}") from None
        except (RecursionError, ValueError) as exc:  # nested too deep, a number too long
            raise CrewsimError(f"{p}:{lineno}: not a deal ({str(exc).splitlines()[0]})") from None
        try:
            problem, why = parse_record(rec)
        except _Bad as exc:
            raise CrewsimError(f"{p}:{lineno}: {exc}") from None
        yield DealRecord(lineno, problem, why)
