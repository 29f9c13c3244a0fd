"""Deep Sea set-up rules: the task draw, selection limits, redeals, contradictions.

Rules 15-16 of the reference README, in plain Python for the referee and the CLI.  The kernel
repairs a draw (rule 16) itself, from the per-card tables ``kernel/deep_sea_tables.py`` builds
out of ``find_contradictions`` and ``trick_bounds``.  Everything here is decided from the rules
alone (and, for redeals, the deal): the contradiction checker proves impossibility by counting,
it never plays a hand out, so "no contradiction found" does not promise the tasks can be
completed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from crewsim.cards import COLOUR_NAMES, TRUMP_MASK, Game, card_name, iter_cards, popcount, seats_of
from crewsim.missions.schema import TaskCard, TaskKind
from crewsim.rules.conditions import cards_mask, colour_mask, rank_mask
from crewsim.rules.play import n_tricks

# ---------------------------------------------------------------- the draw (rule 15)


def draw_tasks(
    deck: Sequence[TaskCard],
    difficulty: int,
    players: int,
    rng: np.random.Generator,
    exclude: Collection[int] = (),
) -> list[TaskCard]:
    """Cards drawn up to exactly ``difficulty``, in the order they were revealed.

    Shuffle the deck, turn cards one at a time, keep a card when its value for this crew size
    (2 players use the 3-player value) does not exceed what is still needed, skip it
    otherwise, stop when the sum is reached.  ``exclude`` holds card numbers kept out of the
    deck (e.g. cards already on the table).  Raises ValueError if the deck runs out first.
    """
    if difficulty < 0:
        raise ValueError(f"difficulty must be >= 0, got {difficulty}")
    pool = [c for c in deck if c.number not in exclude]
    need, drawn = difficulty, []
    for i in rng.permutation(len(pool)):
        if need == 0:
            break
        card = pool[int(i)]
        value = card.difficulty_for(players)
        if value <= need:
            drawn.append(card)
            need -= value
    if need:
        raise ValueError(f"the deck ran out {need} short of difficulty {difficulty}")
    return drawn


# ---------------------------------------------------------------- selection (rule 16)


def captain_may_take(card: TaskCard) -> bool:
    """False for the "as many / fewer / more tricks than the captain" cards."""
    return card.captain_may_take and card.kind is not TaskKind.COMPARE_TRICKS_VS_CAPTAIN


def may_pass(n_tasks: int, players: int) -> bool:
    """Passing during selection is allowed only with fewer tasks than crew seats."""
    seats = seats_of(players)
    return n_tasks < seats


def draft_problems(
    cards: Sequence[TaskCard],
    owners: Sequence[int],
    players: int,
    captain: int = 0,
    first: int | None = None,
    skip_captain: bool = False,
    passing: bool | None = None,
) -> list[str]:
    """Why these owners could not come out of a draft (empty: they could): turns clockwise
    from ``first`` (the captain unless given; ``skip_captain``: the captain takes none), one
    task a turn.  With fewer tasks than takers (``passing``: decided by the caller) anyone may
    pass (rule 16), so any split can come out; otherwise a member skips only when it may take
    none of the tasks left, which happens to the captain when only "... than the captain" cards
    remain."""
    seats = _seats(players)
    start = captain if first is None else first
    order = [(start + j) % seats for j in range(seats)]
    if skip_captain:  # a task the captain holds anyway is ``allocation_problems``' to name
        order.remove(captain)
    if len(cards) < len(order) if passing is None else passing:  # anyone may pass, and the
        return []  # turns go round until all are taken: any split
    held = {s: [c for c, o in zip(cards, owners, strict=True) if o == s] for s in order}
    for s in order:  # the others take what the captain could take first: its skips stay legal
        held[s].sort(key=lambda c: s != captain and not captain_may_take(c))
    left = sum(len(h) for h in held.values())
    while left:
        for s in order:
            if held[s]:
                held[s].pop(0)
                left -= 1
            elif any(s != captain or captain_may_take(c) for h in held.values() for c in h):
                n = sum(1 for o in owners if o == s)
                return [
                    f"seat {s} holds {n} task(s) but had a turn while tasks it could take were left"
                ]
            if not left:
                break
    return []


def allocation_problems(
    allocation: str,
    cards: Sequence[TaskCard],
    owners: Sequence[int],
    players: int,
    captain: int = 0,
    repaired: bool = False,
) -> list[str]:
    """Why these owners could not come out of the mission's selection rule (empty: they
    could): the referee's check of every owner the kernel hands out.  Free selection allows
    any split; every rule keeps "... than the captain" cards from the captain.  A repair
    (rule 16) swaps a card after the selection, so a ``repaired`` draw's order of turns is
    not checked: the card a turn was skipped for may be gone."""
    _check_owners(cards, owners, _seats(players))
    problems = [
        f"the captain (seat {captain}) may not take {c.label}"
        for c, o in zip(cards, owners, strict=True)
        if o == captain and not captain_may_take(c)
    ]
    n, holders = len(cards), set(owners)
    if allocation == "captain_skips" and captain in holders:
        problems.append(f"the captain (seat {captain}) holds a task; it takes none here")
    if allocation in ("draft", "captain_skips") and not repaired:
        problems += draft_problems(
            cards, owners, players, captain, skip_captain=allocation == "captain_skips"
        )
    if allocation == "captain_hardest_first" and not repaired:
        problems += _hardest_first_problems(cards, owners, players, captain)
    if allocation in ("one_member", "captain_all_or_pass", "volunteer_1") and len(holders) > 1:
        problems.append(f"{len(holders)} members hold tasks; this mission gives all to one")
    if allocation == "volunteer_2" and len(holders) != min(2, n):
        problems.append(f"{len(holders)} members hold tasks; this mission gives all to two")
    return problems


def _hardest_first_problems(
    cards: Sequence[TaskCard], owners: Sequence[int], players: int, captain: int
) -> list[str]:
    """Deep Sea 19: the captain first takes a task of the highest value it may take, then
    the rest are drafted as usual from the captain's left."""
    values = [c.difficulty_for(players) for c in cards if captain_may_take(c)]
    if not values:  # nothing the captain may take: a plain draft
        return draft_problems(cards, owners, players, captain)
    top = max(values)
    hardest = next(
        (
            k
            for k, (c, o) in enumerate(zip(cards, owners, strict=True))
            if o == captain and c.difficulty_for(players) == top
        ),
        None,
    )
    if hardest is None:
        return [f"the captain holds no task of the highest value ({top})"]
    rest = [k for k in range(len(cards)) if k != hardest]
    return draft_problems(
        [cards[k] for k in rest],
        [owners[k] for k in rest],
        players,
        captain,
        first=captain + 1,
        passing=may_pass(len(cards), players),
    )


# ---------------------------------------------------------------- redeal (deal_exception)


def redeal_reasons(tasks: Iterable[TaskCard], hands: Sequence[int]) -> list[str]:
    """Why this deal must be redealt for these tasks (empty list = keep it).

    A card's ``redeal_if`` lists card sets; the deal is redealt when one hand holds every card
    of any set.  ``hands`` are the full hands as dealt (the 2-player dummy's covered cards
    included: they make the task just as impossible).
    """
    reasons = []
    for card in tasks:
        for group in card.redeal_if:
            need = sum(1 << c for c in group)
            for seat, hand in enumerate(hands):
                if hand & need == need:
                    names = ", ".join(card_name(c, _DS) for c in group)
                    reasons.append(f"{card.ref_id!r}: seat {seat} holds {names}")
    return reasons


def needs_redeal(tasks: Iterable[TaskCard], hands: Sequence[int]) -> bool:
    return bool(redeal_reasons(tasks, hands))


# ---------------------------------------------------------------- contradictions


@dataclass(frozen=True)
class Contradiction:
    """One proven impossibility: the reason in words and the positions of the tasks involved."""

    reason: str
    tasks: tuple[int, ...]  # indices into the checked card list


@dataclass
class _Owner:
    """Everything the tasks of one seat demand, with the index of the task behind each bound."""

    must_win: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    must_lose: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    lo: list[tuple[int, int]] = field(default_factory=list)  # (min tricks, task)
    hi: list[tuple[int, int]] = field(default_factory=list)  # (max tricks, task)
    need: list[tuple[int, str, int, int]] = field(default_factory=list)  # (mask, what, n, task)
    cap: list[tuple[int, str, int, int]] = field(default_factory=list)  # (mask, what, n, task)
    run_min: list[tuple[int, int]] = field(default_factory=list)  # needs a streak of n
    run_max: list[tuple[int, int]] = field(default_factory=list)  # no streak longer than n
    exact_run: list[tuple[int, int]] = field(default_factory=list)  # all wins in one n-block
    one_colour: list[int] = field(default_factory=list)  # tasks: all nine of some colour


def contradictions(
    cards: Sequence[TaskCard], owners: Sequence[int], players: int, captain: int = 0
) -> list[str]:
    """Every contradiction the rules alone prove for these tasks and owners, in words."""
    return [c.reason for c in find_contradictions(cards, owners, players, captain)]


def find_contradictions(
    cards: Sequence[TaskCard], owners: Sequence[int], players: int, captain: int = 0
) -> list[Contradiction]:
    """Prove impossibilities by counting (see module doc); each names its tasks and reason.

    Checked: the captain holding a captain-comparison card; tricks that do not exist; one trick
    needed by two seats; a seat that must both win and not win a trick; streak demands that
    clash; a card needed by two seats; a seat's card counts that cannot all hold ("no pink"
    with "win the pink 3"); more cards of a kind needed by all seats together than exist; "all
    cards of one colour" with every colour blocked; a seat's trick count squeezed empty; all
    seats together needing more tricks than the hand has, or too few to take them all; and the
    trick-count relations ("more than the captain", "fewer than everyone") once propagated.
    """
    seats = _seats(players)
    _check_owners(cards, owners, seats)
    n = n_tricks(players)
    out: list[Contradiction] = []

    def say(reason: str, *tasks: int) -> None:
        out.append(Contradiction(reason, tuple(sorted(set(tasks)))))

    def label(i: int) -> str:
        return f"{cards[i].label} (seat {owners[i]})"

    seat_info = [_Owner() for _ in range(seats)]
    relations: list[tuple[int, int, str, int]] = []  # (a, b, "lt" | "eq", task): a < b or a = b
    for i, (card, owner) in enumerate(zip(cards, owners, strict=True)):
        if owner == captain and not captain_may_take(card):
            say(f"the captain (seat {captain}) may never take {card.label}", i)
            continue
        missing = _describe(card, i, owner, captain, seats, n, seat_info[owner], relations)
        if missing is not None:
            say(f"{label(i)} names trick {missing}, but {players} players play only {n}", i)

    # one trick, two seats
    needers: dict[int, list[int]] = defaultdict(list)
    for info in seat_info:
        for t, tasks in info.must_win.items():
            needers[t].append(tasks[0])
    for t, tasks in sorted(needers.items()):
        if len(tasks) > 1:
            who = " and ".join(label(i) for i in tasks)
            say(f"{who} both need to win trick {t + 1}", *tasks)

    clashing: set[int] = set()
    for seat, info in enumerate(seat_info):
        # win and not win the same trick (its trick counts are then moot: skip them below)
        for t in sorted(set(info.must_win) & set(info.must_lose)):
            clashing.add(seat)
            a, b = info.must_win[t][0], info.must_lose[t][0]
            say(f"seat {seat} must win trick {t + 1} for {label(a)} but not for {label(b)}", a, b)
        # streaks
        for k, a in info.run_min:
            for m, b in info.run_max:
                if k > m:
                    say(
                        f"{label(a)} needs {k} tricks in a row, {label(b)} allows at most {m}", a, b
                    )
        for m, b in info.run_max:
            run = _longest_run(info.must_win)
            if run > m:
                tasks = [info.must_win[t][0] for t in info.must_win]
                say(f"seat {seat} must win {run} tricks in a row, {label(b)} allows {m}", b, *tasks)
        for k, a in info.exact_run:
            wins = sorted(info.must_win)
            if wins and wins[-1] - wins[0] + 1 > k:
                tasks = [info.must_win[t][0] for t in wins]
                say(
                    f"{label(a)} allows one block of {k} tricks, but seat {seat} must win tricks "
                    + ", ".join(str(t + 1) for t in wins),
                    a,
                    *tasks,
                )
        # card counts of one seat: named cards against a cap, then counts against caps
        required, by_card = _required(info)
        for mask_hi, what_hi, cap, b in info.cap:
            inside = required & mask_hi
            if popcount(inside) > cap:
                tasks = sorted({by_card[c] for c in iter_cards(inside)})
                names = ", ".join(card_name(c, Game.DEEP_SEA) for c in iter_cards(inside))
                who = ", ".join(label(i) for i in tasks)
                say(
                    f"seat {seat} must win {names} for {who}"
                    f" but {label(b)} allows at most {cap} of {what_hi}",
                    b,
                    *tasks,
                )
            for mask_lo, what_lo, need, a in info.need:
                if _named(mask_lo, need) or a == b:
                    continue
                if need > cap + popcount(mask_lo & ~mask_hi):
                    say(
                        f"seat {seat} must win {need} of {what_lo} for {label(a)}"
                        f" but {label(b)} allows at most {cap} of {what_hi}",
                        a,
                        b,
                    )
    # cards and card counts across seats
    _shared_cards(seat_info, say, label)
    _one_colour(seat_info, say, label)
    _trick_counts(seat_info, relations, n, say, label, clashing)
    return out


def _describe(
    card: TaskCard,
    i: int,
    owner: int,
    captain: int,
    seats: int,
    n: int,
    info: _Owner,
    relations: list[tuple[int, int, str, int]],
) -> int | None:
    """Record what task ``i`` demands of its owner; returns a named trick that does not exist."""
    p: Mapping[str, Any] = card.params  # values checked by the loader against TASK_PARAMS
    k = card.kind
    K = TaskKind

    def trick(ref: object) -> int:
        if ref == "first":
            return 0
        if ref == "last":
            return n - 1
        assert isinstance(ref, int)
        return ref - 1

    def cards_lo(count: int) -> None:
        info.lo.append((-(-count // seats), i))

    def need(mask: int, what: str, count: int) -> None:
        info.need.append((mask, what, count, i))
        cards_lo(count)

    def cap(mask: int, what: str, count: int) -> None:
        info.cap.append((mask, what, count, i))

    if k is K.WIN_EXACTLY_N_TRICKS:
        info.lo.append((p["n"], i))
        info.hi.append((p["n"], i))
    elif k is K.NEVER_WIN_CONSECUTIVE_TRICKS:
        info.run_max.append((p["n"] - 1, i))
        info.hi.append((n - n // p["n"], i))
    elif k is K.WIN_CONSECUTIVE_TRICKS_AT_LEAST:
        info.run_min.append((p["n"], i))
        info.lo.append((p["n"], i))
    elif k is K.WIN_EXACTLY_N_CONSECUTIVE_TRICKS:
        info.run_min.append((p["n"], i))
        info.exact_run.append((p["n"], i))
        info.lo.append((p["n"], i))
        info.hi.append((p["n"], i))
    elif k in (K.WIN_TRICKS, K.WIN_ONLY_TRICKS):
        wanted = {trick(r) for r in p["tricks"]}
        bad = [t for t in wanted if t >= n]
        if bad:
            return bad[0] + 1
        for t in wanted:
            info.must_win[t].append(i)
        info.lo.append((len(wanted), i))
        if k is K.WIN_ONLY_TRICKS:
            info.hi.append((len(wanted), i))
            for t in set(range(n)) - wanted:
                info.must_lose[t].append(i)
    elif k is K.WIN_NONE_OF_FIRST_N_TRICKS:
        for t in range(min(p["n"], n)):
            info.must_lose[t].append(i)
        info.hi.append((max(n - p["n"], 0), i))
    elif k is K.WIN_CARD_IN_LAST_TRICK:
        info.must_win[n - 1].append(i)
        info.lo.append((1, i))
        need(cards_mask((p["card"],)), p["card"], 1)
    elif k is K.WIN_CARDS:
        for code in p["cards"]:
            need(cards_mask((code,)), code, 1)
        cards_lo(len(p["cards"]))
    elif k is K.WIN_CARD_WITH_SUBMARINE:
        need(cards_mask((p["card"],)), p["card"], 1)
        need(TRUMP_MASK, "submarines", 1)
    elif k is K.WIN_ONLY_SUBMARINE:
        need(1 << (35 + p["submarine"]), f"sub{p['submarine']}", 1)
        cap(TRUMP_MASK, "submarines", 1)
    elif k in (K.WIN_AT_LEAST_RANK, K.WIN_EXACTLY_RANK):
        mask = rank_mask((p["rank"],), p["color_cards_only"])
        need(mask, f"the {p['rank']}s", p["n"])
        if k is K.WIN_EXACTLY_RANK:
            cap(mask, f"the {p['rank']}s", p["n"])
    elif k is K.WIN_AT_LEAST_COLOR:
        need(colour_mask([p["color"]]), f"the {p['color']} cards", p["n"])
    elif k is K.WIN_EXACTLY_COLOR:
        for name, count in p["counts"].items():
            need(colour_mask([name]), f"the {name} cards", count)
            cap(colour_mask([name]), f"the {name} cards", count)
    elif k is K.WIN_EXACTLY_SUBMARINES:
        need(TRUMP_MASK, "submarines", p["n"])
        cap(TRUMP_MASK, "submarines", p["n"])
    elif k is K.WIN_NO_RANK:
        ranks = tuple(p["ranks"])
        cap(rank_mask(ranks, p["color_cards_only"]), "the " + "/".join(map(str, ranks)) + "s", 0)
    elif k is K.WIN_NO_SUBMARINES:
        cap(TRUMP_MASK, "submarines", 0)
    elif k is K.WIN_NO_COLOR:
        cap(colour_mask(p["colors"]), "the " + "/".join(p["colors"]) + " cards", 0)
    elif k is K.WIN_EACH_COLOR:
        for name in p["colors"]:
            need(colour_mask([name]), f"the {name} cards", 1)
        cards_lo(len(p["colors"]))
    elif k is K.WIN_ALL_CARDS_OF_ONE_COLOR:
        info.one_colour.append(i)
        cards_lo(9)
    elif k is K.WIN_EQUAL_COLORS_TOTAL:
        need(colour_mask([p["a"]]), f"the {p['a']} cards", p["min_each"])
        need(colour_mask([p["b"]]), f"the {p['b']} cards", p["min_each"])
        cards_lo(2 * p["min_each"])
    elif k is K.WIN_MORE_COLOR_THAN_COLOR:
        need(colour_mask([p["more"]]), f"the {p['more']} cards", 1 if p["less_may_be_zero"] else 2)
    elif k is K.WIN_TRICK_WITH_RANK:
        need(rank_mask((p["rank"],), p["color_cards_only"]), f"the {p['rank']}s", 1)
    elif k is K.WIN_RANK_WITH_RANK:
        w, c, only = p["winning_rank"], p["capture_rank"], p["color_cards_only"]
        if w == c:
            need(rank_mask((w,), only), f"the {w}s", 2)
        else:
            need(rank_mask((w,), only), f"the {w}s", 1)
            need(rank_mask((c,), only), f"the {c}s", 1)
    elif k in (
        K.WIN_TRICK_ALL_RANKS_PARITY,
        K.WIN_TRICK_ALL_RANKS_GT,
        K.WIN_TRICK_ALL_RANKS_LT,
        K.WIN_TRICK_SUM_GT,
        K.WIN_TRICK_SUM_LT,
        K.WIN_TRICK_SUM_IN,
        K.WIN_TRICK_EQUAL_COLORS,
    ):
        info.lo.append((1, i))
    elif k is K.WIN_MORE_TRICKS_THAN_OTHERS_COMBINED:
        info.lo.append((n // 2 + 1, i))
    elif k is K.COMPARE_TRICKS_VS_EACH_OTHER_PLAYER:
        for other in range(seats):
            if other != owner:
                a, b = (owner, other) if p["op"] == "fewer" else (other, owner)
                relations.append((a, b, "lt", i))
    elif k is K.COMPARE_TRICKS_VS_CAPTAIN:
        if p["op"] == "equal":
            relations.append((owner, captain, "eq", i))
        else:
            a, b = (owner, captain) if p["op"] == "fewer" else (captain, owner)
            relations.append((a, b, "lt", i))
    # NEVER_LEAD_COLOR and WIN_PREDICTED_TRICK_COUNT (its owner picks X) demand nothing countable
    return None


def _longest_run(tricks: Iterable[int]) -> int:
    best = run = 0
    prev = -2
    for t in sorted(tricks):
        run = run + 1 if t == prev + 1 else 1
        best, prev = max(best, run), t
    return best


_SayFn = Callable[..., None]  # say(reason, *task_indices)
_LabelFn = Callable[[int], str]  # task index -> '17 "I will ..." (seat s)' (TaskCard.label)


def _named(mask: int, count: int) -> bool:
    """A demand for one named card (as opposed to "n of these")."""
    return count == 1 and popcount(mask) == 1


def _required(info: _Owner) -> tuple[int, dict[int, int]]:
    """The named cards a seat must win, and the task that names each."""
    mask, by_card = 0, dict[int, int]()
    for m, _, k, i in info.need:
        if _named(m, k):
            mask |= m
            by_card.setdefault(m.bit_length() - 1, i)
    return mask, by_card


def _shared_cards(seat_info: Sequence[_Owner], say: _SayFn, label: _LabelFn) -> None:
    """More cards of a kind needed by all seats together than exist (a card needed twice).

    A seat needs at least max(its largest "n of T" demand with T inside the set, the number of
    named cards inside the set) of a card set; the seats' needs add up (a card is won once).
    """
    sets: dict[int, str] = {}
    for info in seat_info:
        for mask, what, _, _ in info.need:
            sets.setdefault(mask, what)
    needs = [(info.need, *_required(info)) for info in seat_info]
    for mask, what in sorted(sets.items(), key=lambda m: (popcount(m[0]), m[1])):
        total, tasks = 0, []
        for need, required, by_card in needs:
            best, why = popcount(required & mask), [by_card[c] for c in iter_cards(required & mask)]
            for m, _, k, i in need:
                if not _named(m, k) and m & ~mask == 0 and k > best:
                    best, why = k, [i]
            if best:
                total += best
                tasks += sorted(set(why))
        size = popcount(mask)
        if total > size and len({_owner_of(i, seat_info) for i in tasks}) > 1:
            who = " and ".join(label(i) for i in tasks)
            if size == 1:
                say(f"{who} both need to win {what}", *tasks)
            else:
                say(f"{who} need {total} of {what} together, there are {size}", *tasks)


def _owner_of(task: int, seat_info: Sequence[_Owner]) -> int:
    for seat, info in enumerate(seat_info):
        if any(i == task for *_, i in info.need):
            return seat
    return -1


def _one_colour(seat_info: Sequence[_Owner], say: _SayFn, label: _LabelFn) -> None:
    """ "All cards of one colour" is impossible when every colour is blocked for its owner."""
    for seat, info in enumerate(seat_info):
        for i in info.one_colour:
            blocks = [_colour_block(seat, colour_mask([c]), seat_info) for c in COLOUR_NAMES]
            if any(b is None for b in blocks):
                continue
            why = "; ".join(
                f"{name}: {label(b)}"
                for name, b in zip(COLOUR_NAMES, blocks, strict=True)
                if b is not None
            )
            say(
                f"{label(i)} cannot take all nine cards of any colour ({why})",
                i,
                *(b for b in blocks if b is not None),
            )


def _colour_block(seat: int, colour: int, seat_info: Sequence[_Owner]) -> int | None:
    """A task that keeps ``seat`` from winning every card of ``colour``, or None."""
    for mask, _, count, i in seat_info[seat].cap:
        if popcount(mask & colour) > count:
            return i
    for other, info in enumerate(seat_info):
        if other == seat:
            continue
        for mask, _, count, i in info.need:
            if count > popcount(mask & ~colour):
                return i
    return None


def trick_bounds(card: TaskCard, players: int) -> tuple[int, int, int, int]:
    """The fewest and most tricks ``card`` lets its owner win in a hand of this crew size
    (the bounds ``_trick_counts`` starts from), and the tricks it must win and must not win
    as bitmasks: the kernel's check of a whole draw."""
    seats, n = _seats(players), n_tricks(players)
    info = _Owner()
    _describe(card, 0, 1, 0, seats, n, info, [])
    lo = max([k for k, _ in info.lo] + [len(info.must_win)])
    hi = min([k for k, _ in info.hi] + [n - len(info.must_lose)])
    return lo, hi, sum(1 << t for t in info.must_win), sum(1 << t for t in info.must_lose)


def _trick_counts(
    seat_info: Sequence[_Owner],
    relations: Sequence[tuple[int, int, str, int]],
    n: int,
    say: _SayFn,
    label: _LabelFn,
    clashing: Collection[int] = (),
) -> None:
    """Per-seat trick bounds, their sum against the hand's tricks, then the relations."""
    seats = len(seat_info)
    lo, hi = [0] * seats, [n] * seats
    lo_task: list[int | None] = [None] * seats
    hi_task: list[int | None] = [None] * seats
    found = False
    for s, info in enumerate(seat_info):
        for k, i in info.lo:
            if k > lo[s]:
                lo[s], lo_task[s] = k, i
        if len(info.must_win) > lo[s]:
            lo[s], lo_task[s] = len(info.must_win), next(iter(info.must_win.values()))[0]
        for k, i in info.hi:
            if k < hi[s]:
                hi[s], hi_task[s] = k, i
        if n - len(info.must_lose) < hi[s]:
            hi[s], hi_task[s] = n - len(info.must_lose), next(iter(info.must_lose.values()))[0]
        if lo[s] > hi[s]:
            found = True
            if s in clashing:
                continue
            a, b = lo_task[s], hi_task[s]
            if b is None:
                assert a is not None
                say(f"{label(a)} needs at least {lo[s]} tricks, the hand has {n}", a)
            elif a is not None:
                say(
                    f"seat {s} must win at least {lo[s]} tricks for {label(a)}"
                    f" but at most {hi[s]} for {label(b)}",
                    a,
                    b,
                )
    if found:
        return
    lo_tasks = [t for t in lo_task if t is not None]
    if sum(lo) > n:
        who = ", ".join(label(i) for i in lo_tasks)
        say(f"{who} need at least {sum(lo)} tricks together, the hand has {n}", *lo_tasks)
        return
    hi_tasks = [t for t in hi_task if t is not None]
    if sum(hi) < n:
        who = ", ".join(label(i) for i in hi_tasks)
        say(f"{who} leave {n - sum(hi)} of the {n} tricks for nobody to win", *hi_tasks)
        return
    if not relations:
        return
    while True:
        before = (list(lo), list(hi))
        for a, b, rel, _ in relations:
            if rel == "lt":
                hi[a] = min(hi[a], hi[b] - 1)
                lo[b] = max(lo[b], lo[a] + 1)
            else:
                lo[a] = lo[b] = max(lo[a], lo[b])
                hi[a] = hi[b] = min(hi[a], hi[b])
        for s in range(seats):
            lo[s] = max(lo[s], n - (sum(hi) - hi[s]))
            hi[s] = min(hi[s], n - (sum(lo) - lo[s]))
        if any(lo[s] > hi[s] for s in range(seats)):
            tasks = sorted({i for *_, i in relations} | set(lo_tasks) | set(hi_tasks))
            who = ", ".join(label(i) for i in tasks)
            say(f"the trick counts of {who} cannot all hold in a hand of {n} tricks", *tasks)
            return
        if (lo, hi) == before:
            return


# ---------------------------------------------------------------- helpers

_DS = Game.DEEP_SEA


def _seats(players: int) -> int:
    if players not in (2, 3, 4, 5):
        raise ValueError(f"players must be 2-5, got {players}")
    return seats_of(players)


def _check_owners(cards: Sequence[TaskCard], owners: Sequence[int], seats: int) -> None:
    if len(cards) != len(owners):
        raise ValueError(f"{len(cards)} tasks but {len(owners)} owners")
    for o in owners:
        if not 0 <= o < seats:
            raise ValueError(f"owner seat {o} out of range 0..{seats - 1}")
