"""The coach's move analysis: time for one 2-player round, error bars, ranking stability.

A seeded 2-player round (round 1 of a match between the heuristic and the
greedy player) is analysed for both seats, every decision (the cut and all 36
plays), at the default precision (``chkobba analyze``'s defaults), on one core:
the script prints the wall and CPU seconds, and every estimate's standard error.
Then the same positions are estimated at increasing sample counts, and the
script prints how the ranking of the top plays settles: how often the top play
(and the order of the top 3) agrees with the ranking at the largest count, and
the median standard error at each count.

Goal (issue 8): at most 30 s per round at the default precision.
"""

from __future__ import annotations

import argparse
import statistics
import time

from chkobba.agents import make_agent
from chkobba.coach.analysis import analyze, position_seed, positions
from chkobba.coach.estimate import DEFAULT_BATCHES, DEFAULT_SAMPLES, Estimates, estimate, is_exact
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord, record_of
from chkobba.search.fast import BACKEND


def seeded_round(seed: int) -> GameRecord:
    """Round 1 of a seeded match, heuristic (seat 0) against greedy (seat 1)."""
    m = Match(seats=2, seed=seed)
    agents = [make_agent("heuristic", seed), make_agent("greedy", seed + 1)]
    while not m.finished:
        m.apply(agents[m.turn].choose(observe(m, m.turn)), m.turn)
    record = record_of(m, ["heuristic", "greedy"])
    record.rounds = record.rounds[:1]
    return record


def top(est: Estimates, k: int) -> list[str]:
    """The ``k`` best plays' notation, best first."""
    return [str(p.move) for p in est.ranking()[:k]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the match and the analysis")
    parser.add_argument(
        "--counts",
        default="250,1000,4000,16000",
        help="sample counts per position for the ranking's stability",
    )
    parser.add_argument(
        "--reference",
        type=int,
        default=64000,
        help="samples per position of the reference ranking (drawn with other seeds)",
    )
    args = parser.parse_args()
    record = seeded_round(args.seed)
    print(f"backend: {BACKEND}")
    print(
        f"round: seed {args.seed}, {len(record.rounds[0].plays)} plays, both seats; "
        f"default precision {DEFAULT_SAMPLES} samples in {DEFAULT_BATCHES} batches"
    )
    wall, cpu = time.perf_counter(), time.process_time()
    result = analyze(record, seats=[0, 1], seed=args.seed)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    estimated = [d for d in result.decisions if d.estimates is not None]
    exact = [d for d in estimated if d.estimates is not None and d.estimates.exact]
    print(
        f"analysis: {len(result.decisions)} decisions, {len(estimated)} estimated "
        f"({len(exact)} solved exactly, {len(result.decisions) - len(estimated)} forced): "
        f"{wall:.2f} s wall, {cpu:.2f} s CPU  (goal: at most 30 s)"
    )
    ses = [p.se for d in estimated if d.estimates for p in d.estimates.plays if p.se > 0]
    loss_ses = [
        p.loss_se for d in estimated if d.estimates for p in d.estimates.plays if p.loss_se > 0
    ]
    if ses:
        print(
            f"standard error of each figure: median {statistics.median(ses):.3f}, "
            f"max {max(ses):.3f} points; of each loss (paired): median "
            f"{statistics.median(loss_ses):.3f}, max {max(loss_ses):.3f}"
        )
    print("\nevery estimate (play: mean ± SE; * = the play made):")
    for d in estimated:
        assert d.estimates is not None
        figs = "  ".join(
            f"{'*' if p.move == d.move else ''}{p.move} {p.mean:+.2f}±{p.se:.2f}"
            for p in d.estimates.ranking()
        )
        tag = " exact" if d.estimates.exact else ""
        print(f"  play {d.play:2d} seat {d.seat}:{tag} {figs}")

    counts = [int(c) for c in args.counts.split(",")]
    spots = [
        (i, j, obs)
        for i, j, obs, _, _ in positions(record)
        if len(obs.legal_moves) > 1 and not is_exact(obs)
    ]
    ranked: dict[int, list[Estimates]] = {}
    timing: dict[int, float] = {}
    for n in counts:
        start = time.perf_counter()
        ranked[n] = [
            estimate(obs, n, DEFAULT_BATCHES, position_seed(args.seed, i, j)) for i, j, obs in spots
        ]
        timing[n] = time.perf_counter() - start
    # The reference is drawn with other seeds, so that it shares no sample with the others.
    ref = [
        estimate(obs, args.reference, DEFAULT_BATCHES, position_seed(args.seed + 1, i, j))
        for i, j, obs in spots
    ]
    print(
        f"\nranking stability over {len(spots)} sampled positions, against a reference of "
        f"{args.reference} samples drawn independently:"
    )
    print(
        "  samples  seconds  median SE  top play agrees  top-3 order agrees  "
        "its loss by the reference (mean, max)"
    )
    for n in counts:
        same1 = sum(top(a, 1) == top(b, 1) for a, b in zip(ranked[n], ref, strict=True))
        same3 = sum(top(a, 3) == top(b, 3) for a, b in zip(ranked[n], ref, strict=True))
        med = statistics.median(p.se for e in ranked[n] for p in e.plays)
        # What trusting this precision costs: the reference's loss of the play ranked top.
        cost = [
            b.plays[b.index(a.plays[a.best].move)].loss for a, b in zip(ranked[n], ref, strict=True)
        ]
        print(
            f"  {n:7d}  {timing[n]:7.2f}  {med:9.3f}  {100 * same1 / len(spots):14.0f}%  "
            f"{100 * same3 / len(spots):17.0f}%  {statistics.mean(cost):10.3f}, {max(cost):.3f}"
        )
    close = [
        min(a.mean - b.mean for a, b in zip(e.ranking(), e.ranking()[1:], strict=False))
        for e in ref
        if len(e.plays) > 1
    ]
    print(
        "  (in the reference, the closest two plays of a position differ by "
        f"{statistics.median(close):.3f} points at the median, {min(close):.3f} at least)"
    )
    print("\nthe top 3 at each count, for the positions with 3 or more plays:")
    for k, (_, j, obs) in enumerate(spots):
        if len(obs.legal_moves) < 3:
            continue
        row = "  |  ".join(
            " > ".join(f"{p.move} {p.mean:+.2f}" for p in ranked[n][k].ranking()[:3])
            for n in counts
        )
        print(f"  play {j:2d}: {row}")


if __name__ == "__main__":
    main()
