"""The set-up's public record of who owns which task card (``G_OWNED``), which the crew's
decisions read instead of walking the owners per card."""

from __future__ import annotations

import pytest

from crewsim.kernel import layout as L
from tests.engine.test_search import _game, _set_up


@pytest.mark.parametrize(
    ("mission_id", "players"),
    [("pn-10", 4), ("pn-25", 5), ("pn-10", 2), ("ds-20", 3), ("ds-29", 5)],
)
def test_each_seat_owns_the_task_cards_the_owner_table_gives_it(
    mission_id: str, players: int
) -> None:
    """Planet Nine's drafted cards (and the five-player handover), the Deep Sea cards that
    name exact cards, the dummy's seat: every game's masks agree with ``ct`` card by card."""
    S = _game(mission_id, players)[0]
    owned_any = 0
    for gi in range(40):
        _set_up(S, 7, gi)
        g = S.g
        for q in range(5):
            want = sum(1 << c for c in range(40) if g[L.G_TASKMASK] >> c & 1 and int(S.ct[c]) == q)
            assert int(g[L.G_OWNED + q]) == want, (gi, q)
        owned_any |= int(g[L.G_TASKMASK])
    assert owned_any  # the games had task cards to own
