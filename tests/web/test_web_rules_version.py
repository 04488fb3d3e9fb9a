"""Games stored before rules version 2 resume and replay as they were played (issue 18).

The Scopa presets changed in rules version 2 (captures of one card or two, the fewest:
scopa-wikipedia-fr.txt:24-25). The migration 0004 gives every game already stored the
rules version 1, and the web app rebuilds a game with the definition of its version.
"""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from sqlalchemy import insert

from chkobba.fishing.match import Match
from chkobba.fishing.moves import Play, parse_move
from chkobba.fishing.record import GameRecord, replay
from chkobba.fishing.rules import RULES_VERSION, preset
from chkobba.store import MoveRow, SeatRow, Store, StoredGame
from chkobba.store.schema import games, seats
from chkobba.web.hub import room_from_stored
from chkobba.web.replay import game_record, match_of


def version_1_moves() -> tuple[int, list[tuple[int, str]], int]:
    """A match seed and the moves (seat, notation) of a version-1 scopa match that takes
    three cards at once early on, and the index of that capture."""
    rules = preset("scopa", version=1)
    for seed in range(300):
        rng = random.Random(seed)
        m = Match(rules, 2, seed=seed)
        moves: list[tuple[int, str]] = []
        while not m.is_over and len(moves) < 40:
            move = rng.choice(m.legal_moves())
            moves.append((m.turn, str(move)))
            m.apply(move)
            if isinstance(move, Play) and move.capture.bit_count() >= 3:
                return seed, moves, len(moves) - 1
    raise AssertionError("no capture of three cards")


def test_a_game_stored_under_version_1_resumes_and_replays_as_before(db_url: str) -> None:
    seed_used, moves, big = version_1_moves()
    store = Store(db_url)
    try:
        store.migrate("0003")
        with store.engine.begin() as conn:
            # A game as rules version 1 stored it: no rules_version column yet.
            conn.execute(
                insert(games).values(
                    id="OLDGAM",
                    kind="computer",
                    status="playing",
                    rules="scopa",
                    options="{}",
                    seats=2,
                    teams=False,
                    seed=seed_used,
                    created_at=dt.datetime(2026, 1, 2, tzinfo=dt.UTC),
                )
            )
            conn.execute(
                insert(seats),
                [
                    {"game_id": "OLDGAM", "seat": 0, "name": "Amel", "agent": None},
                    {"game_id": "OLDGAM", "seat": 1, "name": None, "agent": "random"},
                ],
            )
        store.append_moves([MoveRow("OLDGAM", i, s, m) for i, (s, m) in enumerate(moves)])
        store.migrate()
        g = store.game("OLDGAM")
        assert g is not None and g.rules_version == 1
        assert g.ruleset() == preset("scopa-many")
        room = room_from_stored(g)  # every stored move checked again
        assert len(room.match.round.history) + sum(
            len(r.history) for r in room.match.finished
        ) == len(moves)
        rec = game_record(g)
        data = json.loads(rec.dumps())
        assert (data["rules"], data["rules_version"]) == ("scopa-many", RULES_VERSION)
        rep = replay(GameRecord.loads(rec.dumps()))
        assert [str(p) for r in rep.rounds for p in r.plays()] == [m for _, m in moves]
        # Read with today's scopa instead, the game breaks at its capture of three cards.
        today = Match(preset("scopa"), 2, False, seed_used)
        with pytest.raises(ValueError, match="a capture takes at most 2 cards"):
            for i, (seat, text) in enumerate(moves):
                today.apply(parse_move(text), seat)
                assert i < big
        assert match_of(g).totals == room.match.totals
    finally:
        store.close()


def test_new_games_are_stored_under_todays_rules_version(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate()
        store.create_game(
            StoredGame(
                id="NEWGAM",
                kind="room",
                status="open",
                rules="scopa",
                options={},
                seats=2,
                teams=False,
                seed=3,
                created_at=dt.datetime(2026, 1, 2, tzinfo=dt.UTC),
                seat_rows=[SeatRow(0, "Amel"), SeatRow(1)],
            )
        )
        g = store.game("NEWGAM")
        assert g is not None and g.rules_version == RULES_VERSION == 2
        assert g.ruleset() == preset("scopa")
    finally:
        store.close()
