"""Allow `python -m crewsim`."""

from crewsim.cli.app import main

main()
