"""Steps per second of the batched environment (``chkobba.rl.vector.VecEnv``) by batch size.

For each N, steps N games of Chkobba (2 players; ``--rules``, ``--seats``,
``--teams`` choose another table) with a uniformly random legal action per game,
drawn in C from the masks (``VecEnv.sample_actions``), on one core, and prints
the steps per second: per CPU second of this process (other work on a shared
machine does not count against it; a busy core still runs slower, caches being
shared) and per wall-clock second, the median of several runs, and the share of
the time spent drawing the actions. One step is one game's action: a ``step``
call at N games is N steps. The load average is printed with the figures. The
goal (issue 17): 1,000,000 steps/s on one core at N = 1024.

    python bench/rl_vector.py [--sizes 1 16 64 256 1024 4096] [--seconds 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from chkobba.rl.vector import VecEnv


def run(n: int, rules: str, seats: int, teams: bool, seconds: float,
        seed: int) -> tuple[float, float, float]:
    """Steps per CPU second, per wall-clock second, and the share of the CPU time spent
    drawing the actions, over ``seconds`` of CPU time."""
    vec = VecEnv(n, rules, seats, teams)
    vec.reset(seed=seed)
    actions = np.empty(n, np.int64)
    calls = 0
    sampling = 0.0
    start = time.process_time()
    wall = time.perf_counter()
    end = start + seconds
    now = start
    while now < end:
        for _ in range(10):
            t = time.process_time()
            vec.sample_actions(actions)
            sampling += time.process_time() - t
            vec.step(actions)
        calls += 10
        now = time.process_time()
    cpu = now - start
    return calls * n / cpu, calls * n / (time.perf_counter() - wall), sampling / cpu


def main() -> None:
    """Measure and print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 16, 64, 256, 1024, 4096])
    ap.add_argument("--rules", default="chkobba")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--teams", action="store_true")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU time of one run")
    ap.add_argument("--runs", type=int, default=3, help="runs per size (median printed)")
    args = ap.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"VecEnv steps/s, {args.rules}, {args.seats} players{' (2v2)' if args.teams else ''}, "
          f"random legal actions drawn in C; median of {args.runs} runs of {args.seconds}s CPU "
          f"time; load average {load} on {os.cpu_count()} cores")
    print(f"{'N':>6} {'steps/CPU s':>14} {'(min, max)':>26} {'steps/wall s':>14} "
          f"{'drawing actions':>16}")
    for n in args.sizes:
        results = [run(n, args.rules, args.seats, args.teams, args.seconds, seed)
                   for seed in range(args.runs)]
        cpu = [c for c, _, _ in results]
        wall = [w for _, w, _ in results]
        share = statistics.median(s for _, _, s in results)
        print(f"{n:>6} {statistics.median(cpu):>14,.0f} "
              f"{f'({min(cpu):,.0f}, {max(cpu):,.0f})':>26} "
              f"{statistics.median(wall):>14,.0f} {share:>15.1%}", flush=True)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at the end: {load}")


if __name__ == "__main__":
    main()
