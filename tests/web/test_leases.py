"""Every write of a game's rows is fenced by the game's lease (issue 28, docs/architecture.md).

The store's writes are found in its source, so that a write added later is not
forgotten: each must be listed in ``FENCED_WRITES`` (and then is refused at a stale
epoch, on PostgreSQL) or in ``UNFENCED_WRITES`` with the reason.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import text
from wsutil import PgServer

import chkobba.store
from chkobba.store import Finish, MoveRow, SeatRow, Store, StoredGame
from chkobba.store.leases import StaleEpoch
from chkobba.store.store import now
from chkobba.web.cluster import FENCED_WRITES, UNFENCED_WRITES, NotOwner, Ownership

GAME_TABLES = (
    "games", "seats", "moves", "hints", "coach_uses", "chat_messages", "chat_rooms",
    "chat_reports",
)
"""The tables that hold a game's rows."""
TABLE = "(?:" + "|".join(GAME_TABLES) + r")\b"
BUILDERS = re.compile(r"\b(?:insert|update|delete)\(\s*" + TABLE)
RAW_SQL = re.compile(r"(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+" + TABLE)
CODE = "AAAAAA"


def _functions() -> dict[str, Callable[..., Any]]:
    # Every function and method of every module of the store package (a module added later
    # included), by the name FENCED_WRITES uses: Class.method, or module.function.
    found: dict[str, Callable[..., Any]] = {}
    for info in pkgutil.iter_modules(chkobba.store.__path__):
        if info.ispkg:
            continue  # the migrations: they write at upgrade time, not a game's play
        module = importlib.import_module(f"chkobba.store.{info.name}")
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and obj.__module__ == module.__name__:
                for meth, fn in inspect.getmembers(obj, inspect.isfunction):
                    # Its own methods, written in the module (not a dataclass's __init__).
                    if fn.__module__ == module.__name__ and not meth.startswith("__"):
                        found[f"{name}.{meth}"] = fn
            elif inspect.isfunction(obj) and obj.__module__ == module.__name__:
                found[f"{info.name}.{name}"] = obj
    return found


def _call(name: str) -> re.Pattern[str]:
    # A call of the store's function ``name``: a method through self, a module's function
    # by its bare name (not sqlalchemy's delete() for a method named delete).
    owner, fn = name.split(".")
    if owner[0].islower():
        return re.compile(rf"(?<![.\w]){re.escape(fn)}\(")
    return re.compile(rf"\bself\.{re.escape(fn)}\(")


def store_writes() -> set[str]:
    """The public functions of the store that write a game's rows, directly or through
    another function of the store (found in their source)."""
    functions = _functions()
    source = {name: inspect.getsource(fn) for name, fn in functions.items()}
    writing = {n for n, src in source.items() if BUILDERS.search(src) or RAW_SQL.search(src)}
    while True:
        # What calls a writer writes too (self.write_seats(...), write_hint(...)).
        calls = [_call(w) for w in writing]
        called = {
            n for n, src in source.items() if n not in writing and any(c.search(src) for c in calls)
        }
        if not called:
            break
        writing |= called
    return {n for n in writing if not n.split(".")[-1].startswith("_")}


def test_every_write_of_a_game_is_fenced_or_says_why_not() -> None:
    found = store_writes()
    # The finder finds what it must (it cannot pass by finding nothing).
    assert {"Store.write_moves", "Store.append_moves", "hints.add_hint"} <= found
    listed = set(FENCED_WRITES) | set(UNFENCED_WRITES)
    assert found - listed == set(), "a write of a game's rows neither fenced nor excused"
    assert listed - found == set(), "listed, but no longer a write of the store"
    assert all(callable(getattr(Ownership, m)) for m in FENCED_WRITES.values())


SAMPLES: dict[str, tuple[Any, ...]] = {
    "append_moves": ([MoveRow(CODE, 0, 0, "keep")], [Finish(CODE, 0, [11, 3])]),
    "update_seats": (CODE, [SeatRow(1, "Intruder")], "playing"),
    "mark_seen": (CODE, [0, 1], now()),
    "link_rematch": (CODE, "BBBBBB"),
    "count_use": (CODE, 0, "hints"),
    "add_hint": (CODE, 3, 0),
    "post_chat": (CODE, "players", 1, None, "Intruder", "hello", None),
    "switch_chat": (CODE, False),
}
"""Arguments of each fenced write, all of them changing the game's rows."""


def game_row(code: str) -> StoredGame:
    return StoredGame(
        id=code, kind="room", status="playing", rules="chkobba", options={}, seats=2,
        teams=False, seed=1, created_at=now(), seat_rows=[SeatRow(0), SeatRow(1)],
    )  # fmt: skip


def snapshot(store: Store) -> dict[str, list[Any]]:
    with store.engine.connect() as conn:
        return {
            t: [tuple(r) for r in conn.execute(text(f"SELECT * FROM {t} ORDER BY 1, 2"))]
            for t in GAME_TABLES
        }


def test_every_fenced_write_is_refused_at_a_stale_epoch(pg_server: PgServer) -> None:
    """Worker a holds the game at epoch 1; the lease is then taken over (by b, then by a
    worker of a's own name: the owner alone would not tell): every write a makes with its
    epoch 1 is refused and changes nothing. At the current epoch each one writes."""
    assert set(SAMPLES) == set(FENCED_WRITES.values())
    store = Store(pg_server.new_database())
    store.migrate()
    store.create_game(game_row(CODE))
    a = Ownership(store, "a")
    try:
        assert a.try_own(CODE) and a.epoch_of(CODE) == 1
        for owner in ("b", "a"):
            with store.engine.begin() as conn:
                conn.execute(
                    text("UPDATE leases SET owner = :o, epoch = epoch + 1 WHERE game_id = :g"),
                    {"o": owner, "g": CODE},
                )
            before = snapshot(store)
            for method, args in SAMPLES.items():
                a.epochs[CODE] = 1  # what a believes (a refusal makes it forget the game)
                with pytest.raises(NotOwner) as refused:
                    getattr(a, method)(*args)
                assert isinstance(refused.value, StaleEpoch) and refused.value.codes == {CODE}
                assert snapshot(store) == before, f"{method} wrote at a stale epoch"
                assert a.epoch_of(CODE) is None
        # The helper other writes call is the same fence.
        a.epochs[CODE] = 1
        with pytest.raises(NotOwner):
            a.fenced([CODE], lambda c: c.execute(text("UPDATE games SET seen_at = now()")))
        assert snapshot(store) == before
        # At the epoch in force, every write lands (so the refusals above are the fence's).
        with store.engine.connect() as conn:
            current = conn.execute(text("SELECT epoch FROM leases")).scalar_one()
        assert current == 3
        for method, args in SAMPLES.items():
            a.epochs[CODE] = current
            getattr(a, method)(*args)
            after = snapshot(store)
            assert after != before, f"{method} wrote nothing at the right epoch"
            before = after
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT epoch FROM moves")).scalar_one() == current
    finally:
        a.close()
        store.close()


def test_renewals_keep_a_lease_and_find_one_taken(pg_server: PgServer) -> None:
    """One statement renews every lease held; a game taken over meanwhile is found lost and
    handed to on_lost, and its lease is no longer renewed; /healthz's numbers count it."""
    store = Store(pg_server.new_database())
    store.migrate()
    for code in (CODE, "BBBBBB"):
        store.create_game(game_row(code))
    a = Ownership(store, "a", lease_seconds=30)
    lost: list[set[str]] = []
    a.on_lost = lost.append

    def expiry() -> dict[str, Any]:
        with store.engine.connect() as conn:
            return dict(conn.execute(text("SELECT game_id, expires_at FROM leases")).all())

    try:
        assert a.try_own(CODE) and a.try_own("BBBBBB")
        before = expiry()
        assert a.renew_once() == set() and lost == []
        after = expiry()
        assert all(after[c] > before[c] for c in (CODE, "BBBBBB"))
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE leases SET owner = 'b', epoch = 2 WHERE game_id = :g"),
                         {"g": "BBBBBB"})  # fmt: skip
        assert a.renew_once() == {"BBBBBB"} and lost == [{"BBBBBB"}]
        assert a.owned == {CODE} and a.serving(CODE) and not a.serving("BBBBBB")
        state = a.renewal_state()
        assert state["count"] == 2 and state["failures"] == 0 and state["last"]
    finally:
        a.close()
        store.close()


def test_a_single_server_runs_a_fenced_write_as_is(tmp_path: Any) -> None:
    from chkobba.web.hub import Journal

    store = Store(f"sqlite:///{tmp_path / 'one.db'}")
    try:
        store.migrate()
        journal = Journal(store)
        assert journal.fenced([CODE], lambda c: c.execute(text("SELECT 41 + 1")).scalar()) == 42
        journal.close()
    finally:
        store.close()
