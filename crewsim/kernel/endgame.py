"""The bots' endgame: in the last few tricks, once public knowledge pins every unseen card to
one seat, a member checks the card it means to play against every line that is left.

By then the heuristic has nothing left to guess, yet it still lost games a search of the last
three tricks would have won (pn-18 at 5 players: 229 of 1,883 lost games; pn-45 at 2: 80 of
885).  A member plays its chosen card if some line of legal plays still completes every task
after it, else the first card that keeps one; every member with the same knowledge reasons
alike, so a line found is a line kept.  Planet Nine tasks and order tokens only (objectives
and Deep Sea conditions keep the heuristic), and never while the dummy has face-down cards.
"""

import numpy as np
from numba import njit

from crewsim.kernel.bits import BEATS, FULL, SUIT, lowest, popcount, seat_after, suit_of
from crewsim.kernel.layout import (
    BP_ENDGAME,
    G_CMD,
    G_DONE,
    G_DUMMY,
    G_LEADER,
    G_NIN,
    G_NT,
    G_NTASK,
    G_PLAYED,
    G_SEATS,
    G_T,
    MP_GAME,
    MP_NOBJ,
    MP_OMEGA_LAST,
    OMEGA_CODE,
)


@njit(cache=True)
def _trick_done(buf, r, leader, t, nt, seats, done, tasks, omega_last):
    """A complete trick ``buf[r]`` judged as the kernel's ``_judge`` judges tasks and tokens:
    (1 every task done / 2 failed / 0 the hand goes on, the winner, the tasks done)."""
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
                return 2, winner, done
            newly |= np.int64(1) << i
    done |= newly
    every = (np.int64(1) << n_tasks) - 1
    for i in range(n_tasks):
        if done >> i & 1 and tasks[3, i] == OMEGA_CODE and done != every:
            return 2, winner, done  # nothing may follow Omega
        if newly >> i & 1:
            if tasks[2, i] & ~done or omega_last and tasks[3, i] == OMEGA_CODE and t != nt - 1:
                return 2, winner, done
    if done == every:
        return 1, winner, done
    return (2 if t == nt - 1 else 0), winner, done


@njit(cache=True)
def _line_left(hands, buf, nin, leader, t, nt, seats, done, tasks, omega_last):
    """Whether some continuation completes every task: trick ``t`` has ``nin`` cards in
    ``buf[0]``; ``hands`` holds every seat's cards (as given again on return); ``tasks`` the
    rows card, owner, predecessor mask and token.  An explicit stack: cached self-recursive
    functions crashed on reload (NUMBA-NOTES)."""
    depth = (nt - t) * seats + 1
    rem = np.zeros(depth, dtype=np.int64)  # per play: the seat's cards left to try
    who = np.zeros(depth, dtype=np.int64)
    card = np.zeros(depth, dtype=np.int64)
    at = np.zeros((depth, 5), dtype=np.int64)  # per play: trick row, cards in, leader, t, done
    at[0, 0], at[0, 1], at[0, 2], at[0, 3], at[0, 4] = 0, nin, leader, t, done
    d = 0
    enter = True
    found = False
    while d >= 0:
        r, nin, leader, t = at[d, 0], at[d, 1], at[d, 2], at[d, 3]
        if enter:
            enter = False
            rem[d] = 0
            if nin == seats:
                v, winner, done = _trick_done(buf, r, leader, t, nt, seats, at[d, 4], tasks,
                                              omega_last)  # fmt: skip
                if v == 1:
                    found = True
                    break
                if v == 0:  # the next trick, from this same node (it had no choice)
                    r, nin, leader, t = r + 1, 0, winner, t + 1
                    at[d, 0], at[d, 1], at[d, 2], at[d, 3], at[d, 4] = r, 0, winner, t, done
            if nin < seats:
                s = seat_after(leader, nin, seats)
                who[d] = s
                rem[d] = hands[s]
                if nin > 0 and hands[s] & SUIT[suit_of(buf[r, 0])]:
                    rem[d] = hands[s] & SUIT[suit_of(buf[r, 0])]
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
        at[d + 1, 4] = at[d, 4]
        d += 1
        enter = True
    for k in range(d):  # a line found: its plays taken back
        hands[who[k]] |= np.int64(1) << card[k]
    return found


@njit(cache=True)
def endgame_play(S, bp, mp, g, me, hand, viewer, legal, trick, possible, pick):
    """``pick`` if a line of legal plays still completes every task after it, else the first
    legal card that keeps one; ``pick`` when none does or the unseen cards are not pinned."""
    seats, t, nt, n_tasks = g[G_SEATS], g[G_T], g[G_NT], g[G_NTASK]
    if (
        nt - t > bp[BP_ENDGAME] or mp[MP_GAME] != 0 or mp[MP_NOBJ] != 0 or n_tasks == 0
        or legal & (legal - 1) == 0 or g[G_DONE] == (np.int64(1) << n_tasks) - 1
    ):  # fmt: skip
        return pick
    dummy = g[G_DUMMY]
    if dummy >= 0:  # the dummy's stacks show how many face-down cards it has: public
        m = S.hands[dummy]
        while m:
            c = lowest(m)
            m &= m - 1
            if S.under[c] >= 0:
                return pick
    hands = np.zeros(5, dtype=np.int64)
    unseen = FULL & ~hand & ~viewer & ~g[G_PLAYED]
    cover = np.int64(0)
    for q in range(seats):
        if q == me:
            hands[q] = hand
        elif q == g[G_CMD] and me == dummy:  # the commander plays for the dummy
            hands[q] = viewer
        else:  # a seat's count of cards is public too
            hands[q] = possible[q] & unseen
            if hands[q] & cover or popcount(hands[q]) != popcount(S.hands[q]):
                return pick
            cover |= hands[q]
    if cover != unseen:
        return pick
    tasks = np.empty((4, n_tasks), dtype=np.int64)
    tasks[0], tasks[1] = S.tcard[:n_tasks], S.towner[:n_tasks]
    tasks[2], tasks[3] = S.tpred[:n_tasks], S.ttok[:n_tasks]
    buf = np.empty((nt - t, 5), dtype=np.int64)
    nin = g[G_NIN]
    buf[0, :nin] = trick[:nin]
    m = legal & ~(np.int64(1) << pick)
    c = pick
    while True:
        bit = np.int64(1) << c
        hands[me] &= ~bit
        buf[0, nin] = c
        ok = _line_left(hands, buf, nin + 1, g[G_LEADER], t, nt, seats, g[G_DONE], tasks,
                        mp[MP_OMEGA_LAST])  # fmt: skip
        hands[me] |= bit
        if ok:
            return c
        if not m:
            return pick
        c = lowest(m)
        m &= m - 1
