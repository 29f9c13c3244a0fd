"""Analysis: questions answered over runs and the solver.

Task-combination checks (``task_check``), paired comparisons of two crews on the same deals
(``compare``), the Deep Sea balance fit of each task card's difficulty (``balance``) and the
share of random deals that can be won at all (``feasibility``, one row per cell:
``feasibility_cells``).  May import everything below
it (cards to runs); never report or cli.
"""
