"""Touti strength in duplicate deals: each deal played twice, the teams' players swapped.

Prints, for each duel, A's mean margin per deal (A's team's match points minus
B's team's, averaged over both plays of each deal) with its 95% interval over
the pairs, how many pairs A won/drew/lost, and A's milliseconds per move (mean
over every move it made: bids, trumps, announcements and cards).

    python bench/touti_strength.py --pairs 400 --seed 1

Everything but the timings is reproducible from the seed.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from chkobba.touti.agents import make_touti_agent
from chkobba.touti.duplicate import play_pair
from chkobba.touti.search import SearchAgent

DUELS = [("search", "technique"), ("technique", "random")]


def run(a_name: str, b_name: str, pairs: int, seed: int, samples: int) -> str:
    """Play one duel and return its line."""
    a = SearchAgent(seed, samples) if a_name == "search" else make_touti_agent(a_name, seed)
    b = make_touti_agent(b_name, seed + 1)
    margins: list[float] = []
    secs = 0.0
    moves = 0
    start = time.perf_counter()
    for i in range(pairs):
        r = play_pair(a, b, seed * 1_000_003 + i)
        margins.append(r.margin / 2)
        secs += r.a_seconds
        moves += r.a_moves
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if pairs > 1 else 0.0
    w = sum(m > 0 for m in margins)
    d = sum(m == 0 for m in margins)
    lo = len(margins) - w - d
    return (
        f"{a_name:>9} vs {b_name:<9} margin/deal {mean:+7.2f} [{mean - half:+.2f}, "
        f"{mean + half:+.2f}]  pairs W/D/L {w}/{d}/{lo}  "
        f"{a_name} {1000 * secs / max(moves, 1):.2f} ms/move  "
        f"({time.perf_counter() - start:.0f} s)"
    )


def main() -> None:
    """Run the duels and print them."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--pairs", type=int, default=400, help="duplicate pairs per duel")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=24, help="the search's sampled deals")
    args = ap.parse_args()
    print(f"{args.pairs} duplicate pairs per duel, seed {args.seed}, search samples {args.samples}")
    print("margin = A's team's match points minus B's per deal, 95% interval")
    for a, b in DUELS:
        print(run(a, b, args.pairs, args.seed, args.samples), flush=True)


if __name__ == "__main__":
    main()
