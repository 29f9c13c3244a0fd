"""Where the compiled kernel is kept (one place for `make` and the command line), and for
which processor it is compiled."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from crewsim import kernel


def test_a_checkout_keeps_its_compiled_code_where_make_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`make demo` exports NUMBA_CACHE_DIR=<checkout>/.numba-cache; run by hand afterwards,
    the command line must find the same folder, not compile again into the user's cache."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    checkout = Path(kernel.__file__).resolve().parents[2]
    assert kernel._cache_base() == checkout / ".numba-cache"
    makefile = (checkout / "Makefile").read_text()
    assert "NUMBA_CACHE_DIR ?= $(CURDIR)/.numba-cache" in makefile


def test_the_environment_chooses_another_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernel._cache_base() == tmp_path


def test_every_module_with_jitted_code_versions_the_cache() -> None:
    """A solver edit must not leave stale compiled code behind: ``deep_sea`` compiles in the
    Planet Nine search's constants and helpers, which ``cache=True`` alone never rechecks."""
    package = Path(kernel.__file__).resolve().parents[1]
    jitted = {p for p in package.rglob("*.py") if "@njit" in p.read_text()}
    assert jitted and jitted <= set(kernel.game_sources())


def test_the_kernel_compiles_for_this_machine_without_avx512(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every host feature but AVX-512's (which made the kernel's speed swing with unrelated
    edits), in the code generator the game loop is compiled by."""
    from llvmlite import binding

    monkeypatch.setattr(numba.config, "CPU_NAME", None)
    monkeypatch.setattr(numba.config, "CPU_FEATURES", None)
    host = binding.get_host_cpu_features()
    ours = {f[1:]: f[0] == "+" for f in str(kernel._features_without_avx512()).split(",")}
    assert ours.keys() == host.keys()
    for name, on in host.items():
        assert ours[name] == (on and not name.startswith("avx512") and name != "evex512"), name
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import crewsim.engine.run\n"
            "from numba.core.registry import cpu_target\n"
            "print(cpu_target.target_context.codegen()._tm_features)",
        ],
        env={k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CPU")},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "+avx512" not in run.stdout and "+64bit" in run.stdout


def test_the_user_still_chooses_the_target(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(numba.config, "CPU_NAME", None)
    monkeypatch.setattr(numba.config, "CPU_FEATURES", "+sse2")
    assert kernel._features_without_avx512() is None
    monkeypatch.setattr(numba.config, "CPU_FEATURES", None)
    monkeypatch.setattr(numba.config, "CPU_NAME", "generic")
    assert kernel._features_without_avx512() is None


def test_a_platform_llvm_cannot_ask_keeps_numba_s_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from llvmlite import binding

    def unsupported() -> None:
        raise RuntimeError("unsupported platform")

    monkeypatch.setattr(numba.config, "CPU_NAME", None)
    monkeypatch.setattr(numba.config, "CPU_FEATURES", None)
    monkeypatch.setattr(binding, "get_host_cpu_features", unsupported)
    assert kernel._features_without_avx512() is None


def test_the_kernel_compiles_at_o2_unless_the_user_chooses() -> None:
    """LLVM's -O2 (docs/speed.md: as fast as -O3, faster on Deep Sea); ``NUMBA_OPT`` wins."""
    code = "import crewsim.engine.run, numba\nprint(int(numba.config.OPT))"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_OPT"}
    for given, level in ((None, "2"), ("3", "3"), ("1", "1")):
        run = subprocess.run(
            [sys.executable, "-c", code],
            env=env if given is None else env | {"NUMBA_OPT": given},
            capture_output=True,
            text=True,
            check=True,
        )
        assert run.stdout.strip() == level, given


def test_code_compiled_at_another_level_is_kept_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_OPT", raising=False)
    ours = kernel._versioned_cache_dir()
    monkeypatch.setenv("NUMBA_OPT", "3")
    assert kernel._versioned_cache_dir() != ours
