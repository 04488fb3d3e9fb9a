"""A software passkey for the tests: an authenticator's answers to WebAuthn options, made
as a browser and an authenticator make them (an ES256 key, "none" attestation), so that the
server's checks run through the ``webauthn`` library as they do for a real one."""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

UP, UV, AT = 0x01, 0x04, 0x40
"""authenticatorData's flags: the user was present, was verified; a credential follows."""


class SoftKey:
    """One passkey held by a software authenticator, made by :meth:`create`."""

    def __init__(self, origin: str = "http://testserver") -> None:
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(16)
        self.count = 0
        self.rp_id = ""
        self.user_handle = ""

    @property
    def id(self) -> str:
        """The credential's id, base64url (as the server keeps it)."""
        return bytes_to_base64url(self.credential_id)

    def _client_data(self, kind: str, options: dict[str, Any], origin: str | None) -> bytes:
        return json.dumps(
            {
                "type": kind,
                "challenge": options["challenge"],
                "origin": origin or self.origin,
                "crossOrigin": False,
            }
        ).encode()

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create()`` with ``options`` (as the server
        sent them), in the JSON a browser's ``credential.toJSON()`` gives."""
        self.rp_id = options["rp"]["id"]
        self.user_handle = options["user"]["id"]
        numbers = self.key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big")}  # fmt: skip
        auth_data = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([UP | UV | AT])
            + struct.pack(">I", self.count)
            + bytes(16)  # no AAGUID
            + struct.pack(">H", len(self.credential_id))
            + self.credential_id
            + cbor2.dumps(cose)
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(
                    self._client_data("webauthn.create", options, origin)
                ),
                "attestationObject": bytes_to_base64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(
        self, options: dict[str, Any], origin: str | None = None, rp_id: str | None = None
    ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get()`` with ``options``: signed with the
        next value of the counter."""
        self.count += 1
        auth_data = (
            hashlib.sha256((rp_id or self.rp_id).encode()).digest()
            + bytes([UP | UV])
            + struct.pack(">I", self.count)
        )
        client_data = self._client_data("webauthn.get", options, origin)
        signature = self.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "authenticatorData": bytes_to_base64url(auth_data),
                "signature": bytes_to_base64url(signature),
                "userHandle": self.user_handle,
            },
            "clientExtensionResults": {},
        }


def allowed(options: dict[str, Any]) -> list[bytes]:
    """The credential ids a log-in's options allow (empty: any passkey of the site)."""
    return [base64url_to_bytes(c["id"]) for c in options.get("allowCredentials", [])]
