"""Writes tests/solver/golden.jsonl: deals whose verdict can be checked by hand ("_why").

Run ``python -m tests.solver.make_golden``; the test only reads the file.  Filler cards are
dealt with a fixed seed, so the file is reproducible.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from crewsim.cards import card_id, card_name

P, B, G, Y, T = 0, 1, 2, 3, 4


def c(s: int, v: int) -> int:
    return card_id(s, v)


def _fill(
    fixed: list[list[int]], sizes: list[int], rng: random.Random, keep_out: set[int] | None = None
) -> list[list[int]]:
    """Deal the cards not fixed to seats that still have room (``keep_out`` seats excluded)."""
    used = {x for h in fixed for x in h}
    rest = [x for x in range(40) if x not in used]
    rng.shuffle(rest)
    hands = [list(h) for h in fixed]
    for x in rest:
        room = [
            s
            for s in range(len(hands))
            if len(hands[s]) < sizes[s] and not (keep_out and s in keep_out)
        ]
        hands[rng.choice(room)].append(x)
    assert all(len(h) == n for h, n in zip(hands, sizes, strict=True))
    return hands


def record(
    players: int,
    hands: list[list[int]],
    tasks: list[tuple[int, int, str | None]],
    expect: str,
    why: str,
    mission: str | None = None,
    under: list[tuple[int, int]] | None = None,
) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "game": "planet-nine",
        "players": players,
        "hands": [[card_name(x) for x in sorted(h)] for h in hands],
        "tasks": [{"card": card_name(x), "player": o, "token": t} for x, o, t in tasks],
        "_expect": expect,  # notes: keys the deal format leaves to the writer ("_...")
        "_why": why,
    }
    if under:
        rec["dummy_under"] = [[card_name(a), card_name(b)] for a, b in under]
    if mission:
        rec["mission"] = mission
    return rec


TOP = [
    c(T, 1),
    c(T, 2),
    c(T, 3),
    c(T, 4),
    c(P, 9),
    c(B, 9),
    c(G, 9),
    c(Y, 9),
    c(P, 8),
    c(B, 8),
    c(G, 8),
    c(Y, 8),
    c(P, 7),
]
SWEEP_WHY = (
    "the commander holds every trump and the top cards of the task suits: leading the "
    "task cards in token order (higher card of a suit first), each wins its trick"
)


def sweep(
    players: int,
    seat: int,
    tasks: list[tuple[int, str | None]],
    rng: random.Random,
    mission: str | None = None,
    extra: list[int] | None = None,
) -> dict[str, Any]:
    sizes = {3: [13, 13, 13], 4: [10] * 4, 5: [8] * 5}[players]
    if players == 3:
        sizes[seat] = 14
    n_top = sizes[seat] - len(extra or [])
    fixed: list[list[int]] = [[] for _ in sizes]
    fixed[seat] = TOP[:n_top] + (extra or [])
    hands = _fill(fixed, sizes, rng)
    why = SWEEP_WHY
    if mission == "pn-48":
        why += "; every card it holds wins when led, so it keeps the lead and leads Omega last"
    return record(players, hands, [(x, seat, t) for x, t in tasks], "feasible", why, mission)


def golden() -> list[dict[str, Any]]:
    rng = random.Random(20240)
    out: list[dict[str, Any]] = []
    p9, b9, g9, y9, p8, b8 = c(P, 9), c(B, 9), c(G, 9), c(Y, 9), c(P, 8), c(B, 8)
    # ---- feasible sweeps, every token kind
    for tasks in (
        [(p9, None)],
        [(p9, None), (b8, None)],
        [(p9, "1")],
        [(b9, "2"), (p8, "1")],
        [(p9, "3"), (b9, "1"), (g9, "2")],
        [(p9, "5"), (b9, "4"), (g9, "3"), (y9, "2"), (p8, "1")],
        [(p9, ">")],
        [(p9, ">>"), (b9, ">")],
        [(p8, ">>>"), (g9, ">>>>"), (b9, None)],
        [(p9, ">"), (b9, ">>"), (g9, ">>>"), (y9, ">>>>")],
        [(p9, "omega")],
        [(p8, "omega"), (p9, None), (b9, "1")],
        [(b9, "omega"), (p9, ">"), (g9, ">>")],
    ):
        out.append(sweep(4, rng.randrange(4), tasks, rng))
    out.append(sweep(4, 1, [(p9, "omega"), (b9, None)], rng, mission="pn-48"))
    out.append(sweep(4, 2, [(p8, "omega"), (g9, None), (y9, None)], rng, mission="pn-48"))
    for players, tasks in (
        (5, [(p9, "1"), (b9, "2")]),
        (5, [(g9, "omega"), (y9, ">")]),
        (5, [(b9, None)]),
        (3, [(p9, "1"), (p8, "2"), (c(P, 7), "3")]),
        (3, [(y9, ">>"), (c(Y, 8), ">")]),
        (3, [(g9, "omega"), (c(G, 8), None)]),
    ):
        out.append(sweep(players, rng.randrange(players), tasks, rng))
    # 3 players: the commander holds 14 cards, one of them never played
    for extra in ([c(G, 1)], [c(Y, 2)]):
        rec = sweep(3, rng.randrange(3), [(p9, None), (b9, "1")], rng, extra=extra)
        rec["_why"] += f"; the 14th card ({card_name(extra[0])}, no task) stays unplayed"
        out.append(rec)
    # ---- feasible: the commander leads the task card, the owner plays the suit's 9 on it
    for owner, task in ((1, c(P, 5)), (2, c(B, 1)), (3, c(G, 7)), (1, c(Y, 3))):
        s = task // 9
        fixed: list[list[int]] = [[c(T, 1), c(T, 2), c(T, 3), c(T, 4), task], [], [], []]
        fixed[owner].append(c(s, 9))
        hands = _fill(fixed, [10] * 4, rng)
        out.append(
            record(
                4,
                hands,
                [(task, owner, None)],
                "feasible",
                f"seat 0 (all trumps) leads {card_name(task)}; seat {owner} plays "
                f"{card_name(c(s, 9))} on it: nobody can beat a 9 without trumps",
            )
        )
    # ---- infeasible: the owner holds the suit's 1, another seat only higher cards and trumps
    for owner, other, s, tokens in (
        (0, 1, P, []),
        (2, 3, B, ["1"]),
        (1, 0, G, [">", ">>"]),
        (3, 2, Y, ["omega"]),
        (0, 2, B, ["2", "1"]),
        (1, 3, P, [">>>", ">>>>"]),
        (2, 0, Y, ["3", "4", "5"]),
        (3, 1, G, ["omega", "1"]),
        (0, 3, B, [">", "omega"]),
    ):
        fixed = [[], [], [], []]
        fixed[owner].append(c(s, 1))
        fixed[other] += [c(s, v) for v in range(2, 10)] + [c(T, 1), c(T, 2)]
        hands = _fill(fixed, [10] * 4, rng)
        free = [x for x in range(36) if x // 9 != s]
        extra_tasks = [
            (x, rng.randrange(4), t)
            for x, t in zip(rng.sample(free, len(tokens)), tokens, strict=True)
        ]
        out.append(
            record(
                4,
                hands,
                [(c(s, 1), owner, None), *extra_tasks],
                "infeasible",
                f"seat {owner} must win with its own {card_name(c(s, 1))}; seat {other} "
                "holds only higher cards of that suit and trumps, so it beats it in "
                "any trick it is played in",
            )
        )
    for owner, other in ((0, 3), (4, 1), (2, 0)):
        fixed = [[] for _ in range(5)]
        fixed[owner].append(c(G, 1))
        fixed[other] += [c(G, v) for v in range(2, 10)]
        hands = _fill(fixed, [8] * 5, rng)
        out.append(
            record(
                5,
                hands,
                [(c(G, 1), owner, None)],
                "infeasible",
                f"seat {other} holds green 2-9 and nothing else: it must follow green "
                f"higher than seat {owner}'s green1 in any trick green1 is in",
            )
        )
    # ---- infeasible by order: seat 1 holds only task cards of seat 2, so a task completes in
    # every trick; seat 2's own pink1 can only win once seat 1 is out of pinks
    k_cards = [c(P, v) for v in range(2, 10)] + [c(B, 1), c(B, 2)]
    for token in ("1", "2", "3", "4", "5"):
        hands = _fill([[], k_cards, [c(P, 1)], []], [10] * 4, rng)
        out.append(
            record(
                4,
                hands,
                [(c(P, 1), 2, token)] + [(x, 2, None) for x in k_cards],
                "infeasible",
                "the numbered task pink1 must be done before the unnumbered ones, "
                "so in trick 1 (seat 1 plays a task card in every trick); but pink1 "
                "only wins a pink trick, where seat 1 must follow with a higher pink",
            )
        )
    for mission, toks, why in (
        (None, (">", ">>"), "pink1 (>) must be done no later than seat 1's pink9 (>>)"),
    ):
        hands = _fill([[], k_cards, [c(P, 1)], []], [10] * 4, rng)
        tasks = [(c(P, 1), 2, toks[0])] + [
            (x, 2, toks[1] if x == c(P, 9) else None) for x in k_cards
        ]
        out.append(
            record(
                4,
                hands,
                tasks,
                "infeasible",
                why + ": while seat 1 still holds a pink it follows a pink lead above "
                "pink1, and pink1 wins only a pink-led trick",
                mission,
            )
        )
    # ---- 3 players: the unplayed card
    for seat in (0, 1):
        colour = [x for x in range(36)]
        rng.shuffle(colour)
        mine = colour[:14]
        hands = _fill(
            [mine if s == seat else [] for s in range(3)],
            [14 if s == seat else 13 for s in range(3)],
            rng,
        )
        out.append(
            record(
                3,
                hands,
                [(x, seat, None) for x in mine],
                "infeasible",
                f"seat {seat} holds 14 task cards but plays only 13 (one is never "
                "played in the 3-player game)",
            )
        )
    # ---- 2 players: the dummy (seat 2), 7 face-up cards on 7 face-down ones
    for k in range(2):
        up = [c(P, 3), c(P, 6), c(B, 2), c(B, 5), c(G, 4), c(Y, 3), c(Y, 6)]
        down = [c(P, 2), c(P, 4), c(B, 3), c(G, 2), c(G, 3), c(Y, 2), c(Y, 4)]
        cmd = (
            [c(T, v) for v in range(1, 5)] + [c(s, v) for s in range(4) for v in (9, 8)] + [c(P, 7)]
        )
        rest = [x for x in range(40) if x not in up + down + cmd]
        hands = [cmd, rest, up] if k == 0 else [rest, cmd, up]
        cseat = 0 if k == 0 else 1
        out.append(
            record(
                2,
                hands,
                [(c(P, 2), cseat, "1"), (c(P, 9), cseat, None)],
                "feasible",
                "the commander leads pink9 (the dummy follows with pink3, uncovering "
                "pink2), then pink8: the dummy must follow pink and plays pink2; the "
                "commander has every trump and every 9 and 8",
                under=list(zip(up, down, strict=True)),
            )
        )
        dummy_tasks = [(x, cseat, None) for x in up + down]
        out.append(
            record(
                2,
                hands,
                dummy_tasks,
                "infeasible",
                "all 14 dummy cards are task cards but the dummy plays only 13",
                under=list(zip(up, down, strict=True)),
            )
        )
    return out


def main() -> None:
    path = Path(__file__).with_name("golden.jsonl")
    recs = golden()
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    print(f"{len(recs)} deals -> {path}")


if __name__ == "__main__":
    main()
