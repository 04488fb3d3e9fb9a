"""Passkeys in headless Chromium with its virtual authenticator (the WebDriver's stand-in for
a phone or a security key): sign up, add a passkey on the account page, log out, log in
with it without typing anything, then with the name typed, then from the name field's
suggestions (autofill); axe-core finds nothing serious on the page with its passkeys
listed.

The page is opened at ``localhost``: WebAuthn needs a secure context and a relying party
id that is a domain, which ``http://localhost`` is (``127.0.0.1``, an address, is not)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import body, browser_at, needs_chromium, served, visible, wait
from test_web_browser_a11y import axe_problems
from wsutil import ServerProcess

pytestmark = needs_chromium

PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from served(tmp_path_factory, "passkeys")


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from browser_at("1280,900")


def test_add_a_passkey_log_out_and_log_in_with_it(server: ServerProcess, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.virtual_authenticator import (
        Protocol,
        Transport,
        VirtualAuthenticatorOptions,
    )

    d = browser
    d.add_virtual_authenticator(
        VirtualAuthenticatorOptions(
            protocol=Protocol.CTAP2,
            transport=Transport.INTERNAL,
            has_resident_key=True,
            has_user_verification=True,
            is_user_verified=True,
            is_user_consenting=True,
        )
    )
    # Opened by its address (127.0.0.1), the page says why it offers no passkey.
    d.get(server.base + "/account")
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert not visible(d, "#l-passkey")
    [note] = visible(d, ".passkey-none")
    assert "not an IP address" in note.text
    d.get(f"http://localhost:{server.port}/account")
    wait(d, lambda d: body(d, "data-ready") == "1")
    assert d.execute_script("return window.isSecureContext") is True
    d.find_element(By.ID, "s-name").send_keys("Yasmine")
    d.find_element(By.ID, "s-password").send_keys(PASSWORD)
    d.find_element(By.ID, "s-go").click()
    wait(d, lambda d: body(d, "data-signed-in") == "1")
    assert d.find_element(By.ID, "passkeys").text == "No passkey yet."

    # The page's own conversion to JSON, for browsers without credential.toJSON().
    without_to_json = (
        "window.savedToJSON = PublicKeyCredential.prototype.toJSON;"
        "delete PublicKeyCredential.prototype.toJSON;"
        "return typeof PublicKeyCredential.prototype.toJSON;"
    )
    assert d.execute_script(without_to_json) == "undefined"
    d.find_element(By.ID, "k-name").send_keys("Laptop")
    d.find_element(By.ID, "k-password").send_keys(PASSWORD)
    d.find_element(By.ID, "k-go").click()
    wait(d, lambda d: d.find_element(By.ID, "k-done").text or d.find_element(By.ID, "k-error").text)
    assert d.find_element(By.ID, "k-error").text == ""
    assert d.find_element(By.ID, "k-done").text == "Passkey added."
    wait(d, lambda d: "Laptop" in d.find_element(By.ID, "passkeys").text)
    assert "never used" in d.find_element(By.ID, "passkeys").text
    assert axe_problems(d) == []
    [stored] = d.get_credentials()
    assert stored.is_resident_credential and stored.rp_id == "localhost"

    d.execute_script("PublicKeyCredential.prototype.toJSON = window.savedToJSON;")
    # Chromium's virtual authenticator answers the name field's suggestions (autofill) at
    # once, as if a person had picked the passkey: without them, the button is tried.
    d.execute_script(
        "window.savedAutofill = PublicKeyCredential.isConditionalMediationAvailable;"
        "PublicKeyCredential.isConditionalMediationAvailable = async () => false;"
    )
    d.find_element(By.ID, "logout").click()
    wait(d, lambda d: body(d, "data-signed-in") == "0" and visible(d, "#l-passkey"))
    # No name typed: the authenticator offers the site's passkey it holds.
    d.find_element(By.ID, "l-passkey").click()
    wait(d, lambda d: body(d, "data-signed-in") == "1" or d.find_element(By.ID, "l-error").text)
    assert d.find_element(By.ID, "l-error").text == ""
    assert d.find_element(By.ID, "who").text == "Signed in as Yasmine"
    assert "last used" in d.find_element(By.ID, "passkeys").text

    # With the name typed first, its passkeys are asked for (and the answer made JSON by
    # the page itself).
    assert d.execute_script(without_to_json) == "undefined"
    d.find_element(By.ID, "logout").click()
    wait(d, lambda d: body(d, "data-signed-in") == "0" and visible(d, "#l-passkey"))
    d.find_element(By.ID, "l-name").send_keys("yasmine")
    d.find_element(By.ID, "l-passkey").click()
    wait(d, lambda d: body(d, "data-signed-in") == "1" or d.find_element(By.ID, "l-error").text)
    assert d.find_element(By.ID, "who").text == "Signed in as Yasmine"

    # The name field's suggestions offer the passkey: picked (by the virtual authenticator),
    # it logs in without a click.
    d.execute_script(
        "PublicKeyCredential.isConditionalMediationAvailable = window.savedAutofill;"
        "PublicKeyCredential.prototype.toJSON = window.savedToJSON;"
    )
    assert d.find_element(By.ID, "l-name").get_attribute("autocomplete") == "username webauthn"
    used = d.get_credentials()[0].sign_count
    d.find_element(By.ID, "logout").click()
    # Signed out, then in again at once (too soon, maybe, to see the page signed out).
    wait(d, lambda d: d.get_credentials()[0].sign_count > used)
    wait(d, lambda d: body(d, "data-signed-in") == "1" or d.find_element(By.ID, "l-error").text)
    assert d.find_element(By.ID, "l-error").text == ""
    assert d.find_element(By.ID, "who").text == "Signed in as Yasmine"
