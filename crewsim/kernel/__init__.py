"""The numba fast path: whole chunks of games with int64 bitmask hands and no Python objects.

numba's ``cache=True`` only notices edits to a jitted function's own file, not to its callees
or constants in other modules, so the cache directory is versioned by a hash of every jitted
source: the kernel's, the bots' (the game loop compiles in every decision) and the solver's
(its searches compile in the kernel's bits and judges, and the Deep Sea search compiles in
the Planet Nine search's constants and helpers).

The game loop's helpers are ``forceinline=True``: LLVM inlines them (as separate calls, passing
a dozen arrays each, they cost about 40 % of the speed), while numba's own IR inlining
(``inline="always"``) took twice as long to compile (210 s against 95 s cold).
"""

import hashlib
import os
from pathlib import Path
from typing import Any

import numba
from llvmlite import binding


def _cache_base() -> Path:
    """``NUMBA_CACHE_DIR``, else a source checkout's ``.numba-cache`` (where ``make`` keeps it,
    so ``make demo`` and the command line share one compiled kernel), else the user's cache."""
    if env := os.environ.get("NUMBA_CACHE_DIR"):
        return Path(env)
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "Makefile").is_file():
        return checkout / ".numba-cache"
    return Path.home() / ".cache" / "crewsim-numba"


def game_sources() -> list[Path]:
    """The files that decide how a game is played: the kernel, the bots, the engine, the
    solver (the pimc crew plays by it) and the card tables they compile in (a run folder
    records their digest); every jitted file among them."""
    package = Path(__file__).resolve().parents[1]
    folders = ("kernel", "bots", "engine", "solver")
    return sorted(
        [*(p for f in folders for p in package.joinpath(f).glob("*.py")), package / "cards.py"]
    )


def _features_without_avx512() -> str | None:
    """The host's CPU features less AVX-512, for numba's code generation; None where the user
    chose the target (``NUMBA_CPU_NAME``/``NUMBA_CPU_FEATURES``) or turned AVX off."""
    config: Any = numba.config  # (its settings are set at import: no type stubs)
    if config.CPU_NAME is not None or config.CPU_FEATURES is not None or not config.ENABLE_AVX:
        return None
    try:
        features = binding.get_host_cpu_features()
    except RuntimeError:  # (a platform LLVM cannot ask: numba then gives no features either)
        return None
    for name in features:
        if name.startswith("avx512") or name == "evex512":
            features[name] = False
    return str(features.flatten())


def _opt_level() -> Any:
    """numba's optimisation level: LLVM's -O2 unless the user set ``NUMBA_OPT`` (docs/speed.md:
    as fast as -O3 on Planet Nine, a few per cent faster on Deep Sea)."""
    config: Any = numba.config
    if "NUMBA_OPT" in os.environ:
        return config.OPT
    return config._OptLevel(2)


def _versioned_cache_dir() -> str:
    """A folder per version of the game sources and per ``NUMBA_OPT`` (numba's own cache
    index does not tell code compiled at one level from another)."""
    digest = hashlib.sha256(f"NUMBA_OPT={os.environ.get('NUMBA_OPT', '')}".encode())
    for src in game_sources():
        digest.update(src.read_bytes())
    return str(_cache_base() / digest.hexdigest()[:16])


numba.config.CACHE_DIR = _versioned_cache_dir()  # type: ignore[attr-defined]
numba.config.CPU_FEATURES = _features_without_avx512()  # type: ignore[attr-defined]
numba.config.OPT = _opt_level()  # type: ignore[attr-defined]
