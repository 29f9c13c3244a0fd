"""The console entry point's own behaviour (signals)."""

from __future__ import annotations

import signal

from crewsim.cli import app as app_module


def test_sigterm_goes_through_whatever_sigint_handler_is_in_place() -> None:
    """So a handler that lets a running call finish first (``backends._ctrl_c_after``) holds
    SIGTERM back too, instead of cutting the call."""
    hit: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: hit.append(signum))
    try:
        app_module._stop_on_term(signal.SIGTERM, None)
    finally:
        signal.signal(signal.SIGINT, old)
    assert hit == [signal.SIGINT]
