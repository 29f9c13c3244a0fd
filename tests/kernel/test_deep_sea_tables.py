"""The Deep Sea task table's hint columns: what the bots read to steer play."""

from __future__ import annotations

from crewsim.cards import (
    card_id,
)
from crewsim.kernel.deep_sea_tables import (
    C_CMP,
    C_FIT,
    C_LAST,
    C_RUN,
    C_SUM_HI,
    C_SUM_LO,
    C_TRICKS,
    C_WITH,
    CMP_EQUAL_CAPT,
    CMP_FEWER_CAPT,
    CMP_FEWER_EACH,
    CMP_MORE_ALL,
    CMP_MORE_CAPT,
    CMP_MORE_EACH,
    RUN_AT_LEAST,
    RUN_EXACTLY,
    task_table,
)


def _rank(r: int) -> int:
    return sum(1 << card_id(s, r) for s in range(4))


def test_the_table_marks_streaks_comparisons_and_winning_ranks() -> None:
    tab = task_table(4)
    runs = {n: int(tab[n - 1, C_RUN]) for n in range(1, 97) if tab[n - 1, C_RUN]}
    assert runs == {5: RUN_AT_LEAST, 6: RUN_AT_LEAST, 38: RUN_EXACTLY, 39: RUN_EXACTLY}
    cmps = {n: int(tab[n - 1, C_CMP]) for n in range(1, 97) if tab[n - 1, C_CMP]}
    assert cmps == {
        49: CMP_FEWER_EACH,
        50: CMP_MORE_EACH,
        51: CMP_MORE_ALL,
        52: CMP_EQUAL_CAPT,
        53: CMP_FEWER_CAPT,
        54: CMP_MORE_CAPT,
    }
    withs = {n: int(tab[n - 1, C_WITH]) for n in range(1, 97) if tab[n - 1, C_WITH]}
    assert withs == {
        7: _rank(7),
        8: _rank(6),
        9: _rank(4),
        12: _rank(2),
        13: _rank(3),
        14: _rank(5),
        15: _rank(6),
    }
    fits = {n: int(tab[n - 1, C_FIT]) for n in range(1, 97) if tab[n - 1, C_FIT]}
    colours = sum(_rank(r) for r in range(1, 10))
    assert fits == {
        10: _rank(2) | _rank(4) | _rank(6) | _rank(8),
        11: _rank(1) | _rank(3) | _rank(5) | _rank(7) | _rank(9),
        16: _rank(6) | _rank(7) | _rank(8) | _rank(9),
        17: sum(_rank(r) for r in range(1, 7)),
        18: colours,
        19: colours,
        20: colours,
    }
    sums = {n: (int(tab[n - 1, C_SUM_LO]), int(tab[n - 1, C_SUM_HI])) for n in (18, 19, 20)}
    assert sums == {18: (29, 99), 19: (0, 11), 20: (22, 23)}  # at 4 players: > 28, < 12
    assert tab[74, C_LAST] == 1 and tab[74, C_TRICKS] == 0  # 75: the last trick
    assert tab[73, C_LAST] == 1 and tab[73, C_TRICKS] == 1  # 74: the first and the last
