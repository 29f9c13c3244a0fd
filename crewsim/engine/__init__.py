"""The engine: whole games in numba, from the deal to the verdict.

``play`` deals, runs the set-up and the tricks, asks the crew (``crewsim.bots.crew``) for
every decision and judges each trick with the kernel's rules; ``run`` calls it from Python
and returns the result arrays by name; ``probe`` stops a game at one decision for the
honest-information test.  May import cards, missions, rules, kernel and bots; never the solver,
runs, analysis, report or cli.
"""
