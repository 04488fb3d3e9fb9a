"""The words people read, in every language the project speaks: one JSON catalogue per
language (``catalogues/en.json``, ``fr.json``, ``it.json``, ``es.json``, ``ar.json``),
shared by the web pages (served at ``/static/i18n/LANG.json``), the server and the
terminal; and each deck's card names (:mod:`chkobba.words.cards`).

Pure lookups: nothing here prints, and nothing depends on a surface.
"""

from chkobba.words.catalogue import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    CatalogueError,
    catalogue,
    locale_language,
    word,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "CatalogueError",
    "catalogue",
    "locale_language",
    "word",
]
