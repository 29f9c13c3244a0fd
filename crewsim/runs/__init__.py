"""Runs: many games of many missions, planned, seeded, played and kept.

A run is cells (mission x crew size) cut into fixed-size chunks, each with its own seed; the
chunks are played by the engine on local processes or a Dask cluster (``backends``), written to
a run folder with checksums (``folder``, of the format ``run_format`` checks) and read back
(``reader``), summarised with intervals (``stats``); ``session`` plays a run as the commands
do, with their progress (``progress``).  The perfect-information ceiling of a run's deals
(``ceiling``), a file of deals solved on every core (``solve_file``) and the referee's replay
of a recorded game (``replay``) live here too.  May import cards, rules, missions, kernel, bots,
engine and solver; never analysis, report or cli.
"""
