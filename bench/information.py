"""What seeing hidden cards is worth: the greedy–cheater gap taken apart.

Plays duplicate duels against one opponent (greedy by default) for the expert
and for the same search shown more and more of what is hidden:

- ``expert``: sees what a player sees;
- ``peeker-unplayed``: also sees the hands of the seats that have not played
  yet in the current deal (nothing in the game can reveal those);
- ``peeker-played``: also sees the hands of the seats that have already played
  in the current deal (the most that inference from their plays could learn);
- ``peeker``: sees every other hand, but not the stock's order;
- ``cheater``: sees every card, the stock's order too.

and prints each margin, then the gap's shares: what the expert closes, what
seeing the hands and the stock's order are worth, and what perfect inference
could at most add to the expert.

    python bench/information.py --pairs 1000 --seed 1

Everything but the timings is reproducible from the seed.
"""

from __future__ import annotations

import argparse
import json
import time

from chkobba.duel.harness import DuelResult, run_duel

PLAYERS = ["expert", "peeker-unplayed", "peeker-played", "peeker", "cheater"]


def main() -> None:
    """Run the duels and print the decomposition."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=1000, help="duplicate pairs per duel")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opponent", default="greedy", help="the common opponent")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all)")
    ap.add_argument("--json", help="also write every duel's JSON to this file")
    args = ap.parse_args()
    print(f"{args.pairs} duplicate pairs per duel against {args.opponent}, seed {args.seed}")
    results: dict[str, DuelResult] = {}
    for name in PLAYERS:
        start = time.perf_counter()
        r = run_duel(name, args.opponent, pairs=args.pairs, seed=args.seed, jobs=args.jobs)
        results[name] = r
        m = r.margin
        print(
            f"{name:>16} vs {args.opponent}: {m.mean:+.3f} [{m.low:+.3f}, {m.high:+.3f}]  "
            f"ms/move {r.a_timing.median_ms:.1f}  ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    mean = {name: r.margin.mean for name, r in results.items()}
    gap = mean["cheater"]
    if gap > 0:
        expert = mean["expert"]

        def share(x: float) -> str:
            return f"{x:+.3f} ({x / gap:.0%} of the gap)"

        print(f"gap {args.opponent} → cheater: {gap:+.3f}")
        print(f"  the expert closes:                          {share(expert)}")
        print(f"  seeing the other hands adds:                {share(mean['peeker'] - expert)}")
        # The two parts need not add up to the whole: each is measured alone.
        print(
            "    only the hands of seats that have played: "
            f"{share(mean['peeker-played'] - expert)} (perfect inference's ceiling)"
        )
        print(
            "    only the hands of seats yet to play:      "
            f"{share(mean['peeker-unplayed'] - expert)} (unknowable)"
        )
        print(f"  the stock's order adds:                     {share(gap - mean['peeker'])}")
        print(f"  half the gap needs the expert at {gap / 2:+.3f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({name: r.to_json() for name, r in results.items()}, f, indent=1)


if __name__ == "__main__":
    main()
