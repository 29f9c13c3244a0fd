"""The bots' endgame: in the last tricks a member checks the card it means to play against
every line of legal plays left, in each deal of the unseen cards public knowledge allows.

Searched from the last three tricks with perfect information, some lost games come back.  A
member plays the card that keeps a line completing every task in the most of those deals, its
heuristic card among equals: with three tricks left only when knowledge (voids, counts, the
dummy's face-up cards) pins every unseen card to one seat, with two when at most ``WORLDS``
deals remain.  Planet Nine tasks, order tokens and the balance of tricks (pn-29, pn-34); the
other objectives and Deep Sea's conditions keep the heuristic, and so does a dummy with
face-down cards.  A game found lost in every deal is not searched again: nothing can change it.
"""

import numpy as np

from crewsim.kernel.bits import (
    BEATS,
    FULL,
    SUIT,
    follow_suit,
    highest,
    lowest,
    popcount,
    seat_after,
    suit_of,
)
from crewsim.kernel.jit import compiled, copy_into, inlined
from crewsim.kernel.layout import (
    BP_ENDGAME,
    ENDGAME_SCRATCH,
    G_CMD,
    G_DONE,
    G_DUMMY,
    G_LEADER,
    G_NIN,
    G_NT,
    G_NTASK,
    G_PLAYED,
    G_PLAYING,
    G_SEATS,
    G_T,
    G_TASKMASK,
    G_TRICKMASK,
    MAX_TASKS,
    MP_DRAW_AFTER,
    MP_GAME,
    MP_NOBJ,
    MP_OBJ,
    MP_OMEGA_LAST,
    OBJ_BALANCED,
    OMEGA_CODE,
)


@compiled
def _trick_done(buf, r, leader, t, nt, seats, done, won, tasks, rules):
    """A complete trick ``buf[r]`` judged as the kernel's ``_judge`` judges tasks, tokens and
    the balance of tricks: (1 won / 2 failed / 0 the hand goes on, the winner, the tasks done,
    the tricks won, 4 bits a seat).  ``rules``: Omega last, balance spread (0 none), the
    commander who must take the last trick (-1 none)."""
    wi = 0
    in_trick = np.int64(0)
    for k in range(seats):
        in_trick |= np.int64(1) << buf[r, k]
        if k and BEATS[buf[r, wi]] >> buf[r, k] & 1:
            wi = k
    winner = seat_after(leader, wi, seats)
    n_tasks = tasks.shape[1]
    newly = np.int64(0)
    for i in range(n_tasks):
        if not done >> i & 1 and in_trick >> tasks[0, i] & 1:
            if winner != tasks[1, i]:
                return 2, winner, done, won
            newly |= np.int64(1) << i
    done |= newly
    every = (np.int64(1) << n_tasks) - 1
    for i in range(n_tasks):
        if done >> i & 1 and tasks[3, i] == OMEGA_CODE and done != every:
            return 2, winner, done, won  # nothing may follow Omega
        if newly >> i & 1:
            if tasks[2, i] & ~done or rules[0] and tasks[3, i] == OMEGA_CODE and t != nt - 1:
                return 2, winner, done, won
    if rules[1]:  # no member more than rules[1] tricks ahead of another, at any point
        won += np.int64(1) << 4 * winner
        mn, mx = 15, 0
        for q in range(seats):
            mn = min(mn, won >> 4 * q & 15)
            mx = max(mx, won >> 4 * q & 15)
        if mx - mn > rules[1] or t == nt - 1 and rules[2] >= 0 and winner != rules[2]:
            return 2, winner, done, won
        if t < nt - 1:  # judged at the end of the hand
            return 0, winner, done, won
    if done == every:
        return 1, winner, done, won
    return (2 if t == nt - 1 else 0), winner, done, won


@compiled
def _one_of_twins(cands, hands, buf, r, nin, seats, task_cards):
    """``cands`` less each card whose next lower card of its suit still in play is of the
    same hand: neither a task card, the two are interchangeable in any line."""
    if cands & (cands - 1) == 0:  # one card (or none): nothing to cut
        return cands
    live = np.int64(0)
    for q in range(seats):
        live |= hands[q]
    for k in range(nin):
        live |= np.int64(1) << buf[r, k]
    return _twin_heads(cands, live, task_cards)


@inlined
def _twin_heads(cands, live, task_cards):
    """The lowest card of each run of ``cands`` that no other ``live`` card splits (a task card
    stands alone): the cards of a run are interchangeable in any line."""
    out = cands
    m = cands & ~task_cards
    while m:
        c = lowest(m)
        m &= m - 1
        below = live & SUIT[suit_of(c)] & ((np.int64(1) << c) - 1)
        if below and cands >> highest(below) & ~task_cards >> highest(below) & 1:
            out &= ~(np.int64(1) << c)
    return out


@inlined
def _twin_head(c, cands, live, task_cards):
    """The lowest card of ``c``'s run in ``_twin_heads``."""
    while not task_cards >> c & 1:
        below = live & SUIT[suit_of(c)] & ((np.int64(1) << c) - 1)
        if below == 0 or not (cands & ~task_cards) >> highest(below) & 1:
            break
        c = highest(below)
    return c


@compiled
def _line_left(hands, buf, nin, leader, t, nt, seats, done, won, tasks, rules, stack):
    """Whether some continuation completes every task: trick ``t`` has ``nin`` cards in
    ``buf[0]``; ``hands`` holds every seat's cards (as given again on return); ``tasks`` the
    rows card, owner, predecessor mask and token; ``won`` and ``rules`` as ``_trick_done``'s;
    ``stack`` scratch of (tricks left x seats + 1) rows of 9.  An explicit stack: cached
    self-recursive functions crashed on reload (NUMBA-NOTES)."""
    task_cards = np.int64(0)
    for i in range(tasks.shape[1]):
        task_cards |= np.int64(1) << tasks[0, i]
    rem, who, card = stack[:, 5], stack[:, 6], stack[:, 7]  # per play: cards left to try, ...
    at = stack[:, :5]  # ... and the trick row, cards in, leader, t, tasks done
    wins = stack[:, 8]  # ... and the tricks won
    at[0, 0], at[0, 1], at[0, 2], at[0, 3], at[0, 4] = 0, nin, leader, t, done
    wins[0] = won
    d = 0
    enter = True
    found = False
    while d >= 0:
        r, nin, leader, t = at[d, 0], at[d, 1], at[d, 2], at[d, 3]
        if enter:
            enter = False
            rem[d] = 0
            if nin == seats:
                v, winner, done, won = _trick_done(
                    buf, r, leader, t, nt, seats, at[d, 4], wins[d], tasks, rules
                )
                if v == 1:
                    found = True
                    break
                if v == 0:  # the next trick, from this same node (it had no choice)
                    r, nin, leader, t = r + 1, 0, winner, t + 1
                    at[d, 0], at[d, 1], at[d, 2], at[d, 3], at[d, 4] = r, 0, winner, t, done
                    wins[d] = won
            if nin < seats:
                s = seat_after(leader, nin, seats)
                who[d] = s
                led = SUIT[suit_of(buf[r, 0])] if nin > 0 else np.int64(0)
                rem[d] = _one_of_twins(
                    follow_suit(hands[s], led), hands, buf, r, nin, seats, task_cards
                )
        if rem[d] == 0:  # back to the play before, taken back
            d -= 1
            if d >= 0:
                hands[who[d]] |= np.int64(1) << card[d]
            continue
        c = lowest(rem[d])
        rem[d] &= rem[d] - 1
        card[d] = c
        hands[who[d]] &= ~(np.int64(1) << c)
        buf[r, nin] = c
        at[d + 1, 0], at[d + 1, 1], at[d + 1, 2], at[d + 1, 3] = r, nin + 1, leader, t
        at[d + 1, 4], wins[d + 1] = at[d, 4], wins[d]
        d += 1
        enter = True
    for k in range(d):  # a line found: its plays taken back
        hands[who[k]] |= np.int64(1) << card[k]
    return found


@compiled
def _two_left(hands, buf, nin, leader, t, nt, seats, done, won, tasks, rules, stack):
    """``_line_left`` in the next-to-last trick, ``nin > 0`` cards in: each way the seats still
    to play in it may follow (the colour led fixes each seat's choice), then the last trick,
    which plays itself when every seat holds one card (else ``_line_left`` searches it).
    ``stack``'s first two rows: each position's legal cards and the one it plays."""
    legal, pick = stack[0, :5], stack[1, :5]
    led = SUIT[suit_of(buf[0, 0])]
    for k in range(nin, seats):
        legal[k] = follow_suit(hands[seat_after(leader, k, seats)], led)
        pick[k] = legal[k] & -legal[k]
    while True:
        for k in range(nin, seats):
            buf[0, k] = lowest(pick[k])
        v, winner, done_now, won_now = _trick_done(
            buf, 0, leader, t, nt, seats, done, won, tasks, rules
        )
        if v == 0:
            if not _last_cards(hands, buf, nin, leader, winner, seats, pick):
                return _line_left(
                    hands, buf, nin, leader, t, nt, seats, done, won, tasks, rules, stack
                )
            v = _trick_done(buf, 1, winner, t + 1, nt, seats, done_now, won_now, tasks, rules)[0]
        if v == 1:
            return True
        k = seats - 1  # the next way to follow: the last position with a higher card moves
        while k >= nin:
            higher = legal[k] & ~(2 * pick[k] - 1)
            if higher:
                pick[k] = higher & -higher
                break
            pick[k] = legal[k] & -legal[k]
            k -= 1
        if k < nin:
            return False


@inlined
def _last_cards(hands, buf, nin, leader, winner, seats, pick):
    """Trick ``buf[1]`` from ``winner`` on, when every seat holds one card once trick
    ``buf[0]`` is played (``pick``: the cards played in it from position ``nin`` on)."""
    for k in range(seats):
        s = seat_after(winner, k, seats)
        j = s - leader if s >= leader else s - leader + seats  # its position in trick 0
        h = hands[s] & ~pick[j] if j >= nin else hands[s]
        if h == 0 or h & (h - 1):
            return False
        buf[1, k] = lowest(h)
    return True


SHALLOW = 2  # tricks left from which several deals are searched
WORLDS = 8  # at most this many deals of the unseen cards are searched, else the heuristic


# ``S.endgame``'s slots: seats' candidates, counts, hands; a game found lost; the deals; tasks;
# tricks (13 of 5 cards); the search's stack (13 tricks x 5 seats + 1 plays); ``_worlds``'s own
LOST = 15  # the game found lost (its deal stream's state), kept by a rollout copy
_WORLDS = 16
_TASKS = _WORLDS + 5 * WORLDS
_BUF = _TASKS + 4 * MAX_TASKS
_STACK = _BUF + 5 * 13
_DEALING = _STACK + 9 * 66
assert _DEALING + 27 <= ENDGAME_SCRATCH


@inlined
def _subset(x, a):
    """The cards of ``a`` that the bits of ``x`` pick (bit i: the i-th lowest card of ``a``)."""
    s = np.int64(0)
    while x:
        if x & 1:
            s |= a & -a
        a &= a - 1
        x >>= 1
    return s


@inlined
def _seat_order(cands, need, unseen, seats, order, room):
    """The seats that take cards into ``order``, those with fewest candidates first (fewer dead
    ends), and ``room[l]``, the cards the seats from the l-th on may hold: (how many seats,
    how many cards they hold)."""
    n_seats, total = 0, 0
    for q in range(seats):
        if need[q] > 0:
            k = n_seats
            while k > 0 and popcount(cands[order[k - 1]] & unseen) > popcount(cands[q] & unseen):
                order[k] = order[k - 1]
                k -= 1
            order[k] = q
            n_seats += 1
            total += need[q]
    room[n_seats] = 0
    for k in range(n_seats - 1, -1, -1):
        room[k] = room[k + 1] | cands[order[k]]
    return n_seats, total


@compiled
def _worlds(cands, need, unseen, seats, out, scratch):
    """Fill ``out`` with the deals of the ``unseen`` cards that give each seat ``need[q]`` of
    its candidates ``cands[q]``; their count, or ``len(out) + 1`` when there are more
    (``scratch``: 27 integers).  Seat by seat, each taking a set of its candidates left, the
    last seat what remains.  A card no seat may hold leaves no deal, and so do seats holding
    fewer cards than are unseen (never more: each hand lies among the unseen cards)."""
    order, pick, rest, room = scratch[0:5], scratch[5:10], scratch[10:16], scratch[16:22]
    hands = scratch[22:27]
    hands[:] = 0
    n_seats, total = _seat_order(cands, need, unseen, seats, order, room)
    if total != popcount(unseen) or unseen & ~room[0]:
        return 0
    if n_seats == 0:
        copy_into(out[0], hands)
        return 1
    found = 0
    rest[0] = unseen
    pick[0] = 0
    k = 0
    while k >= 0:
        q = order[k]
        left = rest[k]
        if k == n_seats - 1:  # the last seat takes what is left
            if left & ~cands[q] == 0:
                if found == len(out):
                    return found + 1
                hands[q] = left
                copy_into(out[found], hands)
                found += 1
            k -= 1
            continue
        a = left & cands[q]
        x = pick[k]  # which of ``a`` the seat takes, as bits over ``a``'s cards
        if x == 0:
            x = (np.int64(1) << need[q]) - 1
        else:  # the next number with as many bits (Gosper's)
            t = x | (x - 1)
            x = (t + 1) | (((~t & -~t) - 1) >> (lowest(x) + 1))
        if x >> popcount(a):  # every set tried
            pick[k] = 0
            k -= 1
            continue
        pick[k] = x
        sub = _subset(x, a)
        if (left & ~sub) & ~room[k + 1]:
            continue
        hands[q] = sub
        rest[k + 1] = left & ~sub
        pick[k + 1] = 0
        k += 1
    return found


@inlined
def _line_from(g, hands, buf, nin, packed, tasks, rules, stack):
    """``_line_left`` from where game ``g`` stands, ``nin`` cards into its trick (``_two_left``
    in the next-to-last trick, where nearly every search runs)."""
    leader, t, nt, seats, done = g[G_LEADER], g[G_T], g[G_NT], g[G_SEATS], g[G_DONE]
    if nt - t == 2 and nin > 0:
        return _two_left(hands, buf, nin, leader, t, nt, seats, done, packed, tasks, rules, stack)
    return _line_left(hands, buf, nin, leader, t, nt, seats, done, packed, tasks, rules, stack)


@inlined
def _kept(g, me, rest, viewer, worlds, best_n, hands, buf, packed, tasks, rules, stack):
    """In how many ``worlds`` a line completing every task is left once I have played
    ``buf[0, nin]`` and hold ``rest``; counting stops once it can no longer beat ``best_n``
    (only a strictly better card replaces the best, so the rest of its deals change nothing)."""
    kept = 0
    n_worlds = len(worlds)
    for w in range(n_worlds):
        if kept + n_worlds - w <= best_n:
            break
        copy_into(hands, worlds[w])
        hands[me] = rest
        if me == g[G_DUMMY]:
            hands[g[G_CMD]] = viewer
        if _line_from(g, hands, buf, g[G_NIN] + 1, packed, tasks, rules, stack):
            kept += 1
    return kept


@inlined
def _searchable(S, mp, g):
    """Whether the search judges this game: Planet Nine tasks and order tokens, or the balance
    of tricks, with something still to do; and no dummy's card covers a face-down one (its
    stacks are public, the cards beneath are not)."""
    n_tasks = g[G_NTASK]
    balance = mp[MP_NOBJ] == 1 and mp[MP_OBJ] == OBJ_BALANCED
    if mp[MP_GAME] != 0 or not (balance or mp[MP_NOBJ] == 0 and n_tasks > 0):
        return False
    if n_tasks > 0 and g[G_DONE] == (np.int64(1) << n_tasks) - 1:
        return False
    dummy = g[G_DUMMY]
    if dummy >= 0:
        m = S.hands[dummy]
        while m:
            c = lowest(m)
            m &= m - 1
            if S.under[c] >= 0:
                return False
    return True


@inlined
def _tables(S, mp, g, trick, won, nin):
    """The search's tables in ``S.endgame``: the task rows, the trick buffer with the ``nin``
    cards of the trick under way, the stack, the tricks won (packed) and the rules."""
    eg = S.endgame
    n_tasks = g[G_NTASK]
    balance = mp[MP_NOBJ] == 1 and mp[MP_OBJ] == OBJ_BALANCED
    tasks = eg[_TASKS : _TASKS + 4 * MAX_TASKS].reshape((4, MAX_TASKS))[:, :n_tasks]
    buf = eg[_BUF : _BUF + 5 * 13].reshape((13, 5))
    stack = eg[_STACK : _STACK + 9 * 66].reshape((66, 9))
    for i in range(n_tasks):
        tasks[0, i], tasks[1, i] = S.tcard[i], S.towner[i]
        tasks[2, i], tasks[3, i] = S.tpred[i], S.ttok[i]
    copy_into(buf[0, :nin], trick[:nin])
    packed = np.int64(0)  # tricks won, 4 bits a seat
    for q in range(g[G_SEATS]):
        packed |= won[q] << 4 * q
    rules = (
        mp[MP_OMEGA_LAST],
        mp[MP_OBJ + 1] if balance else np.int64(0),
        g[G_CMD] if balance and mp[MP_OBJ + 2] else np.int64(-1),
    )
    return tasks, buf, stack, packed, rules


@compiled
def exact_line(S):
    """With every hand seen (a search crew's rollout in a world it dealt): 1 when some line of
    legal plays from here completes every task, 0 when none does, -1 when the search does not
    judge this game (``_searchable``) or pn-12's draw is still to come."""
    mp, g = S.mp, S.g
    draw = mp[MP_DRAW_AFTER]  # (drawn at the start of that trick)
    if not _searchable(S, mp, g) or draw > 0 and draw >= g[G_T] + g[G_PLAYING]:
        return -1
    nin = g[G_NIN] if g[G_PLAYING] else 0
    tasks, buf, stack, packed, rules = _tables(S, mp, g, S.trick, S.won, nin)
    hands = S.endgame[10:15]
    copy_into(hands, S.hands)
    return 1 if _line_from(g, hands, buf, nin, packed, tasks, rules, stack) else 0


@compiled
def endgame_play(S, bp, mp, g, me, hand, viewer, legal, trick, won, possible, pick):
    """The legal card that keeps a line completing every task in the most deals of the unseen
    cards that public knowledge allows (``pick`` among equals); ``pick`` when there are more
    than ``WORLDS`` such deals."""
    seats, t, nt = g[G_SEATS], g[G_T], g[G_NT]
    if nt - t > bp[BP_ENDGAME] or legal & (legal - 1) == 0 or not _searchable(S, mp, g):
        return pick
    eg = S.endgame
    if eg[LOST] == S.deal_rng[0]:  # this game was found lost: no search can change that
        return pick
    dummy = g[G_DUMMY]
    # the search's arrays live in the kernel's state: allocating them cost more than it did
    # (each reshape calls into numba's runtime: made only once the search goes on)
    cands, need, hands = eg[0:5], eg[5:10], eg[10:15]
    unseen = FULL & ~hand & ~viewer & ~g[G_PLAYED]
    for q in range(seats):  # a seat's count of cards is public
        cands[q], need[q] = 0, 0
        if q != me and not (q == g[G_CMD] and me == dummy):  # (the commander plays the dummy)
            cands[q] = possible[q] & unseen
            need[q] = popcount(S.hands[q])
    cap = WORLDS
    if nt - t > SHALLOW:  # one deal only, each unseen card with one candidate seat
        cap = 1
        two = np.int64(0)
        one = np.int64(0)
        for q in range(seats):
            two |= one & cands[q]
            one |= cands[q]
        if two:
            return pick
    worlds = eg[_WORLDS : _WORLDS + 5 * WORLDS].reshape((WORLDS, 5))
    n_worlds = _worlds(cands, need, unseen, seats, worlds[:cap], eg[_DEALING : _DEALING + 27])
    if n_worlds == 0 or n_worlds > cap:
        return pick
    nin = g[G_NIN]
    tasks, buf, stack, packed, rules = _tables(S, mp, g, trick, won, nin)
    best, best_n = pick, -1
    c = pick
    # one card of each run of interchangeable cards, none of pick's: the others keep a line in
    # the same deals, and only a strictly better card replaces the best
    live = FULL & ~g[G_PLAYED] | g[G_TRICKMASK]
    heads = _twin_heads(legal, live, g[G_TASKMASK])
    m = heads & ~(np.int64(1) << _twin_head(pick, legal, live, g[G_TASKMASK]))
    while True:
        buf[0, nin] = c
        kept = _kept(
            g,
            me,
            hand & ~(np.int64(1) << c),
            viewer,
            worlds[:n_worlds],
            best_n,
            hands,
            buf,
            packed,
            tasks,
            rules,
            stack,
        )
        if kept > best_n:
            best, best_n = c, kept
        if not m or best_n == n_worlds:
            if best_n == 0:  # no line in any deal the others may hold, the true one among them
                eg[LOST] = S.deal_rng[0]  # (the deal stream's state names the game)
                return pick
            return best
        c = lowest(m)
        m &= m - 1
