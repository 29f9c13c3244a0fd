"""`crewsim check-tasks`: proven contradictions (exit 1), clean combinations (exit 0), the
Monte Carlo estimate, bad input (exit 2 through the console entry) and the JSON shape."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app, main

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["check-tasks", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def _json(*args: str) -> tuple[int, dict[str, Any]]:
    result = runner.invoke(app, ["check-tasks", *args, "--format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)  # progress goes to stderr


# ---------------------------------------------------------------- proven contradictions


def test_first_trick_for_two_owners() -> None:
    code, out = _run("firstTrick", "onlyFirstTrick", "-p", "4", "--owners", "0,2")
    assert code == 1
    assert (
        'contradiction: 71 "I will win the first trick" (seat 0) and 69 "I will win only the '
        'first trick" (seat 2)' in " ".join(out.split())
    )
    assert "'firstTrick'" not in out  # a card as people name it, not its internal short name
    assert "both need to win trick 1" in out


def test_no_tricks_and_first_trick_for_one_owner() -> None:
    code, out = _run("4", "71", "-p", "3", "--owners", "1,1")
    assert code == 1
    assert (
        'at least 1 tricks for 71 "I will win the first trick" (seat 1) but at most 0 for '
        '4 "I will win 0 tricks"' in " ".join(out.split())
    )
    assert '  4 "I will win 0 tricks" (difficulty 4)' in out  # the card list, by label


def test_captain_comparison_card_given_to_the_captain() -> None:
    code, out = _run("moreTricksThanCaptain", "-p", "5", "--owners", "0")
    assert code == 1
    assert "the captain (seat 0) may never take 54 " in out


def test_one_line_per_contradiction() -> None:
    code, out = _run("71", "69", "4", "-p", "4", "--owners", "1,2,1")
    assert code == 1
    lines = [ln for ln in out.splitlines() if ln.startswith("contradiction: ")]
    assert len(lines) == 2  # trick 1 wanted twice; seat 1 must win it yet win nothing


def test_unavoidable_without_owners() -> None:
    """All four 9s and exactly two 9s clash whether one player or two take them."""
    code, doc = _json("4x9", "2x9", "-p", "4")
    assert code == 1 and doc["contradiction"] and doc["witness"] is None
    one, diff = doc["readings"]["one owner"], doc["readings"]["all different owners"]
    assert one["contradiction"] and "allows at most 2 of the 9s" in one["contradictions"][0]
    assert diff["contradiction"] and "need 6 of the 9s together" in diff["contradictions"][0]
    assert doc["contradictions"][0].startswith("every way the rules allow")


def test_captain_cards_cannot_all_be_placed_with_three_players() -> None:
    """Two non-captain seats for three captain-comparison cards: two of them share a seat."""
    code, doc = _json("52", "53", "54", "-p", "3")
    assert code == 1
    assert doc["readings"]["all different owners"]["owners"] is None
    assert "captain may take none" in doc["readings"]["all different owners"]["note"]


# ---------------------------------------------------------------- no contradiction


def test_harmless_combination() -> None:
    code, out = _run("noLeadRedGreen", "no9", "blue4", "-p", "4")
    assert code == 0
    assert "no contradiction found" in out and "contradiction:" not in out


def test_harmless_with_owners() -> None:
    code, out = _run("71", "75", "-p", "4", "--owners", "0,1")
    assert code == 0 and "no contradiction found" in out


def test_contradiction_depends_on_who_takes_them() -> None:
    """Two different owners both need trick 1, one owner is fine: not a proven contradiction."""
    code, doc = _json("firstTrick", "onlyFirstTrick", "-p", "4")
    assert code == 0 and not doc["contradiction"]
    diff = doc["readings"]["all different owners"]
    assert diff["contradiction"] and "both need to win trick 1" in diff["contradictions"][0]
    assert not doc["readings"]["one owner"]["contradiction"]
    assert doc["witness"] in ([1, 1], [0, 0])


def test_short_names_ignore_case() -> None:
    code, doc = _json("FIRSTTRICK", "lasttrick", "-p", "3")
    assert code == 0
    assert [t["number"] for t in doc["tasks"]] == [71, 75]


# ---------------------------------------------------------------- Monte Carlo


def test_monte_carlo_first_trick_for_the_captain() -> None:
    """The captain holds submarine 4 and leads trick 1: the bots never lose it."""
    code, doc = _json("firstTrick", "-p", "4", "--owners", "0", "-n", "2000", "--seed", "7")
    assert code == 0
    mc = doc["monte_carlo"]
    assert mc["games"] == 2000 and mc["bot"] == "heuristic" and mc["carrier"] == "ds-1"
    assert mc["success_rate"] >= 0.99
    assert 0 <= mc["ci_low"] <= mc["success_rate"] <= mc["ci_high"] <= 1


def test_monte_carlo_table_and_failing_card() -> None:
    code, out = _run("firstTrick", "lastTrick", "-p", "4", "-n", "2000")
    assert code == 0
    assert "Monte Carlo (heuristic crew, 2,000 deals, seed 0):" in out and "95 % CI" in out
    assert "most frequent failing card: " in out
    failing = out.split("most frequent failing card: ")[1].split()[0]
    assert failing in ("71", "75")


def test_monte_carlo_is_reproducible_and_in_range() -> None:
    args = ("0tricks", "no9", "-p", "3", "-n", "2000", "--seed", "11")
    _, a = _json(*args)
    _, b = _json(*args)
    assert a["monte_carlo"] == b["monte_carlo"]
    mc = a["monte_carlo"]
    assert 0 <= mc["successes"] <= 2000
    assert 0 <= mc["ci_low"] <= mc["success_rate"] <= mc["ci_high"] <= 1
    if mc["top_failing_card"] is not None:
        assert mc["top_failing_card"]["number"] in (4, 59)


def test_monte_carlo_numbers_do_not_depend_on_jobs() -> None:
    args = ("0tricks", "no9", "-p", "3", "-n", "25000", "--seed", "3")  # three chunks
    _, serial = _json(*args, "--jobs", "1")
    _, parallel = _json(*args, "--jobs", "2")
    assert serial["monte_carlo"] == parallel["monte_carlo"]


# ---------------------------------------------------------------- bad input: exit 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["99"], "unknown task card '99'"),
        (["nosuchtask"], "unknown task card"),
        (["71", "firstTrick"], "given twice"),
        (["71", "75", "--owners", "0"], "2 task(s) but 1 owner(s)"),
        (["71", "--owners", "4", "-p", "4"], "seat 4 out of range 0..3"),
        (["71", "--owners", "3", "-p", "2"], "seat 3 out of range 0..2"),
        (["71", "--owners", "a"], "expected seat numbers"),
        (["71", "-p", "6"], "expected 2 to 5"),
        (["71", "-p", "1"], "expected 2 to 5"),
        ([str(k) for k in range(1, 10)], "at most 8 tasks"),
        (["71", "-n", "-1"], "-n"),
        (["71", "--bot", "nobody", "-n", "10"], "unknown bot"),
        (
            ["71", "--bot", "pimc", "-n", "10"],
            "--bot pimc: the pimc crew plays no Deep Sea mission",
        ),
        (["71", "--ceiling"], "--ceiling solves deals the bots played: give -n too"),
        (["71", "-n", "10", "--ceiling-n", "5"], "--ceiling-n tunes --ceiling"),
        (["71", "-n", "10", "--ceiling", "--ceiling-n", "0"], "--ceiling-n: expected 1 or more"),
        (["71", "-n", "10", "--ceiling-conflicts", "9"], "--ceiling-conflicts tunes --ceiling"),
    ],
)
def test_bad_input_exits_2(
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "argv", ["crewsim", "check-tasks", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_contradiction_exits_1_through_main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["crewsim", "check-tasks", "4", "71", "--owners", "2,2"])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 1
    assert "contradiction: " in capsys.readouterr().out


# ---------------------------------------------------------------- JSON shape


def test_json_shape_with_owners() -> None:
    code, doc = _json("71", "4", "-p", "4", "--owners", "1,1", "-n", "500")
    assert code == 1
    assert set(doc) == {
        "players",
        "seats",
        "tasks",
        "owners",
        "contradiction",
        "contradictions",
        "readings",
        "witness",
        "notes",
        "monte_carlo",
    }
    assert doc["players"] == 4 and doc["seats"] == 4 and doc["owners"] == [1, 1]
    assert doc["tasks"][0] == {
        "number": 71,
        "ref_id": "firstTrick",
        "text": "I will win the first trick",
        "difficulty": 1,
        "owner": 1,
    }
    assert doc["contradiction"] is True and len(doc["contradictions"]) == 1
    assert doc["readings"] is None and doc["witness"] is None
    assert doc["notes"] == []  # two tasks, four players: anyone may pass, so one may take both
    mc = doc["monte_carlo"]
    assert set(mc) == {
        "games",
        "successes",
        "success_rate",
        "ci_low",
        "ci_high",
        "seed",
        "bot",
        "carrier",
        "top_failing_card",
        "failures",
        "ceiling",
    }
    assert mc["ceiling"] is None  # asked for with --ceiling
    assert mc["successes"] == 0 and mc["top_failing_card"]["number"] in (4, 71)
    assert set(mc["top_failing_card"]) == {"number", "ref_id", "games", "share"}
    assert sum(f["games"] for f in mc["failures"]) == 500


def test_json_without_monte_carlo() -> None:
    code, doc = _json("71", "-p", "2")
    assert code == 0 and doc["monte_carlo"] is None and doc["seats"] == 3
    assert doc["owners"] is None and doc["tasks"][0]["owner"] is None
    assert set(doc["readings"]) == {"one owner", "all different owners"}


def test_monte_carlo_progress_goes_to_stderr() -> None:
    """-n takes up to 10^10 games: a bar with rate and ETA on stderr (a line per tenth when
    stderr is a file), never mixed into the JSON on stdout."""
    result = runner.invoke(app, ["check-tasks", "71", "-p", "4", "-n", "40000", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["monte_carlo"]["games"] == 40000
    (line,) = [x for x in result.stderr.splitlines() if x.startswith("playing")]
    assert line.startswith("playing (heuristic crew): 40,000 games, elapsed 0:")


# ---------------------------------------------------------------- the ceiling beside the bots


def test_ceiling_solves_the_deals_the_bots_played() -> None:
    """The bots' wins in the ceiling are their wins in the first games of the Monte Carlo:
    the same deals, drafted as the bots drafted them; none of those wins is infeasible."""
    from crewsim.analysis.task_check import _chunks, _vectors
    from crewsim.engine.run import run_chunk
    from crewsim.missions import get_task_card

    code, doc = _json(
        "2black", "-p", "4", "-n", "3000", "--seed", "5", "--ceiling", "--ceiling-n", "80"
    )
    assert code == 0
    c = doc["monte_carlo"]["ceiling"]
    assert c["ceiling_games"] == 80 and c["conflicts"] == 30_000 and c["won_but_infeasible"] == 0
    mp, bp = _vectors([get_task_card("45")], None, 4, "heuristic")
    first = run_chunk(mp, bp, 3000, _chunks(4, 3000, 5)[0].seed)
    assert c["ceiling_wins"] == int(first["success"][:80].sum())
    assert c["ceiling_wins"] <= c["feasible_games"] <= c["decided_games"] <= 80
    assert 0 < c["feasible_share"] < 1  # two submarines of four: some drafts cannot
    assert c["feasible_low"] <= c["feasible_share"] <= c["feasible_high"]
    assert c["bot_efficiency"] == pytest.approx(c["ceiling_wins"] / c["feasible_games"])


def test_ceiling_agrees_with_the_rules() -> None:
    """The captain leads trick 1 with submarine 4: always winnable, and the bots always win
    it.  One owner cannot win the first trick and no trick: never winnable."""
    _, sure = _json(
        "firstTrick", "-p", "4", "--owners", "0", "-n", "500", "--ceiling", "--ceiling-n", "40"
    )
    c = sure["monte_carlo"]["ceiling"]
    assert c["feasible_share"] == 1.0 and c["bot_efficiency"] == 1.0
    code, never = _json(
        "firstTrick",
        "0tricks",
        "-p",
        "3",
        "--owners",
        "1,1",
        "-n",
        "500",
        "--ceiling",
        "--ceiling-n",
        "40",
    )
    assert code == 1
    c = never["monte_carlo"]["ceiling"]
    assert c["feasible_games"] == 0 and c["decided_games"] == 40 and c["ceiling_wins"] == 0


def test_ceiling_takes_owners_no_draft_could_give() -> None:
    """``--owners`` may give the captain a second card before every other seat has one (a
    note, not an error): the kernel plays it and the ceiling solves it all the same."""
    code, out = _run(
        "71",
        "72",
        "73",
        "74",
        "75",
        "-p",
        "4",
        "--owners",
        "0,1,1,2,3",
        "-n",
        "300",
        "--ceiling",
        "--ceiling-n",
        "20",
    )
    assert code in (0, 1), out
    assert "perfect-information ceiling (the first 20 of those deals, as the bots drafted " in out
    assert "the bots won " in out and " of the winnable ones" in out
