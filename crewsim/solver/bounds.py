"""Bounds at a trick boundary of the Planet Nine search: the earliest trick each open task can
be taken in, the order of the tasks won with their owner's own card, and Hall's condition over
the tricks left (``crewsim.solver.search`` explains the whole)."""

import numpy as np
from numba import njit

from crewsim.kernel.bits import BEATS, SUIT, TRUMPS, follow_suit, lowest, popcount
from crewsim.solver.dfs_layout import C_COV, C_PLAYED, E_AT, MAX_ORDER, MAXD, O_AT, P_AT


@njit(cache=True)
def _void_by(hp, su, taskmask, tof, scr):
    """The earliest trick in which a seat holding ``hp`` can be void in the suit ``su``.

    Its cards of the suit go one a trick before, and each task card among them no earlier
    than that task's own earliest trick (``scr[E_AT + task]``).
    """
    m = hp & su
    e = popcount(m) + 1
    mt = m & taskmask
    while mt != 0:
        y = lowest(mt)
        mt &= mt - 1
        v = scr[E_AT + tof[y]] + 1
        if v > e:
            e = v
    return e


@njit(cache=True)
def _earliest(st, d, seats, dummy, x, o, h, taskmask, tof, scr):
    """A lower bound on the trick (1 = the next) in which task card ``x`` can go to ``o``.

    ``h`` holds ``x``.  When ``h`` is the owner it must win with ``x`` itself, so every other
    seat plays a card that neither beats ``x`` nor is another owner's task card: a seat with no
    such lower card of the suit must be void in the suit by then and still hold such a card of
    another colour (else: 99, never).  When the owner cannot beat ``x`` in its suit it must ruff
    (void in the suit first) or ``h`` must discard ``x`` on a suit the owner holds or can ruff
    (``h`` void in that suit first).  Voids wait for the seat's task cards of the suit, so the
    bounds chain through ``scr[E_AT + ...]``.
    """
    cov = st[d, C_COV]
    sx = SUIT[x // 9]
    foreign = taskmask & ~st[MAXD - 1, o]  # other owners' task cards: o must not win them
    e = 1
    if h == o:
        below = sx & ((np.int64(1) << x) - 1) & ~foreign
        for p in range(seats):
            if p == o:
                continue
            hp = st[d, p]  # the cards p must play out before being void (face-up ones)
            hx = hp | cov if p == dummy else hp  # every card p may still play
            if hx == 0 or (hx & below) != 0:
                continue
            if (hx & ~sx & ~TRUMPS & ~foreign) == 0:
                return np.int64(99)
            a = _void_by(hp, sx, taskmask, tof, scr)
            if a > e:
                e = a
    else:
        ho = st[d, o]
        hox = ho | cov if o == dummy else ho
        if (hox & sx & BEATS[x]) == 0:
            hh = st[d, h]
            otr = hox & TRUMPS
            e = 99
            if otr != 0:
                e = _void_by(ho, sx, taskmask, tof, scr)
            for u in range(5):
                su = SUIT[u]
                if su == sx:
                    continue
                if (hox & su) == 0 and otr == 0:
                    continue
                a = _void_by(hh, su, taskmask, tof, scr)
                if a < e:
                    e = a
    return e


@njit(cache=True)
def suit_orders(st, d, seats, taskmask, scr):
    """Whether the own-card tasks of some suit admit no order: True refutes the position.

    A task whose owner holds its card is won with that very card, in a trick of its suit led.
    Such tricks of one suit come one after another; a seat with an own-card task of the suit
    still to come is not void in the suit, so in each earlier one won by another seat it must
    follow with a card of the suit lower than the winning card that is neither one of its own
    task cards nor a task card of a seat other than the winners (Hall's condition on those
    cards, per seat).  Tried over every order of the suit's own-card tasks (at most
    ``MAX_ORDER`` of them, of two owners or more).
    """
    own = st[MAXD - 1]
    for u in range(4):
        su = SUIT[u]
        a = np.int64(0)
        owners = 0
        for q in range(seats):
            m = st[d, q] & own[q] & su
            scr[O_AT + 72 + q] = m
            if m != 0:
                owners |= 1 << q
                a |= m
        if owners & (owners - 1) == 0 or popcount(a) > MAX_ORDER:
            continue
        for q in range(seats):
            wown = np.int64(0)
            for p in range(seats):
                if p != q and (owners >> p) & 1:
                    wown |= own[p]
            scr[O_AT + 64 + q] = st[d, q] & su & ~own[q] & (~taskmask | wown)
        # depth-first over the orders: level j holds the tasks placed, each seat's followers
        # owed (as the winning cards they must go under) and the tasks still to try there
        for w in range(7):
            scr[O_AT + w] = 0
        scr[O_AT + 6] = a
        j = 0
        found = False
        while j >= 0:
            base = O_AT + 8 * j
            cand = scr[base + 6]
            if cand == 0:
                j -= 1
                continue
            y = lowest(cand)
            yb = np.int64(1) << y
            scr[base + 6] = cand & ~yb
            placed = scr[base] | yb
            if placed == a:
                found = True
                break
            rem = a & ~placed
            ok = True
            for q in range(seats):
                r = scr[base + 1 + q]
                if (rem & scr[O_AT + 72 + q]) != 0 and ((scr[O_AT + 72 + q] >> y) & 1) == 0:
                    r |= yb
                    fq = scr[O_AT + 64 + q]
                    m = r & ~(yb - 1)
                    while m != 0:
                        y2 = lowest(m)
                        m &= m - 1
                        if popcount(r & ((np.int64(2) << y2) - 1)) > popcount(
                            fq & ((np.int64(1) << y2) - 1)
                        ):
                            ok = False
                            break
                    if not ok:
                        break
                scr[base + 9 + q] = r
            if ok:
                scr[base + 8] = placed
                scr[base + 14] = rem
                j += 1
        if not found:
            return True
    return False


@njit(cache=True)
def must_void(st, d, seats, taskmask):
    """Suits each seat must get void in (bit ``5 seat + suit``): an owner holding its own task
    card wins with it, so a seat holding cards of that suit but none lower that is not another
    owner's task card must shed the suit first.  Only guides the move order."""
    own = st[MAXD - 1]
    mv = np.int64(0)
    for o in range(seats):
        m = st[d, o] & own[o]
        while m != 0:
            x = lowest(m)
            m &= m - 1
            sx = SUIT[x // 9]
            below = sx & ((np.int64(1) << x) - 1) & ~(taskmask & ~own[o])
            for p in range(seats):
                if p != o and (st[d, p] & sx) != 0 and (st[d, p] & below) == 0:
                    mv |= np.int64(1) << (5 * p + x // 9)
    return mv


@njit(cache=True)
def bound_cut(st, d, seats, dummy, left, taskmask, tof, task_owner, task_pred, scr):
    """A sound test at a trick boundary: -1 when no line can take every task still open,
    else the tricks to spare (``left`` less the tricks the open tasks need at least).

    Each open task gets a lower bound on the trick it can be taken in (``_earliest``, and a
    task whose order token makes it wait for another comes no earlier than that one, a trick
    later when the owners differ); the bounds feed one another until they settle.  Tasks of
    one owner held by one seat need distinct tricks (a seat plays one card a trick), tasks of
    different owners too: tasks that cannot come before trick ``k`` of those left must fit
    into the ``left - k + 1`` tricks from ``k`` on (Hall's condition per threshold).  Without
    a dummy (whose hidden cards would let it discard while holding a task card), the own-card
    tasks of each suit must first admit an order (``suit_orders``).
    """
    if dummy < 0 and suit_orders(st, d, seats, taskmask, scr):
        return -1
    cov = st[d, C_COV]
    rest = cov
    for s in range(seats):
        rest |= st[d, s]
    pending = taskmask & rest
    open_tasks = np.int64(0)
    n = 0
    while pending != 0:
        x = lowest(pending)
        pending &= pending - 1
        h = dummy
        for s in range(seats):
            if (st[d, s] >> x) & 1:
                h = s
                break
        i = tof[x]
        open_tasks |= np.int64(1) << i
        scr[E_AT + i] = 1
        scr[P_AT + n] = (x << 4) | h
        n += 1
    # the lower bounds only grow and stay below left + 1, so this settles
    changed = True
    while changed:
        changed = False
        for j in range(n):
            x = scr[P_AT + j] >> 4
            h = scr[P_AT + j] & 15
            i = tof[x]
            o = task_owner[i]
            e = _earliest(st, d, seats, dummy, x, o, h, taskmask, tof, scr)
            m = task_pred[i] & open_tasks
            while m != 0:
                k = lowest(m)
                m &= m - 1
                a = scr[E_AT + k] + (1 if task_owner[k] != o else 0)
                if a > e:
                    e = a
            if e > left:
                return -1
            if e > scr[E_AT + i]:
                scr[E_AT + i] = e
                changed = True
    kmax = 1
    for j in range(n):
        x = scr[P_AT + j] >> 4
        i = tof[x]
        e = scr[E_AT + i]
        if e > kmax:
            kmax = e
        scr[16 + j] = (e << 8) | (task_owner[i] << 4) | (scr[P_AT + j] & 15)
    # thresholds: 1 and every larger earliest trick that occurs
    spare = left
    k = 1
    while k <= kmax:
        present = k == 1
        for j in range(n):
            if (scr[16 + j] >> 8) == k:
                present = True
        if present:
            for j in range(25):
                scr[64 + j] = 0
            for j in range(n):
                v = scr[16 + j]
                if (v >> 8) >= k:
                    scr[64 + 5 * ((v >> 4) & 15) + (v & 15)] += 1
            tot = 0
            for o in range(seats):
                mx = 0
                for h in range(seats):
                    c = scr[64 + 5 * o + h]
                    if c > mx:
                        mx = c
                tot += mx
            if tot > left - k + 1:
                return -1
            if k == 1:
                spare = left - tot
        k += 1
    return spare


@njit(cache=True)
def trick_can_take_task(st, d, pos, seats, lead, ws, tof, task_owner):
    """Whether the trick being played (``pos + 1`` cards down, the last at depth ``d``) can
    still complete a task: one is on the table, or a seat still to play holds a task card it
    may play now whose owner has not played yet or is winning the trick.

    Used when the last boundary had no trick to spare: a trick that takes no task moves no
    task card, so the open tasks need as many tricks after it, one fewer being left.
    """
    for k in range(pos + 1):
        if tof[st[d - pos + k, C_PLAYED]] >= 0:
            return True
    led = SUIT[st[d - pos, C_PLAYED] // 9]
    for q in range(pos + 1, seats):
        legal = follow_suit(st[d + 1, (lead + q) % seats], led)
        while legal != 0:
            x = lowest(legal)
            legal &= legal - 1
            i = tof[x]
            if i >= 0:
                o = task_owner[i]
                if o == ws or (o - lead) % seats > pos:
                    return True
    return False
