"""`python -m benchmarks.solver_bench --quick`: one row per task count, the two-player dummy and
each Deep Sea mission."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmarks import solver_bench as bench


def test_quick_bench_rows(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--quick", "--json", "--repeats", "2"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r.get("tasks"), r.get("players")) for r in rows[:5]] == [
        (1, 4),
        (3, 4),
        (6, 4),
        (10, 4),
        (bench.DUMMY_TASKS, 2),
    ]
    assert [r["mission"] for r in rows[5:]] == list(bench.DEEP)
    for r in rows:
        assert r["deals_per_s"] > 0 and r["median_ms"] <= r["p99_ms"] <= r["max_ms"]
        assert r["repeats"] == 2
        assert r["deals_per_s_min"] <= r["deals_per_s"] <= r["deals_per_s_max"]
        assert 0 < r["deals_per_s_low"] <= r["deals_per_s_high"]
        assert abs(r["feasible"] + r["infeasible"] + r["unknown"] - 1) < 1e-9
        assert 0 <= r["by_sat"] <= 1 and 0 <= r["sat_time"] <= 1
    assert rows[3]["by_sat"] > 0 and rows[3]["sat_time"] > rows[3]["by_sat"]  # 10 tasks: the tail


def test_the_rate_interval_covers_the_draw_of_deals() -> None:
    """Equal deal times leave nothing to resample; one slow deal among them widens the
    interval below the rate without it and keeps the all-deals rate inside."""
    even = np.full(200, 0.01)
    assert bench.rate_interval(even) == pytest.approx((100.0, 100.0))
    tail = even.copy()
    tail[0] = 1.0  # a hundred times slower: about a third of all the time
    low, high = bench.rate_interval(tail)
    assert low < 200 / tail.sum() < high <= 100.0 + 1e-9
    assert high - low > 20
