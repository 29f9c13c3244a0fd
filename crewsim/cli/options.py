"""Options that several commands share, declared once so their names and help read the same."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from crewsim.errors import CrewsimError
from crewsim.runs.backends import BACKENDS
from crewsim.runs.progress import plural as plural
from crewsim.runs.stopping import Stopping


def whole_number(text: str | int) -> int:
    """A count as people write it: ``1000000``, ``1_000_000``, ``1,000,000`` or ``1e6`` (read
    exactly: ``1e40`` is ten to the 40th, not the nearest float)."""
    clean = str(text).strip().replace("_", "").replace(",", "")
    try:
        value = Decimal(clean)
    except InvalidOperation:
        value = Decimal("nan")
    if value.is_finite() and value.adjusted() > 100:  # before int(): 1e999999999 would hang
        raise typer.BadParameter(f"too large, got {text!r}")
    if not value.is_finite() or value != value.to_integral_value():
        raise typer.BadParameter(
            f"expected a whole number (1000, 1_000, 1,000 or 1e3), got {text!r}"
        )
    return int(value)


def share(option: str, text: str) -> float:
    """A share as people write it, ``0.005`` or ``0.5%``; one line naming ``option`` otherwise.
    Its range is the library's to check (``runs.stopping.Stopping.check``)."""
    clean = text.strip()
    scale = 100.0 if clean.endswith("%") else 1.0
    try:
        value = float(clean.removesuffix("%").strip()) / scale
    except ValueError:
        raise CrewsimError(
            f"{option}: expected a share such as 0.005 or 0.5%, got {text!r}"
        ) from None
    return value


def stopping_options(precision: str | None, separate: bool = False) -> Stopping:
    """The early stop that ``--precision`` and ``--separate`` ask for, checked (exit 2)."""
    stopping = Stopping(None if precision is None else share("--precision", precision), separate)
    stopping.check()
    return stopping


PRECISION_HELP = (
    "Stop each mission x player count once its 95 % interval's half-width is at most this "
    "share (0.005 or 0.5%); -n is then the cap."
)
SEPARATE_HELP = (
    "Keep playing only the cells whose interval overlaps a neighbour's in the ranking, until "
    "they come apart or reach -n."
)
Precision = Annotated[
    str | None, typer.Option("--precision", help=PRECISION_HELP, metavar="<share>")
]
Separate = Annotated[bool, typer.Option("--separate", help=SEPARATE_HELP)]


def default_is(value: str) -> str:
    """The ``[default: ...]`` typer writes, for an option whose parameter default is None
    (so a command can tell it was not given): the same words in every --help."""
    return f"  [default: {value}]"


def missions_of_run(default: str) -> Any:
    """The MISSIONS argument of a command that reads runs: a spec among their missions."""
    return typer.Argument(
        help="Only these missions (pn-1..10, pn-3,pn-7, planet-nine).", show_default=default
    )


def players_of_run(default: str) -> Any:
    """``--players`` of a command that reads runs: some of their crew sizes."""
    return typer.Option(
        "--players", "-p", help="Player counts, comma-separated.", show_default=default
    )


def count_option(*names: str, help: str, default: int | None = None) -> Any:
    """An option holding a count, read as people write it (``whole_number``); its
    ``default`` shown in --help with thousands separators, as counts are printed."""
    shown = help + default_is(f"{default:,}") if default is not None else help
    return typer.Option(
        *names, help=shown, parser=whole_number, metavar="<int>", show_default=False
    )


JOBS_HELP = "Worker processes: 0 or -1 all cores, -2 all but one, N at most N."
Jobs = Annotated[
    int,
    typer.Option("--jobs", "-j", help=JOBS_HELP, show_default="all cores", metavar="<int>"),
]
ALL_CORES = -1  # the one default of --jobs (worker_count reads 0 the same way)


def backend_help() -> str:
    """The backends, from ``runs.backends.BACKENDS``, in the words a user reads."""
    words = {"loky": "processes on this machine", "dask": "a Dask cluster, local or --scheduler"}
    listed = " or ".join(f"{b} ({words[b]})" if b in words else b for b in BACKENDS)
    return f"Where the work runs: {listed}."


Backend = Annotated[
    str | None,
    typer.Option(
        "--backend",
        help=backend_help() + default_is(BACKENDS[0]),
        show_default=False,
        metavar="[" + "|".join(BACKENDS) + "]",
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option("--scheduler", help="Dask scheduler address, tcp://HOST:PORT (implies dask)."),
]
Seed = Annotated[
    int,
    typer.Option("--seed", min=0, help="Root seed (0 or more): the same seed, the same numbers."),
]

NEW_RUN_ONLY = {
    "games": "-n",
    "precision": "--precision",
    "seed": "--seed",
    "bot": "--bot",
    "jobs": "--jobs",
    "backend": "--backend",
    "scheduler": "--scheduler",
}


def given(ctx: typer.Context, name: str) -> bool:
    """Whether the option was typed on the command line (not its default)."""
    source = ctx.get_parameter_source(name)  # typer carries its own click: compare names
    return source is not None and source.name == "COMMANDLINE"


def refuse_new_run_options(ctx: typer.Context, *extra: tuple[str, str]) -> None:
    """With ``--run DIR`` nothing is simulated: an option that shapes a new run would be
    silently ignored, so naming one is an error."""
    for name, flag in (*NEW_RUN_ONLY.items(), *extra):
        if given(ctx, name):
            raise CrewsimError(
                f"{flag} shapes a new run; --run DIR reads the games that run already holds"
            )


def refuse_ceiling_options_without_it(ctx: typer.Context, ceiling: bool) -> None:
    """``--ceiling-n`` and ``--ceiling-conflicts`` tune ``--ceiling``: alone they would do
    nothing, silently."""
    for name, flag in (("ceiling_n", "--ceiling-n"), ("ceiling_conflicts", "--ceiling-conflicts")):
        if not ceiling and given(ctx, name):
            raise CrewsimError(f"{flag} tunes --ceiling: add --ceiling, or leave {flag} out")


def parse_players(spec: str, lowest: int = 2) -> tuple[int, ...]:
    """``3,4,5`` -> (3, 4, 5); duplicates dropped, order kept; one-line error otherwise."""
    out: list[int] = []
    for item in spec.split(","):
        try:
            p = int(item.strip())
        except ValueError:
            raise CrewsimError(
                f"--players: expected numbers {lowest} to 5 like 3,4,5, got {spec!r}"
            ) from None
        if not lowest <= p <= 5:
            raise CrewsimError(f"--players: expected {lowest} to 5, got {p}")
        if p not in out:
            out.append(p)
    return tuple(out)


# ---------------------------------------------------------------- output format


class Format(StrEnum):
    """How a command prints its data: a table for people, CSV or JSON for scripts (one JSON
    shape convention for every command: docs/cli.md)."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"


FORMAT_HELP = "table for reading; csv or json for scripts (JSON shape: docs/cli.md)."
FormatOpt = Annotated[
    Format,
    typer.Option("--format", "-f", help=FORMAT_HELP, case_sensitive=False),
]
JsonAlias = Annotated[
    bool, typer.Option("--json", help="Same as --format json.", show_default=False)
]


def chosen_format(fmt: Format, as_json: bool) -> Format:
    """``--json`` is ``--format json``; with another ``--format`` it is a contradiction."""
    if as_json and fmt not in (Format.TABLE, Format.JSON):
        raise CrewsimError(f"--json and --format {fmt.value}: give one of them")
    return Format.JSON if as_json else fmt


Quiet = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="No progress and no chatter on stderr (errors still); results still printed.",
    ),
]


# ---------------------------------------------------------------- choices from the registries


def bot_names() -> list[str]:
    """The crews of the shipped (or CREWSIM_SCENARIOS) bots.toml; none when it cannot be read
    (the command then says what is wrong with it, in one line)."""
    from crewsim.bots import load_bots

    try:
        return list(load_bots())
    except CrewsimError:
        return []


def bot_help(what: str = "Bot crew") -> str:
    names = bot_names()
    listed = f": {', '.join(names)} (bots.toml)" if names else ""
    return f"{what}{listed}, or one of --bots FILE."


def bot_help_no_file(what: str = "Bot crew") -> str:
    names = bot_names()
    return f"{what}: {', '.join(names)} (bots.toml)." if names else f"{what} by name."


def distress_choices() -> list[str]:
    """The distress settings the kernel knows (``kernel.layout.DISTRESS_CODES``)."""
    from crewsim.kernel.layout import DISTRESS_CODES

    return list(DISTRESS_CODES)


def draft_choices() -> tuple[str, ...]:
    """The task assignments ``analysis.feasibility`` solves deals with."""
    from crewsim.analysis.feasibility import DRAFTS

    return DRAFTS


BotsFile = Annotated[
    Path | None,
    typer.Option("--bots", help="Bots file.", show_default="scenarios/bots.toml"),
]
