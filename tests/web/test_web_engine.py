"""``chkobba serve --player engine:COMMAND`` (docs/engine-protocol.md): the web app plays an
outside engine at its computer seats, the game is finished, stored and verified."""

from __future__ import annotations

import gc
import json
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from wsutil import hello, recv_until

from chkobba.agents import AGENTS
from chkobba.agents import base as agents_base
from chkobba.cli import main
from chkobba.fishing.record import GameRecord, replay

ROOT = Path(__file__).parent.parent.parent
GREEDY = ROOT / "examples" / "engines" / "greedy_engine.py"
FAULTY = ROOT / "tests" / "data" / "engines" / "faulty_engine.py"


def engine(script: Path, *args: str) -> str:
    return "engine:" + shlex.join([sys.executable, str(script), *args])


def running(pid: int) -> bool:
    """Whether process ``pid`` exists (a zombie not reaped yet counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_reaped(pids: Path, seconds: float = 10.0) -> None:
    """Wait until every engine that wrote its id in ``pids`` is gone, and reaped."""
    deadline = time.monotonic() + seconds
    for f in pids.glob("*.pid"):
        while running(int(f.read_text())):
            assert time.monotonic() < deadline, f"engine {f.stem} still running"
            gc.collect()
            time.sleep(0.05)


def told(pids: Path) -> list[list[str]]:
    """The types of the messages each engine read, in order, engine by engine (by pid)."""
    logs = sorted(pids.glob("*.log"), key=lambda f: int(f.stem))
    return [f.read_text().split() for f in logs]


def play_out(client: TestClient, game: str, token: str) -> dict[str, Any]:
    """Play a game's person seat (its first legal move each time) to the end; the last state."""
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, game, token)
        while not state["over"]:
            if state["legal"]:
                ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
            state, _ = recv_until(ws, "state")
    return state


@pytest.fixture
def offered(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], str]]:
    """Offer engines as ``serve --player`` does, taken back after the test."""
    monkeypatch.setattr(agents_base, "OFFERED", {})
    aliases: list[str] = []

    def offer(name: str) -> str:
        aliases.append(agents_base.offer(name))
        return aliases[-1]

    yield offer
    for alias in aliases:
        AGENTS.pop(alias, None)


@pytest.mark.parametrize("mode", ["greedy", "garbage"])
def test_a_web_game_against_an_engine(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mode: str
) -> None:
    """The engine is offered as ``engine:STEM``; a whole game is played against it; the
    record verifies. An engine answering garbage has its moves made by the fallback."""
    from chkobba.games.chkobba import is_fair, levels

    pids = tmp_path / "pids"
    pids.mkdir()
    name = engine(GREEDY) if mode == "greedy" else engine(FAULTY, "garbage", str(pids))
    monkeypatch.setattr(agents_base, "OFFERED", {})
    alias = agents_base.offer(name)
    try:
        assert alias == ("engine:greedy_engine" if mode == "greedy" else "engine:faulty_engine")
        assert alias in levels() and is_fair(alias)
        created = sqlite_client.post(
            "/api/games", json={"mode": "computer", "level": alias, "target": 11, "name": "Ines"}
        ).json()
        with sqlite_client.websocket_connect("/ws") as ws:
            state = hello(ws, created["game"], created["token"])
            while not state["over"]:
                if state["legal"]:
                    ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
                state, _ = recv_until(ws, "state")
        r = sqlite_client.get(f"/api/games/{created['game']}/record")
        record = GameRecord.loads(r.text)
        assert record.names == ["Ines", f"computer ({alias})"]
        assert replay(record).winner == state["winner"]
        path = tmp_path / "web.json"
        path.write_text(r.text, encoding="utf-8")
        res = CliRunner().invoke(main, ["verify", "--json", str(path)])
        assert res.exit_code == 0, res.output
        assert json.loads(res.output)["totals"] == state["totals"]
        # One process for the computer's seat, for the whole game; none is left running.
        wait_reaped(pids)
        assert mode == "greedy" or len(list(pids.glob("*.pid"))) == 1
    finally:
        AGENTS.pop(alias, None)


def test_serve_refuses_a_bad_engine_in_one_line() -> None:
    res = CliRunner().invoke(main, ["serve", "--player", "engine:/no/such/engine"])
    assert res.exit_code == 2 and "no program /no/such/engine" in res.output


def test_a_web_request_cannot_name_an_engine(sqlite_client: TestClient, tmp_path: Path) -> None:
    """Only the server's owner starts programs (``serve --player``): a level or a Touti
    player named ``engine:…`` in a request is refused, and nothing is run."""
    marker = tmp_path / "ran"
    command = "engine:" + shlex.join([sys.executable, "-c", f"open({str(marker)!r}, 'w')"])
    r = sqlite_client.post("/api/games", json={"mode": "computer", "level": command})
    assert r.status_code == 400 and "unknown level" in r.text
    r = sqlite_client.post("/api/games", json={"game": "touti", "level": command})
    assert r.status_code == 400 and "unknown_level" in r.text
    assert not marker.exists()


def test_one_engine_process_per_seat_for_the_whole_game(
    sqlite_client: TestClient, offered: Callable[[str], str], tmp_path: Path
) -> None:
    """Each computer seat gets one engine process for the game: told ``newgame`` once,
    every round's end, then ``game_over`` and ``quit``, and reaped."""
    pids = tmp_path / "pids"
    pids.mkdir()
    alias = offered(engine(FAULTY, "first", str(pids)))
    created = sqlite_client.post(
        "/api/games",
        json={"mode": "computer", "level": alias, "target": 11, "seating": "3", "name": "I"},
    ).json()
    state = play_out(sqlite_client, created["game"], created["token"])
    wait_reaped(pids)
    logs = told(pids)
    assert len(logs) == 2  # seats 1 and 2
    rounds = len(state["rounds"]) if "rounds" in state else None
    for log in logs:
        assert log[:2] == ["hello", "newgame"] and log[-2:] == ["game_over", "quit"], log
        assert log.count("newgame") == 1 and log.count("hello") == 1
        assert log.count("go") > 10
        if rounds is not None:
            assert log.count("round_over") == rounds


def test_a_crashed_engine_is_started_again_and_the_game_goes_on(
    sqlite_client: TestClient, offered: Callable[[str], str], tmp_path: Path
) -> None:
    """An engine that dies at its third decision is started afresh at its next one, until
    the protocol's limit of failed games (3); the fallback plays the rest, and the game
    is played to its end."""
    from chkobba.agents.engine import MAX_FAILED_GAMES

    pids = tmp_path / "pids"
    pids.mkdir()
    alias = offered(engine(FAULTY, "crash", str(pids)))
    created = sqlite_client.post(
        "/api/games", json={"mode": "computer", "level": alias, "target": 11, "name": "I"}
    ).json()
    state = play_out(sqlite_client, created["game"], created["token"])
    assert state["over"] and state["winner"] is not None
    wait_reaped(pids)
    logs = told(pids)
    assert len(logs) == MAX_FAILED_GAMES
    for log in logs:
        assert log == ["hello", "newgame", "go", "go", "go"], log


def play_first_moves(ws: Any, state: dict[str, Any], moves: int) -> None:
    """From ``state``, play the seat's first legal move ``moves`` times, each answered."""
    for _ in range(moves):
        while not state["legal"]:
            state, _ = recv_until(ws, "state")
        ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
        state, _ = recv_until(ws, "state")


def test_engines_are_stopped_when_the_server_stops(
    sqlite_url: str, offered: Callable[[str], str], tmp_path: Path
) -> None:
    """A game left unfinished: its engine is told ``quit`` (not ``game_over``: the game
    goes on after a restart) and reaped when the server stops."""
    from wsutil import make_client

    pids = tmp_path / "pids"
    pids.mkdir()
    alias = offered(engine(FAULTY, "first", str(pids)))
    with make_client(sqlite_url) as client:
        created = client.post(
            "/api/games", json={"mode": "computer", "level": alias, "target": 11}
        ).json()
        with client.websocket_connect("/ws") as ws:
            play_first_moves(ws, hello(ws, created["game"], created["token"]), 4)
        assert len(list(pids.glob("*.pid"))) == 1
    wait_reaped(pids)
    [log] = told(pids)
    assert log[:2] == ["hello", "newgame"] and log[-1] == "quit" and "game_over" not in log


def test_a_resigned_game_is_over_for_its_engine(
    sqlite_client: TestClient, offered: Callable[[str], str], tmp_path: Path
) -> None:
    """A game ended before it was played out: its engine is told ``game_over`` (with no
    ``round_over`` for the round left unfinished), then ``quit``, and reaped."""
    pids = tmp_path / "pids"
    pids.mkdir()
    alias = offered(engine(FAULTY, "first", str(pids)))
    created = sqlite_client.post(
        "/api/games", json={"mode": "computer", "level": alias, "target": 11}
    ).json()
    with sqlite_client.websocket_connect("/ws") as ws:
        play_first_moves(ws, hello(ws, created["game"], created["token"]), 3)
        ws.send_json({"type": "resign", "id": "r"})
        recv_until(ws, "resigned")
    wait_reaped(pids)
    [log] = told(pids)
    assert log[:2] == ["hello", "newgame"] and log[-2:] == ["game_over", "quit"], log
    assert log.count("round_over") == 0 and log.count("go") >= 1
