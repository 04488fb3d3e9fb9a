"""Moves as small immutable values with a two-way text form.

There are two kinds of move:

* :class:`Play`: a card from the hand, with the set of table cards it captures
  (empty for a lay). Text form: ``5s`` lays the 5 of spades; ``Qh:7d+Ah``
  plays the queen of hearts and captures the 7 of diamonds and the ace of hearts.
* :class:`Cut`: the cutter's decision on the card shown at the cut (docs/rules.md
  §2.2): ``keep`` it in hand, or put it on the ``table``.

>>> Play.parse("Qh:7d+Ah")
Play.parse('Qh:Ah+7d')
>>> str(Play.parse("5s"))
'5s'
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from chkobba.fishing.cards import CARDS, Card, CardError, format_cards, parse_cards


class NotationError(ValueError):
    """A move's text could not be read."""


class Play(NamedTuple):
    """A card played from the hand and the table cards it captures (a set; 0 for a lay)."""

    card: int
    capture: int = 0

    @staticmethod
    def parse(text: str) -> Play:
        """Read ``5s`` or ``Qh:7d+Ah``; raise :class:`NotationError` if malformed."""
        head, sep, tail = text.strip().partition(":")
        try:
            card = Card.parse(head)
            if not sep:
                return Play(card, 0)
            if not tail.strip():
                raise NotationError(f"malformed play {text!r}: nothing named after ':'")
            capture = parse_cards(tail)
        except CardError as e:
            raise NotationError(f"malformed play {text!r}: {e}") from None
        if capture >> card & 1:
            raise NotationError(f"malformed play {text!r}: a card cannot capture itself")
        return Play(card, capture)

    @property
    def is_capture(self) -> bool:
        """Whether the play takes cards from the table."""
        return self.capture != 0

    def __str__(self) -> str:
        name = str(CARDS[self.card])
        return f"{name}:{format_cards(self.capture)}" if self.capture else name

    def __repr__(self) -> str:
        return f"Play.parse('{self}')"


class Cut(enum.Enum):
    """The cutter's choice for the card shown at the cut (docs/rules.md §2.2)."""

    KEEP = "keep"
    TABLE = "table"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Cut.{self.name}"


Move = Play | Cut
"""Any move: a play, or the cutter's decision."""


def parse_move(text: str) -> Move:
    """Read a move in the notation: ``keep``, ``table``, ``5s`` or ``Qh:7d+Ah``."""
    t = text.strip().lower()
    if t in ("keep", "table"):
        return Cut(t)
    return Play.parse(text)
