"""How to play, on each rules page (issue 27 §4): the texts in every language
(src/chkobba/words/howto/LANG.json), each game's page over HTTP in two languages, and the
worked example checked against the engine: every capture it shows is the one the rules
allow, the sweep is a sweep, the round is counted as the engine counts it, and Touti's
trick is played as its rules require (docs/rules.md §2, §3, §4.6)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from chkobba.fishing.cards import parse_cards
from chkobba.fishing.rules import PRESETS
from chkobba.fishing.scoring import POINT_KEYS, declaration, score_round
from chkobba.touti.cards import card_points
from chkobba.touti.deal import legal_cards, trick_winner_index
from chkobba.web import howto
from chkobba.web.rules_page import names
from chkobba.words import LANGUAGES

PLACEHOLDER = re.compile(r"\{(\w+)\}")

TWO_LANGUAGES = {
    "chkobba": ("fr", "ar"),
    "escoba": ("es", "en"),
    "escoba-del-15": ("es", "ar"),
    "chkop": ("fr", "ar"),
    "touti": ("ar", "es"),
}
"""Each game's page is read in two languages: its players' own and another (the Italian
games in Italian and English)."""


def test_every_language_has_every_howto_text_with_the_same_placeholders() -> None:
    english = howto.howto("en")
    for lang in LANGUAGES:
        texts = howto.howto(lang)
        assert set(texts) == set(english), lang
        for key, text in texts.items():
            assert text.strip(), (lang, key)
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english[key])), (
                lang, key)
            if lang != "en":
                assert text != english[key], f"{lang}.{key} is not translated"


def used_keys() -> set[str]:
    """Every how-to text some page shows."""
    keys: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if set(node) == set(LANGUAGES):
                for key, text in howto.howto("en").items():
                    if howto.words(key) == node or _same_up_to_values(text, node["en"]):
                        keys.add(key)
                return
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for name in names():
        keys.update(howto.paragraph_keys(name))
        walk(howto.howto_json(name)["example"])
    return keys


def _same_up_to_values(template: str, text: str) -> bool:
    pattern = re.escape(template)
    pattern = re.sub(r"\\\{(\w+)\\\}", lambda m: r"(?:\{" + m[1] + r"\}|.+?)", pattern)
    return re.fullmatch(pattern, text) is not None


def test_every_howto_text_is_shown_by_some_page_and_every_page_has_its_texts() -> None:
    assert used_keys() == set(howto.howto("en"))


@pytest.mark.parametrize("name", names())
def test_each_rules_page_begins_with_how_to_play_in_two_languages(
    sqlite_client: TestClient, name: str
) -> None:
    page = sqlite_client.get(f"/rules/{name}")
    assert page.status_code == 200 and 'id="howto"' in page.text and 'id="example"' in page.text
    data = sqlite_client.get(f"/api/rules/{name}").json()
    langs = TWO_LANGUAGES.get(name, ("it", "en"))
    paragraphs = data["howto"]["paragraphs"]
    keys = howto.paragraph_keys(name)
    assert len(paragraphs) == len(keys) >= 3
    for lang in langs:
        texts = howto.howto(lang)
        for key, para in zip(keys, paragraphs, strict=True):
            # The language's own text, every placeholder but the cards filled.
            assert _same_up_to_values(texts[key], para[lang]), (lang, key)
            assert not re.search(r"\{(?![A2-7QJK][shdc]\})", para[lang]), para[lang]
        if name not in ("chkobba", "scopa", "touti"):
            assert paragraphs[1][lang].startswith(texts[f"diff_{name}"][:20])
        example = data["howto"]["example"]
        assert all(step["text"][lang] for step in example["steps"])
        assert example["count"]["after"][lang]
    target = str(data["target"])
    if name not in ("scopa-frac",):
        assert any(target in p["en"] for p in paragraphs), "the page names the target"
    assert data["deck"] in ("french", "italian", "spanish")


SCOPA_CAPTURES = ("capture_match", "capture_sum", "capture_total", "max_capture_cards",
                  "fewest_cards", "matching_priority")


@pytest.mark.parametrize("name", [n for n in PRESETS if n not in ("chkobba", "scopa")])
def test_a_preset_page_leaves_out_what_its_difference_replaces(name: str) -> None:
    """Scopa's paragraphs are left out of a preset's page where its rules differ: the
    page never says a Scopa rule that the preset does not play."""
    rules, scopa = PRESETS[name], PRESETS["scopa"]
    keys = howto.paragraph_keys(name)
    assert keys[1] == f"diff_{name}"
    differs = {k for k in rules.options() if rules.options()[k] != scopa.options()[k]}
    assert ("scopa_turn" in keys) == (not differs & set(SCOPA_CAPTURES))
    assert ("scopa_deal" in keys) == (not differs & {"hand_size", "table_size", "cut_choice"})
    rules_scored = {POINT_KEYS[k].rule for k in rules.scoring}
    needed = {"cards", "coins", "seven_of_coins", "primiera", "sweeps"}
    assert ("scopa_count" in keys) == (needed <= rules_scored)
    assert ("scopa_sweep" in keys) == ("sweeps" in rules_scored)
    assert ("scopa_match" in keys) == (not rules.lowest_wins and rules.target > 1)


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_worked_example_plays_as_the_engine_does(name: str) -> None:
    rules = PRESETS[name]
    example = howto.example(name)
    steps = howto.steps(name)
    for step, shown in zip(steps, example["steps"], strict=True):
        legal = howto.legal_takes(rules, step.table, step.play)
        assert step.take in legal, (step, legal)
        if step.text in ("ex_first", "ex15_first", "ex15_second", "ex_second"):
            assert legal == [step.take], "the words say it is the only capture"
        if step.text == "ex_first_free":
            assert len(legal) > 1, "the words say there is a choice"
        assert shown["sweep"] == (set(step.take) == set(step.table))
    last = steps[-1]
    assert set(last.take) == set(last.table), "the example ends on a sweep"
    sweep = howto.sweep_key(rules)
    assert last.text == (f"ex{'15' if howto.by_fifteen(rules) else ''}_sweep_{sweep}"
                         if sweep else "ex_sweep_none")
    # The plays are consistent with the piles counted: yours hold what you took.
    you, them = howto.piles()
    for step in steps:
        pile = you if step.who == "you" else them
        assert parse_cards("+".join((step.play, *step.take))) & ~pile == 0, step
    # The count is the engine's.
    declared = (0, 3) if "cirulla" in rules.scoring else None
    score = score_round((you, them), howto.SWEEPS, rules, declared=declared)
    assert example["count"]["totals"] == list(score.points)
    assert [r["key"] for r in example["count"]["rows"]] == list(rules.scoring)
    assert sum(sum(r["points"]) for r in example["count"]["rows"]) == sum(score.points)


def test_the_extras_of_cirulla_and_asso_piglia_tutto_are_the_rules() -> None:
    assert declaration(parse_cards("Ac+2h+5s"))[:2] == ("cirulla", 3)  # type: ignore[index]
    assert declaration(parse_cards("4c+4d+4s"))[:2] == ("cirullone", 10)  # type: ignore[index]
    assert howto.legal_takes(PRESETS["cirulla"], ("3c", "4h", "Kd"), "5h") == [("Kd",)]
    everything = tuple(sorted(howto.START))
    takes = howto.legal_takes(PRESETS["asso-piglia-tutto"], howto.START, "Ah")
    assert [tuple(sorted(t)) for t in takes] == [everything]
    assert len(howto.example("cirulla")["extra"]) == 2
    assert len(howto.example("asso-piglia-tutto")["extra"]) == 1


def test_the_touti_trick_is_played_as_the_rules_require() -> None:
    trump = "shdc".index(howto.TOUTI_TRUMP)
    trick: list[int] = []
    for _who, hand, card, _text in howto.TOUTI_TRICK:
        mask = parse_cards("+".join(hand))
        legal = legal_cards(mask, trick, trump, False)
        if trick:
            # The words say each player had one card to play.
            assert legal == parse_cards(card), (card, hand)
        trick.append(parse_cards(card).bit_length() - 1)
    assert trick_winner_index(trick, trump) == 3
    assert card_points(sum(1 << c for c in trick)) == 24
    data = howto.touti_example()
    assert [s["who"] for s in data["steps"]] == ["you", "right", "partner", "left"]
