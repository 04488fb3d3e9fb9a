"""Touti parlé (*Balhadra*, book §2.1.3): what a seat may ask its partner, and the true answers.

In the parlé game (option ``talk="parle"``) a player tells the partner the strength
of its hand "without naming suits", "limiting itself to answering its questions".
The questions the book lists are the topics here; each answer is computed from
the hand, so the engine can check it and a record can be verified:

============  =====================================================  ==============
topic         the answer                                             text
============  =====================================================  ==============
voids         suits with no card (*chicane*: "je coupe en 1er")      ``1``
singletons    suits with one card ("je coupe en 2e")                 ``0``
shape         the four suits' lengths, longest first                 ``4-3-2-1``
aces          aces (1, *Allas*)                                      ``2``
threes        threes (3, *Triss*)                                    ``1``
twelves       twelves (12, *Array*)                                  ``1``
elevens       elevens (11, *Alkabal*)                                ``0``
tens          tens (10, *Assota*)                                    ``3``
tchanek       cards without points (7, 6, 5, 4, 2)                   ``4``
cantos        each announcement held (its 11 and 12): how many more  ``3m+0t``
              cards of its suit go with it, and ``m`` *matayhach*
              (declarable without the partner's help) or ``t``
              *tayha* (needs it); ``none``
============  =====================================================  ==============

*Matayhach* is [decided] as: the hand also holds the ace of the pair's suit, so it
can take a trick in that suit by itself without giving up the 11 or the 12 (it
must beat the trick when that suit is led, and the ace does). Otherwise *tayha*.
No answer names a suit. Answers describe the hand as dealt: asked during the
bidding, they stay true of the cards held then, and the play does not change them.
"""

from __future__ import annotations

from typing import Final

from chkobba.touti.cards import ACE_MASK, PAIRS, SUIT_MASKS
from chkobba.words.catalogue import DEFAULT_LANGUAGE, word

__all__ = [
    "TOPICS",
    "Answer",
    "answer",
    "answer_distance",
    "answer_words",
    "format_answer",
    "parse_answer",
    "question_words",
]

Answer = tuple[int, ...]
"""An answer as numbers: one count; the four lengths; or, for ``cantos``, per pair
held (most accompanied first) the cards that go with it and 1 for *matayhach*."""

TOPICS: Final = (
    "voids",
    "singletons",
    "shape",
    "aces",
    "threes",
    "twelves",
    "elevens",
    "tens",
    "tchanek",
    "cantos",
)
"""The questions, in the order the book lists them (§2.1.3)."""


def _rank_mask(*indices: int) -> int:
    return sum(1 << (10 * s + i) for s in range(4) for i in indices)


# Index within a suit: A 2 3 4 5 6 7 Q(10) J(11) K(12).
_COUNTED: Final = {
    "aces": ACE_MASK,
    "threes": _rank_mask(2),
    "twelves": _rank_mask(9),
    "elevens": _rank_mask(8),
    "tens": _rank_mask(7),
    "tchanek": _rank_mask(1, 3, 4, 5, 6),
}
_MOST: Final = {"voids": 3, "singletons": 4, "tchanek": 10}
_NAMES: Final = {
    "voids": ("void", "voids"),
    "singletons": ("singleton", "singletons"),
    "aces": ("ace (1, allas)", "aces (1, allas)"),
    "threes": ("three (3, triss)", "threes (3, triss)"),
    "twelves": ("twelve (12, array)", "twelves (12, array)"),
    "elevens": ("eleven (11, alkabal)", "elevens (11, alkabal)"),
    "tens": ("ten (10, assota)", "tens (10, assota)"),
    "tchanek": ("tchenka (a card without points)", "tchanek (cards without points)"),
}


def _lengths(hand: int) -> list[int]:
    return [(hand & m).bit_count() for m in SUIT_MASKS]


def answer(hand: int, topic: str) -> Answer:
    """The true answer of ``hand`` to the question ``topic`` (one of :data:`TOPICS`)."""
    counted = _COUNTED.get(topic)
    if counted is not None:
        return ((hand & counted).bit_count(),)
    lengths = _lengths(hand)
    if topic == "voids":
        return (lengths.count(0),)
    if topic == "singletons":
        return (lengths.count(1),)
    if topic == "shape":
        return tuple(sorted(lengths, reverse=True))
    if topic == "cantos":
        held = sorted(
            (
                (lengths[s] - 2, hand >> (10 * s) & 1)
                for s in range(4)
                if hand & PAIRS[s] == PAIRS[s]
            ),
            reverse=True,
        )
        return tuple(x for pair in held for x in pair)
    raise ValueError(f"unknown question {topic!r} (known: {', '.join(TOPICS)})")


def format_answer(topic: str, value: Answer) -> str:
    """An answer's text in the notation: ``2``, ``4-3-2-1``, ``3m+0t``, ``none``."""
    if topic == "shape":
        return "-".join(map(str, value))
    if topic == "cantos":
        if not value:
            return "none"
        return "+".join(
            f"{value[i]}{'m' if value[i + 1] else 't'}" for i in range(0, len(value), 2)
        )
    return str(value[0])


def parse_answer(topic: str, text: str) -> Answer:
    """Read an answer's text for ``topic``; raise ``ValueError`` saying what is wrong.

    Only the form is checked here (a count in range, four lengths making 10 cards,
    pairs spelt ``3m``/``0t``); whether it is true is the engine's business.
    """
    t = text.strip().lower()
    if topic == "shape":
        parts = t.split("-")
        if len(parts) != 4 or not all(p.isascii() and p.isdigit() for p in parts):
            raise ValueError(f"a shape is four suit lengths, like 4-3-2-1, not {text!r}")
        lengths = sorted((int(p) for p in parts), reverse=True)
        if sum(lengths) != 10:
            raise ValueError(f"a shape's four lengths make 10 cards, not {sum(lengths)}")
        return tuple(lengths)
    if topic == "cantos":
        if t == "none":
            return ()
        held: list[tuple[int, int]] = []
        for part in t.split("+"):
            n, kind = part[:-1], part[-1:]
            if not (n.isascii() and n.isdigit()) or kind not in ("m", "t") or int(n) > 8:
                raise ValueError(
                    f"announcements are written like 3m+0t (cards with each pair, m matayhach "
                    f"or t tayha) or none, not {text!r}"
                )
            held.append((int(n), kind == "m"))
        if len(held) > 4 or sum(n + 2 for n, _ in held) > 10:
            raise ValueError(f"a hand of 10 cards cannot hold the announcements {text!r}")
        return tuple(x for pair in sorted(held, reverse=True) for x in pair)
    if topic not in _COUNTED and topic not in _MOST:
        raise ValueError(f"unknown question {topic!r} (known: {', '.join(TOPICS)})")
    most = _MOST.get(topic, 4)
    if not (t.isascii() and t.isdigit()) or int(t) > most:
        raise ValueError(f"the answer about {topic} is a number from 0 to {most}, not {text!r}")
    return (int(t),)


def question_words(topic: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The question in words: ``how many aces?`` (in ``lang``: ``combien de as (1, allas) ?``;
    the records keep the English)."""
    if lang != DEFAULT_LANGUAGE:
        if topic in ("shape", "cantos"):
            return word(lang, "touti", f"parle_q_{topic}")
        return word(lang, "touti", "parle_q_count", what=word(lang, "touti", f"parle_name_{topic}"))
    if topic == "shape":
        return "how many cards in each suit (no suit named)?"
    if topic == "cantos":
        return "which announcements?"
    return f"how many {_NAMES[topic][1]}?"


def answer_words(topic: str, value: Answer, lang: str = DEFAULT_LANGUAGE) -> str:
    """The answer in words: ``2 aces (1, allas)``, ``one void (je coupe en 1er)`` (in
    ``lang`` from the catalogue's ``touti`` section; the records keep the English)."""
    if lang != DEFAULT_LANGUAGE:
        return _answer_in(lang, topic, value)
    if topic == "shape":
        return "suits of " + ", ".join(map(str, value[:-1])) + f" and {value[-1]} cards"
    if topic == "cantos":
        if not value:
            return "no announcement"
        parts = []
        for i in range(0, len(value), 2):
            kind = (
                "matayhach (declarable without help)" if value[i + 1] else "tayha (needs help)"
            )
            more = "no other card" if not value[i] else f"{value[i]} more card(s)"
            parts.append(f"with {more} of its suit, {kind}")
        n = len(value) // 2
        if n == 1:
            return f"one announcement, {parts[0]}"
        return f"{n} announcements: " + "; ".join(f"one {p}" for p in parts)
    n = value[0]
    one, many = _NAMES[topic]
    words = "no " + one.split(" (")[0] if n == 0 else f"one {one}" if n == 1 else f"{n} {many}"
    if topic == "voids" and n:
        words += ": je coupe en 1er"
    elif topic == "singletons" and n:
        words += ": je coupe en 2e"
    return words


def _answer_in(lang: str, topic: str, value: Answer) -> str:
    def say(key: str, **values: object) -> str:
        return word(lang, "touti", f"parle_{key}", **values)

    if topic == "shape":
        return say("a_shape", lengths=", ".join(map(str, value[:-1])), last=value[-1])
    if topic == "cantos":
        if not value:
            return say("a_no_canto")
        parts = []
        for i in range(0, len(value), 2):
            more = say("a_more", n=value[i]) if value[i] else say("a_more_none")
            kind = say("a_matayhach" if value[i + 1] else "a_tayha")
            parts.append(say("a_canto", more=more, kind=kind))
        if len(parts) == 1:
            return say("a_one_canto", part=parts[0])
        return say("a_cantos", n=len(parts), parts="; ".join(say("a_each", part=p) for p in parts))
    n = value[0]
    said = say("a_count", what=say(f"name_{topic}"), n=n)
    # The book's own words for a void and a singleton, in every language.
    if topic == "voids" and n:
        said += " (je coupe en 1er)"
    elif topic == "singletons" and n:
        said += " (je coupe en 2e)"
    return said


def answer_distance(hand: int, topic: str, value: Answer) -> int:
    """How far ``hand`` is from giving the answer ``value`` (0: it gives it).

    A measure for the search's sampling of hidden hands, which swaps cards
    between hands until every answer heard is true of them.
    """
    got = answer(hand, topic)
    if topic == "cantos":
        d = 3 * abs(len(got) - len(value)) // 2
        for i in range(0, min(len(got), len(value)), 2):
            d += abs(got[i] - value[i]) + (got[i + 1] != value[i + 1])
        return d
    return sum(abs(a - b) for a, b in zip(got, value, strict=True))
