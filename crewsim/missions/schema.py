"""Mission and task-card records: the rules of every mission as plain, immutable data.

The simulation reads only these records, so a new mission is a new record, never a new branch.
Special objectives and Deep Sea task conditions are closed sets of named kinds; the parameters
each kind accepts are declared here (``OBJECTIVE_PARAMS``, ``TASK_PARAMS``) and checked by the
loader, so a typo in a scenario file is an error instead of a silently ignored rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Union

from crewsim.cards import Game

ParamValue = Union[int, bool, str, tuple["ParamValue", ...], "Params"]
"""A parameter value: a number, flag, name/card code, a tuple of those, or a nested Params."""


class Params(Mapping[str, ParamValue]):
    """Immutable, hashable and picklable mapping, so missions can be cached and sent to workers."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, ParamValue] | None = None) -> None:
        object.__setattr__(self, "_items", tuple(sorted((items or {}).items())))

    _items: tuple[tuple[str, ParamValue], ...]

    def __getitem__(self, key: str) -> ParamValue:
        for k, v in self._items:
            if k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Params):
            return self._items == other._items
        return isinstance(other, Mapping) and dict(self._items) == dict(other)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Params is immutable")

    def __reduce__(self) -> tuple[type[Params], tuple[dict[str, ParamValue]]]:
        return (Params, (dict(self._items),))

    def __repr__(self) -> str:
        return f"Params({dict(self._items)!r})"

    def to_plain(self) -> dict[str, object]:
        """JSON-ready copy (tuples become lists) for reports and `--format json`."""
        return {k: _plain(v) for k, v in self._items}


def _plain(value: ParamValue) -> object:
    if isinstance(value, Params):
        return value.to_plain()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


class CommMode(StrEnum):
    """How crew members may communicate (one sonar/radio token each unless stated)."""

    NORMAL = "normal"  # show a colour card, token placed highest / only / lowest (open)
    DEAD_ZONE = "dead_zone"  # card shown, token position hidden (PN dead zone, DS currents)
    RAPTURE = "rapture"  # DS rapture of the deep: shared pool of (players - 2) tokens
    NONE = "none"  # no communication at all


class Allocation(StrEnum):
    """How the mission's tasks get to the players."""

    DRAFT = "draft"  # commander/captain first, then clockwise, one task at a time
    COMMANDER_DISTRIBUTES = "commander_distributes"  # PN 24/32/36/43: commander hands them out
    ONE_MEMBER = "one_member"  # PN 20/27/37: commander picks one other member; DS 6: crew picks
    CAPTAIN_ALL_OR_PASS = "captain_all_or_pass"  # DS 10/13: captain keeps all or passes all
    VOLUNTEER_1 = "volunteer_1"  # DS 14-16: first volunteer (asked in turn) takes every task
    VOLUNTEER_2 = "volunteer_2"  # DS 26: two volunteers take every task
    FREE_SELECTION = "free_selection"  # DS 17, 28-31: any split the crew agrees on
    CAPTAIN_HARDEST_FIRST = "captain_hardest_first"  # DS 19: captain first takes the hardest
    CAPTAIN_SKIPS = "captain_skips"  # DS 25: draft as usual but the captain gets no task


PLANET_NINE_ALLOCATIONS = frozenset(
    (Allocation.DRAFT, Allocation.COMMANDER_DISTRIBUTES, Allocation.ONE_MEMBER)
)
DEEP_SEA_ALLOCATIONS = frozenset(Allocation) - {Allocation.COMMANDER_DISTRIBUTES}


class TokenAdjust(StrEnum):
    """A one-off change to the order tokens before tasks are selected (PN 23, 40)."""

    NONE = "none"
    SWAP = "swap"  # PN 23: the crew may swap two tokens
    MOVE = "move"  # PN 40: the crew may move one token onto an untokened task


ORDER_TOKENS: tuple[str, ...] = ("1", "2", "3", "4", "5", ">", ">>", ">>>", ">>>>", "omega")
"""Planet Nine order tokens: 1-5 absolute order, arrows relative order, omega = last task."""


class ObjectiveKind(StrEnum):
    """Crew-wide special objectives that replace or add to task cards."""

    # Planet Nine
    PLAYER_WINS_NO_TRICKS = "player_wins_no_tricks"  # 5: a chosen member wins no trick
    COLOUR_ONES_WIN = "colour_ones_win"  # 9, 26: `count` tricks won by a colour 1
    EACH_TRUMP_WINS = "each_trump_wins"  # 13, 44: every rocket wins a trick (in order if ordered)
    NO_WIN_WITH_RANK = "no_win_with_rank"  # 16, 17: no trick may be won by a card of `rank`
    BALANCED_TRICKS = "balanced_tricks"  # 29, 34: nobody leads anyone by more than `max_lead`
    PLAYER_EXACTLY_ONE_TRICK = "player_exactly_one_trick"  # 33: chosen member wins exactly one
    PLAYER_FIRST_AND_LAST_ONLY = "player_first_and_last_only"  # 41: first and last trick only
    LEFT_OF_PINK9_WINS_PINK = "left_of_pink9_wins_pink"  # 46: left of pink 9 wins all pinks
    OMEGA_LAST_TRICK = "omega_last_trick"  # 48: the omega task is completed in the last trick
    ROLE_SPLIT = "role_split"  # 50: one wins the first `first` tricks, another the last `last`
    # Deep Sea
    BALANCE_RANK_WINS = "balance_rank_wins"  # 8, 21: won `rank` cards never differ by > max_diff
    NO_LEAD_SUITS = "no_lead_suits"  # 12: no trick may be led with a card of these suits
    FIRST_TRICK_WINNER_MOST = "first_trick_winner_most"  # 23: trick-1 winner always strictly most
    CARD_LAST_IN_FINAL_TRICK = "card_last_in_final_trick"  # 27: `card` is played last of all


class TaskKind(StrEnum):
    """Deep Sea task-card conditions (the `condition_type` column of the reference table)."""

    NEVER_WIN_CONSECUTIVE_TRICKS = "never_win_consecutive_tricks"
    NEVER_LEAD_COLOR = "never_lead_color"
    WIN_EXACTLY_N_TRICKS = "win_exactly_n_tricks"
    WIN_CONSECUTIVE_TRICKS_AT_LEAST = "win_consecutive_tricks_at_least"
    WIN_RANK_WITH_RANK = "win_rank_with_rank"
    WIN_TRICK_ALL_RANKS_PARITY = "win_trick_all_ranks_parity"
    WIN_TRICK_WITH_RANK = "win_trick_with_rank"
    WIN_TRICK_ALL_RANKS_GT = "win_trick_all_ranks_gt"
    WIN_TRICK_ALL_RANKS_LT = "win_trick_all_ranks_lt"
    WIN_TRICK_SUM_GT = "win_trick_sum_gt"
    WIN_TRICK_SUM_LT = "win_trick_sum_lt"
    WIN_TRICK_SUM_IN = "win_trick_sum_in"
    WIN_TRICK_EQUAL_COLORS = "win_trick_equal_colors"
    WIN_EQUAL_COLORS_TOTAL = "win_equal_colors_total"
    WIN_MORE_COLOR_THAN_COLOR = "win_more_color_than_color"
    WIN_EACH_COLOR = "win_each_color"
    WIN_ALL_CARDS_OF_ONE_COLOR = "win_all_cards_of_one_color"
    WIN_AT_LEAST_RANK = "win_at_least_rank"
    WIN_CARDS = "win_cards"
    WIN_AT_LEAST_COLOR = "win_at_least_color"
    WIN_EXACTLY_N_CONSECUTIVE_TRICKS = "win_exactly_n_consecutive_tricks"
    WIN_EXACTLY_COLOR = "win_exactly_color"
    WIN_EXACTLY_SUBMARINES = "win_exactly_submarines"
    WIN_EXACTLY_RANK = "win_exactly_rank"
    COMPARE_TRICKS_VS_EACH_OTHER_PLAYER = "compare_tricks_vs_each_other_player"
    WIN_MORE_TRICKS_THAN_OTHERS_COMBINED = "win_more_tricks_than_others_combined"
    COMPARE_TRICKS_VS_CAPTAIN = "compare_tricks_vs_captain"
    WIN_NO_RANK = "win_no_rank"
    WIN_NO_SUBMARINES = "win_no_submarines"
    WIN_NO_COLOR = "win_no_color"
    WIN_NONE_OF_FIRST_N_TRICKS = "win_none_of_first_n_tricks"
    WIN_ONLY_TRICKS = "win_only_tricks"
    WIN_TRICKS = "win_tricks"
    WIN_ONLY_SUBMARINE = "win_only_submarine"
    WIN_CARD_WITH_SUBMARINE = "win_card_with_submarine"
    WIN_CARD_IN_LAST_TRICK = "win_card_in_last_trick"
    WIN_PREDICTED_TRICK_COUNT = "win_predicted_trick_count"


class ParamType(StrEnum):
    """Shape of one parameter value; the loader checks and normalises values by it."""

    COUNT = "count"  # whole number >= 0
    RANK = "rank"  # colour value 1..9
    TRUMP_RANK = "trump_rank"  # trump value 1..4
    BOOL = "bool"
    COLOUR = "colour"  # pink / blue / green / yellow
    COLOURS = "colours"  # list of colours, no duplicates
    SUITS = "suits"  # list of colours and/or "trump"
    CARD = "card"  # card code, e.g. yellow5, sub3 (stored in canonical spelling)
    CARDS = "cards"  # list of card codes, no duplicates
    RANKS = "ranks"  # list of colour values 1..9
    COUNTS = "counts"  # list of whole numbers >= 0
    TRICKS = "tricks"  # list of trick numbers (1-based) or "first" / "last"
    BY_PLAYERS = "by_players"  # table "3"/"4"/"5" -> whole number (player-count dependent)
    COLOUR_COUNTS = "colour_counts"  # table colour -> whole number
    CHOICE = "choice"  # one of ParamSpec.choices


@dataclass(frozen=True)
class ParamSpec:
    """One allowed parameter of an objective or task kind."""

    type: ParamType
    default: ParamValue | None = None  # None = required
    choices: tuple[str, ...] = ()  # allowed values when type is CHOICE
    lo: int = 0  # a COUNT's range: a value outside it has no meaning in a hand (or divides by 0)
    hi: int = 99


_P = ParamSpec
_T = ParamType
OBJECTIVE_PARAMS: Mapping[ObjectiveKind, Mapping[str, ParamSpec]] = {
    ObjectiveKind.PLAYER_WINS_NO_TRICKS: {},
    ObjectiveKind.COLOUR_ONES_WIN: {"count": _P(_T.COUNT, 1, lo=1, hi=4)},
    ObjectiveKind.EACH_TRUMP_WINS: {"ordered": _P(_T.BOOL, False)},
    ObjectiveKind.NO_WIN_WITH_RANK: {"rank": _P(_T.RANK)},
    ObjectiveKind.BALANCED_TRICKS: {
        "max_lead": _P(_T.COUNT, 1, lo=1, hi=13),
        "commander_first_last": _P(_T.BOOL, False),
    },
    ObjectiveKind.PLAYER_EXACTLY_ONE_TRICK: {"no_trump_win": _P(_T.BOOL, True)},
    ObjectiveKind.PLAYER_FIRST_AND_LAST_ONLY: {"no_trump_win": _P(_T.BOOL, True)},
    ObjectiveKind.LEFT_OF_PINK9_WINS_PINK: {},
    ObjectiveKind.OMEGA_LAST_TRICK: {},
    ObjectiveKind.ROLE_SPLIT: {
        "first": _P(_T.COUNT, 4, lo=1, hi=13),
        "last": _P(_T.COUNT, 1, lo=1, hi=13),
    },
    ObjectiveKind.BALANCE_RANK_WINS: {
        "rank": _P(_T.RANK),
        "max_difference": _P(_T.COUNT, 1, hi=4),
    },
    ObjectiveKind.NO_LEAD_SUITS: {"suits": _P(_T.SUITS)},
    ObjectiveKind.FIRST_TRICK_WINNER_MOST: {},
    ObjectiveKind.CARD_LAST_IN_FINAL_TRICK: {"card": _P(_T.CARD)},
}
"""Allowed parameters per objective kind (a default of None means the parameter is required)."""

_K = TaskKind
_COLOUR_ONLY = {"color_cards_only": _P(_T.BOOL, True)}
_NO_SUBS = {"no_submarines": _P(_T.BOOL, True)}
_OPS = ("fewer", "more", "equal")
_TWO_COLOURS = {"a": _P(_T.COLOUR), "b": _P(_T.COLOUR), "min_each": _P(_T.COUNT, 1, lo=1, hi=9)}
_TRICKS = _P(_T.COUNT, lo=1, hi=14)  # a number of tricks: 14 cards at most in a hand
TASK_PARAMS: Mapping[TaskKind, Mapping[str, ParamSpec]] = {
    _K.NEVER_WIN_CONSECUTIVE_TRICKS: {"n": _P(_T.COUNT, lo=2, hi=14)},
    _K.NEVER_LEAD_COLOR: {"colors": _P(_T.COLOURS)},
    _K.WIN_EXACTLY_N_TRICKS: {"n": _P(_T.COUNT, hi=14)},
    _K.WIN_CONSECUTIVE_TRICKS_AT_LEAST: {"n": _TRICKS},
    _K.WIN_RANK_WITH_RANK: {
        "capture_rank": _P(_T.RANK),
        "winning_rank": _P(_T.RANK),
        **_COLOUR_ONLY,
    },
    _K.WIN_TRICK_ALL_RANKS_PARITY: {
        "parity": _P(_T.CHOICE, choices=("even", "odd")),
        **_NO_SUBS,
    },
    _K.WIN_TRICK_WITH_RANK: {"rank": _P(_T.RANK), **_COLOUR_ONLY},
    _K.WIN_TRICK_ALL_RANKS_GT: {"gt": _P(_T.RANK)},
    _K.WIN_TRICK_ALL_RANKS_LT: {"lt": _P(_T.RANK), **_NO_SUBS},
    _K.WIN_TRICK_SUM_GT: {"threshold_by_players": _P(_T.BY_PLAYERS), **_NO_SUBS},
    _K.WIN_TRICK_SUM_LT: {"threshold_by_players": _P(_T.BY_PLAYERS), **_NO_SUBS},
    _K.WIN_TRICK_SUM_IN: {"values": _P(_T.COUNTS), **_NO_SUBS},
    _K.WIN_TRICK_EQUAL_COLORS: _TWO_COLOURS,
    _K.WIN_EQUAL_COLORS_TOTAL: _TWO_COLOURS,
    _K.WIN_MORE_COLOR_THAN_COLOR: {
        "more": _P(_T.COLOUR),
        "less": _P(_T.COLOUR),
        "less_may_be_zero": _P(_T.BOOL, True),
    },
    _K.WIN_EACH_COLOR: {"colors": _P(_T.COLOURS)},
    _K.WIN_ALL_CARDS_OF_ONE_COLOR: {"colors": _P(_T.COLOURS)},
    _K.WIN_AT_LEAST_RANK: {"rank": _P(_T.RANK), "n": _P(_T.COUNT, lo=1, hi=5), **_COLOUR_ONLY},
    _K.WIN_CARDS: {"cards": _P(_T.CARDS)},
    _K.WIN_AT_LEAST_COLOR: {"color": _P(_T.COLOUR), "n": _P(_T.COUNT, lo=1, hi=9)},
    _K.WIN_EXACTLY_N_CONSECUTIVE_TRICKS: {"n": _TRICKS},
    _K.WIN_EXACTLY_COLOR: {"counts": _P(_T.COLOUR_COUNTS)},
    _K.WIN_EXACTLY_SUBMARINES: {"n": _P(_T.COUNT, hi=4)},
    _K.WIN_EXACTLY_RANK: {"rank": _P(_T.RANK), "n": _P(_T.COUNT, hi=5), **_COLOUR_ONLY},
    _K.COMPARE_TRICKS_VS_EACH_OTHER_PLAYER: {"op": _P(_T.CHOICE, choices=("fewer", "more"))},
    _K.WIN_MORE_TRICKS_THAN_OTHERS_COMBINED: {},
    _K.COMPARE_TRICKS_VS_CAPTAIN: {
        "op": _P(_T.CHOICE, choices=_OPS),
        "owner_may_not_be_captain": _P(_T.BOOL, True),
    },
    _K.WIN_NO_RANK: {"ranks": _P(_T.RANKS), **_COLOUR_ONLY},
    _K.WIN_NO_SUBMARINES: {},
    _K.WIN_NO_COLOR: {"colors": _P(_T.COLOURS)},
    _K.WIN_NONE_OF_FIRST_N_TRICKS: {"n": _TRICKS},
    _K.WIN_ONLY_TRICKS: {"tricks": _P(_T.TRICKS)},
    _K.WIN_TRICKS: {"tricks": _P(_T.TRICKS)},
    _K.WIN_ONLY_SUBMARINE: {"submarine": _P(_T.TRUMP_RANK)},
    _K.WIN_CARD_WITH_SUBMARINE: {"card": _P(_T.CARD)},
    _K.WIN_CARD_IN_LAST_TRICK: {"card": _P(_T.CARD)},
    _K.WIN_PREDICTED_TRICK_COUNT: {"visibility": _P(_T.CHOICE, choices=("secret", "public"))},
}
"""Allowed parameters per task kind; colours are names, cards are codes (``sub3``, ``pink7``)."""


@dataclass(frozen=True)
class Objective:
    """One crew-wide objective of a mission: a kind from the closed set plus its parameters."""

    kind: ObjectiveKind
    params: Params = field(default_factory=Params)  # keys/values per OBJECTIVE_PARAMS[kind]


@dataclass(frozen=True)
class Mission:
    """Every rule of one mission, for both games; Deep Sea-only fields default for Planet Nine."""

    id: str  # "pn-1".."pn-50", "ds-1".."ds-32"; custom files: [a-z0-9][a-z0-9_-]*
    game: Game  # which box: decides trump name and which task system applies
    number: int  # logbook number (>= 1)
    description: str  # the mission's rules in words, for people
    # Planet Nine task cards: how many are drawn (0..12); always 0 for Deep Sea.
    tasks: int = 0
    # Planet Nine order tokens, each one of ORDER_TOKENS, no duplicates, at most `tasks` of them.
    tokens: tuple[str, ...] = ()
    communication: CommMode = CommMode.NORMAL  # how the crew may communicate
    comm_from_trick: int = 1  # first trick before which communication is allowed (1 = any time)
    silenced_member: bool = False  # PN 11: the commander silences one other crew member
    task_handover_5p: bool = False  # PN rule: with 5 players one task may be handed over once
    allocation: Allocation = Allocation.DRAFT  # how tasks are given out
    token_adjust: TokenAdjust = TokenAdjust.NONE  # PN 23 swap / PN 40 move a token beforehand
    card_draw_after_trick: int = 0  # PN 12: after this trick everyone draws from their right
    objectives: tuple[Objective, ...] = ()  # crew-wide special objectives (all must hold)
    # ---- Deep Sea
    difficulty: int = 0  # target sum of drawn task-card values (0..30; 0 = no draw)
    draws_task_cards: bool = False  # True when task cards are drawn up to `difficulty`
    fixed_tasks: tuple[int, ...] = ()  # task-card numbers (1..96) used instead of a draw
    unfamiliar_terrain: bool = False  # DS 20-27: communication mode drawn each attempt
    comm_before_first_trick_if_passed: bool = False  # DS 10/13: passed tasks -> talk before trick 1
    real_time_seconds: int = 0  # timed variant's limit (0 = none); records are always untimed
    untimed_note: str = ""  # what the untimed alternative changed compared to the timed one

    @property
    def uses_task_draw(self) -> bool:
        """Deep Sea missions that draw cards up to a difficulty (vs. fixed tasks or objectives)."""
        return self.draws_task_cards and self.difficulty > 0

    def to_dict(self) -> dict[str, object]:
        """JSON-ready view for `--format json` and run metadata."""
        return {
            "id": self.id,
            "game": self.game.value,
            "number": self.number,
            "description": self.description,
            "tasks": self.tasks,
            "tokens": list(self.tokens),
            "communication": self.communication.value,
            "comm_from_trick": self.comm_from_trick,
            "silenced_member": self.silenced_member,
            "task_handover_5p": self.task_handover_5p,
            "allocation": self.allocation.value,
            "token_adjust": self.token_adjust.value,
            "card_draw_after_trick": self.card_draw_after_trick,
            "objectives": [{"kind": o.kind.value, **o.params.to_plain()} for o in self.objectives],
            "difficulty": self.difficulty,
            "draws_task_cards": self.draws_task_cards,
            "fixed_tasks": list(self.fixed_tasks),
            "unfamiliar_terrain": self.unfamiliar_terrain,
            "comm_before_first_trick_if_passed": self.comm_before_first_trick_if_passed,
            "real_time_seconds": self.real_time_seconds,
            "untimed_note": self.untimed_note,
        }


@dataclass(frozen=True)
class TaskCard:
    """One of the 96 Deep Sea task cards: condition, printed difficulty per player count."""

    number: int  # card number 1..96 (the reference table's task_no)
    ref_id: str  # short unique name, e.g. "neverTwoTricksInARow"
    text: str  # the card's sentence ("I will never win 2 tricks in a row")
    subtext: str  # the small print under it ("" if none)
    difficulty: tuple[int, int, int]  # printed value for 3, 4 and 5 players (each >= 1)
    kind: TaskKind  # condition, from the closed set
    params: Params  # keys/values per TASK_PARAMS[kind]
    captain_may_take: bool = True  # False for "... than the Captain" cards
    deal_exception: str = ""  # redeal condition in words ("" if none)
    redeal_if: tuple[tuple[int, ...], ...] = ()  # redeal when one hand holds all cards of a set

    @property
    def label(self) -> str:
        """How a person names the card: its number and its printed sentence
        (``17 "I will never win 2 tricks in a row"``), never the internal ``ref_id``."""
        return f'{self.number} "{self.text}"'

    def difficulty_for(self, players: int) -> int:
        """Printed value for this crew size (2 players use the 3-player value)."""
        if players == 2:
            players = 3
        if not 3 <= players <= 5:
            raise ValueError(f"players must be 2-5, got {players}")
        return self.difficulty[players - 3]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready view (card ids in ``redeal_if`` stay ids)."""
        return {
            "number": self.number,
            "ref_id": self.ref_id,
            "text": self.text,
            "subtext": self.subtext,
            "difficulty": list(self.difficulty),
            "kind": self.kind.value,
            "params": self.params.to_plain(),
            "captain_may_take": self.captain_may_take,
            "deal_exception": self.deal_exception,
            "redeal_if": [list(s) for s in self.redeal_if],
        }
