"""The WebSocket protocol: reading client messages, and what the server sends (docs/protocol.md).

Every message is one JSON object with a ``type``. Client messages are checked
here, field by field, before anything touches a game: a bad one becomes a
:class:`ProtocolError` with a stable ``code`` and a readable message. What the
server sends about a game is built from :func:`chkobba.fishing.observe.observe` of the
receiving seat only, so no message can carry a card that seat may not see.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.scoring import POINT_ARABIC, POINT_NAMES
from chkobba.games.chkobba import (
    card_list,
    finished_json,
    finished_round_json,
    observation_json,
    score_json,
    turn_json,
)

__all__ = [
    "card_list",
    "finished_json",
    "finished_round_json",
    "observation_json",
    "score_json",
    "turn_json",
]

PROTOCOL: Final = "chkobba-ws/1"
MAX_MESSAGE_BYTES: Final = 2048
"""Longest client message accepted, in UTF-8 bytes; anything longer is refused unread."""
MAX_JSON_DEPTH: Final = 32
"""Deepest nesting of arrays and objects accepted in any JSON the server reads."""
CHAT_MAX_CHARS: Final = 200
"""Longest chat message, in characters, once cleaned (:func:`clean_chat_text`)."""
REASON_MAX_CHARS: Final = 200
"""Longest reason given with a report."""
QUICK_PHRASES: Final = (
    "hello",
    "good_luck",
    "well_played",
    "good_game",
    "thanks",
    "again",
    "oops",
    "bye",
)
"""The quick phrases' keys: a phrase is sent as its key and each reader shows it in their
own language (the catalogues' ``chat`` section, ``phrase_KEY``)."""

ERROR_CODES: Final = {
    "too_large": "the message is longer than the limit",
    "bad_json": "the message is not a JSON object (or nests too deeply, or holds a lone surrogate)",
    "bad_message": "a field is missing or has the wrong type",
    "unknown_type": "the message type is not one the server knows",
    "unknown_game": "no game has that id",
    "wrong_game": "the message names a game other than the one this connection follows",
    "not_joined": "the connection must first say hello to a game",
    "bad_token": "the seat token is not one of this game's",
    "not_your_seat": "the message acts for a seat this connection does not hold",
    "spectator": "a spectator cannot play",
    "not_started": "the game is waiting for players",
    "not_your_turn": "another seat is to move",
    "bad_move": "the move is not in the notation",
    "illegal_move": "the rules do not allow that move now",
    "stale": "the game has moved on since the state the client saw",
    "game_over": "the match is over",
    "not_creator": "only the room's creator may do that",
    "no_free_seat": "every seat is taken",
    "already_seated": "the signed-in account already holds a seat in this game",
    "unknown_level": "no computer player has that name",
    "rated_needs_account": "a rated game's seats are for signed-in players",
    "rated_no_computer": "a rated game has no computer seat",
    "rate_limited": "too many messages: slow down",
    "not_playing": "only a game in play can be resigned",
    "not_finished": "a rematch is offered once the game is over",
    "no_rematch": "the game ended before every seat was taken: it has no rematch",
    "server_error": "the server could not record the move; try again",
    "chat_off": "the room's chat is turned off",
    "chat_empty": "a chat message needs some text or a quick phrase",
    "chat_too_long": "the chat message is longer than the limit",
    "chat_rate_limited": "too many chat messages: wait a little",
    "chat_sign_in": "a spectator must be signed in to chat",
    "chat_phrases_only": "partners chat in quick phrases only until the team game ends",
    "silenced": "a moderator silenced this account: it cannot chat",
    "unknown_phrase": "no quick phrase has that key",
    "unknown_message": "no chat message with that id can be seen here",
}
"""Every error code the server sends, with what it means."""


class ProtocolError(Exception):
    """A client message that cannot be acted on; ``code`` is one of :data:`ERROR_CODES`.

    ``re`` is the refused message's ``id`` when it had a valid one, so that even a
    validation error answers the request it refuses.
    """

    def __init__(self, code: str, message: str, re: Any = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.re = re


def read_json(text: str | bytes) -> Any:
    """Parse JSON from a client (a WebSocket message or an HTTP body), whatever it holds.

    Raise :class:`ProtocolError` ``bad_json`` for text that is not JSON, nests
    arrays and objects deeper than :data:`MAX_JSON_DEPTH` (which would otherwise
    exhaust the parser's recursion), or holds a lone surrogate (``"\\ud800"``: valid
    JSON, but no text, which nothing downstream could hash, store or print).
    """
    try:
        data = json.loads(text)
    except RecursionError:
        raise ProtocolError(
            "bad_json", f"the JSON nests deeper than {MAX_JSON_DEPTH} levels"
        ) from None
    except UnicodeDecodeError:
        raise ProtocolError("bad_json", "the JSON is not UTF-8 text") from None
    except ValueError as e:
        raise ProtocolError("bad_json", f"not valid JSON: {e}") from None
    # Walked with a stack of its own: the check must not recurse either.
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, dict | list):
            if depth >= MAX_JSON_DEPTH:
                raise ProtocolError(
                    "bad_json", f"the JSON nests deeper than {MAX_JSON_DEPTH} levels"
                )
            if isinstance(value, dict):
                for k, v in value.items():
                    _check_text(k)
                    stack.append((v, depth + 1))
            else:
                stack.extend((v, depth + 1) for v in value)
    return data


def _check_text(s: str) -> None:
    if not s.isascii():
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            raise ProtocolError(
                "bad_json", "the JSON holds a lone surrogate (such as \\ud800), which is not text"
            ) from None


def message_bytes(text: str | bytes) -> int:
    """A message's length in UTF-8 bytes, which is what the limit counts."""
    if isinstance(text, bytes):
        return len(text)
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class Hello:
    """Follow a game: with a seat token to play that seat, without to spectate."""

    game: str
    token: str | None
    id: Any


@dataclass(frozen=True, slots=True)
class PlayMsg:
    """Play a move (``keep``, ``table``, ``5s``, ``Qh:7d+Ah``) for the connection's seat."""

    move: str
    game: str | None
    seat: int | None
    ply: int | None
    id: Any


@dataclass(frozen=True, slots=True)
class FillMsg:
    """The room's creator asks the computer to take every free seat."""

    level: str
    game: str | None
    id: Any


@dataclass(frozen=True, slots=True)
class ResignMsg:
    """A seat's holder concedes the match for their side."""

    game: str | None
    id: Any


@dataclass(frozen=True, slots=True)
class RematchMsg:
    """A seat's holder offers, or accepts, a rematch of the finished game."""

    game: str | None
    id: Any


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive; answered by ``pong``."""

    id: Any


@dataclass(frozen=True, slots=True)
class ChatMsg:
    """Say something at the table: free ``text`` (cleaned, at most
    :data:`CHAT_MAX_CHARS`) or a quick ``phrase`` (one of :data:`QUICK_PHRASES`)."""

    text: str | None
    phrase: str | None
    game: str | None
    id: Any


@dataclass(frozen=True, slots=True)
class ChatRoomMsg:
    """The room's creator turns its chat on or off."""

    on: bool
    game: str | None
    id: Any


@dataclass(frozen=True, slots=True)
class ReportMsg:
    """Report a chat message (by its ``id`` in ``chat``) to the moderators."""

    message: int
    reason: str | None
    game: str | None
    id: Any


ClientMessage = (
    Hello | PlayMsg | FillMsg | Ping | ResignMsg | RematchMsg | ChatMsg | ChatRoomMsg | ReportMsg
)

_LONG_FIELDS: Final = {
    ("chat", "text"): CHAT_MAX_CHARS * 4,
    ("report", "reason"): REASON_MAX_CHARS,
}
"""Fields longer than the usual hundred characters: a chat message's text (its own limit,
:data:`CHAT_MAX_CHARS`, is checked once it is cleaned) and a report's reason."""


def clean_chat_text(text: str) -> str:
    """A chat message as it is stored and shown: control characters (line breaks, tabs,
    bidirectional overrides) become spaces, runs of spaces one, the ends trimmed. It is
    text: the pages show it as text, never as HTML, and never make links of it."""
    out = []
    for ch in text:
        # Format characters (bidirectional overrides among them) are not printable; the
        # joiners are kept, for emoji sequences and the scripts that need them.
        if ch.isprintable() or ch in "\u200c\u200d":
            out.append(ch)
        else:
            out.append(" ")
    return " ".join("".join(out).split())

_FIELDS: Final[dict[str, dict[str, tuple[type | tuple[type, ...], bool]]]] = {
    # type -> field -> (accepted types, required)
    "hello": {"game": (str, True), "token": (str, False)},
    "play": {"move": (str, True), "game": (str, False), "seat": (int, False), "ply": (int, False)},
    "fill": {"level": (str, True), "game": (str, False)},
    "ping": {},
    "resign": {"game": (str, False)},
    "rematch": {"game": (str, False)},
    "chat": {"text": (str, False), "phrase": (str, False), "game": (str, False)},
    "chat_room": {"on": (bool, True), "game": (str, False)},
    "report": {"message": (int, True), "reason": (str, False), "game": (str, False)},
}


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Read and validate one client message; raise :class:`ProtocolError` if bad."""
    if message_bytes(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    data = read_json(text)
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message is a JSON object with a 'type'")
    msg_id = data.get("id")
    if msg_id is not None and not (
        isinstance(msg_id, str | int) and not isinstance(msg_id, bool) and len(str(msg_id)) <= 64
    ):
        raise ProtocolError("bad_message", "'id' must be a short string or an integer")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a 'type' string", msg_id)
    fields = _FIELDS.get(kind)
    if fields is None:
        known = ", ".join(sorted(_FIELDS))
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind!r} (known: {known})", msg_id
        )
    unknown = set(data) - set(fields) - {"type", "id"}
    if unknown:
        raise ProtocolError(
            "bad_message", f"unknown field(s) for {kind!r}: {', '.join(sorted(unknown))}", msg_id
        )
    for name, (types, required) in fields.items():
        value = data.get(name)
        if value is None:
            if required:
                raise ProtocolError("bad_message", f"{kind!r} needs a {name!r} field", msg_id)
            continue
        if not isinstance(value, types) or (isinstance(value, bool) and types is not bool):
            want = types.__name__ if isinstance(types, type) else "value"
            raise ProtocolError(
                "bad_message", f"{name!r} must be a {want}, not {value!r}", msg_id
            )
        longest = _LONG_FIELDS.get((kind, name), 100)
        if isinstance(value, str) and len(value) > longest:
            if (kind, name) == ("chat", "text"):
                raise ProtocolError(
                    "chat_too_long",
                    f"a chat message is at most {CHAT_MAX_CHARS} characters",
                    msg_id,
                )
            raise ProtocolError("bad_message", f"{name!r} is too long", msg_id)
    if kind == "hello":
        return Hello(data["game"], data.get("token"), msg_id)
    if kind == "play":
        return PlayMsg(data["move"], data.get("game"), data.get("seat"), data.get("ply"), msg_id)
    if kind == "fill":
        return FillMsg(data["level"], data.get("game"), msg_id)
    if kind == "resign":
        return ResignMsg(data.get("game"), msg_id)
    if kind == "rematch":
        return RematchMsg(data.get("game"), msg_id)
    if kind == "chat":
        return _chat(data, msg_id)
    if kind == "chat_room":
        return ChatRoomMsg(data["on"], data.get("game"), msg_id)
    if kind == "report":
        reason = data.get("reason")
        reason = clean_chat_text(reason) or None if reason is not None else None
        return ReportMsg(data["message"], reason, data.get("game"), msg_id)
    return Ping(msg_id)


def _chat(data: dict[str, Any], msg_id: Any) -> ChatMsg:
    text, phrase = data.get("text"), data.get("phrase")
    if (text is None) == (phrase is None):
        raise ProtocolError(
            "bad_message", "a chat message has either a 'text' or a 'phrase'", msg_id
        )
    if phrase is not None:
        if phrase not in QUICK_PHRASES:
            known = ", ".join(QUICK_PHRASES)
            raise ProtocolError(
                "unknown_phrase", f"no quick phrase {phrase!r} (known: {known})", msg_id
            )
        return ChatMsg(None, phrase, data.get("game"), msg_id)
    assert text is not None
    cleaned = clean_chat_text(text)
    if not cleaned:
        raise ProtocolError("chat_empty", "the chat message is empty", msg_id)
    if len(cleaned) > CHAT_MAX_CHARS:
        raise ProtocolError(
            "chat_too_long", f"a chat message is at most {CHAT_MAX_CHARS} characters", msg_id
        )
    return ChatMsg(cleaned, None, data.get("game"), msg_id)


def message_id(text: str | bytes) -> Any:
    """The valid ``id`` of a client message, or None (not a JSON object, no id, a bad one),
    read without acting on the message: to answer even a message that is refused unread."""
    try:
        return parse_client_message(text).id
    except ProtocolError as e:
        return e.re


def error_message(code: str, message: str, re: Any = None) -> dict[str, Any]:
    """An ``error`` message, answering the request ``re`` if it had an id."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if re is not None:
        out["re"] = re
    return out


# -- what the server sends about a game ------------------------------------------


def state_message(
    game_id: str,
    status: str,
    ply: int,
    match: Match,
    seat: int,
    re: Any = None,
    full: bool = True,
    finished: tuple[list[dict[str, Any]], dict[str, Any] | None] | None = None,
) -> dict[str, Any]:
    """The ``state`` message for ``seat`` (-1: a spectator) after ``ply`` moves.

    ``previous`` (the last finished round) is left out unless ``full``: the
    server sends it on ``hello`` and at the start of each round, and clients keep
    it. ``finished`` passes :func:`finished_json` already computed.
    """
    out: dict[str, Any] = {"type": "state", "game": game_id, "status": status, "ply": ply}
    out.update(observation_json(observe(match, seat)))
    if status != "playing":
        # Until every seat is taken, nobody may move.
        out["legal"] = []
    out["over"] = match.is_over
    out["winner"] = match.winner
    rounds, previous = finished if finished is not None else finished_json(match)
    out["rounds"] = rounds
    if full:
        out["previous"] = previous
    if re is not None:
        out["re"] = re
    return out


def point_names() -> dict[str, dict[str, str]]:
    """The points' names (transliterated and in Arabic script), for the pages."""
    return {k: {"name": POINT_NAMES[k], "arabic": POINT_ARABIC[k]} for k in POINT_NAMES}


def side_of(seats: int, teams: bool) -> list[int]:
    """Each seat's side."""
    return [s % 2 for s in range(seats)] if teams else list(range(seats))


def players_json(
    names: Sequence[str | None], agents: Sequence[str | None], connected: Sequence[bool]
) -> list[dict[str, Any]]:
    """The seats as the room shows them: name, computer level, taken, online."""
    return [
        {
            "seat": i,
            "name": names[i],
            "computer": agents[i],
            "taken": names[i] is not None or agents[i] is not None,
            "online": connected[i] or agents[i] is not None,
        }
        for i in range(len(names))
    ]
