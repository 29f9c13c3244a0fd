"""Planet Nine 23 and 40: before the tasks are selected the crew may swap two order tokens
(23) or move one onto a task that has none (40), deciding together without showing cards.

Tokens lie on the draw's slots (``mp[MP_TOKENS + i]``, with their precedence masks), so
either change is the same as swapping two slots' task cards: the slot keeps its token, the
card moves.  The heuristic crew judges from the task cards alone, the only thing it shares:
a low card is best taken early, while its owner still holds higher cards of its suit to win
it with; a high card its holder can take whenever it leads it.  So the earlier token goes
on the lower card (the opposite rule, high cards first, loses).
"""

from crewsim.kernel.jit import compiled
from crewsim.kernel.layout import OMEGA_CODE, TOKEN_ADJUST_CODES

ADJUST_SWAP, ADJUST_MOVE = TOKEN_ADJUST_CODES["swap"], TOKEN_ADJUST_CODES["move"]


@compiled
def _order(tok):
    """When a token's task must be done, comparable within one kind: absolute 1-5, relative
    1-4 (codes 11-14), omega after all."""
    if tok == OMEGA_CODE:
        return 99
    return tok - 10 if tok > 10 else tok


@compiled
def _comparable(a, b):
    """Both tokens order the same tasks: both absolute, both relative, or one the omega."""
    if a == OMEGA_CODE or b == OMEGA_CODE:
        return True
    return (a > 10) == (b > 10)


@compiled
def adjust_tokens(tcard, ttok, n, mode, gain):
    """Make the one change (``mode``) that gains most, if it gains at least ``gain`` ranks: a
    swap puts the lower card under the earlier token, a move takes a token to a lower
    untokened card.  Returns the two slots whose cards swapped, or (-1, -1)."""
    best, bi, bj = gain - 1e-9, -1, -1
    for i in range(n):
        if ttok[i] == 0:
            continue
        for j in range(n):
            if j == i:
                continue
            if mode == ADJUST_SWAP:
                if ttok[j] == 0 or not _comparable(ttok[i], ttok[j]):
                    continue
                if _order(ttok[i]) >= _order(ttok[j]):
                    continue
            elif mode == ADJUST_MOVE:
                if ttok[j] != 0:
                    continue
            else:
                return -1, -1
            g = tcard[i] % 9 - tcard[j] % 9  # ranks the token's card comes down
            if g > best:
                best, bi, bj = g, i, j
    if bi >= 0:
        tcard[bi], tcard[bj] = tcard[bj], tcard[bi]
    return bi, bj
