"""`crewsim report`: a run folder becomes index.html, report.md, charts and tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from crewsim.cli.options import Quiet
from crewsim.cli.output import busy, set_quiet
from crewsim.errors import writable_folder


def report(
    run_dir: Annotated[
        Path, typer.Argument(help="Run folder written by `crewsim simulate` or `crewsim rank`.")
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Report folder.", show_default="reports/<run folder name>"),
    ] = None,
    beside: Annotated[
        Path | None,
        typer.Option(
            "--beside",
            help="Another crew's run of the same deals (same seed, distress, chunks): adds "
            '"The crews side by side".',
        ),
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Write a self-contained HTML report, Markdown, PNG/SVG charts and CSV/Parquet tables."""
    set_quiet(quiet)
    from crewsim.analysis.beside import side_by_side
    from crewsim.report.build import build  # matplotlib: loaded only when a report is made
    from crewsim.runs.reader import load_run

    with busy("reading the run"):
        run = load_run(run_dir)  # a bad run folder is an error before any report folder is made
        other = None if beside is None else side_by_side(run, beside)
    target = writable_folder(out or Path("reports") / run_dir.resolve().name, "--out")
    with busy("writing the report: tables, charts, report.md, index.html"):
        built = build(run, target, other)
    typer.echo(f"report written to {built.out / 'index.html'}")
