"""Screenshots of every page of the web app, in every language, at a desktop and a phone size.

    python bench/screenshots.py [--out DIR] [--langs en,fr,it,es,ar] [--sizes 1280x800,390x844]
                                [--only lobby,scopa,...] [--keep-raw]

Starts ``chkobba serve`` on 127.0.0.1 with a temporary database, plays (by clicks in
headless Chromium, the computer at the ``random`` level) to the states the pictures need,
and saves ``NAME-LANG-WxH.png`` for each: the lobby, the game screens (Chkobba 2 players,
Scopa, Escoba del 15, Scopone 2 against 2, Cirulla with a declared hand face up, 6
players), a round's breakdown, a replay, the analysis page, a rules page, Touti and a
Touti game's replay, the account page, a pool's leaderboard and a player's profile after
rated games, the chat at the table of a room between two people, the browser asking for
reduced motion so that the pages are pictured at rest. The files go into a new directory
(by default a fresh one under the system's temporary directory); an existing file is
never overwritten. PNGs are reduced to a 256-colour palette when Pillow is installed.
Needs Debian's ``chromium`` and ``chromium-driver``; uses no network but 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SHOTS = (
    "rules", "chkobba", "scopa", "escoba", "scopone", "six", "cirulla", "breakdown", "replay",
    "analysis", "touti", "touti-replay", "lobby", "account", "leaderboard", "profile", "chat",
)
"""Every picture, in the order they are taken."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(data_dir: Path) -> Iterator[str]:
    """``chkobba serve`` on a free port of 127.0.0.1 with a database in ``data_dir``."""
    port = free_port()
    cmd = [
        sys.executable, "-c", "from chkobba.cli import main; main()", "serve",
        "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir),
        "--bot-delay", "0", "--log-level", "warning",
        # The leaderboard's and profile's pictures need rated games: computer players in
        # accounts' seats, as bench/ratings_order.py plays them.
        "--bench-seats",
    ]
    log = open(data_dir / "server.log", "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"the server exited: {(data_dir / 'server.log').read_text()}")
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start in 60 s") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if chromium is None or not Path(driver).exists():
        raise SystemExit("headless Chromium is needed: apt-get install chromium chromium-driver")
    opts = webdriver.ChromeOptions()
    for arg in (
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
        f"--user-data-dir={tempfile.mkdtemp(prefix='chkobba-shots-')}", "--window-size=1280,800",
    ):
        opts.add_argument(arg)
    opts.binary_location = chromium
    d = webdriver.Chrome(service=Service(driver), options=opts)
    # Pictures of the pages at rest: with reduced motion no card is caught in flight
    # (static/motion.js), as a page reloaded for each picture otherwise deals again.
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-reduced-motion", "value": "reduce"}],
    })
    return d


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def play_out(base: str, game: str, token: str) -> None:
    """Seat 0 plays its first legal move over a WebSocket until the match is over (the
    computers play the other seats): a finished game without a browser's clicks."""
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "error":
                # A move answered a state already gone: look again.
                ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
                continue
            if msg["type"] != "state":
                continue
            if msg["over"]:
                return
            if msg["turn"] == 0 and msg["legal"] and msg["legal"] != ["nocanto"]:
                ws.send(json.dumps({"type": "play", "move": msg["legal"][0], "ply": msg["ply"]}))


def go_to_step(d: Any, step: int) -> None:
    """The replay page at ``step`` (its slider moved, as a person drags it)."""
    d.execute_script(
        "const s = document.getElementById('slider'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input'));", step)
    until(d, lambda d: attr(d, "data-step") == str(step))


def attr(d: Any, name: str) -> str | None:
    from selenium.webdriver.common.by import By

    value = d.find_element(By.TAG_NAME, "body").get_attribute(name)
    return None if value is None else str(value)


def shown(d: Any, css: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return [e for e in d.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]


def until(d: Any, cond: Callable[[Any], Any], timeout: float = 60) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(d, timeout, poll_frequency=0.05).until(cond)


def open_game(d: Any, base: str, created: dict[str, Any], token_key: str = "chkobba") -> None:
    """Open a created game's page holding its seat (the token in this browser's storage)."""
    d.get(base + "/healthz")
    d.execute_script(
        f"localStorage.setItem('{token_key}.token.{created['game']}', '{created['token']}')"
    )
    d.get(base + created["url"])


def play_chkobba(d: Any, stop: Callable[[Any], bool], limit: int = 400) -> None:
    """Click through a game of the Chkobba family until ``stop`` holds (or the match ends):
    keep the cut card, play the last playable card, take the first capture offered."""
    from selenium.common.exceptions import StaleElementReferenceException

    until(d, lambda d: attr(d, "data-ply") is not None)
    for _ in range(limit):
        if stop(d) or attr(d, "data-over") == "1":
            return
        close = shown(d, "dialog[open] #breakdown-close")
        if close:
            close[0].click()
            continue
        if attr(d, "data-my-turn") != "1":
            time.sleep(0.03)
            continue
        ply = int(attr(d, "data-ply") or 0)
        try:
            cut, cards = shown(d, "#cut-keep"), shown(d, "#hand .card.playable")
            if cut:
                cut[0].click()
            elif cards:
                cards[-1].click()
                choices = shown(d, "#choices button.choice")
                if choices:
                    choices[0].click()
            else:
                time.sleep(0.03)
                continue
        except StaleElementReferenceException:
            # The page redrew the hand between finding a card and clicking it: look again.
            continue
        until(d, lambda d, ply=ply: int(attr(d, "data-ply") or 0) > ply
              or bool(shown(d, "dialog[open] #breakdown-close")))


def play_touti(d: Any, stop: Callable[[Any], bool], limit: int = 200) -> None:
    """Click through Touti until ``stop`` holds: bid the lowest bid, name the first suit
    offered, announce when asked, play the first playable card."""
    from selenium.common.exceptions import StaleElementReferenceException

    until(d, lambda d: attr(d, "data-ply") is not None)
    for _ in range(limit):
        if stop(d) or attr(d, "data-over") == "1":
            return
        if attr(d, "data-my-turn") != "1":
            time.sleep(0.05)
            continue
        ply = attr(d, "data-ply")
        buttons, cards = shown(d, "#t-actions button"), shown(d, "#t-hand .card.playable")
        target = (cards or buttons or [None])[0]
        if target is None:
            time.sleep(0.05)
            continue
        try:
            target.click()
        except StaleElementReferenceException:
            continue  # redrawn meanwhile: look again
        until(d, lambda d, ply=ply: attr(d, "data-ply") != ply)


def add_passkey(d: Any, base: str) -> None:
    """Add a passkey named "Phone" on the account page, signed in (Chromium's virtual
    authenticator stands for the phone)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.virtual_authenticator import (
        Protocol,
        Transport,
        VirtualAuthenticatorOptions,
    )

    d.add_virtual_authenticator(VirtualAuthenticatorOptions(
        protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True,
        has_user_verification=True, is_user_verified=True,
    ))
    d.get(base + "/account")
    until(d, lambda d: attr(d, "data-signed-in") == "1")
    d.find_element(By.ID, "k-name").send_keys("Phone")
    d.find_element(By.ID, "k-password").send_keys("a long password")
    d.find_element(By.ID, "k-go").click()
    until(d, lambda d: "Phone" in d.find_element(By.ID, "passkeys").text)


def shoot(d: Any, out: Path, name: str, url: str | None, ready: Callable[[Any], Any],
          langs: list[str], sizes: list[tuple[int, int]], after: Callable[[Any], None] | None
          = None) -> list[Path]:
    """``name`` in every language and size: the page at ``url`` (None: the page shown,
    reloaded), once ``ready`` holds, and ``after`` has run (to open a dialog, say)."""
    saved = []
    for lang in langs:
        for w, h in sizes:
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": w, "height": h, "deviceScaleFactor": 1, "mobile": w < 600,
            })
            d.execute_script(f"localStorage.setItem('chkobba.lang', '{lang}')")
            if url is None:
                d.refresh()
            else:
                d.get(url)
            until(d, ready)
            if after is not None:
                after(d)
            time.sleep(0.3)
            path = out / f"{name}-{lang}-{w}x{h}.png"
            if path.exists():
                raise SystemExit(f"{path} exists: choose a new --out")
            d.save_screenshot(str(path))
            saved.append(path)
            print(path)
    d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return saved


def optimise(paths: list[Path]) -> None:
    """A 256-colour palette: a fifth of the size, and the pages' flat colours look the same."""
    try:
        from PIL import Image
    except ImportError:
        print("Pillow is not installed: the PNGs are left as Chromium saved them")
        return
    for p in paths:
        with Image.open(p) as im:
            small = im.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
        small.save(p, optimize=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="a new (or empty) directory for the pictures")
    ap.add_argument("--langs", default="en,fr,it,es,ar")
    ap.add_argument("--sizes", default="1280x800,390x844")
    ap.add_argument("--only", default=",".join(SHOTS), help=f"some of {', '.join(SHOTS)}")
    ap.add_argument("--keep-raw", action="store_true", help="keep Chromium's PNGs as they are")
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="chkobba-screenshots-"))
    out.mkdir(parents=True, exist_ok=True)
    langs = args.langs.split(",")
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",")]
    only = set(args.only.split(","))
    unknown = only - set(SHOTS)
    if unknown:
        raise SystemExit(f"unknown picture(s): {', '.join(sorted(unknown))} (known: {SHOTS})")
    saved: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="chkobba-shots-db-") as tmp, server(Path(tmp)) as base:
        d = browser()
        try:
            saved = take(d, base, out, langs, sizes, only)  # type: ignore[arg-type]
        finally:
            d.quit()
    if not args.keep_raw:
        optimise(saved)
    print(f"{len(saved)} pictures in {out}")


def take(d: Any, base: str, out: Path, langs: list[str], sizes: list[tuple[int, int]],
         only: set[str]) -> list[Path]:
    from selenium.webdriver.common.by import By

    saved: list[Path] = []
    ready = lambda d: attr(d, "data-ready") == "1"  # noqa: E731
    in_game = lambda d: attr(d, "data-ply") is not None  # noqa: E731

    def game(rules: str, seating: str, target: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"rules": rules, "seating": seating, "level": "random",
                                "name": "Amel"}
        if target is not None:
            body["target"] = target
        return post(base, "/api/games", body)

    def mid_round(d: Any) -> bool:
        # A few plays in, with cards on the table and in the hand.
        return int(attr(d, "data-ply") or 0) >= 3 and attr(d, "data-my-turn") == "1"

    # The language is kept in the server's origin: be there from the start.
    d.get(base + "/healthz")
    if "rules" in only:
        saved += shoot(d, out, "rules-scopa", base + "/rules/scopa", ready, langs, sizes)
    for name, rules, seating in (
        ("chkobba", "chkobba", "2"), ("scopa", "scopa", "2"),
        # The Spanish game, on Spanish cards: Escoba with sums of 15.
        ("escoba", "escoba-del-15", "2"), ("scopone", "scopone", "2v2"),
        ("six", "scopa", "6"),
    ):
        if name in only:
            g = game(rules, seating)
            open_game(d, base, g)
            play_chkobba(d, mid_round)
            saved += shoot(d, out, name, None, in_game, langs, sizes)
    if "cirulla" in only:
        for _ in range(20):
            g = game("cirulla", "4")
            open_game(d, base, g)
            play_chkobba(d, lambda d: bool(d.find_elements(By.CSS_SELECTOR, ".declared"))
                         and attr(d, "data-my-turn") == "1", limit=60)
            if d.find_elements(By.CSS_SELECTOR, ".declared"):
                break
        saved += shoot(d, out, "cirulla", None, in_game, langs, sizes)
    finished = None
    if {"breakdown", "replay", "analysis"} & only:
        finished = game("scopa", "2", 11)
        open_game(d, base, finished)
        play_chkobba(d, lambda d: False, limit=2000)
        until(d, lambda d: attr(d, "data-over") == "1")
    if "breakdown" in only and finished is not None:
        def breakdown(d: Any) -> None:
            until(d, lambda d: shown(d, "#show-last"))
            if not shown(d, "dialog[open]"):
                shown(d, "#show-last")[0].click()
            until(d, lambda d: shown(d, "dialog[open] table.breakdown"))

        saved += shoot(d, out, "breakdown", None, in_game, langs, sizes, breakdown)
    if "replay" in only and finished is not None:
        def replay_step(d: Any) -> None:
            d.find_element(By.ID, "first").click()
            for _ in range(7):
                d.find_element(By.ID, "next").click()

        saved += shoot(d, out, "replay", f"{base}/replay/{finished['game']}", ready, langs,
                       sizes, replay_step)
    if "analysis" in only and finished is not None:
        def analysed(d: Any) -> None:
            # The quickest precision; the server keeps an analysis once computed.
            from selenium.webdriver.support.ui import Select

            until(d, lambda d: shown(d, "#coach-run"))
            Select(d.find_element(By.ID, "coach-samples")).select_by_value("1000")
            d.find_element(By.ID, "coach-run").click()
            until(d, lambda d: attr(d, "data-analysed") == "1", timeout=600)
            links = shown(d, "#coach-mistakes a")
            if links:
                links[0].click()
            # The position of the first mistake on the table, the expert's view under it.
            d.execute_script("document.getElementById('board').scrollIntoView()")

        saved += shoot(d, out, "analysis", f"{base}/replay/{finished['game']}", ready, langs,
                       sizes, analysed)
    if "touti" in only:
        g = post(base, "/api/games", {
            "game": "touti", "mode": "room", "name": "Amel",
            "computers": [None, "random", "random", "random"], "target": 600,
        })
        open_game(d, base, g, "touti")

        def in_play(d: Any) -> bool:
            return bool(d.find_elements(By.CSS_SELECTOR, ".touti-seat .slot .card")) and (
                attr(d, "data-my-turn") == "1")

        play_touti(d, in_play)
        saved += shoot(d, out, "touti", None, lambda d: attr(d, "data-ply") is not None,
                       langs, sizes)
    if "touti-replay" in only:
        g = post(base, "/api/games", {
            "game": "touti", "mode": "room", "name": "Amel",
            "computers": [None, "random", "random", "random"], "target": 600,
        })
        play_out(base, g["game"], g["token"])
        with urllib.request.urlopen(f"{base}/api/games/{g['game']}/replay", timeout=60) as r:
            frames = json.loads(r.read())["frames"]
        # A trick being played, trumps named, a few tricks already gathered.
        step = next((i for i, f in enumerate(frames)
                     if f["trump"] and len(f["trick"]) == 2 and sum(f["tricks"]) >= 3), 0)
        saved += shoot(d, out, "touti-replay", f"{base}/replay/{g['game']}", ready, langs,
                       sizes, lambda d: go_to_step(d, step))
    if "lobby" in only:
        # Last, so that its lists show the games being played and those finished.
        saved += shoot(d, out, "lobby", base + "/", ready, langs, sizes)
    if "account" in only:
        # Signed up in the browser, with two games of the account being played and a
        # passkey, made by Chromium's virtual authenticator: at localhost, as a passkey
        # needs a name (127.0.0.1 is none).
        base = base.replace("127.0.0.1", "localhost")
        d.get(base + "/account")
        until(d, ready)
        d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const post = (path, body) => fetch(path, {method: "POST", body: JSON.stringify(body),
                headers: {"Content-Type": "application/json"}}).then((r) => r.json());
            post("/api/account/signup", {name: "Amel", password: "a long password"})
              .then(() => post("/api/games", {rules: "scopa", level: "random", target: 11}))
              .then(() => post("/api/games", {rules: "chkobba", level: "random"}))
              .then(done);
        """)
        add_passkey(d, base)
        saved += shoot(d, out, "account", base + "/account",
                       lambda d: attr(d, "data-signed-in") == "1", langs, sizes)
        base = base.replace("localhost", "127.0.0.1")
    if only & {"leaderboard", "profile"}:
        # Rated Scopa games between four accounts, played by computer players of four
        # levels (docs/ratings.md), so that the ratings differ and the charts have lines.
        people = {"Salma": "medium", "Marco": "easy", "Lucia": "random", "Youssef": "medium"}
        for name in people:
            post(base, "/api/account/signup", {"name": name, "password": "a long password"})
        for a, b in [("Salma", "Marco"), ("Lucia", "Youssef"), ("Salma", "Lucia"),
                     ("Marco", "Youssef"), ("Salma", "Youssef"), ("Marco", "Lucia")] * 2:
            code = post(base, "/api/bench/rated", {
                "pool": "scopa", "names": [a, b], "levels": [people[a], people[b]],
            })["game"]
            for _ in range(600):
                with urllib.request.urlopen(f"{base}/api/games/{code}", timeout=60) as r:
                    if json.loads(r.read())["status"] == "finished":
                        break
                time.sleep(0.1)
        if "leaderboard" in only:
            saved += shoot(d, out, "leaderboard", base + "/leaderboard?pool=scopa", ready,
                           langs, sizes)
        if "profile" in only:
            saved += shoot(d, out, "profile", base + "/u/Salma", ready, langs, sizes)
    if "chat" in only:
        # A room of two people who have said a few words: this browser holds seat 0.
        g = post(base, "/api/games", {"mode": "room", "seating": "2", "name": "Amel"})
        other = post(base, f"/api/games/{g['game']}/join", {"name": "Marco"})
        talk(base, g["game"], other["token"], [{"phrase": "good_luck"}])
        talk(base, g["game"], g["token"], [{"phrase": "good_luck"}, {"text": "On joue à 21 ?"}])
        talk(base, g["game"], other["token"], [{"text": "Oui, à 21 !"}, {"phrase": "again"}])
        open_game(d, base, g)

        def chat_shown(d: Any) -> None:
            d.execute_script("localStorage.setItem('chkobba.chat.open', '1')")
            d.refresh()
            until(d, lambda d: attr(d, "data-chat") == "on")
            d.execute_script("document.getElementById('chat').scrollIntoView({block: 'end'})")

        saved += shoot(d, out, "chat", None, in_game, langs, sizes, chat_shown)
    return saved


def talk(base: str, game: str, token: str, lines: list[dict[str, str]]) -> None:
    """Say ``lines`` (each a ``text`` or a ``phrase``) in a game's chat from a seat."""
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        for n, said in enumerate(lines):
            ws.send(json.dumps({"type": "chat", **said, "id": n}))
            while json.loads(ws.recv(timeout=30)).get("re") != n:
                pass


if __name__ == "__main__":
    main()
