"""Random 2-player rounds per second on one core, and legal-move generation cost.

Each round is dealt from a seeded shuffle, the cutter's decision and every play
are chosen at random among the legal moves generated for that position, and the
round is scored in full. Prints the median of several timed batches.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from chkobba.fishing.game import Round
from chkobba.fishing.rules import CHKOBBA


def play_random_rounds(n: int, seed: int) -> int:
    """Play ``n`` random rounds; return the number of plays made (a checksum)."""
    rng = random.Random(seed)
    plays = 0
    deck = list(range(40))
    choice = rng.choice
    for _ in range(n):
        rng.shuffle(deck)
        r = Round(CHKOBBA, 2, False, 0, deck)
        while r.score is None:
            r.apply_unchecked(choice(r.legal_moves()))
            if r.void:
                rng.shuffle(deck)
                r = Round(CHKOBBA, 2, False, 0, deck)
            else:
                plays += 1
    return plays


def time_legal_moves(calls: int, seed: int) -> float:
    """Microseconds per legal-move generation: a hand of 3 against a table of 10."""
    rng = random.Random(seed)
    positions = []
    for _ in range(200):
        deck = list(range(40))
        rng.shuffle(deck)
        r = Round(CHKOBBA, 2, False, 0, deck)
        r.apply_unchecked(r.legal_moves()[1])  # table the cut card: a plain deal
        r.hands[r.turn] = (1 << deck[10]) | (1 << deck[11]) | (1 << deck[12])
        r.table = sum(1 << c for c in deck[13:23])
        positions.append(r)
    start = time.perf_counter()
    per = calls // len(positions)
    for r in positions:
        for _ in range(per):
            r.legal_moves()
    return (time.perf_counter() - start) / (per * len(positions)) * 1e6


def main() -> None:
    """Run the measurements and print their medians."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=2000, help="rounds per batch")
    ap.add_argument("--batches", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rates = []
    cpu_rates = []
    for b in range(args.batches):
        start, cpu = time.perf_counter(), time.process_time()
        plays = play_random_rounds(args.rounds, args.seed + b)
        rates.append(args.rounds / (time.perf_counter() - start))
        cpu_rates.append(args.rounds / (time.process_time() - cpu))
    # CPU time is the steadier figure on a shared machine; wall time is what a user sees.
    print(
        f"random 2-player rounds/s (one core, median of {args.batches}): "
        f"{statistics.median(rates):,.0f} wall [min {min(rates):,.0f}, max {max(rates):,.0f}], "
        f"{statistics.median(cpu_rates):,.0f} CPU time  ({plays // args.rounds} plays/round)"
    )
    us = [time_legal_moves(20000, args.seed + b) for b in range(args.batches)]
    print(f"legal moves, hand of 3 vs table of 10: {statistics.median(us):.2f} µs/call (median)")


if __name__ == "__main__":
    main()
