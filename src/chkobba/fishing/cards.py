"""Cards, their notation, and card sets as 40-bit masks (docs/rules.md §1).

The deck has 40 cards: four suits of ten. A card's *value* runs from 1 (ace) to
10 (king); the face cards are Q = 8, J = 9, K = 10. Diamonds are *dīnārī*, the
coins suit, and the 7 of diamonds is *sabʿa l-ḥayya*, "the living seven".

A card is a small integer ``suit * 10 + (value - 1)``, wrapped in :class:`Card`
so it prints as ``7d``. A set of cards is an ``int`` whose bit ``c`` is set when
card ``c`` is in the set: union, difference and counting are one machine
operation each, which is what the search needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

SUITS: Final = "shdc"
"""Suit letters in card-index order: spades, hearts, diamonds (dīnārī), clubs."""
SUIT_SYMBOLS: Final = "♠♥♦♣"
RANKS: Final = "A234567QJK"
"""Rank letters in value order: the rank at index ``i`` has value ``i + 1``."""

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3

_SUIT_INPUT: Final = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    **{s: i for i, s in enumerate("♤♡♢♧")},
}
_RANK_INPUT: Final = {r: i for i, r in enumerate(RANKS)}


class CardError(ValueError):
    """A card or card list in the text notation could not be read."""


class Card(int):
    """One of the 40 cards; an ``int`` from 0 to 39 that prints in the notation.

    >>> Card.parse("7♦")
    Card.parse('7d')
    >>> Card.parse("Qh").value
    8
    """

    __slots__ = ()

    @property
    def value(self) -> int:
        """The card's value, 1 (ace) to 10 (king)."""
        return self % 10 + 1

    @property
    def suit(self) -> int:
        """The suit index: 0 spades, 1 hearts, 2 diamonds, 3 clubs."""
        return self // 10

    @property
    def rank(self) -> str:
        """The rank letter: A, 2 … 7, Q, J or K."""
        return RANKS[self % 10]

    @property
    def bit(self) -> int:
        """This card as a one-card set."""
        return 1 << self

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card such as ``7d``, ``Ks`` or ``7♦``; raise :class:`CardError`."""
        t = text.strip()
        if len(t) != 2:
            raise CardError(f"malformed card {text!r}: expected a rank and a suit, like 7d")
        rank = _RANK_INPUT.get(t[0].upper())
        suit = _SUIT_INPUT.get(t[1].lower())
        if rank is None or suit is None:
            raise CardError(
                f"malformed card {text!r}: rank must be one of {RANKS}, suit one of {SUITS}"
            )
        return CARDS[suit * 10 + rank]

    def __str__(self) -> str:
        return RANKS[self % 10] + SUITS[self // 10]

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    def pretty(self) -> str:
        """The card with its suit symbol, as a UI shows it: ``7♦``."""
        return RANKS[self % 10] + SUIT_SYMBOLS[self // 10]


CARDS: Final[tuple[Card, ...]] = tuple(Card.__new__(Card, i) for i in range(40))
"""All 40 cards, indexed by their number."""

FULL_DECK: Final = (1 << 40) - 1
"""The set of all 40 cards."""

SEVEN_OF_DIAMONDS: Final = CARDS[DIAMONDS * 10 + 6]
"""*Sabʿa l-ḥayya*, the living seven."""

DIAMONDS_MASK: Final = 0x3FF << (DIAMONDS * 10)
"""The set of the ten dīnārī (diamonds)."""


FACE_NAMES: Final[dict[str, dict[str, str]]] = {
    "french": {"A": "ace", "Q": "queen", "J": "jack", "K": "king"},
    "italian": {"A": "asso", "Q": "fante", "J": "cavallo", "K": "re"},
    "spanish": {"A": "as", "Q": "sota", "J": "caballo", "K": "rey"},
}
"""The names of the ace and the faces in each deck, by rank letter. The notation is
Chkobba's in every game (Q = 8, J = 9, K = 10): in the Italian deck Q is the fante, J the
cavallo, K the re (scopa-wikipedia-fr.txt:19); in the Spanish deck the sota, the caballo
and the rey. A French deck in Scopa plays its jack as the fante and its queen as the
cavallo (line 53); in Chkobba the queen is the 8 and the jack the 9."""

SUIT_NAMES: Final[dict[str, tuple[str, str, str, str]]] = {
    "french": ("spades", "hearts", "diamonds", "clubs"),
    "italian": ("spade", "coppe", "denari", "bastoni"),
    "spanish": ("espadas", "copas", "oros", "bastos"),
}
"""Each deck's suits in card-index order (s, h, d, c): swords for spades, cups for hearts,
coins for diamonds, clubs (batons) for clubs (scopa-wikipedia-fr.txt:54)."""


def face_name(rank: str, deck: str = "french") -> str:
    """A rank's name in a deck's words: ``face_name("Q", "italian")`` is ``fante``; a
    number is its digit. Raise :class:`CardError` for an unknown rank or deck."""
    faces = FACE_NAMES.get(deck)
    if faces is None:
        raise CardError(f"unknown deck {deck!r} (known: {', '.join(FACE_NAMES)})")
    if len(rank) != 1 or rank.upper() not in _RANK_INPUT:
        raise CardError(f"unknown rank {rank!r}: ranks are {RANKS}")
    return faces.get(rank.upper(), rank)


def rank_mask(value: int) -> int:
    """The set of the four cards of one value (1 … 10)."""
    i = value - 1
    return (1 << i) | (1 << (10 + i)) | (1 << (20 + i)) | (1 << (30 + i))


SEVENS_MASK: Final = rank_mask(7)
SIXES_MASK: Final = rank_mask(6)

VALUE_OF: Final[tuple[int, ...]] = tuple(i % 10 + 1 for i in range(40))
"""Value of each card number, as a tuple for the hot loops."""


def cards_of(mask: int) -> list[Card]:
    """The cards of a set, in card-number order."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    """The set holding the given cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def iter_bits(mask: int) -> Iterator[int]:
    """The card numbers of a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def format_cards(mask: int, sep: str = "+", pretty: bool = False) -> str:
    """A set of cards in the notation, ordered by value then suit: ``7d+Ah`` → ``Ah+7d``.

    ``pretty`` writes suit symbols (``7♦``) instead of letters.
    """
    cards = sorted(cards_of(mask), key=_display_key)
    return sep.join(c.pretty() if pretty else str(c) for c in cards)


def _display_key(c: Card) -> tuple[int, int]:
    return (c % 10, c // 10)


def sort_for_display(cards: Iterable[Card]) -> list[Card]:
    """Cards ordered by value, then suit: the order a hand is shown in."""
    return sorted(cards, key=_display_key)


def parse_cards(text: str, sep: str = "+") -> int:
    """Read ``7d+Ah`` into a set; raise :class:`CardError` on a bad or repeated card."""
    m = 0
    for part in text.split(sep):
        bit = 1 << Card.parse(part)
        if m & bit:
            raise CardError(f"card {part.strip()} is named twice in {text!r}")
        m |= bit
    return m
