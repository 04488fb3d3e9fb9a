"""Do the ratings find the players' order? Computer players of known strength play rated
games against each other through the real server, and their ratings are read back.

Starts one ``chkobba serve`` on 127.0.0.1 (SQLite in a temporary directory, the computer
moving at once, ``--bench-seats``), signs up one account per level, and has the server
play rated games of one pool between them: each game's seats are the accounts', played by
the computer at the account's level (``POST /api/bench/rated``, which only a server
started with the hidden ``--bench-seats`` answers). A game is rated when it ends, by the
same code as any rated game (the end and the ratings' update in one transaction). The
pairs are made as a play-now queue would: the free player with the fewest games against
the free player nearest in rating (``--pairing round-robin``: every pair in turn, in a
shuffled order), until every player has played ``--games``; ``--parallel`` games are
played at a time.

Printed: the machine's load (start and end), the final leaderboard (rating ± 2 sigma,
mu, sigma, games, wins), whether its order is the duel ladder of docs/variants.md
(random < easy < medium < hard < expert), after how many games per player the order by
mu was the ladder's for good ("settled"), and after how many games each rating stopped
being provisional. The server is stopped at the end.

    .venv/bin/python bench/ratings_order.py                      # Chkobba, 30 games each
    .venv/bin/python bench/ratings_order.py --pool scopa --pairing round-robin
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

LADDER = ["random", "easy", "medium", "hard", "expert"]
"""The duel ladder of docs/variants.md, weakest first."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(base: str, path: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON request to the server; its JSON answer."""
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(base + path, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return dict(json.loads(r.read()))


def start(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``chkobba serve`` on a free port; the process and its base URL once it answers."""
    port = free_port()
    cmd = [
        sys.executable, "-c", "from chkobba.cli import main; main()", "serve",
        "--port", str(port), "--db", f"sqlite:///{folder / 'bench.db'}",
        "--bot-delay", "0", "--rate", "10000", "--log-level", "warning", "--bench-seats",
    ]
    log = open(folder / "server.log", "ab")  # noqa: SIM115 (kept open for the server's life)
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {(folder / 'server.log').read_text()}")
        try:
            call(base, "/healthz")
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not answer in 60 s")


def schedule(players: list[str], games: int, rng: random.Random) -> list[tuple[str, str]]:
    """Pairs, round-robin in shuffled rounds, until each player has ``games`` (or no pair
    of players who both need more is left); who sits first alternates."""
    played = dict.fromkeys(players, 0)
    out: list[tuple[str, str]] = []
    flip = False
    while True:
        pairs = list(itertools.combinations(players, 2))
        rng.shuffle(pairs)
        added = False
        for a, b in pairs:
            if played[a] < games and played[b] < games:
                out.append((b, a) if flip else (a, b))
                flip = not flip
                played[a] += 1
                played[b] += 1
                added = True
        if not added:
            return out


def nearest(
    base: str, pool: str, players: list[str], played: dict[str, int], busy: set[str],
    games: int, rng: random.Random,
) -> tuple[str, str] | None:
    """The next pair as a play-now queue would make it: the free player with the fewest
    games, against the free player closest to them in mu (one who still needs games if
    any does); None if fewer than two are free or nobody needs a game."""
    free = [p for p in players if p not in busy]
    needing = [p for p in free if played[p] < games]
    if len(free) < 2 or not needing:
        return None
    board = call(base, f"/api/leaderboard?pool={pool}&limit=100")["players"]
    mu = {p: 25.0 for p in players} | {p["name"]: p["mu"] for p in board}
    rng.shuffle(needing)
    first = min(needing, key=lambda p: played[p])
    others = [p for p in free if p != first]
    wanting = [p for p in others if played[p] < games] or others
    second = min(wanting, key=lambda p: (abs(mu[p] - mu[first]), rng.random()))
    return (first, second) if rng.random() < 0.5 else (second, first)


def play(base: str, pool: str, pair: tuple[str, str], levels: dict[str, str]) -> str:
    """One rated game between two accounts, played by their levels; its code once over."""
    code = str(call(base, "/api/bench/rated", {
        "pool": pool, "names": list(pair), "levels": [levels[n] for n in pair],
    })["game"])
    while call(base, f"/api/games/{code}")["status"] != "finished":
        time.sleep(0.2)
    return code


def run(
    base: str, args: argparse.Namespace, order: list[str], names: dict[str, str],
    rng: random.Random, started: float,
) -> list[tuple[str, str]]:
    """Play every game (``--parallel`` at a time); the pairs played, in order."""
    planned = schedule(order, args.games, rng) if args.pairing == "round-robin" else None
    played = dict.fromkeys(order, 0)
    busy: set[str] = set()
    pairs: list[tuple[str, str]] = []
    running: dict[Future[str], tuple[str, str]] = {}
    with ThreadPoolExecutor(args.parallel) as pool:
        while True:
            while len(running) < args.parallel:
                if planned is not None:
                    pair = planned.pop(0) if planned else None
                else:
                    pair = nearest(base, args.pool, order, played, busy, args.games, rng)
                if pair is None:
                    break
                busy |= set(pair)
                for p in pair:
                    played[p] += 1
                pairs.append(pair)
                running[pool.submit(play, base, args.pool, pair, names)] = pair
            if not running:
                return pairs
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                f.result()
                busy -= set(running.pop(f))
                finished = len(pairs) - len(running)
                if finished % 10 == 0:
                    print(f"  {finished} games, {time.monotonic() - started:.0f} s", flush=True)


def settled_at(order: list[str], points: dict[str, list[dict[str, Any]]]) -> tuple[int, bool]:
    """After how many rated games per player (on average) the order by mu was ``order``
    for good, replaying every game's update in the order they ended; and whether it is
    ``order`` at the end."""
    games: dict[str, list[tuple[str, str, float]]] = {}
    for name, ps in points.items():
        for p in ps:
            games.setdefault(p["game"], []).append((p["at"], name, p["rating"]))
    mu = dict.fromkeys(order, 0.0)
    last_wrong = 0
    right = False
    ended = sorted(games.values(), key=lambda updates: min(u[0] for u in updates))
    for i, updates in enumerate(ended, 1):
        for _, name, value in updates:
            mu[name] = value
        right = sorted(order, key=lambda n: mu[n]) == order
        if not right:
            last_wrong = i
    # Each game counts for its two players.
    return round(2 * last_wrong / len(order)), right


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pool", default="chkobba", help="the rating pool (a duel's)")
    ap.add_argument("--games", type=int, default=30, help="rated games per player")
    ap.add_argument("--levels", default=",".join(LADDER), help="the levels, weakest first")
    ap.add_argument("--parallel", type=int, default=2, help="games played at a time")
    ap.add_argument("--seed", type=int, default=1, help="the pairs' shuffle")
    ap.add_argument("--pairing", choices=["nearest", "round-robin"], default="nearest",
                    help="pair by nearest rating (default) or round-robin")
    args = ap.parse_args()
    levels = args.levels.split(",")
    names = {f"bot_{lv}": lv for lv in levels}
    order = list(names)
    print(f"load at start (1, 5, 15 min): {os.getloadavg()}  cores: {os.cpu_count()}")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start(Path(tmp))
        try:
            pools = call(base, "/api/pools")
            threshold = pools["provisional_sigma"]
            for name in names:
                call(base, "/api/account/signup", {"name": name, "password": "bench password"})
            rng = random.Random(args.seed)
            print(f"rated games of {args.pool} between {', '.join(levels)} until each has "
                  f"played {args.games}, {args.parallel} at a time, pairs "
                  + ("round-robin" if args.pairing == "round-robin"
                     else "by nearest rating (as a play-now queue pairs people)"))
            pairs = run(base, args, order, names, rng, started)
            board = call(base, f"/api/leaderboard?pool={args.pool}&limit=100")["players"]
            profiles = {n: call(base, f"/api/users/{n}") for n in names}
        finally:
            proc.terminate()
            proc.wait(30)
            failed = (Path(tmp) / "server.log").read_text(errors="replace").count("player failed")
    if failed:
        print(f"warning: the server's log says a computer player failed {failed} time(s) "
              "(it then plays at random)")
    elapsed = time.monotonic() - started
    print(f"\nfinal leaderboard of {args.pool} (rating ± 2 sigma; provisional while sigma > "
          f"{threshold:g}):")
    print(f"{'place':>5}  {'player':<12} {'level':<8} {'rating':>12} {'mu':>7} {'sigma':>6}"
          f" {'games':>5} {'wins':>5}")
    for p in board:
        shown = f"{p['rating']} ± {p['plus_minus']}"
        print(f"{p['place']:>5}  {p['name']:<12} {names[p['name']]:<8} {shown:>12} "
              f"{p['mu']:>7.2f} {p['sigma']:>6.2f} {p['games']:>5} {p['wins']:>5}")
    by_mu = [p["name"] for p in sorted(board, key=lambda p: p["mu"])]
    matches = by_mu == order
    print(f"\norder by mu, weakest first: {' < '.join(names[n] for n in by_mu)}")
    print(f"matches the duel ladder ({' < '.join(levels)}): {'yes' if matches else 'no'}")
    points = {
        n: [{"at": h["at"], "game": h["game"], "rating": h["rating"]} for h in prof["history"]]
        for n, prof in profiles.items()
    }
    at, right = settled_at(order, points)
    if right:
        print(f"the order was the ladder's for good after about {at} games per player")
    else:
        print("the order was not the ladder's at the end")
    print("games until no longer provisional:")
    for n, prof in profiles.items():
        first = next((i for i, h in enumerate(prof["history"], 1) if not h["provisional"]), None)
        print(f"  {names[n]:<8} {first if first is not None else 'still provisional'}")
    print(f"\n{len(pairs)} games in {elapsed:.0f} s; load at end (1, 5, 15 min): "
          f"{os.getloadavg()}")


if __name__ == "__main__":
    main()
