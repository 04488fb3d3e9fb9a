"""Touti's moves: small immutable values with a two-way text form.

=================  ===============  ==========================================
move               text             when
=================  ===============  ==========================================
:class:`Bid`       ``100``          bidding: a bid, 70 to 230 by tens
:class:`Call`      ``pass``         bidding: a pass (final)
                   ``alla``         bidding, semi-parlé: a pass that says "I hold an ace"
                   ``macharich``    bidding, semi-parlé: a pass that says "I hold an announcement"
                   ``zadtak``       bidding, semi-parlé: the partner's bid plus 10, forcing it
                                    to bid 20 more (*zadtak âachra*)
                   ``redeal``       bidding, option: a hand worth no card point asks for a redeal
:class:`Ask`       ``ask:aces``     bidding, parlé: a question to the partner about its hand
:class:`Tell`      ``tell:aces=2``  the partner's true answer, at once
:class:`Trump`     ``trump:d``      the declarer names trumps
:class:`CardPlay`  ``Ah``           a card played to the trick
:class:`Canto`     ``canto:h``      after a trick its team won: announce the 11 and 12 of a suit
                   (``nocanto``)    ... or announce nothing (a :class:`Call`)
                   ``claim``        option: claim every remaining trick (a :class:`Call`)
=================  ===============  ==========================================

>>> parse_move("trump:d")
Trump.parse('trump:d')
>>> str(parse_move("Ah")), str(parse_move("110")), str(parse_move("PASS"))
('Ah', '110', 'pass')
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from chkobba.fishing.cards import CARDS, SUITS, Card, CardError
from chkobba.touti.cards import parse_suit
from chkobba.touti.parle import TOPICS, Answer, format_answer, parse_answer

MIN_BID: Final = 70
MAX_BID: Final = 230
BID_STEP: Final = 10


class NotationError(ValueError):
    """A move's text could not be read."""


class Bid(NamedTuple):
    """A bid: the points the bidder's team undertakes to make (70 to 230 by tens)."""

    amount: int

    def __str__(self) -> str:
        return str(self.amount)

    def __repr__(self) -> str:
        return f"Bid({self.amount})"


class Call(enum.Enum):
    """The moves that name no card, amount or suit."""

    PASS = "pass"
    ALLA = "alla"
    MACHARICH = "macharich"
    ZADTAK = "zadtak"
    REDEAL = "redeal"
    NO_CANTO = "nocanto"
    CLAIM = "claim"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Call.{self.name}"


class Trump(NamedTuple):
    """The declarer's choice of trumps (a suit index)."""

    suit: int

    @staticmethod
    def parse(text: str) -> Trump:
        """Read ``trump:d``."""
        return Trump(_suit_after(text, "trump"))

    def __str__(self) -> str:
        return f"trump:{SUITS[self.suit]}"

    def __repr__(self) -> str:
        return f"Trump.parse('{self}')"


class Canto(NamedTuple):
    """An announcement: the 11 and 12 of a suit, both in the announcer's hand."""

    suit: int

    @staticmethod
    def parse(text: str) -> Canto:
        """Read ``canto:h``."""
        return Canto(_suit_after(text, "canto"))

    def __str__(self) -> str:
        return f"canto:{SUITS[self.suit]}"

    def __repr__(self) -> str:
        return f"Canto.parse('{self}')"


class CardPlay(NamedTuple):
    """A card played to the current trick."""

    card: int

    def __str__(self) -> str:
        return str(CARDS[self.card])

    def __repr__(self) -> str:
        return f"CardPlay.parse('{self}')"

    @staticmethod
    def parse(text: str) -> CardPlay:
        """Read a card in the notation (``Ah``, ``K♦``)."""
        try:
            return CardPlay(Card.parse(text))
        except CardError as e:
            raise NotationError(str(e)) from None


class Ask(NamedTuple):
    """Parlé: a question to the partner about its hand (a topic of :mod:`chkobba.touti.parle`)."""

    topic: str

    @staticmethod
    def parse(text: str) -> Ask:
        """Read ``ask:aces``."""
        head, sep, tail = text.strip().lower().partition(":")
        topic = tail.strip()
        if head.strip() != "ask" or not sep or topic not in TOPICS:
            raise NotationError(
                f"malformed question {text!r}: expected ask:TOPIC, TOPIC one of "
                f"{', '.join(TOPICS)}"
            )
        return Ask(topic)

    def __str__(self) -> str:
        return f"ask:{self.topic}"

    def __repr__(self) -> str:
        return f"Ask.parse('{self}')"


class Tell(NamedTuple):
    """Parlé: the answer to the partner's question, which the engine checks is true."""

    topic: str
    answer: Answer

    @staticmethod
    def parse(text: str) -> Tell:
        """Read ``tell:aces=2``, ``tell:shape=4-3-2-1``, ``tell:cantos=3m+0t``."""
        head, sep, tail = text.strip().lower().partition(":")
        topic, eq, value = tail.partition("=")
        topic = topic.strip()
        if head.strip() != "tell" or not sep or not eq or topic not in TOPICS:
            raise NotationError(
                f"malformed answer {text!r}: expected tell:TOPIC=ANSWER, like tell:aces=2"
            )
        try:
            return Tell(topic, parse_answer(topic, value))
        except ValueError as e:
            raise NotationError(f"malformed answer {text!r}: {e}") from None

    def __str__(self) -> str:
        return f"tell:{self.topic}={format_answer(self.topic, self.answer)}"

    def __repr__(self) -> str:
        return f"Tell.parse('{self}')"


ToutiMove = Bid | Call | Trump | CardPlay | Canto | Ask | Tell
"""Any move of a deal of Touti."""


def _suit_after(text: str, word: str) -> int:
    head, sep, tail = text.strip().partition(":")
    if head.strip().lower() != word or not sep:
        raise NotationError(f"malformed move {text!r}: expected {word}:SUIT, like {word}:d")
    try:
        return parse_suit(tail)
    except CardError as e:
        raise NotationError(f"malformed move {text!r}: {e}") from None


def parse_move(text: str) -> ToutiMove:
    """Read any move in its text form; raise :class:`NotationError` if malformed."""
    t = text.strip().lower()
    for call in Call:
        if t == call.value:
            return call
    if t.isascii() and t.isdigit():
        amount = int(t)
        if not MIN_BID <= amount <= MAX_BID or amount % BID_STEP:
            raise NotationError(
                f"malformed bid {text!r}: bids are {MIN_BID} to {MAX_BID} in steps of {BID_STEP}"
            )
        return Bid(amount)
    if t.startswith("trump"):
        return Trump.parse(t)
    if t.startswith("canto"):
        return Canto.parse(t)
    if t.startswith("ask"):
        return Ask.parse(t)
    if t.startswith("tell"):
        return Tell.parse(t)
    if len(t) == 2:
        return CardPlay.parse(text)
    raise NotationError(
        f"malformed move {text!r}: expected a bid (70 to 230), pass, trump:SUIT, "
        "a card (Ah), canto:SUIT or nocanto, ask:TOPIC or tell:TOPIC=ANSWER"
    )
