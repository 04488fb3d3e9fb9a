"""The pages' heartbeat (static/heartbeat.js, docs/protocol.md "Heartbeat"): the server
answers every ping, before and after hello; the page pings on a clock and gives up on a
connection whose pong does not come in time, to reconnect. The page's side runs in Node
with a clock of the test's own (skipped where Node is not installed)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from wsutil import hello, recv_until

STATIC = Path(__file__).resolve().parents[2] / "src" / "chkobba" / "web" / "static"


def test_the_server_answers_every_ping(sqlite_client: TestClient) -> None:
    c = sqlite_client
    made = c.post("/api/games", json={"level": "random", "target": 11}).json()
    with c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "ping", "id": "hb1"})
        assert ws.receive_json() == {"type": "pong", "re": "hb1"}
        hello(ws, made["game"], made["token"])
        ws.send_json({"type": "ping", "id": "hb2"})
        pong, _ = recv_until(ws, "pong")
        assert pong == {"type": "pong", "re": "hb2"}
        ws.send_json({"type": "ping"})
        assert recv_until(ws, "pong")[0] == {"type": "pong"}


SCRIPT = """
import { heartbeat, EVERY, WITHIN } from "%(module)s";

// A clock of the test's own: setTimeout and clearTimeout, and time moved by hand.
let now = 0, ids = 0;
const due = new Map();
const timers = {
  setTimeout(fn, ms) { ids += 1; due.set(ids, [now + ms, fn]); return ids; },
  clearTimeout(id) { due.delete(id); },
};
function advance(ms) {
  const end = now + ms;
  for (;;) {
    const ready = [...due.entries()].filter(([, [t]]) => t <= end);
    const next = ready.sort((a, b) => a[1][0] - b[1][0])[0];
    if (!next) break;
    due.delete(next[0]);
    now = next[1][0];
    next[1][1]();
  }
  now = end;
}
const sent = [];
let dead = 0;
const ws = { send: (text) => sent.push(JSON.parse(text)) };
const out = { every: EVERY, within: WITHIN };

// Answered pings: one every EVERY ms, never dead.
let beat = heartbeat(ws, () => { dead += 1; }, { timers });
advance(EVERY - 1);
out.before = sent.length;
advance(1);
out.first = sent.slice();
out.pong = beat.seen({ type: "pong", re: sent[0].id });
out.other = beat.seen({ type: "state", ply: 3 });
advance(EVERY);
out.second = sent.length;
beat.seen({ type: "pong", re: sent[1].id });
advance(EVERY - 1);  // long past WITHIN after the last ping, which was answered
out.dead_answered = dead;
beat.stop();
advance(EVERY * 10);
out.after_stop = sent.length;

// A pong that does not come: dead once, WITHIN ms after the ping, and no ping after.
sent.length = 0;
beat = heartbeat(ws, () => { dead += 1; }, { timers });
advance(EVERY);
beat.seen({ type: "pong", re: "hb999" });  // an answer to another ping does not count
advance(WITHIN - 1);
out.dead_early = dead;
advance(1);
out.dead_late = dead;
advance(EVERY * 10);
out.dead_final = dead;
out.pings_unanswered = sent.length;
console.log(JSON.stringify(out));
"""


def run_heartbeat() -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: apt-get install nodejs")
    script = SCRIPT % {"module": (STATIC / "heartbeat.js").as_uri()}
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_the_page_gives_up_on_a_connection_that_does_not_answer() -> None:
    out = run_heartbeat()
    assert 1000 <= out["within"] < out["every"] <= 30_000
    assert out["before"] == 0
    assert out["first"] == [{"type": "ping", "id": "hb1"}]
    assert out["pong"] is True and out["other"] is False
    assert out["second"] == 2
    assert out["dead_answered"] == 0
    assert out["after_stop"] == 2
    assert out["dead_early"] == 0
    assert out["dead_late"] == 1 and out["dead_final"] == 1
    assert out["pings_unanswered"] == 1


@pytest.mark.parametrize("page", ["game.js", "touti.js"])
def test_both_game_pages_beat(page: str) -> None:
    source = (STATIC / page).read_text()
    assert 'from "./heartbeat.js"' in source
    assert "beat.seen(msg)" in source and "heartbeat(socket" in source
