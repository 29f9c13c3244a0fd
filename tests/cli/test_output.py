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


def test_failure_reasons_are_data_in_json_and_csv_words_in_the_table() -> None:
    """The summary carries the reasons as columns; JSON lists them as objects, CSV keeps the
    columns, and only the terminal table turns them into sentences (Deep Sea cards by their
    printed sentence)."""
    import io

    import polars as pl
    from rich.console import Console

    from crewsim.cli.output import JSON_COLUMNS, failures_table, summary_csv, summary_rows
    from crewsim.missions import get_task_card
    from crewsim.runs.stats import FailureReason, failure_columns

    card = get_task_card(57)
    reasons = [FailureReason("condition", card.ref_id, 13, 0.5, 0.01)]
    row = {c: None for c in JSON_COLUMNS} | {"mission": "ds-9", "players": 4}
    summary = pl.DataFrame([row | failure_columns(reasons)], infer_schema_length=None)
    (json_row,) = summary_rows(summary)
    assert json_row["top_failures"] == [
        {"kind": "condition", "card": card.ref_id, "trick": 13, "trick_share": 0.5, "share": 0.01}
    ]
    assert not any(k.startswith("failure1_") for k in json_row)
    csv = pl.read_csv(io.StringIO(summary_csv(summary)))
    assert csv["failure1_card"].to_list() == [card.ref_id] and csv["failure2_kind"].is_null().all()
    console = Console(width=200, record=True)
    console.print(failures_table(summary))
    assert f'task card 57 "{card.text}" failed (1.0%, most often trick 13)' in console.export_text()
