"""The numba depth-first search behind ``crewsim solve``: can a crew that sees every card win?

One explicit-stack DFS over single card plays (no recursion): depth ``d`` is the number of cards
played so far and row ``d`` of one scratch array holds the state before that play (hands,
leader, task and objective state, the trick's current winner, the moves still to try).

What keeps it small:

* **cut-offs**: a trick that would give a task card to the wrong player, break an order token
  or fail the special objective is never descended into; inside a trick, a task card whose owner
  has already played a losing card, or is still to play but cannot beat the trick's winner, ends
  the line at once;
* **bounds** at every trick boundary (``bound_cut``): each open task gets the earliest trick
  it can be taken in (``_earliest``: an owner holding its own task card must win with it, so
  every seat with no lower card of the suit that is not another owner's task card must first
  shed the suit, and then still hold a card that neither beats it nor is another owner's task
  card; an owner that cannot beat its task card in suit must ruff it or have it discarded,
  after the seat concerned is void).  Shedding a suit waits for the task cards in it, and an
  order token waits for the tasks it must follow, so these bounds feed one another until they
  settle (two owners who each must wait for the other never do: refuted at once).  Tasks of
  one owner held by one seat need distinct tricks, different owners too; Hall's condition over
  the earliest tricks must hold for the tricks left.  When that leaves no trick to spare, a
  trick that can no longer take a task is cut off as soon as that shows
  (``trick_can_take_task``).  First of all, the tasks won with the owner's own card
  (``suit_orders``): those of one suit take tricks of that suit led one after another, and in
  each a seat still to win such a task must follow with a lower card that is no task card it
  may not give away; some order of them must leave every such seat enough of those cards;
* **failure memo** at trick boundaries: an open-addressing int64 table stamped with a
  generation number so a new problem needs no clearing, keyed on the hands in **relative
  ranks** (a card's rank within its suit among the cards still in play), the task cards still
  open, the tasks done, leader and objective state (exact cards when the dummy or an objective
  that names ranks needs them);
* **equivalent cards**: of two cards of one suit in one hand with no other card still in play
  between them (and neither a task card nor a card the objective names), only one is tried;
* **move ordering**: the leader first tries the leads that can complete a task in this trick
  (``good_leads``), then those that help a seat shed a suit it must get void in
  (``must_void``, ``shedding_leads``); a task owner its winning cards; others dump the task
  cards of the winner or of a seat still to play that can take the trick over, a seat void in
  the suit led first discards the suits it must shed, else the lowest card goes (duck);
* **restarts**: runs with play limits of 150 x the Luby sequence (1, 1, 2, 1, 1, 2, 4, ...),
  the first in the heuristic order, later ones picking at random within each ordering group
  (the preferred moves of a group first);
  the failure memo carries over, so refutations are not lost, and the last run gets what is
  left of the budget.  Feasible deals that one ordering misses are found by another.

All masks are int64 (bit ``id`` = card); no allocation happens inside the search.
"""

import numpy as np
from numba import njit

from crewsim.kernel.bits import (
    BEATS,
    ONES,
    SUIT,
    TRUMPS,
    follow_suit,
    highest,
    lowest,
    nth_bit,
    popcount,
)
from crewsim.kernel.layout import (
    OBJ_BALANCED,
    OBJ_FIRST_LAST,
    OBJ_NO_RANK,
    OBJ_NO_TRICKS,
    OBJ_ONE_TRICK,
    OBJ_ONES,
    OBJ_PINK,
    OBJ_ROLES,
    OBJ_TRUMPS,
)
from crewsim.solver.bounds import bound_cut, must_void, trick_can_take_task
from crewsim.solver.dfs_layout import (
    C_COV,
    C_DIR,
    C_DONE,
    C_LEAD,
    C_MV,
    C_OST,
    C_PLAYED,
    C_PREF,
    C_SLK,
    C_T1,
    C_T2,
    C_WC,
    C_WS,
    FEASIBLE,
    INFEASIBLE,
    KEYS_AT,
    MAXD,
    NCOL,
    PROBES,
    RESTART0,
    SCR,
    TOK_OMEGA,
    UNKNOWN,
    mix,
    next_rand,
    predecessor_masks,
    rank_mask,
    restart_limit,
)
from crewsim.solver.move_order import good_leads, shedding_leads


@njit(cache=True)
def _end_trick(
    st,
    d,
    seats,
    n_tricks,
    ws,
    wc,
    inhand,
    tof,
    task_owner,
    task_pred,
    all_tasks,
    omega_mask,
    omega_last,
    obj_kind,
    p1,
    p2,
    d1,
    d2,
    commander,
):
    """Judge the trick just completed by the play at depth ``d``.

    Returns (status, done, ost): status 0 = failed, 1 = goes on, 2 = mission won.
    """
    t = d // seats
    last = t == n_tricks - 1
    done = st[d, C_DONE]
    newly = np.int64(0)
    trumps_in = 0
    pink_in = False
    for k in range(seats):
        x = st[d - seats + 1 + k, C_PLAYED]
        i = tof[x]
        if i >= 0:
            if task_owner[i] != ws:
                return 0, done, np.int64(0)
            newly |= np.int64(1) << i
        if x >= 36:
            trumps_in += 1
        if x < 9:
            pink_in = True
    done |= newly
    m = newly
    while m != 0:
        i = lowest(m)
        m &= m - 1
        if task_pred[i] & ~done:
            return 0, done, np.int64(0)
        if omega_last and not last and (omega_mask >> i) & 1:
            return 0, done, np.int64(0)
    ost = st[d, C_OST]
    obj_done = True
    if obj_kind == OBJ_NO_TRICKS:
        if ws == d1:
            return 0, done, ost
        obj_done = last
    elif obj_kind == OBJ_ONES:
        if wc < 36 and wc % 9 == 0 and ost < p1:
            ost += 1
        if ost < p1:
            left = popcount(inhand & ONES)
            tl = n_tricks - t - 1
            if left > tl:
                left = tl
            if ost + left < p1:
                return 0, done, ost
            obj_done = False
    elif obj_kind == OBJ_TRUMPS:
        if trumps_in >= 2:
            return 0, done, ost
        if wc >= 36:
            ost += 1
            if p1 != 0 and wc - 35 != ost:
                return 0, done, ost
        obj_done = ost == 4
    elif obj_kind == OBJ_NO_RANK:
        if wc < 36 and wc % 9 + 1 == p1:
            return 0, done, ost
        obj_done = last or (inhand & rank_mask(p1)) == 0
    elif obj_kind == OBJ_BALANCED:
        ost += np.int64(1) << (4 * ws)
        lo = 99
        hi = 0
        for s in range(seats):
            c = (ost >> (4 * s)) & 15
            if c < lo:
                lo = c
            if c > hi:
                hi = c
        if hi - lo > p1:
            return 0, done, ost
        if p2 != 0 and (t == 0 or last) and ws != commander:
            return 0, done, ost
        obj_done = last
    elif obj_kind == OBJ_ONE_TRICK:
        if ws == d1:
            if ost >= 1 or (p1 != 0 and wc >= 36):
                return 0, done, ost
            ost = np.int64(1)
        if last and ost != 1:
            return 0, done, ost
        obj_done = last
    elif obj_kind == OBJ_FIRST_LAST:
        must = t == 0 or last
        won = ws == d1
        if won != must or (won and p1 != 0 and wc >= 36):
            return 0, done, ost
        obj_done = last
    elif obj_kind == OBJ_PINK:
        if pink_in and ws != p1:
            return 0, done, ost
        obj_done = last or (inhand & SUIT[0]) == 0  # a pink never played need not be won
    elif obj_kind == OBJ_ROLES:
        if t < p1:
            ok = ws == d1
        elif t >= n_tricks - p2:
            ok = ws == d2
        else:
            ok = ws != d1 and ws != d2
        if not ok:
            return 0, done, ost
        obj_done = last
    if done == all_tasks and obj_done:
        return 2, done, ost
    if last:
        return 0, done, ost
    return 1, done, ost


@njit(cache=True)
def _memo_key(st, d, seats, rel, taskmask, scr, at):
    """Write the memo key of the trick boundary at depth ``d`` to ``scr[at:at + 7]``; hash it.

    With ``rel`` the hands are written in relative ranks: each card becomes its rank within its
    suit among the cards still in play, so positions that differ only in which cards are gone
    share an entry.  Word 5 marks the (relative) task cards still to take and word 6 the tasks
    done: together they say which task (owner, token) each marked card is.
    """
    for s in range(5):
        scr[at + s] = 0
    if rel:
        rest = np.int64(0)
        for s in range(seats):
            rest |= st[d, s]
        rtask = np.int64(0)
        for u in range(5):
            m = rest & SUIT[u]
            b = 9 * u
            while m != 0:
                c = lowest(m)
                m &= m - 1
                bit = np.int64(1) << b
                for s in range(seats):
                    if (st[d, s] >> c) & 1:
                        scr[at + s] |= bit
                        break
                if (taskmask >> c) & 1:
                    rtask |= bit
                b += 1
        scr[at + 5] = rtask
    else:
        for s in range(seats):
            scr[at + s] = st[d, s]
        scr[at + 5] = 0
    scr[at + 6] = st[d, C_DONE]
    scr[at] |= (st[d, C_LEAD] << 40) | (st[d, C_OST] << 43)
    h = np.int64(seats)
    for k in range(7):
        h = mix(h, scr[at + k])
    return h


@njit(cache=True)
def search(
    hands0,
    under,
    seats,
    n_tricks,
    leader0,
    dummy,
    task_card,
    task_owner,
    task_pred,
    n_tasks,
    omega_mask,
    omega_last,
    obj_kind,
    p1,
    p2,
    d1,
    d2,
    budget,
    tkeys,
    gen,
    st,
    tof,
    line,
    prune,
    scr,
    prefix,
    n_prefix,
):
    """Solve one problem.  Returns (verdict, nodes, plays in ``line``).

    ``hands0`` one mask per seat (the dummy's face-up cards), ``under[c]`` the card beneath the
    dummy's face-up ``c`` or -1, ``dummy`` the dummy's seat or -1, ``tkeys`` the memo table
    (rows of KEY_W int64, a power-of-two count) and ``gen`` a stamp not used before in it,
    ``st`` scratch of shape (MAXD, NCOL), ``tof`` 40 int64 of scratch, ``line`` >= 40 int64
    that receives the winning plays in play order, ``scr`` SCR int64 of scratch, ``prefix``
    the first ``n_prefix`` plays every line must start with (a position of a game played
    so far: is it still winnable?).  ``prune`` = 0
    turns off the memo, the equivalent-card pruning, the cut-offs that are not needed for
    correctness and the restarts (tests).
    """
    commander = leader0
    all_tasks = (np.int64(1) << n_tasks) - 1
    taskmask = np.int64(0)
    own = st[MAXD - 1, 0:5]  # per-owner task-card masks live in the last scratch row
    for s in range(5):
        own[s] = 0
    for c in range(40):
        tof[c] = -1
    for i in range(n_tasks):
        c = task_card[i]
        tof[c] = i
        taskmask |= np.int64(1) << c
        own[task_owner[i]] |= np.int64(1) << c
    special = taskmask
    if obj_kind == OBJ_ONES:
        special |= ONES
    elif obj_kind == OBJ_TRUMPS:
        special |= TRUMPS
    elif obj_kind == OBJ_NO_RANK:
        special |= rank_mask(p1)
    cov0 = np.int64(0)
    tops_over_task = np.int64(0)
    if dummy >= 0:
        for c in range(40):
            u = under[c]
            if u >= 0:
                special |= np.int64(1) << c
                cov0 |= np.int64(1) << u
                if (taskmask >> u) & 1 and not (taskmask >> c) & 1:
                    tops_over_task |= np.int64(1) << c
    tmask = tkeys.shape[0] - 1
    # relative-rank memo keys need every rule to depend on the order within a suit only
    rel = dummy < 0 and obj_kind != OBJ_ONES and obj_kind != OBJ_TRUMPS and obj_kind != OBJ_NO_RANK

    for s in range(5):
        st[0, s] = hands0[s] if s < seats else 0
    st[0, C_LEAD] = leader0
    st[0, C_OST] = 0
    st[0, C_DONE] = 0
    st[0, C_COV] = cov0

    nodes = np.int64(0)
    # restarts: runs with a growing play limit, the first in heuristic order, the later ones
    # picking at random within each ordering group; the failure memo carries over
    restart = 0
    limit = np.int64(RESTART0) if prune else budget
    if limit > budget:
        limit = budget
    rng = np.int64(0x2545F4914F6CDD1D)  # seeded by the problem: answers do not depend on
    for s in range(5):  # which problems the process solved before
        rng = mix(rng, hands0[s])
    for i in range(n_tasks):
        rng = mix(rng, task_card[i] + 64 * task_owner[i])
    if rng == 0:
        rng = np.int64(1)
    d = np.int64(0)  # not a literal 0: numba would compile every callee a second time for it
    enter = True
    while True:
        pos = d % seats
        lead = st[d, C_LEAD]
        if enter:
            enter = False
            cut = False
            if pos == 0:
                t = d // seats
                left = n_tricks - t
                st[d, C_SLK] = 99
                if prune:
                    for s in range(seats):
                        need = popcount(st[d, s] & taskmask)
                        if s == dummy:
                            need += popcount(st[d, C_COV] & taskmask)
                            need += popcount(st[d, s] & tops_over_task)
                        if need > left:
                            cut = True
                    if not cut:
                        spare = bound_cut(
                            st, d, seats, dummy, left, taskmask, tof, task_owner, task_pred, scr
                        )
                        cut = spare < 0
                        st[d, C_SLK] = spare
                        st[d, C_MV] = must_void(st, d, seats, taskmask)
                    if not cut and t > 0:
                        at = KEYS_AT + 8 * t
                        h = _memo_key(st, d, seats, rel, taskmask, scr, at)
                        scr[at + 7] = h
                        for k in range(PROBES):
                            r = (h + k) & tmask
                            if tkeys[r, 7] == gen:
                                same = True
                                for w in range(7):
                                    if tkeys[r, w] != scr[at + w]:
                                        same = False
                                        break
                                if same:
                                    cut = True
                                    break
            if cut:
                d -= 1
                if d < 0:
                    return INFEASIBLE, nodes
                continue
            # ---- generate the moves of the seat to play
            seat = (lead + pos) % seats
            hand = st[d, seat]
            table = np.int64(0)
            for k in range(pos):
                table |= np.int64(1) << st[d - pos + k, C_PLAYED]
            led = SUIT[st[d - pos, C_PLAYED] // 9] if pos > 0 else np.int64(0)
            legal = follow_suit(hand, led)
            moves = legal
            if prune:
                u_all = st[d, C_COV] | table
                for s in range(seats):
                    u_all |= st[d, s]
                rest = legal & ~special
                while rest != 0:
                    c = lowest(rest)
                    rest &= rest - 1
                    above = u_all & SUIT[c // 9] & ~((np.int64(2) << c) - 1)
                    if above != 0:
                        nx = lowest(above)
                        if (legal >> nx) & 1 and not (special >> nx) & 1:
                            moves &= ~(np.int64(1) << c)
            if pos == 0:
                good = good_leads(st, d, seats, seat, moves, tof, task_owner, taskmask)
                st[d, C_T1] = good  # leads that work towards a task first
                st[d, C_T2] = moves & ~good
                st[d, C_PREF] = shedding_leads(st, d, seats, seat, moves & ~good)
                st[d, C_DIR] = 1
            else:
                wc = st[d, C_WC]
                ws = st[d, C_WS]
                owners = np.int64(0)
                for k in range(pos):
                    i = tof[st[d - pos + k, C_PLAYED]]
                    if i >= 0:
                        owners |= np.int64(1) << task_owner[i]
                beat = moves & BEATS[wc]
                if (owners >> seat) & 1:
                    st[d, C_T1] = beat  # my task is on the table: win it, cheapest first
                    st[d, C_T2] = moves & ~beat
                    st[d, C_PREF] = 0
                    st[d, C_DIR] = 0
                elif owners == 0 or owners == (np.int64(1) << ws):
                    # the winner's task cards, and those of a seat still to play that can
                    # take the trick over
                    dumpto = own[ws]
                    for q in range(pos + 1, seats):
                        sq = (lead + q) % seats
                        if follow_suit(st[d, sq], led) & BEATS[wc]:
                            dumpto |= own[sq]
                    dump = moves & ~beat & dumpto
                    st[d, C_T1] = dump  # the winner should keep it: give it its task cards
                    st[d, C_T2] = moves & ~dump
                    pref = np.int64(0)
                    if (hand & led) == 0:  # discarding: first the suits this seat must shed
                        mv = st[d, C_MV] >> (5 * seat)
                        for u in range(5):
                            if (mv >> u) & 1:
                                pref |= SUIT[u]
                    st[d, C_PREF] = pref
                    st[d, C_DIR] = 1
                else:
                    st[d, C_T1] = moves
                    st[d, C_T2] = 0
                    st[d, C_PREF] = 0
                    st[d, C_DIR] = 0
            if d < n_prefix:  # a play already made: the only move
                st[d, C_T1] = legal & (np.int64(1) << prefix[d])
                st[d, C_T2] = 0
        # ---- next move at depth d
        m1 = st[d, C_T1]
        if m1 != 0:
            if restart == 0:
                c = highest(m1) if st[d, C_DIR] == 1 else lowest(m1)
            else:
                rng = next_rand(rng)
                c = nth_bit(m1, ((rng >> 33) & 0x3FFFFFFF) % popcount(m1))
            st[d, C_T1] = m1 & ~(np.int64(1) << c)
        else:
            m2 = st[d, C_T2]
            if m2 == 0:
                if pos == 0 and d > 0 and prune:  # refuted: remember it
                    at = KEYS_AT + 8 * (d // seats)
                    h = scr[at + 7]  # the key was made when the boundary was entered
                    slot = h & tmask
                    for k in range(PROBES):
                        r = (h + k) & tmask
                        if tkeys[r, 7] != gen:
                            slot = r
                            break
                    for w in range(7):
                        tkeys[slot, w] = scr[at + w]
                    tkeys[slot, 7] = gen
                d -= 1
                if d < 0:
                    return INFEASIBLE, nodes
                continue
            mp = m2 & st[d, C_PREF]
            if mp == 0:
                mp = m2
            if restart == 0:
                c = lowest(mp)
            else:
                rng = next_rand(rng)
                c = nth_bit(mp, ((rng >> 33) & 0x3FFFFFFF) % popcount(mp))
            st[d, C_T2] = m2 & ~(np.int64(1) << c)
        nodes += 1
        if nodes > limit:
            if limit >= budget:
                return UNKNOWN, nodes
            restart += 1
            limit = restart_limit(restart, nodes, budget)
            d = np.int64(0)
            enter = True
            continue
        seat = (lead + pos) % seats
        bit = np.int64(1) << c
        for s in range(5):
            st[d + 1, s] = st[d, s]
        st[d + 1, seat] = st[d, seat] & ~bit
        st[d, C_PLAYED] = c
        if pos == 0:
            wc = c
            ws = seat
        else:
            wc = st[d, C_WC]
            ws = st[d, C_WS]
            if (BEATS[wc] >> c) & 1:
                wc = c
                ws = seat
        cov = st[d, C_COV]
        if pos == seats - 1:
            if dummy >= 0:
                x = st[d - seats + 1 + (dummy - lead) % seats, C_PLAYED]
                u = under[x]
                if u >= 0:
                    st[d + 1, dummy] |= np.int64(1) << u
                    cov &= ~(np.int64(1) << u)
            inhand = cov
            for s in range(seats):
                inhand |= st[d + 1, s]
            status, done, ost = _end_trick(
                st,
                d,
                seats,
                n_tricks,
                ws,
                wc,
                inhand,
                tof,
                task_owner,
                task_pred,
                all_tasks,
                omega_mask,
                omega_last,
                obj_kind,
                p1,
                p2,
                d1,
                d2,
                commander,
            )
            if status == 0:
                continue
            if status == 2:
                for k in range(d + 1):
                    line[k] = st[k, C_PLAYED]
                line[d + 1] = -1
                return FEASIBLE, nodes
            st[d + 1, C_LEAD] = ws
            st[d + 1, C_OST] = ost
            st[d + 1, C_DONE] = done
            st[d + 1, C_COV] = cov
        else:
            if prune:
                # a task card on the table whose owner has already played and is not winning
                bad = False
                for k in range(pos + 1):
                    i = tof[st[d - pos + k, C_PLAYED]]
                    if i >= 0:
                        o = task_owner[i]
                        if o != ws:
                            if (o - lead) % seats <= pos:
                                bad = True  # its owner has played and is not winning
                            else:  # its owner is still to play: it must be able to win
                                led = SUIT[st[d - pos, C_PLAYED] // 9]
                                if follow_suit(st[d + 1, o], led) & BEATS[wc] == 0:
                                    bad = True
                if not bad and st[d, C_SLK] == 0:
                    bad = not trick_can_take_task(st, d, pos, seats, lead, ws, tof, task_owner)
                if bad:
                    continue
            st[d + 1, C_SLK] = st[d, C_SLK]
            st[d + 1, C_MV] = st[d, C_MV]
            st[d + 1, C_LEAD] = lead
            st[d + 1, C_OST] = st[d, C_OST]
            st[d + 1, C_DONE] = st[d, C_DONE]
            st[d + 1, C_COV] = cov
            st[d + 1, C_WC] = wc
            st[d + 1, C_WS] = ws
        d += 1
        enter = True


@njit(cache=True)
def solve_batch(
    hands,
    unders,
    seats,
    n_tricks,
    dummy,
    task_cards,
    task_owners,
    task_tokens,
    n_tasks,
    omega_last,
    obj_kind,
    p1,
    p2,
    d1s,
    d2s,
    budget,
    tkeys,
    gen0,
    prune,
    verdicts,
    nodes_out,
    lines,
    prefixes,
    n_prefix,
):
    """Solve many problems of one shape; row ``k`` of each array is problem ``k``.

    ``d1s``/``d2s`` designated seats per problem (-1 when the objective needs none),
    ``prefixes[k, :n_prefix[k]]`` the plays problem ``k``'s lines start with.  The
    memo generation starts at ``gen0`` and rises by one per problem; returns the next free one.
    """
    st = np.zeros((MAXD, NCOL), dtype=np.int64)
    tof = np.zeros(40, dtype=np.int64)
    scr = np.zeros(SCR, dtype=np.int64)
    pred = np.zeros(task_cards.shape[1], dtype=np.int64)
    gen = gen0
    for k in range(hands.shape[0]):
        nt = n_tasks[k]
        predecessor_masks(task_tokens[k], nt, pred)
        omega_mask = np.int64(0)
        for i in range(nt):
            if task_tokens[k, i] == TOK_OMEGA:
                omega_mask |= np.int64(1) << i
        leader = np.int64(0)
        for s in range(seats):
            if (hands[k, s] >> 39) & 1:
                leader = s
        v, n = search(
            hands[k],
            unders[k],
            seats,
            n_tricks,
            leader,
            dummy,
            task_cards[k],
            task_owners[k],
            pred,
            nt,
            omega_mask,
            omega_last,
            obj_kind,
            p1,
            p2,
            d1s[k],
            d2s[k],
            budget,
            tkeys,
            gen,
            st,
            tof,
            lines[k],
            prune,
            scr,
            prefixes[k],
            n_prefix[k],
        )
        verdicts[k] = v
        nodes_out[k] = n
        gen += 1
    return gen
