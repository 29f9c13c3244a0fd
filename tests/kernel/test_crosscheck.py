"""The kernel against the referee: every recorded kernel game replays move by move through the
rules referee, which must accept every move and reach the same outcome on the same trick."""

from __future__ import annotations

import numpy as np
import pytest

from crewsim.bots import get_bot
from crewsim.engine.run import run_chunk
from crewsim.kernel import layout as L
from crewsim.kernel.spec import KernelMission
from crewsim.missions import load_campaign
from crewsim.missions.schema import Mission
from crewsim.runs.replay import replay

CAMPAIGN = load_campaign("planet-nine")
DEEP_SEA = load_campaign("deep-sea")
PLAYERS = (2, 3, 4, 5)
CREWS = (("heuristic", "auto"), ("random", "always"))


def _mismatches(
    mission: Mission, players: int, bot: str, distress: str, n: int, bp: np.ndarray | None = None
) -> list[str]:
    mp = KernelMission(mission, players, distress=distress).vector()
    seed = 1000 * mission.number + players
    rec = run_chunk(mp, get_bot(bot).vector() if bp is None else bp, n, seed, record=True)
    bad = []
    for i in range(n):
        state = replay(mission, players, rec, i)  # raises IllegalMove on any bad move
        kernel = (
            bool(rec["success"][i]),
            int(rec["fail_trick"][i]),
            L.FAIL_REASONS[int(rec["fail_kind"][i])],
        )
        out = state.outcome
        referee = (out.success, out.trick, out.kind) if out else None
        if kernel != referee:
            bad.append(f"{mission.id} {players}p {bot} #{i}: kernel {kernel}, referee {referee}")
    return bad


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("bot", "distress"), CREWS)
def test_kernel_agrees_with_referee(players: int, bot: str, distress: str) -> None:
    """50 missions x 4 player counts x 2 crews x 25 games = 10,000 replayed games."""
    bad: list[str] = []
    for mission in CAMPAIGN:
        bad += _mismatches(mission, players, bot, distress, 25)
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("players", PLAYERS)
def test_search_crew_games_agree_with_referee(players: int) -> None:
    """The search crew's games (the game stopped at each card play and resumed with the
    chosen card): every mission of both campaigns, 2 games each."""
    bad: list[str] = []
    for mission in (*CAMPAIGN, *DEEP_SEA):
        bad += _mismatches(mission, players, "search", "auto", 2)
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("players", (3, 5))
def test_search_crew_set_up_choices_agree_with_referee(players: int) -> None:
    """The choices the search crew searches at the set-up are legal ones: Deep Sea's one
    member for every task card (never a captain who may not take one of them), the free
    selection, and with ``search_distress`` the passes; 10 games of each such mission."""
    bp = get_bot("search").vector()
    bp[[L.BP_SEARCH_MAX, L.BP_SEARCH_DISTRESS]] = 16, 1
    alloc = ("one_member", "captain_all_or_pass", "volunteer_1", "volunteer_2", "free_selection")
    missions = [m for m in DEEP_SEA if m.allocation.value in alloc]
    missions += [m for m in CAMPAIGN if m.id in ("pn-5", "pn-36")]
    bad: list[str] = []
    for mission in missions:
        bad += _mismatches(mission, players, "search", "always", 10, bp)
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("bot", "distress"), CREWS)
def test_deep_sea_kernel_agrees_with_referee(players: int, bot: str, distress: str) -> None:
    """32 missions x 4 player counts x 2 crews x 20 games = 5,120 replayed Deep Sea games."""
    bad: list[str] = []
    for mission in DEEP_SEA:
        bad += _mismatches(mission, players, bot, distress, 20)
    assert not bad, "\n".join(bad[:20])


def test_deep_sea_cross_check_meets_all_96_cards() -> None:
    """Every task card is drawn, held and judged in the games the cross-check replays."""
    seen: set[int] = set()
    for mission in DEEP_SEA:
        for players in PLAYERS:
            mp = KernelMission(mission, players).vector()
            seed = 1000 * mission.number + players
            rec = run_chunk(mp, get_bot("heuristic").vector(), 20, seed, record=True)
            for row in rec["rec_ds"]:
                seen.update(int(c) for c in row[: int(row[48])])
    assert seen == set(range(96)), sorted(set(range(96)) - seen)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_kernel_agrees_with_referee_large(players: int) -> None:
    """The same check at 400 games per cell, both campaigns; run with `-m slow`."""
    bad: list[str] = []
    for mission in (*CAMPAIGN, *DEEP_SEA):
        for bot, distress in CREWS:
            bad += _mismatches(mission, players, bot, distress, 400)
    assert not bad, "\n".join(bad[:20])


def test_every_special_rule_is_exercised() -> None:
    """The cross-check must actually meet the rules it claims to cover."""
    kinds = {str(o.kind) for m in CAMPAIGN for o in m.objectives}
    assert {"role_split", "each_trump_wins", "left_of_pink9_wins_pink"} <= kinds
    assert any(m.card_draw_after_trick for m in CAMPAIGN)
    assert any(m.silenced_member for m in CAMPAIGN)
    assert any(m.task_handover_5p for m in CAMPAIGN)


def test_same_seed_same_games() -> None:
    mission = CAMPAIGN[9]
    mp = KernelMission(mission, 4).vector()
    bp = get_bot("heuristic").vector()
    a = run_chunk(mp, bp, 500, 42, record=True)
    b = run_chunk(mp, bp, 500, 42, record=True)
    c = run_chunk(mp, bp, 500, 43, record=True)
    for key in ("success", "fail_trick", "rec_plays", "rec_hands"):
        assert np.array_equal(a[key], b[key])
    assert not np.array_equal(a["rec_hands"], c["rec_hands"])


def test_cross_check_meets_every_move_kind() -> None:
    """Distress, communication, the 5-player hand-over and mission 12's draw all occur in
    the recorded games the cross-check replays."""
    seen = {"distress": 0, "comms": 0, "handover": 0, "draws": 0}
    for mission in CAMPAIGN:
        for bot, distress in CREWS:
            mp = KernelMission(mission, 5, distress=distress).vector()
            rec = run_chunk(mp, get_bot(bot).vector(), 25, 1000 * mission.number + 5, record=True)
            seen["distress"] += int(rec["distress"].sum())
            seen["comms"] += int((rec["rec_comms"][:, :, 0] >= 0).sum())
            seen["handover"] += int((rec["rec_setup"][:, 3] >= 0).sum())
            seen["draws"] += int((rec["rec_draws"][:, 0] >= 0).sum())
    assert all(v > 0 for v in seen.values()), seen


def test_every_bot_meets_the_same_deals() -> None:
    """Deals and task draws have their own random stream, so bots compare on equal terms."""
    mp = KernelMission(CAMPAIGN[9], 4).vector()
    a = run_chunk(mp, get_bot("heuristic").vector(), 300, 9, record=True)
    b = run_chunk(mp, get_bot("random").vector(), 300, 9, record=True)
    assert np.array_equal(a["rec_hands"], b["rec_hands"])
    assert np.array_equal(a["rec_tasks"][:, :, 0], b["rec_tasks"][:, :, 0])


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_every_deep_sea_card_gets_an_owner(bot: str) -> None:
    """Selection leaves no card unowned, for every allocation rule and crew size (the random
    crew's two volunteers once came out of a miscompiled draw as one)."""
    for mission in DEEP_SEA:
        for players in PLAYERS:
            mp = KernelMission(mission, players).vector()
            rec = run_chunk(
                mp, get_bot(bot).vector(), 200, 7 * mission.number + players, record=True
            )
            for i, row in enumerate(rec["rec_ds"]):
                owners = row[16 : 16 + int(row[48])]
                seats = 3 if players == 2 else players
                assert ((owners >= 0) & (owners < seats)).all(), (
                    f"{mission.id} {players}p {bot} game {i}: {owners}"
                )


def test_rule_edges_agree_with_the_referee() -> None:
    """The readings of issue 50 occur in kernel games and the referee accepts them: the dummy
    passes in the two-player distress signal, pn-12's draw with JARVIS and with communicated
    cards lying face up, pn-46 won with a pink never played."""
    by_id = {m.id: m for m in CAMPAIGN}
    bad = _mismatches(by_id["pn-1"], 2, "heuristic", "always", 200)
    mp = KernelMission(by_id["pn-1"], 2, distress="always").vector()
    rec = run_chunk(mp, get_bot("heuristic").vector(), 200, 1002, record=True)
    assert (rec["rec_setup"][:, 6 + 2] >= 0).sum() > 150  # the dummy's face-up card passed
    for players in (2, 4):
        bad += _mismatches(by_id["pn-12"], players, "heuristic", "auto", 300)
    bad += _mismatches(by_id["pn-46"], 3, "heuristic", "auto", 400)
    assert not bad, bad[:5]
    mp = KernelMission(by_id["pn-46"], 3).vector()
    rec = run_chunk(mp, get_bot("heuristic").vector(), 400, 46003, record=True)
    kept = 0
    for i in np.flatnonzero(rec["success"]):
        state = replay(by_id["pn-46"], 3, rec, int(i))
        kept += state.in_hands & 0x1FF != 0  # a pink in hand after the last trick
    assert kept > 0
