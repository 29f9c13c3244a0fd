"""Reports people act on: rankings, charts, Markdown and self-contained HTML from a run folder.

Everything here reads a finished run folder (``crewsim simulate``'s output) and never plays a
game, so reports are cheap to rebuild and always stamped with the run's own seed and version.
Modules: ``tables`` (ranking, logbook, ...), ``charts`` (matplotlib), ``build`` (write a report
folder), ``beside`` (its section of another crew on the same deals), ``balance_report`` (the
Deep Sea task-card fit's charts and report), and the writers: ``document`` (the blocks a report
is made of), ``markdown``, ``html`` and ``format`` (numbers as text).  This package file imports
nothing, so `crewsim` starts without loading matplotlib.
"""
