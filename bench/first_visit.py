"""A first visit to the web app, measured in headless Chromium: from the lobby's click on
"Start" to the first card drawn, and the bytes the visit downloads (compressed).

    python bench/first_visit.py [--runs 5] [--rules chkobba] [--level random]

Starts ``chkobba serve`` on 127.0.0.1 with a temporary database (the computer moving at
once); then, ``--runs`` times, a new browser with an empty cache opens the lobby, picks
the game and level, and clicks "Start". The time is taken in the page (``Date.now()`` at
the click, and at the first animation frame where a card is drawn, its picture loaded,
on the game page); the bytes are Chromium's own count of what went over the wire
(the DevTools performance log: ``Network.loadingFinished``'s ``encodedDataLength``,
headers included, and the WebSocket's messages). The service worker's copies, fetched in
the background once the lobby has loaded, are not in the page's log: they are counted
apart, as the compressed size of every file the worker lists. Prints each run, the
medians, the goals (under 500 ms and under 500 KB) and the machine's load before and
after. Needs Debian's ``chromium`` and ``chromium-driver``; uses no network but 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from screenshots import attr, server, until

GOAL_MS = 500
GOAL_KB = 500

WATCH = """
(() => {
  // The click on Start, in the lobby; the first card's face drawn, on the game page.
  document.addEventListener("click", (e) => {
    if (e.target && e.target.id === "c-start") {
      sessionStorage.setItem("bench.click", String(Date.now()));
    }
  }, true);
  if (!location.pathname.startsWith("/g/")) return;
  const look = () => {
    // Any card's picture, its face or its back (a game of Chkobba may begin with the cut).
    const drawn = [...document.querySelectorAll("main img.face")]
      .some((i) => i.complete && i.naturalWidth > 0);
    if (drawn) {
      sessionStorage.setItem("bench.card", String(Date.now()));
      sessionStorage.setItem("bench.page", String(Math.round(performance.timeOrigin)));
    }
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();
"""
"""Run in every page before its own scripts."""

WORKER_CARDS: set[str] = set()
"""The card images a service worker answered in this visit (counted once)."""


def browser() -> Any:
    """A headless Chromium with an empty profile (nothing cached) and the performance log."""
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if chromium is None or not Path(driver).exists():
        raise SystemExit("headless Chromium is needed: apt-get install chromium chromium-driver")
    opts = webdriver.ChromeOptions()
    for arg in (
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tempfile.mkdtemp(prefix='chkobba-first-visit-')}",
        "--window-size=390,844",
    ):
        opts.add_argument(arg)
    opts.binary_location = chromium
    opts.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    d = webdriver.Chrome(service=Service(driver), options=opts)
    d.execute_cdp_cmd("Network.enable", {})
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
    return d


def compressed_size(url: str) -> int:
    """The size of ``url``'s answer, gzip-compressed as the server sends it."""
    req = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return len(r.read())


def wire_bytes(d: Any, base: str) -> tuple[int, int]:
    """The bytes received from the server at ``base`` since the last call (HTTP answers,
    headers included, and WebSocket messages), and the number of HTTP answers (the
    browser's own pages, its new tab's, are not counted). A card image the service
    worker answered was fetched by the worker, out of the page's log: its compressed
    size is counted (at most once per address; it may have come from the HTTP cache)."""
    total = answers = 0
    urls: dict[str, str] = {}
    for entry in d.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls[msg["params"]["requestId"]] = msg["params"]["request"]["url"]
        elif msg["method"] == "Network.responseReceived":
            url = msg["params"]["response"]["url"]
            if msg["params"]["response"].get("fromServiceWorker") and url.startswith(
                base + "/cards/"
            ) and url not in WORKER_CARDS:
                WORKER_CARDS.add(url)
                total += compressed_size(url)
        elif msg["method"] == "Network.loadingFinished":
            if urls.get(msg["params"]["requestId"], "").startswith(base):
                total += int(msg["params"]["encodedDataLength"])
                answers += 1
        elif msg["method"] == "Network.webSocketFrameReceived":
            total += len(msg["params"]["response"]["payloadData"].encode())
    return total, answers


def worker_bytes(base: str) -> tuple[int, int]:
    """The compressed size of every file the service worker keeps, and their number."""
    with urllib.request.urlopen(base + "/sw.js", timeout=30) as r:
        text = r.read().decode()
    found = re.search(r"const FILES = (\[.*?\]);", text, re.S)
    assert found, "no file list in /sw.js"
    files = json.loads(found.group(1))
    return sum(compressed_size(base + url) for url in files), len(files)


def one_visit(base: str, rules: str, level: str) -> dict[str, float]:
    """One first visit: the lobby, a click on Start, the first card."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser()
    WORKER_CARDS.clear()
    try:
        d.get(base + "/")
        until(d, lambda d: attr(d, "data-ready") == "1")
        lobby, lobby_answers = wire_bytes(d, base)
        Select(d.find_element(By.ID, "c-rules")).select_by_value(rules)
        Select(d.find_element(By.ID, "c-level")).select_by_value(level)
        d.find_element(By.ID, "c-start").click()
        until(d, lambda d: d.execute_script("return sessionStorage.getItem('bench.card')"))
        click, page, card = (
            int(d.execute_script(f"return sessionStorage.getItem('bench.{k}')"))
            for k in ("click", "page", "card")
        )
        game, game_answers = wire_bytes(d, base)
        return {"ms": card - click, "to_page": page - click, "lobby": lobby, "game": game,
                "answers": lobby_answers + game_answers}
    finally:
        d.quit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="first visits to measure (the median)")
    ap.add_argument("--rules", default="chkobba", help="the game picked in the lobby")
    ap.add_argument("--level", default="random", help="the computer's level")
    args = ap.parse_args()
    cores = os.cpu_count()
    before = os.getloadavg()
    runs = []
    with tempfile.TemporaryDirectory(prefix="chkobba-first-visit-db-") as tmp, \
            server(Path(tmp)) as base:
        cached, files = worker_bytes(base)
        for i in range(args.runs):
            r = one_visit(base, args.rules, args.level)
            runs.append(r)
            print(f"run {i + 1}: click to first card {r['ms']:.0f} ms (the game page began "
                  f"{r['to_page']:.0f} ms after the click); downloaded: lobby "
                  f"{r['lobby'] / 1024:.1f} KB, game page {r['game'] / 1024:.1f} KB "
                  f"({r['answers']:.0f} answers)")
            time.sleep(0.5)
    after = os.getloadavg()
    ms = statistics.median(r["ms"] for r in runs)
    page = statistics.median(r["lobby"] + r["game"] for r in runs)
    print(f"game {args.rules}, computer level {args.level}, {args.runs} first visits, "
          f"each in a new browser with an empty cache")
    print(f"median click to first card: {ms:.0f} ms (goal under {GOAL_MS} ms: "
          f"{'met' if ms < GOAL_MS else 'NOT met'})")
    to_page = statistics.median(r["to_page"] for r in runs)
    print(f"  of which the game's creation and the way to its page: {to_page:.0f} ms; the "
          f"game page, from its start to the first card: "
          f"{statistics.median(r['ms'] - r['to_page'] for r in runs):.0f} ms")
    print(f"median bytes the pages downloaded, compressed: {page / 1024:.1f} KB")
    print(f"the service worker's copies, fetched in the background: {cached / 1024:.1f} KB "
          f"({files} files)")
    total = page + cached
    print(f"first visit in all: {total / 1024:.1f} KB (goal under {GOAL_KB} KB: "
          f"{'met' if total < GOAL_KB * 1024 else 'NOT met'})")
    print(f"load average before {before[0]:.2f}, after {after[0]:.2f}, on {cores} cores")


if __name__ == "__main__":
    main()
