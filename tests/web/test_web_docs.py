"""The web app's documents hold what the server does: docs/protocol.md names every error
code, client message and room setting the server knows, with the defaults and limits of
chkobba.web.life; docs/records.md names the meta keys a web game's record gets; docs/web.md
shows pictures that exist and stay small."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chkobba.web.http import HTTP_ERROR_CODES
from chkobba.web.life import ABANDON_AFTER, GRACE, MAX_SECONDS, MIN_SECONDS, SETTING_FIELDS
from chkobba.web.protocol import _FIELDS, ERROR_CODES

DOCS = Path(__file__).resolve().parents[2] / "docs"
PROTOCOL = (DOCS / "protocol.md").read_text(encoding="utf-8")
RECORDS = (DOCS / "records.md").read_text(encoding="utf-8")
WEB = (DOCS / "web.md").read_text(encoding="utf-8")
MAX_PICTURE_BYTES = 300_000


def table_codes(heading: str) -> set[str]:
    """The codes in the first column of the table under ``heading`` in protocol.md."""
    section = PROTOCOL.split(heading, 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `(\w+)`(?:, `(\w+)`)? \|", section, re.M)
    return {code for row in rows for code in row if code}


def test_every_websocket_error_code_is_in_the_table() -> None:
    documented = table_codes("### Error codes")
    assert set(ERROR_CODES) <= documented, sorted(set(ERROR_CODES) - documented)


def test_every_http_error_code_is_documented() -> None:
    # The HTTP table lists those of HTTP answers only; the game's own are in the other.
    documented = table_codes("### HTTP error codes") | table_codes("### Error codes")
    assert set(HTTP_ERROR_CODES) <= documented, sorted(set(HTTP_ERROR_CODES) - documented)


def test_every_client_message_is_in_the_table() -> None:
    section = PROTOCOL.split("### Client → server", 1)[1].split("\n### ", 1)[0]
    documented = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    assert set(_FIELDS) == documented


def test_the_room_settings_are_documented_with_the_code_s_defaults_and_limits() -> None:
    section = PROTOCOL.split("### Room settings", 1)[1].split("\n### ", 1)[0]
    documented = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert documented == list(SETTING_FIELDS)
    assert f"| `grace` | seconds | {GRACE:g} | {GRACE:g} |" in section
    assert f"| `abandon_after` | seconds | {ABANDON_AFTER:g} (a day) |" in section
    assert f"**{MIN_SECONDS:g}**" in section
    assert f"**{MAX_SECONDS:,.0f}**" in section


@pytest.mark.parametrize(
    "key", ["settings", "ending", "resigned", "stand_in", "uses", "rematch_of", "rematch"]
)
def test_records_doc_names_the_web_game_s_meta(key: str) -> None:
    meta = RECORDS.split("## Meta", 1)[1].split("\n## ", 1)[0]
    assert f"`{key}`" in meta


def test_the_web_doc_s_pictures_exist_and_are_small() -> None:
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", WEB)
    assert pictures
    for name in pictures:
        path = DOCS / name
        assert path.is_file(), name
        assert path.stat().st_size < MAX_PICTURE_BYTES, (name, path.stat().st_size)
