"""The rules pages (``/rules/NAME``): each game's rules from the data ``chkobba rules NAME``
prints (:mod:`chkobba.rules_command`), in every language of the pages.

The English words are the command's own (:data:`chkobba.fishing.rules.OPTION_HELP`,
:data:`chkobba.fishing.rules.PRESET_DESCRIPTIONS`, :data:`chkobba.fishing.scoring.POINT_RULES` and
Touti's :data:`chkobba.touti.rules.OPTION_HELP`); their translations are the catalogues'
``rules_*`` sections (:mod:`chkobba.words`), keyed by option, point rule and preset name;
this module builds the JSON the page draws.
"""

from __future__ import annotations

from typing import Any, Final

from chkobba.fishing.rules import CHKOBBA, OPTION_HELP, PRESET_DESCRIPTIONS, PRESETS
from chkobba.fishing.scoring import POINT_KEYS, POINT_RULES
from chkobba.rules_command import _value, preset_detail
from chkobba.touti import rules as touti_rules
from chkobba.touti.cli import rules_json as touti_rules_json
from chkobba.touti.cli import rules_lines as touti_rules_lines
from chkobba.web.howto import howto_json
from chkobba.words import LANGUAGES as WORD_LANGUAGES
from chkobba.words import catalogue, word

LANGUAGES: Final = WORD_LANGUAGES
"""The pages' languages: those with a catalogue (:mod:`chkobba.words`)."""

TOUTI: Final = "touti"
"""Touti's name among the rules pages: not a preset of the Chkobba engine (``chkobba rules
touti``)."""


def _translations(section: str) -> dict[str, dict[str, str]]:
    """Every key of a ``rules_*`` section of the catalogues in every language but English
    (whose words are the engine's own; the catalogue's English copy is checked by the
    tests to be the same)."""
    english = catalogue("en")[section]
    return {
        key: {lang: word(lang, section, key) for lang in LANGUAGES if lang != "en"}
        for key in english
    }


OPTION_WORDS: Final[dict[str, dict[str, str]]] = _translations("rules_option")
"""The Chkobba family's options (:data:`chkobba.fishing.rules.OPTION_HELP`) in the other
languages."""

TOUTI_OPTION_WORDS: Final[dict[str, dict[str, str]]] = _translations("rules_touti_option")
"""Touti's options (:data:`chkobba.touti.rules.OPTION_HELP`) in the other languages."""

POINT_RULE_WORDS: Final[dict[str, dict[str, str]]] = _translations("rules_point")
"""The point rules (:data:`chkobba.fishing.scoring.POINT_RULES`) in the other languages."""

DESCRIPTION_WORDS: Final[dict[str, dict[str, str]]] = _translations("rules_game")
"""Each game's one line (:data:`chkobba.fishing.rules.PRESET_DESCRIPTIONS`) in the other
languages."""


class UnknownRules(LookupError):
    """A rules page asked for a name that is neither a preset nor Touti."""


def names() -> list[str]:
    """Every game with a rules page: the presets of ``chkobba rules``, then Touti."""
    return [*PRESETS, TOUTI]


def _words(english: str, translations: dict[str, str]) -> dict[str, str]:
    return {"en": english, **translations}


def game_name(name: str, lang: str) -> str:
    """A game's proper name in ``lang`` (``scopa-di-quindici``: ``Scopa di quindici``)."""
    if f"name_{name}" not in catalogue(lang)["games"]:
        return name
    return word(lang, "games", f"name_{name}")


def _touti_description() -> str:
    # The second line of ``chkobba rules touti``: its one line on the game.
    return touti_rules_lines()[1].strip()


def description(name: str) -> dict[str, str]:
    """A game's one line in every language."""
    english = _touti_description() if name == TOUTI else PRESET_DESCRIPTIONS[name]
    return _words(english, DESCRIPTION_WORDS[name])


def index_json() -> dict[str, Any]:
    """``GET /api/rules``: every game with a rules page and its one line."""
    return {
        "games": [
            {
                "name": n,
                "title": {lang: game_name(n, lang) for lang in LANGUAGES},
                "description": description(n),
            }
            for n in names()
        ]
    }


def rules_json(name: str) -> dict[str, Any]:
    """``GET /api/rules/NAME``: how to play the game and a worked example
    (:mod:`chkobba.web.howto`), its options and points in every language, and the text
    ``chkobba rules NAME`` prints; :class:`UnknownRules` if there is no such game."""
    if name == TOUTI:
        return _touti_json()
    if name not in PRESETS:
        raise UnknownRules(f"unknown rules {name!r} (known: {', '.join(names())})")
    rules = PRESETS[name]
    base = CHKOBBA.options()
    options = [
        {
            "key": key,
            "value": _value(value),
            "differs": base[key] != value,
            "help": _words(OPTION_HELP[key], OPTION_WORDS[key]),
        }
        for key, value in rules.options().items()
    ]
    points = []
    for key in rules.scoring:
        pk = POINT_KEYS[key]
        points.append(
            {
                "key": key,
                "name": pk.label,
                "native": pk.native,
                "rule": pk.rule,
                "help": _words(POINT_RULES[pk.rule], POINT_RULE_WORDS[pk.rule]),
            }
        )
    return {
        "name": name,
        "game": "chkobba",
        "description": description(name),
        "seatings": list(rules.seatings),
        "target": rules.target,
        "options": options,
        "points": points,
        "text": preset_detail(name),
        "play": f"chkobba play --rules {name}",
        "deck": rules.deck,
        "howto": howto_json(name),
    }


def _touti_json() -> dict[str, Any]:
    data = touti_rules_json()
    options = []
    for key, value in data["options"].items():
        values, section, english = touti_rules.OPTION_HELP[key]
        options.append(
            {
                "key": key,
                "value": _value(value),
                "differs": False,
                "values": values,
                "section": section,
                "help": _words(english, TOUTI_OPTION_WORDS[key]),
            }
        )
    return {
        "name": TOUTI,
        "game": TOUTI,
        "description": description(TOUTI),
        "seatings": ["2v2"],
        "target": touti_rules.DEFAULT.target,
        "options": options,
        "points": [],
        "text": touti_rules_lines(),
        "play": "chkobba play --game touti",
        "deck": "spanish",
        "howto": howto_json(TOUTI),
    }
