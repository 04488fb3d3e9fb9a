"""Environment steps per second with random legal actions (``chkobba_v1``).

Plays episodes of the PettingZoo environment (``raw_env``, and ``env()`` with its
wrappers) and of the Gymnasium wrapper against ``random``, choosing uniformly
among the actions of each mask, on one core, and prints the median of several
runs. Beside them, in the same run and by the same loop, PettingZoo's own
``leduc_holdem_v4`` and ``connect_four_v3`` (``env()``), and the ratios. One step
is one ``step(action)`` call (the ``last()``/``observe`` that precedes it
included). The rate is per second of this process's CPU time, so that other work
on a shared machine does not count against it (a busy core still runs slower:
caches are shared); the load average is printed with the figures. The goals
(issue 17): 30,000 steps/s for ``raw_env`` and 25,000 for ``env()``, 2 players.

    python bench/rl_env.py [--seconds 3] [--runs 5]

PettingZoo's classic games need ``pygame``, and ``leduc_holdem_v4`` ``rlcard`` too
(``pip install -e '.[bench]'``); a game that cannot load is reported and skipped.
"""

from __future__ import annotations

import argparse
import importlib
import os
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


def pettingzoo_game(module: str) -> Callable[[], object] | None:
    """PettingZoo's classic game ``module`` (its ``env()``), or None if it cannot load."""
    try:
        return importlib.import_module(f"pettingzoo.classic.{module}").env  # type: ignore[no-any-return]
    except Exception as e:  # a missing dependency (rlcard for leduc_holdem)
        print(f"{module}: not measured ({type(e).__name__}: {e})")
        return None


def main() -> None:
    """Measure and print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of one run")
    ap.add_argument("--runs", type=int, default=5, help="runs per figure (median printed)")
    args = ap.parse_args()
    leduc = pettingzoo_game("leduc_holdem_v4")
    connect_four = pettingzoo_game("connect_four_v3")
    cases: list[tuple[str, Callable[[int], Rate]]] = [
        ("raw_env, 2 players", lambda s: aec_run(lambda: raw_env(), args.seconds, s)),
        ("env (wrapped), 2 players", lambda s: aec_run(lambda: env(), args.seconds, s)),
        ("raw_env, 4 players 2v2", lambda s: aec_run(lambda: raw_env(seats=4, teams=True),
                                                      args.seconds, s)),
        ("raw_env, escoba 2 players", lambda s: aec_run(lambda: raw_env("escoba"),
                                                         args.seconds, s)),
        ("gym vs random, 2 players (learner steps)", lambda s: gym_run(args.seconds, s, 2)),
    ]
    if leduc is not None:
        cases.append(("pettingzoo leduc_holdem_v4 env()",
                      lambda s: aec_run(leduc, args.seconds, s)))
    if connect_four is not None:
        cases.append(("pettingzoo connect_four_v3 env()",
                      lambda s: aec_run(connect_four, args.seconds, s)))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"chkobba_v1 steps/s, random legal actions, median of {args.runs} runs of "
          f"{args.seconds}s CPU time: per CPU second (min, max) and per wall-clock second; "
          f"load average {load} on {os.cpu_count()} cores")
    medians: dict[str, float] = {}
    # Runs interleaved across the cases, so that a change of load touches them alike.
    results: dict[str, list[Rate]] = {name: [] for name, _ in cases}
    for i in range(args.runs):
        for name, run in cases:
            results[name].append(run(i))
    for name, _ in cases:
        cpu = [c for c, _ in results[name]]
        wall = [w for _, w in results[name]]
        medians[name] = statistics.median(cpu)
        print(f"{name:44s} {medians[name]:10,.0f}  "
              f"({min(cpu):,.0f}, {max(cpu):,.0f})  wall {statistics.median(wall):,.0f}")
    for ours in ("raw_env, 2 players", "env (wrapped), 2 players"):
        for theirs in ("pettingzoo leduc_holdem_v4 env()", "pettingzoo connect_four_v3 env()"):
            if theirs in medians:
                print(f"{ours} / {theirs.split()[1]}: {medians[ours] / medians[theirs]:.2f}x")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at the end: {load}")


if __name__ == "__main__":
    main()
