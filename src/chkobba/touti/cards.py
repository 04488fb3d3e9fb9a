"""Touti's view of the 40 cards: trick order, card points, the Spanish names (docs/rules.md §4).

Touti is played with the Spanish deck, which maps one to one onto the cards of
:mod:`chkobba.fishing.cards` (docs/rules.md §1): oros (coins) = ``d``, copas (cups) = ``h``,
espadas (swords) = ``s``, bastos (clubs) = ``c``; the 10 (sota) is ``Q``, the 11
(caballo) ``J``, the 12 (rey) ``K``. The notation is therefore the same (``Kd`` is
the 12 of oros) and card sets are the same 40-bit masks.

In a trick the order, high to low, is 1 (ace), 3, 12, 11, 10, 7, 6, 5, 4, 2; the
card points are ace 11, three 10, twelve 4, eleven 3, ten 2, the rest nothing:
120 in the deck, 130 with the 10 for the last trick.
"""

from __future__ import annotations

from typing import Final

from chkobba.fishing.cards import CARDS, SUIT_SYMBOLS, SUITS, Card, CardError

__all__ = [
    "ACE_MASK",
    "BEATS",
    "CARD_POINTS",
    "LAST_TRICK_BONUS",
    "PAIRS",
    "POINTS_IN_DECK",
    "STRENGTH",
    "SUIT_MASKS",
    "Card",
    "CardError",
    "card_points",
    "pair_mask",
    "parse_suit",
    "spanish_name",
    "suit_name",
]

# Index within a suit: A 2 3 4 5 6 7 Q(10) J(11) K(12).
_STRENGTH_IN_SUIT: Final = (9, 0, 8, 1, 2, 3, 4, 5, 6, 7)
_POINTS_IN_SUIT: Final = (11, 0, 10, 0, 0, 0, 0, 2, 3, 4)
_SPANISH_RANKS: Final = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")

STRENGTH: Final[tuple[int, ...]] = tuple(_STRENGTH_IN_SUIT[c % 10] for c in range(40))
"""Each card's place in the trick order of its suit: 9 for the ace down to 0 for the 2."""
CARD_POINTS: Final[tuple[int, ...]] = tuple(_POINTS_IN_SUIT[c % 10] for c in range(40))
"""Each card's card points."""
POINTS_IN_DECK: Final = 120
LAST_TRICK_BONUS: Final = 10
"""The *10 de der* for the side that takes the last trick."""

SUIT_MASKS: Final[tuple[int, ...]] = tuple(0x3FF << (10 * s) for s in range(4))
"""The ten cards of each suit, by suit index (0 ``s``, 1 ``h``, 2 ``d``, 3 ``c``)."""

BEATS: Final[tuple[int, ...]] = tuple(
    sum(1 << o for o in range(40) if o // 10 == c // 10 and STRENGTH[o] > STRENGTH[c])
    for c in range(40)
)
"""For each card, the set of cards of its suit that beat it in a trick."""

ACE_MASK: Final = sum(1 << (10 * s) for s in range(4))
"""The four aces."""
_ELEVEN: Final = 8
_TWELVE: Final = 9


def pair_mask(suit: int) -> int:
    """The 11 (caballo, ``J``) and 12 (rey, ``K``) of a suit: an announcement's two cards."""
    return (1 << (10 * suit + _ELEVEN)) | (1 << (10 * suit + _TWELVE))


PAIRS: Final[tuple[int, ...]] = tuple(pair_mask(s) for s in range(4))
"""Each suit's announcement pair, by suit index."""

SUIT_NAMES: Final = ("espadas", "copas", "oros", "bastos")
"""The Spanish suits in suit-index order (swords, cups, coins, clubs)."""

_SUIT_WORDS: Final = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    **{n: i for i, n in enumerate(SUIT_NAMES)},
    "spades": 0,
    "hearts": 1,
    "diamonds": 2,
    "clubs": 3,
}


def card_points(mask: int) -> int:
    """The card points of a set of cards."""
    total = 0
    while mask:
        low = mask & -mask
        total += CARD_POINTS[low.bit_length() - 1]
        mask ^= low
    return total


def parse_suit(text: str) -> int:
    """Read a suit: its letter (``d``), symbol (``♦``) or name (``oros``, ``diamonds``)."""
    suit = _SUIT_WORDS.get(text.strip().lower())
    if suit is None:
        raise CardError(
            f"unknown suit {text!r}: one of s h d c (espadas, copas, oros, bastos)"
        )
    return suit


def suit_name(suit: int) -> str:
    """A suit in words, Spanish then the letter: ``oros (d)``."""
    return f"{SUIT_NAMES[suit]} ({SUITS[suit]})"


def spanish_name(card: int) -> str:
    """A card as a Spanish deck names it: ``Kd`` → ``12 of oros``."""
    return f"{_SPANISH_RANKS[card % 10]} of {SUIT_NAMES[card // 10]}"


def pretty(card: int) -> str:
    """The card in the notation with its suit symbol (``K♦``)."""
    return CARDS[card].pretty()
