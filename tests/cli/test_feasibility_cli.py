"""`crewsim feasibility` from the command line: random and heuristic-bot drafts."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app
from crewsim.errors import CrewsimError

runner = CliRunner()


def _rows(args: list[str], as_json: str = "--json") -> list[dict]:
    """The JSON's cells, read as strict parsers (jq, JavaScript) read them: no NaN, no
    Infinity; ``--json`` and ``-f json`` print the same."""
    result = runner.invoke(app, ["feasibility", *args, "--jobs", "1", *as_json.split()])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout, parse_constant=_not_json)
    assert {"draft", "seed", "budget", "conflicts"} <= doc.keys()
    return doc["cells"]


def _not_json(token: str) -> None:
    raise AssertionError(f"{token} is not JSON")


def test_one_json_row_per_cell() -> None:
    """The numbers themselves: ``tests/analysis/test_feasibility_cells.py``."""
    rows = _rows(["pn-1", "pn-3", "-n", "30", "--seed", "2"])
    assert [r["mission"] for r in rows] == ["pn-1", "pn-3"]
    assert all(r["draft"] == "random" and r["deals"] == 30 for r in rows)
    assert all(r["unsupported"] is None for r in rows)


def test_the_heuristic_draft_shows_what_the_bots_won() -> None:
    (row,) = _rows(["pn-4", "-n", "40", "--seed", "3", "--draft", "heuristic"])
    assert {"bot_success_share", "won_but_infeasible"} <= row.keys()
    table = runner.invoke(
        app,
        ["feasibility", "pn-4", "-n", "40", "--seed", "3", "--jobs", "1", "--draft", "heuristic"],
    )
    assert "bots won" in table.stdout and "40 deals solved" in table.stderr


def test_counts_are_read_as_people_write_them() -> None:
    assert [r["deals"] for r in _rows(["pn-2", "-n", "2e1"])] == [20]
    assert [r["deals"] for r in _rows(["pn-2", "-n", "1_0"])] == [10]


def test_feasibility_says_how_many_deals_it_solved() -> None:
    result = runner.invoke(app, ["feasibility", "pn-2", "-n", "20", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "20 deals solved in" in result.stderr and "solved" not in result.stdout
    as_json = runner.invoke(app, ["feasibility", "pn-2", "-n", "20", "--jobs", "1", "--json"])
    assert "20 deals solved in" in as_json.stderr and "solved" not in as_json.stdout


def test_feasibility_refuses_unsupported() -> None:
    with pytest.raises(CrewsimError, match="unsupported: pn-12"):
        runner.invoke(app, ["feasibility", "pn-12", "-n", "5"], catch_exceptions=False)


def test_unsupported_missions_among_others_get_a_line_of_their_own() -> None:
    """In the command line's order and of one shape: the same keys, null where unsolved."""
    rows = _rows(["pn-11..13", "-p", "3,4", "-n", "5"])
    assert [(r["mission"], r["players"]) for r in rows] == [
        ("pn-11", 3),
        ("pn-11", 4),
        ("pn-12", 3),
        ("pn-12", 4),
        ("pn-13", 3),
        ("pn-13", 4),
    ]
    assert all(r.keys() == rows[0].keys() for r in rows)
    assert [r["unsupported"] is not None for r in rows] == [False, False, True, True, False, False]
    assert rows[2]["unsupported"].startswith("pn-12: ") and rows[2]["feasible_share"] is None
    table = runner.invoke(app, ["feasibility", "pn-11..13", "-n", "5", "--jobs", "1"])
    assert table.exit_code == 0, table.output
    assert "left out: pn-12: the random card draw" in table.output


def test_a_cell_with_no_deal_decided_has_a_null_share_not_nan() -> None:
    """Every deal unknown (no SAT engine, a budget of one play): no share, and valid JSON."""
    (row,) = _rows(["pn-10", "-p", "4", "-n", "5", "--budget", "1", "--conflicts", "0"])
    assert row["unknown"] == 5 and row["feasible_share"] is None


def test_feasibility_refuses_an_unknown_draft() -> None:
    with pytest.raises(CrewsimError, match="--draft"):
        runner.invoke(
            app, ["feasibility", "pn-2", "-n", "5", "--draft", "greedy"], catch_exceptions=False
        )


def test_the_table_says_how_many_deals_the_sat_engine_decided() -> None:
    table = runner.invoke(app, ["feasibility", "pn-30", "-p", "4", "-n", "10", "--jobs", "1"])
    assert table.exit_code == 0, table.output
    assert "by SAT" in table.stdout


def test_json_alias_and_csv_give_the_same_cells() -> None:
    """``--json`` is ``-f json``; ``-f csv`` is the same rows, one per cell."""
    import io

    import polars as pl

    args = ["pn-1", "pn-3", "-n", "20", "--seed", "2"]

    def timeless(rows: list[dict]) -> list[dict]:  # solve times differ run to run
        return [{k: v for k, v in r.items() if not k.endswith("_ms")} for r in rows]

    rows = _rows(args)
    assert timeless(_rows(args, "-f json")) == timeless(rows)
    result = runner.invoke(app, ["feasibility", *args, "--jobs", "1", "-f", "csv"])
    assert result.exit_code == 0, result.output
    df = pl.read_csv(io.StringIO(result.stdout))
    assert df["mission"].to_list() == ["pn-1", "pn-3"] and df["deals"].to_list() == [20, 20]
    both = runner.invoke(app, ["feasibility", *args, "--json", "-f", "csv"])
    assert isinstance(both.exception, CrewsimError) and "give one of them" in str(both.exception)


def test_the_help_lists_the_drafts_it_knows() -> None:
    from crewsim.analysis.feasibility import DRAFTS

    text = " ".join(runner.invoke(app, ["feasibility", "--help"]).stdout.split())
    assert "[" + "|".join(DRAFTS) + "]" in text
