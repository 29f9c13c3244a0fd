"""Options that several commands share, declared once so their names and help read the same."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Annotated, Any

import typer

from crewsim.errors import CrewsimError
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


def count_option(*names: str, help: str) -> Any:
    """An option holding a count, read as people write it (``whole_number``)."""
    return typer.Option(*names, help=help, parser=whole_number, metavar="<int>")


Jobs = Annotated[
    int, typer.Option("--jobs", "-j", help="Workers (0 or -1: all cores; -2: all but one).")
]
Backend = Annotated[
    str | None,
    typer.Option(
        "--backend", help="loky (processes here) or dask (a LocalCluster, or --scheduler). [loky]"
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
