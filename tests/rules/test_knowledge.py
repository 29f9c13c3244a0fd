"""What a seat may know (`crewsim.rules.knowledge`): re-dealt worlds keep everything the seat
has seen, the referee replays them, and the walk does move cards when there is room."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import WORKED_HANDS, c, hand, play_trick

from crewsim.bots import load_bots
from crewsim.cards import SUIT_MASK, Game, cards_of, popcount, suit_of
from crewsim.engine.run import run_chunk
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission, load_task_cards
from crewsim.rules import Deal, GameState, IllegalMove, TaskSpec
from crewsim.rules.game import Claim, Rules
from crewsim.rules.knowledge import places, redeal, redeal_map, relabel, unseen
from crewsim.rules.task_cards import HeldTask
from crewsim.runs.replay import moves, set_up

N_GAMES = 12
# mission, players, distress: communication, dead zone, the dummy, Planet Nine 12's draw, the
# distress signal (with and without the dummy), Deep Sea, 2 to 5 players
CONFIGS = (
    ("pn-10", 4, "auto"),
    ("pn-10", 3, "auto"),
    ("pn-10", 5, "always"),
    ("pn-10", 2, "auto"),
    ("pn-10", 2, "always"),
    ("pn-6", 3, "auto"),
    ("pn-6", 4, "always"),
    ("pn-12", 4, "auto"),
    ("pn-12", 2, "auto"),
    ("pn-12", 5, "auto"),
    ("pn-46", 3, "always"),
    ("ds-20", 4, "auto"),
    ("ds-20", 2, "always"),
    ("ds-20", 5, "auto"),
)


@cache
def _games(mission_id: str, players: int, distress: str) -> dict[str, np.ndarray]:
    mission = get_mission(mission_id)
    mp = KernelMission(mission, players, distress=distress).vector()
    bp = load_bots()["heuristic"].vector()
    return run_chunk(mp, bp, N_GAMES, 4000 + 10 * mission.number + players, record=True)


def position(config: tuple[str, int, str], i: int, stop: int) -> GameState:
    """Game ``i`` of a configuration after ``stop`` cards (-1: right after the set-up,
    before any communication; past the end: the finished hand)."""
    mission_id, players, distress = config
    mission = get_mission(mission_id)
    rec = _games(*config)
    state = set_up(mission, players, rec, i)
    if stop >= 0:
        for k, _ in enumerate(moves(state, mission, rec, i)):
            if k == stop:
                break
    return state


def decider(state: GameState, offset: int) -> int:
    """A seat that decides: the dummy's moves are the commander's."""
    seat = (state.to_play + offset) % state.seats
    return state.commander if state.is_dummy(seat) else seat


def _known_places(state: GameState, seat: int) -> dict[int, int]:
    hidden = unseen(state, seat)
    return {c: p for c, p in places(state).items() if not hidden >> c & 1}


def check_world(real: GameState, new: GameState, seat: int) -> None:
    """Everything ``seat`` has seen is the same in ``new``, and ``new`` replays itself."""
    assert new.hands[seat] == real.hands[seat]
    assert new.commander == real.commander
    assert new.tricks == real.tricks and new.trick == real.trick
    assert new.leaders == real.leaders and new.winners == real.winners
    assert new.to_play == real.to_play
    dead = real.rules.communication == "dead_zone"
    assert [(q, k, t) for q, k, _, t in new.comms] == [(q, k, t) for q, k, _, t in real.comms]
    for (q, _, a, _), (_, _, b, _) in zip(new.comms, real.comms, strict=True):
        assert a == b or (dead and q != seat)
    assert [popcount(h) for h in new.hands] == [popcount(h) for h in real.hands]
    assert [popcount(new.deal.full_hand(s)) for s in range(new.seats)] == [
        popcount(real.deal.full_hand(s)) for s in range(real.seats)
    ]
    if real.is_dummy_game:
        assert new.hands[2] == real.hands[2]
        assert sorted(new.under) == sorted(real.under)  # the same face-up cards cover them
    assert new.distress == real.distress
    if real.distress_passes:
        assert new.distress_passes[seat] == real.distress_passes[seat]
    if real.draws:
        nxt = (seat + 1) % real.seats
        assert new.draws[seat] == real.draws[seat]
        assert new.draws[nxt] == real.draws[nxt]
    out_new, out_real = new.outcome, real.outcome
    assert (out_new and out_new.kind, out_new and out_new.trick) == (
        out_real and out_real.kind,
        out_real and out_real.trick,
    )
    assert unseen(new, seat) == unseen(real, seat)
    assert _known_places(new, seat) == _known_places(real, seat)
    assert new.in_hands == real.in_hands
    relabel(new, {})  # the new world is itself a consistent history


@cache
def _coverage(config: tuple[str, int, str]) -> dict[str, int]:
    rec = _games(*config)
    return {
        "comms": int((rec["rec_comms"][:, :, 0] >= 0).sum()),
        "draws": int((rec["rec_draws"][:, 0] >= 0).sum()),
        "distress": int(rec["distress"].sum()),
    }


def test_the_games_meet_every_move_kind() -> None:
    """The configurations do exercise what they are there for."""
    assert _coverage(("pn-10", 4, "auto"))["comms"] > 0
    assert _coverage(("pn-6", 3, "auto"))["comms"] > 0  # dead zone
    assert _coverage(("pn-6", 4, "always"))["comms"] > 0
    assert _coverage(("pn-10", 2, "auto"))["comms"] > 0
    for config in (("pn-12", 4, "auto"), ("pn-12", 2, "auto"), ("pn-12", 5, "auto")):
        assert _coverage(config)["draws"] > 0
    for config in (("pn-10", 5, "always"), ("pn-10", 2, "always"), ("pn-6", 4, "always")):
        assert _coverage(config)["distress"] > 0
    assert get_mission("pn-6").communication == "dead_zone"
    assert get_mission("ds-20").game.value == "deep-sea"


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    config=st.sampled_from(CONFIGS),
    i=st.integers(0, N_GAMES - 1),
    stop=st.integers(-1, 41),
    offset=st.integers(0, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_redeal_keeps_what_the_seat_has_seen(
    config: tuple[str, int, str], i: int, stop: int, offset: int, seed: int
) -> None:
    real = position(config, i, stop)
    seat = decider(real, offset)
    before = [list(real.hands), dict(real.under), list(real.comms), real.history[:]]
    new = redeal(real, seat, np.random.default_rng(seed), steps=40)
    assert [list(real.hands), dict(real.under), list(real.comms), real.history] == before
    check_world(real, new, seat)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}p-{c[2]}")
def test_identity_replays_every_position(config: tuple[str, int, str]) -> None:
    """The real world is consistent: relabelling by nothing rebuilds the same state."""
    for i in range(0, N_GAMES, 3):
        for stop in (-1, 0, 1, 5, 13, 27, 60):
            real = position(config, i, stop)
            same = relabel(real, {})
            assert same.hands == real.hands and same.under == real.under
            assert same.comms == real.comms and same.tricks == real.tricks
            assert same.draws == real.draws and same.distress_passes == real.distress_passes
            assert same.outcome == real.outcome and same.trick == real.trick


def test_redeals_usually_change_something() -> None:
    """Over many positions with room (unseen cards in two places or more), most re-deals
    move some card; a single position may be locked by what the seat has seen."""
    rng = np.random.default_rng(5)
    roomy = changed = 0
    for config in CONFIGS:
        for i in range(N_GAMES):
            real = position(config, i, int(rng.integers(-1, 30)))
            seat = decider(real, int(rng.integers(0, 5)))
            where = places(real)
            if len({where[k] for k in cards_of(unseen(real, seat))}) < 2:
                continue
            roomy += 1
            new = relabel(real, redeal_map(real, seat, rng))
            changed += new.hands != real.hands or new.under != real.under
    assert roomy > 0.7 * len(CONFIGS) * N_GAMES
    assert changed > 0.8 * roomy, (changed, roomy)


def test_draw_card_stays_with_the_left_neighbour_in_real_games() -> None:
    """Planet Nine 12: the card drawn from a seat is with its left neighbour in every world
    that seat can imagine (until it is played)."""
    rng = np.random.default_rng(12)
    checked = 0
    for config in (("pn-12", 4, "auto"), ("pn-12", 2, "auto"), ("pn-12", 5, "auto")):
        for i in range(N_GAMES):
            seats = 3 if config[1] == 2 else config[1]
            real = position(config, i, int(rng.integers(seats, 26)))  # after the draw
            if not real.draws:
                continue
            for seat in range(real.seats):
                if real.is_dummy(seat):
                    continue
                card = real.draws[(seat + 1) % real.seats]
                where = places(real).get(card)
                new = redeal(real, seat, rng)
                check_world(real, new, seat)
                assert places(new).get(card) == where
                checked += where is not None
    assert checked > 10


# ---------------------------------------------------------------- hand-made positions
# The worked deal: seat 0 (rocket 4) is the commander.  Trick 1 is pink 2, pink 3, blue 6 (seat
# 2 has no pink), pink 7: seat 3 wins.  Seat 1 holds blue 4 and blue 5.

SEAT1_BLUES = hand("blue4 blue5")
HIGH_BLUES = hand("blue6 blue7 blue8 blue9")


def worked(rules: Rules = Rules(), tricks: int = 1, comm: bool = False) -> GameState:
    state = GameState(Deal(4, WORKED_HANDS), [TaskSpec(c("yellow9"), owner=0)], rules)
    if comm:  # seat 1 shows blue 5: its highest blue
        state.communicate(1, c("blue5"), Claim.HIGHEST)
    if tricks:
        play_trick(state, "pink2", "pink3", "blue6", "pink7")
    return state


def _redeals(state: GameState, seat: int, n: int = 150) -> list[GameState]:
    rng = np.random.default_rng(99)
    out = [redeal(state, seat, rng, steps=30) for _ in range(n)]
    for new in out:
        check_world(state, new, seat)
    return out


def test_a_shown_void_holds() -> None:
    state = worked()
    worlds = _redeals(state, 0)
    pink = int(SUIT_MASK[0])
    assert all(not w.hands[2] & pink for w in worlds)
    assert len({w.hands[2] for w in worlds}) > 20  # seat 2's hand does get re-dealt
    assert any(not w.hands[1] >> c("pink5") & 1 for w in worlds)
    # the referee, not only the walk's shortcut, refuses it
    with pytest.raises(IllegalMove, match="must follow"):
        relabel(state, {c("pink5"): c("green4"), c("green4"): c("pink5")})


def test_a_highest_claim_holds() -> None:
    state = worked(comm=True)
    worlds = _redeals(state, 0)
    assert all(not w.hands[1] & HIGH_BLUES for w in worlds)
    assert any(w.hands[1] != state.hands[1] for w in worlds)
    with pytest.raises(IllegalMove, match="highest"):
        relabel(state, {c("blue9"): c("yellow7"), c("yellow7"): c("blue9")})
    with pytest.raises(IllegalMove, match="highest"):  # blue 4 for blue 9: now its lowest
        relabel(state, {c("blue9"): c("blue4"), c("blue4"): c("blue9")})
    relabel(state, {c("green9"): c("yellow1"), c("yellow1"): c("green9")})


def test_a_dead_zone_claim_is_whatever_is_true() -> None:
    """In the dead zone nobody sees the token: blue 5 may be seat 1's lowest blue as well,
    never a middle one; the new world records the claim true in it."""
    state = worked(Rules(communication="dead_zone"), comm=True)
    new = relabel(state, {c("blue9"): c("blue4"), c("blue4"): c("blue9")})
    assert new.comms[0][2] is Claim.LOWEST
    with pytest.raises(IllegalMove, match="neither the highest"):
        relabel(state, {c("blue9"): c("pink5"), c("pink5"): c("blue9")})
    worlds = _redeals(state, 0, 250)
    for w in worlds:
        blues = w.hands[1] & int(SUIT_MASK[1])
        assert not blues & HIGH_BLUES or not blues & hand("blue1 blue2 blue3 blue4")
    assert any(w.hands[1] & HIGH_BLUES for w in worlds)  # the open claim would forbid these


def test_the_drawn_card_is_known_to_the_seat_it_came_from() -> None:
    """Planet Nine 12 by hand: after trick 1 everyone draws from the right neighbour; seat 2
    (void in pink at trick 1) draws pink 5 from seat 1, so that void no longer holds."""
    rules = Rules(card_draw_after_trick=1)
    state = worked(rules)
    draws = [c("yellow1"), c("green1"), c("pink5"), c("yellow2")]  # from seats 3, 0, 1, 2
    state.draw_cards(draws)
    play_trick(state, "pink1")  # seat 3 leads trick 2
    own = state.hands[0]
    played = hand("pink2 pink3 blue6 pink7 pink1")
    assert unseen(state, 0) == state.in_hands & ~own & ~(1 << c("green1"))
    assert unseen(state, 0) | own | played | 1 << c("green1") == (1 << 40) - 1
    worlds = _redeals(state, 0)
    pink = int(SUIT_MASK[0])
    for w in worlds:
        assert w.hands[1] >> c("green1") & 1  # seat 1 took green 1 from seat 0
        assert popcount(w.hands[2] & pink) <= 1  # only the drawn card can be pink
    assert len({w.hands[2] & pink for w in worlds}) > 1
    # seat 2 knows what it drew and what seat 3 drew from it, not green 1
    assert unseen(state, 2) >> c("green1") & 1
    assert not unseen(state, 2) & (1 << c("pink5") | 1 << c("yellow2"))


def test_the_commander_is_public() -> None:
    state = GameState(Deal(4, WORKED_HANDS))
    assert unseen(state, 2) >> c("rocket4") & 1
    with pytest.raises(IllegalMove, match="trump 4"):
        relabel(state, {c("rocket4"): c("pink5"), c("pink5"): c("rocket4")})
    relabel(state, {c("rocket3"): c("pink9"), c("pink9"): c("rocket3")})
    for w in _redeals(state, 2, 40):
        assert w.hands[0] >> c("rocket4") & 1


def test_the_pink9_holder_is_public() -> None:
    """Planet Nine 46: the pink 9's holder says so."""
    rules = Rules(objectives=(("left_of_pink9_wins_pink", {}),))
    state = GameState(Deal(4, WORKED_HANDS), rules=rules)
    assert not unseen(state, 2) >> c("pink9") & 1
    with pytest.raises(IllegalMove, match="pink 9"):
        relabel(state, {c("pink9"): c("pink5"), c("pink5"): c("pink9")})
    for w in _redeals(state, 2, 40):
        assert w.hands[0] >> c("pink9") & 1


def test_no_deep_sea_redeal_was_called_for() -> None:
    """Deep Sea task 45 has the deal redealt when one hand holds submarines 2, 3 and 4: that
    nobody asked is public."""
    card = next(k for k in load_task_cards() if k.number == 45)
    state = GameState(Deal(4, WORKED_HANDS), game=Game.DEEP_SEA, deep_tasks=[HeldTask(card, 1)])
    three = {c("rocket3"): c("pink9"), c("pink9"): c("rocket3")}
    relabel(state, three)  # submarines 3 and 4 together are fine
    with pytest.raises(IllegalMove, match="redeal"):
        relabel(state, {**three, c("rocket2"): c("pink8"), c("pink8"): c("rocket2")})
    for w in _redeals(state, 2, 60):
        assert w.hands[0] & hand("rocket2 rocket3") != hand("rocket2 rocket3")


def test_the_dummy_face_down_cards_move_but_the_face_up_ones_stay() -> None:
    """Two players: the dummy's covered cards are unseen, each stack a place of its own."""
    real = position(("pn-10", 2, "auto"), 0, 0)
    seat = real.commander
    hidden = unseen(real, seat)
    assert not hidden & real.hands[2]
    assert all(hidden >> u & 1 for u in real.under.values())
    rng = np.random.default_rng(3)
    worlds = [redeal(real, seat, rng) for _ in range(20)]
    for w in worlds:
        check_world(real, w, seat)
    assert any(w.under != real.under for w in worlds)


def test_relabel_refuses_a_non_permutation() -> None:
    with pytest.raises(ValueError, match="permutation"):
        relabel(worked(), {c("pink5"): c("green4")})


def test_suits_of_unseen_cards_are_reshuffled_across_seats() -> None:
    """The walk mixes: after re-dealing from seat 0's view at the worked position, seat 3's
    pinks are not always the same ones."""
    worlds = _redeals(worked(), 0, 60)
    pinks = {w.hands[3] & int(SUIT_MASK[0]) for w in worlds}
    assert len(pinks) > 1
    assert {suit_of(k) for w in worlds for k in cards_of(w.hands[2])} >= {1, 2, 3}
