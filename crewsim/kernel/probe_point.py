"""The honest-information probe's hook, called at every decision the kernel's crews take.

Costs one load and one branch per decision when no probe is set (``S.probe[PR_AT] == 0``).
"""

from crewsim.kernel.jit import copy_into, inlined
from crewsim.kernel.layout import (
    DEC_BLIND_YES,
    DEC_PREDICT,
    G_NIN,
    G_T,
    G_UNCOVER,
    PR_AT,
    PR_COMMS,
    PR_COUNT,
    PR_KIND,
    PR_NIN,
    PR_SEAT,
    PR_SWAP,
    PR_TRICK,
)


@inlined
def probe_point(S, kind, seat, n_comms):
    """Count a decision; True when it is the probed one (the honest-information test), whose
    hidden cards are first replaced by the test's re-deal when it asks for that."""
    p = S.probe
    if p[PR_AT] == 0:
        return False
    p[PR_COUNT] += 1
    if p[PR_COUNT] != p[PR_AT]:
        return False
    setup = kind <= DEC_PREDICT
    p[PR_KIND], p[PR_SEAT], p[PR_COMMS] = kind, seat, n_comms
    p[PR_TRICK], p[PR_NIN] = (-1, 0) if setup else (S.g[G_T], S.g[G_NIN])
    if p[PR_SWAP]:
        copy_into(S.hands, S.probe_hands)
        copy_into(S.under, S.probe_under)
        if S.g[G_UNCOVER] >= 0:  # the dummy's card played in this trick: what it covered, which
            for k in range(S.g[G_NIN]):  # the re-deal lists beneath it, turns up after the trick
                top = S.trick[k]
                if S.under[top] >= 0:
                    S.g[G_UNCOVER], S.under[top] = S.under[top], -1
        if kind == DEC_BLIND_YES:
            copy_into(S.tcard, S.probe_tasks)
    return True
