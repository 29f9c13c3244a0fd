"""Random set-up of a hand for the referee: deal, draw Planet Nine task cards, lay tokens."""

from __future__ import annotations

import numpy as np

from crewsim.rules.deal import Deal, deal_cards
from crewsim.rules.game import TaskSpec


def draw_tasks(n: int, tokens: tuple[str, ...], rng: np.random.Generator) -> list[TaskSpec]:
    """``n`` of the 36 task cards (one per colour card), tokens laid on the first drawn."""
    cards = rng.choice(36, size=n, replace=False)
    return [TaskSpec(int(c), tokens[i] if i < len(tokens) else None) for i, c in enumerate(cards)]


def random_setup(
    players: int, n_tasks: int, tokens: tuple[str, ...], seed: int | None
) -> tuple[Deal, list[TaskSpec]]:
    """A dealt hand and drafted tasks (uniformly random draft, commander first, clockwise)."""
    rng = np.random.default_rng(seed)
    deal = deal_cards(players, rng)
    tasks = draw_tasks(n_tasks, tokens, rng)
    order = [int(i) for i in rng.permutation(n_tasks)]
    drafted = [
        TaskSpec(tasks[i].card, tasks[i].token, (deal.commander + k) % deal.seats)
        for k, i in enumerate(order)
    ]
    return deal, drafted
