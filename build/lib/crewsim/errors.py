"""User-facing errors: one line, exit status 2, never a traceback."""

from __future__ import annotations

from pathlib import Path


class CrewsimError(Exception):
    """Bad input from the user (file, mission id, option); the CLI prints it and exits 2."""

    exit_code = 2


def writable_folder(path: Path, option: str) -> Path:
    """Make ``path`` (and its parents) a folder we can write, or say in one line why not."""
    if path.exists() and not path.is_dir():
        raise CrewsimError(f"{option} {path}: is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CrewsimError(f"{option} {path}: cannot make the folder: {exc.strerror}") from None
    return path
