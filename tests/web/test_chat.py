"""Chat at the table (issue 26, section 4): the two channels, quick phrases, the limits
(length, rate with ``re``, the creator's switch, silenced accounts), reports, escaping,
the chat's tables on SQLite and PostgreSQL, an account's messages deleted with it, and
the ``chkobba moderator`` command."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from sqlalchemy import inspect
from starlette.testclient import TestClient
from test_accounts import CHEAP, PASSWORD, Device, signup
from test_accounts_store import downgrade
from wsutil import FAST, expect_error, hello, recv_until

from chkobba.cli import main as cli
from chkobba.store import Store
from chkobba.store.chat import ChatStore
from chkobba.store.schema import chat_messages, chat_reports
from chkobba.web.app import create_app
from chkobba.web.hub import Settings
from chkobba.web.protocol import CHAT_MAX_CHARS, QUICK_PHRASES
from chkobba.words import LANGUAGES, catalogue

XSS = "<img src=x onerror=alert(1)>"
CHAT_JS = Path(__file__).resolve().parents[2] / "src/chkobba/web/static/chat.js"
CHAT_TABLES = {"chat_messages", "chat_reports", "chat_rooms", "account_roles"}


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'chkobba.db'}"


def app(url: str, settings: Settings = FAST) -> TestClient:
    return TestClient(create_app(url, settings, accounts=CHEAP))


@pytest.fixture
def c(url: str) -> Iterator[TestClient]:
    with app(url) as client:
        yield client


def room(client: TestClient | Device, **extra: Any) -> tuple[str, str]:
    r = client.post("/api/games", json={"mode": "room", "seating": "2", **extra})
    assert r.status_code == 201, r.text
    return r.json()["game"], r.json()["token"]


def join(client: TestClient | Device, game: str, name: str = "Guest") -> str:
    r = client.post(f"/api/games/{game}/join", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def follow(ws: Any, game: str, token: str | None = None) -> dict[str, Any]:
    """Say hello; return the chat's history sent after it."""
    hello(ws, game, token)
    history, _ = recv_until(ws, "chat_history")
    return history


def said(ws: Any) -> dict[str, Any]:
    msg, _ = recv_until(ws, "chat")
    return msg


def test_players_and_spectators_talk_apart_until_the_end(c: TestClient) -> None:
    host = Device(c)
    signup(host, "Hedi")
    watcher = Device(c)
    signup(watcher, "Salma")
    game, token = room(host)
    guest = join(c, game, "Amel")
    with host.ws() as p0, c.websocket_connect("/ws") as p1, watcher.ws() as sp:
        assert follow(p0, game, token)["channels"] == ["players"]
        follow(p1, game, guest)
        assert follow(sp, game)["channels"] == ["spectators"]
        p1.send_json({"type": "chat", "phrase": "good_luck", "id": 1})
        mine = said(p1)
        assert mine["re"] == 1 and mine["phrase"] == "good_luck" and "text" not in mine
        # A guest at a seat chats under the seat's name.
        assert (mine["name"], mine["seat"], mine["account"]) == ("Amel", 1, False)
        assert said(p0)["message"] == mine["message"]
        sp.send_json({"type": "chat", "text": "go Hedi!", "id": "s1"})
        theirs = said(sp)
        assert theirs["channel"] == "spectators" and theirs["name"] == "Salma"
        assert theirs["account"] is True and theirs["seat"] == -1
        # The players saw nothing of it, the spectator nothing of theirs: the next thing
        # each reads is its own channel's next message.
        p0.send_json({"type": "chat", "text": "thanks", "id": 2})
        assert said(p0)["text"] == "thanks"
        assert said(p1)["text"] == "thanks"
        sp.send_json({"type": "ping", "id": 9})
        _pong, seen = recv_until(sp, "pong")
        assert not [m for m in seen if m["type"] == "chat"]
        # Nor in the history, nor to report.
        with c.websocket_connect("/ws") as again:
            past = follow(again, game, guest)["messages"]
            assert [m["channel"] for m in past] == ["players", "players"]
        p1.send_json({"type": "report", "message": theirs["message"], "id": "r"})
        assert expect_error(p1, "unknown_message")["re"] == "r"
        # After the end, everyone reads both channels.
        p0.send_json({"type": "resign", "id": 3})
        for ws in (p0, p1, sp):
            history, _ = recv_until(ws, "chat_history")
            assert history["channels"] == ["players", "spectators"]
            assert [m["channel"] for m in history["messages"]] == [
                "players", "spectators", "players"
            ]
        sp.send_json({"type": "chat", "phrase": "well_played"})
        assert said(p1)["channel"] == "spectators"
    # Chat is no part of the game's record, nor of its replay.
    for what in ("record", "replay"):
        kept = c.get(f"/api/games/{game}/{what}")
        assert kept.status_code == 200
        assert "go Hedi" not in kept.text and "good_luck" not in kept.text


def test_a_guest_spectator_reads_but_cannot_write(c: TestClient) -> None:
    game, _ = room(c)
    with c.websocket_connect("/ws") as sp:
        follow(sp, game)
        sp.send_json({"type": "chat", "text": "hi", "id": 5})
        assert expect_error(sp, "chat_sign_in")["re"] == 5


def test_length_empty_phrases_and_escaping(c: TestClient) -> None:
    game, token = room(c)
    with c.websocket_connect("/ws") as ws:
        follow(ws, game, token)
        ws.send_json({"type": "chat", "text": "x" * (CHAT_MAX_CHARS + 1), "id": 1})
        err = expect_error(ws, "chat_too_long")
        assert err["re"] == 1 and str(CHAT_MAX_CHARS) in err["message"]
        ws.send_json({"type": "chat", "text": " \n\t ", "id": 2})
        assert expect_error(ws, "chat_empty")["re"] == 2
        ws.send_json({"type": "chat", "phrase": "<b>", "id": 3})
        assert expect_error(ws, "unknown_phrase")["re"] == 3
        ws.send_json({"type": "chat", "text": "a", "phrase": "thanks", "id": 4})
        assert expect_error(ws, "bad_message")["re"] == 4
        # Exactly the limit passes; line breaks and bidirectional overrides become spaces.
        ws.send_json({"type": "chat", "text": "y" * CHAT_MAX_CHARS})
        assert said(ws)["text"] == "y" * CHAT_MAX_CHARS
        ws.send_json({"type": "chat", "text": "a\u202eb\nc"})
        assert said(ws)["text"] == "a b c"
        # Markup is stored and sent as the text it is: the pages write it with textContent.
        ws.send_json({"type": "chat", "text": XSS})
        assert said(ws)["text"] == XSS
    with c.websocket_connect("/ws") as again:
        history = follow(again, game, token)
        assert history["messages"][-1]["text"] == XSS


def test_rate_limit_answers_the_message(url: str) -> None:
    slow = Settings(bot_delay=0, rate=10_000, burst=10_000, chat_rate=0.01, chat_burst=3)
    with app(url, slow) as c:
        game, token = room(c)
        with c.websocket_connect("/ws") as ws, c.websocket_connect("/ws") as tab:
            follow(ws, game, token)
            follow(tab, game, token)
            for i in range(2):
                ws.send_json({"type": "chat", "phrase": "oops", "id": i})
                assert said(ws)["re"] == i
            # A second tab of the same seat shares the author's budget.
            tab.send_json({"type": "chat", "phrase": "oops", "id": "t"})
            while (msg := said(tab)).get("re") is None:
                assert msg["message"] in (1, 2)
            assert msg["re"] == "t"
            ws.send_json({"type": "chat", "phrase": "oops", "id": 7})
            err = expect_error(ws, "chat_rate_limited")
            assert err["re"] == 7 and "at most 3 at once" in err["message"]
            # The connection is still there for the game.
            ws.send_json({"type": "ping", "id": 8})
            assert recv_until(ws, "pong")[0]["re"] == 8


def test_partners_send_only_quick_phrases_until_the_end(c: TestClient) -> None:
    """At a table of partners a player's free text could tell their partner their cards:
    quick phrases only until the game ends; the spectators write as before."""
    watcher = Device(c)
    signup(watcher, "Salma")
    game, token = room(c, seating="2v2")
    tokens = [token] + [join(c, game, name) for name in ("Amel", "Hedi", "Nour")]
    summary = c.get(f"/api/games/{game}").json()
    assert summary["status"] == "playing" and summary["settings"]["team_talk"] == "phrases"
    with (
        c.websocket_connect("/ws") as p0,
        c.websocket_connect("/ws") as p2,
        watcher.ws() as sp,
    ):
        follow(p0, game, tokens[0])
        follow(p2, game, tokens[2])
        follow(sp, game)
        p0.send_json({"type": "chat", "text": "I hold the seven of coins", "id": 1})
        err = expect_error(p0, "chat_phrases_only")
        assert err["re"] == 1 and "quick phrases" in err["message"]
        p0.send_json({"type": "chat", "phrase": "good_luck", "id": 2})
        assert said(p0)["re"] == 2
        assert said(p2)["phrase"] == "good_luck"
        # The spectators' channel is not the partners'.
        sp.send_json({"type": "chat", "text": "go team!", "id": "s"})
        assert said(sp)["text"] == "go team!"
        # Once the game is over, everyone writes freely again.
        p0.send_json({"type": "resign", "id": 3})
        recv_until(p0, "resigned")
        recv_until(p2, "chat_history")
        p0.send_json({"type": "chat", "text": "I held the seven of coins", "id": 4})
        assert said(p0)["re"] == 4
        assert said(p2)["text"] == "I held the seven of coins"
    # Nothing refused was stored.
    with c.websocket_connect("/ws") as again:
        texts = [m.get("text") for m in follow(again, game, tokens[1])["messages"]]
        assert "I hold the seven of coins" not in texts


@pytest.mark.parametrize(
    ("extra", "free"),
    [
        ({"seating": "2v2", "team_talk": "free"}, True),  # a casual room's choice
        ({"seating": "2"}, True),  # no partners: not concerned
        ({"seating": "3"}, True),  # each for themselves
        ({"seating": "2v2"}, False),
        ({"seating": "2v2", "rules": "scopone"}, False),
        ({"seating": "2v2", "game": "touti"}, False),
    ],
)
def test_team_talk_is_a_room_setting(c: TestClient, extra: dict[str, Any], free: bool) -> None:
    game, token = room(c, **extra)
    with c.websocket_connect("/ws") as ws:
        follow(ws, game, token)
        ws.send_json({"type": "chat", "text": "hello", "id": 1})
        if free:
            assert said(ws)["re"] == 1
        else:
            assert expect_error(ws, "chat_phrases_only")["re"] == 1


def test_team_talk_s_values_and_rated_games(c: TestClient) -> None:
    r = c.post("/api/games", json={"mode": "room", "seating": "2v2", "team_talk": "loud"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    assert r.json()["message"] == "team_talk must be 'phrases' or 'free', not 'loud'"
    r = c.post("/api/games", json={"mode": "room", "team_talk": True})
    assert r.status_code == 400 and "team_talk must be" in r.json()["message"]
    host = Device(c)
    signup(host, "Hedi")
    r = host.post("/api/games", json={"mode": "room", "seating": "2v2", "rated": True,
                                      "team_talk": "free"})
    assert r.status_code == 400 and r.json()["error"] == "not_rateable"
    assert "quick phrases only" in r.json()["message"]
    r = host.post("/api/games", json={"mode": "room", "seating": "2v2", "rated": True})
    assert r.status_code == 201, r.text
    settings = c.get(f"/api/games/{r.json()['game']}").json()["settings"]
    assert settings["rated"] is True and settings["team_talk"] == "phrases"


def test_the_creator_turns_the_chat_off_and_computer_games_start_without(c: TestClient) -> None:
    game, token = room(c)
    guest = join(c, game)
    with c.websocket_connect("/ws") as p0, c.websocket_connect("/ws") as p1:
        assert follow(p0, game, token)["on"] is True
        follow(p1, game, guest)
        p1.send_json({"type": "chat_room", "on": False, "id": 1})
        assert expect_error(p1, "not_creator")["re"] == 1
        p0.send_json({"type": "chat_room", "on": False, "id": 2})
        assert recv_until(p0, "chat_room")[0] == {
            "type": "chat_room", "game": game, "on": False, "re": 2
        }
        assert recv_until(p1, "room")[0]["chat"] is False
        p1.send_json({"type": "chat", "phrase": "thanks", "id": 3})
        assert expect_error(p1, "chat_off")["re"] == 3
    # Stored: the switch holds for the next connection.
    with c.websocket_connect("/ws") as p1:
        assert follow(p1, game, guest)["on"] is False
    r = c.post("/api/games", json={"mode": "computer", "level": "random"})
    cpu, token = r.json()["game"], r.json()["token"]
    with c.websocket_connect("/ws") as ws:
        assert follow(ws, cpu, token)["on"] is False
        ws.send_json({"type": "chat", "text": "hello?", "id": 1})
        assert expect_error(ws, "chat_off")["re"] == 1
        ws.send_json({"type": "chat_room", "on": True, "id": 2})
        recv_until(ws, "chat_room")
        ws.send_json({"type": "chat", "text": "hello?", "id": 3})
        assert said(ws)["re"] == 3
    # A room whose other seats the computer takes at once is a game against the computer.
    r = c.post("/api/games", json={"mode": "room", "seating": "2", "computers": [None, "random"]})
    with c.websocket_connect("/ws") as ws:
        assert follow(ws, r.json()["game"], r.json()["token"])["on"] is False


def test_reports_silencing_and_the_moderators_api(url: str, c: TestClient) -> None:
    rude, victim, mod = Device(c), Device(c), Device(c)
    for d, name in ((rude, "Rude"), (victim, "Victim"), (mod, "Mourad")):
        assert signup(d, name).status_code == 201
    game, token = room(rude)
    other = join(victim, game)
    with rude.ws() as p0, victim.ws() as p1:
        follow(p0, game, token)
        follow(p1, game, other)
        p0.send_json({"type": "chat", "text": "you are bad"})
        message = said(p1)["message"]
        p1.send_json({"type": "report", "message": message + 100, "id": 1})
        assert expect_error(p1, "unknown_message")["re"] == 1
        p1.send_json({"type": "report", "message": message, "reason": "rude", "id": 2})
        assert recv_until(p1, "reported")[0] == {
            "type": "reported", "game": game, "message": message, "re": 2
        }
        # Only a moderator reads the reports.
        assert mod.get("/api/moderation/reports").status_code == 403
        assert c.get("/api/moderation/reports").status_code == 401
        run = CliRunner().invoke(cli, ["moderator", "add", "mourad", "--db", url])
        assert run.exit_code == 0, run.output
        assert mod.get("/api/account").json()["moderator"] is True
        assert victim.get("/api/account").json()["moderator"] is False
        reports = mod.get("/api/moderation/reports").json()["reports"]
        assert [(r["message"]["text"], r["account"], r["reporter"], r["reason"])
                for r in reports] == [("you are bad", "Rude", "Victim", "rude")]
        r = mod.post("/api/moderation/silence", json={"name": "rude", "silenced": True})
        assert r.status_code == 200 and r.json() == {"name": "Rude", "silenced": True}
        p0.send_json({"type": "chat", "text": "again", "id": 3})
        assert expect_error(p0, "silenced")["re"] == 3
        page = mod.get("/moderation")
        assert page.status_code == 200 and "moderation.js" in page.text
        assert mod.post(f"/api/moderation/reports/{reports[0]['id']}/close").status_code == 200
        assert mod.get("/api/moderation/reports").json()["reports"] == []
        mod.post("/api/moderation/silence", json={"name": "Rude", "silenced": False})
        p0.send_json({"type": "chat", "text": "sorry", "id": 4})
        assert said(p0)["re"] == 4


def test_an_accounts_messages_go_with_it_and_come_in_its_data(url: str, c: TestClient) -> None:
    talker, other = Device(c), Device(c)
    signup(talker, "Talker")
    signup(other, "Other")
    game, token = room(talker)
    seat = join(other, game)
    with talker.ws() as p0, other.ws() as p1:
        follow(p0, game, token)
        follow(p1, game, seat)
        p0.send_json({"type": "chat", "text": "mine"})
        message = said(p1)["message"]
        p1.send_json({"type": "chat", "phrase": "thanks"})
        said(p0)
        p1.send_json({"type": "report", "message": message, "id": 1})
        recv_until(p1, "reported")
    data = talker.get("/api/account/export").json()
    assert [(m["game"], m["text"]) for m in data["chat"]] == [(game, "mine")]
    assert talker.post("/api/account/delete", json={"password": PASSWORD}).json() == {"ok": True}
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            left = conn.execute(sa.select(chat_messages.c.text, chat_messages.c.phrase)).all()
            assert [tuple(r) for r in left] == [(None, "thanks")]
            assert conn.execute(sa.select(chat_reports)).all() == []
    finally:
        store.close()


def test_migration_0011_up_and_down(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate("0008")
        assert not CHAT_TABLES & set(inspect(store.engine).get_table_names())
        store.migrate()
        assert set(inspect(store.engine).get_table_names()) >= CHAT_TABLES
        chat = ChatStore(store.engine)
        row = chat.post("ABCDEF", "players", 0, None, "Guest", XSS, None)
        chat.report(row.id, None, "Other", "spam")
        assert chat.reports()[0]["message"]["text"] == XSS
        chat.set_room("ABCDEF", False)
        assert chat.room_enabled("ABCDEF") is False
        downgrade(store, "0008")
        assert not CHAT_TABLES & set(inspect(store.engine).get_table_names())
        store.migrate()
        assert chat.history("ABCDEF", ["players"]) == []
    finally:
        store.close()


def test_the_moderator_command(url: str, c: TestClient) -> None:
    signup(Device(c), "Nadia")
    runner = CliRunner()
    out = runner.invoke(cli, ["moderator", "add", "NADIA", "--db", url])
    assert out.exit_code == 0 and "Nadia is a moderator" in out.output
    assert runner.invoke(cli, ["moderator", "list", "--db", url]).output.split() == ["Nadia"]
    out = runner.invoke(cli, ["moderator", "add", "nobody", "--db", url])
    assert out.exit_code != 0 and "no account named 'nobody'" in out.output
    out = runner.invoke(cli, ["moderator", "silence", "nadia", "--db", url])
    assert out.exit_code == 0 and "silenced" in out.output
    out = runner.invoke(cli, ["moderator", "remove", "Nadia", "--db", url])
    assert out.exit_code == 0
    assert runner.invoke(cli, ["moderator", "list", "--db", url]).output.strip() == ""


def test_the_page_offers_every_quick_phrase_in_every_language() -> None:
    offered = re.search(r"const PHRASES = \[([^\]]*)\]", CHAT_JS.read_text(encoding="utf-8"))
    assert offered is not None
    assert re.findall(r'"(\w+)"', offered.group(1)) == list(QUICK_PHRASES)
    for lang in LANGUAGES:
        said = {catalogue(lang)["chat"][f"phrase_{k}"] for k in QUICK_PHRASES}
        assert len(said) == len(QUICK_PHRASES), lang


def test_chat_in_a_cluster(pg_server: Any) -> None:
    """A game in play is served by the worker that holds it, and its chat with it (stored,
    so the history follows the game to another worker); a finished game shown by two
    workers at once: a message said on one reaches the followers of the other."""
    url = pg_server.new_database()
    with (
        TestClient(create_app(url, FAST, worker="a", accounts=CHEAP)) as a,
        TestClient(create_app(url, FAST, worker="b", accounts=CHEAP)) as b,
    ):
        game, token = room(a)
        other = join(a, game, "Amel")
        with a.websocket_connect("/ws") as p0, a.websocket_connect("/ws") as p1:
            follow(p0, game, token)
            follow(p1, game, other)
            p1.send_json({"type": "chat", "phrase": "hello", "id": 1})
            assert said(p0)["phrase"] == "hello"
            p0.send_json({"type": "resign", "id": 2})
            recv_until(p0, "chat_history")
            recv_until(p1, "chat_history")
            # b shows the finished game to a follower of its own.
            with b.websocket_connect("/ws") as on_b:
                history = follow(on_b, game)
                assert [m["phrase"] for m in history["messages"]] == ["hello"]
                p0.send_json({"type": "chat", "phrase": "good_game", "id": 3})
                assert said(p0)["re"] == 3
                assert said(p1)["phrase"] == "good_game"
                relayed = said(on_b)
                assert (relayed["name"], relayed["phrase"]) == ("Player 1", "good_game")
                # And back: a's followers hear what b's said (a signed-in spectator).
                watcher = Device(b)
                signup(watcher, "Salma")
                with watcher.ws() as sp:
                    follow(sp, game)
                    sp.send_json({"type": "chat", "text": "gg both", "id": 4})
                    assert said(sp)["re"] == 4
                    heard = said(p1)
                    assert (heard["name"], heard["channel"]) == ("Salma", "spectators")


def test_the_protocol_document_gives_the_chat_s_limits() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    section = doc.split("### Chat\n", 1)[1].split("\n### ", 1)[0]
    s = Settings()
    assert f"**{CHAT_MAX_CHARS}**" in section
    assert f"**{s.chat_burst:g} messages at once, then one every {1 / s.chat_rate:g} s**" in section
    assert all(f"`{k}`" in section for k in QUICK_PHRASES)
