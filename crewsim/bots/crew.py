"""The bots' entry: the functions the kernel's game loop calls, one per decision, in the order
of a game: the token change (Planet Nine 23 / 40), the allocation of the tasks, the members
named for objectives, Deep Sea's selection and predictions, the hand-over at five players,
the distress signal, then each trick's communications and cards.  Each sends the random
crew's decisions to ``random_crew`` (the set-up steps do so inside ``setup`` and
``deep_sea_setup``)."""

from crewsim.bots import random_crew
from crewsim.bots.comm import heuristic_comm
from crewsim.bots.deep_sea_setup import predict, select
from crewsim.bots.endgame import endgame_play
from crewsim.bots.play import heuristic_play
from crewsim.bots.random_crew import RANDOM
from crewsim.bots.setup import allocate, call_distress, designate, handover
from crewsim.bots.tokens import adjust_tokens
from crewsim.kernel.jit import compiled, inlined
from crewsim.kernel.layout import BP_COMM, BP_KIND, BP_TOKEN_GAIN

__all__ = [
    "change_tokens",
    "allocate",
    "designate",
    "select",
    "predict",
    "handover",
    "call_distress",
    "choose_comm",
    "choose_play",
]


@compiled
def change_tokens(bp, tcard, ttok, n, mode):
    """Planet Nine 23 / 40: the crew's one order-token swap or move (``mode``), if it gains
    enough; the random crew makes none."""
    if bp[BP_KIND] == RANDOM:
        return
    adjust_tokens(tcard, ttok, n, mode, bp[BP_TOKEN_GAIN])


@inlined
def choose_comm(S, bp, g, mp, me, hand, told):
    """The card seat ``me`` communicates now, or -1 (``told``: the cards it has shown)."""
    if bp[BP_KIND] == RANDOM:
        return random_crew.communicate()
    if bp[BP_COMM] == 0:  # a crew that keeps silent
        return -1
    return heuristic_comm(S, g, mp, me, hand, told)


@inlined
def choose_play(
    S,
    bp,
    mp,
    g,
    me,
    hand,
    legal,
    viewer_hand,
    trick,
    won,
    desig,
    possible,
    known,
    ct,
    tpred,
    want,
    st,
    deep,
):
    """The card to play now: the heuristic's, checked in the endgame (``endgame``); ``deep``:
    a Deep Sea game."""
    if bp[BP_KIND] == RANDOM:
        return random_crew.play(legal, st)
    c = heuristic_play(
        S,
        mp,
        g,
        me,
        hand,
        legal,
        viewer_hand,
        trick,
        won,
        desig,
        possible,
        known,
        ct,
        tpred,
        want,
        deep,
    )
    if c < 0 or deep:  # (the endgame search judges no Deep Sea game: ``_searchable``)
        return c
    return endgame_play(S, bp, mp, g, me, hand, viewer_hand, legal, trick, won, possible, c)
