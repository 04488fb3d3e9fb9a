"""Touti players: the registry by name (the interface and the random baseline are in
:mod:`chkobba.touti.player`, and importable from here too).

A player is any object with a ``name`` and ``choose(observation) -> move``; it
sees only its seat's :class:`~chkobba.touti.observe.ToutiObservation`, never the
deal. Players: ``random`` (the baseline), ``technique`` (rule-based: bids from
hand strength and plays the usual technique, :mod:`chkobba.touti.technique`) and
``search`` (determinized Monte Carlo over the hidden hands,
:mod:`chkobba.touti.search`).
"""

from __future__ import annotations

# Technique and search register themselves on import (the modules themselves are not used).
import chkobba.touti.search
import chkobba.touti.technique  # noqa: F401
from chkobba.touti.player import (
    TOUTI_AGENTS,
    RandomToutiAgent,
    ToutiAgent,
    ToutiAgentError,
    ToutiAgentFactory,
    register,
)

__all__ = [
    "TOUTI_AGENTS",
    "RandomToutiAgent",
    "ToutiAgent",
    "ToutiAgentError",
    "ToutiAgentFactory",
    "make_touti_agent",
    "register",
    "touti_players",
]


def touti_players() -> list[str]:
    """The names of the Touti players, sorted."""
    return sorted(TOUTI_AGENTS)


def make_touti_agent(name: str, seed: int = 0) -> ToutiAgent:
    """The Touti player called ``name``, seeded (``engine:COMMAND``: an outside engine);
    an unknown name is an error."""
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
