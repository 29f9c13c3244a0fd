"""A command's refusal as a user sees it: status 2 and one line on stderr."""

from __future__ import annotations

import sys

import pytest

from crewsim.cli.app import main


def exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``crewsim argv`` through the entry point; its one error line, spaces collapsed."""
    old = sys.argv
    sys.argv = ["crewsim", *argv]
    try:
        with pytest.raises(SystemExit) as exc:
            main()
    finally:
        sys.argv = old
    assert exc.value.code == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return " ".join(lines[0].split())
