"""Every card's name for people: in the words and signs of the deck in use and the
language of the reader (the pages have the same logic in ``static/cardnames.js``).

The notation (``7d``, ``Jh``) never changes; only what is read does. On the French deck
a card is written as today, its rank and suit sign (``7♦``, ``J♥``), and named in words
for screen readers (``seven of diamonds``, ``sept de carreau``). The Italian and Spanish
decks have no suit signs people know from French cards: there a card is written in
words, the number as a digit and the court cards by name (``Cavallo di coppe``,
``7 di denari``, ``Sota de oros``), and named all in words (``sette di denari``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from chkobba.fishing.cards import CARDS, RANKS, SUIT_SYMBOLS, SUITS, Card, CardError
from chkobba.words.catalogue import word

DECKS: Final = ("french", "italian", "spanish")

_COURTS: Final = "AQJK"
"""The ranks named by a word in every deck: the ace and the three court cards."""


def _card(card: Card | int | str) -> Card:
    if isinstance(card, str):
        return Card.parse(card)
    return CARDS[int(card)]


def _check(deck: str) -> None:
    if deck not in DECKS:
        raise CardError(f"unknown deck {deck!r} (known: {', '.join(DECKS)})")


def suit_name(suit: int | str, deck: str, lang: str) -> str:
    """A suit's name in ``deck``'s words and ``lang``: ``denari``, ``oros``, ``carreau``."""
    _check(deck)
    letter = SUITS[suit] if isinstance(suit, int) else suit
    return word(lang, "cards", f"{deck}_{letter}")


def rank_name(rank: str, deck: str, lang: str) -> str:
    """A rank in words: ``sette``, ``cavallo``, ``queen``."""
    _check(deck)
    if rank in _COURTS:
        return word(lang, "cards", f"{deck}_{rank}")
    if rank not in RANKS:
        raise CardError(f"unknown rank {rank!r}: ranks are {RANKS}")
    return word(lang, "cards", f"number_{rank}")


def card_name(card: Card | int | str, deck: str, lang: str) -> str:
    """A card's full name, all in words: ``seven of coins``, ``sette di denari``,
    ``sept de carreau``: what a screen reader says."""
    c = _card(card)
    return word(lang, "cards", f"{deck}_of_{SUITS[c.suit]}", rank=rank_name(c.rank, deck, lang))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def card_short(card: Card | int | str, deck: str, lang: str) -> str:
    """A card as written in a line of text: ``7♦`` on the French deck; on the others the
    number as a digit or the court card by name, and the suit by name
    (``7 di denari``, ``Cavallo di coppe``, ``As de oros``)."""
    c = _card(card)
    _check(deck)
    if deck == "french":
        return c.rank + SUIT_SYMBOLS[c.suit]
    rank = _capital(rank_name(c.rank, deck, lang)) if c.rank in _COURTS else c.rank
    return word(lang, "cards", f"{deck}_of_{SUITS[c.suit]}", rank=rank)


def cards_short(cards: Iterable[Card | int | str], deck: str, lang: str) -> str:
    """Several cards as written in a line: ``7♦ 3♠``; ``7 di denari, Re di spade``."""
    written = [card_short(c, deck, lang) for c in cards]
    return (" " if deck == "french" else word(lang, "cards", "list")).join(written)


def coins_sign(deck: str, lang: str) -> str:
    """How a count of coins is marked: ``♦`` on French cards, else the suit's name."""
    return SUIT_SYMBOLS[2] if deck == "french" else suit_name(2, deck, lang)
