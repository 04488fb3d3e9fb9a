"""The project's SVG cards (chkobba.web.deck) and the route that serves them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from chkobba.fishing.cards import CARDS
from chkobba.web.app import create_app
from chkobba.web.deck import DECKS, DeckError, back_svg, card_svg, card_title, svg

SVG = "{http://www.w3.org/2000/svg}"
NAMES = [str(c) for c in CARDS]


def parsed(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 100 140"
    return root


@pytest.mark.parametrize("deck", DECKS)
def test_every_card_and_back_is_well_formed_svg_with_its_name(deck: str) -> None:
    for name in NAMES:
        root = parsed(card_svg(deck, name))
        title = root.find(f"{SVG}title")
        assert title is not None and title.text == card_title(deck, name)
    back = parsed(back_svg(deck))
    assert back.find(f"{SVG}title") is not None


@pytest.mark.parametrize("deck", DECKS)
def test_the_cards_of_a_deck_differ_from_each_other_and_from_the_back(deck: str) -> None:
    drawn = {svg(deck, name) for name in [*NAMES, "back"]}
    assert len(drawn) == 41
    # The pictures themselves differ, not only their titles.
    bodies = {re.sub(r"<title>.*?</title>", "", s) for s in drawn}
    assert len(bodies) == 41


def test_the_three_decks_draw_every_card_differently() -> None:
    for name in [*NAMES, "back"]:
        assert len({svg(deck, name) for deck in DECKS}) == 3, name


def test_the_suits_are_drawn_distinctly_in_each_deck() -> None:
    # The four aces hold nothing but their suit's sign: four different pictures per deck,
    # and the Italian and Spanish cups, coins, swords and clubs are not the same drawings.
    strip = lambda s: re.sub(r"<title>.*?</title>|<text.*?</text>", "", s)  # noqa: E731
    for deck in DECKS:
        assert len({strip(card_svg(deck, f"A{s}")) for s in "shdc"}) == 4
    for suit in "shdc":
        assert strip(card_svg("italian", f"A{suit}")) != strip(card_svg("spanish", f"A{suit}"))


def test_court_cards_carry_their_decks_index() -> None:
    # The corner index tells the court cards apart at a glance: J Q K; F C R (fante,
    # cavallo, re); 10 11 12 (sota, caballo, rey, as Spanish decks print them).
    expected = {"french": "QJK", "italian": "FCR", "spanish": ("10", "11", "12")}
    for deck, marks in expected.items():
        for rank, mark in zip("QJK", marks, strict=True):
            texts = [t.text for t in parsed(card_svg(deck, f"{rank}h")).iter(f"{SVG}text")]
            assert texts == [mark, mark], (deck, rank, texts)


def test_card_names_follow_the_decks_words() -> None:
    # chkobba.words.cards, in each deck's own language: the fante is Q, the caballo J, oros
    # are diamonds.
    assert card_title("french", "Kh") == "king of hearts"
    assert card_title("italian", "Qh") == "fante di coppe"
    assert card_title("spanish", "Jd") == "caballo de oros"
    assert card_title("spanish", "7d") == "siete de oros"
    assert card_title("italian", "Jc") == "cavallo di bastoni"


@pytest.mark.parametrize(
    ("deck", "name"),
    [("german", "7d"), ("french", "8d"), ("french", "7x"), ("french", "7♦"), ("french", "7D"),
     ("French", "7d"), ("french", ""), ("italian", "backs")],
)
def test_unknown_decks_and_cards_are_refused(deck: str, name: str) -> None:
    with pytest.raises(DeckError) as e:
        svg(deck, name)
    assert "\n" not in str(e.value) and str(e.value)


def test_no_svg_refers_to_anything_outside_itself() -> None:
    for deck in DECKS:
        for name in [*NAMES, "back"]:
            text = svg(deck, name)
            for el in ET.fromstring(text).iter():
                for attr, value in el.attrib.items():
                    if attr.endswith("href"):
                        assert value.startswith("#"), (deck, name, value)
                    assert "url(" not in value or value.startswith("url(#"), (deck, name, value)
            assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
            assert "https://" not in text


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'cards.db'}"))


def test_the_route_serves_cards_and_backs_cached(client: TestClient) -> None:
    with client:
        r = client.get("/cards/italian/7d.svg")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("image/svg+xml")
        assert r.text == card_svg("italian", "7d")
        assert "max-age=604800" in r.headers["cache-control"]
        etag = r.headers["etag"]
        again = client.get("/cards/italian/7d.svg", headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.headers["etag"] == etag
        other = client.get("/cards/spanish/7d.svg")
        assert other.status_code == 200 and other.headers["etag"] != etag
        back = client.get("/cards/french/back.svg")
        assert back.status_code == 200 and back.text == back_svg("french")


@pytest.mark.parametrize(
    "path", ["/cards/german/7d.svg", "/cards/french/8d.svg", "/cards/french/7d.png",
             "/cards/french/7d"],
)
def test_the_route_refuses_unknown_names_in_json(client: TestClient, path: str) -> None:
    with client:
        r = client.get(path)
    assert r.status_code == 404
    body = r.json()
    assert body["error"] == "unknown_card" and body["message"]


def test_the_summary_names_the_rules_deck(client: TestClient) -> None:
    with client:
        for rules, deck in (("chkobba", "french"), ("scopa", "italian"), ("escoba", "spanish")):
            made = client.post("/api/games", json={"rules": rules, "level": "random"}).json()
            assert client.get(f"/api/games/{made['game']}").json()["deck"] == deck
        made = client.post(
            "/api/games", json={"rules": "chkobba", "options": {"deck": "italian"}}
        ).json()
        assert client.get(f"/api/games/{made['game']}").json()["deck"] == "italian"
        touti = client.post(
            "/api/games", json={"game": "touti", "computers": [None, "random", "random", "random"]}
        ).json()
        assert client.get(f"/api/games/{touti['game']}").json()["deck"] == "spanish"
