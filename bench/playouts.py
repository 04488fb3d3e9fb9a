"""The fast path's speed: random rounds per second of every preset, and the expert's samples
per second.

Random rounds (``chkobba.search.fast.random_rounds``): dealer 0, a random cut decision
where the rules have one, void deals redealt, every play drawn uniformly among the
legal plays generated for it, the round scored in full; each preset at its first
table (2 players, or 2 against 2 for the Scopone games). Timed on one core through
the fast path (the C kernel when it is built) and through the pure engine in the
same run; each figure is the median of several timed batches.

Expert samples (``chkobba.search.fast.evaluate``): one sample deals the hidden cards
at random, plays every legal move in it and finishes the round with the
playout policy (or the exact solver at the end), over a set of seeded
positions from 2-player rounds.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable

from chkobba.fishing.match import Match
from chkobba.fishing.observe import Observation, observe
from chkobba.fishing.rules import PRESETS, RuleSet
from chkobba.search import fast


def rounds_per_second(
    play: Callable[[int, int], int], rounds: int, batches: int, seed: int, per_round: int
) -> tuple[float, float]:
    """Median rounds per second over ``batches`` timed batches: wall clock, then CPU time."""
    wall: list[float] = []
    cpu: list[float] = []
    for b in range(batches):
        start, start_cpu = time.perf_counter(), time.process_time()
        plays = play(rounds, seed + b)
        wall.append(rounds / (time.perf_counter() - start))
        cpu.append(rounds / max(time.process_time() - start_cpu, 1e-9))
        if plays != per_round * rounds:
            raise SystemExit(
                f"checksum: {plays} plays in {rounds} rounds, expected {per_round} a round"
            )
    return statistics.median(wall), statistics.median(cpu)


def first_table(rules: RuleSet) -> tuple[int, bool]:
    """The first table ``rules`` are played at, as (seats, teams)."""
    name = rules.seatings[0]
    return (4, True) if name == "2v2" else (int(name), False)


def _rounds(
    play: Callable[[int, int, RuleSet, int, bool], int],
    rules: RuleSet,
    seats: int,
    teams: bool,
    n: int,
    seed: int,
) -> int:
    return play(n, seed, rules, seats, teams)


def preset_speeds(
    names: list[str], rounds: int, pure_rounds: int, batches: int, seed: int
) -> list[str]:
    """One line per preset: random rounds per second through the fast path and the pure
    engine (CPU time), and their ratio."""
    lines = [
        f"random rounds/s per preset, one core, CPU time, median of {batches} batches:",
        f"  {'preset':<21}{'table':>6}{'fast path':>12}{'pure':>9}{'ratio':>8}",
    ]
    for name in names:
        rules = PRESETS[name]
        seats, teams = first_table(rules)
        per_round = 40 - rules.table_size

        fast_play = functools.partial(_rounds, fast.random_rounds, rules, seats, teams)
        pure_play = functools.partial(_rounds, fast.py_random_rounds, rules, seats, teams)
        _, f_cpu = rounds_per_second(fast_play, rounds, batches, seed, per_round)
        _, p_cpu = rounds_per_second(pure_play, pure_rounds, batches, seed, per_round)
        table = "2v2" if teams else str(seats)
        lines.append(
            f"  {name:<21}{table:>6}{f_cpu:>12,.0f}{p_cpu:>9,.0f}{f_cpu / p_cpu:>7,.0f}x"
        )
    return lines


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
    ap.add_argument("--rounds", type=int, default=20_000, help="rounds per fast batch")
    ap.add_argument("--pure-rounds", type=int, default=200, help="rounds per pure batch")
    ap.add_argument("--batches", type=int, default=3)
    ap.add_argument(
        "--presets",
        default=",".join(PRESETS),
        help="comma-separated presets to time (default: every preset)",
    )
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--samples", type=int, default=500, help="evaluate samples per position")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    names = [n for n in args.presets.split(",") if n]
    unknown = [n for n in names if n not in PRESETS]
    if unknown:
        ap.error(f"unknown preset {unknown[0]!r} (known: {', '.join(PRESETS)})")

    print(f"fast path: {fast.BACKEND}")
    for line in preset_speeds(names, args.rounds, args.pure_rounds, args.batches, args.seed):
        print(line)

    obs_list = positions(args.positions, args.seed)
    pure_obs = obs_list[: max(1, len(obs_list) // 8)]
    pure_samples = max(1, args.samples // 25)
    f_rate, f_playouts = samples_per_second(fast.evaluate, obs_list, args.samples)
    p_rate, p_playouts = samples_per_second(fast.py_evaluate, pure_obs, pure_samples)
    print(
        f"Chkobba evaluate() samples/s over {len(obs_list)} positions (root-move playouts/s):\n"
        f"  fast path  {f_rate:>11,.0f}   ({f_playouts:,.0f})\n"
        f"  pure       {p_rate:>11,.0f}   ({p_playouts:,.0f})\n"
        f"  ratio      {f_rate / p_rate:>11,.0f}x"
    )


if __name__ == "__main__":
    main()
