"""Where the compiled kernel is kept: one place for `make` and the command line."""

from __future__ import annotations

from pathlib import Path

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
