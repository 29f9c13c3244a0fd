"""crewsim: Monte Carlo mission analyzer for The Crew (Planet Nine and Mission Deep Sea)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("crewsim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"
