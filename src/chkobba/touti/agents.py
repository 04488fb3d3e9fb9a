"""Touti players: the interface, the registry by name, and the random baseline.

A player is any object with a ``name`` and ``choose(observation) -> move``; it
sees only its seat's :class:`~chkobba.touti.observe.ToutiObservation`, never the
deal. Players: ``random`` (the baseline), ``technique`` (rule-based: bids from
hand strength and plays the usual technique, :mod:`chkobba.touti.technique`) and
``search`` (determinized Monte Carlo over the hidden hands,
:mod:`chkobba.touti.search`).
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


def touti_players() -> list[str]:
    """The names of the Touti players, sorted."""
    _load()
    return sorted(TOUTI_AGENTS)


def make_touti_agent(name: str, seed: int = 0) -> ToutiAgent:
    """The Touti player called ``name``, seeded (``engine:COMMAND``: an outside engine);
    an unknown name is an error."""
    _load()
    factory = TOUTI_AGENTS.get(name)
    if factory is None and name.startswith("engine:"):
        return _engine_agent(name, seed)
    if factory is None:
        raise ToutiAgentError(
            f"unknown Touti player {name!r} (known: {', '.join(sorted(TOUTI_AGENTS))}; "
            "or engine:COMMAND, an outside program (docs/engine-protocol.md))"
        )
    return factory(seed)


def _engine_agent(name: str, seed: int) -> ToutiAgent:
    """An outside engine playing Touti (docs/engine-protocol.md), ``random`` making the
    moves it fails to make."""
    # Imported only for an engine: the process machinery is not needed otherwise.
    from chkobba.agents.engine import EngineError, engine_agent

    try:
        return engine_agent(name, seed, RandomToutiAgent)
    except EngineError as e:
        raise ToutiAgentError(str(e)) from None


def _load() -> None:
    # Imported here: each module registers itself on import.
    import chkobba.touti.search
    import chkobba.touti.technique  # noqa: F401


@register("random")
class RandomToutiAgent:
    """Picks any legal move with equal chance, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, obs: ToutiObservation) -> ToutiMove:
        """A uniformly random legal move."""
        return self.rng.choice(obs.legal_moves)
