"""How long does the web hub take for each move of an outside engine, and how many engine
processes does a game start? (``chkobba serve --player engine:COMMAND``)

Plays ``--games`` games of Chkobba to ``--target`` against
``examples/engines/greedy_engine.py`` through the hub itself (a SQLite database in a
temporary directory, no HTTP, the computer moving at once), the person's seat always
playing its first legal move. Every computer move goes through ``Hub._choose``: its
wall-clock time is measured, and the engine processes started are counted.

Printed: the machine's load, the engine moves measured, their mean, median, p90 and
maximum time in milliseconds, and the processes started per game.

    .venv/bin/python bench/web_engine_moves.py --games 3
    PYTHONPATH=/tmp/old/src .venv/bin/python bench/web_engine_moves.py   # older code
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import chkobba
from chkobba.agents import engine as engine_module
from chkobba.agents.base import offer
from chkobba.store import Store
from chkobba.web.chat import TableChat
from chkobba.web.hub import Hub, Settings

ROOT = Path(__file__).resolve().parent.parent
GREEDY = ROOT / "examples" / "engines" / "greedy_engine.py"


async def play(games: int, target: int) -> tuple[list[float], list[int]]:
    """Play the games; the time of each engine move (ms) and the processes per game."""
    alias = offer("engine:" + shlex.join([sys.executable, str(GREEDY)]))
    started = [0]
    real_init = engine_module.EngineProcess.__init__

    def counting_init(self: Any, command: tuple[str, ...]) -> None:
        started[0] += 1
        real_init(self, command)

    engine_module.EngineProcess.__init__ = counting_init  # type: ignore[method-assign]
    times: list[float] = []
    per_game: list[int] = []
    with tempfile.TemporaryDirectory(prefix="chkobba-bench-") as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        hub = Hub(store, TableChat, Settings(bot_delay=0))
        real_choose = hub._choose

        async def timed_choose(room: Any, level: str, seat: int) -> str:
            t0 = time.perf_counter()
            move = await real_choose(room, level, seat)
            times.append((time.perf_counter() - t0) * 1000)
            return move

        hub._choose = timed_choose  # type: ignore[method-assign]
        await hub.start()
        try:
            for _ in range(games):
                before = started[0]
                room, _token = await hub.create_game(
                    "computer", 2, False, target, alias, "bench"
                )
                t = room.table
                while room.status != "finished":
                    if t.turn == 0 and room.bots is None and t.automatic() is None:
                        async with room.lock:
                            if t.turn == 0 and not t.is_over:
                                move = str(t.observe(0).legal_moves[0])
                                await hub.commit(room, 0, move)
                    else:
                        await asyncio.sleep(0.0005)
                # Let the game's end reach the engine before counting.
                await asyncio.sleep(0.05)
                per_game.append(started[0] - before)
        finally:
            await hub.stop()
            store.close()
    return times, per_game


def main() -> None:
    """Run the games and print what was measured."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--target", type=int, default=11)
    args = parser.parse_args()
    load = os.getloadavg()
    times, per_game = asyncio.run(play(args.games, args.target))
    times.sort()
    print(f"code: {Path(chkobba.__file__).parent}")
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores)")
    print(f"games: {args.games} to {args.target}; engine moves measured: {len(times)}")
    print(
        f"time per engine move: mean {statistics.fmean(times):.1f} ms, "
        f"median {statistics.median(times):.1f} ms, "
        f"p90 {times[int(0.9 * (len(times) - 1))]:.1f} ms, max {times[-1]:.1f} ms"
    )
    print(f"engine processes started per game: {per_game}")


if __name__ == "__main__":
    main()
