"""The kernel's bit helpers: compiled (single instructions) and plain Python bodies agree."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from crewsim.kernel.bits import highest, lowest, popcount, rand_below, seat_after

MASKS = st.integers(min_value=1, max_value=(1 << 40) - 1)


@njit(cache=True)
def _compiled(m: np.int64) -> tuple[np.int64, np.int64, np.int64]:
    return popcount(m), lowest(m), highest(m)


@settings(deadline=None)  # the first example compiles
@given(MASKS)
def test_compiled_and_plain_bit_helpers_agree(m: int) -> None:
    expected = (bin(m).count("1"), (m & -m).bit_length() - 1, m.bit_length() - 1)
    assert _compiled(np.int64(m)) == expected
    assert (popcount(np.int64(m)), lowest(np.int64(m)), highest(np.int64(m))) == expected


@njit(cache=True)
def _seats(s: np.int64, k: np.int64, seats: np.int64) -> np.int64:
    return seat_after(s, k, seats)


@settings(deadline=None)  # the first example compiles
@given(
    st.integers(2, 5).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n - 1), st.integers(0, n - 1))
    )
)
def test_seat_after_is_modulo(case: tuple[int, int, int]) -> None:
    seats, s, k = case
    assert _seats(np.int64(s), np.int64(k), np.int64(seats)) == (s + k) % seats


@njit(cache=True)
def _draws(seed: np.int64, n: np.int64, k: int) -> np.ndarray:
    state = np.array([seed], dtype=np.int64)
    out = np.empty(k, dtype=np.int64)
    for i in range(k):
        out[i] = rand_below(state, n)
    return out


@settings(deadline=None)  # the first example compiles
@given(st.integers(-(2**63), 2**63 - 1), st.integers(1, 40))
def test_rand_below_in_range_and_reproducible(seed: int, n: int) -> None:
    a = _draws(np.int64(seed), np.int64(n), 50)
    assert ((a >= 0) & (a < n)).all()
    assert (a == _draws(np.int64(seed), np.int64(n), 50)).all()
