"""The numba-written clauses admit every legal hand: soundness against the trick rules.

(That they admit nothing else is the small-deck comparisons with exhaustive search.)"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from crewsim.cards import TRUMP, suit_of
from crewsim.rules.deal import Deal, deal_cards
from crewsim.rules.game import TaskSpec
from crewsim.rules.play import legal_plays, n_tricks, trick_winner
from crewsim.solver.sat import Cnf, encode, full_hands

ALL_CARDS = (1 << 40) - 1
TOKENS = ("1", "2", ">", ">>", "omega")


def _random_hand(
    deal: Deal, rng: np.random.Generator
) -> tuple[list[int], list[list[int]], list[int]]:
    """(leaders, tricks, winners) of a hand played to the end, each play drawn uniformly
    from the legal ones."""
    hands, under = list(deal.hands), dict(deal.dummy_under)
    leader = deal.commander
    leaders: list[int] = []
    tricks: list[list[int]] = []
    winners: list[int] = []
    for _ in range(n_tricks(deal.players)):
        trick: list[int] = []
        for k in range(deal.seats):
            s = (leader + k) % deal.seats
            legal = legal_plays(hands[s], suit_of(trick[0]) if trick else None)
            c = int(rng.choice([c for c in range(40) if legal >> c & 1]))
            hands[s] &= ~(1 << c)
            trick.append(c)
        for c in trick:  # the dummy's card beneath is turned over when the trick ends
            if c in under:
                hands[2] |= 1 << under.pop(c)
        leaders.append(leader)
        tricks.append(trick)
        leader = trick_winner(trick, leader, deal.seats)[0]
        winners.append(leader)
    return leaders, tricks, winners


def _assignment(
    cnf: Cnf, leaders: list[int], tricks: list[list[int]], winners: list[int]
) -> set[int]:
    """The true variables of a played hand."""
    true = set()
    for t, (first, trick) in enumerate(zip(leaders, tricks, strict=True)):
        true.add(cnf.lead(first, t))
        true.add(cnf.led(suit_of(trick[0]), t))
        for c in trick:
            true.add(cnf.x(c, t))
            true.update(cnf.p(c, t2) for t2 in range(t, cnf.tricks))
        if any(suit_of(c) == TRUMP for c in trick):
            true.add(cnf.trumped(t))
    true.add(cnf.lead(winners[-1], cnf.tricks))
    return true


@settings(max_examples=300, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4, 5]), n_tasks=st.integers(0, 8), seed=st.integers(0, 2**32 - 1)
)
def test_a_legal_hand_satisfies_every_clause(players: int, n_tasks: int, seed: int) -> None:
    """Tasks are cards of distinct tricks, owned by their trick's winner, their tokens given
    in trick order: the hand completes them, so it must satisfy every clause and count."""
    rng = np.random.default_rng(seed)
    deal = deal_cards(players, rng)
    leaders, tricks, winners = _random_hand(deal, rng)
    picked = sorted(rng.choice(len(tricks), size=n_tasks, replace=False))
    tokens = [TOKENS[k] if k < len(TOKENS) - 1 else None for k in range(n_tasks)]
    if n_tasks > 1 and rng.random() < 0.5:
        tokens[-1] = "omega"
    tasks = [
        TaskSpec(int(rng.choice(tricks[t])), tok, winners[t])
        for t, tok in zip(picked, tokens, strict=True)
    ]
    cnf = encode(
        full_hands(deal),
        len(tricks),
        deal.commander,
        tasks,
        distinct=ALL_CARDS,
        under=deal.dummy_under,
    )
    true = _assignment(cnf, leaders, tricks, winners)
    flat, ends = cnf.core[0].tolist(), cnf.core[1].tolist()
    assert ends and ends[-1] == len(flat)
    for a, end in zip([0, *ends], ends, strict=False):
        clause = flat[a:end]
        assert any((abs(v) in true) == (v > 0) for v in clause), clause
    flat, ends, bounds = (a.tolist() for a in cnf.counts)
    for a, end, k in zip([0, *ends], ends, bounds, strict=False):
        assert sum((abs(v) in true) == (v > 0) for v in flat[a:end]) <= k
