"""The words of the cards' controls and motion (static/cards.js, sound.js, motion.js and the
game pages' calls into them) exist in English, French and Arabic."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
    return keys


@pytest.mark.parametrize(
    ("module", "words", "call", "marker"),
    [
        ("cards.js", "i18n.js", "t", "data-i18n"),
        ("sound.js", "i18n.js", "t", "data-i18n"),
        ("game.js", "i18n.js", "t", "data-i18n"),
        ("game.html", "i18n.js", "t", "data-i18n"),
        ("touti.html", "touti-i18n.js", "tt", "data-tt"),
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
    assert keys, module
    for lang, have in known.items():
        assert not keys - have, (module, lang, sorted(keys - have))
