"""User names of accounts: what is allowed, and when two names are the same name.

A user name is 3 to 20 letters (of any script), digits, ``_`` and ``-``, kept as typed
after Unicode's NFKC normalisation (which turns full-width ``Ｈｅｄｉ`` into ``Hedi``).
Two names are the same name, and the second is refused, when either of their two keys
is equal:

- ``key``: the skeleton of the case-folded name (``HEDI``, ``hedi`` and ``Неdi`` with a
  Cyrillic ``Н`` and ``е`` all give ``hedi``);
- ``shape``: the case-folded skeleton of the name as typed, which catches look-alikes
  that only exist between capitals and small letters (``HedI`` with a capital ``i``
  against ``Hedl`` with a small ``L``; ``B0B`` against ``bob``).

The skeleton is the one of Unicode's UTS #39 ("Unicode Security Mechanisms", section 4):
NFD, then each character replaced by the prototype of its class of confusable
characters, then NFD again. The confusable classes are Unicode's ``confusables.txt``
as the maintained package ``confusable-homoglyphs`` ships it (each character with the
characters it may be confused with, both ways); :func:`prototypes` rebuilds from it
one representative per class. The database keeps both keys under unique indexes, so
that two workers signing up look-alike names at once cannot both succeed.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Final

MIN_NAME: Final = 3
MAX_NAME: Final = 20
PUNCTUATION: Final = "_-"
RESERVED: Final = ("anonymous", "computer", "guest", "admin", "moderator")
"""Names nobody may register (nor any name like them): the name a deleted account's
seats keep, the computer's, and the roles a player could pretend to."""
LRM: Final = "\u200e"
"""The left-to-right marks the package puts around right-to-left characters for display."""


class BadName(ValueError):
    """A user name that cannot be used, with the reason in one line."""


def check_name(name: object) -> str:
    """The user name to keep (NFKC), or :class:`BadName` saying why it is refused."""
    if not isinstance(name, str):
        raise BadName("a user name is a string")
    text = unicodedata.normalize("NFKC", name)
    if not MIN_NAME <= len(text) <= MAX_NAME:
        raise BadName(
            f"a user name has {MIN_NAME} to {MAX_NAME} characters (this one has {len(text)})"
        )
    for ch in text:
        category = unicodedata.category(ch)
        if not (category.startswith("L") or category == "Nd" or ch in PUNCTUATION):
            shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
            raise BadName(
                f"a user name holds only letters, digits, '_' and '-', not {shown!r}"
            )
    return text


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype: one chosen member of its class, or the
    several characters it looks like (``m`` looks like ``rn``)."""
    from confusable_homoglyphs.confusables import confusables_data

    # confusables.txt maps each source character to its prototype, and no prototype is a
    # source; the package lists every pair both ways. Single characters fall into stars
    # around their prototype; a prototype of several characters is a key of its own.
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    longer: dict[str, str] = {}
    degree: dict[str, int] = {}
    for raw_key, entries in confusables_data.items():
        key = raw_key.replace(LRM, "")
        for entry in entries:
            other = str(entry["c"]).replace(LRM, "")
            if len(key) > 1 and len(other) == 1:
                longer[other] = key
            elif len(key) == 1 and len(other) > 1:
                longer[key] = other
            elif len(key) == 1 and len(other) == 1:
                degree[key] = degree.get(key, 0) + 1
                a, b = find(key), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    members: dict[str, list[str]] = {}
    for c in list(parent) + list(degree):
        members.setdefault(find(c), []).append(c)
    table: dict[str, str] = {}
    for group in members.values():
        # The prototype is the star's centre (the most pairs); a pair alone, its smaller.
        centre = min(set(group), key=lambda c: (-degree.get(c, 0), c))
        for c in group:
            if c != centre:
                table[c] = centre
    for source, proto in longer.items():
        # The characters of a longer prototype map like any other, so that typing them
        # gives the same skeleton as typing the character they look like.
        table[source] = "".join(table.get(c, c) for c in proto)
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: equal for strings that look alike."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))


def name_keys(name: str) -> tuple[str, str]:
    """The two keys under which a (checked) user name is unique: ``(key, shape)``."""
    key = skeleton(name.casefold())
    shape = skeleton(name).casefold()
    return key, shape


def reserved(name: str) -> bool:
    """Whether a (checked) user name is, or looks like, one of :data:`RESERVED`."""
    keys = set(name_keys(name))
    return any(keys & set(name_keys(word)) for word in RESERVED)
