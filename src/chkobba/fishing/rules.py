"""Rule sets: every [decided] point of docs/rules.md as an option, and the named presets.

A :class:`RuleSet` is an immutable bundle of options. The engine branches on
options, never on a preset's name, so a house rule is one setting away::

    >>> rules = preset("chkobba").with_options({"target": 11})
    >>> rules.target
    11

Every game of the Scopa family (docs/rules.md §3) is a preset: Scopa is Chkobba
without the cut, voided by three kings, capturing one card or two and the fewest it
can, scored by ``carte``, ``denari``, ``settebello``, ``primiera`` and ``scope``, to
11; Scopone deals 9 cards each; Escoba del 15 captures by fifteen; and so on
(:data:`PRESETS`, and ``chkobba rules``).

The presets are those of :data:`RULES_VERSION`; :data:`VERSION_1` keeps what the
presets that changed were before, for the records and games made then.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from chkobba.fishing.cards import FACE_NAMES, RANKS
from chkobba.fishing.scoring import (
    CHKOBBA_SCORING,
    POINT_KEYS,
    POINT_RULES,
    has_rule,
    score_plan,
    sweep_key,
)


class RulesError(ValueError):
    """An unknown preset, an unknown option, or an option given a bad value."""


SEATINGS: Final = ("2", "3", "4", "2v2", "6")
"""Every table a rule set may be played at: 2, 3, 4 or 6 players each for themselves, or
2 against 2 (six only in the Scopa family: the seed, scopa-wikipedia-fr.txt:11)."""

CHKOBBA_SEATINGS: Final = ("2", "3", "4", "2v2")
"""The tables docs/rules.md §2.1 knows for Chkobba: 2, 3 or 4 players, or 2 against 2."""

SCOPA_SEATINGS: Final = (*CHKOBBA_SEATINGS, "6")
"""Scopa's tables: "à deux joueurs, ou à deux équipes de deux joueurs, mais [...] à trois,
quatre ou six joueurs indépendants" (scopa-wikipedia-fr.txt:11)."""

DECKS: Final = tuple(FACE_NAMES)
"""The decks whose faces the ``deck`` option names (:func:`chkobba.fishing.cards.face_name`)."""

RULES_VERSION: Final = 2
"""The version of the presets' definitions. Records and stored games carry it, so that a
game made under an older definition of a preset is read with that definition
(:func:`preset`, :data:`VERSION_1`)."""

_SCOPA_SCORING: Final = ("carte", "denari", "settebello", "primiera", "scope")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The options of one rule set (docs/rules.md §2, §3, and the [decided] points)."""

    name: str = "chkobba"
    """The preset this rule set was built from."""
    target: int = 21
    """Points that end the match (docs/rules.md §2.6): 11, 21 or 31 usually."""
    may_drop_capturing_card: bool = False
    """docs/rules.md §2.3.4: whether a card that can capture may be laid instead."""
    cut_choice: bool = True
    """docs/rules.md §2.2: the cutter is shown the top card and keeps or tables it."""
    void_deal_count: int = 3
    """docs/rules.md §2.2: this many cards of one rank among the table cards void the deal."""
    max_capture_cards: int = 0
    """At most this many table cards in any capture (a match takes one); 0: no limit."""
    fewest_cards: bool = False
    """Among every capture the played card allows (matches, additions, captures by total),
    only those taking the fewest table cards are legal (scopa-wikipedia-fr.txt:24)."""
    void_deal_ranks: str = RANKS
    """The ranks whose ``void_deal_count`` cards on the table void the deal (Scopa: ``K``)."""
    distinct_table: bool = False
    """Chkop: the table is dealt without two cards of a rank; a duplicate goes back under
    the stock and the next card is dealt instead [decided: under the stock]."""
    hand_size: int = 3
    """Cards dealt to each player at each deal (Scopone 9, scientifico 10)."""
    table_size: int = 4
    """Cards dealt face up to the table at the start of the round (scientifico 0)."""
    seatings: tuple[str, ...] = CHKOBBA_SEATINGS
    """The tables the game is played at: ``2``, ``3``, ``4``, ``6`` (each for themselves)
    and ``2v2`` (teams)."""
    capture_match: bool = True
    """A card takes one table card of its own value (docs/rules.md §2.3.1)."""
    capture_sum: bool = True
    """A card takes two or more table cards adding up to its value (docs/rules.md §2.3.2)."""
    capture_total: int = 0
    """A card takes one or more table cards whose values plus its own make this total
    (15 in Scopa di quindici, Escoba and Cirulla); 0: no such capture."""
    matching_priority: bool = True
    """A card that can take a single card of its value may not capture by addition."""
    ace_takes_all: bool = False
    """Asso piglia tutto: an ace played on a table that holds cards takes them all."""
    ace_sweep_scores: bool = False
    """With ``ace_takes_all``: whether the ace's sweep counts as a sweep point."""
    scoring: tuple[str, ...] = CHKOBBA_SCORING
    """The points of a round, by their keys in the game's words (:mod:`chkobba.fishing.scoring`)."""
    all_coins_wins: bool = False
    """A side that takes all ten coins in a round wins the match at once."""
    lowest_wins: bool = False
    """Scopa a perdere: once a side reaches the target, strictly the lowest total wins."""
    wild_seven_keeps_value: bool = False
    """Cirulla: once a declaration made the 7♠ wild, it keeps that value for the rest of
    the round in every capture, played or on the table (scopa-wikipedia-fr.txt:83)."""
    deck: str = "french"
    """The deck whose faces the game names (``french``, ``italian``, ``spanish``): a display
    option only, which changes no rule; the notation stays Q = 8, J = 9, K = 10."""
    general_captures: bool = field(default=False, init=False, repr=False, compare=False)
    """Derived: whether captures follow anything but Chkobba's matching-then-addition rule."""
    no_sweep: int = field(default=0, init=False, repr=False, compare=False)
    """Derived: the cards whose sweep of the table scores no sweep point (a card set)."""
    declares: bool = field(default=False, init=False, repr=False, compare=False)
    """Derived: whether hands are declared for points at each deal (Cirulla)."""
    score_plan: tuple[tuple[str, str], ...] = field(
        default=(), init=False, repr=False, compare=False
    )
    """Derived: each point of ``scoring`` with the point rule it follows."""

    def __post_init__(self) -> None:
        # Derived once here so that the hot loops test one attribute.
        general = (
            not self.capture_match
            or not self.capture_sum
            or self.capture_total != 0
            or not self.matching_priority
            or self.ace_takes_all
        )
        object.__setattr__(self, "general_captures", general)
        no_sweep = 0
        if any(k not in POINT_KEYS for k in self.scoring) or sweep_key(self.scoring) is None:
            no_sweep = (1 << 40) - 1
        elif self.ace_takes_all and not self.ace_sweep_scores:
            no_sweep = (1 << 0) | (1 << 10) | (1 << 20) | (1 << 30)
        object.__setattr__(self, "no_sweep", no_sweep)
        known = all(k in POINT_KEYS for k in self.scoring)
        object.__setattr__(self, "declares", known and has_rule(self.scoring, "declarations"))
        object.__setattr__(self, "score_plan", score_plan(self.scoring) if known else ())

    @property
    def sweep_key(self) -> str | None:
        """The key of the sweep point (``chkobba``, ``scope``…), or None if sweeps don't score."""
        return sweep_key(self.scoring)

    def with_options(self, options: Mapping[str, Any]) -> RuleSet:
        """A copy with the given options changed; unknown options are an error."""
        fields = {f.name: f for f in dataclasses.fields(self) if f.init}
        changes: dict[str, Any] = {}
        for key, value in options.items():
            f = fields.get(key)
            if f is None or key == "name":
                known = ", ".join(sorted(k for k in fields if k != "name"))
                raise RulesError(f"unknown rule option {key!r} (known options: {known})")
            expected = type(getattr(self, key))
            if expected is tuple:
                # Lists of names (JSON has no tuples).
                if not isinstance(value, list | tuple) or not all(
                    isinstance(v, str) for v in value
                ):
                    raise RulesError(f"rule option {key!r} takes a list of names, not {value!r}")
                value = tuple(value)
            # bool is a subclass of int: refuse True for a number and 1 for a flag.
            elif type(value) is not expected:
                raise RulesError(f"rule option {key!r} takes a {expected.__name__}, not {value!r}")
            changes[key] = value
        ruleset = dataclasses.replace(self, **changes)
        ruleset.validate()
        return ruleset

    def validate(self) -> None:
        """Raise :class:`RulesError` if an option's value makes no sense."""
        if self.target < 1:
            raise RulesError(f"target must be a positive number of points, not {self.target}")
        if not 2 <= self.void_deal_count <= 5:
            raise RulesError(f"void_deal_count must be 2 to 5, not {self.void_deal_count}")
        if self.max_capture_cards < 0 or self.max_capture_cards == 1:
            raise RulesError(
                f"max_capture_cards must be 0 (no limit) or at least 2, "
                f"not {self.max_capture_cards}"
            )
        if self.deck not in DECKS:
            raise RulesError(f"deck must be one of {', '.join(DECKS)}, not {self.deck!r}")
        bad = [r for r in self.void_deal_ranks if r not in RANKS]
        if bad or len(set(self.void_deal_ranks)) != len(self.void_deal_ranks):
            raise RulesError(
                f"void_deal_ranks must be distinct ranks among {RANKS}, not "
                f"{self.void_deal_ranks!r}"
            )
        self._validate_deal()
        self._validate_captures()
        self._validate_scoring()

    def _validate_deal(self) -> None:
        if not 1 <= self.hand_size <= 10:
            raise RulesError(f"hand_size must be 1 to 10, not {self.hand_size}")
        if not 0 <= self.table_size <= 10:
            raise RulesError(f"table_size must be 0 to 10, not {self.table_size}")
        if self.cut_choice and self.table_size == 0:
            raise RulesError("cut_choice needs table cards (table_size of at least 1)")
        if not self.seatings or any(s not in SEATINGS for s in self.seatings):
            raise RulesError(
                f"seatings must name tables among {', '.join(SEATINGS)}, not {list(self.seatings)}"
            )
        if len(set(self.seatings)) != len(self.seatings):
            raise RulesError(f"seatings names a table twice: {list(self.seatings)}")
        for s in self.seatings:
            players = 4 if s == "2v2" else int(s)
            per_deal = self.hand_size * players
            rest = 40 - self.table_size
            if rest < per_deal or rest % per_deal:
                raise RulesError(
                    f"{players} players cannot be dealt {self.hand_size} cards each with "
                    f"{self.table_size} on the table: the 40 cards do not make whole deals"
                )

    def _validate_captures(self) -> None:
        if self.capture_total and not 2 <= self.capture_total <= 40:
            raise RulesError(f"capture_total must be 0 (none) or 2 to 40, not {self.capture_total}")
        if not (self.capture_match or self.capture_sum or self.capture_total or self.ace_takes_all):
            raise RulesError(
                "no way to capture: enable capture_match, capture_sum or capture_total"
            )

    def _validate_scoring(self) -> None:
        unknown = [k for k in self.scoring if k not in POINT_KEYS]
        if unknown:
            raise RulesError(
                f"unknown point {unknown[0]!r} in scoring (known: {', '.join(sorted(POINT_KEYS))})"
            )
        if len(set(self.scoring)) != len(self.scoring):
            raise RulesError("scoring names a point twice")
        if sum(POINT_KEYS[k].rule == "sweeps" for k in self.scoring) > 1:
            raise RulesError("scoring may name only one sweep point")
        if has_rule(self.scoring, "ponino") and sweep_key(self.scoring) is None:
            raise RulesError("ponino doubles the sweep points: scoring must name a sweep point")
        if has_rule(self.scoring, "declarations") and self.hand_size != 3:
            raise RulesError("declarations (cirulla) are made on hands of 3 cards")

    def options(self) -> dict[str, Any]:
        """Every option and its value (the preset name left out)."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.init and f.name != "name"
        }

    def changed_options(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = PRESETS[self.name].options() if self.name in PRESETS else {}
        return {k: v for k, v in self.options().items() if base.get(k) != v}

    def json_options_all(self) -> dict[str, Any]:
        """:meth:`options` as JSON values (lists for names)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.options().items()}

    def json_options(self) -> dict[str, Any]:
        """:meth:`changed_options` as JSON values (lists for names), as records hold them."""
        return {
            k: list(v) if isinstance(v, tuple) else v for k, v in self.changed_options().items()
        }


CHKOBBA: Final = RuleSet()
"""The default rule set: Tunisian Chkobba as docs/rules.md §2 describes it."""

SCOPA: Final = RuleSet(
    name="scopa",
    target=11,
    cut_choice=False,
    void_deal_ranks="K",
    max_capture_cards=2,
    fewest_cards=True,
    seatings=SCOPA_SEATINGS,
    scoring=_SCOPA_SCORING,
    deck="italian",
)
"""Italian Scopa (docs/rules.md §3): no cut, void on 3 or 4 kings, a capture of one card or two
and of the fewest cards (scopa-wikipedia-fr.txt:24-25), primiera, to 11."""

_SCOPONE: Final = dataclasses.replace(SCOPA, name="scopone", hand_size=9, seatings=("2v2",))

_ESCOBA_SCORING: Final = ("cartas", "oros", "velo", "primera", "escobas")

_MANY_CARDS: Final = {"max_capture_cards": 0, "fewest_cards": False}
"""Captures of any number of cards, and no rule of the fewest: "dans de nombreuses
variantes il est autorisé de capturer plus de deux cartes" (scopa-wikipedia-fr.txt:25)."""


def _from(base: RuleSet, name: str, **options: Any) -> RuleSet:
    rules = dataclasses.replace(base, name=name, **options)
    rules.validate()
    return rules


PRESETS: Final[dict[str, RuleSet]] = {
    "chkobba": CHKOBBA,
    "scopa": SCOPA,
    "scopa-many": _from(SCOPA, "scopa-many", **_MANY_CARDS),
    "scopone": _SCOPONE,
    "scopone-scientifico": _from(_SCOPONE, "scopone-scientifico", hand_size=10, table_size=0),
    "scopa-di-quindici": _from(
        SCOPA, "scopa-di-quindici", capture_match=False, capture_sum=False, capture_total=15
    ),
    "escoba": _from(SCOPA, "escoba", scoring=_ESCOBA_SCORING, deck="spanish"),
    "escoba-del-15": _from(
        SCOPA,
        "escoba-del-15",
        capture_match=False,
        capture_sum=False,
        capture_total=15,
        scoring=_ESCOBA_SCORING,
        deck="spanish",
        **_MANY_CARDS,
    ),
    "cirulla": _from(
        SCOPA,
        "cirulla",
        capture_total=15,
        max_capture_cards=0,
        wild_seven_keeps_value=True,
        scoring=(*_SCOPA_SCORING, "cirulla"),
    ),
    "asso-piglia-tutto": _from(SCOPA, "asso-piglia-tutto", ace_takes_all=True),
    "re-bello": _from(SCOPA, "re-bello", scoring=(*_SCOPA_SCORING, "rebello")),
    "napola": _from(SCOPA, "napola", scoring=(*_SCOPA_SCORING, "napola")),
    "ponino": _from(SCOPA, "ponino", scoring=(*_SCOPA_SCORING, "ponino")),
    "scopone-de-trente": _from(
        _SCOPONE,
        "scopone-de-trente",
        target=21,
        scoring=(*_SCOPA_SCORING, "trente"),
        all_coins_wins=True,
    ),
    "scopa-a-perdere": _from(SCOPA, "scopa-a-perdere", target=21, lowest_wins=True),
    "scopa-frac": _from(
        SCOPA,
        "scopa-frac",
        target=1,
        matching_priority=False,
        fewest_cards=False,
        scoring=("frac", "spareggio"),
    ),
    "chkop": _from(
        SCOPA,
        "chkop",
        target=21,
        max_capture_cards=0,
        distinct_table=True,
        scoring=("cartes", "denar", "premiere", "septebel", "scope"),
    ),
}
"""The named presets, by name: Chkobba (docs/rules.md §2) and every row of docs/rules.md §3."""

PRESET_DESCRIPTIONS: Final[dict[str, str]] = {
    "chkobba": "Tunisian Chkobba (docs/rules.md §2): cut choice, matching before addition, "
    "kārṭa, dīnārī, barmīla, sabʿa l-ḥayya and chkobba points, match to 21.",
    "scopa": "Italian Scopa (docs/rules.md §3): the dealer deals 3 each and 4 to the table, "
    "3 or 4 kings void the deal; a capture takes one card or two, and the fewest it can; "
    "2, 3, 4 or 6 players or 2v2; carte, denari, settebello, primiera and scope; to 11.",
    "scopa-many": "Scopa with many-card captures (docs/rules.md §3): a capture by addition takes "
    "any number of cards, and need not take the fewest.",
    "scopone": "Scopone (docs/rules.md §3): 2 against 2, 9 cards each and 4 on the table, "
    "no further deal; Scopa's points, to 11.",
    "scopone-scientifico": "Scopone scientifico (docs/rules.md §3): 2 against 2, 10 cards each, "
    "an empty table; the player after the dealer leads.",
    "scopa-di-quindici": "Scopa di quindici (docs/rules.md §3): a card takes table cards whose "
    "values and its own total 15.",
    "escoba": "Escoba (docs/rules.md §3, Spain): the standard Scopa (one card or two, the "
    "fewest) in Spanish words: cartas, oros, siete de velo, primera and escobas; to 11.",
    "escoba-del-15": "Escoba del 15 (Spain): captures of any number of cards totalling 15 "
    "with the card played; cartas, oros, siete de velo, primera and escobas; to 11.",
    "cirulla": "Cirulla (docs/rules.md §3): captures by equal value, by sum and by fifteen; "
    "hands of 9 or less (3 points) and three equal cards (10) declared at each deal, "
    "automatically; the 7♠ wild, keeping its new value for the round.",
    "asso-piglia-tutto": "Asso piglia tutto (docs/rules.md §3): an ace takes the whole table "
    "(option ace_sweep_scores: it counts as a scopa).",
    "re-bello": "Re bello (docs/rules.md §3): Scopa, and the king of coins (K♦) scores 1 too.",
    "napola": "Napola (docs/rules.md §3): Scopa, and A-2-3 of coins score 3, one more per "
    "further consecutive coin, all ten 10 (option all_coins_wins: the match at once).",
    "ponino": "Il ponino (docs/rules.md §3): Scopa, and one player taking all four knights (J) "
    "doubles the side's scope.",
    "scopone-de-trente": "Scopone de Trente (docs/rules.md §3): Scopone to 21; the A, 2, 3 of "
    "coins add their face value; all ten coins win at once.",
    "scopa-a-perdere": "Scopa a perdere (docs/rules.md §3): once a side reaches 21, the one with "
    "the most points loses (strictly the fewest wins).",
    "scopa-frac": "Scopa Frac (docs/rules.md §3): only A, Q, J and K score, 1 each; an 8-8 tie "
    "goes to the K♦; a card may take the single card or two adding up to it; one round "
    "decides.",
    "chkop": "Chkop (docs/rules.md §3, Algeria): captures of any number of cards (still the "
    "fewest); no two cards of a rank on the first table; cartes, dénars, première (7s then "
    "6s), septébel and scope; to 21.",
}
"""One line on each preset, for ``chkobba rules``."""

OPTION_HELP: Final[dict[str, str]] = {
    "target": "points that end the match",
    "may_drop_capturing_card": "a card that can capture may be laid instead",
    "cut_choice": "the cutter keeps or tables the cut card (else the dealer just deals)",
    "void_deal_count": "this many cards of one rank on the dealt table void the deal",
    "max_capture_cards": "at most this many table cards in a capture (0: no limit)",
    "fewest_cards": "only the captures taking the fewest table cards are legal",
    "void_deal_ranks": "the ranks that count for a void deal",
    "distinct_table": "no two cards of a rank on the dealt table (a duplicate goes under "
    "the stock)",
    "hand_size": "cards dealt to each player at each deal",
    "table_size": "cards dealt to the table at the start of the round",
    "seatings": "the tables played at: 2, 3, 4, 6 players, 2v2 teams",
    "capture_match": "a card takes one table card of its value",
    "capture_sum": "a card takes table cards adding up to its value",
    "capture_total": "a card takes table cards making this total with it (0: none)",
    "matching_priority": "a card that can take a card of its value may not take a sum",
    "ace_takes_all": "an ace takes the whole table",
    "ace_sweep_scores": "the ace's sweep counts as a sweep point",
    "scoring": "the points of a round",
    "all_coins_wins": "taking all ten coins wins the match at once",
    "lowest_wins": "once the target is reached, strictly the lowest total wins",
    "wild_seven_keeps_value": "the 7♠ made wild by a declaration keeps its value for the round",
    "deck": "the deck whose faces are named (french, italian, spanish): display only",
}
"""One line on each option, for ``chkobba rules NAME``."""


VERSION_1: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "scopa": ("scopa-many", {}),
    "scopa-strict": ("scopa", {"fewest_cards": False}),
    "scopone": ("scopone", _MANY_CARDS),
    "scopone-scientifico": ("scopone-scientifico", _MANY_CARDS),
    "scopa-di-quindici": ("scopa-di-quindici", _MANY_CARDS),
    "escoba": ("escoba-del-15", {}),
    "cirulla": ("cirulla", {"fewest_cards": False, "wild_seven_keeps_value": False}),
    "asso-piglia-tutto": ("asso-piglia-tutto", _MANY_CARDS),
    "re-bello": ("re-bello", _MANY_CARDS),
    "napola": ("napola", _MANY_CARDS),
    "ponino": ("ponino", _MANY_CARDS),
    "scopone-de-trente": ("scopone-de-trente", _MANY_CARDS),
    "scopa-a-perdere": ("scopa-a-perdere", _MANY_CARDS),
    "scopa-frac": (
        "scopa-frac",
        {**_MANY_CARDS, "matching_priority": True, "may_drop_capturing_card": True},
    ),
    "chkop": ("chkop", {"fewest_cards": False}),
}
"""What each preset of version 1 (records without ``rules_version``) is now: a preset of
this version and the options that make it the same game. Version 1 captured any number of
cards in every Scopa preset, called the sum-to-15 game ``escoba``, had ``scopa-strict``
(two cards at most), played Scopa Frac with optional captures and the single card first,
and made Cirulla's wild 7♠ a 7 again in play. ``chkobba`` is the same in both versions."""

KNOWN_VERSIONS: Final = (1, RULES_VERSION)
"""The ``rules_version`` values this code reads."""


def preset(
    name: str, options: Mapping[str, Any] | None = None, version: int = RULES_VERSION
) -> RuleSet:
    """The named preset, with any options overridden; an unknown name is an error.

    ``version`` is the ``rules_version`` the name was written under: a version-1 name
    gives its version-1 definition (:data:`VERSION_1`), named after the preset of this
    version it now is, so that :meth:`RuleSet.changed_options` says what makes it the
    same game. An unknown version is an error.
    """
    if type(version) is not int or version not in KNOWN_VERSIONS:
        raise RulesError(
            f"unknown rules_version {version!r}: this chkobba reads rules versions "
            f"{' and '.join(map(str, KNOWN_VERSIONS))}"
        )
    if version == 1 and name != "chkobba":
        if name not in VERSION_1:
            known = ", ".join(sorted(["chkobba", *VERSION_1]))
            raise RulesError(f"unknown rules {name!r} in rules version 1 (known: {known})")
        now, changes = VERSION_1[name]
        return PRESETS[now].with_options({**changes, **(options or {})})
    base = PRESETS.get(name)
    if base is None:
        raise RulesError(f"unknown rules {name!r} (known: {', '.join(sorted(PRESETS))})")
    return base.with_options(options or {})


def describe_point(key: str) -> str:
    """One line on a point of a ``scoring`` list: its name and its rule."""
    pk = POINT_KEYS[key]
    name = pk.label + (f" ({pk.native})" if pk.native else "")
    if name == key:
        return f"{key}: {POINT_RULES[pk.rule]}"
    return f"{key} ({name}): {POINT_RULES[pk.rule]}"
