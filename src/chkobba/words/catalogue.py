"""The catalogues: one JSON file per language, sections of keys and texts.

Each catalogue is an object of sections (``page``, ``coach``, ``touti``, ``cards``,
``games``, ``terminal``, ``rules_*``), each an object of keys and texts; a text may hold
placeholders in braces (``{name}``), filled by :func:`word`. A text that counts
something may instead be an object of its plural forms, keyed by the language's CLDR
plural categories (``one``, ``other``; Arabic also ``zero``, ``two``, ``few``, ``many``):
:func:`word` picks the form for its ``n`` value (Babel's plural rules), ``other`` when the
form is missing. English is complete by
definition; a missing key in another language falls back to English (the tests keep
every language complete, so the fallback only protects a page from a half-written
catalogue).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final

CATALOGUES: Final = Path(__file__).parent / "catalogues"
"""Where the catalogues are (served to the pages at ``/static/i18n/``)."""

LANGUAGES: Final = ("en", "fr", "it", "es", "ar")
"""Every language with a catalogue, in the order the language switch lists them."""

DEFAULT_LANGUAGE: Final = "en"

RIGHT_TO_LEFT: Final = frozenset({"ar"})
"""The languages written right to left."""

_PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")


class CatalogueError(LookupError):
    """An unknown language, section or key."""


def _check(lang: str) -> None:
    if lang not in LANGUAGES:
        raise CatalogueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")


Text = str | Mapping[str, str]
"""A catalogue's text: a string, or its plural forms by CLDR category."""


@cache
def catalogue(lang: str) -> Mapping[str, Mapping[str, Text]]:
    """The whole catalogue of ``lang``: its sections of keys and texts."""
    _check(lang)
    data = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise CatalogueError(f"{lang}.json is not an object of sections")
    return data


def fill(text: str, values: Mapping[str, object]) -> str:
    """``text`` with each ``{name}`` replaced by ``values[name]`` (unknown ones kept)."""
    return _PLACEHOLDER.sub(
        lambda m: str(values[m[1]]) if m[1] in values else m[0], text
    )


def word(lang: str, section: str, key: str, **values: object) -> str:
    """The text of ``key`` in ``section`` of ``lang``'s catalogue, its placeholders
    filled; English when ``lang`` lacks it; :class:`CatalogueError` when English does too."""
    _check(lang)
    text = catalogue(lang).get(section, {}).get(key)
    if text is None:
        text = catalogue(DEFAULT_LANGUAGE).get(section, {}).get(key)
    if text is None:
        raise CatalogueError(f"no word {section}.{key}")
    if not isinstance(text, str):
        text = plural(lang, text, values.get("n"))
    return fill(text, values)


@cache
def _plural_rule(lang: str) -> Any:
    from babel import Locale

    return Locale.parse(lang).plural_form


def plural(lang: str, forms: Mapping[str, str], n: object) -> str:
    """The form among ``forms`` (by CLDR plural category) that ``lang`` uses for the
    number ``n``; ``other`` when ``n`` is not a number or the form is missing."""
    category = "other"
    if isinstance(n, int | float) and not isinstance(n, bool):
        category = _plural_rule(lang)(n)
    return forms.get(category, forms["other"])


def locale_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, then the
    first of ``LANGUAGE``), if the project speaks it; English otherwise."""
    env = os.environ if environ is None else environ
    wanted = [env.get("LC_ALL", ""), env.get("LC_MESSAGES", ""), env.get("LANG", "")]
    wanted += env.get("LANGUAGE", "").split(":")
    for value in wanted:
        code = value.split(".")[0].split("_")[0].split("-")[0].lower()
        if code in LANGUAGES:
            return code
        if code and code not in ("c", "posix"):
            # The first language the locale names decides, spoken here or not.
            break
    return DEFAULT_LANGUAGE
