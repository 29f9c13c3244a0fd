"""Waves decide on chunk prefixes: the same stops whatever chunks a backend computed ahead, in
whatever order they landed.  Chunks here are made up (no kernel): binomial counts per seed."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import polars as pl
import pytest

from crewsim.bots import get_bot
from crewsim.missions import resolve_missions
from crewsim.runs.chunks import ChunkCounts
from crewsim.runs.plan import ChunkTask, RunConfig, plan
from crewsim.runs.stopping import CAP, PRECISION, SEPARATED, Stopping, Tally
from crewsim.runs.waves import ChunkKey, Settled, settle

RATES = {"pn-1": 0.95, "pn-2": 0.70, "pn-3": 0.69, "pn-4": 0.30}


def _config(stopping: Stopping, games: int = 40_000) -> RunConfig:
    return RunConfig(
        missions=tuple(resolve_missions(",".join(RATES))),
        players=(3, 4),
        games=games,
        bot=get_bot("heuristic"),
        chunk_size=1_000,
        stopping=stopping,
    )


def _made_up(config: RunConfig, task: ChunkTask) -> ChunkCounts:
    p = RATES[config.cells()[task.cell].mission.id]
    wins = int(np.random.default_rng(task.seed).binomial(task.games, p))
    return ChunkCounts(task, wins, 0, 0, pl.DataFrame(), 0.0)


def _settle(config: RunConfig, ahead: int, seed: int) -> tuple[Settled, int]:
    """Settle with a backend that lands a wave's chunks in a shuffled order and computes up to
    ``ahead`` more chunks of the same cells (as idle workers would); the chunks played."""
    tasks = plan(config)
    by_key = {(t.cell, t.index): t for t in tasks}
    landed: dict[ChunkKey, ChunkCounts] = {}
    shuffle = random.Random(seed)

    def play(wave: list[ChunkTask]) -> None:
        extra = [
            by_key[(t.cell, t.index + k)]
            for t in wave
            for k in range(1, ahead + 1)
            if (t.cell, t.index + k) in by_key
        ]
        todo = [*wave, *extra]
        shuffle.shuffle(todo)
        for t in todo:
            landed[(t.cell, t.index)] = _made_up(config, t)

    return settle(config, tasks, landed, play), len(landed)


@pytest.mark.parametrize(
    "stopping", [Stopping(0.01), Stopping(None, True), Stopping(0.004, True)], ids=str
)
def test_the_stops_do_not_depend_on_what_was_computed_ahead(stopping: Stopping) -> None:
    config = _config(stopping)
    first, _ = _settle(config, ahead=0, seed=1)
    for ahead, seed in ((1, 2), (3, 3), (7, 4)):
        assert _settle(config, ahead, seed)[0] == first


def test_precision_stops_each_cell_at_its_first_precise_prefix() -> None:
    config = _config(Stopping(0.01))
    settled, played = _settle(config, ahead=0, seed=0)
    assert set(settled.reasons) == {PRECISION}
    assert all(n < 40 for n in settled.chunks)  # p = 0.7 needs ~8,100 games, not 40,000
    assert played <= 2 * sum(settled.chunks)  # a wave at most doubles a cell
    tasks = plan(config)
    for c, n in enumerate(settled.chunks):
        mine = [_made_up(config, t) for t in tasks if t.cell == c][:n]
        tallies = [Tally(), Tally()]  # without the last chunk, with it
        for k, d in enumerate(mine):
            for t in range(2) if k < n - 1 else (1,):
                tallies[t] = tallies[t].plus(d.task.games, d.successes)
        assert tallies[1].precise(0.01) and not tallies[0].precise(0.01)  # not a chunk earlier


def test_a_tiny_width_plays_to_the_cap() -> None:
    settled, _ = _settle(_config(Stopping(0.0001), games=5_500), ahead=0, seed=0)
    assert settled.chunks == (6,) * 8 and set(settled.reasons) == {CAP}


def test_separate_plays_on_only_where_the_order_is_open() -> None:
    settled, played = _settle(_config(Stopping(None, True)), ahead=0, seed=0)
    reasons = dict(zip([f"{m}-{p}" for m in RATES for p in (3, 4)], settled.reasons, strict=True))
    assert reasons["pn-1-3"] == SEPARATED and reasons["pn-4-4"] == SEPARATED
    close = [settled.chunks[c] for c in (2, 3, 4, 5)]  # pn-2 and pn-3, 0.70 against 0.69
    apart = [settled.chunks[c] for c in (0, 1, 6, 7)]
    assert min(close) > max(apart) == 1
    assert played == sum(settled.chunks)


def test_no_stopping_is_one_wave_to_the_cap() -> None:
    calls: list[int] = []
    config = _config(Stopping(), games=3_000)
    tasks = plan(config)
    landed: dict[ChunkKey, ChunkCounts] = {}
    record: Callable[[list[ChunkTask]], None] = lambda wave: (  # noqa: E731
        calls.append(len(wave)),
        landed.update({(t.cell, t.index): _made_up(config, t) for t in wave}),
    )
    settled = settle(config, tasks, landed, record)
    assert calls == [24] and settled == Settled((3,) * 8, (CAP,) * 8)
