"""Options that several commands share, declared once so their names and help read the same."""

from __future__ import annotations

from typing import Annotated

import typer

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
