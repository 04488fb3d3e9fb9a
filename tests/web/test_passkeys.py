"""Passkeys (issue 26, section 1): adding one to an account, listing and removing them,
logging in with one, and what each refuses, through the ``webauthn`` library's checks: a
challenge answered twice, or late, or by another session; another site's origin; a counter
that goes back; another account's passkey; guessing beyond the log-in limits. Migration
0013 up and down on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from softkey import SoftKey, allowed
from sqlalchemy import inspect
from starlette.testclient import TestClient
from test_accounts import CHEAP, PASSWORD, Device, app_client, rows, signup
from test_accounts_store import downgrade
from wsutil import FAST

from chkobba.store import Store
from chkobba.store.passkeys import Passkeys
from chkobba.store.schema import accounts
from chkobba.web.app import create_app
from chkobba.web.auth import AccountPolicy
from chkobba.web.passkeys import check_origins

TABLES = {"passkeys", "passkey_challenges"}


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'chkobba.db'}"


@pytest.fixture
def c(url: str) -> Iterator[TestClient]:
    with app_client(url) as client:
        yield client


def add_passkey(
    who: TestClient | Device, key: SoftKey, name: str = "Phone", origin: str | None = None
) -> Any:
    """Ask for the options (with the password) and answer them with ``key``."""
    r = who.post("/api/account/passkeys/options", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    options = r.json()["options"]
    return who.post(
        "/api/account/passkeys", json={"name": name, "credential": key.create(options, origin)}
    )


def log_in_options(who: TestClient | Device, name: str | None = None) -> dict[str, Any]:
    body = {} if name is None else {"name": name}
    r = who.post("/api/account/passkey-login/options", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json()["options"])


def log_in(who: TestClient | Device, answer: dict[str, Any]) -> Any:
    return who.post("/api/account/passkey-login", json={"credential": answer})


def test_add_log_in_with_and_remove_a_passkey(url: str) -> None:
    with app_client(url) as c:
        signup(c, "Hedi")
        key = SoftKey()
        r = add_passkey(c, key, "  My\tphone\n ")
        assert r.status_code == 201, r.text
        assert r.json()["passkey"]["name"] == "My phone"
        listed = c.get("/api/account/passkeys").json()["passkeys"]
        assert [(p["name"], p["last_used"]) for p in listed] == [("My phone", None)]
        # Registered as a discoverable credential, with the user verified.
        assert c.post("/api/account/logout").json() == {"ok": True}
        assert c.get("/api/account").status_code == 401

        options = log_in_options(c)
        assert allowed(options) == [] and options["userVerification"] == "required"
        assert options["rpId"] == "testserver"
        r = log_in(c, key.get(options))
        assert r.status_code == 200, r.text
        assert r.json()["account"]["name"] == "Hedi"
        assert c.get("/api/account").json()["account"]["name"] == "Hedi"
        [used] = c.get("/api/account/passkeys").json()["passkeys"]
        assert used["last_used"] is not None
        # The download lists it (its name and id, never anything secret).
        [kept] = c.get("/api/account/export").json()["passkeys"]
        assert kept["name"] == "My phone" and kept["credential_id"] == key.id

        assert c.post("/api/account/passkeys/remove", json={"id": used["id"]}).json() == {
            "ok": True
        }
        assert c.get("/api/account/passkeys").json() == {"passkeys": []}
        c.post("/api/account/logout")
        r = log_in(c, key.get(log_in_options(c)))
        assert r.status_code == 401 and r.json()["error"] == "bad_passkey"


def test_two_workers_of_a_cluster_share_the_challenges(pg_server: Any) -> None:
    """A challenge sent by one worker is answered on the other, once (PostgreSQL)."""
    url = pg_server.new_database()
    with (
        TestClient(create_app(url, FAST, worker="a", accounts=CHEAP)) as a,
        TestClient(create_app(url, FAST, worker="b", accounts=CHEAP)) as b,
    ):
        on_a, on_b = Device(a), Device(b)
        assert signup(on_a, "Hedi").status_code == 201
        on_b.sid = on_a.sid
        key = SoftKey()
        options = on_a.post("/api/account/passkeys/options", json={"password": PASSWORD})
        answer = key.create(options.json()["options"])
        r = on_b.post("/api/account/passkeys", json={"name": "Phone", "credential": answer})
        assert r.status_code == 201, r.text
        on_a.post("/api/account/logout")
        guest_a, guest_b = Device(a), Device(b)
        answer = key.get(log_in_options(guest_b))
        assert log_in(guest_a, answer).json()["account"]["name"] == "Hedi"
        r = log_in(guest_b, answer)
        assert r.status_code == 401 and r.json()["error"] == "passkey_expired"
        assert guest_a.get("/api/account/passkeys").json()["passkeys"][0]["last_used"]


def test_a_typed_name_asks_for_that_account_s_passkeys(c: TestClient) -> None:
    signup(c, "Hedi")
    key = SoftKey()
    assert add_passkey(c, key).status_code == 201
    c.post("/api/account/logout")
    assert allowed(log_in_options(c, "HEDI")) == [key.credential_id]
    assert allowed(log_in_options(c, "nobody")) == []
    assert log_in(c, key.get(log_in_options(c, "hedi"))).status_code == 200


def test_a_replayed_answer_is_refused(c: TestClient) -> None:
    signup(c, "Hedi")
    key = SoftKey()
    assert add_passkey(c, key).status_code == 201
    c.post("/api/account/logout")
    answer = key.get(log_in_options(c))
    assert log_in(c, answer).status_code == 200
    c.post("/api/account/logout")
    r = log_in(c, answer)
    assert r.status_code == 401 and r.json()["error"] == "passkey_expired"
    # A fresh signature over the used challenge (a counter higher too) is refused as well.
    r = log_in(c, key.get({"challenge": answer_challenge(answer)}))
    assert r.status_code == 401 and r.json()["error"] == "passkey_expired"
    assert c.get("/api/account").status_code == 401


def answer_challenge(answer: dict[str, Any]) -> str:
    import json

    from webauthn.helpers import base64url_to_bytes

    return str(json.loads(base64url_to_bytes(answer["response"]["clientDataJSON"]))["challenge"])


def test_an_expired_challenge_is_refused_and_challenges_are_budgeted(url: str) -> None:
    policy = AccountPolicy(
        **{**CHEAP.__dict__, "passkey_seconds": 0.0, "passkey_burst": 3, "passkey_rate": 0.01}
    )
    with app_client(url, policy) as c:
        signup(c, "Hedi")
        r = add_passkey(c, SoftKey())
        assert r.status_code == 400 and r.json()["error"] == "passkey_expired"
        assert c.get("/api/account/passkeys").json() == {"passkeys": []}
        # Each challenge is a row: an address asks for a few, then waits.
        log_in_options(c)
        log_in_options(c)
        r = c.post("/api/account/passkey-login/options", json={})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert int(r.headers["Retry-After"]) > 0


def test_another_site_s_origin_or_relying_party_is_refused(c: TestClient) -> None:
    signup(c, "Hedi")
    r = add_passkey(c, SoftKey(), origin="https://evil.example")
    assert r.status_code == 400 and r.json()["error"] == "bad_passkey"
    assert "origin" in r.json()["message"]
    key = SoftKey()
    assert add_passkey(c, key).status_code == 201
    c.post("/api/account/logout")
    r = log_in(c, key.get(log_in_options(c), origin="https://evil.example"))
    assert r.status_code == 401 and r.json()["error"] == "bad_passkey"
    r = log_in(c, key.get(log_in_options(c), rp_id="evil.example"))
    assert r.status_code == 401 and r.json()["error"] == "bad_passkey"
    assert c.get("/api/account").status_code == 401
    assert log_in(c, key.get(log_in_options(c))).status_code == 200


def test_a_signature_counter_that_goes_back_is_refused(c: TestClient) -> None:
    signup(c, "Hedi")
    key = SoftKey()
    assert add_passkey(c, key).status_code == 201
    c.post("/api/account/logout")
    key.count = 10
    assert log_in(c, key.get(log_in_options(c))).status_code == 200
    c.post("/api/account/logout")
    key.count = 4  # a copy of the key, used less often
    r = log_in(c, key.get(log_in_options(c)))
    assert r.status_code == 401 and r.json()["error"] == "bad_passkey"
    assert "sign count" in r.json()["message"]


def test_another_account_s_passkey_cannot_be_removed_or_used_as_its_own(c: TestClient) -> None:
    hedi, amel = Device(c), Device(c)
    signup(hedi, "Hedi")
    signup(amel, "Amel")
    key = SoftKey()
    assert add_passkey(hedi, key).status_code == 201
    [theirs] = hedi.get("/api/account/passkeys").json()["passkeys"]
    r = amel.post("/api/account/passkeys/remove", json={"id": theirs["id"]})
    assert r.status_code == 404 and r.json()["error"] == "unknown_passkey"
    assert amel.get("/api/account/passkeys").json() == {"passkeys": []}
    assert [p["id"] for p in hedi.get("/api/account/passkeys").json()["passkeys"]] == [
        theirs["id"]
    ]
    # The same credential cannot be registered to a second account.
    hedi_handle = key.user_handle
    r = add_passkey(amel, key)
    assert r.status_code == 409 and r.json()["error"] == "passkey_taken"
    # Nor can it log in to Amel's account by naming Amel's user handle.
    r = log_in(amel, key.get(log_in_options(amel)))
    assert r.status_code == 401 and "user handle" in r.json()["message"]
    # A log-in with it is Hedi's, whoever asks.
    key.user_handle = hedi_handle
    answer = key.get(log_in_options(amel))
    assert log_in(amel, answer).json()["account"]["name"] == "Hedi"


def test_adding_a_passkey_asks_for_the_password_and_the_same_session(c: TestClient) -> None:
    assert c.post("/api/account/passkeys/options", json={"password": PASSWORD}).status_code == 401
    phone, laptop = Device(c), Device(c)
    signup(phone, "Hedi")
    r = phone.post("/api/account/passkeys/options", json={"password": "not the password"})
    assert r.status_code == 403 and r.json()["error"] == "wrong_password"
    assert laptop.post("/api/account/login", json={"name": "hedi", "password": PASSWORD}).is_success
    options = phone.post("/api/account/passkeys/options", json={"password": PASSWORD}).json()
    answer = SoftKey().create(options["options"])
    # Another session of the same account cannot answer the phone's challenge.
    r = laptop.post("/api/account/passkeys", json={"name": "Phone", "credential": answer})
    assert r.status_code == 400 and r.json()["error"] == "passkey_expired"
    assert phone.get("/api/account/passkeys").json() == {"passkeys": []}
    r = phone.post("/api/account/passkeys", json={"name": "", "credential": answer})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"


def test_failed_passkey_log_ins_are_limited_like_passwords(c: TestClient) -> None:
    signup(c, "Hedi")
    key = SoftKey()
    assert add_passkey(c, key).status_code == 201
    c.post("/api/account/logout")
    for _ in range(CHEAP.account_failures):
        r = log_in(c, key.get(log_in_options(c), origin="https://evil.example"))
        assert r.status_code == 401
    r = log_in(c, key.get(log_in_options(c)))
    assert r.status_code == 429 and r.json()["error"] == "login_limited"
    assert int(r.headers["Retry-After"]) > 0
    # The password is limited with it: the same account's failures.
    r = c.post("/api/account/login", json={"name": "Hedi", "password": PASSWORD})
    assert r.status_code == 429


def test_malformed_answers_are_refused_in_one_line_never_a_server_error(c: TestClient) -> None:
    signup(c, "Hedi")
    key = SoftKey()
    broken: list[tuple[str, Any]] = [
        ("attestationObject", "AAAA"), ("attestationObject", 5), ("clientDataJSON", "!!"),
        ("transports", "usb"),
    ]  # fmt: skip
    codes = []
    for field, value in broken:
        options = c.post("/api/account/passkeys/options", json={"password": PASSWORD})
        answer = key.create(options.json()["options"])
        answer["response"][field] = value
        r = c.post("/api/account/passkeys", json={"name": "Phone", "credential": answer})
        codes.append(r.status_code)
        said = r.json().get("message", "")
        assert "\n" not in said and "__cause__" not in said
    # A transports field that is no list is ignored: the passkey is added all the same.
    assert codes == [400, 400, 400, 201]
    c.post("/api/account/logout")
    for field, value in [("authenticatorData", "AAAA"), ("signature", "!!"), ("userHandle", 3)]:
        answer = key.get(log_in_options(c))
        answer["response"][field] = value
        r = log_in(c, answer)
        assert r.status_code == 401 and r.json()["error"] == "bad_passkey", r.text
    for junk in (None, [], {"id": 5}, {"id": "x"}, {"id": "x", "response": []}):
        assert log_in(c, junk).status_code in (400, 401)


def test_a_cross_site_passkey_request_is_refused(c: TestClient) -> None:
    signup(c, "Hedi")
    evil = {"Origin": "https://evil.example"}
    for path in ("/api/account/passkeys/options", "/api/account/passkey-login/options"):
        r = c.post(path, json={"password": PASSWORD}, headers=evil)
        assert r.status_code == 403 and r.json()["error"] == "cross_site"


def test_the_passkeys_go_with_the_account(url: str, c: TestClient) -> None:
    signup(c, "Hedi")
    assert add_passkey(c, SoftKey()).status_code == 201
    c.post("/api/account/passkeys/options", json={"password": PASSWORD})  # one unanswered
    assert len(rows(url)["passkeys"]) == 1 and len(rows(url)["passkey_challenges"]) == 1
    assert c.post("/api/account/delete", json={"password": PASSWORD}).json() == {"ok": True}
    left = rows(url)
    assert left["passkeys"] == [] and left["passkey_challenges"] == []


def test_a_deployment_names_its_origin_behind_a_proxy(url: str) -> None:
    policy = AccountPolicy(
        **{**CHEAP.__dict__, "passkey_origins": ("https://chkobba.example",)}
    )
    with app_client(url, policy) as c:
        signup(c, "Hedi")
        key = SoftKey(origin="https://chkobba.example")
        r = c.post("/api/account/passkeys/options", json={"password": PASSWORD})
        assert r.json()["options"]["rp"]["id"] == "chkobba.example"
        assert add_passkey(c, key).status_code == 201
        c.post("/api/account/logout")
        # The request's own host (testserver) is not an origin of the deployment.
        r = log_in(c, key.get(log_in_options(c), origin="http://testserver"))
        assert r.status_code == 401
        assert log_in(c, key.get(log_in_options(c))).status_code == 200


def test_the_passkey_settings_are_checked() -> None:
    assert check_origins("https://Chkobba.example:443, http://localhost:8000", None) == (
        ("https://chkobba.example", "http://localhost:8000"),
        None,
    )
    assert check_origins("https://a.chkobba.example", "CHKOBBA.example") == (
        ("https://a.chkobba.example",),
        "chkobba.example",
    )
    for origins, rp in [
        ("chkobba.example", None),
        ("https://chkobba.example/play", None),
        ("https://chkobba.example", "other.example"),
        ("https://chkobba.example", "https://chkobba.example"),
    ]:
        with pytest.raises(ValueError):
            check_origins(origins, rp)


def test_migration_0013_up_and_down(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate("0012")
        assert not TABLES & set(inspect(store.engine).get_table_names())
        store.migrate()
        assert set(inspect(store.engine).get_table_names()) >= TABLES
        with store.engine.begin() as conn:
            account = conn.execute(
                sa.insert(accounts)
                .values(name="Hedi", name_key="hedi", name_shape="hedi", password_hash="x",
                        created_at=sa.func.now(), password_at=sa.func.now())
                .returning(accounts.c.id)
            ).scalar_one()  # fmt: skip
        keys = Passkeys(store.engine)
        added = keys.add(account, "cred", "handle", b"\x01\x02", 0, "Phone", ["usb", "nfc"])
        assert keys.by_credential("cred") == added
        assert keys.used(added.id, 0, 5) and not keys.used(added.id, 0, 6)
        assert keys.of_account(account)[0].sign_count == 5
        downgrade(store, "0012")
        assert not TABLES & set(inspect(store.engine).get_table_names())
        store.migrate()
        assert keys.of_account(account) == []
    finally:
        store.close()


def test_serve_refuses_a_passkey_origin_with_a_path(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from chkobba.cli import main as cli

    out = CliRunner().invoke(
        cli,
        ["serve", "--data-dir", str(tmp_path)],
        env={"CHKOBBA_PASSKEY_ORIGIN": "https://chkobba.example/play"},
    )
    assert out.exit_code != 0 and "has no path" in out.output
