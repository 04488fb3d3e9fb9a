"""End-of-round points (docs/rules.md §2.5 and §3), as a breakdown a UI can show.

A rule set's ``scoring`` option lists its points by their *keys*, the words its
own game uses for them: Chkobba scores ``karta``, ``dinari``, ``barmila``,
``haya`` and ``chkobba`` (docs/rules.md §2.5); Scopa ``carte``, ``denari``,
``settebello``, ``primiera`` and ``scope``; and so on (:data:`POINT_KEYS`). Each
key names one *point rule* (:data:`POINT_RULES`), so Chkobba's *kārṭa* and
Scopa's *carte* are the same rule in two languages:

* ``cards``: strictly the most cards;
* ``coins``: strictly the most coins (diamonds, *dīnārī*, *denari*);
* ``sevens``: strictly the most 7s, and among the sides tied on 7s strictly the
  most 6s (*barmīla*, the Algerian *première*);
* ``primiera``: the best card of each suit by 7 = 21, 6 = 18, A = 16, 5 = 15,
  4 = 14, 3 = 13, 2 = 12, Q/J/K = 10, a suit without a card counting 0; strictly
  the highest total (docs/rules.md §3);
* ``seven_of_coins``: holding the 7♦ (*sabʿa l-ḥayya*, *settebello*);
* ``sweeps``: one point per sweep of the table (*chkobba*, *scopa*), counted
  during play;
* ``king_of_coins``: holding the K♦ (*re bello*);
* ``napola``: the A, 2 and 3 of coins score 3, one more per further consecutive
  coin; all ten coins score 10;
* ``ponino``: one player who took all four knights (J) doubles the side's sweeps;
* ``coin_faces``: the A, 2 and 3 of coins score their face value (*Scopone de
  Trente*);
* ``frac``: each A, Q, J and K scores 1 (16 a round); ``frac_tie``: when the top
  is tied, the K♦ decides (1 point to its holder among the tied);
* ``declarations``: the hands declared at the deals (Cirulla, see
  :func:`declaration`).

A point that one side takes is scored by strictly the best side; a tie (*bājī*)
gives it to nobody. Sweeps, declarations and the point rules whose points can
be shared are given per side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, Protocol

from chkobba.fishing.cards import (
    CARDS,
    DIAMONDS,
    DIAMONDS_MASK,
    SEVEN_OF_DIAMONDS,
    SEVENS_MASK,
    SIXES_MASK,
    format_cards,
    rank_mask,
)

POINT_NAMES: Final = {
    "karta": "kārṭa",
    "dinari": "dīnārī",
    "barmila": "barmīla",
    "haya": "sabʿa l-ḥayya",
    "chkobba": "chkobba",
}
"""The Arabic names of Chkobba's points, transliterated, keyed by their record names."""

POINT_ARABIC: Final = {
    "karta": "كارطة",
    "dinari": "ديناري",
    "barmila": "برميلة",
    "haya": "سبعة الحيّة",
    "chkobba": "شكبّة",
}
"""Chkobba's points' names in Arabic script."""


class PointKey(NamedTuple):
    """One point as a game names it: the rule it follows and the game's words for it."""

    rule: str
    """The point rule (a key of :data:`POINT_RULES`)."""
    label: str
    """The point's name in its game's words, as the breakdown shows it."""
    native: str
    """The name in another script (Arabic for Chkobba), or empty."""
    unit: str
    """What is counted, in the game's words (``diamonds``, ``denari``…), or empty."""
    tie: str
    """The game's word for a tie that gives the point to nobody."""


POINT_KEYS: Final[dict[str, PointKey]] = {
    # Chkobba, in Tunisian Arabic (docs/rules.md §2.5).
    "karta": PointKey("cards", "kārṭa", "كارطة", "cards", "bājī"),
    "dinari": PointKey("coins", "dīnārī", "ديناري", "diamonds", "bājī"),
    "barmila": PointKey("sevens", "barmīla", "برميلة", "7s", "bājī"),
    "haya": PointKey("seven_of_coins", "sabʿa l-ḥayya", "سبعة الحيّة", "", "bājī"),
    "chkobba": PointKey("sweeps", "chkobba", "شكبّة", "", "bājī"),
    # The Italian games (docs/rules.md §3).
    "carte": PointKey("cards", "carte", "", "cards", "patta"),
    "denari": PointKey("coins", "denari", "", "denari", "patta"),
    "settebello": PointKey("seven_of_coins", "settebello", "", "", "patta"),
    "primiera": PointKey("primiera", "primiera", "", "", "patta"),
    "scope": PointKey("sweeps", "scope", "", "", "patta"),
    "rebello": PointKey("king_of_coins", "re bello", "", "", "patta"),
    "napola": PointKey("napola", "napola", "", "", "patta"),
    "ponino": PointKey("ponino", "ponino", "", "", "patta"),
    "trente": PointKey("coin_faces", "A, 2 e 3 di denari", "", "", "patta"),
    "frac": PointKey("frac", "frac", "", "", "patta"),
    "spareggio": PointKey("frac_tie", "spareggio (re di denari)", "", "", "patta"),
    "cirulla": PointKey("declarations", "cirulla", "", "", "patta"),
    # Escoba, in Spanish.
    "cartas": PointKey("cards", "cartas", "", "cartas", "empate"),
    "oros": PointKey("coins", "oros", "", "oros", "empate"),
    "velo": PointKey("seven_of_coins", "siete de velo", "", "", "empate"),
    "primera": PointKey("primiera", "primera", "", "", "empate"),
    "escobas": PointKey("sweeps", "escobas", "", "", "empate"),
    # Chkop, the Algerian game, in the words of the French source (docs/rules.md §3).
    "cartes": PointKey("cards", "cartes", "", "cartes", "pat"),
    "denar": PointKey("coins", "dénars", "", "dénars", "pat"),
    "premiere": PointKey("sevens", "première", "", "7s", "pat"),
    "septebel": PointKey("seven_of_coins", "septébel", "", "", "pat"),
}
"""Every point key a ``scoring`` option may list."""

SWEEP_WORDS: Final = {"chkobba": "chkobba", "scope": "scopa", "escobas": "escoba"}
"""The word for one sweep of the table, by the key of the sweep point."""

POINT_RULES: Final[dict[str, str]] = {
    "cards": "strictly the most cards",
    "coins": "strictly the most coins (diamonds)",
    "sevens": "strictly the most 7s, then among those tied strictly the most 6s",
    "primiera": "strictly the best primiera (best card per suit: 7=21, 6=18, A=16, 5=15, "
    "4=14, 3=13, 2=12, Q/J/K=10; a missing suit 0)",
    "seven_of_coins": "holding the 7 of coins (7♦)",
    "sweeps": "1 per sweep of the table (not on the round's last play)",
    "king_of_coins": "holding the king of coins (K♦)",
    "napola": "A, 2, 3 of coins: 3 points, +1 per further consecutive coin; all ten: 10",
    "ponino": "one player taking all four knights (J) doubles the side's sweep points",
    "coin_faces": "the A, 2 and 3 of coins score their face value (1, 2, 3)",
    "frac": "1 per ace, Q, J and K taken (16 a round)",
    "frac_tie": "when the frac points are tied at the top, 1 to the holder of the K♦",
    "declarations": "hands declared at each deal: 9 or less in all 3 points (cirulla), "
    "three equal cards 10 (cirullone); the 7♠ is wild",
}
"""What each point rule scores, in one line."""

PER_SIDE_RULES: Final = frozenset(
    {"sweeps", "napola", "ponino", "coin_faces", "frac", "declarations"}
)
"""Point rules that give each side a number (a list in the record's JSON) rather than
one point to one side (a side or null)."""

CHKOBBA_SCORING: Final = ("karta", "dinari", "barmila", "haya", "chkobba")
"""Chkobba's points (docs/rules.md §2.5), the default ``scoring``."""

WILD_CARD: Final = CARDS[6]
"""The 7♠, wild in Cirulla's declarations (docs/rules.md §3)."""

_KNIGHTS: Final = rank_mask(9)
_FRAC_MASK: Final = rank_mask(1) | rank_mask(8) | rank_mask(9) | rank_mask(10)
_KING_OF_COINS: Final = DIAMONDS * 10 + 9
_COIN_FACES: Final = ((DIAMONDS * 10, 1), (DIAMONDS * 10 + 1, 2), (DIAMONDS * 10 + 2, 3))

_PRIMIERA_OF_RANK: Final = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
"""Primiera points of each rank, A … K (docs/rules.md §3)."""
_PRIMIERA_BEST: Final = tuple(
    max((_PRIMIERA_OF_RANK[i] for i in range(10) if pattern >> i & 1), default=0)
    for pattern in range(1 << 10)
)
"""The best primiera points of one suit's cards, by the suit's 10-bit pattern."""


def primiera(pile: int) -> int:
    """A pile's primiera total: its best card in each suit by docs/rules.md §3's points."""
    return (
        _PRIMIERA_BEST[pile & 0x3FF]
        + _PRIMIERA_BEST[pile >> 10 & 0x3FF]
        + _PRIMIERA_BEST[pile >> 20 & 0x3FF]
        + _PRIMIERA_BEST[pile >> 30 & 0x3FF]
    )


def napola_run(pile: int) -> int:
    """How many coins from the ace up a pile holds in a row (0 to 10)."""
    coins = pile >> DIAMONDS * 10 & 0x3FF
    return (~coins & (coins + 1)).bit_length() - 1


def napola_points(pile: int) -> int:
    """Napola's points: the run of coins from the ace if it reaches the 3, else 0."""
    run = napola_run(pile)
    return run if run >= 3 else 0


def strict_best(values: Sequence[int]) -> int | None:
    """The index of the strictly highest value, or None when the top is tied."""
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    return winners[0] if len(winners) == 1 else None


# -- declarations (Cirulla) ---------------------------------------------------------


class Declaration(NamedTuple):
    """A hand shown at a deal for points (Cirulla, docs/rules.md §3), made automatically."""

    seat: int
    name: str
    """``cirulla`` (9 or less in all) or ``cirullone`` (three equal cards)."""
    points: int
    cards: int
    """The hand shown, which stays public while its cards are held."""
    wild: int
    """The value the wild 7♠ took to make it, or 0 when it was not needed."""
    at: int
    """How many entries the round's history held when it was made."""


def declaration(hand: int) -> tuple[str, int, int] | None:
    """What a dealt hand declares: ``(name, points, wild value)``, or None.

    Three equal cards are a *cirullone* (10 points); a hand totalling 9 or less a
    *cirulla* (3). The 7♠ may take any value, and only when that makes a
    declaration it could not make as a 7 [decided: a cirullone when it can, else
    an ace, the value that makes the smallest total]. A hand that is both scores
    the cirullone only.
    """
    cards = [CARDS[c] for c in range(40) if hand >> c & 1]
    if len(cards) != 3:
        return None
    values = [c.value for c in cards]
    if values[0] == values[1] == values[2]:
        return ("cirullone", 10, 0)
    others = [c.value for c in cards if c != WILD_CARD]
    if len(others) == 2 and others[0] == others[1]:
        return ("cirullone", 10, others[0])
    if sum(values) <= 9:
        return ("cirulla", 3, 0)
    if len(others) == 2 and sum(others) + 1 <= 9:
        return ("cirulla", 3, 1)
    return None


# -- the round's score ----------------------------------------------------------------


class Point(NamedTuple):
    """One line of a round's breakdown: a point, who scored it and on what."""

    key: str
    """The point's key in the rule set's ``scoring`` (its name in the record)."""
    points: tuple[int, ...]
    """What it gives each side."""
    side: int | None
    """For a point that one side takes: that side, or None (a tie, or nobody held it)."""
    counts: tuple[tuple[int, ...], ...]
    """The counts it was decided on, per side (cards, 7s and 6s, primiera totals…)."""

    @property
    def detail(self) -> str:
        """The facts it was decided on, for the breakdown (``22 vs 18 cards``)."""
        return point_detail(self)

    @property
    def per_side(self) -> bool:
        """Whether it gives each side a number rather than one point to one side."""
        return POINT_KEYS[self.key].rule in PER_SIDE_RULES

    def json_value(self) -> int | list[int] | None:
        """Its value in ``chkobba verify --json``: a side (or null), or per-side numbers."""
        return list(self.points) if self.per_side else self.side


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The breakdown of one round's points, one entry per side."""

    cards: tuple[int, ...]
    """Cards in each side's pile, the last capturer's sweep included."""
    diamonds: tuple[int, ...]
    sevens: tuple[int, ...]
    sixes: tuple[int, ...]
    chkobba: tuple[int, ...]
    """Sweeps of the table each side made during the round (chkobba, scopa…)."""
    points: tuple[int, ...]
    """Each side's points for the round, every item added up."""
    wins_match: int | None = None
    """A side that wins the match at once with this round (all ten coins), if any."""
    results: tuple[tuple[Any, ...], ...] = ()
    """The points as plain tuples in :class:`Point`'s order (cheap to make in a search);
    read them as :attr:`items`."""

    @property
    def items(self) -> tuple[Point, ...]:
        """Every point of the rule set's ``scoring``, in its order."""
        return tuple(Point(*r) for r in self.results)

    def item(self, key: str) -> Point | None:
        """The point with this key, or None if the rule set does not score it."""
        for r in self.results:
            if r[0] == key:
                return Point(*r)
        return None

    def _side(self, key: str) -> int | None:
        p = self.item(key)
        return None if p is None else p.side

    @property
    def karta(self) -> int | None:
        """The side that scored *kārṭa* (Chkobba), or None."""
        return self._side("karta")

    @property
    def dinari(self) -> int | None:
        """The side that scored *dīnārī* (Chkobba), or None."""
        return self._side("dinari")

    @property
    def barmila(self) -> int | None:
        """The side that scored *barmīla* (Chkobba), or None."""
        return self._side("barmila")

    @property
    def haya(self) -> int | None:
        """The side holding the 7♦ under Chkobba's *sabʿa l-ḥayya*, or None."""
        return self._side("haya")

    def to_json(self) -> dict[str, Any]:
        """The round's entry in ``chkobba verify --json`` (docs/records.md)."""
        out: dict[str, Any] = {"points": list(self.points)}
        for p in self.items:
            out[p.key] = p.json_value()
        out["cards"] = list(self.cards)
        return out


class _Facts(NamedTuple):
    piles: Sequence[int]
    cards: tuple[int, ...]
    diamonds: tuple[int, ...]
    sevens: tuple[int, ...]
    sixes: tuple[int, ...]
    sweeps: tuple[int, ...]
    seat_piles: Sequence[int]
    side_of: Sequence[int]
    declared: Sequence[int]


_Counts = tuple[tuple[int, ...], ...]
_Result = tuple[tuple[int, ...], int | None, _Counts]
_NONE: Final[_Counts] = ()


_ONE_POINT: Final = {
    n: (tuple((0,) * n), *(tuple(int(i == s) for i in range(n)) for s in range(n)))
    for n in range(1, 7)
}
"""By number of sides: nobody's point (index 0), then one point to side 0, 1, …"""


def _one(side: int | None, sides: int, counts: _Counts) -> _Result:
    return _ONE_POINT[sides][0 if side is None else side + 1], side, counts


def _holder(piles: Sequence[int], card: int) -> int | None:
    for i, p in enumerate(piles):
        if p >> card & 1:
            return i
    return None


def _cards(f: _Facts) -> _Result:
    return _one(strict_best(f.cards), len(f.piles), (f.cards,))


def _coins(f: _Facts) -> _Result:
    return _one(strict_best(f.diamonds), len(f.piles), (f.diamonds,))


def _sevens(f: _Facts) -> _Result:
    sevens, sixes = f.sevens, f.sixes
    top = max(sevens)
    tied = [i for i, s in enumerate(sevens) if s == top]
    if len(tied) == 1:
        side: int | None = tied[0]
    else:
        # Among the sides tied on 7s, strictly the most 6s; a side behind on 7s
        # cannot win on 6s.
        best6 = max(sixes[i] for i in tied)
        six_winners = [i for i in tied if sixes[i] == best6]
        side = six_winners[0] if len(six_winners) == 1 else None
    return _one(side, len(f.piles), (sevens, sixes))


def _primiera(f: _Facts) -> _Result:
    totals = tuple(primiera(p) for p in f.piles)
    return _one(strict_best(totals), len(f.piles), (totals,))


def _seven_of_coins(f: _Facts) -> _Result:
    return _one(_holder(f.piles, SEVEN_OF_DIAMONDS), len(f.piles), _NONE)


def _king_of_coins(f: _Facts) -> _Result:
    return _one(_holder(f.piles, _KING_OF_COINS), len(f.piles), _NONE)


def _sweeps(f: _Facts) -> _Result:
    return f.sweeps, None, _NONE


def _napola(f: _Facts) -> _Result:
    pts = tuple(napola_points(p) for p in f.piles)
    side = next((i for i, n in enumerate(pts) if n), None)
    return pts, side, _NONE


def _ponino(f: _Facts) -> _Result:
    pts = [0] * len(f.piles)
    # The same player must take the four knights (not the team between them), and
    # it is the side's sweep points that double.
    seat = next((s for s, p in enumerate(f.seat_piles) if p & _KNIGHTS == _KNIGHTS), None)
    side = None if seat is None else f.side_of[seat]
    if side is not None:
        pts[side] = f.sweeps[side]
    return tuple(pts), side, _NONE


def _coin_faces(f: _Facts) -> _Result:
    pts = [0] * len(f.piles)
    for card, face in _COIN_FACES:
        side = _holder(f.piles, card)
        if side is not None:
            pts[side] += face
    return tuple(pts), None, _NONE


def _frac(f: _Facts) -> _Result:
    return tuple((p & _FRAC_MASK).bit_count() for p in f.piles), None, _NONE


def _frac_tie(f: _Facts) -> _Result:
    counts = tuple((p & _FRAC_MASK).bit_count() for p in f.piles)
    top = max(counts)
    tied = [i for i, n in enumerate(counts) if n == top]
    holder = _holder(f.piles, _KING_OF_COINS)
    side = holder if len(tied) > 1 and holder in tied else None
    return _one(side, len(f.piles), (counts,))


def _declarations(f: _Facts) -> _Result:
    return tuple(f.declared), None, _NONE


_RULE_FUNCTIONS: Final[dict[str, Callable[[_Facts], _Result]]] = {
    "cards": _cards,
    "coins": _coins,
    "sevens": _sevens,
    "primiera": _primiera,
    "seven_of_coins": _seven_of_coins,
    "king_of_coins": _king_of_coins,
    "sweeps": _sweeps,
    "napola": _napola,
    "ponino": _ponino,
    "coin_faces": _coin_faces,
    "frac": _frac,
    "frac_tie": _frac_tie,
    "declarations": _declarations,
}


def _vs(values: Sequence[int], unit: str = "") -> str:
    return " vs ".join(str(v) for v in values) + (f" {unit}" if unit else "")


def point_detail(point: Point) -> str:
    """The facts a point was decided on, for the breakdown (``22 vs 18 cards``)."""
    pk = POINT_KEYS[point.key]
    rule = pk.rule
    counts = point.counts
    if rule in ("cards", "coins", "primiera"):
        return _vs(counts[0], pk.unit)
    if rule == "sevens":
        return f"{_vs(counts[0], pk.unit)} (6s: {_vs(counts[1])})"
    if rule == "seven_of_coins":
        return "7♦"
    if rule == "king_of_coins":
        return "K♦"
    if rule == "napola" and point.side is not None:
        run = (1 << point.points[point.side]) - 1
        return format_cards(run << DIAMONDS * 10, " ", pretty=True)
    if rule == "ponino" and point.side is not None:
        return "4 J"
    if rule == "coin_faces":
        return "A♦ 2♦ 3♦"
    if rule == "frac":
        return "A Q J K"
    if rule == "frac_tie":
        return f"{_vs(counts[0])}, K♦"
    return ""


def score_plan(scoring: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Each point of a ``scoring`` list with the rule it follows, as :func:`score_round`
    walks them."""
    return tuple((k, POINT_KEYS[k].rule) for k in scoring)


_CHKOBBA_PLAN: Final = score_plan(CHKOBBA_SCORING)


def sweep_key(scoring: Sequence[str]) -> str | None:
    """The key of the sweep point in a ``scoring`` list, or None if sweeps do not score."""
    return next((k for k in scoring if POINT_KEYS[k].rule == "sweeps"), None)


def has_rule(scoring: Sequence[str], rule: str) -> bool:
    """Whether a ``scoring`` list holds a point that follows ``rule``."""
    return any(POINT_KEYS[k].rule == rule for k in scoring)


class ScoringRules(Protocol):
    """What :func:`score_round` reads of a rule set.

    :class:`chkobba.fishing.rules.RuleSet` has both; naming them here keeps this module below
    :mod:`chkobba.fishing.rules`, which builds its presets from the points defined here.
    """

    @property
    def score_plan(self) -> tuple[tuple[str, str], ...]:
        """Each point the rules score with the rule it follows (:func:`score_plan`)."""
        ...

    @property
    def all_coins_wins(self) -> bool:
        """Whether a side that takes all ten coins wins the match at once."""
        ...


def score_round(
    piles: Sequence[int],
    chkobba: Sequence[int],
    rules: ScoringRules | None = None,
    *,
    seat_piles: Sequence[int] | None = None,
    side_of: Sequence[int] | None = None,
    declared: Sequence[int] | None = None,
) -> RoundScore:
    """Score a finished round from each side's pile (a card set) and sweep count.

    ``rules`` gives the points to score (Chkobba's when None). ``seat_piles`` and
    ``side_of`` say which player took what, for the points that need it (Il
    ponino); without them each side is taken for one player. ``declared`` holds
    each side's declaration points (Cirulla).
    """
    sides = len(piles)
    sweeps = tuple(chkobba)
    plan = _CHKOBBA_PLAN if rules is None else rules.score_plan
    facts = _Facts(
        piles,
        tuple([p.bit_count() for p in piles]),
        tuple([(p & DIAMONDS_MASK).bit_count() for p in piles]),
        tuple([(p & SEVENS_MASK).bit_count() for p in piles]),
        tuple([(p & SIXES_MASK).bit_count() for p in piles]),
        sweeps,
        piles if seat_piles is None else seat_piles,
        range(sides) if side_of is None else side_of,
        declared if declared is not None else (0,) * sides,
    )
    results = tuple([(key, *_RULE_FUNCTIONS[rule](facts)) for key, rule in plan])
    wins = None
    if rules is not None and rules.all_coins_wins:
        wins = next((i for i, p in enumerate(piles) if p & DIAMONDS_MASK == DIAMONDS_MASK), None)
    return RoundScore(
        cards=facts.cards,
        diamonds=facts.diamonds,
        sevens=facts.sevens,
        sixes=facts.sixes,
        chkobba=sweeps,
        points=tuple(map(sum, zip(*(r[1] for r in results), strict=True))),
        wins_match=wins,
        results=results,
    )
