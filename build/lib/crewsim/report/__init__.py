"""Reports people act on: rankings, charts, Markdown and self-contained HTML from a run folder.

Everything here reads a finished run folder (``crewsim simulate``'s output) and never plays a
game, so reports are cheap to rebuild and always stamped with the run's own seed and version.
Modules: ``run`` (load a run), ``tables`` (ranking, logbook, ...), ``charts`` (matplotlib),
``build`` (write a report folder), ``compare`` (two bots on the same deals).  This package
file imports nothing, so `crewsim` starts without loading matplotlib.
"""
