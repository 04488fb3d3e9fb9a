"""The registry of players by name: builds a player from its name.

What a player is and the table the players register in are in :mod:`chkobba.agents.player`
(their names are importable from here too).
"""

from __future__ import annotations

import contextlib
import importlib.util
from pathlib import PurePath

# The built-in players register themselves on import (the modules themselves are not used).
import chkobba.agents.cheater
import chkobba.agents.expert
import chkobba.agents.greedy
import chkobba.agents.heuristic
import chkobba.agents.levels
import chkobba.agents.random_agent  # noqa: F401
from chkobba.agents.player import (
    AGENTS,
    MEASUREMENT_ONLY,
    Agent,
    AgentError,
    AgentFactory,
    register,
)

__all__ = [
    "AGENTS",
    "ENGINE_PREFIX",
    "MAX_NAME",
    "MEASUREMENT_ONLY",
    "OFFERED",
    "OPENSPIEL_PLAYERS",
    "POLICY_PREFIX",
    "Agent",
    "AgentError",
    "AgentFactory",
    "check_playable",
    "make_agent",
    "offer",
    "playable_agents",
    "register",
]


def make_agent(name: str, seed: int = 0) -> Agent:
    """The player called ``name``, seeded; an unknown name is an error.

    ``policy:PATH`` is a trained policy file (:mod:`chkobba.rl.policy`), ``engine:COMMAND``
    an outside engine (:mod:`chkobba.agents.engine`).
    """
    _load_builtin()
    factory = AGENTS.get(name)
    if factory is None and name.startswith(POLICY_PREFIX):
        return _policy_agent(name)
    if factory is None and name.startswith(ENGINE_PREFIX):
        return _engine_agent(name, seed)
    if factory is None and name in OPENSPIEL_PLAYERS:
        raise AgentError(f"{name} needs OpenSpiel: pip install 'chkobba[openspiel]'")
    if factory is None:
        raise AgentError(
            f"unknown player {name!r} (known: {', '.join(sorted(AGENTS))}; {OTHER_FORMS})"
        )
    return factory(seed)


def check_playable(name: str) -> None:
    """Raise :class:`AgentError` unless ``name`` is a player that plays from observations."""
    _load_builtin()
    if name not in AGENTS and name.startswith(POLICY_PREFIX):
        _policy_agent(name)
        return
    if name not in AGENTS and name.startswith(ENGINE_PREFIX):
        _engine_agent(name, 0)
        return
    if name in MEASUREMENT_ONLY:
        raise AgentError(
            f"{name!r} sees every card: it plays only in duels, as an upper bound for measurements"
        )
    if name not in AGENTS:
        raise AgentError(
            f"unknown player {name!r} (known: {', '.join(playable_agents())}; {OTHER_FORMS})"
        )


OTHER_FORMS = (
    "or engine:COMMAND, an outside program (docs/engine-protocol.md), "
    "or policy:PATH, a trained policy file (docs/rl.md)"
)
"""The player names that are not in the registry, as an unknown name's error lists them."""

POLICY_PREFIX = "policy:"
"""Names a trained policy file as a player: ``policy:PATH``."""


def _policy_agent(name: str) -> Agent:
    try:
        # Imported only for a policy: it needs numpy, which the core does not.
        from chkobba.rl.policy import PolicyError, policy_agent
    except ImportError as e:
        raise AgentError(
            f"{name}: playing a trained policy needs numpy (pip install 'chkobba[rl]'): {e}"
        ) from None
    try:
        return policy_agent(name)
    except PolicyError as e:
        raise AgentError(str(e)) from None


ENGINE_PREFIX = "engine:"
"""Names an outside engine as a player: ``engine:COMMAND`` (docs/engine-protocol.md)."""


def _engine_agent(name: str, seed: int) -> Agent:
    # Imported only for an engine: the process machinery is not needed otherwise.
    from chkobba.agents.engine import EngineError, engine_agent

    try:
        return engine_agent(name, seed, lambda s: make_agent("random", s))
    except EngineError as e:
        raise AgentError(str(e)) from None


OFFERED: dict[str, str] = {}
"""Players added at run time to the ones the interfaces offer (``chkobba serve --player``):
the name offered, and the player it stands for."""

MAX_NAME = 32
"""The longest player name a stored game keeps (the database's ``agent`` column)."""


def offer(name: str) -> str:
    """Offer ``name`` (such as ``policy:PATH``) as a computer player and return the name
    it is offered under; raise :class:`AgentError` if it cannot play.

    A policy is offered as ``policy:STEM`` (its file name without the folder and the
    ``.npz``), an engine as ``engine:STEM`` (its program's or script's name), short
    enough for the database.
    """
    check_playable(name)
    alias = name
    if name not in AGENTS:
        # Only policy:PATH and engine:COMMAND can be playable without being registered.
        if name.startswith(ENGINE_PREFIX):
            from chkobba.agents.engine import EngineSpec

            prefix, stem = ENGINE_PREFIX, EngineSpec.parse(name).stem
        else:
            prefix, stem = POLICY_PREFIX, PurePath(name[len(POLICY_PREFIX) :]).stem
        alias = (prefix + stem)[:MAX_NAME]
        n = 2
        while alias in AGENTS and OFFERED.get(alias) != name:
            suffix = f"-{n}"
            alias = (prefix + stem)[: MAX_NAME - len(suffix)] + suffix
            n += 1
        AGENTS[alias] = lambda seed: make_agent(name, seed)
    OFFERED[alias] = name
    return alias


def playable_agents() -> list[str]:
    """The names of the players the interfaces may offer as opponents, sorted."""
    _load_builtin()
    return sorted(n for n in AGENTS if n not in MEASUREMENT_ONLY)


OPENSPIEL_PLAYERS = ("openspiel-ismcts", "openspiel-mcts")
"""OpenSpiel's ISMCTS and MCTS bots (:mod:`chkobba.rl.openspiel`), registered only where
OpenSpiel is installed."""


def _openspiel_factory(name: str) -> AgentFactory:
    def make(seed: int) -> Agent:
        # Imported on first use: OpenSpiel takes a while to load.
        from chkobba.rl.openspiel import bot_agent

        return bot_agent(name, seed)

    return make


def _load_builtin() -> None:
    # The built-in players registered on import (above); OpenSpiel's bots only where it is.
    with contextlib.suppress(ImportError):
        # The learned player runs on numpy, which the core does not need.
        import chkobba.rl.neural  # noqa: F401
    if OPENSPIEL_PLAYERS[0] not in AGENTS and importlib.util.find_spec("pyspiel") is not None:
        for name in OPENSPIEL_PLAYERS:
            AGENTS[name] = _openspiel_factory(name)
