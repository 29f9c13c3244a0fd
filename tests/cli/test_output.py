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


def test_progress_written_to_a_file_is_a_line_every_tenth() -> None:
    """A batch job's log gets plain lines as the run goes (a live bar would show only at the
    end): one per tenth of the way, with the rate and what is left."""
    import io

    from rich.console import Console

    from crewsim.cli.output import deals_bar

    log = io.StringIO()
    with deals_bar(200, Console(file=log, force_terminal=False, width=200)) as advance:
        for _ in range(40):
            advance(5)
    lines = log.getvalue().splitlines()
    assert len(lines) == 10
    assert lines[0].startswith("solving: 20 of 200 deals (10 %), ")
    assert lines[-1].startswith("solving: 200 of 200 deals (100 %), ")
    assert "deals/s, ETA" in lines[-1]
