"""One-off import: reference CSVs -> scenarios/*.toml (then the TOML files are hand-edited data).

Run from the repo root:  .venv/bin/python tools/import_reference.py /work/shared/reference
The program never reads the CSVs at run time; this script only documents where the data came from.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

from crewsim.missions.schema import (
    OBJECTIVE_PARAMS,
    TASK_PARAMS,
    ObjectiveKind,
    ParamSpec,
    ParamType,
)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "scenarios"
BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


# ---------------------------------------------------------------- tiny TOML writer


def toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def toml_key(k: str) -> str:
    return k if BARE_KEY.match(k) else json.dumps(k)


def table(name: str, record: dict[str, object], comments: list[str]) -> str:
    lines = [f"# {c}" for c in comments]
    lines.append(f"[[{name}]]")
    lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in record.items()]
    return "\n".join(lines) + "\n"


def comment_block(text: str) -> str:
    return "\n".join(f"# {line}".rstrip() for line in text.strip("\n").splitlines()) + "\n"


def kinds_doc(kinds: list[str], spec: dict) -> str:
    out = []
    for k in kinds:
        params = ", ".join(param_doc(p, s) for p, s in spec[k].items())
        out.append(f"    {k}" + (f"  {{ {params} }}" if params else ""))
    return "\n".join(out)


def param_doc(name: str, s: ParamSpec) -> str:
    """``n: count 2-14``, ``count: count 1-4 = 1``: type, a count's range, the default."""
    span = f" {s.lo}-{s.hi}" if s.type is ParamType.COUNT and (s.lo, s.hi) != (0, 99) else ""
    default = "" if s.default is None else f" = {toml_value(s.default)}"
    return f"{name}: {s.type.value}{span}{default}"


# ---------------------------------------------------------------- Planet Nine

PN_SPECIAL: dict[str, list[dict[str, object]] | None] = {
    "designated_player_wins_no_tricks": [{"kind": "player_wins_no_tricks"}],
    "each_rocket_wins_a_trick": None,  # handled below (ordered flag)
    "no_trick_won_by_rank": None,
    "color_one_must_win_trick": None,
    "balanced_tricks": [{"kind": "balanced_tricks", "max_lead": 1}],
    "balanced_tricks_and_commander_first_last": [
        {"kind": "balanced_tricks", "max_lead": 1, "commander_first_last": True}
    ],
    "designated_player_exactly_one_trick": [
        {"kind": "player_exactly_one_trick", "no_trump_win": True}
    ],
    "designated_player_only_first_and_last": [
        {"kind": "player_first_and_last_only", "no_trump_win": True}
    ],
    "left_of_pink9_wins_all_pink": [{"kind": "left_of_pink9_wins_pink"}],
    "omega_in_last_trick": [{"kind": "omega_last_trick"}],
    "role_split_first4_last1": [{"kind": "role_split", "first": 4, "last": 1}],
}


def planet_nine(rows: list[dict[str, str]]) -> str:
    out = []
    for r in rows:
        n = int(r["mission"])
        rec: dict[str, object] = {"id": f"pn-{n}", "number": n, "tasks": int(r["num_tasks"])}
        tokens = [t.strip() for t in r["task_tokens"].split(",") if t.strip()]
        rec["tokens"] = ["omega" if t == "Ω" else t for t in tokens]
        comm = r["communication"]
        rec["communication"] = "dead_zone" if comm == "dead_zone" else "normal"
        if comm == "disrupted_until_trick":
            rec["comm_from_trick"] = int(r["communication_param"])
        kind = r["special_rule_kind"]
        params = json.loads(r["special_rule_params"] or "{}")
        objectives: list[dict[str, object]] = []
        if kind == "silence_one_crew_member":
            rec["silenced_member"] = True
        elif kind == "random_card_draw":
            rec["card_draw_after_trick"] = int(params["after_trick"])
        elif kind == "commander_assigns_all_tasks_to_one":
            rec["allocation"] = "one_member"
        elif kind == "commander_distributes_tasks":
            rec["allocation"] = "commander_distributes"
        elif kind == "swap_two_task_tokens":
            rec["token_adjust"] = "swap"
        elif kind == "move_token_to_untokened_task":
            rec["token_adjust"] = "move"
        elif kind == "each_rocket_wins_a_trick":
            objectives = [{"kind": "each_trump_wins", "ordered": bool(params["ordered"])}]
        elif kind == "no_trick_won_by_rank":
            objectives = [{"kind": "no_win_with_rank", "rank": int(params["rank"])}]
        elif kind == "color_one_must_win_trick":
            objectives = [{"kind": "colour_ones_win", "count": int(params["count"])}]
        elif kind != "none":
            objectives = PN_SPECIAL[kind] or []
        if r["five_player_task_handover"] == "yes":
            rec["task_handover_5p"] = True
        if objectives:
            rec["objectives"] = objectives
        rec["description"] = r["description"]
        notes = [f"note: {x}" for x in (r["notes"], r["two_player_jarvis_notes"]) if x]
        out.append(table("missions", rec, [f"Mission {n}", *notes]))
    return "\n".join(out)


# ---------------------------------------------------------------- Deep Sea

DS_ALLOC = {
    "normal": "draft",
    "one_player_chosen_together": "one_member",
    "captain_all_or_pass_to_one": "captain_all_or_pass",
    "volunteer_1": "volunteer_1",
    "volunteer_2": "volunteer_2",
    "free_selection": "free_selection",
    "captain_takes_hardest_first": "captain_hardest_first",
    "captain_skips_selection": "captain_skips",
}
ALLOC_TEXT = {
    "draft": "",
    "one_member": "The crew decides together which one member takes all tasks.",
    "captain_all_or_pass": "The captain takes all tasks or passes all of them to one willing "
    "crew member; if passed on, all communication must happen before the first trick.",
    "volunteer_1": "The captain asks each member in turn; the first volunteer takes all tasks.",
    "volunteer_2": "Two volunteers take all tasks between them.",
    "free_selection": "The crew splits the tasks freely among themselves.",
    "captain_hardest_first": "The captain must first take the task with the highest difficulty; "
    "then selection continues clockwise as usual.",
    "captain_skips": "Tasks are selected clockwise as usual but the captain gets none.",
}
DS_OBJECTIVES = {
    8: ([{"kind": "balance_rank_wins", "rank": 9, "max_difference": 1}],
        "No task cards. At no point may any crew member have won two more 9s than another."),
    12: ([{"kind": "no_lead_suits", "suits": ["pink", "trump"]}],
         "No task cards. No trick may be opened with a pink card or a submarine."),
    21: ([{"kind": "balance_rank_wins", "rank": 1, "max_difference": 1}],
         "No task cards. At no point may any crew member have won two more colour 1s than "
         "another."),
    23: ([{"kind": "first_trick_winner_most"}],
         "No task cards. Whoever wins trick 1 must at all times have won more tricks than every "
         "other crew member. No communication until just before the second trick."),
    27: ([{"kind": "card_last_in_final_trick", "card": "yellow5"}],
         "No task cards. The yellow 5 must be the last card played in the final trick."),
}
DS_FIXED = {32: [4, 39, 5, 74]}
TIMED = "Timed variant: {} limit with normal communication; untimed: {}."
UNTIMED = {
    14: ("dead_zone", None, TIMED.format("3:30", "currents")),
    15: ("rapture", None, TIMED.format("3:00", "rapture of the deep")),
    16: ("none", None, TIMED.format(
        "2:30", "no communication (VirtualTabletop: random communication)")),
    26: (None, 12, "Timed variant: difficulty 10 with a 5:00 limit; untimed: difficulty 12."),
}


def deep_sea(rows: list[dict[str, str]], task_text: dict[int, str]) -> str:
    out = []
    for r in rows:
        n = int(r["mission"])
        rec: dict[str, object] = {"id": f"ds-{n}", "number": n}
        difficulty = int(r["difficulty"] or 0)
        comm = "normal"
        if r["currents"] == "yes":
            comm = "dead_zone"
        if r["rapture_of_the_deep"] == "yes":
            comm = "rapture"
        words: list[str] = []
        rt = int(r["real_time_seconds"] or 0)
        if n in UNTIMED:
            ucomm, udiff, note = UNTIMED[n]
            comm = ucomm or comm
            difficulty = udiff or difficulty
        draws = r["draws_task_cards"] == "yes"
        rec["difficulty"] = difficulty
        rec["draws_task_cards"] = draws
        if draws:
            words.append(f"Draw task cards up to a total difficulty of {difficulty}.")
        if n in DS_FIXED:
            rec["fixed_tasks"] = DS_FIXED[n]
            names = "; ".join(f"#{t} {task_text[t]}" for t in DS_FIXED[n])
            words.append(f"No draw: exactly these task cards, selected as usual: {names}.")
        alloc = DS_ALLOC[r["task_allocation"]]
        rec["communication"] = comm
        if n == 23:
            rec["comm_from_trick"] = 2
        rec["allocation"] = alloc
        if ALLOC_TEXT[alloc]:
            words.append(ALLOC_TEXT[alloc])
        if r["extra_comm_restriction"].startswith("if the tasks are passed on"):
            rec["comm_before_first_trick_if_passed"] = True
        if r["unfamiliar_terrain"] == "yes":
            rec["unfamiliar_terrain"] = True
            words.append("Unfamiliar terrain: each attempt a random colour card sets the "
                         "communication (1-3 normal, 4-6 currents, 7-9 rapture of the deep).")
        if comm == "dead_zone":
            words.append("Currents: communication shows the card but not highest/only/lowest.")
        elif comm == "rapture":
            words.append("Rapture of the deep: a shared pool of (players - 2) "
                         "communication tokens.")
        elif comm == "none" and n != 16:
            words.append("No communication.")
        if n in DS_OBJECTIVES:
            objectives, text = DS_OBJECTIVES[n]
            rec["objectives"] = objectives
            words.insert(0, text)
        if rt:
            rec["real_time_seconds"] = rt
            rec["untimed_note"] = UNTIMED[n][2]
            words.append("Real-time mission; crewsim simulates the untimed rules. "
                         + UNTIMED[n][2])
        if not words:
            words.append("Standard mission.")
        rec["description"] = " ".join(words)
        notes = [f"note: {r['notes']}"] if r["notes"] else []
        out.append(table("missions", rec, [f"Mission {n}", *notes]))
    return "\n".join(out)


# ---------------------------------------------------------------- Deep Sea task cards


def redeal_sets(text: str) -> list[list[str]]:
    """'redeal if one hand holds submarines 1 and 4, or 1,2,3' -> [[sub1, sub4], [sub1..sub3]]."""
    if not text:
        return []
    text = re.sub(r"\(.*?\)", "", text).split("holds", 1)[1]
    sets = []
    for part in re.split(r",\s*or\s+", text):
        cards: list[str] = []
        if "all four submarines" in part:
            cards += [f"sub{i}" for i in range(1, 5)]
            part = part.replace("all four submarines", "")
        for colour, value in re.findall(r"(pink|blue|green|yellow)\s+(\d)", part):
            cards.append(f"{colour}{value}")
            part = part.replace(f"{colour} {value}", "")
        cards += [f"sub{d}" for d in re.findall(r"\d", part)]
        sets.append(cards)
    return sets


def task_cards(rows: list[dict[str, str]]) -> str:
    out = []
    for r in rows:
        params = json.loads(r["params_json"] or "{}")
        rec: dict[str, object] = {
            "number": int(r["task_no"]),
            "ref_id": r["ref_id"],
            "text": r["text_en"],
        }
        if r["subtext_en"]:
            rec["subtext"] = r["subtext_en"]
        rec["difficulty"] = [int(r[f"difficulty_{p}p"]) for p in (3, 4, 5)]
        rec["kind"] = r["condition_type"]
        rec["params"] = params
        if r["captain_may_take"] != "yes":
            rec["captain_may_take"] = False
        if r["deal_exception"]:
            rec["deal_exception"] = r["deal_exception"]
            rec["redeal_if"] = redeal_sets(r["deal_exception"])
        comments = [f"completes: {r['completes_when']}; fails: {r['fails_when']}"]
        agree = r["sources_agreeing_of_total"]
        comments.append(f"sources: {r['source_difficulties']} ({agree} agree)")
        if r["notes"]:
            comments.append(f"note: {r['notes']}")
        out.append(table("task_cards", rec, comments))
    return "\n".join(out)


# ---------------------------------------------------------------- headers

COMMON_FIELDS = """
Each [[missions]] table is one mission; omitted fields take the default in brackets.
  id             unique id: lowercase letters, digits, '-' or '_' ("{prefix}-1", ...)
  number         logbook number (>= 1)
  description    the rules in words, shown by `crewsim missions show ID`
  communication  normal (open highest/only/lowest token) | dead_zone (card shown, token position
                 hidden: Planet Nine dead zone, Deep Sea currents) | rapture (Deep Sea rapture of
                 the deep: shared pool of players-2 tokens) | none   [normal]
  comm_from_trick  first trick before which communication is allowed; 1 = from the start   [1]
  allocation     how tasks reach players: draft (commander/captain first, clockwise, one at a
                 time) | one_member; Planet Nine also commander_distributes; Deep Sea also
                 captain_all_or_pass | volunteer_1 | volunteer_2 | free_selection |
                 captain_hardest_first | captain_skips   [draft]
  silenced_member  true: the commander names one other member who may not communicate   [false]
  card_draw_after_trick  0, or the trick after which each player draws one random card from
                 the hand of the player on their right   [0]
  objectives     crew-wide objectives, all must hold, each an inline table
                 {{ kind = "...", <param> = <value>, ... }}   [[]]
"""

PN_HEADER = """
crewsim scenario file: The Crew - The Quest for Planet Nine, logbook missions 1-50.
Imported once from the project's reference table (planet_nine_missions.csv: BGA implementation
Syarwin/bga-thecrew, fan mission log, BGA forum list, bacontime rules mirror; all agree) by
tools/import_reference.py, hand-editable since.  Check edits: crewsim validate <this file>

game = default game of every mission below: planet-nine | deep-sea
{common}
Planet Nine only:
  tasks          number of task cards drawn, 0..12   [0]
  tokens         order tokens put on the drawn tasks, at most `tasks`, no duplicates   [[]]
                 "1".."5"  absolute order: the task marked 1 is the first task completed, ...
                 ">" ">>" ">>>" ">>>>"  relative order among the arrow-marked tasks only
                 "omega"   must be the last task completed
  task_handover_5p  true: with 5 players one member may hand one task to another before
                 trick 1 (missions 25+ with tasks)   [false]
  token_adjust   none | swap (crew may swap two tokens before selection, 23) |
                 move (crew may move one token onto an untokened task, 40)   [none]

Objective kinds {{ params: type = default }} (a param without default is required):
{kinds}
"""

DS_HEADER = """
crewsim scenario file: The Crew - Mission Deep Sea, logbook missions 1-32.
Imported once from the project's reference table (deep_sea_missions.csv: logbook transcriptions
alisonarantes/thecrew-logbook, official logbook OCR note, EXPO rules spec, VirtualTabletop) by
tools/import_reference.py, hand-editable since.  Check edits: crewsim validate <this file>
Real-time missions (14, 15, 16, 26) are stored with their untimed rules, which is what crewsim
simulates; real_time_seconds and untimed_note record the timed variant.

game = default game of every mission below: planet-nine | deep-sea
{common}
Deep Sea only:
  difficulty     target total of the drawn task cards' printed values for the player count,
                 0..30 (0 = no draw: objective-only or fixed-task missions)   [0]
  draws_task_cards  true: draw task cards up to `difficulty`   [true when difficulty > 0]
  fixed_tasks    task-card numbers (1..96, see deep_sea_tasks.toml) used instead of a draw   [[]]
  unfamiliar_terrain  true: before each attempt a random colour card sets the communication:
                 1-3 normal, 4-6 currents, 7-9 rapture of the deep   [false]
  comm_before_first_trick_if_passed  true: if the captain passes the tasks on, all
                 communication must happen before the first trick   [false]
  real_time_seconds  time limit of the timed variant (0 = not a real-time mission)   [0]
  untimed_note   what the untimed alternative changes compared to the timed one   [""]

Objective kinds {{ params: type = default }} (a param without default is required):
{kinds}
"""

TASK_HEADER = """
crewsim task-card file: the 96 condition task cards of The Crew - Mission Deep Sea.
Imported once from the project's reference table (deep_sea_tasks.csv; difficulties agree across
seven independent transcriptions for 92/96 cards, see the per-card `sources` comments) by
tools/import_reference.py, hand-editable since.  Check edits: crewsim validate <this file>
The `completes:`/`fails:` comments are the intended evaluation in words (not read by crewsim).

Each [[task_cards]] table is one card; omitted fields take the default in brackets.
  number         card number, unique (1..96)
  ref_id         short unique name used on the command line (e.g. "4x9")
  text           the card's sentence;  subtext: the small print under it   [""]
  difficulty     printed value for [3, 4, 5] players, each >= 1 (2 players use the 3-player value)
  kind           condition kind (list below);  params: its parameters as an inline table   [{{}}]
                 colours are pink | blue | green | yellow; cards are codes like pink7 or sub3;
                 tricks are 1-based numbers or "first" / "last"
  captain_may_take  false for "... than the Captain" cards   [true]
  deal_exception the redeal condition in words   [""]
  redeal_if      lists of cards: redeal when one hand holds every card of any list   [[]]

Task kinds {{ params: type = default }} (a param without default is required):
{kinds}
"""


def main(ref: Path) -> None:
    def rows(name: str) -> list[dict[str, str]]:
        with open(ref / name, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))

    pn_kinds = [k.value for k in ObjectiveKind][:10]
    ds_kinds = [k.value for k in ObjectiveKind][10:]
    obj_spec = {k.value: v for k, v in OBJECTIVE_PARAMS.items()}
    task_spec = {k.value: v for k, v in TASK_PARAMS.items()}
    tasks = rows("deep_sea_tasks.csv")
    texts = {int(r["task_no"]): r["text_en"] for r in tasks}

    pn = comment_block(PN_HEADER.format(
        common=COMMON_FIELDS.format(prefix="pn"), kinds=kinds_doc(pn_kinds, obj_spec)))
    (OUT / "planet_nine.toml").write_text(
        pn + '\ngame = "planet-nine"\n\n' + planet_nine(rows("planet_nine_missions.csv")),
        encoding="utf-8")
    ds = comment_block(DS_HEADER.format(
        common=COMMON_FIELDS.format(prefix="ds"), kinds=kinds_doc(ds_kinds, obj_spec)))
    (OUT / "deep_sea.toml").write_text(
        ds + '\ngame = "deep-sea"\n\n' + deep_sea(rows("deep_sea_missions.csv"), texts),
        encoding="utf-8")
    tk = comment_block(TASK_HEADER.format(kinds=kinds_doc(list(task_spec), task_spec)))
    (OUT / "deep_sea_tasks.toml").write_text(tk + "\n" + task_cards(tasks), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/reference"))
