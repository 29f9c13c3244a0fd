"""Bots are honest: a decision does not change when the cards hidden from its seat are re-dealt
in another way consistent with everything that seat has seen (``crewsim.rules.knowledge``)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewsim.bots import get_bot
from crewsim.engine import probe as probe_module
from crewsim.engine.probe import Decision, Swap, count_decisions, probe
from crewsim.errors import CrewsimError
from crewsim.kernel import layout as L
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission, resolve_missions
from crewsim.missions.schema import Mission
from crewsim.rules.game import Claim, GameState
from crewsim.rules.knowledge import redeal
from crewsim.runs.replay import dealt, set_up
from crewsim.solver.pimc import check_mission, run_pimc_chunk

_CLAIMS = (Claim.HIGHEST, Claim.ONLY, Claim.LOWEST)
MISSIONS = [m.id for m in resolve_missions("all")]
BOTS = {name: get_bot(name).vector() for name in ("heuristic", "random", "search")}
BOTS["search-setup"] = BOTS["search"].copy()
BOTS["search-setup"][[L.BP_SEARCH_SETUP, L.BP_SEARCH_DISTRESS, L.BP_SEARCH_MAX]] = 1, 1, 16


def position(mission: Mission, players: int, rec: dict[str, np.ndarray], d: Decision) -> GameState:
    """The referee's state of the recorded game at the probed decision."""
    if d.trick < 0:  # set-up: the deal and the task cards, nothing played or told yet
        return dealt(mission, players, rec, 0)
    state = set_up(mission, players, rec, 0)
    comms = [tuple(int(x) for x in c) for c in rec["rec_comms"][0] if c[0] >= 0][: d.comms]
    plays = [int(c) for c in rec["rec_plays"][0] if c >= 0]
    draw_after = mission.card_draw_after_trick
    for t in range(d.trick + 1):
        for seat, card, claim, before in comms:
            if before == t:
                state.communicate(seat, card, _CLAIMS[claim])
        if draw_after and t == draw_after and (t < d.trick or d.kind == L.DEC_PLAY):
            state.draw_cards([int(c) for c in rec["rec_draws"][0][: state.seats]])
        n = state.seats if t < d.trick else (d.nin if d.kind == L.DEC_PLAY else 0)
        for card in plays[t * state.seats : t * state.seats + n]:
            state.play(state.to_play, card)
    return state


def decider(state: GameState, d: Decision) -> int:
    """The seat whose knowledge the decision may use: the commander decides for the dummy."""
    return state.commander if state.is_dummy_game and d.seat == 2 else d.seat


def check(mission_id: str, players: int, seed: int, pick: int, bot: str = "heuristic") -> str:
    """Probe one decision of the game from ``seed``, re-deal what its seat cannot see, probe
    again; returns a description of the decision (asserting it did not change)."""
    mission = get_mission(mission_id)
    distress = "always" if seed % 3 == 0 else "auto"
    mp = KernelMission(mission, players, distress=distress).vector()
    bp = BOTS[bot]
    n = count_decisions(mp, bp, seed)
    at = 1 + pick % n
    d, rec = probe(mp, bp, seed, at)
    state = position(mission, players, rec, d)
    rng = np.random.default_rng(seed * 7919 + pick)
    world = redeal(state, decider(state, d), rng)
    tasks: tuple[int, ...] = ()
    if d.kind == L.DEC_BLIND_YES:  # the task cards are not shown yet: draw others
        tasks = tuple(int(c) for c in rng.choice(36, size=mission.tasks, replace=False))
    again, _ = probe(mp, bp, seed, at, Swap(tuple(world.hands), dict(world.under), tasks))
    where = f"{mission_id} {players}p seed {seed} decision {at}: {d}"
    assert again == d, f"{where} became {again.value} in a re-deal"
    return where


@pytest.mark.parametrize("mission_id", MISSIONS)
def test_decisions_do_not_see_hidden_cards(mission_id: str) -> None:
    """Ten positions of every mission at every crew size, for the heuristic crew."""
    for players in (2, 3, 4, 5):
        for k in range(10):
            check(mission_id, players, seed=1000 * players + k, pick=7919 * k + 13)


def test_the_random_crew_too() -> None:
    for k, mission_id in enumerate(MISSIONS):
        check(mission_id, 2 + k % 4, seed=k, pick=31 * k, bot="random")


def _pimc_plays(mission_id: str) -> bool:
    try:
        check_mission(KernelMission(get_mission(mission_id), 4).vector(), mission_id)
    except CrewsimError:
        return False
    return True


def test_the_pimc_crew_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The PIMC crew samples its worlds as the search crew does and asks the solver about
    them only: its card plays do not change in a re-deal either (its own chunk function stands
    in for the engine's in the probe)."""
    bp = get_bot("pimc").vector()
    bp[L.BP_PIMC_WORLDS] = 4
    monkeypatch.setattr(probe_module, "run_chunk", run_pimc_chunk)
    monkeypatch.setitem(BOTS, "pimc", bp)
    plays = [m for m in MISSIONS if _pimc_plays(m)]
    assert len(plays) > 40
    for k, mission_id in enumerate(plays[::2]):
        check(mission_id, 2 + k % 4, seed=700 + k, pick=7919 * k + 101, bot="pimc")


def test_a_pimc_crew_that_sees_the_deal_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe can fail the PIMC crew: given the real deal as its world, its card plays
    change in re-deals."""
    bp = get_bot("pimc").vector()
    bp[L.BP_PIMC_WORLDS] = 1
    monkeypatch.setattr(probe_module, "run_chunk", functools.partial(run_pimc_chunk, oracle=True))
    monkeypatch.setitem(BOTS, "pimc", bp)
    changed = 0
    for k in range(30):
        try:
            check("pn-10", 4, seed=900 + k, pick=7919 * k + 101, bot="pimc")
        except AssertionError:
            changed += 1
    assert changed >= 2  # most picks: a set-up decision, or a play every card wins


def test_the_search_crew_too() -> None:
    """The search crew samples its worlds from what its seat knows: its card plays (and the
    heuristic's decisions it keeps) do not change in a re-deal either."""
    for k, mission_id in enumerate(MISSIONS[::2]):
        check(mission_id, 2 + k % 4, seed=500 + k, pick=7919 * k + 101, bot="search")


def test_the_search_crew_at_the_set_up() -> None:
    """With ``search_setup`` the draft picks and answers are searched from the deal on, in
    worlds of what the seat sees before the first trick: they do not change in a re-deal."""
    set_ups = 0
    for k, mission_id in enumerate(("pn-10", "pn-5", "pn-33", "pn-36", "pn-8") * 4):
        where = check(mission_id, 2 + k % 4, seed=900 + k, pick=k % 3, bot="search-setup")
        set_ups += "trick=-1" in where
    assert set_ups >= 15


def test_the_search_crews_distress_passes() -> None:
    """With ``search_distress`` each seat's pass is searched in worlds where the others pass
    as they would in that world, unseen: it does not change in a re-deal."""
    passes = 0
    for k, mission_id in enumerate(("pn-10", "pn-2", "pn-36", "ds-6") * 2):
        seed, players = 3 * k, 2 + k % 4  # a multiple of 3: the crew always calls the signal
        mp = KernelMission(get_mission(mission_id), players, distress="always").vector()
        for at in range(1, 16):
            d, _ = probe(mp, BOTS["search-setup"], seed, at)
            if d.kind == L.DEC_PASS:
                check(mission_id, players, seed=seed, pick=at - 1, bot="search-setup")
                passes += 1
                break
    assert passes >= 6


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(MISSIONS),
    st.integers(2, 5),
    st.integers(0, 2**40),
    st.integers(0, 10**6),
)
def test_random_positions(mission_id: str, players: int, seed: int, pick: int) -> None:
    check(mission_id, players, seed, pick)


def test_a_dishonest_redeal_is_noticed() -> None:
    """The probe can fail: exchanging the deciding seat's own hand with a neighbour's (which
    no honest re-deal does) changes most card plays."""
    mission = get_mission("pn-10")
    mp = KernelMission(mission, 4).vector()
    changed = plays = 0
    for seed in range(60):
        n = count_decisions(mp, BOTS["heuristic"], seed)
        d, rec = probe(mp, BOTS["heuristic"], seed, 1 + (seed * 37) % n)
        if d.kind != L.DEC_PLAY:
            continue
        state = position(mission, 4, rec, d)
        hands = list(state.hands)
        other = (d.seat + 1) % 4
        hands[d.seat], hands[other] = hands[other], hands[d.seat]
        again, _ = probe(mp, BOTS["heuristic"], seed, 1 + (seed * 37) % n, Swap(tuple(hands), {}))
        plays += 1
        changed += again.value != d.value
    assert plays > 20 and changed > 0.8 * plays


def test_every_kind_of_decision_is_probed() -> None:
    """The positions above reach each kind of decision (a probe that never fires tests
    nothing): the Planet Nine draft, answers and passes, Deep Sea's selection, predictions."""
    kinds = set()
    cases = (
        ("pn-10", 4, ()),
        ("pn-20", 4, ()),
        ("pn-24", 3, ()),
        ("pn-11", 3, ()),
        ("ds-6", 4, ()),
        ("ds-1", 3, (95, 96)),
    )
    for mission_id, players, tasks in cases:
        mission = get_mission(mission_id)
        mp = KernelMission(mission, players, distress="always", tasks=tasks).vector()
        for seed in range(20):
            n = count_decisions(mp, BOTS["heuristic"], seed)
            for at in range(1, min(n, 12) + 1):
                kinds.add(probe(mp, BOTS["heuristic"], seed, at)[0].kind)
    assert kinds >= {
        L.DEC_DRAFT,
        L.DEC_YES,
        L.DEC_BLIND_YES,
        L.DEC_PASS,
        L.DEC_ANSWER,
        L.DEC_SELECT,
        L.DEC_PREDICT,
        L.DEC_COMM,
        L.DEC_PLAY,
    }
