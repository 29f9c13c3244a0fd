"""User-facing errors: one line, exit status 2, never a traceback."""


class CrewsimError(Exception):
    """Bad input from the user (file, mission id, option); the CLI prints it and exits 2."""

    exit_code = 2
