"""``chkobba serve --player engine:COMMAND`` (docs/engine-protocol.md): the web app plays an
outside engine at its computer seats, the game is finished, stored and verified."""

from __future__ import annotations

import gc
import json
import os
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from wsutil import hello, recv_until

from chkobba.agents import AGENTS
from chkobba.agents import base as agents_base
from chkobba.cli import main
from chkobba.record import GameRecord, replay

ROOT = Path(__file__).parent.parent.parent
GREEDY = ROOT / "examples" / "engines" / "greedy_engine.py"
FAULTY = ROOT / "tests" / "data" / "engines" / "faulty_engine.py"


def engine(script: Path, *args: str) -> str:
    return "engine:" + shlex.join([sys.executable, str(script), *args])


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
        # The web app starts the engine for each of its moves: none is left running.
        gc.collect()
        for f in pids.glob("*.pid"):
            with pytest.raises(ProcessLookupError):
                os.kill(int(f.read_text()), 0)
        assert mode == "greedy" or len(list(pids.glob("*.pid"))) > 10
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
