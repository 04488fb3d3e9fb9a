"""Touti's rule options: every choice docs/rules.md §4 and the book leave open (docs/touti.md).

A :class:`ToutiRules` is immutable; records store only the options that differ
from the defaults, and an unknown option or a bad value is a :class:`RulesError`.
The table conventions that a program does not enforce (hand signals, the
penalties for a misdeal or for exposed cards, which a program never makes) are
documented in docs/touti.md and have no option.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from chkobba.fishing.rules import RulesError

__all__ = ["CHOICES", "DEFAULT", "OPTION_HELP", "TARGETS", "RulesError", "ToutiRules"]

TARGETS: Final = (600, 800, 1000)
"""The match targets the book names (600 is the usual one)."""
ALL_PASS_CHOICES: Final = ("same-dealer", "next-dealer", "third-next")
FAILURE_CHOICES: Final = ("opponents-score", "declarer-loses")
TALK_CHOICES: Final = ("kalyado", "semi", "parle")
CLAIM_CHOICES: Final = ("off", "forgive", "opponents-take-rest", "opponents-take-best-three")
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "all_pass": ALL_PASS_CHOICES,
    "failure": FAILURE_CHOICES,
    "talk": TALK_CHOICES,
    "claim": CLAIM_CHOICES,
}
"""The values of the options that take a word."""


@dataclass(frozen=True, slots=True)
class ToutiRules:
    """The options of a game of Touti; the defaults: docs/rules.md §4 and its [decided] points."""

    target: int = 600
    """Match points that win the match (book §2.4: 600, 800 or 1000)."""
    kaddour: bool = False
    """Book §2.2.2: a player void in the suit led who cannot over-trump may discard
    instead of under-trumping (docs/rules.md §4, option *Kaddour*)."""
    all_pass: str = "same-dealer"
    """Book §2.5.3, four passes: ``same-dealer`` redeals (the [decided] default),
    ``next-dealer`` passes the deal on, ``third-next`` redeals twice then passes it on."""
    failure: str = "opponents-score"
    """A failed contract: the opponents score the bid ([decided]), or
    ``declarer-loses``: the declarer's team loses the bid instead."""
    min_trump_length: int = 0
    """Book §2.5.5: the declarer may name as trumps only a suit of which they hold
    at least this many cards (0 to 3)."""
    talk: str = "kalyado"
    """Book §2.1: ``kalyado`` (non parlé: only bids and passes); ``semi``
    (semi-parlé: the pass-equivalent calls *alla*, "I hold an ace", and
    *macharich*, "I hold an announcement", which the engine checks are true, and
    the forcing raise *zadtak*); or ``parle`` (parlé, *Balhadra*: a seat may ask its
    partner about its hand, ``ask:TOPIC``, and the partner answers truly, ``tell:…``)."""
    zero_point_redeal: bool = False
    """Book §2.5.4: a player dealt 10 cards worth no card point may ask for a
    redeal (the call ``redeal``, at their first turn to bid) by the same dealer."""
    claim: str = "off"
    """Book §2.5.6, *Tarraq*: ``off``; ``forgive`` (a player on lead may claim the
    remaining tricks; a wrong claim is withdrawn and play goes on);
    ``opponents-take-rest`` (variant a: a wrong claim gives the opponents every
    remaining card and the 10 for the last trick); or ``opponents-take-best-three``
    (variant b: the opponents take the last trick, with its 10, made of the three
    remaining cards worth most; the claimer's team takes the other remaining cards).
    A claim is right when the claimer's team wins every remaining trick whatever
    the opponents play."""

    def __post_init__(self) -> None:
        if self.target <= 0:
            raise RulesError(f"target must be a positive number of points, not {self.target}")
        if self.target % 10:
            raise RulesError(f"target must be a multiple of 10, not {self.target}")
        if not 0 <= self.min_trump_length <= 3:
            raise RulesError(f"min_trump_length must be 0 to 3, not {self.min_trump_length}")
        for name, choices in CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(f"{name} must be one of {', '.join(choices)}, not {value!r}")

    @staticmethod
    def from_options(options: Mapping[str, Any]) -> ToutiRules:
        """The default rules with ``options`` overridden; unknown or mistyped ones are errors."""
        fields = {f.name: f for f in dataclasses.fields(ToutiRules)}
        values: dict[str, Any] = {}
        for key, value in options.items():
            f = fields.get(key)
            if f is None:
                raise RulesError(f"unknown Touti option {key!r} (known: {', '.join(fields)})")
            kind = type(getattr(DEFAULT, key))
            if type(value) is not kind:
                raise RulesError(f"option {key} must be a {kind.__name__}, not {value!r}")
            values[key] = value
        return ToutiRules(**values)

    def options(self) -> dict[str, Any]:
        """Every option and its value."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def json_options(self) -> dict[str, Any]:
        """The options that differ from the defaults, as a record stores them."""
        return {k: v for k, v in self.options().items() if getattr(DEFAULT, k) != v}


OPTION_HELP: Final[dict[str, tuple[str, str, str]]] = {
    "target": ("600, 800, 1000", "§2.4", "match points that win the match"),
    "kaddour": (
        "false, true",
        "§2.2.2",
        "a player void in the suit led who cannot over-trump may discard instead of "
        "under-trumping",
    ),
    "all_pass": (
        ", ".join(ALL_PASS_CHOICES),
        "§2.5.3",
        "four passes: the same dealer deals again, the next one deals, or the same "
        "dealer twice more and then the next one",
    ),
    "failure": (
        ", ".join(FAILURE_CHOICES),
        "[decided]",
        "a failed contract: the opponents score the bid, or the declarer's team loses it",
    ),
    "min_trump_length": ("0, 1, 2, 3", "§2.5.5", "cards of the suit the declarer must hold "
                         "to name it trumps"),
    "talk": (
        ", ".join(TALK_CHOICES),
        "§2.1",
        "kalyado: bids only; semi: alla, macharich, zadtak; parle: ask the partner "
        "about its hand (ask:TOPIC), answered truly",
    ),
    "zero_point_redeal": (
        "false, true",
        "§2.5.4",
        "a hand with no card point may call redeal at its first turn to speak",
    ),
    "claim": (
        ", ".join(CLAIM_CHOICES),
        "§2.5.6",
        "Tarraq, claiming the rest: a wrong claim is forgiven, gives the opponents the "
        "rest (a), or the last trick with the three best cards (b)",
    ),
}
"""Per option: its values, the book's section, what it does (``chkobba rules touti``)."""

DEFAULT: Final = ToutiRules()
"""Touti as docs/rules.md §4 describes it, with its [decided] defaults."""
