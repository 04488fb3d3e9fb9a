#!/usr/bin/env python3
"""A broken engine for the tests of the chkobba-engine protocol (docs/engine-protocol.md).

``faulty_engine.py MODE [PIDDIR]``: it shakes hands properly, then at its decisions

* ``crash``: answers two, then exits with status 3 at the third;
* ``hang``: never answers (it sleeps);
* ``garbage``: answers lines that are not moves, in turn: not JSON, JSON without a
  move, and a move in no notation;
* ``illegal``: answers a well-formed move that is not legal (a card it does not hold);
* ``late``: before each answer, repeats a stale answer to the decision before;
* ``silent``: never completes the handshake (it exits at once);
* ``first``: nothing wrong: it answers the first legal move.

With ``PIDDIR`` it writes its process id to a file there, so that a test can check
that it was stopped and reaped, and the type of every message it reads, one a line,
to ``PID.log`` beside it. It imports nothing from chkobba.
"""

from __future__ import annotations

import json
import os
import sys
import time


def send(message: object) -> None:
    sys.stdout.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    if len(sys.argv) > 2:
        with open(os.path.join(sys.argv[2], f"{os.getpid()}.pid"), "w") as f:
            f.write(str(os.getpid()))
    if mode == "silent":
        sys.exit(0)
    decisions = 0
    game = "chkobba"
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if len(sys.argv) > 2:
            with open(os.path.join(sys.argv[2], f"{os.getpid()}.log"), "a") as f:
                f.write(kind + "\n")
        if kind == "hello":
            send({"type": "id", "name": f"faulty-{mode}", "author": "tests"})
            send({"type": "info", "text": "about to be ready"})
            send({"type": "ready"})
        elif kind == "newgame":
            game = message["game"]
        elif kind == "quit":
            return
        elif kind == "go":
            decisions += 1
            obs = message["observation"]
            legal = obs["legal"]
            if mode == "crash" and decisions == 3:
                sys.exit(3)
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                send(["not JSON{", '{"type": "thinking"}',
                      json.dumps({"type": "move", "id": message["id"], "move": "Zz:9q"})
                      ][decisions % 3])
                continue
            if mode == "illegal":
                # An unseen card is never in the hand; with none left, a move of another phase.
                other = obs["unseen"][0] if obs["unseen"] else {"chkobba": "keep"}.get(game, "pass")
                send({"type": "move", "id": message["id"], "move": other})
                continue
            if mode == "late":
                send({"type": "move", "id": message["id"] - 1, "move": legal[-1]})
            send({"type": "info", "text": f"{len(legal)} legal moves"})
            send({"type": "move", "id": message["id"], "move": legal[0]})


if __name__ == "__main__":
    main()
