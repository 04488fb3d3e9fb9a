"""Environment steps per second with random legal actions (``chkobba_v1``).

Plays episodes of the PettingZoo environment (raw, and with PettingZoo's
wrappers) and of the Gymnasium wrapper against ``random``, choosing uniformly
among the actions of each mask, on one core, and prints the median of several
runs. One step is one ``step(action)`` call (the ``last()``/``observe`` that
precedes it included). The rate is per second of this process's CPU time, so that
other work on a shared machine does not count against it (a busy core still runs
slower: caches are shared). The issue's goal: 20,000 steps/s for 2 players.

    python bench/rl_env.py [--seconds 3] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from chkobba.rl.aec import env, raw_env
from chkobba.rl.gym import ChkobbaGymEnv

Rate = tuple[float, float]
"""Steps per CPU second, steps per wall-clock second."""


def aec_run(make: Callable[[], object], seconds: float, seed: int) -> Rate:
    """Steps per second of an AEC environment over ``seconds`` of CPU time."""
    e = make()
    rng = random.Random(seed)
    steps = 0
    e.reset(seed=seed)  # type: ignore[attr-defined]
    start = time.process_time()
    wall = time.perf_counter()
    end = start + seconds
    while True:
        for _agent in e.agent_iter():  # type: ignore[attr-defined]
            obs, _rew, term, trunc, _info = e.last()  # type: ignore[attr-defined]
            if term or trunc:
                e.step(None)  # type: ignore[attr-defined]
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))  # type: ignore[attr-defined]
            steps += 1
        if time.process_time() >= end:
            break
        e.reset()  # type: ignore[attr-defined]
    return steps / (time.process_time() - start), steps / (time.perf_counter() - wall)


def gym_run(seconds: float, seed: int, seats: int) -> Rate:
    """Steps per second of the Gymnasium wrapper (the learner's steps only)."""
    e = ChkobbaGymEnv(opponent="random", seats=seats)
    rng = random.Random(seed)
    steps = 0
    e.reset(seed=seed)
    start = time.process_time()
    wall = time.perf_counter()
    end = start + seconds
    done = False
    while True:
        legal = np.flatnonzero(e.action_masks())
        _obs, _r, done, _t, _i = e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if done:
            if time.process_time() >= end:
                break
            e.reset()
    return steps / (time.process_time() - start), steps / (time.perf_counter() - wall)


def main() -> None:
    """Measure and print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of one run")
    ap.add_argument("--runs", type=int, default=5, help="runs per figure (median printed)")
    args = ap.parse_args()
    cases: list[tuple[str, Callable[[int], Rate]]] = [
        ("raw_env, 2 players", lambda s: aec_run(lambda: raw_env(), args.seconds, s)),
        ("env (wrapped), 2 players", lambda s: aec_run(lambda: env(), args.seconds, s)),
        ("raw_env, 4 players 2v2", lambda s: aec_run(lambda: raw_env(seats=4, teams=True),
                                                      args.seconds, s)),
        ("raw_env, escoba 2 players", lambda s: aec_run(lambda: raw_env("escoba"),
                                                         args.seconds, s)),
        ("gym vs random, 2 players (learner steps)", lambda s: gym_run(args.seconds, s, 2)),
    ]
    print(f"chkobba_v1 steps/s, random legal actions, median of {args.runs} runs of "
          f"{args.seconds}s CPU time: per CPU second (min, max) and per wall-clock second")
    for name, run in cases:
        rates = [run(i) for i in range(args.runs)]
        cpu = [c for c, _ in rates]
        wall = [w for _, w in rates]
        print(f"{name:44s} {statistics.median(cpu):10,.0f}  "
              f"({min(cpu):,.0f}, {max(cpu):,.0f})  wall {statistics.median(wall):,.0f}")


if __name__ == "__main__":
    main()
