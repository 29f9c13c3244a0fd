"""The `crewsim` entry point: assembles the commands and turns user errors into exit 2."""

from __future__ import annotations

import signal
import sys

import typer
from rich.console import Console
from rich.markup import escape

from crewsim import __version__
from crewsim.cli import (
    autopsy,
    balance,
    check_tasks,
    compare,
    deal,
    feasibility,
    missions,
    rank,
    report,
    simulate,
    solve,
    tasks,
    validate,
)
from crewsim.errors import CrewsimError

app = typer.Typer(
    name="crewsim",
    help="Monte Carlo mission analyzer for The Crew: Planet Nine and Mission Deep Sea.",
    epilog="Missions, task cards and bot crews are read from the folder CREWSIM_SCENARIOS "
    "names (a copy of scenarios/ to edit), else from the shipped scenarios/.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help text is plain: "[heuristic]" and "[[missions]]" stay
    add_completion=False,
)
app.add_typer(missions.app, name="missions")
app.add_typer(tasks.app, name="tasks")
app.command("deal")(deal.deal)
app.command("validate")(validate.validate)
app.command("simulate")(simulate.simulate)
app.command("solve")(solve.solve_cmd)
app.command("feasibility")(feasibility.feasibility)
app.command("rank")(rank.rank)
app.command("report")(report.report)
app.command("compare")(compare.compare)
app.command("autopsy")(autopsy.autopsy)
app.command("balance")(balance.balance)
app.command("check-tasks")(check_tasks.check_tasks)

err_console = Console(stderr=True)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"crewsim {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version."
    ),
) -> None:
    """Monte Carlo mission analyzer for The Crew."""


def _stop_on_term(signum: int, frame: object) -> None:
    """SIGTERM (``timeout``, a batch system, ``kill``) stops a command as Ctrl-C does, through
    whatever SIGINT handler is in place (one that lets a running call finish first): a
    simulation then says how far it got and how to resume.  A script's background job starts
    with SIGINT ignored, which would ignore this too: then it is Ctrl-C's own exception."""
    if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL, None):
        raise KeyboardInterrupt
    signal.raise_signal(signal.SIGINT)


def main() -> None:
    """Console-script entry: user errors become one red line and exit status 2."""
    signal.signal(signal.SIGTERM, _stop_on_term)
    try:
        code = app(standalone_mode=False, prog_name="crewsim")  # also under `python -m`
    except CrewsimError as exc:
        err_console.print(
            f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True
        )
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:  # click's word for Ctrl-C (or end of input at a prompt)
        err_console.print("interrupted")
        sys.exit(130)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
    except typer.TyperException as exc:  # usage errors (bad option, bad value): one line
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())  # `crewsim` or `crewsim missions` alone: just the help
            sys.exit(0)
        hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
        message = exc.format_message().replace("Value error, ", "")  # typer's parser wording
        err_console.print(
            f"[bold red]error:[/] {escape(message)}{hint}",
            highlight=False,
            soft_wrap=True,
        )
        sys.exit(exc.exit_code)
    if isinstance(code, int):
        sys.exit(code)
