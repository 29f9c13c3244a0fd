"""Deep Sea task cards in play: which per-card scores the open cards call for now (``DS_*``
bits, so a decision skips the others' loops), and what they want from the current trick,
read from the coarse hints of ``kernel.deep_sea_tables``.  The scores themselves live by
family: ``deep_sea_counts``, ``deep_sea_cards``, ``deep_sea_tricks``."""

import numpy as np

from crewsim.bots.collect import collect_value, is_collect
from crewsim.bots.deep_sea_counts import (
    capt_lead,
    compare_want,
    fewer_want,
    sub4_left,
)
from crewsim.bots.deep_sea_tricks import (
    colour_gap,
    fits,
)
from crewsim.bots.hand import sure_tricks
from crewsim.bots.view import (
    current_winner,
    knows,
    never_played,
)
from crewsim.bots.weights import (
    BIG,
    DS_AVOID,
    DS_COLLECT_SHORT,
    DS_COUNT_SHORT,
    DS_EQUAL_LEVEL,
    DS_EQUAL_OPEN,
    DS_FIT_OPEN,
    DS_FIT_STARTED,
    DS_RUN_GOING,
    DS_RUN_START,
    DS_RUN_STREAK,
    DS_WIN_WANT,
    DS_WITH_WANT,
)
from crewsim.kernel.bits import FULL, lowest
from crewsim.kernel.conditions import CODE_SIZE, K_CARD_WITH_SUB, K_TRICK_EQUAL_COLOURS
from crewsim.kernel.deep_sea_tables import (
    C_BAD,
    C_CMP,
    C_EXACT,
    C_FAMILY,
    C_FIT,
    C_LAST,
    C_NEED,
    C_NEVER_LEAD,
    C_PREDICT,
    C_RUN,
    C_TARGET,
    C_TRICKS,
    C_WITH,
    CMP_FEWER_EACH,
    FAM_AVOID,
    FAM_COUNT,
    FAM_WIN,
    N_COLS,
    RUN_EXACTLY,
)
from crewsim.kernel.jit import compiled, inlined
from crewsim.kernel.layout import (
    G_CMD,
    G_LEADER,
    G_NDS,
    G_NIN,
    G_NT,
    G_PLAYED,
    G_SEATS,
    G_T,
    G_TRICKMASK,
    TK_ALL,
    TK_BAD,
    TK_COLLECT,
    TK_EQUAL,
    TK_FIT,
    TK_LAST,
    TK_MINE,
    TK_NEVER,
    TK_SUB,
    TK_WITH,
)

# Deep Sea scores a decision computes (``deep_sea_scores``)
DS_SHED, DS_KEEP, DS_WITH, DS_COLLECT, DS_SUB, DS_EQUAL = (1 << k for k in range(6))


@compiled
def deep_sea_scores(S, g, me):
    """Which per-card Deep Sea scores the open task cards call for now (``DS_*`` bits): a
    decision skips the others' loops over the task cards.  With them, the masks that tell a
    card those scores pass over: the cards another seat / I may not win (``deep_sea_bad``,
    ``deep_sea_own_bad``), and the cards of tricks to fit with those tricks' owners
    (``deep_sea_fit``)."""
    tab, slots = S.ds_tab, S.ds_open
    ds = 0
    bad_others, bad_mine, fit_cards, fit_owners = np.int64(0), np.int64(0), np.int64(0), 0
    slots[:] = 0
    for k in range(g[G_NDS]):
        row = S.ds_task[k] * N_COLS
        bit = np.int64(1) << k
        mine = S.ds_owner[k] == me
        _list_slot(slots, bit, tab, row, S.ds_done[k], mine)
        if S.ds_done[k]:
            continue
        if tab[row + C_CMP] or (
            mine
            and (
                tab[row + C_BAD]
                or tab[row + C_FAMILY] == FAM_COUNT
                or tab[row + C_RUN] == RUN_EXACTLY
            )
        ):
            ds |= DS_SHED  # (who sheds under a compared trick count: ``deep_sea_shed``)
        if tab[row + C_LAST]:
            ds |= DS_KEEP
        if mine:
            bad_mine |= tab[row + C_BAD]
        else:
            bad_others |= tab[row + C_BAD]
        if tab[row + C_WITH]:
            ds |= DS_WITH
        if tab[row + C_FIT]:
            fit_cards |= tab[row + C_FIT]
            fit_owners |= 1 << S.ds_owner[k]
        at = S.ds_task[k] * CODE_SIZE
        if is_collect(S.ds_code[at]):
            ds |= DS_COLLECT
            slots[TK_COLLECT] |= bit
        elif S.ds_code[at] == K_CARD_WITH_SUB:
            ds |= DS_SUB
            slots[TK_SUB] |= bit
        elif S.ds_code[at] == K_TRICK_EQUAL_COLOURS:
            ds |= DS_EQUAL
            slots[TK_EQUAL] |= bit
    return ds, bad_others, bad_mine, fit_cards, fit_owners


@inlined
def _list_slot(slots, bit, tab, row, done, mine):
    """Add slot ``bit`` to the ``S.ds_open`` rows its card belongs to (``deep_sea_scores``;
    the counting cards, captures and equal colours it adds itself)."""
    if tab[row + C_NEVER_LEAD]:
        slots[TK_NEVER] |= bit
    if done:
        return
    slots[TK_ALL] |= bit
    if mine:
        slots[TK_MINE] |= bit
    if tab[row + C_BAD]:
        slots[TK_BAD] |= bit
    if tab[row + C_LAST]:
        slots[TK_LAST] |= bit
    if tab[row + C_WITH]:
        slots[TK_WITH] |= bit
    if tab[row + C_FIT]:
        slots[TK_FIT] |= bit


@compiled
def deep_sea_want(S, g, me, won, want, trick, drawn):
    """Add what the open Deep Sea task cards want from the current trick (coarse hints from
    ``deep_sea_tables``; exact-card tasks are handled as task cards already).  A counting card
    weighs the trick with the cards ``drawn`` from the seats still to play (``drawn_from``), and
    notes both values in ``S.ds_base`` for ``deep_sea_collect``.  A secret
    prediction steers only the seat that knows it: its owner (and, at two players, the
    commander, who plays the dummy too)."""
    tab, t, nt = S.ds_tab, g[G_T], g[G_NT]
    inside = g[G_TRICKMASK]
    m = S.ds_open[TK_ALL]  # (``deep_sea_scores`` first)
    while m:
        k = lowest(m)
        m &= m - 1
        row = S.ds_task[k] * N_COLS
        o = S.ds_owner[k]
        at = S.ds_task[k] * CODE_SIZE
        if is_collect(S.ds_code[at]):  # a count of won cards: what the trick's cards do to it
            held = S.hands[o] if knows(g, me, o) else np.int64(0)
            spare = never_played(g, o, held)
            rest = FULL & ~g[G_PLAYED] & ~drawn
            taken, short = collect_value(
                S.ds_code, at, S.won_cards[o] | inside | drawn, rest, held, spare
            )
            lost, _ = collect_value(S.ds_code, at, S.won_cards[o], rest, held, spare)
            want[o] += taken - lost if taken != lost else (DS_COLLECT_SHORT if short > 0 else 0.0)
            S.ds_base[2 * k], S.ds_base[2 * k + 1] = lost, taken
            continue
        fam = tab[row + C_FAMILY]
        need, bad = tab[row + C_NEED], tab[row + C_BAD]
        named = tab[row + C_TRICKS] >> t & 1 or (tab[row + C_LAST] and t == nt - 1)
        target = tab[row + C_TARGET]
        if tab[row + C_PREDICT] == 1 or (tab[row + C_PREDICT] == 2 and knows(g, me, o)):
            target = S.ds_pred[k]
        elif tab[row + C_PREDICT] == 2:
            target = -1  # someone else's secret number: no steering by it
        if inside & bad:
            want[o] -= BIG
        run = tab[row + C_RUN]
        sure = sub4_left(g) if o == g[G_CMD] else 0  # the captain's sure trick
        if tab[row + C_WITH]:  # taken with one of these cards: nobody tops the owner's
            if g[G_NIN] > 0:
                ws, wc = current_winner(g, trick)
                if ws == o and tab[row + C_WITH] >> wc & 1:
                    want[o] += (
                        BIG if need == 0 or inside & need & ~(np.int64(1) << wc) else DS_WITH_WANT
                    )
        elif tab[row + C_FIT]:  # a trick of fitting cards: the owner takes one while it fits
            if fits(tab, row, inside, g[G_SEATS] - g[G_NIN]):
                want[o] += DS_FIT_STARTED if inside else DS_FIT_OPEN
        elif S.ds_code[at] == K_TRICK_EQUAL_COLOURS:  # as many of two colours: the same
            gap = colour_gap(S.ds_code, at, inside)
            if gap <= g[G_SEATS] - g[G_NIN]:
                want[o] += DS_EQUAL_LEVEL if gap == 0 else DS_EQUAL_OPEN
        elif tab[row + C_CMP] == CMP_FEWER_EACH:
            fewer_want(o, g[G_CMD], g[G_SEATS], won, want, nt - t, sub4_left(g))
        elif tab[row + C_CMP]:
            compare_want(tab[row + C_CMP], o, g[G_CMD], g[G_SEATS], won, want, capt_lead(g, won, o))
        elif run:  # a streak: start one, keep it going, and (exactly n) stop at n
            streak = won[o] if run == RUN_EXACTLY else S.ds_state[4 * k]
            if run == RUN_EXACTLY and won[o] >= target:
                want[o] -= BIG
            elif streak > 0:
                want[o] += BIG if run == RUN_EXACTLY else DS_RUN_GOING + DS_RUN_STREAK * streak
            elif run != RUN_EXACTLY or me != o or sure_tricks(S.hands[o], g[G_PLAYED]) >= target:
                want[o] += DS_RUN_START  # start one (its owner an exact one only with sure winners)
        elif fam == FAM_AVOID:
            if named:  # none of the first n tricks
                want[o] -= BIG
            elif tab[row + C_TRICKS] == 0 and bad == 0 and t > 0 and g[G_LEADER] == o:
                want[o] -= BIG  # never two in a row: the leader won the previous trick
            else:
                want[o] -= DS_AVOID
        elif fam == FAM_COUNT:
            if tab[row + C_TRICKS] or tab[row + C_LAST]:  # only these tricks
                want[o] += BIG if named else -BIG
            elif target >= 0:  # exactly this many tricks
                want[o] += DS_COUNT_SHORT if won[o] + sure < target else -BIG
        elif fam == FAM_WIN and not tab[row + C_EXACT]:
            if named:
                want[o] += BIG
            elif tab[row + C_TRICKS] or tab[row + C_LAST]:
                pass  # only the named tricks count: the others are not worth a card
            else:
                want[o] += DS_WIN_WANT
