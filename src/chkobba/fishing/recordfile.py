"""What every game's record file shares, whatever the game: atomic writes, JSON
reading that never crashes on hostile input, the header checks, the checks of a
part's (a round's, a deal's) dealer, deck and moves, and :class:`RecordFile`, the
writing and reading every record class does the same way.

Each game's record module (:mod:`chkobba.fishing.record`, :mod:`chkobba.touti.record`)
keeps its own format and its own located error; the header functions raise
:class:`HeaderError` with the reason only, which the caller re-raises as its own
error for the record's header.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar, Self


class HeaderError(ValueError):
    """A record file that is unreadable or whose header is malformed; the message says why."""


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` and a newline to ``path`` so that a crash never leaves half a file."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(p)


def read_text(path: str | Path) -> str:
    """A record file's text; :class:`HeaderError` if it cannot be read as UTF-8."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise HeaderError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise HeaderError(f"{path} is not UTF-8 text") from None


def parse_json(text: str) -> Any:
    """Parsed JSON; :class:`HeaderError` for anything that is not a readable document."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise HeaderError(f"not valid JSON: {e}") from None
    except (ValueError, RecursionError) as e:
        # Numbers too long to convert and nesting too deep to decode are
        # malformed records too, not crashes of whoever reads them.
        raise HeaderError(f"not a readable record: {e}") from None


def check_header(data: Any, keys: set[str] | frozenset[str], fmt: str) -> dict[str, Any]:
    """``data`` as a record object with only known ``keys`` and the format ``fmt``."""
    if not isinstance(data, dict):
        raise HeaderError("a record is a JSON object")
    unknown = set(data) - keys
    if unknown:
        raise HeaderError(f"unknown record keys: {', '.join(sorted(unknown))}")
    if data.get("format") != fmt:
        raise HeaderError(f"format must be {fmt!r}, not {data.get('format')!r}")
    return data


def options_names_meta(
    data: dict[str, Any], seats: int
) -> tuple[dict[str, Any], list[str] | None, dict[str, Any] | None]:
    """The header's ``options`` object, ``names`` (one string per seat) and ``meta`` object."""
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise HeaderError("options must be an object")
    names = data.get("names")
    if names is not None and (
        not isinstance(names, list)
        or len(names) != seats
        or not all(isinstance(n, str) for n in names)
    ):
        raise HeaderError(f"names must be a list of {seats} strings")
    meta = data.get("meta")
    if meta is not None and not isinstance(meta, dict):
        raise HeaderError("meta must be an object")
    return options, names, meta


class LocatedError(ValueError):
    """A fault at a place of a record: part ``outer`` (a round, a deal), move ``inner``.

    Both are 1-based; ``inner`` 0 is the part's deal itself and ``outer`` 0 the
    record's header. Subclasses name the parts in their game's words.
    """

    parts: tuple[str, str] = ("part", "move")

    def __init__(self, outer: int, inner: int, reason: str) -> None:
        self.reason = reason
        big, small = self.parts
        if outer == 0:
            where = "record"
        elif inner == 0:
            where = f"{big} {outer}"
        else:
            where = f"{big} {outer}, {small} {inner}"
        super().__init__(f"{where}: {reason}")


class RecordFile:
    """Writing and reading a record as JSON text and as a file, the same for every game.

    A subclass gives :meth:`to_json`, :meth:`from_json` (which raises its located
    error for a malformed record) and ``error``, that error's class: a file that cannot
    be read or is not JSON is reported as that error at the record's header.
    """

    error: ClassVar[type[LocatedError]] = LocatedError
    record_format: ClassVar[str] = ""
    """The ``format`` the subclass's records name (``chkobba-record/1``)."""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        raise NotImplementedError

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Read a record from parsed JSON; raise :attr:`error` if malformed."""
        raise NotImplementedError

    def dumps(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        """Write the record to a file, atomically, so a crash never leaves half a record."""
        write_atomic(path, self.dumps())

    @classmethod
    def loads(cls, text: str) -> Self:
        """Read a record from JSON text."""
        try:
            data = parse_json(text)
        except HeaderError as e:
            raise cls.error(0, 0, str(e)) from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> Self:
        """Read a record from a file."""
        try:
            text = read_text(path)
        except HeaderError as e:
            raise cls.error(0, 0, str(e)) from None
        return cls.loads(text)


def check_part(
    raw: Any, i: int, keys: set[str] | frozenset[str], word: str, error: type[LocatedError]
) -> dict[str, Any]:
    """Part ``i`` of a record (a ``word``: round, deal) as an object with only ``keys``."""
    if not isinstance(raw, dict):
        raise error(i, 0, f"a {word} is a JSON object")
    unknown = set(raw) - keys
    if unknown:
        raise error(i, 0, f"unknown {word} keys: {', '.join(sorted(unknown))}")
    return raw


def part_deck(raw: dict[str, Any], i: int, error: type[LocatedError]) -> list[str]:
    """Part ``i``'s ``deck``: a list of cards, in the notation."""
    deck = raw.get("deck")
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise error(i, 0, "deck must be a list of cards")
    return deck


def part_moves(
    raw: dict[str, Any], i: int, key: str, word: str, error: type[LocatedError]
) -> list[str]:
    """Part ``i``'s moves under ``key`` (``plays``, ``moves``; absent: none), each a
    string (a ``word``: play, move)."""
    moves = raw.get(key, [])
    if not isinstance(moves, list):
        raise error(i, 0, f"{key} must be a list")
    for j, m in enumerate(moves, 1):
        if not isinstance(m, str):
            raise error(i, j, f"a {word} is a string in the notation, not {m!r}")
    return moves
