"""A file's deals solved in chunks on every core: the file's order, the same results whatever
the worker count, a deal the solver does not model said so."""

from __future__ import annotations

import json
from pathlib import Path

from crewsim.cards import Game
from crewsim.cli.deal import deal_record  # the deals `crewsim deal` writes
from crewsim.runs.solve_file import CHUNK, solve_deals
from crewsim.solver.deals import read_deals
from crewsim.solver.problem import Result


def _untimed(res: Result) -> tuple:
    return (res.verdict, res.nodes, res.tricks, res.designated, res.engine, res.reason)


def test_a_file_is_solved_on_every_core_in_file_order(tmp_path: Path) -> None:
    f = tmp_path / "many.jsonl"
    deals = [
        deal_record(3 + s % 3, Game.PLANET_NINE, s, ("pn-8", "pn-12", "pn-20")[s % 3])
        for s in range(45)
    ]
    f.write_text("\n".join(json.dumps(r) for r in deals) + "\n")
    records = list(read_deals(f))
    got = []
    for jobs in (1, -1):  # -1: every core, as in simulate
        heard: list[int] = []
        pairs = list(solve_deals(records, 200_000, 0, jobs, on_deals=heard.append))
        assert [rec.line for rec, _ in pairs] == list(range(1, 46))
        assert heard == [CHUNK, CHUNK, 45 - 2 * CHUNK]  # each chunk once its deals are out
        got.append([_untimed(res) for _, res in pairs])
    assert got[0] == got[1]
    verdicts = {v for v, *_ in got[0]}
    assert verdicts >= {"feasible", "unsupported"}
    unsupported = [r for r in got[0] if r[0] == "unsupported"]
    assert len(unsupported) == 15 and all("card draw" in r[5] for r in unsupported)
