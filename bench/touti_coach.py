"""The coach for Touti: time and error bars of ``chkobba analyze`` on Touti deals.

Seeded matches between four technique players are played; the first deal of each is
analysed for all four seats (every card played) at ``--samples`` (``chkobba analyze``'s
default), on one core. The script prints the wall and CPU seconds per weighed position,
how many positions were forced, weighed by sampling or solved exactly, and the median
standard error of a card's figure and of a loss.
"""

from __future__ import annotations

import argparse
import statistics
import time

from chkobba.coach.analysis import analyze
from chkobba.coach.estimate import DEFAULT_BATCHES, DEFAULT_SAMPLES
from chkobba.touti import kernel
from chkobba.touti.agents import make_touti_agent
from chkobba.touti.match import ToutiMatch
from chkobba.touti.observe import observe
from chkobba.touti.record import ToutiRecord, record_of


def first_deal(seed: int) -> ToutiRecord:
    """The first deal of a seeded match between four technique players."""
    m = ToutiMatch(seed=seed)
    agents = [make_touti_agent("technique", s) for s in range(4)]
    while not m.finished:
        m.apply(agents[m.turn].choose(observe(m, m.turn)))
    record = record_of(m)
    record.deals = record.deals[:1]
    return record


def main() -> None:
    """Analyse the deals and print what it cost and how precise it is."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match")
    parser.add_argument("--deals", type=int, default=3, help="deals (matches) analysed")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="per position")
    args = parser.parse_args()
    weighed = exact = forced = 0
    se: list[float] = []
    loss_se: list[float] = []
    wall = cpu = 0.0
    for k in range(args.deals):
        record = first_deal(args.seed + k)
        w0, c0 = time.perf_counter(), time.process_time()
        result = analyze(record, [0, 1, 2, 3], args.samples, DEFAULT_BATCHES, seed=k)
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
        for d in result.decisions:
            est = d.estimates
            if est is None:
                forced += 1
            elif est.exact:
                exact += 1
            else:
                weighed += 1
                se += [p.se for p in est.plays]
                loss_se += [p.loss_se for p in est.plays if p.loss > 0]
    positions = weighed + exact
    print(f"backend: {kernel.BACKEND}")
    print(
        f"{args.deals} deal(s), all four seats: {weighed + exact + forced} cards played, "
        f"{forced} forced, {weighed} weighed by {args.samples} samples, {exact} solved exactly"
    )
    print(
        f"per weighed position: {wall / positions:.3f} s wall, {cpu / positions:.3f} s CPU "
        f"({wall:.1f} s in all)"
    )
    print(
        f"median standard error: a card's figure {statistics.median(se):.2f}, "
        f"a loss {statistics.median(loss_se):.2f} (points of deal worth)"
    )


if __name__ == "__main__":
    main()
