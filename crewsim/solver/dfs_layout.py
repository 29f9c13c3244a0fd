"""What the depth-first searches share: verdicts, token and objective codes, the layout of a
search row and of the scratch words, the restart sequence and the hashing steps."""

import numpy as np
from numba import njit

from crewsim.kernel.layout import OMEGA_CODE

# verdicts
INFEASIBLE = 0
FEASIBLE = 1
UNKNOWN = 2

# token codes: the kernel's (``crewsim.kernel.layout.TOKEN_CODES``): 1..5 numbered, 11..14
# arrows with 1..4 heads, 20 omega
TOK_OMEGA = OMEGA_CODE

# objective kinds: the kernel's OBJ_* (``crewsim.kernel.layout``), one numbering

MAXD = 48  # depth rows: at most 40 plays, plus one
NCOL = 18
# scratch columns
C_LEAD = 5
C_OST = 6
C_DONE = 7
C_WC = 8
C_WS = 9
C_PLAYED = 10
C_T1 = 11
C_T2 = 12
C_COV = 13
C_DIR = 14
C_SLK = 15  # tricks to spare at the last boundary (Hall at threshold 1; 99: unknown)
C_PREF = 16  # the moves of C_T2 to try before the others
C_MV = 17  # suits each seat must get void in (bit 5 seat + suit, ``must_void``)

KEY_W = 8  # five hand words, task-card word, done word + generation stamp
SCR = 512  # int64 scratch words the search needs (``scr``)
KEYS_AT = 128  # scr[KEYS_AT + 8 t ...]: memo key and hash of the boundary before trick t
E_AT = 256  # scr[E_AT + task]: earliest trick of an open task (``bound_cut``)
P_AT = 300  # scr[P_AT + j]: card and holder of the j-th open task
O_AT = 384  # scr[O_AT ...]: the order search of ``suit_orders``
MAX_ORDER = 6  # own-card tasks of one suit beyond which ``suit_orders`` does not look
PROBES = 4

RESTART0 = 150  # play-limit unit of the restarts (Luby sequence; docs/tuning.md)


@njit(cache=True)
def token_precedes(a, b):
    """Twin of ``crewsim.rules.order.must_precede`` on token codes."""
    if b == TOK_OMEGA:
        return a != TOK_OMEGA
    if 1 <= a <= 5:
        return not (1 <= b <= 5) or a < b
    if 11 <= a <= 14 and 11 <= b <= 14:
        return a < b
    return False


@njit(cache=True)
def predecessor_masks(tokens, n, out):
    """For each task, the mask of tasks that must be completed no later than it."""
    for i in range(n):
        m = np.int64(0)
        for j in range(n):
            if j != i and token_precedes(tokens[j], tokens[i]):
                m |= np.int64(1) << j
        out[i] = m


@njit(cache=True)
def mix(h, w):
    h = (h ^ w) * np.int64(-7046029254386353131)
    return h ^ ((h >> 31) & np.int64(0x1FFFFFFFF))


@njit(cache=True)
def _luby(i):
    """The Luby restart sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (``i`` from 1)."""
    while True:
        k = 1
        while (np.int64(1) << k) - 1 < i:
            k += 1
        if (np.int64(1) << k) - 1 == i:
            return np.int64(1) << (k - 1)
        i -= (np.int64(1) << (k - 1)) - 1


@njit(cache=True)
def restart_limit(restart, nodes, budget):
    """The play limit of run ``restart`` (``RESTART0`` x Luby more plays); the last: the rest."""
    step = np.int64(RESTART0) * _luby(restart + 1)
    return budget if budget - nodes < 2 * step else nodes + step


@njit(cache=True)
def next_rand(x):
    """xorshift64 step on an int64 (logical shifts emulated with masks)."""
    x ^= x << 13
    x ^= (x >> 7) & np.int64(0x01FFFFFFFFFFFFFF)
    x ^= x << 17
    return x


@njit(cache=True)
def rank_mask(rank):
    m = np.int64(0)
    for c in range(4):
        m |= np.int64(1) << (9 * c + rank - 1)
    return m
