"""The worlds the search crew samples: uniform over the deals consistent with what is known
(checked against every deal of small positions), by rejection and by the chain alike."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from crewsim.bots.worlds import MAX_HOLDERS, sample_holders


def _bits(mask: int) -> list[int]:
    return [c for c in range(40) if mask >> c & 1]


def _all_deals(pool: int, need: list[int], allowed: list[int]) -> list[tuple[int, ...]]:
    """Every valid deal of ``pool``: per holder a mask."""
    cards = _bits(pool)
    deals = []
    for owners in itertools.product(range(len(need)), repeat=len(cards)):
        hands = [0] * len(need)
        for c, h in zip(cards, owners, strict=True):
            hands[h] |= 1 << c
        if all(bin(hands[h]).count("1") == need[h] for h in range(len(need))) and all(
            hands[h] & ~allowed[h] == 0 for h in range(len(need))
        ):
            deals.append(tuple(hands))
    return deals


# (pool, need, allowed): voids, a claim ruling out a run of cards, a card only one may hold
POSITIONS = {
    "void and a lone holder": (0b1111111, [2, 3, 2], [0b1111100, 0b0111111, 0b1011011]),
    "two voids, four holders": (
        0b11111111,
        [2, 2, 2, 2],
        [0b11110000, 0b00001111, 0b11111111, 0b10101011],
    ),
    "a pile and a hand": (0b111111, [4, 2], [0b111111, 0b110011]),
}


def _sample(pool: int, need: list[int], allowed: list[int], tries: int, n: int) -> Counter:
    m = len(need)
    need_a = np.zeros(MAX_HOLDERS, dtype=np.int64)
    allowed_a = np.zeros(MAX_HOLDERS, dtype=np.int64)
    need_a[:m], allowed_a[:m] = need, allowed
    out = np.zeros(MAX_HOLDERS, dtype=np.int64)
    st = np.array([12345], dtype=np.int64)
    seen: Counter = Counter()
    chained = False
    for _ in range(n):
        how = sample_holders(np.int64(pool), need_a, allowed_a, m, tries, chained, out, st)
        assert how == (1 if tries else 2)
        chained = True
        seen[tuple(int(x) for x in out[:m])] += 1
    return seen


@pytest.mark.parametrize("tries", [100_000, 0], ids=["rejection", "chain"])
@pytest.mark.parametrize("name", list(POSITIONS))
def test_worlds_are_uniform(name: str, tries: int) -> None:
    pool, need, allowed = POSITIONS[name]
    deals = _all_deals(pool, need, allowed)
    n = 300 * len(deals)
    seen = _sample(pool, need, allowed, tries, n)
    assert set(seen) <= set(deals), "a world breaks what is known"
    observed = [seen[d] for d in deals]
    assert chisquare(observed).pvalue > 1e-4, (len(deals), min(observed), max(observed))


def test_no_world_when_the_knowledge_contradicts() -> None:
    need = np.array([2, 1, 0, 0, 0], dtype=np.int64)
    allowed = np.array([0b001, 0b110, 0, 0, 0], dtype=np.int64)  # card 0 fits, 1 and 2 do not
    out = np.zeros(MAX_HOLDERS, dtype=np.int64)
    st = np.array([1], dtype=np.int64)
    assert sample_holders(np.int64(0b111), need, allowed, 2, 64, False, out, st) == 0
