"""Console helpers: a spinner for steps with nothing to count, silent where no one watches."""

from __future__ import annotations

import pytest

from crewsim.cli.output import busy


def test_busy_runs_its_step_and_leaves_a_pipe_clean(capsys: pytest.CaptureFixture[str]) -> None:
    """Piped or in CI, stderr is no terminal: the spinner must not litter a log with frames."""
    done = []
    with busy("fitting the balance model"):
        done.append(1)
    assert done == [1]
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_busy_lets_an_error_through() -> None:
    """A one-line error raised inside a step reaches the CLI's handler unchanged."""
    with pytest.raises(ValueError, match="bad run"), busy("reading the run"):
        raise ValueError("bad run")
