"""Touti, the Moroccan bidding and trick-taking game (docs/rules.md §4), on Chkobba's foundations.

The same cards and notation (the Spanish deck maps one to one onto them), rule
options, moves as small values, one observation function per seat, records
the engine verifies, and players that choose from observations only.

>>> from chkobba.touti import ToutiMatch, observe
>>> m = ToutiMatch(seed=7)
>>> obs = observe(m, m.turn)
>>> obs.phase.value, len(obs.legal_moves) > 0
('bid', True)
"""

from chkobba.touti.deal import Deal, DealError, IllegalMove, Phase, Trick
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import (
    Bid,
    Call,
    Canto,
    CardPlay,
    NotationError,
    ToutiMove,
    Trump,
    parse_move,
)
from chkobba.touti.observe import ToutiObservation, observe, observe_deal
from chkobba.touti.rules import DEFAULT, RulesError, ToutiRules
from chkobba.touti.scoring import DealScore

__all__ = [
    "DEFAULT",
    "Bid",
    "Call",
    "Canto",
    "CardPlay",
    "Deal",
    "DealError",
    "DealScore",
    "IllegalMove",
    "NotationError",
    "Phase",
    "RulesError",
    "ToutiMatch",
    "ToutiMove",
    "ToutiObservation",
    "ToutiRules",
    "Trick",
    "Trump",
    "observe",
    "observe_deal",
    "parse_move",
]
