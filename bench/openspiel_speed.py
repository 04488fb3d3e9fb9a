"""Decisions per CPU second of the OpenSpiel game ``chkobba`` beside OpenSpiel's own card games.

Plays whole games of ``chkobba`` (2 players, one round), ``hearts`` and ``skat``
(OpenSpiel's C++ games) by the same loop, in the same run, interleaved: at a
chance node a uniformly drawn outcome of ``chance_outcomes()``, at a decision a
uniformly drawn action of ``legal_actions()``; each ``apply_action`` of a player
is one decision (the chance nodes' time counts, their number does not). With
``--tensor`` each decision also reads the player's ``observation_tensor`` (what
an RL agent does). The rate is per second of this process's CPU time (other work
on the shared machine does not count against it, though a busy core still runs
slower); the median of several runs is printed with its range, the ratio to
``hearts`` and the load average at the start and the end. The goal (issue 29):
``chkobba`` at least half of ``hearts``.

    python bench/openspiel_speed.py [--seconds 3] [--runs 5] [--tensor] [--pure]

``--pure`` measures the game with the compiled kernel turned off (``CHKOBBA_PURE=1``
must be set before the import, so the script sets it and re-runs itself).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import pyspiel

import chkobba.rl.openspiel  # noqa: F401  # registers "chkobba"
from chkobba.search import fast


def run(game: pyspiel.Game, seconds: float, seed: int, tensor: bool) -> float:
    """Decisions per CPU second over at least ``seconds`` of CPU time (whole games)."""
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    end = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if tensor:
                state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        state.returns()
        now = time.process_time()
        if now >= end:
            return decisions / (now - start)


def main() -> None:
    """Measure and print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU time of one run")
    ap.add_argument("--runs", type=int, default=5, help="runs per game (median printed)")
    ap.add_argument("--tensor", action="store_true", help="read observation_tensor too")
    ap.add_argument("--pure", action="store_true", help="the game without the kernel")
    ap.add_argument("--preset", default="chkobba", help="the chkobba game's preset")
    args = ap.parse_args()
    if args.pure and os.environ.get("CHKOBBA_PURE") != "1":
        os.environ["CHKOBBA_PURE"] = "1"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    games = {
        f"chkobba ({args.preset})": pyspiel.load_game("chkobba", {"preset": args.preset}),
        "hearts": pyspiel.load_game("hearts"),
        "skat": pyspiel.load_game("skat"),
    }
    start_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    rates: dict[str, list[float]] = {name: [] for name in games}
    # Interleaved, so that a change of load touches every game alike.
    for i in range(args.runs):
        for name, game in games.items():
            rates[name].append(run(game, args.seconds, i, args.tensor))
    end_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    what = "decision + observation_tensor" if args.tensor else "decision"
    print(f"OpenSpiel random play, {what} per CPU second, median of {args.runs} runs of "
          f"{args.seconds}s (min, max); chkobba on {fast.BACKEND}; load average "
          f"{start_load} at the start, {end_load} at the end, {os.cpu_count()} cores")
    medians = {name: statistics.median(r) for name, r in rates.items()}
    for name, r in rates.items():
        print(f"{name:20s} {medians[name]:10,.0f}  ({min(r):,.0f}, {max(r):,.0f})")
    ours = next(iter(medians))
    print(f"{ours} / hearts: {medians[ours] / medians['hearts']:.2f}x; "
          f"/ skat: {medians[ours] / medians['skat']:.2f}x")


if __name__ == "__main__":
    main()
