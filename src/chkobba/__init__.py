"""chkobba: the reference implementation of Chkobba, the Tunisian card game.

The engine is pure and deterministic: :class:`~chkobba.fishing.match.Match` plays a
match from a seed, :class:`~chkobba.fishing.game.Round` one round, and
:func:`~chkobba.fishing.observe.observe` gives a seat what it may know.

>>> from chkobba import Match, observe
>>> m = Match(seed=7)
>>> obs = observe(m, m.turn)
>>> [str(mv) for mv in obs.legal_moves]
['keep', 'table']
"""

import sys

from chkobba import _moved
from chkobba.fishing import observe as _observe_module
from chkobba.fishing.cards import CARDS, Card
from chkobba.fishing.game import DealError, IllegalMove, Phase, Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Cut, Move, NotationError, Play, parse_move
from chkobba.fishing.observe import Observation, observe
from chkobba.fishing.record import GameRecord, RecordError, record_of, replay
from chkobba.fishing.rules import CHKOBBA, PRESETS, RulesError, RuleSet, preset

# The engine's old paths (chkobba.cards, chkobba.rules, ..., chkobba.fast) until 0.3.
_moved.install()
# ``chkobba.observe`` is the function above: an import of the old module path must not rebind
# it to the module, so that path is an alias from the start (and does not warn).
sys.modules.setdefault("chkobba.observe", _observe_module)

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
