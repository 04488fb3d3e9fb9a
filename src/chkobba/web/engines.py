"""The outside engines of one web game: one process per seat, for the game's life.

An engine (docs/engine-protocol.md, offered with ``chkobba serve --player
engine:COMMAND``) is started the first time its seat must decide and told
``newgame``; it then gets a ``go`` for each of its seat's decisions, ``round_over``
as rounds end, and ``game_over`` and ``quit`` when the game ends. An engine that
dies (it crashed, or was stopped after timeouts in a row) is started afresh at its
seat's next decision, until the protocol's limit on failed games stops its command
for good; meanwhile its seat's moves are the fallback's, so the game goes on.

Every method but :meth:`RoomEngines.plays` blocks on the engines' pipes and exits:
call them on a thread. A seat's lock keeps one thread at a time on its engine, so a
move still being decided when the game ends, or the room is let go, is finished
before the engine is told.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping
from typing import Any

from chkobba.agents import base as agents_base
from chkobba.agents.base import ENGINE_PREFIX, AgentError
from chkobba.agents.engine import EngineAgent


def engine_seed(game_seed: int, seat: int) -> int:
    """The ``seed`` an engine is told in ``newgame``: fixed by the game and the seat, but
    a hash, so that no engine can work the match's shuffles back out of it."""
    digest = hashlib.sha256(f"chkobba-engine:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


class EngineClosed(AgentError):
    """A move asked of a room's engines after its game ended or the room was let go."""


class RoomEngines:
    """The engines playing the seats of one room, each kept from its first decision to
    the end of the game."""

    def __init__(self, make_agent: Callable[[str, int], Any], game_seed: int) -> None:
        """Engines made by ``make_agent(level, seed)`` (the game's players), seeded from the
        match's ``game_seed`` (:func:`engine_seed`)."""
        self._make_agent = make_agent
        self._game_seed = game_seed
        self._held: dict[int, tuple[str, EngineAgent]] = {}
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()
        self.closed = False
        self.started = 0
        """How many engines were made (a seat's first, and each restart after a death)."""

    @staticmethod
    def plays(level: str) -> bool:
        """Whether ``level`` names an outside engine (``engine:COMMAND``, or the level
        ``serve --player`` offers one as)."""
        # Looked up each time: the offers are made at run time (and replaced in tests).
        return agents_base.OFFERED.get(level, level).startswith(ENGINE_PREFIX)

    @property
    def seats(self) -> list[int]:
        """The seats with an engine, running or not."""
        with self._guard:
            return sorted(self._held)

    def _lock(self, seat: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(seat, threading.Lock())

    def choose(self, seat: int, level: str, obs: Any) -> Any:
        """The move of ``seat``'s engine (the fallback's if the engine fails), the engine
        started (again) if it is not running; raise :class:`EngineClosed` once the room's
        engines were closed, and ``AgentError`` if ``level`` is no engine."""
        with self._lock(seat):
            with self._guard:
                # Checked and registered at once: _end either stops this engine or it is
                # never made.
                if self.closed:
                    raise EngineClosed(f"the engines of this game were stopped; {level} not asked")
                held = self._held.get(seat)
                if held is not None and (held[0] != level or held[1].stopped):
                    # Another level at the seat (a stand-in), or a dead engine: a fresh one
                    # (making it starts nothing: its process starts at its first move).
                    stale: EngineAgent | None = held[1]
                    held = None
                else:
                    stale = None
                if held is None:
                    agent = self._make_agent(level, engine_seed(self._game_seed, seat))
                    if not isinstance(agent, EngineAgent):
                        raise AgentError(f"{level} is not an outside engine")
                    self.started += 1
                    held = self._held[seat] = (level, agent)
            if stale is not None:
                stale.close()
            return held[1].choose(obs)

    def finish(self, observations: Mapping[int, Any], played_out: bool) -> None:
        """Tell each engine its game is over (``round_over`` for the last round if the
        game was ``played_out``, then ``game_over`` with the totals), given each seat's
        last observation, and stop it."""

        def finish(seat: int, agent: EngineAgent) -> None:
            obs = observations.get(seat)
            if obs is not None:  # else an engine started after the end was seen: just stop
                agent.finish(obs, played_out)

        self._end(finish)

    def close(self) -> None:
        """Stop every engine (``quit``) without ending its game: the room is let go or
        the server stops."""
        self._end(lambda seat, agent: agent.close())

    def _end(self, how: Callable[[int, EngineAgent], None]) -> None:
        with self._guard:
            self.closed = True
            seats = sorted(self._held)
        for seat in seats:
            with self._lock(seat):
                with self._guard:
                    held = self._held.pop(seat, None)
                if held is not None:
                    try:
                        how(seat, held[1])
                    finally:
                        held[1].close()
