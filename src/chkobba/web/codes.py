"""Game codes: the short ids a game is shared by, such as ``K7QX2M``.

Below both the hub (which makes them) and the cluster (which locks one per game), so that
neither imports the other for them.
"""

from __future__ import annotations

import secrets
from typing import Final

CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Game codes avoid letters and digits that look alike (0/O, 1/I/L)."""
CODE_LENGTH: Final = 6


def new_code() -> str:
    """A fresh short game code, such as ``K7QX2M``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_game_id(code: str) -> bool:
    """Whether ``code`` can be a game's id: a code of :func:`new_code`, or the id of a
    Touti game stored before every game shared one table (8 hexadecimal digits)."""
    if len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code):
        return True
    return len(code) == 8 and all(ch in "0123456789ABCDEF" for ch in code)
