"""`crewsim missions list|show`: browse the shipped campaigns and read one mission's rules."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from crewsim.cards import Game
from crewsim.cli.options import Format, FormatOpt
from crewsim.cli.output import compact_table, stdout_console
from crewsim.missions import (
    Allocation,
    CommMode,
    Mission,
    Objective,
    ObjectiveKind,
    TokenAdjust,
    get_mission,
    get_task_card,
    load_campaign,
)

app = typer.Typer(
    help="List the shipped missions and explain their rules.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


OutputFormat = Format  # the one --format of every command (options.Format)
FormatOption = FormatOpt
WIDE = 250  # columns of a --wide table: every column whole
Wide = Annotated[bool, typer.Option("--wide", help="Every column (wider than 80).")]


def emit(
    rows: Sequence[dict[str, object]],
    fmt: Format,
    *,
    key: str,
    title: str = "",
    json_rows: Sequence[dict[str, object]] | None = None,
    table_rows: Sequence[dict[str, object]] | None = None,
    head: Mapping[str, object] | None = None,
    flex: str = "",
    wide: bool = False,
) -> None:
    """Print rows in the chosen format: JSON as one object, ``head`` and the rows under
    ``key`` (``json_rows``: fuller records), CSV the flat ``rows``, a table ``table_rows``
    (else ``rows``) with whole words wrapped to the terminal's width, the ``flex`` column
    taking the room the others leave (``wide``: every column at its full width, for
    ``less -S`` or a wide window)."""
    if fmt is Format.JSON:
        document = {**(head or {}), key: list(json_rows or rows)}
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    if fmt is Format.CSV:
        columns = list(rows[0]) if rows else []
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: _cell(v) for k, v in row.items()} for row in rows)
        typer.echo(buf.getvalue(), nl=False)
        return
    shown = table_rows if table_rows is not None else rows
    columns = list(shown[0]) if shown else []
    table = compact_table(title)
    for k, col in enumerate(columns):  # the first (a name) whole, the others narrow
        if col == flex:  # wraps to what the others leave
            table.add_column(col, overflow="fold")
        else:
            narrow = None if wide or k == 0 else 20
            table.add_column(col, overflow="fold", no_wrap=k == 0 or wide, max_width=narrow)
    for row in shown:
        table.add_row(*(escape(_cell(row[c])) for c in columns))
    console = stdout_console()
    if wide:
        console.width = max(console.width, WIDE)
    console.print(table)


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)  # a missing value is an empty field


# ---------------------------------------------------------------- summaries


def objective_label(o: Objective) -> str:
    """Compact ``kind(param=value)`` label for tables."""
    return kind_label(o.kind.value, o.params)


def kind_label(kind: str, params: Mapping[str, object]) -> str:
    """``kind(param=value, ...)``, or the bare kind without parameters: an objective's or a
    task card's condition in words."""
    text = ", ".join(f"{k}={param_text(v)}" for k, v in params.items())
    return f"{kind}({text})" if text else kind


def param_text(value: object) -> str:
    """One parameter's value for a label: ``pink+green``, ``green:1+pink:1``, ``yes``."""
    if isinstance(value, tuple):
        return "+".join(str(v) for v in value)
    if isinstance(value, Mapping):
        return "+".join(f"{k}:{param_text(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def comm_label(m: Mission) -> str:
    """Communication in a few words: mode plus restrictions."""
    parts = [m.communication.value]
    if m.unfamiliar_terrain:
        parts = ["terrain"]
    if m.comm_from_trick > 1:
        parts.append(f"from trick {m.comm_from_trick}")
    if m.silenced_member:
        parts.append("one silenced")
    if m.comm_before_first_trick_if_passed:
        parts.append("before trick 1 if passed")
    return ", ".join(parts)


def workload_label(m: Mission) -> str:
    """What the mission asks for: task count, difficulty or the fixed cards."""
    if m.game is Game.PLANET_NINE:
        return f"{m.tasks} task{'s' if m.tasks > 1 else ''}" if m.tasks else "-"
    if m.draws_task_cards:
        return f"difficulty {m.difficulty}"
    if m.fixed_tasks:
        return "cards " + ",".join(str(n) for n in m.fixed_tasks)
    return "-"


def summary_row(m: Mission, *, table: bool, wide: bool = True) -> dict[str, object]:
    """One mission as a flat row (table: combined columns, and without ``wide`` only those
    that fit 80 columns; csv: plain numbers)."""
    row: dict[str, object] = {"id": m.id}
    if wide or not table:
        row["game"] = m.game.value
    if table:
        row["tasks"] = workload_label(m)
    else:
        row.update(
            tasks=m.tasks,
            difficulty=m.difficulty if m.uses_task_draw else None,  # none to draw up to
            fixed_tasks=" ".join(str(n) for n in m.fixed_tasks),
        )
    row.update(tokens=" ".join(m.tokens), communication=comm_label(m))
    if wide or not table:
        row.update(
            allocation=m.allocation.value,
            objectives="; ".join(objective_label(o) for o in m.objectives),
        )
    row["description"] = _short(m.description, 70) if table and not wide else m.description
    return row


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@app.command("list", short_help="List the shipped missions (82, or one game's).")
def list_missions(
    game: Annotated[
        Game | None, typer.Option("--game", "-g", help="Only this game's campaign.")
    ] = None,
    fmt: FormatOpt = Format.TABLE,
    wide: Wide = False,
) -> None:
    """List the shipped missions (82, or one game's campaign)."""
    games = [game] if game else list(Game)
    missions = [m for g in games for m in load_campaign(g)]
    emit(
        [summary_row(m, table=False) for m in missions],
        fmt,
        key="missions",
        title=f"{len(missions)} missions",
        json_rows=[m.to_dict() for m in missions],
        table_rows=[summary_row(m, table=True, wide=wide) for m in missions],
        flex="description",
        wide=wide,
    )


# ---------------------------------------------------------------- show


_ALLOCATION_TEXT = {
    Allocation.DRAFT: "Starting with the {lead}, then clockwise, each player takes one task at a "
    "time until all are taken.",
    Allocation.COMMANDER_DISTRIBUTES: "After everyone has seen their hand, the commander asks each "
    "member yes/no about each task and then hands the tasks out evenly (at most one task apart).",
    Allocation.CAPTAIN_ALL_OR_PASS: "The captain keeps all tasks or passes all of them to one "
    "willing crew member.",
    Allocation.VOLUNTEER_1: "The captain asks the others in turn from the left; the first to say "
    "yes takes all tasks, and if all pass the captain must (never a captain card: then the "
    "member at the captain's left does).",
    Allocation.VOLUNTEER_2: "Two volunteers take all tasks between them: the captain asks in turn "
    "from the left, the captain last, and when too few say yes the last asked must.",
    Allocation.FREE_SELECTION: "The crew splits the tasks freely among themselves.",
    Allocation.CAPTAIN_HARDEST_FIRST: "The captain must first take the task with the highest "
    "difficulty for the player count; then selection continues clockwise.",
    Allocation.CAPTAIN_SKIPS: "Tasks are selected clockwise as usual, but the captain is skipped "
    "and gets none (the captain still leads trick 1).",
}

# The same allocation field is another rule in each game: a mission shows its own game's.
_ONE_MEMBER_TEXT = {
    Game.PLANET_NINE: "All tasks go to one crew member other than the commander. The task cards "
    "stay hidden (face down) until the commander has chosen that member: the commander is the "
    "only one who looks at them, and each other member, asked, answers only yes or no, from "
    "their own hand. Then the chosen member takes all the tasks and they are turned face up.",
    Game.DEEP_SEA: "All tasks go to one crew member, whom the crew chooses together without "
    "telling what their hands hold.",
}


def allocation_text(m: Mission) -> str:
    """How the mission's tasks reach the players, in its own game's words (one_member differs)."""
    if m.allocation is Allocation.ONE_MEMBER:
        return _ONE_MEMBER_TEXT[m.game]
    lead = "commander" if m.game is Game.PLANET_NINE else "captain"
    return _ALLOCATION_TEXT[m.allocation].format(lead=lead)


_COMM_TEXT = {
    CommMode.NORMAL: "Each member may once show a colour card and say whether it is their "
    "highest, only or lowest card of that colour.",
    CommMode.DEAD_ZONE: "Each member may once show a colour card, but not whether it is their "
    "highest, only or lowest (dead zone / currents).",
    CommMode.RAPTURE: "No personal tokens: the crew shares (players - 2) communication tokens "
    "(rapture of the deep); with two players one, the dummy sitting as the third member.",
    CommMode.NONE: "No communication at all.",
}


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def token_text(token: str) -> str:
    """What one order token demands."""
    if token == "omega":
        return "omega: this task must be the last task completed"
    if token.isdigit():
        return f"{token}: this task must be the {_ordinal(int(token))} task completed of all tasks"
    return (
        f"{token}: relative order, arrow {len(token)} - done after the tasks with fewer "
        "arrows; unmarked tasks may be done any time"
    )


def objective_text(o: Objective, m: Mission) -> str:
    """One special objective in words."""
    p = o.params
    lead = "commander" if m.game is Game.PLANET_NINE else "captain"
    trump = "rocket" if m.game is Game.PLANET_NINE else "submarine"
    k = ObjectiveKind
    texts = {
        k.PLAYER_WINS_NO_TRICKS: f"The {lead} names one other crew member, who must win no trick.",
        k.COLOUR_ONES_WIN: f"At least {p.get('count')} trick(s) must be won by a colour 1 "
        "(the 1 itself is the winning card).",
        k.EACH_TRUMP_WINS: f"Every {trump} must win a trick"
        + (f", in order {trump} 1, 2, 3, 4." if p.get("ordered") else "."),
        k.NO_WIN_WITH_RANK: f"No trick may be won by a {p.get('rank')}.",
        k.BALANCED_TRICKS: f"At no time may a crew member have won more than {p.get('max_lead')} "
        "trick(s) more than another"
        + (
            f"; the {lead} must win the first and the last trick."
            if p.get("commander_first_last")
            else "."
        ),
        k.PLAYER_EXACTLY_ONE_TRICK: f"The {lead} names one other crew member, who must win exactly "
        "one trick" + (f", not with a {trump}." if p.get("no_trump_win") else "."),
        k.PLAYER_FIRST_AND_LAST_ONLY: f"The {lead} names one other crew member, who must win the "
        "first and the last trick and no other"
        + (f", neither with a {trump}." if p.get("no_trump_win") else "."),
        k.LEFT_OF_PINK9_WINS_PINK: "The holder of the pink 9 says so; the crew member to their "
        "left must win every pink card.",
        k.OMEGA_LAST_TRICK: "The omega task must be completed in the very last trick.",
        k.ROLE_SPLIT: f"One member wins exactly the first {p.get('first')} tricks, another exactly "
        f"the last {p.get('last')}; the others win all tricks in between.",
        k.BALANCE_RANK_WINS: f"At no time may a crew member have won more than "
        f"{p.get('max_difference')} more {p.get('rank')}s than another (colour cards only).",
        k.NO_LEAD_SUITS: "No trick may be led with a card of: "
        + ", ".join(trump if s == "trump" else str(s) for s in _tuple(p.get("suits")))
        + ". Such a lead is a legal play, not a forbidden move, but it fails the mission (also "
        "when the leader holds nothing else).",
        k.FIRST_TRICK_WINNER_MOST: "Whoever wins trick 1 must at all times have won more tricks "
        "than every other crew member.",
        k.CARD_LAST_IN_FINAL_TRICK: f"The {p.get('card')} must be the last card played in the "
        "final trick (it may not stay unplayed).",
    }
    return texts[o.kind]


# pn-46: the rule book is silent on the card nobody plays; crewsim follows Board Game Arena.
_UNPLAYED_PINK = (
    "One card is never played (the 14th card): if it is pink, nobody has to win it and the "
    "mission can still be won (Board Game Arena's reading; the rule book is silent). The same "
    "holds with two players for the card JARVIS never plays."
)


def _tuple(value: object) -> tuple[object, ...]:
    return value if isinstance(value, tuple) else ()


def describe(m: Mission) -> list[tuple[str, str]]:
    """Every rule of a mission as (topic, sentence) pairs, in play order."""
    lead = "commander" if m.game is Game.PLANET_NINE else "captain"
    out: list[tuple[str, str]] = [("Game", f"{m.game.value}, mission {m.number}")]
    if m.game is Game.PLANET_NINE:
        if m.tasks:
            out.append(
                (
                    "Tasks",
                    f"{m.tasks} task card(s) are drawn; a task is done when its "
                    "owner wins the trick containing that card, and the mission fails at "
                    "once if anyone else wins it.",
                )
            )
        else:
            out.append(("Tasks", "No task cards."))
    elif m.draws_task_cards:
        out.append(
            (
                "Tasks",
                f"Task cards are drawn until their values for the player count add "
                f"up to exactly {m.difficulty} (2 players use the 3-player values).",
            )
        )
    elif m.fixed_tasks:
        for n in m.fixed_tasks:
            c = get_task_card(n)
            out.append(
                (
                    "Task card",
                    f"#{n} {c.text} (difficulty {'/'.join(map(str, c.difficulty))}"
                    " for 3/4/5 players)",
                )
            )
    else:
        out.append(("Tasks", "No task cards."))
    for t in m.tokens:
        out.append(("Token", token_text(t)))
    if m.token_adjust is TokenAdjust.SWAP:
        out.append(("Tokens", "Before selection the crew may swap two task tokens."))
    elif m.token_adjust is TokenAdjust.MOVE:
        out.append(
            ("Tokens", "Before selection the crew may move one token onto a task without one.")
        )
    if m.tasks or m.draws_task_cards or m.fixed_tasks:
        out.append(("Allocation", allocation_text(m)))
    if m.task_handover_5p:
        out.append(
            (
                "5 players",
                "After the tasks are assigned and before trick 1, one crew "
                "member may hand one of their tasks to another.",
            )
        )
    if m.unfamiliar_terrain:
        out.append(
            (
                "Communication",
                "Unfamiliar terrain: before each attempt a random colour "
                "card sets the mode: 1-3 normal, 4-6 currents (position hidden), 7-9 "
                "rapture of the deep.",
            )
        )
    else:
        out.append(("Communication", _COMM_TEXT[m.communication]))
    if m.comm_from_trick > 1 and m.communication is not CommMode.NONE:
        out.append(
            (
                "Communication",
                f"Not before trick {m.comm_from_trick}: communication "
                f"starts just before the {_ordinal(m.comm_from_trick)} trick.",
            )
        )
    if m.silenced_member:
        out.append(
            (
                "Communication",
                f"The {lead} names one other crew member who may not communicate at all.",
            )
        )
    if m.comm_before_first_trick_if_passed:
        out.append(
            (
                "Communication",
                "If the captain passes the tasks on, all communication "
                "must happen before the first trick.",
            )
        )
    if m.card_draw_after_trick:
        dummy = "JARVIS" if m.game is Game.PLANET_NINE else "the dummy"
        out.append(
            (
                "Card draw",
                f"Right after trick {m.card_draw_after_trick} every player draws "
                "one random card from the hand of the player on their right. A card its "
                "holder has communicated lies face up on the table and cannot be drawn. With "
                f"two players {dummy} gives a random face-down card, and the card it receives "
                "goes face down into that place (its face-up cards do not change).",
            )
        )
    for o in m.objectives:
        out.append(("Objective", objective_text(o, m)))
        if o.kind is ObjectiveKind.LEFT_OF_PINK9_WINS_PINK:
            out.append(("3 players", _UNPLAYED_PINK))
    if m.real_time_seconds:
        minutes, seconds = divmod(m.real_time_seconds, 60)
        note = m.untimed_note or f"Timed variant: {minutes}:{seconds:02d} limit."
        out.append(
            (
                "Real time",
                f"A real-time mission; crewsim simulates the untimed rules shown here. {note}",
            )
        )
    out.append(("Description", m.description))
    return out


@app.command("show", short_help="Every rule of one mission, in words.")
def show_mission(
    mission_id: Annotated[
        str, typer.Argument(metavar="ID", help="Mission id, e.g. pn-12.", show_default=False)
    ],
    fmt: FormatOpt = Format.TABLE,
) -> None:
    """Every rule of one mission, in words (json: the mission's record and the words)."""
    m = get_mission(mission_id)
    pairs = describe(m)
    if fmt is Format.TABLE:
        print_topics(f"[bold]{m.id}[/]  {m.game.value} mission {m.number}", pairs)
        return
    rules: list[dict[str, object]] = [{"topic": topic, "text": text} for topic, text in pairs]
    emit(rules, fmt, key="rules", head={"mission": m.to_dict()})


def print_topics(heading: str, pairs: Sequence[tuple[str, str]]) -> None:
    """A heading (rich markup) over (topic, text) pairs in two columns: the ``show`` layout."""
    console = stdout_console()
    console.print(heading, highlight=False)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    for topic, text in pairs:
        grid.add_row(topic, escape(text))
    console.print(grid, highlight=False)
