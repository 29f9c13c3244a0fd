"""`make bench`: the kernel's performance figures beside the targets of issue 3.

Timings live here and never in the test suite, because a loaded CI machine would make a timed
test flaky.  Every single-core figure is the median of several runs after a JIT warm-up, so it
measures game time, not compilation.  Measurements that need a clean process (plain Python with
``NUMBA_DISABLE_JIT=1``, cold and cached compilation, peak memory of a long run) run in a child
interpreter that prints one JSON line; the parent never imports anything it would then measure.

Run ``python -m benchmarks.bench --help``; ``--quick`` uses toy sizes (the smoke test's mode) and
``--memory`` adds the 10-million-game peak-memory run, which takes minutes and is opt-in.
``--against REV`` measures instead this tree and another side by side (docs/speed.md).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from crewsim.runs.plan import RunConfig

MISSION = "pn-10"  # Planet Nine 10: 4 tasks, no tokens, normal communication
DEEP_SEA_MISSION = "ds-20"  # Deep Sea 20: task cards drawn to difficulty 10
TARGET_DEEP_SEA_GAMES_PER_S = 100_000
PLAYERS = 4
DISTRESS = "never"  # a distress signal changes the deal; keep the workload identical
SEED = 20_240
SECTIONS = ("throughput", "search", "python", "compile", "scaling", "memory")
DEFAULT_SECTIONS = ("throughput", "search", "python", "compile", "scaling")  # memory: opt-in

# targets of issue 3 ("Performance")
TARGET_GAMES_PER_S = 300_000.0
TARGET_RATIO = 100.0
TARGET_CACHED_S = 3.0
TARGET_SCALING_PER_CORE = 0.9  # 1.8x on 2 cores
TARGET_MEMORY_MIB = 1024.0
TARGET_SEARCH_GAMES_PER_S = {MISSION: 10.0, DEEP_SEA_MISSION: 4.0}  # issue 52


@dataclass(frozen=True)
class Sizes:
    """How much work each measurement does; ``QUICK`` shrinks all of it for the smoke test."""

    games: int = 200_000  # per timed single-core run: ~0.2-3 s, long enough to beat timer noise
    repeats: int = 5
    python_games: int = 2_000  # plain Python plays ~1 k games/s: keep it to seconds
    compile_games: int = 10
    scale_chunks: int = 8
    scale_chunk_size: int = 100_000
    scale_repeats: int = 3  # each parallel run costs seconds; the median of 3 is enough
    memory_games: int = 10_000_000
    search_games: int = 60  # the search crew plays ~10-30 games/s a core


QUICK = Sizes(
    games=2_000,
    repeats=2,
    python_games=100,
    compile_games=10,
    scale_chunks=4,
    scale_chunk_size=1_000,
    scale_repeats=1,
    memory_games=20_000,
    search_games=2,
)


@dataclass(frozen=True)
class Figure:
    """One row of the report: a measured value and the target it is held against."""

    key: str
    label: str
    value: float | None
    unit: str
    target: str = ""
    met: bool | None = None  # None: no target for this figure
    detail: str = ""


# ---------------------------------------------------------------- helpers


def _vectors(bot: str, mission: str = MISSION) -> tuple[np.ndarray, np.ndarray]:
    """The benchmark mission and a named crew as the kernel's vectors."""
    from crewsim.bots import get_bot
    from crewsim.kernel.spec import KernelMission
    from crewsim.missions import get_mission

    mp = KernelMission(get_mission(mission), PLAYERS, distress=DISTRESS).vector()
    return mp, get_bot(bot).vector()


def _time_it(fn: Callable[[], object], repeats: int) -> list[float]:
    """Wall-clock seconds of ``repeats`` calls of ``fn``."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return runs


def _child(code: str, env: dict[str, str] | None = None, timeout: float = 3600) -> dict[str, Any]:
    """Run ``code`` in a fresh interpreter and parse the JSON it prints on its last line.

    A fresh process is the only honest way to time an import, a cold cache or plain Python:
    the parent has numba's compiled code and the kernel's modules loaded already.
    """
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark child failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    lines = proc.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"benchmark child printed nothing:\n{proc.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def _digests(res: dict[str, np.ndarray]) -> dict[str, str]:
    """A hash per result column: compares whole outcome arrays across processes cheaply."""
    import hashlib

    from crewsim.engine.run import RESULT_COLUMNS

    return {
        c: hashlib.sha256(np.ascontiguousarray(res[c]).tobytes()).hexdigest()
        for c in RESULT_COLUMNS
    }


def machine() -> dict[str, Any]:
    """What the figures were measured on: they mean little without it."""
    import numba

    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count() or 1
    from crewsim.kernel import _versioned_cache_dir

    return {
        "kernel_sources": Path(_versioned_cache_dir()).name,  # which kernel was measured
        "cpu_model": model,
        "cpu_count": os.cpu_count() or 1,
        "usable_cpus": usable,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "platform": platform.platform(),
    }


# ---------------------------------------------------------------- 1, 2: single-core throughput


def throughput(
    bot: str, games: int, repeats: int, seed: int = SEED, mission: str = MISSION
) -> dict[str, Any]:
    """Games/s of one crew on one core: median of ``repeats`` runs of the same deals.

    The same seed every run keeps the workload identical, so the spread is timer and machine
    noise only.  The warm-up call loads (or compiles) the kernel before anything is timed.
    """
    from crewsim.engine.run import run_chunk

    mp, bp = _vectors(bot, mission)
    run_chunk(mp, bp, min(games, 1_000), seed)  # JIT warm-up
    last: dict[str, np.ndarray] = {}

    def once() -> None:
        last.update(run_chunk(mp, bp, games, seed))

    runs = _time_it(once, repeats)
    med = statistics.median(runs)
    return {
        "bot": bot,
        "mission": mission,
        "games": games,
        "repeats": repeats,
        "seconds": runs,
        "games_per_s": games / med,
        "best_games_per_s": games / min(runs),
        "success_rate": float(last["success"].mean()),
    }


def search_throughput(mission: str, games: int, repeats: int, seed: int = SEED) -> dict[str, Any]:
    """The search crew's games/s on one core (median of ``repeats`` runs of the same deals),
    with its searched decisions per game (and of them, the set-up's) and what they cost:
    worlds and rollouts each, the share the sequential test settled before the most worlds,
    the share of worlds the chain gave."""
    from crewsim.engine.run import new_state, run_chunk
    from crewsim.kernel import layout as L

    mp, bp = _vectors("search", mission)
    run_chunk(mp, bp, 1, seed)  # JIT warm-up
    state = new_state()
    last: dict[str, np.ndarray] = {}

    def once() -> None:
        state.search_stats[0] = 0
        last.update(run_chunk(mp, bp, games, seed, state=state))

    runs = _time_it(once, repeats)
    stats = state.search_stats[0]
    decisions = max(int(stats[L.SS_DECISIONS]), 1)
    worlds = max(int(stats[L.SS_WORLDS]), 1)
    return {
        "mission": mission,
        "games": games,
        "repeats": repeats,
        "seconds": runs,
        "games_per_s": games / statistics.median(runs),
        "success_rate": float(last["success"].mean()),
        "decisions_per_game": decisions / games,
        "setup_decisions_per_game": stats[L.SS_SETUP] / games,
        "worlds_per_decision": stats[L.SS_WORLDS] / decisions,
        "rollouts_per_decision": stats[L.SS_ROLLOUTS] / decisions,
        "settled_early": stats[L.SS_EARLY] / decisions,
        "chained_worlds": stats[L.SS_CHAINED] / worlds,
    }


# ---------------------------------------------------------------- 3: kernel vs plain Python

_PYTHON_CHILD = """
import json, time, warnings
import numpy as np
warnings.filterwarnings("ignore", category=RuntimeWarning)  # the RNG wraps int64 on purpose
import numba
from benchmarks.bench import _digests, _vectors
from crewsim.engine.run import run_chunk
mp, bp = _vectors({bot!r})
with np.errstate(all="ignore"):
    start = time.perf_counter()
    res = run_chunk(mp, bp, {games}, {seed})
    seconds = time.perf_counter() - start
print(json.dumps({{
    "jit_disabled": bool(numba.config.DISABLE_JIT),
    "seconds": seconds,
    "success": np.packbits(res["success"]).tobytes().hex(),
    "digests": _digests(res),
}}))
"""


def python_ratio(bot: str, games: int, repeats: int, seed: int = SEED) -> dict[str, Any]:
    """Kernel against the same source run unjitted (``NUMBA_DISABLE_JIT=1``) on the same deals.

    Same seed and ``n`` on both sides, so the two must also agree game for game: a mismatch
    means the kernel relies on something plain Python does differently (overflow, float
    rounding, integer widths) and the ratio would compare different work.
    """
    from crewsim.engine.run import run_chunk

    mp, bp = _vectors(bot)
    run_chunk(mp, bp, min(games, 1_000), seed)  # JIT warm-up
    kernel_res: dict[str, np.ndarray] = {}

    def once() -> None:
        kernel_res.update(run_chunk(mp, bp, games, seed))

    kernel_runs = _time_it(once, repeats)
    kernel_gps = games / statistics.median(kernel_runs)

    child = _child(
        _PYTHON_CHILD.format(bot=bot, games=games, seed=seed), env={"NUMBA_DISABLE_JIT": "1"}
    )
    if not child["jit_disabled"]:
        raise RuntimeError("the plain-Python child still had the JIT enabled")
    py_success = np.unpackbits(np.frombuffer(bytes.fromhex(child["success"]), dtype=np.uint8))
    py_success = py_success[:games].astype(np.bool_)
    mismatches = int((py_success != kernel_res["success"]).sum())
    python_gps = games / child["seconds"]
    return {
        "bot": bot,
        "games": games,
        "kernel_seconds": kernel_runs,
        "kernel_games_per_s": kernel_gps,
        "python_seconds": child["seconds"],
        "python_games_per_s": python_gps,
        "ratio": kernel_gps / python_gps,
        "same_outcomes": mismatches == 0,
        "success_mismatches": mismatches,
        "same_all_columns": child["digests"] == _digests(kernel_res),
    }


# ---------------------------------------------------------------- 4: compile time

_COMPILE_CHILD = """
import json, time
start = time.perf_counter()
from benchmarks.bench import _vectors
from crewsim.engine.run import run_chunk
mp, bp = _vectors("heuristic")
imported = time.perf_counter()
run_chunk(mp, bp, {games}, 1)
done = time.perf_counter()
import numba
print(json.dumps({{
    "import_s": imported - start,
    "first_run_s": done - imported,
    "total_s": done - start,
    "cache_dir": numba.config.CACHE_DIR,
}}))
"""


def compile_times(games: int = 10) -> dict[str, Any]:
    """Import plus first ``run_chunk`` in a fresh process: with an empty cache, then from it.

    Both children share one fresh ``NUMBA_CACHE_DIR``, so the first must compile everything
    and the second must find all of it; the user's own cache is never touched.
    """
    code = _COMPILE_CHILD.format(games=games)
    for _attempt in range(3):
        with tempfile.TemporaryDirectory(prefix="crewsim-bench-cache-") as cache:
            env = {"NUMBA_CACHE_DIR": cache}
            cold = _child(code, env=env)
            cached = _child(code, env=env)
            files = sum(1 for p in Path(cache).rglob("*") if p.is_file())
        if not cold["cache_dir"].startswith(cache):
            raise RuntimeError(
                f"the compile child did not use the fresh cache: {cold['cache_dir']}"
            )
        # the cache directory is named by a hash of the kernel sources: if it moved, someone
        # edited the kernel between the two children and "cached" was really a second cold run
        if cold["cache_dir"] == cached["cache_dir"]:
            break
    else:
        raise RuntimeError("the kernel sources kept changing during the compile measurement")
    return {"games": games, "cold": cold, "cached": cached, "cache_files": files}


# ---------------------------------------------------------------- 5: scaling


def _runner_config(games: int, jobs: int, chunk_size: int, seed: int = SEED) -> RunConfig:
    """The Monte Carlo runner's configuration for the benchmark cell (heuristic crew)."""
    from crewsim.bots import get_bot
    from crewsim.missions import get_mission
    from crewsim.runs.plan import RunConfig

    return RunConfig(
        missions=(get_mission(MISSION),),
        players=(PLAYERS,),
        games=games,
        bot=get_bot("heuristic"),
        seed=seed,
        jobs=jobs,
        distress=DISTRESS,
        chunk_size=chunk_size,
    )


def scaling(chunks: int, chunk_size: int, repeats: int, jobs: int | None = None) -> dict[str, Any]:
    """Games/s of the ``crewsim simulate`` runner with one job and with all cores, same work.

    This is the whole runner (chunks to Parquet, per-chunk counts), as users see it.  A small
    run first starts and warms the worker pool (loky reuses it), so neither side pays for
    process start-up or JIT loading inside the timed runs.
    """
    from crewsim.runs.montecarlo import run

    cores = jobs or os.cpu_count() or 1
    games = chunks * chunk_size
    out: dict[str, Any] = {"chunks": chunks, "chunk_size": chunk_size, "games": games}
    out["jobs"] = cores
    with tempfile.TemporaryDirectory(prefix="crewsim-bench-scale-") as tmp:
        root = Path(tmp)

        def timed(j: int, k: int) -> float:
            return run(_runner_config(games, j, chunk_size), root / f"j{j}-{k}").seconds

        run(_runner_config(cores * 1_000, cores, 1_000), root / "warm")  # pool + JIT warm-up
        run(_runner_config(1_000, 1, 1_000), root / "warm-serial")  # first Parquet write etc.
        serial = [timed(1, k) for k in range(repeats)]
        parallel = [timed(cores, k) for k in range(repeats)] if cores > 1 else serial
    out["serial_seconds"] = serial
    out["parallel_seconds"] = parallel
    out["serial_games_per_s"] = games / statistics.median(serial)
    out["parallel_games_per_s"] = games / statistics.median(parallel)
    out["speedup"] = out["parallel_games_per_s"] / out["serial_games_per_s"]
    return out


# ---------------------------------------------------------------- 6: peak memory

_MEMORY_CHILD = """
import json, os, resource, threading, time
from pathlib import Path
try:
    import psutil
except ImportError:
    psutil = None
from benchmarks.bench import _runner_config
from crewsim.runs.montecarlo import run

peak = {{"tree": 0, "pss": 0, "self": 0, "procs": 0}}
stop = threading.Event()

def sample():
    me = psutil.Process()
    while not stop.is_set():
        try:
            rss, pss = [], 0
            for p in [me, *me.children(recursive=True)]:
                try:
                    rss.append(p.memory_info().rss)
                    pss += getattr(p.memory_full_info(), "pss", 0)
                except psutil.Error:
                    pass
            peak["tree"] = max(peak["tree"], sum(rss))
            peak["pss"] = max(peak["pss"], pss)
            peak["self"] = max(peak["self"], rss[0] if rss else 0)
            peak["procs"] = max(peak["procs"], len(rss))
        except psutil.Error:
            pass
        stop.wait(0.05)

thread = threading.Thread(target=sample, daemon=True) if psutil else None
if thread:
    thread.start()
res = run(_runner_config({games}, -1, {chunk_size}), Path({out!r}))
stop.set()
if thread:
    thread.join()
try:  # reap the pool so RUSAGE_CHILDREN covers the workers
    from joblib.externals.loky import get_reusable_executor
    get_reusable_executor().shutdown(wait=True)
except Exception:
    pass
disk = sum(p.stat().st_size for p in Path({out!r}).rglob("*") if p.is_file())
print(json.dumps({{
    "games": res.games,
    "seconds": res.seconds,
    "sampled": psutil is not None,
    "tree_peak_bytes": peak["tree"],
    "tree_pss_peak_bytes": peak["pss"],
    "self_peak_bytes_sampled": peak["self"],
    "max_processes": peak["procs"],
    "self_maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "children_maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    "disk_bytes": disk,
}}))
"""


def peak_memory(games: int, chunk_size: int | None = None) -> dict[str, Any]:
    """Peak RSS of a ``games``-game run through the runner on all cores, in a fresh process.

    The headline is the sampled sum over the driver and its workers (an upper bound: shared
    library pages count once per process); ``ru_maxrss`` gives each process's own peak.
    """
    from crewsim.runs.plan import CHUNK_SIZE

    with tempfile.TemporaryDirectory(prefix="crewsim-bench-mem-") as tmp:
        code = _MEMORY_CHILD.format(
            games=games, chunk_size=chunk_size or CHUNK_SIZE, out=str(Path(tmp) / "run")
        )
        res = _child(code)
    mib = 1024 * 1024
    per_process = max(res["self_maxrss_kib"], res["children_maxrss_kib"]) / 1024
    res["tree_peak_mib"] = res["tree_peak_bytes"] / mib if res["sampled"] else None
    res["tree_pss_peak_mib"] = res["tree_pss_peak_bytes"] / mib if res["sampled"] else None
    res["max_process_peak_mib"] = per_process
    res["peak_mib"] = res["tree_peak_mib"] if res["sampled"] else per_process
    res["games_per_s"] = res["games"] / res["seconds"]
    return res


# ---------------------------------------------------------------- 7: side by side (--against)

AGAINST_MISSIONS = (MISSION, DEEP_SEA_MISSION)
AGAINST_GAMES = {MISSION: 50_000, DEEP_SEA_MISSION: 25_000}  # about half a second each

# A child serving one tree: it loads that tree's kernel, then plays one timed run per line it
# reads ("mission games") and answers with one JSON line.  Only APIs every version of crewsim
# since the Deep Sea kernel has, so an older tree can serve too.
_AGAINST_CHILD = """
import hashlib, json, sys, time
sys.path.insert(0, {tree!r})
import numpy as np
import crewsim
from crewsim.bots import get_bot
from crewsim.engine.run import run_chunk
from crewsim.kernel.spec import KernelMission
from crewsim.missions import get_mission
bp = get_bot("heuristic").vector()
mps = {{}}
for mission in {missions!r}:
    mps[mission] = KernelMission(get_mission(mission), {players}, distress={distress!r}).vector()
    run_chunk(mps[mission], bp, 1_000, {seed})  # loads (or compiles) the kernel
print(json.dumps({{"crewsim": crewsim.__file__}}), flush=True)
for line in sys.stdin:
    mission, games = line.split()
    wall, cpu = time.perf_counter(), time.process_time()
    res = run_chunk(mps[mission], bp, int(games), {seed})
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    h = hashlib.sha256()
    for col in ("success", "fail_trick", "fail_kind", "fail_detail"):
        h.update(np.ascontiguousarray(res[col]).tobytes())
    print(json.dumps({{
        "cpu_s": cpu, "wall_s": wall, "successes": int(res["success"].sum()),
        "digest": h.hexdigest(),
    }}), flush=True)
"""


def against_tree(spec: str) -> Path:
    """The checkout to measure against: a path holding ``crewsim/``, or a git revision of this
    repository, exported once to a temporary folder (kept, with its compiled kernel, for the
    next run)."""
    path = Path(spec).expanduser()
    if (path / "crewsim").is_dir():
        return path.resolve()
    root = Path(__file__).resolve().parent.parent
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{spec}^{{commit}}"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if sha.returncode != 0:
        raise ValueError(f"--against {spec}: neither a checkout nor a git revision")
    tree = Path(tempfile.gettempdir()) / f"crewsim-bench-{sha.stdout.strip()[:12]}"
    if not (tree / "crewsim").is_dir():
        part = tree.with_name(tree.name + ".part")
        shutil.rmtree(part, ignore_errors=True)
        part.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", sha.stdout.strip()], cwd=root, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(part)], input=archive.stdout, check=True)
        part.rename(tree)
    return tree


class _Server:
    """A child process serving one tree's kernel (``cache``: its compiled cache, None: this
    process's own setting), one timed run per request."""

    def __init__(self, tree: Path, cache: Path | None, seed: int) -> None:
        code = _AGAINST_CHILD.format(
            tree=str(tree),
            missions=list(AGAINST_MISSIONS),
            players=PLAYERS,
            distress=DISTRESS,
            seed=seed,
        )
        env = {**os.environ, "PYTHONPATH": str(tree)}
        if cache is not None:
            env["NUMBA_CACHE_DIR"] = str(cache)
        self.tree = tree
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        loaded = self._answer()
        if not Path(loaded["crewsim"]).resolve().is_relative_to(tree):
            self.close()
            raise RuntimeError(f"the child for {tree} imported another crewsim")

    def _answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the child for {self.tree} stopped ({self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def play(self, mission: str, games: int) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{mission} {games}\n")
        self.proc.stdin.flush()
        return self._answer()

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def against(
    spec: str,
    rounds: int = 15,
    games: dict[str, int] | None = None,
    seed: int = SEED,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """This tree against another (``spec``: a path or git revision), side by side: the heuristic
    crew's games per CPU-second on pn-10 and ds-20.  Each tree is served by a child process of
    its own; each round times one run of each mission on both, the order alternating, so
    both meet the same load within a second or two.  CPU time, not wall time: on a shared
    machine waiting for a core is not the kernel's.  Per mission: both medians over the
    rounds, their ratio, its spread (the lowest and highest per-round ratio) and whether both
    played the very same games (a digest of the outcome columns)."""
    say = progress or (lambda _msg: None)
    work = {**AGAINST_GAMES, **(games or {})}
    here = Path(__file__).resolve().parent.parent
    there = against_tree(spec)
    say(f"loading both kernels (a first use compiles one for minutes): {here} / {there}")
    # this tree keeps the caller's NUMBA_CACHE_DIR (or its checkout's); the other its own
    servers = {"this": _Server(here, None, seed)}
    try:
        servers["base"] = _Server(there, None if there == here else there / ".numba-cache", seed)
        runs: dict[str, dict[str, list[dict[str, Any]]]] = {
            m: {"this": [], "base": []} for m in AGAINST_MISSIONS
        }
        for r in range(rounds):
            order = ("this", "base") if r % 2 == 0 else ("base", "this")
            for m in AGAINST_MISSIONS:
                for name in order:
                    runs[m][name].append(servers[name].play(m, work[m]))
            if (r + 1) % 5 == 0 or r + 1 == rounds:
                say(f"round {r + 1}/{rounds}")
    finally:
        for server in servers.values():
            server.close()
    missions = {}
    for m in AGAINST_MISSIONS:
        this = [work[m] / x["cpu_s"] for x in runs[m]["this"]]
        base = [work[m] / x["cpu_s"] for x in runs[m]["base"]]
        ratios = [a / b for a, b in zip(this, base, strict=True)]
        digests = {x["digest"] for k in ("this", "base") for x in runs[m][k]}
        missions[m] = {
            "games": work[m],
            "this_games_per_s": statistics.median(this),
            "base_games_per_s": statistics.median(base),
            "ratio": statistics.median(this) / statistics.median(base),
            "ratio_median": statistics.median(ratios),
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
            "round_ratios": ratios,
            "wall_ratio": statistics.median(
                b["wall_s"] / a["wall_s"]
                for a, b in zip(runs[m]["this"], runs[m]["base"], strict=True)
            ),
            "same_games": len(digests) == 1,
            "successes": {k: runs[m][k][0]["successes"] for k in ("this", "base")},
        }
    return {
        "against": spec,
        "this_tree": str(here),
        "base_tree": str(there),
        "players": PLAYERS,
        "seed": seed,
        "rounds": rounds,
        "machine": machine(),
        "missions": missions,
    }


def render_against(report: dict[str, Any]) -> Any:
    """The side-by-side report as a rich table."""
    from rich.table import Table

    m = report["machine"]
    table = Table(
        title=f"crewsim bench — this tree against {report['against']}, heuristic crew, "
        f"{report['players']} players, 1 core",
        caption=f"games per CPU-second, medians of {report['rounds']} rounds (a run of each "
        f"tree, alternating); spread: the lowest and highest per-round ratio; "
        f"{m['cpu_model']}, {m['usable_cpus']} usable CPUs",
    )
    for col in ("mission", "this tree", "base", "ratio", "ratio spread", "same games"):
        table.add_column(col, justify="left" if col == "mission" else "right")
    for mission, r in report["missions"].items():
        table.add_row(
            f"{mission} ({r['games']:,} games)",
            f"{r['this_games_per_s']:,.0f} games/s",
            f"{r['base_games_per_s']:,.0f} games/s",
            f"{r['ratio']:.2f}×",
            f"{r['ratio_min']:.2f}–{r['ratio_max']:.2f}×",
            "yes" if r["same_games"] else "[red]NO[/]",
        )
    return table


# ---------------------------------------------------------------- the report


def _ok(value: float, target: float, higher: bool = True) -> bool:
    return value >= target if higher else value < target


def figures(results: dict[str, Any]) -> list[Figure]:
    """The report's rows, each measured value beside its target from issue 3."""
    rows: list[Figure] = []
    for bot in ("heuristic", "random"):
        t = results.get(f"throughput_{bot}")
        if t:
            target = TARGET_GAMES_PER_S if bot == "heuristic" else None
            rows.append(
                Figure(
                    f"{bot}_games_per_s",
                    f"{bot} crew, 1 core",
                    t["games_per_s"],
                    "games/s",
                    f"≥ {TARGET_GAMES_PER_S:,.0f}" if target else "",
                    _ok(t["games_per_s"], target) if target else None,
                    f"median of {t['repeats']} x {t['games']:,}; success {t['success_rate']:.1%}",
                )
            )
    d = results.get("throughput_deep_sea")
    if d:
        rows.append(
            Figure(
                "deep_sea_games_per_s",
                f"heuristic crew, {d['mission']}, 1 core",
                d["games_per_s"],
                "games/s",
                f"≥ {TARGET_DEEP_SEA_GAMES_PER_S:,.0f}",
                _ok(d["games_per_s"], TARGET_DEEP_SEA_GAMES_PER_S),
                f"median of {d['repeats']} x {d['games']:,}; success {d['success_rate']:.1%}",
            )
        )
    for mission, target in TARGET_SEARCH_GAMES_PER_S.items():
        r = results.get(f"search_{mission}")
        if r:
            rows.append(
                Figure(
                    f"search_games_per_s_{mission}",
                    f"search crew, {mission}, 1 core",
                    r["games_per_s"],
                    "games/s",
                    f"≥ {target:g}",
                    _ok(r["games_per_s"], target),
                    f"median of {r['repeats']} x {r['games']}; success {r['success_rate']:.1%}; "
                    f"{r['decisions_per_game']:.0f} decisions a game "
                    f"({r['setup_decisions_per_game']:.1f} in the set-up); "
                    f"per decision {r['worlds_per_decision']:.0f} worlds, "
                    f"{r['rollouts_per_decision']:.0f} rollouts; settled early "
                    f"{r['settled_early']:.0%}; worlds from the chain {r['chained_worlds']:.1%}",
                )
            )
    for bot in ("heuristic", "random"):
        p = results.get(f"python_{bot}")
        if p:
            same = "yes" if p["same_outcomes"] else f"NO ({p['success_mismatches']} differ)"
            rows.append(
                Figure(
                    f"{bot}_python_ratio",
                    f"{bot}: kernel ÷ plain Python",
                    p["ratio"],
                    "×",
                    f"≥ {TARGET_RATIO:.0f}×",
                    _ok(p["ratio"], TARGET_RATIO) and p["same_outcomes"],
                    f"Python {p['python_games_per_s']:,.0f} games/s, kernel "
                    f"{p['kernel_games_per_s']:,.0f} on the same {p['games']:,} deals; "
                    f"same outcomes: {same}",
                )
            )
    c = results.get("compile")
    if c:
        cold, cached = c["cold"], c["cached"]
        rows.append(
            Figure(
                "compile_cold_s",
                "JIT compile, cold",
                cold["total_s"],
                "s",
                "",
                None,
                f"import {cold['import_s']:.2f} s + first run {cold['first_run_s']:.2f} s",
            )
        )
        rows.append(
            Figure(
                "compile_cached_s",
                "JIT compile, cached",
                cached["total_s"],
                "s",
                f"< {TARGET_CACHED_S:.0f} s",
                _ok(cached["total_s"], TARGET_CACHED_S, higher=False),
                f"import {cached['import_s']:.2f} s + first run {cached['first_run_s']:.2f} s",
            )
        )
    s = results.get("scaling")
    if s:
        cores = s["jobs"]
        target = TARGET_SCALING_PER_CORE * cores
        rows.append(
            Figure(
                "scaling_speedup",
                f"scaling 1 → {cores} cores",
                s["speedup"],
                "×",
                f"≥ {target:.1f}×" if cores > 1 else "",
                _ok(s["speedup"], target) if cores > 1 else None,
                f"runner, {s['chunks']} x {s['chunk_size']:,} games: "
                f"{s['serial_games_per_s']:,.0f} → {s['parallel_games_per_s']:,.0f} games/s",
            )
        )
    m = results.get("memory")
    if m:
        rows.append(
            Figure(
                "memory_peak_mib",
                f"peak RSS, {m['games']:,} games",
                m["peak_mib"],
                "MiB",
                f"< {TARGET_MEMORY_MIB:,.0f} MiB",
                _ok(m["peak_mib"], TARGET_MEMORY_MIB, higher=False),
                f"RSS summed over {m['max_processes']} processes (driver, workers, helpers); "
                f"PSS (shared pages split) {m['tree_pss_peak_mib'] or 0:,.0f} MiB; largest process "
                f"{m['max_process_peak_mib']:,.0f} MiB; {m['games_per_s']:,.0f} games/s all cores",
            )
        )
    return rows


def run_bench(
    sizes: Sizes,
    sections: Iterable[str] = DEFAULT_SECTIONS,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure the chosen sections and return the report (machine, sizes, raw results, rows)."""
    wanted = set(sections)
    unknown = wanted - set(SECTIONS)
    if unknown:
        raise ValueError(f"unknown sections: {sorted(unknown)} (known: {', '.join(SECTIONS)})")
    say = progress or (lambda _msg: None)
    results: dict[str, Any] = {}
    errors: dict[str, str] = {}
    steps: list[tuple[str, str, str, Callable[[], dict[str, Any]]]] = []
    for bot in ("heuristic", "random"):
        steps.append(
            (
                "throughput",
                f"throughput_{bot}",
                f"throughput: {bot} crew, {sizes.repeats} x {sizes.games:,} games",
                partial(throughput, bot, sizes.games, sizes.repeats),
            )
        )
    steps.append(
        (
            "throughput",
            "throughput_deep_sea",
            f"throughput: heuristic crew on {DEEP_SEA_MISSION}, {sizes.repeats} x {sizes.games:,}",
            partial(throughput, "heuristic", sizes.games, sizes.repeats, SEED, DEEP_SEA_MISSION),
        )
    )
    for mission in TARGET_SEARCH_GAMES_PER_S:
        steps.append(
            (
                "search",
                f"search_{mission}",
                f"search crew on {mission}, {min(sizes.repeats, 3)} x {sizes.search_games} games",
                partial(search_throughput, mission, sizes.search_games, min(sizes.repeats, 3)),
            )
        )
    for bot in ("heuristic", "random"):
        steps.append(
            (
                "python",
                f"python_{bot}",
                f"plain Python: {bot} crew, {sizes.python_games:,} games",
                partial(python_ratio, bot, sizes.python_games, sizes.repeats),
            )
        )
    steps.append(
        (
            "compile",
            "compile",
            "compile: cold and cached, in fresh processes",
            partial(compile_times, sizes.compile_games),
        )
    )
    steps.append(
        (
            "scaling",
            "scaling",
            f"scaling: {sizes.scale_chunks} x {sizes.scale_chunk_size:,} games, 1 job vs all",
            partial(scaling, sizes.scale_chunks, sizes.scale_chunk_size, sizes.scale_repeats),
        )
    )
    steps.append(
        (
            "memory",
            "memory",
            f"memory: {sizes.memory_games:,} games through the runner",
            partial(peak_memory, sizes.memory_games),
        )
    )
    for section, key, message, measure in steps:
        if section not in wanted:
            continue
        say(message)
        try:
            results[key] = measure()
        except Exception as exc:  # one broken section must not hide the other figures
            errors[key] = _last_line(exc)
            say(f"[red]{key} failed:[/] {errors[key]}")
    return {
        "mission": {"id": MISSION, "players": PLAYERS, "distress": DISTRESS, "seed": SEED},
        "machine": machine(),
        "sizes": asdict(sizes),
        "results": results,
        "errors": errors,
        "figures": [asdict(f) for f in [*figures(results), *_error_rows(errors)]],
    }


def _last_line(exc: BaseException) -> str:
    """The gist of a failure (a child's traceback ends with its exception line)."""
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    text = next((ln for ln in reversed(lines) if "Error" in ln), lines[-1] if lines else "")
    return f"{type(exc).__name__}: {text}"[:300]


def _error_rows(errors: dict[str, str]) -> list[Figure]:
    """A failed measurement stays visible in the table as a MISS with its error."""
    return [
        Figure(f"{key}_error", f"{key}: failed", None, "", "", False, msg)
        for key, msg in errors.items()
    ]


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "games/s":
        return f"{value:,.0f} games/s"
    if unit == "×":
        return f"{value:,.1f}×" if value < 1000 else f"{value:,.0f}×"
    if unit == "s":
        return f"{value:.2f} s"
    return f"{value:,.0f} {unit}"


def render(report: dict[str, Any]) -> Any:
    """The report as a rich table (returned, so callers choose the console)."""
    from rich.table import Table

    m = report["machine"]
    mission = report["mission"]
    table = Table(
        title=f"crewsim bench — {mission['id']}, {mission['players']} players, "
        f"distress {mission['distress']}",
        caption=f"{m['cpu_model']}, {m['cpu_count']} CPUs ({m['usable_cpus']} usable); "
        f"Python {m['python']}, numba {m['numba']}, numpy {m['numpy']}",
    )
    table.add_column("measurement")
    table.add_column("result", justify="right")
    table.add_column("target", justify="right")
    table.add_column("", justify="center")
    table.add_column("detail", style="dim")
    for f in report["figures"]:
        status = {True: "[green]ok[/]", False: "[red]MISS[/]", None: ""}[f["met"]]
        table.add_row(f["label"], _fmt(f["value"], f["unit"]), f["target"], status, f["detail"])
    return table


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.bench",
        description="Kernel performance figures against the targets (issue 3).",
    )
    ap.add_argument(
        "--quick", action="store_true", help="toy sizes (smoke test), meaningless figures"
    )
    ap.add_argument("--games", type=int, help="games per timed single-core run (default 200,000)")
    ap.add_argument(
        "--repeats", type=int, help="timed runs per figure, median reported (default 5)"
    )
    ap.add_argument(
        "--memory", action="store_true", help="add the 10M-game peak-memory run (minutes)"
    )
    ap.add_argument("--memory-games", type=int, help="games of the memory run (default 10,000,000)")
    ap.add_argument("--only", help=f"comma-separated sections: {','.join(SECTIONS)}")
    ap.add_argument("--json", type=Path, help="also write the full report as JSON here")
    ap.add_argument(
        "--against",
        metavar="REV",
        help="side by side instead: pn-10 and ds-20 games/s of this tree and REV (a git "
        "revision or a path to another checkout), alternating child processes",
    )
    ap.add_argument(
        "--rounds", type=int, help="--against: rounds, a run of each tree each (default 15)"
    )
    args = ap.parse_args(argv)
    if args.only:
        unknown = {s.strip() for s in args.only.split(",")} - set(SECTIONS)
        if unknown:
            ap.error(f"--only: unknown sections {sorted(unknown)} (known: {','.join(SECTIONS)})")
    for name in ("games", "repeats", "memory_games", "rounds"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            ap.error(f"--{name.replace('_', '-')}: expected a positive integer, got {value}")
    return args


def _main_against(args: argparse.Namespace) -> int:
    """``--against REV``: the side-by-side table (``--games`` sets both missions' games per
    run, ``--rounds`` the rounds, ``--quick`` toy sizes)."""
    from rich.console import Console

    games = dict(AGAINST_GAMES)
    if args.quick:
        games = dict.fromkeys(AGAINST_MISSIONS, QUICK.games)
    if args.games:
        games = dict.fromkeys(AGAINST_MISSIONS, args.games)
    err = Console(stderr=True)
    try:
        report = against(
            args.against,
            rounds=args.rounds or (2 if args.quick else 15),
            games=games,
            progress=lambda msg: err.log(msg),
        )
    except (ValueError, RuntimeError, OSError, subprocess.SubprocessError) as exc:
        err.print(f"bench --against: {_last_line(exc)}")
        return 1
    console = Console()
    if not console.is_terminal:
        console = Console(width=150)
    console.print(render_against(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        err.print(f"report written to {args.json}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m benchmarks.bench``.

    Exit status 0 even when a figure misses its target (the bench reports, it does not gate);
    1 when a measurement itself failed.
    """
    from rich.console import Console

    args = _parse(argv)
    if args.against:
        return _main_against(args)
    sizes = QUICK if args.quick else Sizes()
    if args.games:
        sizes = replace(sizes, games=args.games)
    if args.repeats:
        sizes = replace(sizes, repeats=args.repeats)
    if args.memory_games:
        sizes = replace(sizes, memory_games=args.memory_games)
    if args.only:
        sections: tuple[str, ...] = tuple(s.strip() for s in args.only.split(",") if s.strip())
    else:
        sections = DEFAULT_SECTIONS + (("memory",) if args.memory else ())
    console = Console()
    if not console.is_terminal:  # piped (make bench | tee): do not wrap the table at 80 columns
        console = Console(width=150)
    err = Console(stderr=True)
    report = run_bench(sizes, sections, progress=lambda msg: err.log(msg))
    console.print(render(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        err.print(f"report written to {args.json}")
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
