"""No message to a seat ever holds a card hidden from that seat, over whole seeded games of
every game: Chkobba at every seating, Scopa presets and Touti.

Every seat (and a spectator) follows a seeded game to its end over the WebSocket.
The game is then rebuilt from its seed and moves; at every ply, the cards hidden
from each seat (the other hands, the stock, a cut card it was not shown) must
appear in none of the messages it received for that ply.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_web_games import play_whole_game as play_any_game
from wsutil import hello, make_client, recv_until

from chkobba.fishing.cards import CARDS, cards_of
from chkobba.fishing.game import Phase
from chkobba.fishing.match import Match
from chkobba.fishing.moves import parse_move
from chkobba.fishing.rules import preset
from chkobba.web.protocol import finished_round_json

CARD = re.compile(r"(?<![A-Za-z0-9])([A2-7QJK][shdc])(?![A-Za-z0-9])")


def cards_in(message: Any) -> set[str]:
    """Every card named anywhere in a message's strings."""
    found: set[str] = set()
    if isinstance(message, str):
        found.update(CARD.findall(message))
    elif isinstance(message, dict):
        for v in message.values():
            found |= cards_in(v)
    elif isinstance(message, list):
        for v in message:
            found |= cards_in(v)
    return found


def hidden_from(match: Match, seat: int) -> set[str]:
    """The cards ``seat`` (-1: a spectator) may not know now."""
    r = match.round
    hidden = r.stock_mask()
    for s, hand in enumerate(r.hands):
        if s != seat:
            hidden |= hand
    if r.phase is Phase.CUT and seat == r.cutter and r.cut_card is not None:
        hidden &= ~(1 << r.cut_card)
    return {str(c) for c in cards_of(hidden)}


def test_the_checker_sees_a_leak() -> None:
    match = Match(preset("chkobba"), 2, False, seed=5)
    match.apply(parse_move("keep"), match.turn)
    other = 1 - match.turn
    leak = {"type": "state", "history": [{"move": f"{CARDS[0]}"}], "hand": ["7d", "Qh"]}
    theirs = {str(c) for c in cards_of(match.round.hands[other])}
    assert theirs and theirs <= hidden_from(match, match.turn)
    leak["legal"] = [f"{next(iter(theirs))}:Ah+2s"]
    assert cards_in(leak) & hidden_from(match, match.turn)


def play_whole_game(client: TestClient, seating: str, seed: int) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.new_seed = lambda: seed
    r = client.post("/api/games", json={"mode": "room", "seating": seating, "target": 11})
    game = r.json()["game"]
    tokens = [r.json()["token"]]
    while (j := client.post(f"/api/games/{game}/join", json={})).status_code == 200:
        tokens.append(j.json()["token"])
    seats = len(tokens)
    rng = random.Random(seed)
    received: dict[int, list[dict[str, Any]]] = {s: [] for s in range(-1, seats)}
    conns = [client.websocket_connect("/ws") for _ in range(seats + 1)]
    wss = [c.__enter__() for c in conns]
    try:
        by_seat = {s: wss[s] for s in range(seats)}
        by_seat[-1] = wss[seats]
        states = {}
        for s, ws in by_seat.items():
            states[s] = hello(ws, game, tokens[s] if s >= 0 else None)
            received[s].append(states[s])
        while not states[-1]["over"]:
            turn = states[-1]["turn"]
            legal = states[turn]["legal"]
            by_seat[turn].send_json(
                {"type": "play", "move": rng.choice(legal), "ply": states[turn]["ply"]}
            )
            for s, ws in by_seat.items():
                state, seen = recv_until(ws, "state")
                received[s].extend(seen)
                states[s] = state
    finally:
        for c in reversed(conns):
            c.__exit__(None, None, None)
    moves = hub.rooms[game].moves if game in hub.rooms else None
    if moves is None:
        stored = hub.store.game(game)
        moves = stored.moves
    teams = seating == "2v2"
    match = Match(preset("chkobba", {"target": 11}), seats, teams, seed)
    hidden = [{s: hidden_from(match, s) for s in received}]
    hands = [{s: sorted(str(c) for c in cards_of(match.round.hands[s])) for s in range(seats)}]
    previous: list[Any] = [None]
    for text in moves:
        match.apply(parse_move(text), match.turn)
        hidden.append({s: hidden_from(match, s) for s in received})
        hands.append(
            {s: sorted(str(c) for c in cards_of(match.round.hands[s])) for s in range(seats)}
        )
        previous.append(finished_round_json(match.finished[-1]) if match.finished else None)
    assert match.is_over
    checked = 0
    for s, messages in received.items():
        ply = 0
        for msg in messages:
            ply = msg.get("ply", ply)
            # A finished round is public as a whole (every card in it was played);
            # it must be the same for every seat, checked below.
            current = {k: v for k, v in msg.items() if k != "previous"}
            leaked = cards_in(current) & hidden[ply][s]
            assert not leaked, f"seat {s} was sent hidden {sorted(leaked)} at ply {ply}: {msg}"
            if msg["type"] == "state":
                if "previous" in msg:
                    assert msg["previous"] == previous[ply]
                if s >= 0:
                    assert sorted(msg["hand"]) == hands[ply][s]
            checked += 1
    assert checked > 3 * len(moves)
    json.dumps(received)  # everything sent was plain JSON


@pytest.mark.parametrize(("seating", "seed"), [("2", 11), ("2v2", 12), ("3", 13), ("4", 14)])
def test_no_message_holds_a_hidden_card(sqlite_url: str, seating: str, seed: int) -> None:
    with make_client(sqlite_url) as client:
        play_whole_game(client, seating, seed)


# Every game on the hub: a Scopa preset, Scopone (2 against 2), Escoba for 6 and Touti
# (docs/rules.md §3 and §4), through the game interface.
@pytest.mark.parametrize(
    ("body", "seed"),
    [
        ({"game": "chkobba", "rules": "scopa", "seating": "2", "target": 11}, 21),
        ({"game": "chkobba", "rules": "scopone", "players": 4, "teams": True, "target": 11}, 22),
        ({"game": "chkobba", "rules": "escoba", "seating": "6", "target": 11}, 23),
        ({"game": "touti", "target": 600, "options": {"min_trump_length": 0}}, 24),
    ],
)
def test_no_message_of_any_game_holds_a_hidden_card(
    sqlite_url: str, body: dict[str, Any], seed: int
) -> None:
    with make_client(sqlite_url) as client:
        play_any_game(client, body, seed)
