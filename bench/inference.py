"""Inference-weighted sampling against uniform sampling: duplicate duels of expert variants.

Registers, for the run, ``uniform-N`` (the expert sampling N deals uniformly) and
``infer-T-N`` (the same with inference at temperature T points), then plays the
duels asked for and prints each margin (points per deal, A − B) with its 95%
interval and both sides' milliseconds per move.

    python bench/inference.py --samples 1000 --temperatures 0.1 0.3 --pairs 1000
    python bench/inference.py --samples 6000 --temperatures 0.2 --against greedy heuristic

Everything but the timings is reproducible from the seed.
"""

from __future__ import annotations

import argparse
import json
import time

from chkobba.agents.expert import ExpertAgent
from chkobba.agents.player import register
from chkobba.duel.harness import DuelResult, run_duel


def uniform_name(samples: int) -> str:
    """The registered name of the uniform expert with ``samples`` deals."""
    return f"uniform-{samples}"


def infer_name(temperature: float, samples: int) -> str:
    """The registered name of the inference expert."""
    return f"infer-{temperature:g}-{samples}"


def register_variants(samples: list[int], temperatures: list[float]) -> None:
    """Make the variants available by name (worker processes inherit them by fork)."""
    for n in samples:
        register(uniform_name(n), playable=False)(
            lambda seed, n=n: ExpertAgent(seed, samples=n, name=uniform_name(n))
        )
        for t in temperatures:
            register(infer_name(t, n), playable=False)(
                lambda seed, n=n, t=t: ExpertAgent(
                    seed, samples=n, name=infer_name(t, n), temperature=t
                )
            )


def line(r: DuelResult, seconds: float) -> str:
    """One row of the table."""
    m = r.margin
    return (
        f"{r.a:>16} vs {r.b:<16} {m.mean:+6.3f}  [{m.low:+.3f}, {m.high:+.3f}]  "
        f"W/D/L {r.wins}/{r.draws}/{r.losses}  ms/move {r.a_timing.median_ms:.1f} "
        f"(p95 {r.a_timing.p95_ms:.1f}) vs {r.b_timing.median_ms:.1f} "
        f"(p95 {r.b_timing.p95_ms:.1f})  ({seconds:.0f} s)"
    )


def main() -> None:
    """Run the duels and print them."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, nargs="+", default=[1000])
    ap.add_argument("--temperatures", type=float, nargs="+", default=[0.2])
    ap.add_argument(
        "--against",
        nargs="*",
        default=["uniform"],
        help="opponents: 'uniform' (the uniform expert at the same samples) or players",
    )
    ap.add_argument(
        "--baseline",
        action="store_true",
        help="against players, also play the uniform expert (for the comparison)",
    )
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--players", type=int, default=2, choices=[2, 4])
    ap.add_argument("--json", help="append each duel's JSON to this file (one line each)")
    args = ap.parse_args()
    register_variants(args.samples, args.temperatures)
    print(f"{args.pairs} pairs per duel, {args.players} players, seed {args.seed}", flush=True)
    for n in args.samples:
        for opponent in args.against:
            b = uniform_name(n) if opponent == "uniform" else opponent
            players = [infer_name(t, n) for t in args.temperatures]
            if args.baseline and opponent != "uniform":
                players.insert(0, uniform_name(n))
            for a in players:
                start = time.perf_counter()
                r = run_duel(
                    a, b, pairs=args.pairs, seed=args.seed, players=args.players, jobs=args.jobs
                )
                print(line(r, time.perf_counter() - start), flush=True)
                if args.json:
                    with open(args.json, "a", encoding="utf-8") as f:
                        f.write(json.dumps(r.to_json()) + "\n")


if __name__ == "__main__":
    main()
