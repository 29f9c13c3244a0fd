"""The set-up's decisions as a script: taken, replayed, or a stop for the search crew.

The search crew judges a set-up choice (a draft pick, a yes/no answer) by playing the rest of
the set-up and the hand in worlds the deciding seat cannot tell from the real one; the set-up
is straight-line code, so instead of resuming it where it stopped, the game's set-up is run
again from the deal with the decisions taken so far replayed from ``S.script``. Each set-up
decision is bracketed by ``begin`` and ``end``; a pass that meets a decision the search crew
takes marks it (``G_SU_STOP``) and finishes with the heuristic's provisional choices, which
the caller ignores.
"""

import numpy as np

from crewsim.kernel.bits import popcount
from crewsim.kernel.jit import inlined
from crewsim.kernel.layout import (
    G_SU_FORCE,
    G_SU_FORCE_V,
    G_SU_GROUP,
    G_SU_J,
    G_SU_N,
    G_SU_OPTIONS,
    G_SU_PREF,
    G_SU_PREFIX,
    G_SU_SEARCH,
    G_SU_SEAT,
    G_SU_STOP,
    PR_SETUP,
    PR_VALUE,
    SCRIPT_SIZE,
)
from crewsim.kernel.probe_point import probe_point

YES_NO = 0b11  # ``end``'s options of a yes/no answer
UNPROBED = 0  # ``kind`` of a crew decision the honesty probe does not watch


@inlined
def begin(S, kind, seat):
    """Start a set-up decision; True when it is replayed from the script or forced (a
    rollout's option): nothing to decide. A decision taken now is counted by the honesty
    probe, unless a stop was met before it (the pass is provisional: the decision is taken
    again in the next one)."""
    g = S.g
    j = g[G_SU_J]
    g[G_SU_J] = j + 1
    if j < g[G_SU_N] or j + 1 == g[G_SU_FORCE]:
        return True
    if kind != UNPROBED and g[G_SU_STOP] == 0 and probe_point(S, kind, seat, 0):
        S.probe[PR_SETUP] = j + 1
    return False


@inlined
def end(S, kind, seat, value, options):
    """The decision's value: the script's when replayed, the option when forced, else
    ``value`` (the heuristic's), recorded in the script. When the search crew takes this
    decision (``options``: a mask of the values it may take, searched when more than one; 0
    for a decision never searched), the pass stops here."""
    g = S.g
    j = g[G_SU_J] - 1
    out = np.int64(value)
    if j < g[G_SU_N]:
        out = S.script[j]
    elif j + 1 == g[G_SU_FORCE]:
        out = g[G_SU_FORCE_V]
    elif g[G_SU_STOP] == 0 and j < SCRIPT_SIZE:
        S.script[j] = out
        if g[G_SU_SEARCH] and popcount(options) > 1:
            g[G_SU_STOP], g[G_SU_SEAT] = j + 1, seat
            g[G_SU_OPTIONS], g[G_SU_PREF] = options, out
            # a world replays what the seat saw decided: not its group's, taken unseen
            g[G_SU_PREFIX] = g[G_SU_GROUP] - 1 if g[G_SU_GROUP] else j
    if S.probe[PR_SETUP] == j + 1:
        S.probe[PR_VALUE] = out
    return out


@inlined
def stopped(S):
    """True when this pass met a decision the search crew takes."""
    return S.g[G_SU_STOP] != 0
