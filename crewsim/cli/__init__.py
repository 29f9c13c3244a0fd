"""Typer command line: one module per command, each thin (parse, call the library, print)."""

import sys


def main() -> None:
    """The console script: loads the commands (numba, polars: about a second), then runs them;
    Ctrl-C while loading exits 130 without a traceback, as it does later."""
    try:
        from crewsim.cli.app import main as run
    except KeyboardInterrupt:
        sys.exit(130)
    run()
