"""What a player is, and the table of players by name that each player's module fills.

The bottom of :mod:`chkobba.agents`: the players (:mod:`~chkobba.agents.greedy`,
:mod:`~chkobba.agents.expert`, ...) import it to register themselves, and
:mod:`chkobba.agents.base`, which builds a player from its name, imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from chkobba.fishing.moves import Move
from chkobba.fishing.observe import Observation


class AgentError(ValueError):
    """An unknown player name or a bad player specification."""


class Agent(Protocol):
    """A player: given what its seat may know, it picks one of the legal moves."""

    name: str

    def choose(self, obs: Observation) -> Move:
        """Pick a move from ``obs.legal_moves``."""
        ...


AgentFactory = Callable[[int], Agent]
"""Builds an agent from a seed."""

AGENTS: dict[str, AgentFactory] = {}
"""Players by name; each module registers its own."""


MEASUREMENT_ONLY: set[str] = set()
"""Players that exist only for measurements (the cheater): never offered to people."""


def register(name: str, playable: bool = True) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator: make a player available by ``name`` (``playable=False``: duels only)."""

    def deco(factory: AgentFactory) -> AgentFactory:
        AGENTS[name] = factory
        if not playable:
            MEASUREMENT_ONLY.add(name)
        return factory

    return deco
