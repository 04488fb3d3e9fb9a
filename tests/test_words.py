"""The catalogues (src/chkobba/words/catalogues/LANG.json) and each deck's card names
(chkobba.words.cards): every key in every language, no empty text, the same placeholders
in every language; the cards named in the deck's words and the reader's language."""

from __future__ import annotations

import json
import re

import pytest
from babel import Locale

from chkobba.fishing.cards import CARDS, CardError
from chkobba.fishing.rules import OPTION_HELP
from chkobba.fishing.scoring import POINT_RULES
from chkobba.touti import rules as touti_rules
from chkobba.web.rules_page import description
from chkobba.words import LANGUAGES, CatalogueError, catalogue, locale_language, word
from chkobba.words.cards import card_name, card_short, cards_short, coins_sign, suit_name
from chkobba.words.catalogue import CATALOGUES

OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_language_has_a_catalogue_and_nothing_else_is_there() -> None:
    assert sorted(p.stem for p in CATALOGUES.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_is_in_every_language(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    assert list(other) == list(english)
    for section, words in english.items():
        assert set(other[section]) == set(words), (
            lang, section, sorted(set(words) ^ set(other[section])))


def forms(text: object) -> list[str]:
    """A text's forms: itself, or its plural forms."""
    return [text] if isinstance(text, str) else list(text.values())  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_is_empty_and_the_placeholders_match(lang: str) -> None:
    english = catalogue("en")
    categories = set(Locale.parse(lang).plural_form.tags) | {"other"}
    for section, words in catalogue(lang).items():
        for key, text in words.items():
            wanted = set().union(*(placeholders(f) for f in forms(english[section][key])))
            if not isinstance(text, str):
                # Plural forms: the language's own categories, ``other`` always there.
                assert isinstance(text, dict) and "other" in text, (lang, section, key)
                assert set(text) <= categories, (lang, section, key, set(text) - categories)
            for form in forms(text):
                assert isinstance(form, str) and form.strip(), (lang, section, key)
                # A form may say the number in words ("جولتين": two rounds), not {n}.
                assert placeholders(form) - {"n"} == wanted - {"n"}, (lang, section, key, form)


@pytest.mark.parametrize(("lang", "n", "said"), [
    ("en", 1, "1 more card"), ("en", 0, "0 more cards"), ("en", 3, "3 more cards"),
    ("fr", 0, "0 carte"), ("fr", 1, "1 carte"), ("fr", 2, "2 cartes"),
    ("it", 1, "con 1 carta in più"), ("it", 2, "con 2 carte in più"),
    ("es", 1, "con 1 carta más"), ("es", 5, "con 5 cartas más"),
    ("ar", 1, "مع ورقة إضافية واحدة"), ("ar", 2, "مع ورقتين إضافيتين"),
    ("ar", 3, "مع 3 أوراق إضافية"), ("ar", 11, "مع 11 ورقة إضافية"),
])
def test_a_count_takes_its_languages_plural_form(lang: str, n: int, said: str) -> None:
    assert word(lang, "touti", "parle_a_more", n=n) == said


@pytest.mark.parametrize("lang", OTHERS)
def test_a_translation_is_not_english_left_in_place(lang: str) -> None:
    # Names, numbers and signs may be the same in two languages; whole sentences may not.
    english = catalogue("en")
    for section in ("page", "coach", "touti", "rules_page", "rules_option", "rules_game",
                    "terminal", "account"):
        for key, text in catalogue(lang)[section].items():
            for form in forms(text):
                # Placeholders aside, four words or more make a sentence.
                if len(re.findall(r"[^\W\d_]{2,}", re.sub(r"\{\w+\}", "", form))) >= 4:
                    assert form not in forms(english[section][key]), (lang, section, key)


def test_the_catalogues_are_plain_utf8_json_objects() -> None:
    for path in CATALOGUES.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert all(isinstance(v, dict) for v in data.values()), path.name


def test_the_rules_english_is_the_engines_own() -> None:
    # The rules pages take English from the engine (what `chkobba rules` prints); the
    # catalogue's English copy is what translators read, and must not drift from it.
    en = catalogue("en")
    assert dict(en["rules_option"]) == {k: OPTION_HELP[k] for k in en["rules_option"]}
    assert set(en["rules_option"]) == set(OPTION_HELP)
    assert dict(en["rules_point"]) == dict(POINT_RULES)
    assert dict(en["rules_touti_option"]) == {
        k: v[2] for k, v in touti_rules.OPTION_HELP.items()}
    assert dict(en["rules_game"]) == {k: description(k)["en"] for k in en["rules_game"]}


def test_word_fills_placeholders_and_names_what_is_missing() -> None:
    assert word("it", "page", "waiting_for", name="Selma") == "In attesa di Selma"
    assert word("es", "page", "step", i=2, n=9) == "Paso 2 de 9"
    with pytest.raises(CatalogueError, match=r"no word page\.nonesuch"):
        word("fr", "page", "nonesuch")
    with pytest.raises(CatalogueError, match="unknown language 'de'"):
        catalogue("de")


@pytest.mark.parametrize(
    ("deck", "lang", "card", "full", "short"),
    [
        ("italian", "it", "7d", "sette di denari", "7 di denari"),
        ("italian", "it", "Jh", "cavallo di coppe", "Cavallo di coppe"),
        ("italian", "it", "Qs", "fante di spade", "Fante di spade"),
        ("italian", "it", "Kc", "re di bastoni", "Re di bastoni"),
        ("italian", "it", "Ad", "asso di denari", "Asso di denari"),
        ("italian", "en", "7d", "seven of coins", "7 of coins"),
        ("spanish", "es", "7d", "siete de oros", "7 de oros"),
        ("spanish", "es", "Qh", "sota de copas", "Sota de copas"),
        ("spanish", "es", "Jc", "caballo de bastos", "Caballo de bastos"),
        ("spanish", "es", "Ks", "rey de espadas", "Rey de espadas"),
        ("spanish", "it", "Jd", "cavallo di denari", "Cavallo di denari"),
        ("spanish", "fr", "5s", "cinq d'épées", "5 d'épées"),
        ("french", "en", "7d", "seven of diamonds", "7♦"),
        ("french", "fr", "7d", "sept de carreau", "7♦"),
        ("french", "fr", "Jh", "valet de cœur", "J♥"),
        ("french", "it", "Qs", "donna di picche", "Q♠"),
        ("french", "es", "Kc", "rey de tréboles", "K♣"),
        ("french", "ar", "7d", "سبعة ديناري", "7♦"),
    ],
)
def test_a_card_in_its_decks_words(deck: str, lang: str, card: str, full: str, short: str) -> None:
    assert card_name(card, deck, lang) == full
    assert card_short(card, deck, lang) == short


def test_every_card_has_a_distinct_name_in_every_deck_and_language() -> None:
    for deck in ("french", "italian", "spanish"):
        for lang in LANGUAGES:
            full = {card_name(c, deck, lang) for c in CARDS}
            short = {card_short(c, deck, lang) for c in CARDS}
            assert len(full) == len(short) == 40, (deck, lang)


def test_italian_and_spanish_cards_are_never_written_with_french_signs() -> None:
    for deck in ("italian", "spanish"):
        for lang in LANGUAGES:
            for c in CARDS:
                assert not re.search("[♠♥♦♣]", card_short(c, deck, lang) + card_name(c, deck, lang))


def test_lists_suits_and_coins() -> None:
    assert cards_short(["7d", "Kc"], "italian", "it") == "7 di denari, Re di bastoni"
    assert cards_short(["7d", "Kc"], "french", "it") == "7♦ K♣"
    assert cards_short(["7d", "Kc"], "spanish", "ar") == "7 دنانير، ملك عصي"
    assert suit_name("d", "spanish", "es") == "oros"
    assert suit_name(1, "italian", "it") == "coppe"
    assert coins_sign("french", "it") == "♦" and coins_sign("italian", "it") == "denari"
    with pytest.raises(CardError, match="unknown deck 'tarot'"):
        card_name("7d", "tarot", "en")


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LANG": "es_ES.UTF-8", "LC_ALL": "fr_FR.UTF-8"}, "fr"),
        ({"LC_MESSAGES": "ar_TN.UTF-8", "LANG": "en_US.UTF-8"}, "ar"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "es:en"}, "es"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_locale_chooses_the_language(environ: dict[str, str], lang: str) -> None:
    assert locale_language(environ) == lang
