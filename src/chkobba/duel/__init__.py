"""Duplicate matches between players: the harness behind ``chkobba duel`` and ``tournament``.

Any game that implements :class:`~chkobba.duel.games.DuelGame` can be played: the
Chkobba family (every preset) and Touti.

>>> from chkobba.duel import run_duel
>>> result = run_duel("random", "random", pairs=4, seed=1, jobs=1)
>>> result.games, result.wins + result.draws + result.losses
(8, 8)
>>> touti = run_duel("technique", "random", pairs=2, seed=1, jobs=1, game_name="touti")
>>> touti.players, touti.teams, touti.games
(4, True, 4)
"""

from chkobba.duel.harness import DuelResult, Timing, TournamentResult, run_duel, run_tournament
from chkobba.duel.play import AgentMoveError, DuelSpec, PairOutcome, play_pair
from chkobba.duel.stats import EloEstimate, Estimate, elo_from_score, fit_elo, mean_estimate
from chkobba.games.base import DuelGame, Table, game, play_out

__all__ = [
    "AgentMoveError",
    "DuelGame",
    "DuelResult",
    "DuelSpec",
    "EloEstimate",
    "Estimate",
    "PairOutcome",
    "Table",
    "Timing",
    "TournamentResult",
    "elo_from_score",
    "fit_elo",
    "game",
    "mean_estimate",
    "play_out",
    "play_pair",
    "run_duel",
    "run_tournament",
]
