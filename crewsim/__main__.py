"""Allow `python -m crewsim`."""

from crewsim.cli import main

main()
