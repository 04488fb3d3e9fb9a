"""A room's settings, chosen at its creation (docs/protocol.md, "Room settings").

Whether the room is unlisted, how long a seat may be away before the computer plays
for it, the turn clock, how long a game may wait with nobody connected before it is
abandoned, whether the coach may help in a game between people, and how partners may
talk in a team game (``team_talk``). They are stored with the game (``games.settings``)
and shown in the room's messages.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Final

GRACE: Final = 60.0
"""Seconds an away seat keeps its turn before the computer plays for it (by default)."""
ABANDON_AFTER: Final = 86_400.0
"""Seconds a game may wait with no seat's holder connected before it is abandoned."""
MIN_SECONDS: Final = 0.1
MAX_SECONDS: Final = 30 * 86_400.0
RATED_CLOCK: Final = 60.0
"""A rated game's turn clock when its creator gave none (seconds a move, docs/ratings.md)."""
TEAM_TALK: Final = ("phrases", "free")
"""How the players of a team game may chat while it is played (``team_talk``): ``phrases``,
the quick phrases only, which say nothing of anyone's cards (partners may not signal
their hands to each other); ``free``, any text (a casual room's
choice, never a rated game's). Once the game is over, everyone writes freely."""
SETTING_FIELDS: Final = (
    "unlisted", "grace", "clock", "abandon_after", "coaching", "rated", "team_talk"
)
"""The room settings a ``POST /api/games`` body may give."""


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """What the creator of a game chose for its room."""

    unlisted: bool = False
    """Only the link or the code opens the game: the lobby does not list it."""
    grace: float = GRACE
    """Seconds, on its turn, before the computer plays for a seat whose holder is away."""
    clock: float | None = None
    """Seconds each person has for a move, after which the computer plays it (None: no clock)."""
    abandon_after: float = ABANDON_AFTER
    """Seconds with no seat's holder connected after which the game is abandoned."""
    coaching: bool = False
    """The coach (hints, unseen cards, trainer questions) in a game between people; the
    coach is always there for a game against the computer."""
    rated: bool = False
    """A rated game (docs/ratings.md): between signed-in people, in a pool's rules, on the
    turn clock; a player out of time loses."""
    team_talk: str = "phrases"
    """How the players of a team game (2 against 2) chat until it ends: one of
    :data:`TEAM_TALK`. A table without partners is not concerned."""

    def to_json(self) -> dict[str, Any]:
        """The settings as stored and shown."""
        return asdict(self)

    @classmethod
    def stored(cls, data: dict[str, Any] | None, kind: str) -> RoomSettings:
        """The settings stored with a game (None: a game stored before settings, which
        takes the defaults of its kind)."""
        if data is None:
            return defaults(kind)
        known = {k: data[k] for k in SETTING_FIELDS if k in data}
        return cls(**known)


def defaults(kind: str) -> RoomSettings:
    """The settings of a game of ``kind`` nobody chose any for: against the computer,
    unlisted and coached; between people, listed and without the coach."""
    computer = kind == "computer"
    return RoomSettings(unlisted=computer, coaching=computer)


def _seconds(name: str, value: object) -> float:
    if type(value) not in (int, float) or not math.isfinite(float(value)):  # type: ignore[arg-type]
        raise ValueError(f"{name} must be a number of seconds")
    seconds = float(value)  # type: ignore[arg-type]
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise ValueError(
            f"{name} must be from {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds, not {seconds:g}"
        )
    return seconds


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false")
    return value


def room_settings(data: dict[str, Any], kind: str) -> RoomSettings:
    """The settings a ``POST /api/games`` body asks for (its other fields are not read;
    a rated game without a clock gets :data:`RATED_CLOCK`); a bad one is a ``ValueError`` in
    one line."""
    base = defaults(kind)
    unlisted = base.unlisted
    if data.get("unlisted") is not None:
        unlisted = _flag("unlisted", data["unlisted"])
    grace = base.grace
    if data.get("grace") is not None:
        grace = _seconds("grace", data["grace"])
    clock = None
    if data.get("clock") is not None:
        clock = _seconds("clock", data["clock"])
    abandon_after = base.abandon_after
    if data.get("abandon_after") is not None:
        abandon_after = _seconds("abandon_after", data["abandon_after"])
    coaching = base.coaching
    if data.get("coaching") is not None:
        coaching = _flag("coaching", data["coaching"])
        if kind == "computer" and not coaching:
            raise ValueError("coaching is always available against the computer")
    rated = False
    if data.get("rated") is not None:
        rated = _flag("rated", data["rated"])
    if rated and clock is None:
        # A rated game always runs on the clock: an absent player loses on it.
        clock = RATED_CLOCK
    team_talk = base.team_talk
    if data.get("team_talk") is not None:
        team_talk = _team_talk(data["team_talk"])
    return RoomSettings(unlisted, grace, clock, abandon_after, coaching, rated, team_talk)


def _team_talk(value: object) -> str:
    if value not in TEAM_TALK:
        known = " or ".join(repr(k) for k in TEAM_TALK)
        raise ValueError(f"team_talk must be {known}, not {value!r}")
    return str(value)
