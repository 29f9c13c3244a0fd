"""The rules referee: plain, readable Python; the oracle the numba kernel is checked against."""

from crewsim.rules.deal import Deal, deal_cards
from crewsim.rules.game import Claim, GameState, IllegalMove, Outcome, TaskSpec
from crewsim.rules.play import legal_plays, n_tricks, trick_winner

__all__ = [
    "Claim",
    "Deal",
    "GameState",
    "IllegalMove",
    "Outcome",
    "TaskSpec",
    "deal_cards",
    "legal_plays",
    "n_tricks",
    "trick_winner",
]
