"""A server killed mid-game (SIGKILL) and started again resumes every game exactly."""

from __future__ import annotations

import contextlib
import json
import random
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect
from wsutil import ServerProcess

from chkobba.fishing.record import GameRecord, replay


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return dict(json.loads(r.read()))


def get_text(base: str, path: str) -> str:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return str(r.read().decode())


def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    for _ in range(100):
        msg = json.loads(ws.recv(timeout=40))
        if msg["type"] == kind:
            return dict(msg)
        assert msg["type"] != "error", msg
    raise AssertionError(f"no {kind} message")


def open_seat(
    stack: contextlib.ExitStack, base: str, game: str, token: str
) -> tuple[ClientConnection, dict[str, Any]]:
    ws = stack.enter_context(connect(base.replace("http", "ws") + "/ws"))
    ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
    return ws, until(ws, "state")


class Table:
    """The people of one game, each on a connection of its own."""

    def __init__(self, base: str, game: str, tokens: list[str]) -> None:
        self.game = game
        self.tokens = tokens
        self.conns: dict[int, ClientConnection] = {}
        self.states: dict[int, dict[str, Any]] = {}
        self.stack = contextlib.ExitStack()
        for seat, token in enumerate(tokens):
            if token:
                self.conns[seat], self.states[seat] = open_seat(self.stack, base, game, token)
        while not self.latest()["over"] and self.latest()["turn"] not in self.conns:
            self.states = {s: until(ws, "state") for s, ws in self.conns.items()}
        self.sent: list[str] = []

    def latest(self) -> dict[str, Any]:
        return max(self.states.values(), key=lambda s: int(s["ply"]))

    def step(self, rng: random.Random) -> bool:
        """Play one move of the person to move, then wait out the computer's replies.

        Returns False once the match is over.
        """
        state = self.latest()
        if state["over"]:
            return False
        seat = state["turn"]
        move = rng.choice(self.states[seat]["legal"])
        self.sent.append(move)
        self.conns[seat].send(json.dumps({"type": "play", "move": move, "ply": state["ply"]}))
        self.states = {s: until(ws, "state") for s, ws in self.conns.items()}
        while not self.latest()["over"] and self.latest()["turn"] not in self.conns:
            self.states = {s: until(ws, "state") for s, ws in self.conns.items()}
        return True

    def close(self) -> None:
        self.stack.close()


def test_kill_and_restart_resumes_every_game(tmp_path: Path, db_url: str) -> None:
    server = ServerProcess(tmp_path / "data", "--bot-delay", "0", "--rate", "1000", db=db_url)
    try:
        server.start()
        base = server.base
        room = post(base, "/api/games", {"mode": "room", "seating": "2", "target": 11})
        guest = post(base, f"/api/games/{room['game']}/join", {"name": "Guest"})
        solo = post(
            base, "/api/games", {"mode": "computer", "level": "random", "target": 11, "name": "S"}
        )
        tables = [
            Table(base, room["game"], [room["token"], guest["token"]]),
            Table(base, solo["game"], [solo["token"], ""]),
        ]
        rng = random.Random(4)
        for _ in range(25):
            for t in tables:
                t.step(rng)
        before = [{s: dict(st) for s, st in t.states.items()} for t in tables]
        server.kill()
        for t in tables:
            t.close()

        server.start()
        for t, seen in zip(tables, before, strict=True):
            resumed = Table(base, t.game, t.tokens)
            for seat, state in resumed.states.items():
                # Each person gets the seat back, exactly as it was.
                assert state["you"] == seat
                for key in ("ply", "hand", "table", "turn", "totals", "history", "legal"):
                    assert state[key] == seen[seat][key], key
            resumed.sent = t.sent
            t.conns, t.states, t.stack = resumed.conns, resumed.states, resumed.stack
        for t in tables:
            for _ in range(2000):
                if not t.step(rng):
                    break
            assert t.latest()["over"]
            record = GameRecord.loads(get_text(base, f"/api/games/{t.game}/record"))
            rep = replay(record)
            assert rep.winner == t.latest()["winner"]
            assert rep.totals == t.latest()["totals"]
            t.close()
        # The room's moves were all people's: its record holds exactly what was sent,
        # less the cut of any void deal (a cut followed at once by another cut).
        record = GameRecord.loads(get_text(base, f"/api/games/{room['game']}/record"))
        plays = [m for rr in record.rounds for m in [rr.cut, *rr.plays] if m]
        sent = tables[0].sent
        cuts = ("keep", "table")
        kept = [
            m
            for i, m in enumerate(sent)
            if not (m in cuts and i + 1 < len(sent) and sent[i + 1] in cuts)
        ]
        assert plays == kept
    finally:
        server.stop()
