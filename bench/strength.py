"""The strength ladder: duplicate duels between the players, from a seed.

Prints, for each duel, the mean point margin per deal (A − B) with its 95%
interval, the Elo difference, wins/draws/losses, and each side's median and
95th-percentile milliseconds per move; then how much of the gap between greedy
and the cheater (who sees every card) the expert closes, how much of that gap
seeing the other hands alone is worth (the peeker: the expert's search shown the
other hands but not the stock), and the levels' order.

    python bench/strength.py --pairs 1000 --seed 1

Everything but the timings is reproducible from the seed.
"""

from __future__ import annotations

import argparse
import json
import time

from chkobba.duel.harness import DuelResult, run_duel

LADDER = [
    ("expert", "greedy"),
    ("expert", "heuristic"),
    ("heuristic", "greedy"),
    ("greedy", "random"),
    ("cheater", "expert"),
    ("cheater", "greedy"),
    ("peeker", "greedy"),
]
LEVELS = [("medium", "easy"), ("hard", "medium"), ("expert", "hard")]


def line(r: DuelResult) -> str:
    """One row of the table."""
    m = r.margin
    e = r.elo
    return (
        f"{r.a:>9} vs {r.b:<9} {m.mean:+6.3f}  [{m.low:+.3f}, {m.high:+.3f}]  "
        f"Elo {e.elo:+6.0f}  W/D/L {r.wins}/{r.draws}/{r.losses}  "
        f"ms/move {r.a.split()[0]} {r.a_timing.median_ms:.1f} (p95 {r.a_timing.p95_ms:.1f}), "
        f"{r.b} {r.b_timing.median_ms:.2f} (p95 {r.b_timing.p95_ms:.2f})"
    )


def main() -> None:
    """Run the ladder and print it."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=1000, help="duplicate pairs per duel")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all)")
    ap.add_argument("--players", type=int, default=2, choices=[2, 4])
    ap.add_argument("--levels", action="store_true", help="also check the levels' order")
    ap.add_argument("--json", help="also write every duel's JSON to this file")
    args = ap.parse_args()
    duels = LADDER + (LEVELS if args.levels else [])
    print(f"{args.pairs} duplicate pairs per duel, {args.players} players, seed {args.seed}")
    print("margin = points per deal, A − B, with its 95% interval")
    results: dict[tuple[str, str], DuelResult] = {}
    for a, b in duels:
        start = time.perf_counter()
        r = run_duel(a, b, pairs=args.pairs, seed=args.seed, players=args.players, jobs=args.jobs)
        results[(a, b)] = r
        print(line(r), f" ({time.perf_counter() - start:.0f} s)", flush=True)
    expert = results[("expert", "greedy")].margin.mean
    cheater = results[("cheater", "greedy")].margin.mean
    above = results[("cheater", "expert")].margin.mean
    if cheater > 0:
        # Margins against different opponents do not add up, so the expert's place in
        # the gap is read from both ends: its own margin over greedy, and what the
        # cheater's margin over it leaves of the cheater's margin over greedy.
        print(
            f"gap greedy → cheater: {cheater:+.3f}; the expert closes {expert / cheater:.0%} "
            f"of it by its margin over greedy, {1 - above / cheater:.0%} by the cheater's "
            "margin over it"
        )
        peeker = results[("peeker", "greedy")].margin.mean
        if peeker > 0:
            # What seeing the hands is worth bounds what inference from the plays can give.
            print(
                f"the same search shown the other hands (not the stock) beats greedy by "
                f"{peeker:+.3f}: {peeker / cheater:.0%} of the gap; the expert's margin is "
                f"{expert / peeker:.0%} of it"
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({f"{a} vs {b}": r.to_json() for (a, b), r in results.items()}, f, indent=1)


if __name__ == "__main__":
    main()
