"""The bot layer: every decision a crew takes, from the draft to the last card.

numba functions on the kernel's bitmasks.  The game loop (``engine.play``) calls one entry
module, ``crew``; below it, imported in one direction only: the decisions (``setup`` and
``deep_sea_setup`` before play, ``tokens``, ``comm``, and ``play`` for a card: ``lead`` or
``follow``, checked by ``endgame``), the scores they share (``want``: who should take the
trick; ``objectives``; ``deep_sea`` over one module per task family: ``deep_sea_counts``,
``deep_sea_cards``, ``deep_sea_tricks``, ``lead_bans``, ``collect``), and at the bottom
``hand`` and ``view`` (what a hand is worth, what a seat can tell).  ``random_crew`` holds
every choice of the random crew, ``registry`` the named crews (``scenarios/bots.toml``).  The
layer may import the cards, the rules' constants, the missions and the kernel's primitives
(``bits``, ``layout``, ``conditions``, ``deep_sea_tables``, ``probe_point``); never the
engine, the solver, runs, report or cli.
"""

from crewsim.bots.registry import KINDS, Bot, get_bot, load_bots

__all__ = ["KINDS", "Bot", "get_bot", "load_bots"]
