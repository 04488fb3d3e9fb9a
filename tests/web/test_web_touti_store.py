"""Touti's games in the one store (migration 0006): games stored by the older Touti API,
in progress and finished, move into the common tables with nothing lost, resume, and
verify; on SQLite and PostgreSQL. Every Touti move is stored before it is acknowledged,
like every game's (docs/protocol.md)."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import insert, inspect
from starlette.testclient import TestClient
from wsutil import hello, make_client, recv_until

from chkobba.fishing.record import GameRecord
from chkobba.fishing.record import replay as replay_chkobba
from chkobba.games import game
from chkobba.store import Finish, MoveRow, SeatRow, Store, StoredGame
from chkobba.touti.record import ToutiRecord
from chkobba.touti.record import replay as replay_touti
from chkobba.web.hub import room_from_stored, token_hash

OLD = sa.MetaData()
touti_games = sa.Table(
    "touti_games",
    OLD,
    sa.Column("id", sa.String(16)),
    sa.Column("status", sa.String(16)),
    sa.Column("options", sa.Text),
    sa.Column("seed", sa.BigInteger),
    sa.Column("names", sa.Text),
    sa.Column("agents", sa.Text),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("winner", sa.Integer),
    sa.Column("totals", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
)
"""The Touti tables as migration 0003 made them, written as the older code wrote them."""
touti_moves = sa.Table(
    "touti_moves",
    OLD,
    sa.Column("game_id", sa.String(16)),
    sa.Column("ply", sa.Integer),
    sa.Column("seat", sa.Integer),
    sa.Column("move", sa.String(32)),
    sa.Column("played_at", sa.DateTime(timezone=True)),
)
T0 = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


def touti_moves_of(seed: int, options: dict[str, Any], plies: int | None) -> tuple[Any, list[str]]:
    """A Touti match from ``seed`` after random legal moves (to its end if ``plies`` is None)."""
    g = game("touti")
    table = g.serve(g.make_rules(None, options), 4, True, seed)
    rng = random.Random(seed)
    moves: list[str] = []
    while not table.is_over and (plies is None or len(moves) < plies):
        moves.append(table.play(table.turn, rng.choice(table.legal())))
    return table, moves


def store_old_touti(store: Store, gid: str, seed: int, options: dict[str, Any],
                    plies: int | None, token: str) -> tuple[Any, list[str]]:
    """A Touti game as the older Touti API stored it."""
    table, moves = touti_moves_of(seed, options, plies)
    over = table.is_over
    with store.engine.begin() as conn:
        conn.execute(insert(touti_games).values(
            id=gid, status="finished" if over else "playing", options=json.dumps(options),
            seed=seed, names=json.dumps(["Ana", "Right", "Partner", "Left"]),
            agents=json.dumps([None, "random", "technique", "random"]),
            token_hash=token_hash(token), winner=table.winner if over else None,
            totals=json.dumps(list(table.totals())) if over else None,
            created_at=T0, finished_at=T0 if over else None,
        ))
        replayed = game("touti").serve(game("touti").make_rules(None, options), 4, True, seed)
        rows = []
        for ply, text in enumerate(moves):
            rows.append({"game_id": gid, "ply": ply, "seat": replayed.turn, "move": text,
                         "played_at": T0})
            replayed.play(replayed.turn, text)
        if rows:
            conn.execute(insert(touti_moves), rows)
    return table, moves


def store_chkobba(store: Store, gid: str, seed: int, plies: int | None) -> list[str]:
    """A Chkobba game, stored as the current code stores it."""
    g = game("chkobba")
    rules = g.make_rules("chkobba", {"target": 11})
    table = g.serve(rules, 2, False, seed)
    rng = random.Random(seed)
    rows = []
    while not table.is_over and (plies is None or len(rows) < plies):
        seat = table.turn
        rows.append(MoveRow(gid, len(rows), seat, table.play(seat, rng.choice(table.legal()))))
    store.create_game(StoredGame(
        gid, "computer", "playing", "chkobba", {"target": 11}, 2, False, seed, T0,
        [SeatRow(0, "Amel", token_hash(f"t-{gid}")), SeatRow(1, None, None, "random")],
    ))
    store.append_moves(rows, [Finish(gid, table.winner, list(table.totals()))]
                       if table.is_over else [])
    return [r.move for r in rows]


def test_touti_games_move_into_the_common_tables(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate("0005")
        playing, playing_moves = store_old_touti(store, "0A1B2C3D", 5, {}, 40, "tok-playing")
        done, done_moves = store_old_touti(
            store, "FEDCBA98", 6, {"target": 100, "kaddour": True}, None, "tok-done"
        )
        store_old_touti(store, "00000001", 7, {}, 0, "tok-empty")
        assert done.is_over and not playing.is_over
        chk_playing = store_chkobba(store, "CHKPLA", 8, 12)
        chk_done = store_chkobba(store, "CHKDNE", 9, None)
        store.migrate()
        assert not {"touti_games", "touti_moves"} & set(inspect(store.engine).get_table_names())
        unfinished = {g.id for g in store.unfinished_games()}
        # Finished games are not replayed at start-up.
        assert unfinished == {"0A1B2C3D", "00000001", "CHKPLA"}
        for gid, moves in (("0A1B2C3D", playing_moves), ("FEDCBA98", done_moves),
                           ("CHKPLA", chk_playing), ("CHKDNE", chk_done), ("00000001", [])):
            stored = store.game(gid)
            assert stored is not None and stored.moves == moves
            room = room_from_stored(stored)  # every move checked again
            assert room.table.is_over == (gid in ("FEDCBA98", "CHKDNE"))
        moved = store.game("FEDCBA98")
        assert moved is not None and moved.game == "touti" and moved.rules == "touti"
        assert moved.options == {"target": 100, "kaddour": True} and moved.seed == 6
        assert moved.status == "finished" and moved.winner == done.winner
        assert moved.totals == list(done.totals()) and moved.created_at == T0
        assert [r.agent for r in moved.seat_rows] == [None, "random", "technique", "random"]
        assert [r.name for r in moved.seat_rows] == ["Ana", "Right", "Partner", "Left"]
        assert moved.seat_rows[0].token_hash == token_hash("tok-done")
        assert all(r.token_hash is None for r in moved.seat_rows[1:])
    finally:
        store.close()
    with make_client(db_url) as c:
        # The person's token of the older API holds the same seat in the hub.
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, "0A1B2C3D", "tok-playing")
            assert state["you"] == 0 and state["ply"] >= len(playing_moves)
        for gid, check in (("FEDCBA98", "touti"), ("CHKDNE", "chkobba")):
            text = c.get(f"/api/games/{gid}/record").text
            if check == "touti":
                assert replay_touti(ToutiRecord.loads(text)).winner == done.winner
            else:
                assert replay_chkobba(GameRecord.loads(text)).winner is not None


def test_the_downgrade_gives_the_touti_games_back(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    try:
        store.migrate("0005")
        _, moves = store_old_touti(store, "0A1B2C3D", 5, {"talk": "semi"}, 30, "tok")
        with store.engine.connect() as conn:
            before = [dict(r) for r in conn.execute(sa.select(touti_games)).mappings()]
            before_moves = [dict(r) for r in conn.execute(sa.select(touti_moves)).mappings()]
        store.migrate()
        cfg = Config()
        cfg.set_main_option("script_location", "chkobba.store:migrations")
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0005")
        with store.engine.connect() as conn:
            after = [dict(r) for r in conn.execute(sa.select(touti_games)).mappings()]
            after_moves = [dict(r) for r in conn.execute(sa.select(touti_moves)).mappings()]
        assert after == before and after_moves == before_moves and len(moves) == 30
    finally:
        store.close()


def test_each_touti_move_is_stored_first(sqlite_client: TestClient) -> None:
    c = sqlite_client
    r = c.post("/api/games", json={"game": "touti", "level": "random"}).json()
    store = c.app.state.hub.store  # type: ignore[attr-defined]
    with c.websocket_connect("/ws") as ws:
        state = hello(ws, r["game"], r["token"])
        for _ in range(30):
            stored = store.game(r["game"])
            # Every move a state shows is already in the database.
            assert len(stored.moves) >= state["ply"]
            # Act on the state in hand first: the deal may open on this seat's turn.
            if state["turn"] == 0 and state["legal"] not in ([], ["nocanto"]):
                ws.send_json({"type": "play", "move": state["legal"][0], "ply": state["ply"]})
            state, _ = recv_until(ws, "state")
    row = store.game(r["game"])
    assert row.seat_rows[0].token_hash == token_hash(r["token"]) != r["token"]
