"""Hand-checkable deals (tests/solver/golden.jsonl, written by make_golden.py) and their
verdicts; each line says why.  Feasible lines also replay through the referee as wins."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from crewsim.solver.api import solve
from crewsim.solver.deals import parse_record
from tests.solver.helpers import replay

GOLDEN = Path(__file__).with_name("golden.jsonl")


def test_golden_verdicts() -> None:
    records = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    assert len(records) >= 50
    tokens = Counter(t["token"] for r in records for t in r["tasks"])
    assert set(tokens) >= {None, "1", "2", "3", "4", "5", ">", ">>", ">>>", ">>>>", "omega"}
    assert {r["players"] for r in records} == {2, 3, 4, 5}
    for k, rec in enumerate(records, start=1):
        problem, why = parse_record(rec)  # the notes (_expect, _why) are not read
        assert problem is not None, why
        res = solve(problem, budget=2_000_000)
        assert res.verdict == rec["_expect"], f"line {k}: {rec['_why']}"
        if res.verdict == "feasible":
            g = replay(problem, res)
            assert g.outcome is not None and g.outcome.success, f"line {k}"


def test_golden_verdicts_from_the_sat_engine_alone() -> None:
    """The same deals with the search giving up at once: the SAT engine answers each (the
    two-player dummy's stacks and the 3-player unplayed card included)."""
    for k, line in enumerate(GOLDEN.read_text().splitlines(), start=1):
        rec = json.loads(line)
        problem, why = parse_record(rec)  # the notes (_expect, _why) are not read
        assert problem is not None, why
        res = solve(problem, budget=1, conflicts=10**6)
        assert res.verdict == rec["_expect"], f"line {k}: {rec['_why']}"
        if res.verdict == "feasible":
            g = replay(problem, res)
            assert g.outcome is not None and g.outcome.success, f"line {k}"
