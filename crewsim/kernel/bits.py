"""Bit and random-number helpers for the kernel, written so they also run as plain Python.

No ``@intrinsic``: with ``NUMBA_DISABLE_JIT=1`` the same source runs unjitted, which is how the
benchmark measures the kernel against plain Python on the same deals.
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload

from crewsim.cards import BEATS as _BEATS
from crewsim.cards import SUIT_MASK as _SUIT_MASK
from crewsim.kernel.jit import compiled, inlined

BEATS = _BEATS.copy()
SUIT = _SUIT_MASK.copy()
FULL = np.int64((1 << 40) - 1)
TRUMPS = np.int64(0xF << 36)
COLOURS = np.int64((1 << 36) - 1)
ONES = np.int64((1 << 0) | (1 << 9) | (1 << 18) | (1 << 27))  # << (r - 1): the colours' rank r


def popcount(m: np.int64) -> np.int64:
    """Set bits of a non-negative mask (plain Python; compiled code gets one ``popcnt``)."""
    return np.int64(int(m).bit_count())


def lowest(m: np.int64) -> np.int64:
    """Index of the lowest set bit of a non-zero mask."""
    low = int(m) & -int(m)
    return np.int64(low.bit_length() - 1)


def highest(m: np.int64) -> np.int64:
    """Index of the highest set bit of a non-zero, non-negative mask."""
    return np.int64(int(m).bit_length() - 1)


# In compiled code the three above are single instructions (ctpop, cttz, ctlz); the plain
# Python bodies stay for NUMBA_DISABLE_JIT=1, which cannot call an intrinsic directly.


@intrinsic
def _ctpop(typingctx, m):  # type: ignore[no-untyped-def]
    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, m):  # type: ignore[no-untyped-def]
    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@intrinsic
def _ctlz(typingctx, m):  # type: ignore[no-untyped-def]
    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@overload(popcount, inline="always")
def _popcount_jit(m):  # type: ignore[no-untyped-def]
    return lambda m: _ctpop(np.int64(m))


@overload(lowest, inline="always")
def _lowest_jit(m):  # type: ignore[no-untyped-def]
    return lambda m: _cttz(np.int64(m))


@overload(highest, inline="always")
def _highest_jit(m):  # type: ignore[no-untyped-def]
    return lambda m: 63 - _ctlz(np.int64(m))


@inlined
def follow_suit(hand: np.int64, led: np.int64) -> np.int64:
    """The cards ``hand`` may play into a trick led in the suit of mask ``led`` (0 when it
    leads): that suit's when it holds any, else every card (``rules.play.legal_plays``)."""
    same = hand & led
    return same if same else hand


@inlined
def seat_after(s: np.int64, k: np.int64, seats: np.int64) -> np.int64:
    """``(s + k) % seats`` for ``0 <= s + k < 2 * seats``, without a division in the hot loop."""
    x = s + k
    return x - seats if x >= seats else x


@inlined
def seat_count(counts: np.int64, s: np.int64) -> np.int64:
    """Seat ``s``'s tally in ``counts``, 8 bits per seat: per-seat counters without an array
    (no allocation in the game loop)."""
    return counts >> (8 * s) & 0xFF


@inlined
def count_seat(counts: np.int64, s: np.int64) -> np.int64:
    """``counts`` with seat ``s``'s tally one higher."""
    return counts + (np.int64(1) << (8 * s))


@compiled
def nth_bit(m: np.int64, k: np.int64) -> np.int64:
    """Index of the ``k``-th (0-based) set bit of ``m`` counted from the lowest."""
    for _ in range(k):
        m &= m - 1
    return lowest(m)


@compiled
def suit_of(c: np.int64) -> np.int64:
    """``c // 9`` for -8 <= c < 512 (every card and -1), as a multiply and a shift: numba's
    floor division by a constant still costs a sign fix-up, and this runs for every card."""
    return (c * 57) >> 9


@compiled
def value_of(c: np.int64) -> np.int64:
    return c - 35 if c >= 36 else c - 9 * ((c * 57) >> 9) + 1


# ---- splitmix64 on an int64 state (wrapping arithmetic); reproducible in every process


@compiled
def rng_next(state: np.ndarray) -> np.int64:
    z = state[0] + np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15
    state[0] = z
    z = (z ^ ((z >> 30) & np.int64(0x3FFFFFFFF))) * np.int64(-4658895280553007687)
    z = (z ^ ((z >> 27) & np.int64(0x1FFFFFFFFF))) * np.int64(-7723592293110705685)
    return z ^ ((z >> 31) & np.int64(0x1FFFFFFFF))


@compiled
def rand_below(state: np.ndarray, n: np.int64) -> np.int64:
    """Uniform integer in [0, n) for small n (bias below 2**-30)."""
    return ((rng_next(state) >> 1) & np.int64(0x3FFFFFFFFFFFFFFF)) % n


@compiled
def rand_card(state: np.ndarray, m: np.int64) -> np.int64:
    """A uniformly chosen card of a non-empty mask."""
    return nth_bit(m, rand_below(state, popcount(m)))
