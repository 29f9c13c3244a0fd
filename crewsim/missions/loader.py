"""Read scenario files (TOML, or YAML when PyYAML is installed) into validated records.

Every problem becomes one ``CrewsimError`` line naming the file, the record and the field, so a
scenario author can fix their file without reading a traceback.  Values are normalised on the way
in (colour names, canonical card codes, tuples, ``Params``) so the simulation sees one spelling.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from crewsim.cards import COLOUR_NAMES, Game, card_name, parse_card
from crewsim.errors import CrewsimError
from crewsim.missions.schema import (
    DEEP_SEA_ALLOCATIONS,
    OBJECTIVE_PARAMS,
    ORDER_TOKENS,
    PLANET_NINE_ALLOCATIONS,
    TASK_PARAMS,
    Allocation,
    CommMode,
    Mission,
    Objective,
    ObjectiveKind,
    Params,
    ParamSpec,
    ParamType,
    ParamValue,
    TaskCard,
    TaskKind,
    TokenAdjust,
)

MISSION_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
REF_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9+_.-]*$")
TOML_SUFFIXES = (".toml",)
YAML_SUFFIXES = (".yaml", ".yml")
MAX_TASKS = 12  # tasks drafted in one mission: the kernel's ``layout.MAX_TASKS``
MAX_DIFFICULTY = 30
MAX_TRICKS = 13
MAX_CARD_DIFFICULTY = 20
TASK_CARD_COUNT = 96
MAX_FIXED_TASKS = 8  # a mission's fixed task cards: the kernel's ``layout.MAX_FIXED``

_MISSION_FIELDS = tuple(f.name for f in fields(Mission))
_TASK_FIELDS = tuple(f.name for f in fields(TaskCard))
_PLANET_NINE_ONLY = ("tasks", "tokens", "token_adjust", "task_handover_5p")
_DEEP_SEA_ONLY = (
    "difficulty",
    "draws_task_cards",
    "fixed_tasks",
    "unfamiliar_terrain",
    "comm_before_first_trick_if_passed",
    "real_time_seconds",
    "untimed_note",
)
_TOKEN_ALIASES = {"Ω": "omega", "ω": "omega"}

E = TypeVar("E", bound=StrEnum)


@dataclass(frozen=True)
class _Where:
    """Where we are in a file, so each error names file and record once, the same way."""

    file: str
    record: str = ""

    def fail(self, message: str, field: str | None = None) -> NoReturn:
        parts = [self.file]
        if self.record:
            parts.append(self.record)
        if field is not None:
            parts.append(f"field '{field}'")
        parts.append(message)
        raise CrewsimError(": ".join(parts))

    def expected(self, field: str, what: str, value: object) -> NoReturn:
        self.fail(f"expected {what}, got {_show(value)}", field)


def _show(value: object) -> str:
    """Short one-line rendering of a bad value (with its type when that is the problem)."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return text


# ---------------------------------------------------------------- reading files


def read_document(path: str | Path) -> dict[str, Any]:
    """Parse a TOML/YAML file into a dict, turning every I/O or syntax problem into one line."""
    p = Path(path)
    where = _Where(str(path))
    suffix = p.suffix.lower()
    if suffix not in TOML_SUFFIXES + YAML_SUFFIXES:
        where.fail("not a TOML or YAML scenario file (expected .toml, .yaml or .yml)")
    if not p.exists():
        where.fail("no such file")
    if p.is_dir():
        where.fail("is a directory, not a scenario file")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        where.fail(f"cannot read: {exc.strerror or exc}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        where.fail(f"not UTF-8 text (byte {exc.start})")
    doc: object
    if suffix in TOML_SUFFIXES:
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            where.fail(f"not valid TOML: {exc}")
    else:
        doc = _load_yaml(text, where)
    if not isinstance(doc, dict):
        where.fail("expected a table of records at the top level")
    return doc


def _load_yaml(text: str, where: _Where) -> object:
    """YAML is optional: only when PyYAML is importable (it is not a crewsim dependency)."""
    try:
        import yaml
    except ImportError:
        where.fail("YAML scenario files need PyYAML, which is not installed; use TOML instead")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        one_line = " ".join(str(exc).split())
        where.fail(f"not valid YAML: {one_line}")


def document_kind(doc: Mapping[str, Any], where: _Where) -> str:
    """'missions' or 'task_cards', from the one top-level table the file holds."""
    kinds = [k for k in ("missions", "task_cards") if k in doc]
    allowed = {"missions": {"missions", "game"}, "task_cards": {"task_cards"}}
    if len(kinds) != 1:
        where.fail("expected exactly one top-level list: [[missions]] or [[task_cards]]")
    kind = kinds[0]
    for key in doc:
        if key not in allowed[kind]:
            names = ", ".join(sorted(allowed[kind]))
            where.fail(f"unknown top-level key '{key}' (allowed: {names})")
    records = doc[kind]
    if not isinstance(records, list) or not records:
        where.fail(f"'{kind}' must be a non-empty list of tables ([[{kind}]])")
    return kind


# ---------------------------------------------------------------- scalar checks


def _int(where: _Where, field: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        where.expected(field, f"a whole number from {lo} to {hi}", value)
    return value


def _bool(where: _Where, field: str, value: object) -> bool:
    if not isinstance(value, bool):
        where.expected(field, "true or false", value)
    return value


def _str(where: _Where, field: str, value: object, *, required: bool = False) -> str:
    if not isinstance(value, str) or (required and not value.strip()):
        where.expected(field, "a non-empty text" if required else "a text", value)
    return value


def _enum(where: _Where, field: str, value: object, enum: type[E]) -> E:
    allowed = [e.value for e in enum]
    if not isinstance(value, str) or value not in allowed:
        where.expected(field, f"one of {', '.join(allowed)}", value)
    return enum(value)


def _list(where: _Where, field: str, value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        where.expected(field, f"a list of {what}", value)
    return value


def _game(where: _Where, field: str, value: object) -> Game:
    allowed = [g.value for g in Game]
    if not isinstance(value, str) or value not in allowed:
        where.expected(field, f"one of {', '.join(allowed)}", value)
    return Game(value)


def _card(where: _Where, field: str, value: object) -> int:
    if not isinstance(value, str):
        where.expected(field, "a card code such as pink7 or sub3", value)
    try:
        return parse_card(value)
    except ValueError:
        where.fail(f"unknown card code {_show(value)} (examples: pink7, yellow5, sub3)", field)


def _no_duplicates(where: _Where, field: str, items: Sequence[object]) -> None:
    seen: set[object] = set()
    for item in items:
        if item in seen:
            where.fail(f"{_show(item)} appears twice", field)
        seen.add(item)


def _unknown_keys(where: _Where, table: Mapping[str, Any], allowed: Sequence[str]) -> None:
    for key in table:
        if key not in allowed:
            where.fail(f"unknown field (allowed: {', '.join(allowed)})", str(key))


# ---------------------------------------------------------------- parameters


def parse_params(
    where: _Where,
    prefix: str,
    given: Mapping[str, Any],
    spec: Mapping[str, ParamSpec],
    kind: str,
    game: Game,
) -> Params:
    """Check ``given`` against a kind's spec: no unknown or missing keys, well-shaped values."""
    out: dict[str, ParamValue] = {}
    for key in given:
        if key not in spec:
            allowed = ", ".join(spec) or "none"
            message = f"unknown parameter for kind '{kind}' (allowed: {allowed})"
            where.fail(message, f"{prefix}{key}")
    for key, ps in spec.items():
        name = f"{prefix}{key}"
        if key not in given:
            if ps.default is None:
                where.fail(f"required for kind '{kind}'", name)
            out[key] = ps.default
        else:
            out[key] = _param_value(where, name, given[key], ps, game)
    return Params(out)


def _param_value(where: _Where, name: str, value: object, ps: ParamSpec, game: Game) -> ParamValue:
    t = ps.type
    colours = ", ".join(COLOUR_NAMES)
    if t is ParamType.COUNT:
        return _int(where, name, value, ps.lo, ps.hi)
    if t is ParamType.RANK:
        return _int(where, name, value, 1, 9)
    if t is ParamType.TRUMP_RANK:
        return _int(where, name, value, 1, 4)
    if t is ParamType.BOOL:
        return _bool(where, name, value)
    if t is ParamType.COLOUR:
        if value not in COLOUR_NAMES:
            where.expected(name, f"one of {colours}", value)
        return str(value)
    if t is ParamType.CHOICE:
        if value not in ps.choices:
            where.expected(name, f"one of {', '.join(ps.choices)}", value)
        return str(value)
    if t is ParamType.CARD:
        return card_name(_card(where, name, value), game)
    if t in (ParamType.BY_PLAYERS, ParamType.COLOUR_COUNTS):
        return _param_table(where, name, value, t)
    items = _list(where, name, value, "values")
    if not items:
        where.expected(name, "a non-empty list", value)
    one: Callable[[str, object], ParamValue]
    if t is ParamType.COLOURS:
        one = lambda n, v: _param_value(where, n, v, ParamSpec(ParamType.COLOUR), game)  # noqa: E731
    elif t is ParamType.SUITS:
        suits = (*COLOUR_NAMES, "trump")
        one = lambda n, v: _param_value(  # noqa: E731
            where, n, v, ParamSpec(ParamType.CHOICE, choices=suits), game
        )
    elif t is ParamType.CARDS:
        one = lambda n, v: card_name(_card(where, n, v), game)  # noqa: E731
    elif t is ParamType.RANKS:
        one = lambda n, v: _int(where, n, v, 1, 9)  # noqa: E731
    elif t is ParamType.COUNTS:
        one = lambda n, v: _int(where, n, v, 0, 99)  # noqa: E731
    else:  # TRICKS
        one = lambda n, v: _trick_ref(where, n, v)  # noqa: E731
    result = tuple(one(f"{name}[{i + 1}]", v) for i, v in enumerate(items))
    _no_duplicates(where, name, result)
    return result


def _trick_ref(where: _Where, name: str, value: object) -> ParamValue:
    if value in ("first", "last"):
        return str(value)
    return _int(where, name, value, 1, MAX_TRICKS)


def _param_table(where: _Where, name: str, value: object, t: ParamType) -> Params:
    if not isinstance(value, dict) or not value:
        where.expected(name, "a table", value)
    out: dict[str, ParamValue] = {}
    if t is ParamType.BY_PLAYERS:
        keys = {str(k) for k in value}
        if keys != {"3", "4", "5"}:
            where.expected(name, "a table with keys 3, 4 and 5 (player counts)", value)
        for k, v in value.items():
            out[str(k)] = _int(where, f"{name}.{k}", v, 0, 99)
    else:
        for k, v in value.items():
            if k not in COLOUR_NAMES:
                where.fail(f"unknown colour '{k}' (allowed: {', '.join(COLOUR_NAMES)})", name)
            out[k] = _int(where, f"{name}.{k}", v, 0, 9)
    return Params(out)


def _objectives(where: _Where, value: object, game: Game) -> tuple[Objective, ...]:
    result = []
    kinds = [k.value for k in ObjectiveKind]
    for i, item in enumerate(_list(where, "objectives", value, "tables")):
        name = f"objectives[{i + 1}]"
        if not isinstance(item, dict):
            where.expected(name, 'a table such as { kind = "colour_ones_win", count = 1 }', item)
        if "kind" not in item:
            where.fail("missing 'kind'", name)
        if item["kind"] not in kinds:
            where.fail(
                f"unknown objective kind {_show(item['kind'])} (known: {', '.join(kinds)})",
                f"{name}.kind",
            )
        kind = ObjectiveKind(item["kind"])
        given = {k: v for k, v in item.items() if k != "kind"}
        params = parse_params(where, f"{name}.", given, OBJECTIVE_PARAMS[kind], kind.value, game)
        result.append(Objective(kind, params))
    return tuple(result)


# ---------------------------------------------------------------- missions


def parse_missions(doc: Mapping[str, Any], file: str) -> tuple[Mission, ...]:
    """Validate the ``missions`` list of an already-parsed document."""
    top = _Where(file)
    default_game = _game(top, "game", doc["game"]) if "game" in doc else None
    missions: list[Mission] = []
    seen: set[str] = set()
    numbers: dict[tuple[Game, int], str] = {}  # a logbook number is one mission of its game
    for i, raw in enumerate(doc["missions"]):
        where = _Where(file, f"mission #{i + 1}")
        if not isinstance(raw, dict):
            where.fail("expected a table ([[missions]])")
        if "id" not in raw:
            where.fail("missing", "id")
        mid = raw["id"]
        if not isinstance(mid, str) or not MISSION_ID_RE.match(mid):
            where.expected("id", "an id of lowercase letters, digits, '-' or '_' (e.g. pn-1)", mid)
        where = _Where(file, f"mission '{mid}'")
        if mid in seen:
            where.fail("duplicate mission id", "id")
        seen.add(mid)
        mission = _mission(where, raw, default_game)
        other = numbers.setdefault((mission.game, mission.number), mid)
        if other != mid:
            where.fail(
                f"{mission.game.value} mission {mission.number} is already '{other}'", "number"
            )
        missions.append(mission)
    return tuple(missions)


def _mission(where: _Where, raw: Mapping[str, Any], default_game: Game | None) -> Mission:
    _unknown_keys(where, raw, _MISSION_FIELDS)
    for key in ("number", "description"):
        if key not in raw:
            where.fail("missing", key)
    if "game" in raw:
        game = _game(where, "game", raw["game"])
    elif default_game is not None:
        game = default_game
    else:
        where.fail("missing (or set game = ... at the top of the file)", "game")
    wrong_game = _DEEP_SEA_ONLY if game is Game.PLANET_NINE else _PLANET_NINE_ONLY
    for key in wrong_game:
        if key in raw:
            hint = "task cards use 'difficulty'" if game is Game.DEEP_SEA else "use 'tasks'"
            where.fail(f"not used by {game.value} missions ({hint})", key)
    g = raw.get
    tasks = _int(where, "tasks", g("tasks", 0), 0, MAX_TASKS)
    tokens = _tokens(where, g("tokens", []), tasks)
    difficulty = _int(where, "difficulty", g("difficulty", 0), 0, MAX_DIFFICULTY)
    draws = _bool(where, "draws_task_cards", g("draws_task_cards", difficulty > 0))
    fixed = tuple(
        _int(where, f"fixed_tasks[{i + 1}]", v, 1, TASK_CARD_COUNT)
        for i, v in enumerate(_list(where, "fixed_tasks", g("fixed_tasks", []), "task numbers"))
    )
    _no_duplicates(where, "fixed_tasks", fixed)
    if len(fixed) > MAX_FIXED_TASKS:
        where.fail(f"at most {MAX_FIXED_TASKS} task cards, got {len(fixed)}", "fixed_tasks")
    if draws and difficulty == 0:
        where.fail("must be at least 1 when draws_task_cards = true", "difficulty")
    if not draws and difficulty > 0:
        where.fail("difficulty is set but draws_task_cards = false", "draws_task_cards")
    if draws and fixed:
        where.fail("cannot be combined with draws_task_cards = true", "fixed_tasks")
    objectives = _objectives(where, g("objectives", []), game)
    if not (tasks or draws or fixed or objectives):
        field = "tasks" if game is Game.PLANET_NINE else "difficulty"
        where.fail("mission has nothing to do: no tasks, task cards or objectives", field)
    if ObjectiveKind.OMEGA_LAST_TRICK in {o.kind for o in objectives} and "omega" not in tokens:
        hint = "" if game is Game.PLANET_NINE else " (a Planet Nine token: Deep Sea has none)"
        where.fail(f"kind 'omega_last_trick' needs an 'omega' token{hint}", "objectives")
    mission = Mission(
        id=raw["id"],
        game=game,
        number=_int(where, "number", raw["number"], 1, 999),
        description=_str(where, "description", raw["description"], required=True),
        tasks=tasks,
        tokens=tokens,
        communication=_enum(where, "communication", g("communication", "normal"), CommMode),
        comm_from_trick=_int(where, "comm_from_trick", g("comm_from_trick", 1), 1, MAX_TRICKS),
        silenced_member=_bool(where, "silenced_member", g("silenced_member", False)),
        task_handover_5p=_bool(where, "task_handover_5p", g("task_handover_5p", False)),
        allocation=_enum(where, "allocation", g("allocation", "draft"), Allocation),
        token_adjust=_enum(where, "token_adjust", g("token_adjust", "none"), TokenAdjust),
        card_draw_after_trick=_int(
            where, "card_draw_after_trick", g("card_draw_after_trick", 0), 0, MAX_TRICKS - 1
        ),
        objectives=objectives,
        difficulty=difficulty,
        draws_task_cards=draws,
        fixed_tasks=fixed,
        unfamiliar_terrain=_bool(where, "unfamiliar_terrain", g("unfamiliar_terrain", False)),
        comm_before_first_trick_if_passed=_bool(
            where,
            "comm_before_first_trick_if_passed",
            g("comm_before_first_trick_if_passed", False),
        ),
        real_time_seconds=_int(where, "real_time_seconds", g("real_time_seconds", 0), 0, 3600),
        untimed_note=_str(where, "untimed_note", g("untimed_note", "")),
    )
    _check_sense(where, mission)
    return mission


def _check_sense(where: _Where, m: Mission) -> None:
    """What the mission's game cannot play, and fields the rest of the mission leaves without
    effect or unwinnable: each would run without a word and give a number that means nothing."""
    allowed = PLANET_NINE_ALLOCATIONS if m.game is Game.PLANET_NINE else DEEP_SEA_ALLOCATIONS
    if m.allocation not in allowed:
        where.fail(
            f"{m.allocation.value!r} is not a {m.game.value} allocation (those are: "
            f"{', '.join(sorted(a.value for a in allowed))})",
            "allocation",
        )
    if m.token_adjust is TokenAdjust.SWAP and len(m.tokens) < 2:
        where.fail("a swap needs two tokens on the tasks", "token_adjust")
    if m.token_adjust is TokenAdjust.MOVE and not 0 < len(m.tokens) < m.tasks:
        where.fail("a move needs a token and a task without one", "token_adjust")
    if m.silenced_member and m.communication is CommMode.NONE:
        where.fail("has no effect: the mission allows no communication", "silenced_member")
    passing = m.allocation is Allocation.CAPTAIN_ALL_OR_PASS
    if m.comm_before_first_trick_if_passed and not passing:
        where.fail(
            'has no effect without allocation = "captain_all_or_pass"',
            "comm_before_first_trick_if_passed",
        )
    for i, o in enumerate(m.objectives):
        suits = o.params.to_plain().get("suits", [])
        if o.kind is ObjectiveKind.NO_LEAD_SUITS and isinstance(suits, list) and len(suits) >= 5:
            where.fail("every suit forbidden: no trick could be led", f"objectives[{i + 1}].suits")


def _tokens(where: _Where, value: object, tasks: int) -> tuple[str, ...]:
    items = _list(where, "tokens", value, "order tokens")
    tokens = []
    for item in items:
        token = _TOKEN_ALIASES.get(item, item) if isinstance(item, str) else item
        if token not in ORDER_TOKENS:
            where.expected("tokens", f"tokens from {', '.join(ORDER_TOKENS)}", item)
        tokens.append(str(token))
    _no_duplicates(where, "tokens", tokens)
    if len(tokens) > tasks:
        where.fail(f"{len(tokens)} tokens but only {tasks} tasks", "tokens")
    return tuple(tokens)


# ---------------------------------------------------------------- task cards


def parse_task_cards(doc: Mapping[str, Any], file: str) -> tuple[TaskCard, ...]:
    """Validate the ``task_cards`` list of an already-parsed document."""
    cards: list[TaskCard] = []
    numbers: set[int] = set()
    ref_ids: set[str] = set()
    for i, raw in enumerate(doc["task_cards"]):
        where = _Where(file, f"task card #{i + 1}")
        if not isinstance(raw, dict):
            where.fail("expected a table ([[task_cards]])")
        if "number" not in raw:
            where.fail("missing", "number")
        number = _int(where, "number", raw["number"], 1, 999)
        where = _Where(file, f"task card {number}")
        if number in numbers:
            where.fail("duplicate task card number", "number")
        numbers.add(number)
        card = _task_card(where, raw, number)
        if card.ref_id in ref_ids:
            where.fail(f"duplicate ref_id {card.ref_id!r}", "ref_id")
        ref_ids.add(card.ref_id)
        cards.append(card)
    return tuple(cards)


def _task_card(where: _Where, raw: Mapping[str, Any], number: int) -> TaskCard:
    _unknown_keys(where, raw, _TASK_FIELDS)
    for key in ("ref_id", "text", "difficulty", "kind"):
        if key not in raw:
            where.fail("missing", key)
    ref_id = raw["ref_id"]
    if not isinstance(ref_id, str) or not REF_ID_RE.match(ref_id):
        where.expected("ref_id", "a short name of letters, digits, '+', '_', '-' or '.'", ref_id)
    diff = raw["difficulty"]
    if not isinstance(diff, list) or len(diff) != 3:
        where.expected("difficulty", "a list of 3 values (3, 4 and 5 players)", diff)
    d3, d4, d5 = (
        _int(where, f"difficulty[{i + 1}]", v, 1, MAX_CARD_DIFFICULTY) for i, v in enumerate(diff)
    )
    kinds = [k.value for k in TaskKind]
    if raw["kind"] not in kinds:
        shown = _show(raw["kind"])
        where.fail(f"unknown task kind {shown} (known: {', '.join(kinds)})", "kind")
    kind = TaskKind(raw["kind"])
    given = raw.get("params", {})
    if not isinstance(given, dict):
        where.expected("params", "a table", given)
    params = parse_params(where, "params.", given, TASK_PARAMS[kind], kind.value, Game.DEEP_SEA)
    redeal = []
    for i, group in enumerate(_list(where, "redeal_if", raw.get("redeal_if", []), "card lists")):
        name = f"redeal_if[{i + 1}]"
        cards = tuple(
            _card(where, f"{name}[{j + 1}]", c)
            for j, c in enumerate(_list(where, name, group, "card codes"))
        )
        if not cards:
            where.expected(name, "a non-empty list of card codes", group)
        _no_duplicates(where, name, cards)
        redeal.append(cards)
    return TaskCard(
        number=number,
        ref_id=ref_id,
        text=_str(where, "text", raw["text"], required=True),
        subtext=_str(where, "subtext", raw.get("subtext", "")),
        difficulty=(d3, d4, d5),
        kind=kind,
        params=params,
        captain_may_take=_bool(where, "captain_may_take", raw.get("captain_may_take", True)),
        deal_exception=_str(where, "deal_exception", raw.get("deal_exception", "")),
        redeal_if=tuple(redeal),
    )


# ---------------------------------------------------------------- entry points


def load_file(path: str | Path) -> tuple[Mission, ...] | tuple[TaskCard, ...]:
    """Load a missions file or a task-cards file, whichever it is (for ``crewsim validate``)."""
    doc = read_document(path)
    if document_kind(doc, _Where(str(path))) == "missions":
        return parse_missions(doc, str(path))
    return parse_task_cards(doc, str(path))


def missions_from_records(records: Sequence[Mapping[str, Any]], file: str) -> tuple[Mission, ...]:
    """Missions from their ``Mission.to_dict`` records (a run's manifest), validated as a file's
    are; a record lists every field, so the other game's (at their defaults) are left out."""
    kept = []
    for rec in records:
        other = _PLANET_NINE_ONLY if rec.get("game") == Game.DEEP_SEA.value else _DEEP_SEA_ONLY
        kept.append({k: v for k, v in rec.items() if k not in other})
    return parse_missions({"missions": kept}, file)


def load_missions_file(path: str | Path) -> tuple[Mission, ...]:
    """Load and validate a file that must hold ``[[missions]]``."""
    doc = read_document(path)
    if document_kind(doc, _Where(str(path))) != "missions":
        _Where(str(path)).fail("holds task cards, not missions")
    return parse_missions(doc, str(path))


def load_task_cards_file(path: str | Path) -> tuple[TaskCard, ...]:
    """Load and validate a file that must hold ``[[task_cards]]``."""
    doc = read_document(path)
    if document_kind(doc, _Where(str(path))) != "task_cards":
        _Where(str(path)).fail("holds missions, not task cards")
    return parse_task_cards(doc, str(path))


def check_complete_deck(cards: Sequence[TaskCard], file: str) -> None:
    """A scenario folder's task cards are the game's 96, numbered 1-96: the kernel's tables
    hold one row per card, and a gap would shift every card after it."""
    numbers = {c.number for c in cards}
    for n in range(1, TASK_CARD_COUNT + 1):
        if n not in numbers:
            _Where(file, f"task card {n}").fail(
                f"missing (a scenario folder holds all {TASK_CARD_COUNT} cards, numbered "
                f"1-{TASK_CARD_COUNT})"
            )
    for n in sorted(numbers - set(range(1, TASK_CARD_COUNT + 1))):
        _Where(file, f"task card {n}").fail(f"numbers run 1-{TASK_CARD_COUNT}", "number")


def check_fixed_tasks(missions: Sequence[Mission], cards: Sequence[TaskCard], file: str) -> None:
    """Every fixed task number of a mission must exist in the task-card set."""
    known = {c.number for c in cards}
    for m in missions:
        for n in m.fixed_tasks:
            if n not in known:
                _Where(file, f"mission '{m.id}'").fail(f"no task card number {n}", "fixed_tasks")
