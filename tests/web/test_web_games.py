"""Every game in the one hub (docs/protocol.md): rooms of a Scopa preset and of Touti
over the same WebSocket protocol as Chkobba's, the creation API's fields and its
one-line 400 errors, a restart that resumes them, and no hidden card in any message.

Seatings per preset: docs/rules.md §3 (each preset's ``seatings``); Touti's table and
its no-announcement: docs/rules.md §4.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from starlette.testclient import TestClient
from wsutil import expect_error, hello, make_client, recv_until

from chkobba.fishing.cards import CARDS, Card, cards_of
from chkobba.fishing.game import Phase
from chkobba.fishing.rules import PRESETS
from chkobba.games import Table, game, replay
from chkobba.touti.deal import Deal
from chkobba.touti.moves import parse_move as parse_touti
from chkobba.touti.record import ToutiRecord
from chkobba.touti.record import replay as replay_touti
from chkobba.touti.rules import ToutiRules

CARD = re.compile(r"(?<![A-Za-z0-9])([A2-7QJK][shdc])(?![A-Za-z0-9])")
NO_ANNOUNCEMENT = "nocanto"
"""Touti's no-announcement, which the server plays for a seat that holds none."""


def cards_in(message: Any) -> set[str]:
    """Every card named anywhere in a message's strings."""
    if isinstance(message, str):
        return set(CARD.findall(message))
    if isinstance(message, dict):
        return set().union(*(cards_in(v) for v in message.values()))
    if isinstance(message, list):
        return set().union(*(cards_in(v) for v in message))
    return set()


def hidden_from(table: Table, seat: int) -> set[str]:
    """The cards ``seat`` (-1: a spectator) may not know now: the other hands, the stock,
    a cut card it was not shown."""
    m: Any = getattr(table, "match")  # noqa: B009 - the engine's own match, for the test
    if hasattr(m, "round"):
        r = m.round
        hidden = r.stock_mask()
        hands = r.hands
        if r.phase is Phase.CUT and seat == r.cutter and r.cut_card is not None:
            hidden &= ~(1 << r.cut_card)
    else:
        hidden, hands = 0, m.deal.hands
    for s, hand in enumerate(hands):
        if s != seat:
            hidden |= hand
    return {str(c) for c in cards_of(hidden)}


def played_cards(table: Table) -> set[str]:
    """Every card played to a trick so far in a Touti match (public once played)."""
    m: Any = getattr(table, "match")  # noqa: B009
    if not hasattr(m, "deal"):
        return set()
    cards = {c for d in m.finished for t in d.tricks for c in t.cards}
    cards |= {c for t in m.deal.tricks for c in t.cards}
    cards |= set(table.observe(-1).current)
    return {str(CARDS[c]) for c in cards}


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def play_whole_game(client: TestClient, body: dict[str, Any], seed: int) -> None:
    """People at every seat and a spectator follow a seeded game to its end; then the
    game is replayed and no message to a seat may name a card hidden from it."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.new_seed = lambda: seed
    r = create(client, mode="room", **body)
    code, tokens = r["game"], [r["token"]]
    while (j := client.post(f"/api/games/{code}/join", json={})).status_code == 200:
        tokens.append(j.json()["token"])
    seats = len(tokens)
    rng = random.Random(seed)
    received: dict[int, list[dict[str, Any]]] = {s: [] for s in range(-1, seats)}
    conns = [client.websocket_connect("/ws") for _ in range(seats + 1)]
    wss = [c.__enter__() for c in conns]
    try:
        by_seat = dict(enumerate(wss[:seats]))
        by_seat[-1] = wss[seats]
        states = {s: hello(ws, code, tokens[s] if s >= 0 else None) for s, ws in by_seat.items()}
        for s in by_seat:
            received[s].append(states[s])
        while not states[-1]["over"]:
            turn = states[-1]["turn"]
            legal = states[turn]["legal"]
            assert legal, states[turn]
            if legal != [NO_ANNOUNCEMENT]:
                by_seat[turn].send_json(
                    {"type": "play", "move": rng.choice(legal), "ply": states[turn]["ply"]}
                )
            ply = states[-1]["ply"]
            for s, ws in by_seat.items():
                state, seen = recv_until(ws, "state")
                received[s].extend(seen)
                states[s] = state
                assert state["ply"] == ply + 1
    finally:
        for c in reversed(conns):
            c.__exit__(None, None, None)
    stored = hub.store.game(code)
    g = game(stored.game)
    rules = g.make_rules(stored.rules, stored.options, stored.rules_version)
    seats_, teams = stored.seats, stored.teams
    hidden = [{s: hidden_from(replay(g, rules, seats_, teams, seed, []), s) for s in received}]
    public: list[set[str]] = [set()]
    for k in range(1, len(stored.moves) + 1):
        table = replay(g, rules, seats_, teams, seed, stored.moves[:k])
        hidden.append({s: hidden_from(table, s) for s in received})
        public.append(played_cards(table))
    assert table.is_over and stored.status == "finished"
    for s, messages in received.items():
        ply = 0
        for msg in messages:
            ply = msg.get("ply", ply)
            # A finished round is public as a whole (every card in it was played); the
            # story of a Touti match tells only cards played, in this deal or before.
            current = {k: v for k, v in msg.items() if k not in ("previous", "log")}
            leaked = cards_in(current) & hidden[ply][s]
            assert not leaked, f"seat {s} was sent hidden {sorted(leaked)} at ply {ply}: {msg}"
            told = cards_in(msg.get("log", []))
            assert told <= public[ply], f"seat {s} was told unplayed {told - public[ply]}"
    json.dumps(received)


def test_a_scopa_room_speaks_the_same_protocol(client: TestClient) -> None:
    r = create(client, game="chkobba", rules="scopa", players=4, teams=True, mode="room")
    summary = client.get(f"/api/games/{r['game']}").json()
    assert summary["rules"] == "scopa" and summary["seats"] == 4 and summary["teams"]
    assert "primiera" in [p["key"] for p in summary["points"]]
    assert summary["status"] == "open" and summary["game_name"] == "chkobba"
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, r["game"], r["token"])
        assert state["legal"] == [] and len(state["hand"]) == PRESETS["scopa"].hand_size
        ws.send_json({"type": "fill", "level": "easy"})
        room, _ = recv_until(ws, "room")
        while not all(p["taken"] for p in room["players"]):
            room, _ = recv_until(ws, "room")
        assert [p["computer"] for p in room["players"]] == [None, "easy", "easy", "easy"]
        state, _ = recv_until(ws, "state")
        while state["turn"] != 0:
            state, _ = recv_until(ws, "state")
        ws.send_json({"type": "play", "move": "Zz"})
        expect_error(ws, "bad_move")


def test_touti_with_computers_plays_over_the_websocket(client: TestClient) -> None:
    r = create(client, game="touti", level="random")
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, r["game"], r["token"])
        assert state["you"] == 0 and len(state["names"]) == 4
        for _ in range(400):
            if state["over"] or (state["turn"] == 0 and state["legal"]):
                break
            state, _ = recv_until(ws, "state")
        assert state["legal"] and NO_ANNOUNCEMENT not in state["legal"]
        ws.send_json({"type": "play", "move": "999"})
        expect_error(ws, "bad_move")
        wrong = next(m for m in ("Ah", "Kh", "2s") if m not in state["legal"])
        ws.send_json({"type": "play", "move": wrong})
        err = expect_error(ws, "illegal_move")
        assert "\n" not in err["message"]
        ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
        after, _ = recv_until(ws, "state")
        assert after["ply"] == state["ply"] + 1 and after["log"]
    summary = client.get(f"/api/games/{r['game']}").json()
    assert summary["game_name"] == "touti" and summary["rules"] == "touti"
    assert [p["computer"] for p in summary["players"]] == [None, "random", "random", "random"]


def test_a_touti_room_mixes_people_and_computers(client: TestClient) -> None:
    r = create(client, game="touti", mode="room", computers=[None, "random", None, "random"])
    j = client.post(f"/api/games/{r['game']}/join", json={"name": "Bea"})
    assert j.status_code == 200 and j.json()["seat"] == 2
    summary = client.get(f"/api/games/{r['game']}").json()
    assert summary["status"] == "playing"
    assert [p["name"] for p in summary["players"]] == ["Player 1", None, "Bea", None]


def test_a_restart_resumes_games_of_every_game(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        made = [
            create(c, game="touti", level="random"),
            create(c, game="chkobba", rules="escoba", level="easy"),
        ]
        views = []
        for r in made:
            with c.websocket_connect("/ws") as ws:
                state = hello(ws, r["game"], r["token"])
                while not (state["turn"] == 0 and state["legal"]):
                    state, _ = recv_until(ws, "state")
                views.append(state)
    with make_client(sqlite_url) as c:
        for r, before in zip(made, views, strict=True):
            with c.websocket_connect("/ws") as ws:
                assert hello(ws, r["game"], r["token"]) == before


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"game": "chess"}, "game must be one of chkobba, touti"),
        ({"rules": "tressette"}, "tressette"),
        ({"rules": "scopa", "options": {"colour": 1}}, "colour"),
        ({"rules": "chkobba", "seating": "6"}, "seating must be one of"),
        ({"rules": "scopone", "players": 2}, "scopone"),
        ({"game": "touti", "players": 2}, "Touti is played by 4 players"),
        ({"game": "touti", "target": 21}, "target must be one of 600"),
        ({"game": "touti", "options": {"kaddour": "yes"}}, "kaddour"),
        ({"game": "touti", "rules": "scopa"}, "Touti has no rule presets"),
        ({"players": "two"}, "players must be"),
        ({"options": [1]}, "options must be an object"),
        ({"colour": "red"}, "unknown field(s): colour"),
        ({"mode": "room", "computers": ["easy"]}, "seat 0 is yours"),
    ],
)
def test_bad_creation_requests_are_one_line_400s(
    sqlite_client: TestClient, body: dict[str, Any], fragment: str
) -> None:
    r = sqlite_client.post("/api/games", json={"level": "easy", **body})
    assert r.status_code == 400, r.text
    message = r.json()["message"]
    assert fragment in message and "\n" not in message


def test_a_touti_level_is_a_touti_player(sqlite_client: TestClient) -> None:
    r = sqlite_client.post("/api/games", json={"game": "touti", "level": "expert"})
    assert r.status_code == 400 and r.json()["error"] == "unknown_level"
    assert "technique" in r.json()["message"]


def test_info_lists_every_game(sqlite_client: TestClient) -> None:
    info = sqlite_client.get("/api/info").json()
    games = info["games"]
    assert set(games) == {"chkobba", "touti"}
    assert games["touti"]["rules"]["touti"]["seatings"] == ["2v2"]
    scopa = games["chkobba"]["rules"]["scopa"]
    assert "primiera" in [p["key"] for p in scopa["points"]]
    assert set(games["chkobba"]["rules"]["escoba"]["seatings"]) == {"2", "3", "4", "6", "2v2"}
    assert "search" in games["touti"]["levels"]


def test_card_pattern_finds_cards() -> None:
    assert cards_in({"a": ["7d", "Qh:7d+Ah"], "b": "10"}) == {"7d", "Qh", "Ah"}
    assert str(CARDS[0]) in cards_in([str(CARDS[0])])


def held(mask: int) -> set[str]:
    """A hand's cards by name."""
    return {str(c) for c in cards_of(mask)}


def check_touti_steps(frames: list[dict[str, Any]], rec: ToutiRecord) -> None:
    """The replay's steps against the record played again deal by deal: every hand at
    every step, the trick on the table, the contract, and each deal's end."""
    rules = ToutiRules.from_options(rec.options)
    steps = iter(frames)
    for number, dr in enumerate(rec.deals, 1):
        deal = Deal(dr.dealer, [int(Card.parse(c)) for c in dr.deck], rules)
        f = next(steps)
        assert f["note"] == "deal" and f["deal"] == number and f["dealer"] == dr.dealer
        assert [set(h) for h in f["hands"]] == [held(h) for h in deal.hands]
        for text in dr.moves:
            seat = deal.turn
            deal.apply(parse_touti(text))
            f = next(steps)
            assert f["note"] == ("end" if deal.is_over else "play")
            assert [set(h) for h in f["hands"]] == [held(h) for h in deal.hands]
            assert [p["card"] for p in f["trick"]] == [str(CARDS[c]) for c in deal.current]
            assert f["bid"] == deal.bid and f["declarer"] == deal.declarer
            if text != NO_ANNOUNCEMENT:
                assert f["events"][0]["seat"] == seat
        kinds = {e["kind"] for e in f["events"]}
        assert "result" in kinds or "no_contract" in kinds
        if deal.score is not None:
            assert f["tricks"] == [sum(1 for t in deal.tricks if t.winner % 2 == k) for k in (0, 1)]
    assert next(steps, None) is None


def test_a_finished_touti_game_gives_its_record_and_replay(sqlite_client: TestClient) -> None:
    c = sqlite_client
    r = create(c, game="touti", mode="room", target=600, computers=[None, *["random"] * 3])
    hub = c.app.state.hub  # type: ignore[attr-defined]
    assert c.get(f"/api/games/{r['game']}/record").status_code == 409
    # Every hand is shown in a replay: none before the end.
    assert c.get(f"/api/games/{r['game']}/replay").json()["error"] == "not_finished"
    with c.websocket_connect("/ws") as ws:
        state = hello(ws, r["game"], r["token"])
        while not state["over"]:
            if state["turn"] == 0 and state["legal"] and state["legal"] != [NO_ANNOUNCEMENT]:
                ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
            state, _ = recv_until(ws, "state", 400)
    text = c.get(f"/api/games/{r['game']}/record").text
    rep = replay_touti(ToutiRecord.loads(text))  # every move checked again
    assert rep.winner == state["winner"] and rep.totals == state["totals"]
    steps = c.get(f"/api/games/{r['game']}/replay").json()
    assert steps["kind"] == "touti" and steps["deck"] == "spanish"
    assert steps["totals"] == state["totals"] and steps["winner"] == state["winner"]
    check_touti_steps(steps["frames"], ToutiRecord.loads(text))
    assert r["game"] not in hub.rooms or hub.rooms[r["game"]].status == "finished"
