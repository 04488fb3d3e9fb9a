"""Duplicate matches between players: the harness behind ``chkobba duel`` and ``tournament``.

>>> from chkobba.duel import run_duel
>>> result = run_duel("random", "random", pairs=4, seed=1, jobs=1)
>>> result.games, result.wins + result.draws + result.losses
(8, 8)
"""

from chkobba.duel.harness import DuelResult, Timing, TournamentResult, run_duel, run_tournament
from chkobba.duel.play import AgentMoveError, DuelSpec, PairOutcome, play_pair
from chkobba.duel.stats import EloEstimate, Estimate, elo_from_score, fit_elo, mean_estimate

__all__ = [
    "AgentMoveError",
    "DuelResult",
    "DuelSpec",
    "EloEstimate",
    "Estimate",
    "PairOutcome",
    "Timing",
    "TournamentResult",
    "elo_from_score",
    "fit_elo",
    "mean_estimate",
    "play_pair",
    "run_duel",
    "run_tournament",
]
