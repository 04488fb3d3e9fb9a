"""The web app on a phone, like an app: its manifest, its service worker and the static
files' cache headers.

The service worker (``/sw.js``, from ``sw.js`` next to this module) keeps a copy of the
pages' shells, scripts, style sheets, catalogues and icons (the *precache*) and of every
card image drawn, so that a reload or a network blip keeps the table on screen while the
page reconnects; the game itself always needs the server. Its cache is named after the
package's version and a hash of every file it lists: a new release (or any changed file)
changes the worker's text, the browser installs the new one, and the old cache is
deleted.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from chkobba import __version__
from chkobba.words.catalogue import CATALOGUES

STATIC: Final = Path(__file__).parent / "static"
WORKER: Final = Path(__file__).parent / "sw.js"
MANIFEST: Final = STATIC / "manifest.webmanifest"

SHELLS: Final = {
    "/": "index.html",
    "/g/": "game.html",
    "/replay/": "replay.html",
    "/touti": "touti.html",
    "/rules": "rules.html",
    "/account": "account.html",
    "/analyse": "analyse.html",
    "/leaderboard": "leaderboard.html",
    "/u/": "profile.html",
}
"""Each page's address (or the start of it) and the file the server answers it with
(``app.py``'s page routes): what the worker shows for that page when the network fails."""

STATIC_CACHE: Final = "no-cache"
"""The static files' ``Cache-Control``: a browser keeps them and asks again each time
(an ETag answers ``304 Not Modified``), since their addresses carry no version; the
service worker is what keeps them off the network."""


def precache_files() -> list[str]:
    """The addresses the service worker keeps from its installation: every static file
    (pages, scripts, style sheets, icons, the manifest) and every catalogue."""
    files = [
        f"/static/{p.relative_to(STATIC).as_posix()}"
        for p in sorted(STATIC.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    ]
    files += [f"/static/i18n/{p.name}" for p in sorted(CATALOGUES.glob("*.json"))]
    return files


def _local(url: str) -> Path:
    if url.startswith("/static/i18n/"):
        return CATALOGUES / url.removeprefix("/static/i18n/")
    return STATIC / url.removeprefix("/static/")


@cache
def cache_version() -> str:
    """The name of this release's cache: the version and a hash of every precached file
    (so a changed file is fetched again even within one version)."""
    digest = hashlib.sha256()
    for url in precache_files():
        digest.update(url.encode())
        digest.update(_local(url).read_bytes())
    digest.update(WORKER.read_bytes())
    return f"chkobba-{__version__}-{digest.hexdigest()[:12]}"


@cache
def worker_text() -> str:
    """The service worker's script, its version and files filled in."""
    text = WORKER.read_text(encoding="utf-8")
    return (
        text.replace('"__VERSION__"', json.dumps(cache_version()))
        .replace("__FILES__", json.dumps(precache_files(), indent=1))
        .replace("__SHELLS__", json.dumps({k: f"/static/{v}" for k, v in SHELLS.items()}))
    )


async def service_worker(request: Request) -> Response:
    """``GET /sw.js``: the service worker, at the root so that it serves every page.
    Never cached by the browser's HTTP cache: its text is how a new release is noticed."""
    return Response(
        worker_text(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


async def manifest(request: Request) -> Response:
    """``GET /manifest.webmanifest``: the web app manifest (name, icons, colours)."""
    return FileResponse(
        MANIFEST, media_type="application/manifest+json", headers={"Cache-Control": STATIC_CACHE}
    )


class CachedStatic(StaticFiles):
    """Static files with a ``Cache-Control`` header (:data:`STATIC_CACHE`)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        """The file's response, with the cache header."""
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = STATIC_CACHE
        return response
