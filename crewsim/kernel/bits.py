"""Bit and random-number helpers for the kernel, written so they also run as plain Python.

No ``@intrinsic``: with ``NUMBA_DISABLE_JIT=1`` the same source runs unjitted, which is how the
benchmark measures the kernel against plain Python on the same deals.
"""

import numpy as np
from numba import njit

from crewsim.cards import BEATS as _BEATS
from crewsim.cards import SUIT_MASK as _SUIT_MASK

BEATS = _BEATS.copy()
SUIT = _SUIT_MASK.copy()
FULL = np.int64((1 << 40) - 1)
TRUMPS = np.int64(0xF << 36)
COLOURS = np.int64((1 << 36) - 1)


@njit(cache=True)
def popcount(m: np.int64) -> np.int64:
    """Set bits of a mask below 2**40 (SWAR; the product stays below 2**63)."""
    m = m - ((m >> 1) & np.int64(0x5555555555))
    m = (m & np.int64(0x3333333333)) + ((m >> 2) & np.int64(0x3333333333))
    m = (m + (m >> 4)) & np.int64(0x0F0F0F0F0F)
    return (m * np.int64(0x0101010101)) >> 32 & np.int64(0xFF)


@njit(cache=True)
def lowest(m: np.int64) -> np.int64:
    """Index of the lowest set bit of a non-zero mask: the bits below it, counted."""
    return popcount((m & -m) - 1)


@njit(cache=True)
def highest(m: np.int64) -> np.int64:
    """Index of the highest set bit of a non-zero mask below 2**40: smear right, count."""
    m |= m >> 1
    m |= m >> 2
    m |= m >> 4
    m |= m >> 8
    m |= m >> 16
    m |= m >> 32
    return popcount(m) - 1


@njit(cache=True)
def nth_bit(m: np.int64, k: np.int64) -> np.int64:
    """Index of the ``k``-th (0-based) set bit of ``m`` counted from the lowest."""
    for _ in range(k):
        m &= m - 1
    return lowest(m)


@njit(cache=True)
def suit_of(c: np.int64) -> np.int64:
    return c // 9


@njit(cache=True)
def value_of(c: np.int64) -> np.int64:
    return c - 35 if c >= 36 else c % 9 + 1


# ---- splitmix64 on an int64 state (wrapping arithmetic); reproducible in every process


@njit(cache=True)
def rng_next(state: np.ndarray) -> np.int64:
    z = state[0] + np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15
    state[0] = z
    z = (z ^ ((z >> 30) & np.int64(0x3FFFFFFFF))) * np.int64(-4658895280553007687)
    z = (z ^ ((z >> 27) & np.int64(0x1FFFFFFFFF))) * np.int64(-7723592293110705685)
    return z ^ ((z >> 31) & np.int64(0x1FFFFFFFF))


@njit(cache=True)
def rand_below(state: np.ndarray, n: np.int64) -> np.int64:
    """Uniform integer in [0, n) for small n (bias below 2**-30)."""
    return ((rng_next(state) >> 1) & np.int64(0x3FFFFFFFFFFFFFFF)) % n


@njit(cache=True)
def rand_card(state: np.ndarray, m: np.int64) -> np.int64:
    """A uniformly chosen card of a non-empty mask."""
    return nth_bit(m, rand_below(state, popcount(m)))
