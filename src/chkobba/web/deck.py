"""The project's own playing cards, drawn as SVG by this module (no third-party card art).

Three decks of 40 cards and their backs: the French deck (Chkobba's: hearts,
diamonds, clubs, spades), the Italian deck (the Scopa family's: coppe, denari,
spade, bastoni) and the Spanish deck (Escoba's and Touti's: copas, oros, espadas,
bastos). Every pip is a path written here; the numbers 1 to 7 lay their pips out
in the usual patterns, and the three court cards of each deck are simple figures
(the French jack, queen and king; the Italian fante, cavallo and re; the Spanish
sota, caballo and rey) with a big corner index, so they can be told apart at a
glance even at a phone's card size.

Cards are named in the project's notation (:mod:`chkobba.fishing.cards`): ``7d`` is the
seven of diamonds, of denari, of oros. Everything here is pure: the same name
always gives the same bytes, which is what lets the server cache them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from typing import Final

from chkobba.fishing.cards import CARDS, SUITS, Card
from chkobba.words.cards import card_name

DECKS: Final = ("french", "italian", "spanish")
"""The decks drawn, in the names of the ``deck`` rule option (docs/rules.md)."""

WIDTH: Final = 100
HEIGHT: Final = 140
"""The view box of every card: the proportions of a real card (5:7)."""

_INK: Final = "#1b1e24"
_RED: Final = "#c0262d"
_GOLD: Final = "#d9a21b"
_SKIN: Final = "#f3cfa6"

# Each suit's colours in the Italian and Spanish decks, which tell suits apart by
# colour as well as by shape: (fill, outline).
_SUIT_COLOURS: Final[dict[str, tuple[str, str]]] = {
    "s": ("#3a6fb8", "#1c3766"),
    "h": ("#c8372d", "#6e1711"),
    "d": ("#e8b423", "#8a5a07"),
    "c": ("#3f8a3a", "#5b3613"),
}

_INDEX: Final[dict[str, dict[str, str]]] = {
    "french": {"Q": "Q", "J": "J", "K": "K"},
    "italian": {"Q": "F", "J": "C", "K": "R"},
    "spanish": {"Q": "10", "J": "11", "K": "12"},
}
"""The corner index of the court cards: the French letters; the Italian fante, cavallo
and re as F, C, R; the Spanish sota, caballo and rey as printed on Spanish decks, 10, 11
and 12 (docs/touti.md names them so)."""

_CODES: Final[dict[str, Card]] = {str(c): c for c in CARDS}


class DeckError(ValueError):
    """An unknown deck or card name."""


# -- the pips: each drawn in a 20 x 20 box centred on the origin -------------------


def _heart(fill: str) -> str:
    return (
        f'<path fill="{fill}" d="M0 9C-4 5-10 1-10-4C-10-8-7-10-4.5-10C-2-10-.5-8.5 0-7'
        'C.5-8.5 2-10 4.5-10C7-10 10-8 10-4C10 1 4 5 0 9Z"/>'
    )


def _diamond(fill: str) -> str:
    return f'<path fill="{fill}" d="M0-10L7.5 0L0 10L-7.5 0Z"/>'


def _spade(fill: str) -> str:
    return (
        f'<path fill="{fill}" d="M0-10C-4-5-10-2-10 2.5C-10 6-7 7.5-4.5 7.5C-2.5 7.5-1 6.5'
        "-.5 5.5C-1 8-2 9.5-4 10L4 10C2 9.5 1 8 .5 5.5C1 6.5 2.5 7.5 4.5 7.5C7 7.5 10 6 10 2.5"
        'C10-2 4-5 0-10Z"/>'
    )


def _club(fill: str) -> str:
    return (
        f'<g fill="{fill}"><circle cx="0" cy="-5.2" r="4.4"/><circle cx="-5" cy="1.4" r="4.4"/>'
        '<circle cx="5" cy="1.4" r="4.4"/><path d="M-.9 0C-1 5.5-2 8.5-4.2 10L4.2 10C2 8.5 1 5.5'
        ' .9 0Z"/></g>'
    )


def _italian_cup() -> str:
    fill, line = _SUIT_COLOURS["h"]
    return (
        f'<g stroke="{line}" stroke-width=".8"><path fill="{fill}" d="M-6.5-7L6.5-7C6.5-.5 3 2.5'
        " 1.2 3.2L1.2 6.2L5 8.6L5 10L-5 10L-5 8.6L-1.2 6.2L-1.2 3.2C-3 2.5-6.5-.5-6.5-7Z\"/>"
        f'<ellipse fill="{_GOLD}" cx="0" cy="-7" rx="6.5" ry="1.8"/>'
        f'<path fill="{_GOLD}" d="M-2.5-8.6L0-10.6L2.5-8.6Z"/></g>'
    )


def _spanish_cup() -> str:
    fill, line = _SUIT_COLOURS["h"]
    return (
        f'<g stroke="{line}" stroke-width=".8"><path fill="{fill}" d="M-9-9L9-9C9-2 4.5 .8 2 1.8'
        "C3.6 3.2 3.6 5 1.6 6L5.8 8.8L5.8 10L-5.8 10L-5.8 8.8L-1.6 6C-3.6 5-3.6 3.2-2 1.8"
        'C-4.5 .8-9-2-9-9Z"/>'
        f'<path fill="{_GOLD}" d="M-8.9-9L8.9-9L8.6-6.4L-8.6-6.4Z"/></g>'
    )


def _italian_coin() -> str:
    fill, line = _SUIT_COLOURS["d"]
    petals = "".join(
        f'<ellipse cx="0" cy="-3.6" rx="1.5" ry="2.6" transform="rotate({a})"/>'
        for a in range(0, 360, 45)
    )
    return (
        f'<g stroke="{line}" stroke-width=".8"><circle fill="{fill}" r="9.4"/>'
        f'<circle fill="none" r="7.2"/><g fill="{_RED}" stroke="none">{petals}</g>'
        f'<circle fill="{fill}" r="1.6"/></g>'
    )


def _spanish_coin() -> str:
    fill, line = _SUIT_COLOURS["d"]
    rays = "".join(
        f'<path d="M-1.2-9.6L0-12L1.2-9.6Z" transform="rotate({a})"/>' for a in range(0, 360, 30)
    )
    return (
        f'<g transform="scale(.82)"><g fill="{line}">{rays}</g>'
        f'<circle fill="{fill}" stroke="{line}" stroke-width="1" r="9.6"/>'
        f'<circle fill="none" stroke="{line}" stroke-width="1" r="5.4"/>'
        f'<circle fill="{_RED}" r="2.6"/></g>'
    )


def _italian_sword() -> str:
    fill, line = _SUIT_COLOURS["s"]
    # A curved blade, as on the Italian swords, leaning from bottom left to top right.
    return (
        f'<g stroke="{line}" stroke-width=".7" transform="rotate(28)">'
        f'<path fill="{fill}" d="M-1.6 4.4C-3.4-1.5-2.4-6.6 2.4-10.6C.9-6.1 1.6-1.2 1.6 4.4Z"/>'
        f'<rect fill="{_GOLD}" x="-5.2" y="4.2" width="10.4" height="1.8" rx=".8"/>'
        f'<rect fill="{_RED}" x="-1" y="6" width="2" height="3.2"/>'
        f'<circle fill="{_GOLD}" cy="9.9" r="1.3"/></g>'
    )


def _spanish_sword() -> str:
    fill, line = _SUIT_COLOURS["s"]
    # A straight, pointed broadsword with a curved guard.
    return (
        f'<g stroke="{line}" stroke-width=".7" transform="rotate(-20)">'
        f'<path fill="{fill}" d="M-1.9 4L-1.9-7.2L0-10.8L1.9-7.2L1.9 4Z"/>'
        f'<path fill="none" stroke-width="1.2" d="M0-6.5L0 2.8"/>'
        f'<path fill="{_GOLD}" d="M-6 2.6C-4 4.6 4 4.6 6 2.6L6 4.6C4 6.4-4 6.4-6 4.6Z"/>'
        f'<rect fill="{_INK}" x="-.9" y="5.8" width="1.8" height="3.2"/>'
        f'<circle fill="{_GOLD}" cy="9.7" r="1.4"/></g>'
    )


def _italian_baton() -> str:
    fill, line = _SUIT_COLOURS["c"]
    # A smooth, turned baton with banded ends.
    return (
        f'<g stroke="{line}" stroke-width=".7" transform="rotate(-28)">'
        f'<path fill="{fill}" d="M-1.9 10L-1.3-10L1.3-10L1.9 10Z"/>'
        f'<rect fill="{_GOLD}" x="-2.3" y="-10.4" width="4.6" height="2.2" rx=".6"/>'
        f'<rect fill="{_GOLD}" x="-2.6" y="8.2" width="5.2" height="2.2" rx=".6"/>'
        f'<rect fill="{_RED}" x="-1.8" y="-.8" width="3.6" height="1.6"/></g>'
    )


def _spanish_club() -> str:
    fill, line = _SUIT_COLOURS["c"]
    # A rough cudgel, thick at the head, with the stumps of cut branches.
    return (
        f'<g stroke="{line}" stroke-width=".7" transform="rotate(24)">'
        f'<path fill="{fill}" d="M-1.6 10.4L-3.8-7.5C-3.8-10.6 3.8-10.6 3.8-7.5L1.6 10.4Z"/>'
        f'<g fill="{fill}"><path d="M-3.3-4.5L-6-6.2L-5.4-3.6Z"/>'
        '<path d="M2.9-1L5.8-2.2L4.6.6Z"/><path d="M-2.4 3.6L-5 3L-3.4 5.4Z"/></g>'
        f'<path fill="none" d="M-1.5-8.6L1.4-8.6"/></g>'
    )


Pip = Callable[[], str]


def _french(suit: str) -> Pip:
    colour = _RED if suit in "hd" else _INK
    shape = {"s": _spade, "h": _heart, "d": _diamond, "c": _club}[suit]
    return lambda: shape(colour)


_PIPS: Final[dict[str, dict[str, Pip]]] = {
    "french": {s: _french(s) for s in SUITS},
    "italian": {"s": _italian_sword, "h": _italian_cup, "d": _italian_coin, "c": _italian_baton},
    "spanish": {"s": _spanish_sword, "h": _spanish_cup, "d": _spanish_coin, "c": _spanish_club},
}


def pip(deck: str, suit: str, x: float, y: float, size: float, upside_down: bool = False) -> str:
    """One suit sign of ``deck`` centred at (x, y), ``size`` units across."""
    turn = " rotate(180)" if upside_down else ""
    place = f"translate({x:g} {y:g}) scale({size / 20:g}){turn}"
    return f'<g transform="{place}">{_PIPS[deck][suit]()}</g>'


# -- the layouts -----------------------------------------------------------------

_LAYOUTS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.12), (0.5, 0.88)),
    3: ((0.5, 0.12), (0.5, 0.5), (0.5, 0.88)),
    4: ((0.2, 0.12), (0.8, 0.12), (0.2, 0.88), (0.8, 0.88)),
    5: ((0.2, 0.12), (0.8, 0.12), (0.5, 0.5), (0.2, 0.88), (0.8, 0.88)),
    6: ((0.2, 0.12), (0.8, 0.12), (0.2, 0.5), (0.8, 0.5), (0.2, 0.88), (0.8, 0.88)),
    7: (
        (0.2, 0.12), (0.8, 0.12), (0.5, 0.31), (0.2, 0.5), (0.8, 0.5), (0.2, 0.88),
        (0.8, 0.88),
    ),
}
"""Where the pips of the numbers 1 to 7 go, as fractions of the pip field."""

# The field the pips of a number card fill, inside the corner indices.
_FIELD: Final = (22.0, 22.0, 56.0, 96.0)


def _numbers(deck: str, suit: str, value: int) -> str:
    x0, y0, w, h = _FIELD
    if value == 1:
        return pip(deck, suit, 50, 70, 46)
    # The Italian and Spanish signs are long and thin: they are drawn a little bigger.
    size = (22 if value <= 3 else 19 if value < 7 else 17) * (1.0 if deck == "french" else 1.2)
    out = []
    for fx, fy in _LAYOUTS[value]:
        # The French deck turns its lower pips upside down, as printed cards do.
        down = deck == "french" and fy > 0.5
        out.append(pip(deck, suit, x0 + fx * w, y0 + fy * h, size, down))
    return "".join(out)


# -- the court cards --------------------------------------------------------------

_CROWN: Final = (
    f'<path fill="{_GOLD}" stroke="#7a5608" stroke-width=".8" '
    'd="M41 37L41 27L45 32L50 25L55 32L59 27L59 37Z"/>'
)
_TIARA: Final = (
    f'<path fill="{_GOLD}" stroke="#7a5608" stroke-width=".7" d="M43 36L44 31L47 34L50 29L53 34'
    'L56 31L57 36Z"/><circle fill="#c8372d" cx="50" cy="32.5" r="1.3"/>'
)
_CAP: Final = (
    '<path fill="#2f4f8f" stroke="#17284a" stroke-width=".7" d="M40 37C40 29 60 29 60 37Z"/>'
    '<path fill="none" stroke="#c8372d" stroke-width="2" stroke-linecap="round" '
    'd="M57 33C62 27 66 25 69 25"/>'
)


def _head(x: float, y: float, beard: bool, long_hair: bool) -> str:
    hair = (
        f'<path fill="#6b3f1d" d="M{x - 9:g} {y + 12:g}C{x - 11:g} {y - 4:g} {x - 6:g} {y - 9:g} '
        f'{x:g} {y - 9:g}C{x + 6:g} {y - 9:g} {x + 11:g} {y - 4:g} {x + 9:g} {y + 12:g}Z"/>'
        if long_hair
        else ""
    )
    face = (
        f'<circle fill="{_SKIN}" stroke="{_INK}" stroke-width=".7" cx="{x:g}" cy="{y:g}" '
        'r="7.5"/>'
    )
    eyes = (
        f'<circle fill="{_INK}" cx="{x - 2.6:g}" cy="{y - 1:g}" r=".9"/>'
        f'<circle fill="{_INK}" cx="{x + 2.6:g}" cy="{y - 1:g}" r=".9"/>'
    )
    chin = (
        f'<path fill="#6b3f1d" d="M{x - 6.5:g} {y + 2:g}C{x - 5:g} {y + 12:g} {x + 5:g} {y + 12:g} '
        f'{x + 6.5:g} {y + 2:g}C{x + 3:g} {y + 5:g} {x - 3:g} {y + 5:g} {x - 6.5:g} {y + 2:g}Z"/>'
        if beard
        else f'<path fill="none" stroke="{_INK}" stroke-width=".7" '
        f'd="M{x - 2:g} {y + 3:g}Q{x:g} {y + 4.6:g} {x + 2:g} {y + 3:g}"/>'
    )
    return hair + face + eyes + chin


def _robe(fill: str, line: str, wide: bool) -> str:
    bottom = "M30 118L70 118" if wide else "M36 118L64 118"
    left, right = ("30 118", "70 118") if wide else ("36 118", "64 118")
    return (
        f'<path fill="{fill}" stroke="{line}" stroke-width=".8" '
        f'd="M40 54L60 54L{right}L{left}Z"/>'
        f'<path fill="none" stroke="{_GOLD}" stroke-width="2.2" d="{bottom}"/>'
        f'<rect fill="{_GOLD}" x="39" y="76" width="22" height="3"/>'
        f'<path fill="{fill}" stroke="{line}" stroke-width=".8" d="M40 55L31 72L35 74L43 62Z"/>'
        f'<path fill="{fill}" stroke="{line}" stroke-width=".8" d="M60 55L69 72L65 74L57 62Z"/>'
    )


def _legs(colour: str) -> str:
    return (
        f'<rect fill="{colour}" x="43" y="100" width="5" height="18"/>'
        f'<rect fill="{colour}" x="52" y="100" width="5" height="18"/>'
    )


def _horse(fill: str) -> str:
    # A horse seen from the side, walking to the left, under a small rider.
    return (
        f'<g stroke="{_INK}" stroke-width=".8">'
        '<path fill="#8a5a2b" d="M30 86C30 78 38 76 50 76C62 76 72 78 73 86C73 93 66 96 50 96'
        'C38 96 30 93 30 86Z"/>'
        '<path fill="#8a5a2b" d="M34 84L24 66L19 68L16 64L24 58L31 62L41 80Z"/>'
        '<g fill="#8a5a2b"><rect x="34" y="92" width="4" height="24"/>'
        '<rect x="41" y="93" width="4" height="23"/><rect x="58" y="93" width="4" height="23"/>'
        '<rect x="65" y="92" width="4" height="24"/></g>'
        '<path fill="#3b2412" d="M72 82C80 84 82 94 78 102C76 94 74 88 71 86Z"/>'
        f'<path fill="{fill}" d="M42 74L58 74L58 82L42 82Z"/></g>'
    )


def _court(deck: str, suit: str, rank: str) -> str:
    """A court figure: the king crowned and bearded, the queen with a tiara and long hair,
    the knight on a horse, the jack (fante, sota) in a cap; each holds the suit's sign."""
    if deck == "french":
        fill, line = (_RED, "#6e1711") if suit in "hd" else ("#2f4f8f", "#17284a")
    else:
        fill, line = _SUIT_COLOURS[suit]
    knight = deck != "french" and rank == "J"
    if knight:
        rider = (
            _horse(fill)
            + f'<path fill="{fill}" stroke="{line}" stroke-width=".8" '
            'd="M44 52L56 52L58 78L42 78Z"/>'
            + _head(50, 44, beard=False, long_hair=False)
            + _CAP.replace("37", "36").replace(" 33", " 32")
            + pip(deck, suit, 66, 50, 15)
        )
        return f"<g>{rider}</g>"
    king = rank == "K"
    queen = deck == "french" and rank == "Q"
    body = _robe(fill, line, wide=king or queen)
    if not (king or queen):
        body += _legs(line)
    head = _head(50, 44, beard=king, long_hair=queen)
    hat = _CROWN if king else _TIARA if queen else _CAP
    held = pip(deck, suit, 29, 78, 17 if deck == "french" else 19)
    return f"<g>{body}{head}{hat}{held}</g>"


# -- whole cards -------------------------------------------------------------------


def _check(deck: str) -> None:
    if deck not in DECKS:
        raise DeckError(f"unknown deck {deck!r} (known: {', '.join(DECKS)})")


def card_code(name: str) -> Card:
    """The card named ``name`` in the canonical notation (``7d``, ``Ks``); raise
    :class:`DeckError` for anything else."""
    card = _CODES.get(name)
    if card is None:
        raise DeckError(f"unknown card {name!r}: a rank of A234567QJK and a suit of shdc, like 7d")
    return card


_NATIVE: Final = {"french": "en", "italian": "it", "spanish": "es"}
"""The language a deck's pictures are titled in: its own (English for the French deck, as
the project's notation is)."""


def card_title(deck: str, name: str) -> str:
    """The card's name in its deck's own words (:mod:`chkobba.words.cards`):
    ``seven of hearts``, ``re di coppe``, ``as de oros``."""
    _check(deck)
    return card_name(card_code(name), deck, _NATIVE[deck])


def _index_colour(deck: str, suit: str) -> str:
    if deck == "french":
        return _RED if suit in "hd" else _INK
    return _SUIT_COLOURS[suit][1]


def _frame(title: str, inner: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img"><title>{title}</title>{inner}</svg>'
    )


@cache
def card_svg(deck: str, name: str) -> str:
    """The SVG of card ``name`` (``7d``) of ``deck``; :class:`DeckError` if either is unknown."""
    _check(deck)
    card = card_code(name)
    suit = SUITS[card.suit]
    index = _INDEX[deck].get(card.rank, "A" if deck == "french" and card.value == 1 else "")
    index = index or str(card.value)
    colour = _index_colour(deck, suit)
    # Two-character indices (the Spanish 10, 11, 12) are narrowed to keep the corner's width.
    squeeze = ' textLength="17" lengthAdjust="spacingAndGlyphs"' if len(index) > 1 else ""
    corner = (
        f'<text x="11" y="21" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" '
        f'font-weight="700" font-size="20" fill="{colour}"{squeeze}>{index}</text>'
        + pip(deck, suit, 11, 30, 11)
    )
    court = card.value >= 8
    middle = _court(deck, suit, card.rank) if court else _numbers(deck, suit, card.value)
    face = (
        f'<rect x=".5" y=".5" width="{WIDTH - 1}" height="{HEIGHT - 1}" rx="7" fill="#fffdf7" '
        'stroke="#8d949e"/>'
        + (
            f'<rect x="22" y="10" width="56" height="120" rx="3" fill="#f4ecd8" '
            f'stroke="{colour}" stroke-width=".8"/>'
            if court
            else ""
        )
        + middle
        + corner
        + f'<g transform="rotate(180 {WIDTH / 2:g} {HEIGHT / 2:g})">{corner}</g>'
    )
    return _frame(card_title(deck, name), face)


_BACK_COLOURS: Final = {
    "french": ("#2c4f8a", "#8fb0e6"),
    "italian": ("#8a2c2c", "#e6a58f"),
    "spanish": ("#2c6a45", "#9fd9b0"),
}


@cache
def back_svg(deck: str) -> str:
    """The back of ``deck``'s cards: a lattice and an eight-pointed star, in the deck's colour."""
    _check(deck)
    ground, line = _BACK_COLOURS[deck]
    lattice = "".join(
        f'<path d="M{x} 8L{x + 124} 132M{x + 124} 8L{x} 132"/>' for x in range(-116, 92, 12)
    )
    star = (
        f'<g transform="translate(50 70)" fill="{ground}" stroke="{line}" stroke-width="1.6">'
        '<rect x="-15" y="-15" width="30" height="30"/>'
        '<rect x="-15" y="-15" width="30" height="30" transform="rotate(45)"/>'
        '<circle r="7"/></g>'
    )
    inner = (
        f'<rect x=".5" y=".5" width="{WIDTH - 1}" height="{HEIGHT - 1}" rx="7" fill="#fffdf7" '
        'stroke="#8d949e"/>'
        f'<rect x="6" y="6" width="{WIDTH - 12}" height="{HEIGHT - 12}" rx="4" fill="{ground}"/>'
        f'<clipPath id="in"><rect x="8" y="8" width="{WIDTH - 16}" height="{HEIGHT - 16}"/>'
        f'</clipPath><g clip-path="url(#in)" stroke="{line}" stroke-width=".8" opacity=".7">'
        f"{lattice}</g>{star}"
    )
    return _frame("card back", inner)


def svg(deck: str, name: str) -> str:
    """What ``/cards/{deck}/{name}.svg`` serves: a card, or ``back``."""
    return back_svg(deck) if name == "back" else card_svg(deck, name)


def card_etag(body: str) -> str:
    """The HTTP entity tag of an image: a digest of its bytes, quoted."""
    return '"' + hashlib.sha256(body.encode()).hexdigest()[:20] + '"'
