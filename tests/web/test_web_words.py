"""The words of the pages exist in English, French and Arabic: the cards' controls and motion
(static/cards.js, sound.js, motion.js and the game pages' calls into them), and the game's
life (the lobby's room settings, resign and rematch, away seats and stand-ins, the coach
turned off in a room: docs/web.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chkobba.fishing.rules import PRESETS
from chkobba.games import GAME_NAMES, game

STATIC = Path(__file__).resolve().parents[2] / "src" / "chkobba" / "web" / "static"


def languages(path: Path) -> dict[str, set[str]]:
    """The keys of each language's block (``en: {`` … ``},``) of an i18n module."""
    text = path.read_text()
    blocks = re.split(r"^  (en|fr|ar): \{$", text, flags=re.M)
    return {
        lang: set(re.findall(r"^    (\w+):", body, flags=re.M))
        for lang, body in zip(blocks[1::2], blocks[2::2], strict=True)
    }


def used(path: Path, call: str) -> set[str]:
    """The literal keys passed to ``call`` (``t``, ``tt``), and the sweeps and sound words."""
    text = path.read_text()
    keys = set(re.findall(rf"\b{call}\(\s*\"(\w+)\"", text))
    keys |= set(re.findall(r"\bt\(`(\w+)_\$\{", text))  # a family, such as deck_${name}
    keys |= set(re.findall(r'"(sweep_\w+|sound_\w+)"', text))
    # A choice between two words: t(s.unlisted ? "private_room" : "public_room").
    for a, b in re.findall(rf'\b{call}\([^()"]*\?\s*"(\w+)"\s*:\s*"(\w+)"', text):
        keys |= {a, b}
    return keys


def offered_seatings() -> set[str]:
    """Every seating the lobby may offer: those of every preset and of Touti."""
    seatings: set[str] = set()
    for name in GAME_NAMES:
        played = game(name)
        for preset in PRESETS if name == "chkobba" else [None]:
            seatings |= set(played.seatings(played.make_rules(preset, {})))
    return seatings


@pytest.mark.parametrize(
    ("module", "words", "call", "marker"),
    [
        ("cards.js", "i18n.js", "t", "data-i18n"),
        ("sound.js", "i18n.js", "t", "data-i18n"),
        ("game.js", "i18n.js", "t", "data-i18n"),
        ("common.js", "i18n.js", "t", "data-i18n"),
        ("game.html", "i18n.js", "t", "data-i18n"),
        ("touti.html", "touti-i18n.js", "tt", "data-tt"),
        ("lobby.js", "i18n.js", "t", "data-i18n"),
        ("index.html", "i18n.js", "t", "data-i18n"),
        ("touti.js", "touti-i18n.js", "tt", "data-tt"),
        ("coach-game.js", "coach-i18n.js", "ct", "data-ct"),
    ],
)
def test_every_word_is_in_the_three_languages(
    module: str, words: str, call: str, marker: str
) -> None:
    known = languages(STATIC / words)
    assert set(known) == {"en", "fr", "ar"}
    path = STATIC / module
    keys = used(path, call) | set(re.findall(rf'{marker}="(\w+)"', path.read_text()))
    if module == "cards.js":
        # The deck chooser's options: deck_french, deck_italian, deck_spanish.
        assert "deck" in keys
        keys |= {f"deck_{d}" for d in ("french", "italian", "spanish")}
    if module == "common.js":
        # The breakdown's description of Chkobba's points (other presets' rows are named).
        keys.discard("point")
        keys |= {f"point_{k}" for k in ("karta", "dinari", "barmila", "haya", "chkobba")}
    if module == "lobby.js":
        # The seating chooser's options, one for every seating a game offers.
        keys.discard("seating")
        keys |= {f"seating_{s}" for s in offered_seatings()}
    assert keys, module
    for lang, have in known.items():
        assert not keys - have, (module, lang, sorted(keys - have))


def test_the_choice_between_two_words_is_read() -> None:
    # The pattern common.js uses for the room's settings must be seen, or a missing word
    # in one language would pass unnoticed.
    path = STATIC / "common.js"
    assert {"private_room", "public_room", "coach_on", "coach_off"} <= used(path, "t")


@pytest.mark.parametrize("words", ["i18n.js", "touti-i18n.js", "coach-i18n.js"])
def test_the_three_languages_have_the_same_words(words: str) -> None:
    known = languages(STATIC / words)
    assert set(known) == {"en", "fr", "ar"}
    every = set().union(*known.values())
    for lang, have in known.items():
        assert not every - have, (words, lang, sorted(every - have))


@pytest.mark.parametrize(
    ("words", "keys"),
    [
        ("i18n.js", {
            "private_label", "grace_label", "clock_label", "coaching_label", "no_clock",
            "seconds", "private_room", "public_room", "grace_is", "clock_is", "coach_on",
            "coach_off", "away", "stand_in", "resign", "resign_sure", "resign_yes",
            "resigned_by", "abandoned", "rematch", "rematch_accepted", "to_rematch",
            "rematch_of",
        }),
        ("touti-i18n.js", {
            "resign", "resign_sure", "resign_yes", "resigned_by", "abandoned", "rematch",
        }),
        ("coach-i18n.js", {"coaching_off"}),
    ],
)
def test_the_words_of_the_games_life(words: str, keys: set[str]) -> None:
    for lang, have in languages(STATIC / words).items():
        assert not keys - have, (words, lang, sorted(keys - have))
