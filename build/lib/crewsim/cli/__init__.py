"""Typer command line: one module per command, each thin (parse, call the library, print)."""
