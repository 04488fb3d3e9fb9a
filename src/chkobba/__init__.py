"""chkobba: the reference implementation of Chkobba, the Tunisian card game.

The engine is pure and deterministic: :class:`~chkobba.match.Match` plays a
match from a seed, :class:`~chkobba.game.Round` one round, and
:func:`~chkobba.observe.observe` gives a seat what it may know.

>>> from chkobba import Match, observe
>>> m = Match(seed=7)
>>> obs = observe(m, m.turn)
>>> [str(mv) for mv in obs.legal_moves]
['keep', 'table']
"""

from chkobba.cards import CARDS, Card
from chkobba.game import DealError, IllegalMove, Phase, Round
from chkobba.match import Match
from chkobba.moves import Cut, Move, NotationError, Play, parse_move
from chkobba.observe import Observation, observe
from chkobba.record import GameRecord, RecordError, record_of, replay
from chkobba.rules import CHKOBBA, PRESETS, RulesError, RuleSet, preset

__all__ = [
    "CARDS",
    "CHKOBBA",
    "PRESETS",
    "Card",
    "Cut",
    "DealError",
    "GameRecord",
    "IllegalMove",
    "Match",
    "Move",
    "NotationError",
    "Observation",
    "Phase",
    "Play",
    "RecordError",
    "Round",
    "RuleSet",
    "RulesError",
    "observe",
    "parse_move",
    "preset",
    "record_of",
    "replay",
]

__version__ = "0.1.0"
