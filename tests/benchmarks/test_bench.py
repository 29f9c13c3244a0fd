"""`benchmarks.bench` at toy sizes: the report's structure, never its timings.

Timings belong to ``make bench``; asserting on them here would make the suite flaky on a loaded
machine.  What must hold at any size: every section produces its figures, the kernel and plain
Python agree game for game, and the JSON report is complete and serialisable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import bench

TOY = bench.Sizes(
    games=500,
    repeats=1,
    python_games=40,
    compile_games=5,
    scale_chunks=2,
    scale_chunk_size=500,
    scale_repeats=1,
    memory_games=2_000,
)
FIGURE_FIELDS = {"key", "label", "value", "unit", "target", "met", "detail"}


def _keys(report: dict[str, Any]) -> list[str]:
    return [f["key"] for f in report["figures"]]


def test_throughput_python_and_scaling_report(tmp_path: Path) -> None:
    report = bench.run_bench(TOY, ("throughput", "python", "scaling"))
    assert set(report) == {"mission", "machine", "sizes", "results", "errors", "figures"}
    assert report["errors"] == {}
    assert report["mission"]["id"] == bench.MISSION and report["mission"]["players"] == 4
    assert report["machine"]["cpu_count"] >= 1 and report["machine"]["cpu_model"]
    assert _keys(report) == [
        "heuristic_games_per_s",
        "random_games_per_s",
        "deep_sea_games_per_s",
        "heuristic_python_ratio",
        "random_python_ratio",
        "scaling_speedup",
    ]
    for fig in report["figures"]:
        assert set(fig) == FIGURE_FIELDS
        assert fig["value"] is not None and fig["value"] > 0
    res = report["results"]
    for bot in ("heuristic", "random"):
        assert len(res[f"throughput_{bot}"]["seconds"]) == TOY.repeats
        py = res[f"python_{bot}"]
        assert py["same_outcomes"] and py["success_mismatches"] == 0
        assert py["same_all_columns"]
    assert res["scaling"]["games"] == TOY.scale_chunks * TOY.scale_chunk_size
    json.dumps(report)  # the --json file must be writable as is


def test_memory_section_reports_a_peak() -> None:
    report = bench.run_bench(TOY, ("memory",))
    assert report["errors"] == {}
    mem = report["results"]["memory"]
    assert mem["games"] == TOY.memory_games
    assert mem["peak_mib"] > 0 and mem["max_process_peak_mib"] > 0
    assert _keys(report) == ["memory_peak_mib"]


@pytest.mark.slow  # a cold compile of the whole kernel takes 10-20 s
def test_compile_section_cold_then_cached() -> None:
    report = bench.run_bench(TOY, ("compile",))
    assert report["errors"] == {}
    comp = report["results"]["compile"]
    assert comp["cache_files"] > 0
    assert comp["cold"]["cache_dir"] == comp["cached"]["cache_dir"]
    assert _keys(report) == ["compile_cold_s", "compile_cached_s"]


def test_figures_hold_values_against_targets() -> None:
    results = {
        "throughput_heuristic": {
            "games_per_s": 400_000.0,
            "repeats": 5,
            "games": 1,
            "success_rate": 0.3,
        },
        "python_random": {
            "ratio": 500.0,
            "same_outcomes": False,
            "success_mismatches": 3,
            "python_games_per_s": 1.0,
            "kernel_games_per_s": 500.0,
            "games": 10,
        },
        "scaling": {
            "jobs": 2,
            "speedup": 1.5,
            "chunks": 2,
            "chunk_size": 1,
            "serial_games_per_s": 1.0,
            "parallel_games_per_s": 1.5,
        },
    }
    met = {f.key: f.met for f in bench.figures(results)}
    assert met == {
        "heuristic_games_per_s": True,
        "random_python_ratio": False,  # fast, but on different outcomes: not comparable
        "scaling_speedup": False,
    }


def test_main_prints_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bench.json"
    argv = ["--quick", "--only", "throughput", "--games", "300", "--repeats", "1"]
    assert bench.main([*argv, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "heuristic crew" in printed and "games/s" in printed
    report = json.loads(out.read_text())
    assert report["sizes"]["games"] == 300
    assert _keys(report) == ["heuristic_games_per_s", "random_games_per_s", "deep_sea_games_per_s"]


def test_a_failed_section_becomes_an_error_row(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object) -> dict[str, Any]:
        raise RuntimeError("child failed:\nTraceback ...\nTypingError: no such field")

    monkeypatch.setattr(bench, "compile_times", broken)
    report = bench.run_bench(TOY, ("compile",))
    assert report["errors"] == {"compile": "RuntimeError: TypingError: no such field"}
    (row,) = report["figures"]
    assert row["key"] == "compile_error" and row["met"] is False and row["value"] is None


@pytest.mark.parametrize("argv", [["--only", "nonsense"], ["--games", "0"]])
def test_bad_arguments_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        bench.main(argv)
    assert exc.value.code == 2


def test_search_section_reports_speed_and_what_decisions_cost() -> None:
    report = bench.run_bench(TOY, ("search",))
    assert report["errors"] == {}
    assert _keys(report) == [f"search_games_per_s_{m}" for m in bench.TARGET_SEARCH_GAMES_PER_S]
    for mission in bench.TARGET_SEARCH_GAMES_PER_S:
        r = report["results"][f"search_{mission}"]
        assert r["games_per_s"] > 0 and r["decisions_per_game"] > 1
        assert r["rollouts_per_decision"] >= 2 * r["worlds_per_decision"] > 0
        assert 0 <= r["settled_early"] <= 1 and 0 <= r["chained_worlds"] <= 1


def test_against_itself_plays_the_same_games() -> None:
    root = Path(bench.__file__).resolve().parent.parent
    report = bench.against(str(root), rounds=2, games=dict.fromkeys(bench.AGAINST_MISSIONS, 200))
    assert set(report["missions"]) == set(bench.AGAINST_MISSIONS)
    for row in report["missions"].values():
        assert row["same_games"]
        assert row["successes"]["this"] == row["successes"]["base"]
        assert len(row["round_ratios"]) == 2 and row["ratio"] > 0
        assert row["ratio_min"] <= row["ratio_median"] <= row["ratio_max"]
    json.dumps(report)


def test_against_refuses_what_is_neither_a_checkout_nor_a_revision(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="neither a checkout nor a git revision"):
        bench.against_tree(str(tmp_path / "nowhere-at-all"))
