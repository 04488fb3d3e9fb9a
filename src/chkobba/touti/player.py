"""What a Touti player is, the table of players by name that each player's module fills, and
the random baseline.

The bottom of Touti's players: :mod:`~chkobba.touti.technique` and :mod:`~chkobba.touti.search`
import it to register themselves, and :mod:`chkobba.touti.agents`, which builds a player from
its name, imports them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from chkobba.touti.moves import ToutiMove
from chkobba.touti.observe import ToutiObservation


class ToutiAgentError(ValueError):
    """An unknown Touti player name."""


class ToutiAgent(Protocol):
    """A Touti player: given what its seat may know, it picks one of the legal moves."""

    name: str

    def choose(self, obs: ToutiObservation) -> ToutiMove:
        """Pick a move from ``obs.legal_moves``."""
        ...


ToutiAgentFactory = Callable[[int], ToutiAgent]
"""Builds a player from a seed."""

TOUTI_AGENTS: dict[str, ToutiAgentFactory] = {}
"""Touti players by name; each module registers its own."""


def register(name: str) -> Callable[[ToutiAgentFactory], ToutiAgentFactory]:
    """Decorator: make a Touti player available by ``name``."""

    def deco(factory: ToutiAgentFactory) -> ToutiAgentFactory:
        TOUTI_AGENTS[name] = factory
        return factory

    return deco


@register("random")
class RandomToutiAgent:
    """Picks any legal move with equal chance, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, obs: ToutiObservation) -> ToutiMove:
        """A uniformly random legal move."""
        return self.rng.choice(obs.legal_moves)
