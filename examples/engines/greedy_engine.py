#!/usr/bin/env python3
"""A reference engine for the chkobba-engine protocol (docs/engine-protocol.md), version 1.

It speaks the protocol on standard input and output and imports nothing from
chkobba: everything it knows comes from the messages. Its play is greedy.

* Chkobba and the Scopa family: at the cut it keeps the card; then it takes the
  capture that gains most now (cards taken, the 7 of diamonds, sevens,
  diamonds, a sweep) and, with nothing to take, lays its least useful card.
* Touti: it passes in the bidding whenever it may, names as trumps the suit it
  holds most of, announces every pair it can and otherwise plays the first
  legal card.

Run it as a player: ``chkobba duel engine:examples/engines/greedy_engine.py greedy``.
"""

from __future__ import annotations

import json
import sys

NAME = "greedy_engine.py"
AUTHOR = "the chkobba authors"
VALUE = {"7": 3, "6": 2, "A": 2}


def send(message: dict[str, object]) -> None:
    """Write one message line and flush it at once (the harness waits for it)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def worth(card: str) -> int:
    """What taking one card is worth to this engine."""
    rank, suit = card[:-1], card[-1]
    return 1 + VALUE.get(rank, 0) + (2 if suit == "d" else 0) + (10 if card == "7d" else 0)


def chkobba_move(obs: dict[str, object]) -> str:
    """The greedy choice among the legal moves of a round of the Chkobba family."""
    legal = [str(m) for m in obs["legal"]]  # type: ignore[attr-defined]
    if "keep" in legal:
        return "keep"
    table = obs["table"]
    assert isinstance(table, list)

    def gain(move: str) -> float:
        card, _, taken = move.partition(":")
        if not taken:
            # A lay: give away as little as possible.
            return -worth(card) / 10
        cards = taken.split("+")
        sweep = 15 if len(cards) == len(table) else 0
        return worth(card) + sum(worth(c) for c in cards) + sweep

    return max(legal, key=gain)


def touti_move(obs: dict[str, object]) -> str:
    """A plain choice among the legal moves of a deal of Touti."""
    legal = [str(m) for m in obs["legal"]]  # type: ignore[attr-defined]
    if "pass" in legal:
        return "pass"
    cantos = [m for m in legal if m.startswith("canto:")]
    if cantos:
        return cantos[0]
    trumps = [m for m in legal if m.startswith("trump:")]
    if trumps:
        hand = [str(c) for c in obs["hand"]]  # type: ignore[attr-defined]
        return max(trumps, key=lambda m: sum(c.endswith(m[-1]) for c in hand))
    return legal[0]


def main() -> None:
    """Answer the harness until it says quit or closes the input."""
    game = "chkobba"
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("version") != 1:
                sys.exit(f"{NAME}: protocol version {message.get('version')} is not 1")
            send({"type": "id", "name": NAME, "author": AUTHOR})
            send({"type": "ready"})
        elif kind == "newgame":
            game = message["game"]
        elif kind == "go":
            obs = message["observation"]
            move = touti_move(obs) if game == "touti" else chkobba_move(obs)
            send({"type": "move", "id": message["id"], "move": move})
        elif kind == "quit":
            return
        # round_over and game_over need nothing from a greedy engine.


if __name__ == "__main__":
    main()
