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


def test_progress_written_to_a_file_is_one_line_when_the_job_ends() -> None:
    """A batch job's log gets no carriage-return frames: one plain line for the job, with its
    count (thousands separators), the elapsed time labelled and the rate."""
    import io

    from rich.console import Console

    from crewsim.cli.output import deals_bar

    log = io.StringIO()
    with deals_bar(2000, Console(file=log, force_terminal=False, width=200)) as advance:
        for _ in range(400):
            advance(5)
    (line,) = log.getvalue().splitlines()
    assert line.startswith("solving: 2,000 deals, elapsed 0:00:0")
    assert line.endswith(" deals/s") and "\r" not in log.getvalue()


def test_a_long_job_logs_a_line_every_few_minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from crewsim.cli import output

    monkeypatch.setattr(output, "LOG_EVERY", 0.0)  # as if each chunk took ten minutes
    log = io.StringIO()
    with output.games_bar("simulating", 3, Console(file=log, width=200)) as advance:
        for _ in range(3):
            advance(1)
    lines = log.getvalue().splitlines()
    assert lines[0].startswith("simulating: 1 of 3 games (33 %), elapsed 0:00:00, ")
    assert "ETA" in lines[0] and len(lines) == 3  # two on the way, then the end
    assert lines[-1].startswith("simulating: 3 games, elapsed ")


def test_quiet_draws_no_progress_and_says_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from rich.console import Console

    from crewsim.cli import output

    log = io.StringIO()
    output.set_quiet(True)
    try:
        with output.games_bar("simulating", 10, Console(file=log, width=200)) as advance:
            advance(10)
        output.say_err("1 cell")
        output.warn_if_long(10_000.0, "a long job")
    finally:
        output.set_quiet(False)
    assert log.getvalue() == "" and capsys.readouterr().err == ""


def test_a_long_job_is_announced_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from crewsim.cli.output import LONG_RUN, warn_if_long

    warn_if_long(LONG_RUN / 2, "a short job")
    assert capsys.readouterr().err == ""
    warn_if_long(2 * 3600.0, "9,000,000 games (3 cells x 3,000,000)")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expect about 2.0 h" in err and "9,000,000 games" in err


@pytest.mark.parametrize(
    ("n", "word", "text"),
    [
        (1, "game", "1 game"),
        (2, "game", "2 games"),
        (0, "cell", "0 cells"),
        (1000, "deal", "1,000 deals"),
    ],
)
def test_plural_counts(n: int, word: str, text: str) -> None:
    from crewsim.cli.options import plural

    assert plural(n, word) == text


def test_a_terminal_bar_labels_the_elapsed_time_and_separates_thousands() -> None:
    import io

    from rich.console import Console

    from crewsim.cli.output import games_bar

    log = io.StringIO()
    console = Console(file=log, force_terminal=True, width=150)
    with games_bar("simulating", 12_000, console) as advance:
        advance(12_000)
    text = log.getvalue()
    assert "12,000/12,000" in text and "elapsed" in text and "ETA" in text


def test_failure_reasons_name_deep_sea_cards_by_their_printed_sentence() -> None:
    from crewsim.cli.output import card_labels

    assert (
        card_labels("task card 57 (no5) failed (1.0%, most often trick 13)")
        == 'task card 57 "I will win no 5s" failed (1.0%, most often trick 13)'
    )
    assert card_labels("pink 3 won by the wrong player (2.0%)") == (
        "pink 3 won by the wrong player (2.0%)"
    )
