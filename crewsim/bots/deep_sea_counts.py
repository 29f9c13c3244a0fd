"""Deep Sea task cards that count tricks: exactly n, none, only the named ones, a streak, or a
count compared with the other seats' or the captain's.  Who leans towards the trick, who
sheds its winners, and when submarine 4 (the captain's sure trick) is spent."""

from crewsim.bots.collect import collect_value, is_collect
from crewsim.bots.hand import spent
from crewsim.bots.view import never_played
from crewsim.bots.weights import (
    AS_CAPT_AHEAD,
    AS_CAPT_CATCH_UP,
    AS_CAPT_LEVEL,
    DS_SHED_BAD,
    FEWER_GIVE_UP,
    FEWER_SHED,
    FEWER_SHED_URGENT,
    FEWER_TAKE,
    FEWER_TAKE_AHEAD,
    FEWER_TAKE_BEHIND,
    MORE_ALL_WANT,
    MORE_EACH_OTHERS,
    MORE_EACH_WANT,
    SUB4_EARLY,
    SUB4_ENDS_RUN,
    URGENT,
    VS_CAPT_WANT,
)
from crewsim.kernel.bits import FULL, lowest
from crewsim.kernel.conditions import CODE_SIZE
from crewsim.kernel.deep_sea_tables import (
    C_BAD,
    C_CMP,
    C_FAMILY,
    C_LAST,
    C_NEED,
    C_PREDICT,
    C_RUN,
    C_TARGET,
    C_TRICKS,
    CMP_EQUAL_CAPT,
    CMP_FEWER_CAPT,
    CMP_FEWER_EACH,
    CMP_MORE_ALL,
    CMP_MORE_CAPT,
    CMP_MORE_EACH,
    FAM_COUNT,
    N_COLS,
    RUN_EXACTLY,
)
from crewsim.kernel.jit import compiled, inlined
from crewsim.kernel.layout import G_CMD, G_NT, G_PLAYED, G_T, TK_ALL, TK_MINE


@inlined
def sub4_left(g):
    """1 while submarine 4 is unplayed: the captain holds it and takes a trick with it."""
    return 1 - (g[G_PLAYED] >> 39 & 1)


@inlined
def capt_lead(g, won, o):
    """The captain's tricks over seat ``o``'s, submarine 4's sure trick counted."""
    return won[g[G_CMD]] + sub4_left(g) - won[o]


@inlined
def _feeds(cmp, me, capt):
    """Whether seat ``me``, not the owner, gives up its winners under a trick count compared
    with its own: every other seat's against "more than each" or "than all the others", the
    captain's against "more than the captain"."""
    return cmp == CMP_MORE_ALL or cmp == CMP_MORE_EACH or (cmp == CMP_MORE_CAPT and me == capt)


@inlined
def fewer_want(o, capt, seats, won, want, left, sub4):
    """Fewer tricks than each other seat: the owner loses its tricks and the seats at most one
    ahead of it lean towards taking them; those not yet ahead (submarine 4 counted as the
    captain's trick) the more, the fewer tricks are left to hand them: the urgency is the
    square of the tricks they still need over the tricks left (measured: linear cost 2.5 pp
    at three players), and when it rises the seats already ahead give up their winners."""
    mine = won[o] + (sub4 if o == capt else 0)
    need = 0
    for q in range(seats):
        if q != o:
            need += max(mine + 1 - won[q] - (sub4 if q == capt else 0), 0)
    u = min(need / max(left - sub4, 1), 1.0)
    u = u * u
    want[o] -= FEWER_SHED + FEWER_SHED_URGENT * u
    for q in range(seats):
        if q != o:
            have = won[q] + (sub4 if q == capt else 0)
            if have <= mine:
                want[q] += FEWER_TAKE + FEWER_TAKE_BEHIND * (mine - have) + URGENT * u
            elif have == mine + 1:
                want[q] += FEWER_TAKE_AHEAD
            else:
                want[q] -= FEWER_GIVE_UP * u


@inlined
def compare_want(cmp, o, capt, seats, won, want, lead):
    """A trick count compared with the others': the owner and the seats it is measured
    against lean towards the tricks that keep the comparison reachable.  ``lead``: the
    captain's tricks over the owner's (``capt_lead``)."""
    if cmp == CMP_MORE_EACH:
        want[o] += MORE_EACH_WANT
        for q in range(seats):
            if q != o and won[q] + 1 >= won[o]:
                want[q] -= MORE_EACH_OTHERS
    elif cmp == CMP_MORE_ALL:
        want[o] += MORE_ALL_WANT
    elif cmp == CMP_MORE_CAPT:
        want[o] += VS_CAPT_WANT
        want[capt] -= VS_CAPT_WANT
    elif cmp == CMP_FEWER_CAPT:
        want[o] -= VS_CAPT_WANT
        want[capt] += VS_CAPT_WANT
    elif lead > 0:  # as many as the captain: the one behind catches up
        want[o] += AS_CAPT_CATCH_UP
        want[capt] -= AS_CAPT_AHEAD
    elif lead < 0:
        want[capt] += AS_CAPT_CATCH_UP
        want[o] -= AS_CAPT_AHEAD
    else:  # level: a trick to either of them has to be matched later
        want[o] -= AS_CAPT_LEVEL
        want[capt] -= AS_CAPT_LEVEL


@compiled
def deep_sea_shed(S, g, me, c, wseat, won):
    """Owners of "win no X" cards get rid of X while someone else takes the trick, and owners
    who may not win this trick (a trick count reached, or only other tricks allowed) get rid
    of high cards and submarines."""
    sc = 0.0
    if wseat == me:
        return sc
    tab, t, nt = S.ds_tab, g[G_T], g[G_NT]
    high = spent(c)
    m = S.ds_open[TK_ALL]
    while m:
        k = lowest(m)
        m &= m - 1
        row = S.ds_task[k] * N_COLS
        cmp = tab[row + C_CMP]
        if cmp == CMP_EQUAL_CAPT:  # as many as the captain: whoever is not behind sheds
            lead = capt_lead(g, won, S.ds_owner[k])
            if (me == g[G_CMD] and lead >= 0) or (me == S.ds_owner[k] and lead <= 0):
                sc += high
            continue
        if S.ds_owner[k] != me:  # its owner must out-win the others: they give up winners
            if _feeds(cmp, me, g[G_CMD]) and (cmp == CMP_MORE_CAPT or wseat == S.ds_owner[k]):
                sc += high
            continue
        if cmp == CMP_FEWER_EACH or cmp == CMP_FEWER_CAPT:  # fewer tricks: lose them all
            sc += high
            continue
        if tab[row + C_BAD] >> c & 1:
            sc += DS_SHED_BAD
        at = S.ds_task[k] * CODE_SIZE
        if tab[row + C_FAMILY] == FAM_COUNT and is_collect(S.ds_code[at]):
            # exactly n cards, all of them won: any trick it takes now may bring one too many
            _, short = collect_value(
                S.ds_code,
                at,
                S.won_cards[me],
                FULL & ~g[G_PLAYED],
                S.hands[me],
                never_played(g, me, S.hands[me]),
            )
            if short == 0:
                sc += high
            continue
        run = tab[row + C_RUN] == RUN_EXACTLY
        if (tab[row + C_FAMILY] != FAM_COUNT and not run) or tab[row + C_NEED]:
            continue
        target = S.ds_pred[k] if tab[row + C_PREDICT] else tab[row + C_TARGET]
        only = tab[row + C_TRICKS] | tab[row + C_LAST]
        if only:  # only the named tricks: the others are tricks to lose
            off = not (tab[row + C_TRICKS] >> t & 1 or (tab[row + C_LAST] and t == nt - 1))
        else:
            off = 0 <= target <= won[me]
        if off:
            sc += high
    return sc


@compiled
def needs_trick(S, g, me, won):
    """Whether I own a card that must win exactly n tricks, or only named ones, and still
    need this trick: I take it with a high card or a submarine, one card fewer
    that could force me to win a trick too many later."""
    tab, t, nt = S.ds_tab, g[G_T], g[G_NT]
    m = S.ds_open[TK_MINE]
    while m:
        k = lowest(m)
        m &= m - 1
        row = S.ds_task[k] * N_COLS
        if tab[row + C_FAMILY] != FAM_COUNT:
            continue
        if tab[row + C_CMP] or tab[row + C_PREDICT] or tab[row + C_NEED]:
            continue
        if tab[row + C_TRICKS] | tab[row + C_LAST]:
            ok = tab[row + C_TRICKS] >> t & 1 or (tab[row + C_LAST] and t == nt - 1)
        else:
            ok = 0 <= won[me] < tab[row + C_TARGET]
        if ok:
            return True
    return False


@compiled
def equal_pair(S, g, me):
    """Whether I am the captain or the owner of an open 'as many tricks as the captain':
    a submarine of mine that nobody tops (but the 4, which everyone counts as the captain's
    trick already) is a trick the other cannot see coming."""
    m = S.ds_open[TK_ALL]
    while m:
        k = lowest(m)
        m &= m - 1
        if S.ds_tab[S.ds_task[k] * N_COLS + C_CMP] != CMP_EQUAL_CAPT:
            continue
        if me == g[G_CMD] or me == S.ds_owner[k]:
            return True
    return False


@compiled
def run_sub4(S, g, me, won):
    """Submarine 4 takes a trick whenever it is played, so the captain who must win exactly
    n tricks in a row spends it on the streak's last trick and not before."""
    sc = 0.0
    m = S.ds_open[TK_MINE]
    while m:
        k = lowest(m)
        m &= m - 1
        row = S.ds_task[k] * N_COLS
        if S.ds_tab[row + C_RUN] != RUN_EXACTLY:
            continue
        if won[me] > 0:
            sc += SUB4_ENDS_RUN if won[me] + 1 == S.ds_tab[row + C_TARGET] else -SUB4_EARLY
    return sc
