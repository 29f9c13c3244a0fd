"""The `crewsim` entry point: assembles the commands and turns user errors into exit 2."""

from __future__ import annotations

import signal
import sys

import typer
from rich.console import Console
from rich.markup import escape
from typer import _click as click  # typer's own click: its types, not the installed one's
from typer.core import TyperGroup

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
from crewsim.cli.output import set_quiet
from crewsim.errors import CrewsimError

# The commands in the order of use, each group under its heading in `crewsim --help`, each
# with a one-line summary short enough never to be cut.
GROUPS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Look up",
        (
            ("missions", "List the missions; explain one mission's rules."),
            ("tasks", "List the Deep Sea task cards; show one card."),
            ("deal", "Deal one hand set (text, or JSON for solve)."),
        ),
    ),
    ("Simulate", (("simulate", "Play many deals with a bot crew; success rates."),)),
    (
        "Read a run",
        (
            ("rank", "Rank missions easiest to hardest per crew size."),
            ("report", "Write a run's HTML and Markdown report."),
            ("compare", "Two crews on the same deals, game by game."),
            ("autopsy", "Where a run's lost games were lost."),
        ),
    ),
    (
        "Check and solve",
        (
            ("check-tasks", "Can these Deep Sea task cards go together?"),
            ("solve", "Can this deal be won with every card seen?"),
            ("feasibility", "Share of random deals that can be won."),
            ("validate", "Check a missions, task-card or bots file."),
        ),
    ),
    ("Balance", (("balance", "Deep Sea task cards printed too easy or hard."),)),
)
SUMMARY = {name: line for _, cmds in GROUPS for name, line in cmds}


class GroupedHelp(TyperGroup):
    """`crewsim --help` lists the commands under their group's heading, in the order of use
    (typer draws ``rich_help_panel`` only with rich markup, which this app turns off)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        known = [name for name in SUMMARY if name in self.commands]
        return known + sorted(set(self.commands) - set(known))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        placed: set[str] = set()
        width = max(map(len, self.commands))  # one column of summaries across the groups
        for heading, cmds in GROUPS:
            rows = [
                (name.ljust(width), SUMMARY[name])
                for name, _ in cmds
                if name in self.commands and not self.commands[name].hidden
            ]
            placed.update(name.strip() for name, _ in rows)
            if rows:
                with formatter.section(heading):
                    formatter.write_dl(rows)
        rest = [
            (name, self.commands[name].get_short_help_str(45))
            for name in self.list_commands(ctx)
            if name not in placed and not self.commands[name].hidden
        ]
        if rest:
            with formatter.section("Other"):
                formatter.write_dl(rest)


app = typer.Typer(
    name="crewsim",
    cls=GroupedHelp,
    help="Monte Carlo mission analyzer for The Crew: Planet Nine and Mission Deep Sea.",
    epilog="Each command's --help lists its options; `crewsim COMMAND -f json` prints data for "
    "scripts (docs/cli.md). Missions, task cards and bot crews are read from the folder "
    "CREWSIM_SCENARIOS names (a copy of scenarios/ to edit), else from the shipped scenarios/.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help text is plain: "[heuristic]" and "[[missions]]" stay
    add_completion=False,
)
app.add_typer(missions.app, name="missions", short_help=SUMMARY["missions"])
app.add_typer(tasks.app, name="tasks", short_help=SUMMARY["tasks"])
for _name, _command in (
    ("deal", deal.deal),
    ("simulate", simulate.simulate),
    ("rank", rank.rank),
    ("report", report.report),
    ("compare", compare.compare),
    ("autopsy", autopsy.autopsy),
    ("check-tasks", check_tasks.check_tasks),
    ("solve", solve.solve_cmd),
    ("feasibility", feasibility.feasibility),
    ("validate", validate.validate),
    ("balance", balance.balance),
):
    app.command(_name, short_help=SUMMARY[_name])(_command)

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
    set_quiet(False)  # each command says whether it is quiet (a test runs many in one process)


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
