"""The rules pages (docs/protocol.md, ``GET /api/rules/{name}`` and ``/rules/{name}``): each
game's rules from the data ``chkobba rules NAME`` prints, every option, point and game in
English, French and Arabic; and what the game screens are sent to fit each game: Cirulla's
declarations face up (docs/rules.md §3, scopa-wikipedia-fr.txt:83), each point's rule,
Touti's running card points (docs/rules.md §4)."""

from __future__ import annotations

import random
from typing import Any

from click.testing import CliRunner
from starlette.testclient import TestClient

from chkobba.cli import main as cli
from chkobba.fishing.rules import PRESETS
from chkobba.fishing.scoring import POINT_KEYS
from chkobba.games import game
from chkobba.touti import rules as touti_rules
from chkobba.touti.cards import card_points
from chkobba.web.rules_page import (
    DESCRIPTION_WORDS,
    LANGUAGES,
    OPTION_WORDS,
    POINT_RULE_WORDS,
    TOUTI,
    TOUTI_OPTION_WORDS,
    names,
)


def _three(words: dict[str, str]) -> None:
    assert set(words) == set(LANGUAGES), words
    assert all(words[lang].strip() for lang in LANGUAGES), words
    # A translation that is the English word for word was not translated.
    assert len({words[lang] for lang in LANGUAGES}) == len(LANGUAGES), words


def test_every_option_of_every_preset_has_its_three_texts(sqlite_client: TestClient) -> None:
    for name in names():
        data = sqlite_client.get(f"/api/rules/{name}").json()
        _three(data["description"])
        keys = [o["key"] for o in data["options"]]
        expected = touti_rules.OPTION_HELP if name == TOUTI else PRESETS[name].options()
        assert keys == list(expected)
        for option in data["options"]:
            _three(option["help"])
        assert [p["key"] for p in data["points"]] == (
            [] if name == TOUTI else list(PRESETS[name].scoring)
        )
        for point in data["points"]:
            _three(point["help"])
    # The tables of words themselves: nothing left over, nothing missing.
    assert set(OPTION_WORDS) == {k for r in PRESETS.values() for k in r.options()}
    assert set(TOUTI_OPTION_WORDS) == set(touti_rules.OPTION_HELP)
    assert set(POINT_RULE_WORDS) == {pk.rule for pk in POINT_KEYS.values()}
    assert set(DESCRIPTION_WORDS) == set(names())


def test_a_rules_page_says_what_chkobba_rules_prints(sqlite_client: TestClient) -> None:
    runner = CliRunner()
    for name in ("chkobba", "scopa", "cirulla", "scopone", TOUTI):
        printed = runner.invoke(cli, ["rules", name])
        assert printed.exit_code == 0, printed.output
        data = sqlite_client.get(f"/api/rules/{name}").json()
        assert "\n".join(data["text"]) == printed.output.rstrip("\n")
        assert data["name"] == name
    scopa = sqlite_client.get("/api/rules/scopa").json()
    values = {o["key"]: o for o in scopa["options"]}
    # Scopa's "une ou deux cartes" (scopa-wikipedia-fr.txt:24): an option that differs.
    assert values["max_capture_cards"]["value"] == "2" and values["max_capture_cards"]["differs"]
    assert not values["hand_size"]["differs"]
    assert scopa["seatings"] == list(PRESETS["scopa"].seatings)
    index = sqlite_client.get("/api/rules").json()
    assert [g["name"] for g in index["games"]] == [*PRESETS, TOUTI]


def test_an_unknown_rules_page_is_a_one_line_404(sqlite_client: TestClient) -> None:
    r = sqlite_client.get("/api/rules/scopa-strict")
    assert r.status_code == 404
    body = r.json()
    assert body["error"] == "unknown_rules"
    assert "scopa-strict" in body["message"] and "\n" not in body["message"]
    page = sqlite_client.get("/rules/scopa")
    assert page.status_code == 200 and "rules.js" in page.text


def _cirulla_declaring() -> tuple[int, Any]:
    """A seed whose first Cirulla deal declares a hand, and the table it serves."""
    g = game("chkobba")
    rules = g.make_rules("cirulla", {})
    for seed in range(500):
        table = g.serve(rules, 2, False, seed)
        if table.match.round.declarations:
            return seed, table
    raise AssertionError("no Cirulla deal declared a hand in 500 seeds")


def test_cirulla_declarations_are_shown_to_every_seat() -> None:
    _, table = _cirulla_declaring()
    declared = table.match.round.declarations
    views = [table.view(s, ["a", "b"]) for s in (-1, 0, 1)]
    for view in views:
        assert [d["seat"] for d in view["declarations"]] == [d.seat for d in declared]
        assert [d["name"] for d in view["declarations"]] == [d.name for d in declared]
        assert [d["points"] for d in view["declarations"]] == [d.points for d in declared]
        for d in view["declarations"]:
            # The hand shown face up is the seat's hand as dealt.
            assert len(d["cards"]) == 3
            assert set(d["cards"]) == set(views[d["seat"] + 1]["hand"])
        assert len(view["shown"]) == 2
    # Scopa declares nothing: its state has no such field.
    scopa = game("chkobba").serve(game("chkobba").make_rules("scopa", {}), 2, False, 1)
    assert "declarations" not in scopa.view(0, ["a", "b"])


def test_every_point_names_its_rule() -> None:
    g = game("chkobba")
    for name in PRESETS:
        points = g.point_names(g.make_rules(name, {}))
        assert [p["rule"] for p in points] == [POINT_KEYS[k].rule for k in PRESETS[name].scoring]
        # The sweep point names the word shouted at a sweep: scopa! in Scopa, escoba! in Escoba.
        words = [p["word"] for p in points if "word" in p]
        assert words == [
            {"chkobba": "chkobba", "scope": "scopa", "escobas": "escoba"}[k]
            for k in PRESETS[name].scoring if POINT_KEYS[k].rule == "sweeps"
        ]


def test_touti_card_points_run_with_the_tricks() -> None:
    g = game("touti")
    table = g.serve(g.make_rules(None, {}), 4, True, 7)
    rng = random.Random(3)
    seen_points = False
    while not table.is_over and table.rounds == 0:
        view = table.view(0, ["a", "b", "c", "d"])
        taken = [0, 0]
        for trick in table.match.deal.tricks:
            taken[trick.winner % 2] += card_points(sum(1 << c for c in trick.cards))
        assert view["card_points"] == taken
        seen_points = seen_points or sum(taken) > 0
        move = table.automatic() or rng.choice(table.legal())
        table.play(table.turn, move)
    assert seen_points
