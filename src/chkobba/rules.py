"""Rule sets: every [decided] point of RULES.md as an option, and the named presets.

A :class:`RuleSet` is an immutable bundle of options. The engine branches on
options, never on a preset's name, so a house rule is one setting away::

    >>> rules = preset("chkobba").with_options({"target": 11})
    >>> rules.target
    11
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final


class RulesError(ValueError):
    """An unknown preset, an unknown option, or an option given a bad value."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The options of one rule set (RULES.md §2, and the [decided] points)."""

    name: str = "chkobba"
    """The preset this rule set was built from."""
    target: int = 21
    """Points that end the match (RULES.md §2.6): 11, 21 or 31 usually."""
    may_drop_capturing_card: bool = False
    """RULES.md §2.3.4: whether a card that can capture may be laid instead."""
    cut_choice: bool = True
    """RULES.md §2.2: the cutter is shown the top card and keeps or tables it."""
    void_deal_count: int = 3
    """RULES.md §2.2: this many cards of one rank among the table cards void the deal."""
    max_capture_cards: int = 0
    """At most this many table cards in a capture by addition; 0 means no limit."""

    def with_options(self, options: Mapping[str, Any]) -> RuleSet:
        """A copy with the given options changed; unknown options are an error."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for key, value in options.items():
            f = fields.get(key)
            if f is None or key == "name":
                known = ", ".join(sorted(k for k in fields if k != "name"))
                raise RulesError(f"unknown rule option {key!r} (known options: {known})")
            expected = type(getattr(self, key))
            # bool is a subclass of int: refuse True for a number and 1 for a flag.
            if type(value) is not expected:
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

    def options(self) -> dict[str, Any]:
        """Every option and its value (the preset name left out)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    def changed_options(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = PRESETS[self.name].options() if self.name in PRESETS else {}
        return {k: v for k, v in self.options().items() if base.get(k) != v}


CHKOBBA: Final = RuleSet()
"""The default rule set: Tunisian Chkobba as RULES.md §2 describes it."""

PRESETS: Final[dict[str, RuleSet]] = {"chkobba": CHKOBBA}
"""The named presets, by name."""

PRESET_DESCRIPTIONS: Final[dict[str, str]] = {
    "chkobba": "Tunisian Chkobba (RULES.md §2): cut choice, matching before addition, "
    "kārṭa, dīnārī, barmīla, sabʿa l-ḥayya and chkobba points, match to 21.",
}


def preset(name: str, options: Mapping[str, Any] | None = None) -> RuleSet:
    """The named preset, with any options overridden; an unknown name is an error."""
    base = PRESETS.get(name)
    if base is None:
        raise RulesError(f"unknown rules {name!r} (known: {', '.join(sorted(PRESETS))})")
    return base.with_options(options or {})
