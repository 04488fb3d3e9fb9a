"""No page shows an untranslated key: every word a page asks for (``t("key")``,
``tt``, ``ct``, ``rw``, ``word("section", "key")``, the ``data-i18n``/``data-tt``/``data-rw``
markers of the html, and the families of keys built from a name: ``deck_${name}``,
``seating_${s}``, ``level_${l}``, ``name_${game}``…) is in its section of every
language's catalogue (src/chkobba/words/catalogues/LANG.json, docs/web.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from chkobba.fishing.cards import RANKS, SUITS
from chkobba.fishing.rules import PRESETS
from chkobba.games import GAME_NAMES, game
from chkobba.web.howto import howto_json
from chkobba.web.protocol import QUICK_PHRASES
from chkobba.web.rules_page import names as rules_names
from chkobba.words import LANGUAGES, catalogue
from chkobba.words.cards import DECKS

STATIC = Path(__file__).resolve().parents[2] / "src" / "chkobba" / "web" / "static"

CALLS = {"t": "page", "tt": "touti", "ct": "coach", "rw": "rules_page", "aw": "account",
         "rt": "ratings", "cw": "chat"}
"""Each page's word function and the catalogue section it reads."""

MARKERS = {"data-i18n": "page", "data-i18n-placeholder": "page", "data-i18n-label": "page",
           "data-tt": "touti", "data-rw": "rules_page", "data-aw": "account",
           "data-rt": "ratings"}
"""The html markers whose value is a key, and its section."""


def offered_seatings() -> set[str]:
    """Every seating the lobby may offer: those of every preset and of Touti."""
    seatings: set[str] = set()
    for name in GAME_NAMES:
        played = game(name)
        for preset in PRESETS if name == "chkobba" else [None]:
            seatings |= set(played.seatings(played.make_rules(preset, {})))
    return seatings


def levels() -> set[str]:
    """Every computer level a page may name, of every game."""
    return {level for name in GAME_NAMES for level in game(name).levels()}


def example_players(hands: bool = False) -> set[str]:
    """Who plays a card in a rules page's worked example (``hands``: whose hand it shows)."""
    steps = [s for n in rules_names() for s in howto_json(n)["example"]["steps"]]
    return {s["who"] for s in steps if s.get("hand") or not hands}


FAMILIES: dict[tuple[str, str], set[str]] = {
    # (section, prefix): every name the prefix is completed with.
    ("page", "deck_"): set(DECKS),
    ("page", "seating_"): offered_seatings(),
    ("page", "point_"): {"karta", "dinari", "barmila", "haya", "chkobba"},
    ("page", "level_"): levels(),
    ("touti", "seat_"): {"1", "2", "3"},
    ("games", "name_"): set(rules_names()),
    ("games", "line_"): set(rules_names()),
    ("account", "status_"): {"open", "playing", "finished"},
    # The worked examples' players (chkobba.web.howto): who plays, and whose hand is shown.
    ("rules_page", "plays_"): example_players(),
    ("rules_page", "holds_"): example_players(hands=True),
    ("chat", "phrase_"): set(QUICK_PHRASES),
    ("chat", "err_"): {
        "chat_off", "chat_rate_limited", "chat_too_long", "silenced", "chat_sign_in",
        "chat_phrases_only",
    },
}
"""The families of keys the pages build from a name, and every name they may be given."""


def used(path: Path) -> set[tuple[str, str]]:
    """The (section, key) pairs a page or script asks for."""
    text = path.read_text()
    keys: set[tuple[str, str]] = set()
    for call, section in CALLS.items():
        keys |= {(section, k) for k in re.findall(rf"\b{call}\(\s*\"(\w+)\"", text)}
        # A choice between two words: t(s.unlisted ? "private_room" : "public_room").
        for a, b in re.findall(rf'\b{call}\([^()"]*\?\s*"(\w+)"\s*:\s*"(\w+)"', text):
            keys |= {(section, a), (section, b)}
        for prefix in re.findall(rf"\b{call}\(`(\w+_)\$\{{", text):
            keys |= {(section, prefix + n) for n in FAMILIES[(section, prefix)]}
    keys |= set(re.findall(r'\bword\(\s*"(\w+)",\s*"(\w+)"', text))
    for section, prefix in re.findall(r'\bword\(\s*"(\w+)",\s*`(\w+_)\$\{', text):
        if (section, prefix) in FAMILIES:
            keys |= {(section, prefix + n) for n in FAMILIES[(section, prefix)]}
    keys |= {("page", k) for k in re.findall(r'"(sweep_\w+|sound_\w+)"', text)}
    for marker, section in MARKERS.items():
        keys |= {(section, k) for k in re.findall(rf'{marker}="(\w+)"', text)}
    return keys


PAGES = sorted(p.name for p in STATIC.iterdir() if p.suffix in (".js", ".html"))


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_shows_an_untranslated_key(page: str, lang: str) -> None:
    words = catalogue(lang)
    missing = sorted(f"{s}.{k}" for s, k in used(STATIC / page) if k not in words.get(s, {}))
    assert not missing, (page, lang, missing)


def test_the_pages_ask_for_words() -> None:
    # The patterns above must see the pages' calls, or a missing word would pass unnoticed.
    every = set().union(*(used(STATIC / p) for p in PAGES))
    assert {("page", "private_room"), ("page", "public_room"), ("page", "coach_on")} <= every
    assert {("touti", "log_trick"), ("coach", "hint"), ("rules_page", "play_it")} <= every
    assert {("page", "level_search"), ("games", "name_scopa-di-quindici")} <= every
    assert ("page", "deck") in used(STATIC / "cards.js")
    assert {("account", "log_in"), ("account", "status_playing")} <= every
    assert {("ratings", "leaderboard"), ("ratings", "chart_label")} <= every


def test_the_card_names_cover_every_deck() -> None:
    # static/cardnames.js builds these keys; chkobba.words.cards reads the same.
    for lang in LANGUAGES:
        cards = catalogue(lang)["cards"]
        for deck in DECKS:
            for key in [*"AQJK", *SUITS, *(f"of_{s}" for s in SUITS)]:
                assert cards.get(f"{deck}_{key}"), (lang, deck, key)
        for rank in RANKS[1:7]:
            assert cards.get(f"number_{rank}"), (lang, rank)


@pytest.mark.parametrize(
    ("section", "keys"),
    [
        ("page", {
            "private_label", "grace_label", "clock_label", "coaching_label", "no_clock",
            "seconds", "private_room", "public_room", "grace_is", "clock_is", "coach_on",
            "coach_off", "away", "stand_in", "resign", "resign_sure", "resign_yes",
            "resigned_by", "abandoned", "rematch", "rematch_accepted", "to_rematch",
            "rematch_of",
        }),
        ("touti", {"resign", "resign_sure", "resign_yes", "resigned_by", "abandoned", "rematch"}),
        ("coach", {"coaching_off"}),
    ],
)
def test_the_words_of_the_games_life(section: str, keys: set[str]) -> None:
    for lang in LANGUAGES:
        assert not keys - set(catalogue(lang)[section]), (section, lang)


def test_the_server_serves_every_catalogue_and_names_the_games(sqlite_client: Any) -> None:
    for lang in LANGUAGES:
        r = sqlite_client.get(f"/static/i18n/{lang}.json")
        assert r.status_code == 200 and r.json() == catalogue(lang)
    assert sqlite_client.get("/static/i18n/de.json").status_code == 404
    # The pages' own scripts are still served beside them.
    assert sqlite_client.get("/static/cardnames.js").status_code == 200
    games = {g["name"]: g for g in sqlite_client.get("/api/rules").json()["games"]}
    assert games["scopa-di-quindici"]["title"]["it"] == "Scopa di quindici"
    assert set(games["touti"]["description"]) == set(LANGUAGES)
    scopa = sqlite_client.get("/api/rules/scopa").json()
    for option in scopa["options"]:
        assert set(option["help"]) == set(LANGUAGES), option["key"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_says_which_escoba_sums_fifteen(lang: str) -> None:
    # `escoba` plays Scopa's captures: its line sends a player looking for the Spanish game
    # with sums of fifteen to the preset that plays it.
    games = catalogue(lang)["games"]
    assert games["name_escoba-del-15"] in games["line_escoba"]
