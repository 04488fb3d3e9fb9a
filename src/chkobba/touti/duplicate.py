"""Touti in the strength tools: ``chkobba duel --game touti``, ``tournament`` and ``simulate``.

:data:`TOUTI_GAME` is Touti's side of the game interface
(:mod:`chkobba.games.touti`, re-exported here). The duplicate pairs themselves are
the harness's (:mod:`chkobba.duel.play`): each shuffle and dealer is played
twice, player A's team in seats 0 and 2, then in seats 1 and 3, and A's margin
is its team's points minus the other team's per deal. A deal that ends without
a contract (four passes) scores nothing and is not redealt; in a match the next
deal follows as the rules say.

:func:`play_deal` plays one deal the same way with player objects rather than
names, for tests and experiments in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chkobba.games.base import play_out
from chkobba.games.touti import SIDE_OF, TOUTI_GAME, ToutiGame, ToutiTable
from chkobba.touti.agents import ToutiAgent
from chkobba.touti.deal import SEATS, Deal
from chkobba.touti.match import ToutiMatch
from chkobba.touti.rules import DEFAULT, ToutiRules

__all__ = ["SIDE_OF", "TOUTI_GAME", "DealOutcome", "ToutiGame", "ToutiTable", "play_deal"]

@dataclass
class DealOutcome:
    """One deal played to its end: the deal, and the time each seat spent choosing."""

    deal: Deal
    seconds: list[float]
    moves: list[int]


def play_deal(
    agents: Sequence[ToutiAgent], dealer: int, deck: Sequence[int], rules: ToutiRules = DEFAULT
) -> DealOutcome:
    """Play one deal with ``agents[seat]`` at each seat; every move is checked
    (:class:`~chkobba.games.base.AgentMoveError`)."""
    table = ToutiTable(ToutiMatch(rules, first_dealer=dealer, first_deck=deck))
    clocks: list[list[float]] = [[] for _ in range(SEATS)]
    play_out(table, agents, clocks, "round", "deal")
    return DealOutcome(
        table.match.finished[0], [sum(c) / 1000 for c in clocks], [len(c) for c in clocks]
    )
