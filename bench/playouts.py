"""The fast path's speed: random 2-player rounds per second, and the expert's samples per second.

Random rounds (``chkobba.fast.random_rounds``): dealer 0, a random cut decision,
void deals redealt, every play drawn uniformly among the legal plays generated
for it, the round scored in full. Timed on one core through the fast path (the
C kernel when it is built) and through the pure engine in the same run; each
figure is the median of several timed batches.

Expert samples (``chkobba.fast.evaluate``): one sample deals the hidden cards
at random, plays every legal move in it and finishes the round with the
playout policy (or the exact solver at the end), over a set of seeded
positions from 2-player rounds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from chkobba import fast
from chkobba.match import Match
from chkobba.observe import Observation, observe


def rounds_per_second(
    play: Callable[[int, int], int], rounds: int, batches: int, seed: int
) -> tuple[float, float]:
    """Median rounds per second over ``batches`` timed batches: wall clock, then CPU time."""
    wall: list[float] = []
    cpu: list[float] = []
    for b in range(batches):
        start, start_cpu = time.perf_counter(), time.process_time()
        plays = play(rounds, seed + b)
        wall.append(rounds / (time.perf_counter() - start))
        cpu.append(rounds / max(time.process_time() - start_cpu, 1e-9))
        if plays != 36 * rounds:
            raise SystemExit(f"checksum: {plays} plays in {rounds} rounds, expected 36 a round")
    return statistics.median(wall), statistics.median(cpu)


def positions(count: int, seed: int) -> list[Observation]:
    """Observations of the seat to move at random points of seeded 2-player rounds."""
    rng = random.Random(seed)
    out: list[Observation] = []
    while len(out) < count:
        m = Match(seed=rng.randrange(1 << 30))
        stop = rng.randrange(36)
        for _ in range(stop + 1):  # the cut decision, then `stop` plays
            m.apply_unchecked(rng.choice(m.legal_moves()))
        obs = observe(m, m.turn)
        if not m.round.is_over and len(obs.legal_moves) > 1:
            out.append(obs)
    return out


def samples_per_second(
    evaluate: Callable[[Observation, int, int], list[float]],
    obs_list: list[Observation],
    samples: int,
) -> tuple[float, float]:
    """Samples per second over the positions, and root-move playouts per second."""
    start = time.perf_counter()
    playouts = 0
    for i, obs in enumerate(obs_list):
        evaluate(obs, samples, i)
        playouts += samples * len(obs.legal_moves)
    elapsed = time.perf_counter() - start
    return samples * len(obs_list) / elapsed, playouts / elapsed


def main() -> None:
    """Run the measurements and print them."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=100_000, help="rounds per fast batch")
    ap.add_argument("--pure-rounds", type=int, default=1_000, help="rounds per pure batch")
    ap.add_argument("--batches", type=int, default=7)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--samples", type=int, default=500, help="evaluate samples per position")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    print(f"fast path: {fast.BACKEND}")
    fast_wall, fast_cpu = rounds_per_second(
        fast.random_rounds, args.rounds, args.batches, args.seed
    )
    pure_wall, pure_cpu = rounds_per_second(
        fast.py_random_rounds, args.pure_rounds, max(3, args.batches // 2), args.seed
    )
    print(
        f"random 2-player rounds/s, one core, median of {args.batches} batches:\n"
        f"  fast path  {fast_wall:>11,.0f}   (CPU time: {fast_cpu:,.0f})\n"
        f"  pure       {pure_wall:>11,.0f}   (CPU time: {pure_cpu:,.0f})\n"
        f"  ratio      {fast_wall / pure_wall:>11,.0f}x  (CPU time: {fast_cpu / pure_cpu:,.0f}x)"
    )

    obs_list = positions(args.positions, args.seed)
    pure_obs = obs_list[: max(1, len(obs_list) // 8)]
    pure_samples = max(1, args.samples // 25)
    f_rate, f_playouts = samples_per_second(fast.evaluate, obs_list, args.samples)
    p_rate, p_playouts = samples_per_second(fast.py_evaluate, pure_obs, pure_samples)
    print(
        f"evaluate() samples/s over {len(obs_list)} positions (root-move playouts/s):\n"
        f"  fast path  {f_rate:>11,.0f}   ({f_playouts:,.0f})\n"
        f"  pure       {p_rate:>11,.0f}   ({p_playouts:,.0f})\n"
        f"  ratio      {f_rate / p_rate:>11,.0f}x"
    )


if __name__ == "__main__":
    main()
