"""The web app like an app on a phone (issue 27, §5), over HTTP: the manifest and its
icons, the service worker (its type, scope and the files it keeps, every one of which
exists), a cache named after the content, and compressed answers with cache headers."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from chkobba import __version__
from chkobba.web import pwa
from chkobba.words import LANGUAGES

STATIC = Path(pwa.__file__).parent / "static"


def worker_files(text: str) -> list[str]:
    """The addresses the service worker's text lists to keep."""
    found = re.search(r"const FILES = (\[.*?\]);", text, re.S)
    assert found, text[:400]
    return list(json.loads(found.group(1)))


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height (from its IHDR chunk)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_and_its_icons(sqlite_client: TestClient) -> None:
    r = sqlite_client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    manifest = r.json()
    assert manifest["name"] and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        got = sqlite_client.get(icon["src"])
        assert got.status_code == 200, icon
        assert got.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            w, h = png_size(got.content)
            assert f"{w}x{h}" == icon["sizes"], icon
            sizes.add(w)
    # What an install prompt needs: 192 and 512 pixels.
    assert {192, 512} <= sizes
    # Every page names the manifest and registers the worker (a page added later too).
    pages = sorted(STATIC.glob("*.html"))
    assert len(pages) >= 10
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, page.name
        assert '<script type="module" src="/static/pwa.js"></script>' in html, page.name


def test_the_service_worker_keeps_files_that_exist(sqlite_client: TestClient) -> None:
    r = sqlite_client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["service-worker-allowed"] == "/"
    assert r.headers["cache-control"] == "no-cache"
    text = r.text
    assert "__" not in re.sub(r"__proto__", "", text), "a placeholder left unfilled"
    version = re.search(r'const VERSION = "([^"]+)";', text)
    assert version and version.group(1).startswith(f"chkobba-{__version__}-")
    files = worker_files(text)
    # Every page's shell, script and style sheet, and every catalogue.
    for path in STATIC.iterdir():
        if path.suffix in (".html", ".js", ".css"):
            assert f"/static/{path.name}" in files, path.name
    for lang in LANGUAGES:
        assert f"/static/i18n/{lang}.json" in files
    for url in files:
        got = sqlite_client.get(url)
        assert got.status_code == 200, url
    # Each page's address has a shell the worker keeps.
    shells = json.loads(re.search(r"const SHELLS = (\{.*?\});", text).group(1))  # type: ignore[union-attr]
    assert set(shells.values()) <= set(files)
    assert shells["/g/"] == "/static/game.html"


def test_a_changed_file_changes_the_cache_name(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    before = pwa.cache_version.__wrapped__()  # type: ignore[attr-defined]
    assert before == pwa.cache_version.__wrapped__()  # type: ignore[attr-defined]
    changed = tmp_path / "game.js"
    changed.write_text("// a new release\n")
    real = pwa._local
    monkeypatch.setattr(
        pwa, "_local", lambda url: changed if url == "/static/game.js" else real(url)
    )
    assert pwa.cache_version.__wrapped__() != before  # type: ignore[attr-defined]


@pytest.mark.parametrize("url", ["/", "/static/game.js", "/static/app.css",
                                 "/static/i18n/fr.json", "/cards/italian/7d.svg", "/sw.js"])
def test_answers_travel_compressed(sqlite_client: TestClient, url: str) -> None:
    r = sqlite_client.get(url, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in r.headers["vary"].lower()
    assert "cache-control" in r.headers
    # Without gzip in the request, the same bytes as they are.
    plain = sqlite_client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == r.content


def test_static_files_are_revalidated(sqlite_client: TestClient) -> None:
    r = sqlite_client.get("/static/game.js")
    assert r.headers["cache-control"] == pwa.STATIC_CACHE
    etag = r.headers["etag"]
    again = sqlite_client.get("/static/game.js", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert sqlite_client.get("/static/i18n/en.json").headers["cache-control"] == pwa.STATIC_CACHE
    assert sqlite_client.get("/static/nothing.js").status_code == 404

