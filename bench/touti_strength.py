"""Touti strength in duplicate deals: each deal played twice, the teams' players swapped.

Prints, for each duel, A's mean margin per deal (A's team's match points minus
B's team's, averaged over both plays of each deal) with its 95% interval over
the pairs, the Elo difference, how many deals A won/drew/lost, and each side's
median and 95th-percentile milliseconds per move (every move it made: bids,
trumps, announcements and cards). The duels are ``chkobba duel --game touti``'s
(:func:`chkobba.duel.run_duel`), on every core.

    python bench/touti_strength.py --pairs 400 --seed 1

With ``--versus N`` it plays one duel instead: the search with ``--samples``
against the search with N samples (what more samples buy, on the same deals).

Everything but the timings is reproducible from the seed.
"""

from __future__ import annotations

import argparse
import time

from chkobba.duel.harness import run_duel
from chkobba.touti.agents import register
from chkobba.touti.search import SearchAgent

DUELS = [("search", "technique"), ("technique", "random")]


def search_player(samples: int | None) -> str:
    """The name of the search with ``samples`` sampled deals (None: the registered
    ``search``, with its default), registered if it is not the default (worker
    processes inherit it where they are forked, as on Linux)."""
    if samples is None:
        return "search"
    name = f"search-{samples}"
    register(name)(lambda seed: SearchAgent(seed, samples))
    return name


def main() -> None:
    """Run the duels and print them."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--pairs", type=int, default=400, help="duplicate pairs per duel")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all)")
    ap.add_argument("--samples", type=int, default=None,
                    help="the search's sampled deals (default: the registered search's, "
                         "1792 compiled, 24 in pure Python)")  # fmt: skip
    ap.add_argument("--versus", type=int, default=None, metavar="N",
                    help="play only the search against the search with N samples")  # fmt: skip
    args = ap.parse_args()
    search = search_player(args.samples)
    duels = DUELS if args.versus is None else [(search, search_player(args.versus))]
    samples = SearchAgent(0, args.samples).samples
    print(f"{args.pairs} duplicate pairs per duel, seed {args.seed}, search samples {samples}")
    print("margin = A's team's match points minus B's per deal, 95% interval")
    for a, b in duels:
        start = time.perf_counter()
        r = run_duel(
            search if a == "search" else a, b, args.pairs, seed=args.seed, game_name="touti",
            jobs=args.jobs,
        )  # fmt: skip
        print(r.line(), f" ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
