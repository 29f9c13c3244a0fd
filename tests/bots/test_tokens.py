"""Planet Nine 23 / 40: the crew's one token swap or move before the tasks are selected."""

from __future__ import annotations

import numpy as np
import pytest

from crewsim.bots import get_bot
from crewsim.bots.tokens import ADJUST_MOVE, ADJUST_SWAP, adjust_tokens
from crewsim.cards import parse_card
from crewsim.engine.run import run_chunk
from crewsim.kernel import layout as L
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission

TOK = L.TOKEN_CODES


def _adjust(
    cards: list[str], tokens: list[str | None], mode: int, gain: float = 3.0
) -> tuple[list[str], tuple[int, int]]:
    tcard = np.array([parse_card(c) for c in cards], np.int64)
    ttok = np.array([TOK[t] for t in tokens], np.int64)
    slots = adjust_tokens(tcard, ttok, len(cards), mode, gain)
    names = {parse_card(c): c for c in cards}
    return [names[int(c)] for c in tcard], (int(slots[0]), int(slots[1]))


def test_a_swap_puts_the_earlier_token_on_the_lower_card() -> None:
    cards, slots = _adjust(["pink9", "blue2", "green5"], ["1", "2", "3"], ADJUST_SWAP)
    assert cards == ["blue2", "pink9", "green5"] and slots == (0, 1)  # 7 ranks, the most


def test_a_move_takes_a_token_to_a_lower_untokened_card() -> None:
    cards, _ = _adjust(["pink9", "blue8", "green1", "yellow4"], ["1", "2", None, None], ADJUST_MOVE)
    assert cards == ["green1", "blue8", "pink9", "yellow4"]  # token 1 now on green 1


@pytest.mark.parametrize(
    ("cards", "tokens"),
    [
        (["pink3", "blue2", "green5"], ["1", "2", "3"]),  # 1 rank: below the gain
        (["pink9", "blue1"], ["1", ">"]),  # an absolute and a relative token order nothing
        (["pink1", "blue9"], ["1", "omega"]),  # already the lower card first
    ],
)
def test_no_change_that_gains_too_little_or_compares_nothing(
    cards: list[str], tokens: list[str | None]
) -> None:
    assert _adjust(cards, tokens, ADJUST_SWAP) == (cards, (-1, -1))


def test_omega_comes_last_so_it_gets_the_higher_card() -> None:
    cards, _ = _adjust(["pink1", "blue9"], ["omega", ">"], ADJUST_SWAP)
    assert cards == ["blue9", "pink1"]  # the arrow's task, done first, on the low card


@pytest.mark.parametrize("mission_id", ["pn-23", "pn-40"])
def test_the_heuristic_crew_adjusts_and_the_random_crew_never(mission_id: str) -> None:
    """Same seeds, same draws: the heuristic crew changes which card carries which token in
    some games (never the tokens themselves); with the option off it matches the random
    crew's draw exactly."""
    mission = get_mission(mission_id)
    mp = KernelMission(mission, 4).vector()
    off = mp.copy()
    off[L.MP_TOKEN_ADJUST] = 0

    def tokens_by_card(m: np.ndarray, bot: str) -> list[dict[int, int]]:
        rec = run_chunk(m, get_bot(bot).vector(), 200, 7, record=True)
        return [
            {int(c): int(t) for c, _, t in rec["rec_tasks"][i][: mission.tasks]} for i in range(200)
        ]

    on, plain = tokens_by_card(mp, "heuristic"), tokens_by_card(off, "heuristic")
    changed = sum(a != b for a, b in zip(on, plain, strict=True))
    assert 0 < changed < 200
    for a, b in zip(on, plain, strict=True):
        assert set(a) == set(b) and sorted(a.values()) == sorted(b.values())
    assert tokens_by_card(mp, "random") == tokens_by_card(off, "random")
