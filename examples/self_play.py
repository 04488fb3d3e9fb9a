"""Self-play: PPO (NumPy) against a pool of its own past versions, on the batched games,
and its learning curve measured with the duel harness.

The learner holds one seat of each of N games (``chkobba.rl.learn.AgainstPool``); the
other seat of each round is played by a version of the learner drawn at random from
the pool, which starts with the untrained network and gains a frozen copy of the
learner every ``--snapshot-every`` CPU seconds (the oldest leave beyond
``--pool-size``). The pool's versions sample their moves from their softmax, so
they vary their play. Training stops at a budget of this process's CPU time.

Every snapshot is also saved, and once training is over each is measured with
duplicate deals (``chkobba.duel.harness.run_duel``, one worker) against random,
greedy and heuristic players: that is the learning curve. Written to ``--out``
(``self-play-out/`` by default; nothing committed is overwritten)::

    self-play-out/final.npz             the last policy (plays as policy:PATH)
    self-play-out/checkpoints/*.npz     the snapshots
    self-play-out/curve.csv             CPU s, steps, rounds, pool size, margin vs the pool,
                                        and each opponent's margin with its 95% interval
    self-play-out/curve.png             the curve
    self-play-out/summary.json          settings, budget, the machine's load

Usage::

    python examples/self_play.py --cpu-minutes 4
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import time
from pathlib import Path
from typing import Any

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from chkobba.duel.harness import run_duel  # noqa: E402
from chkobba.rl.learn import (  # noqa: E402
    AgainstPool,
    Learner,
    Opponent,
    Update,
    default_config,
    policy_opponent,
)

OPPONENTS = ("random", "greedy", "heuristic")


def load() -> list[float]:
    """The machine's load averages (1, 5, 15 minutes)."""
    return [round(x, 2) for x in os.getloadavg()]


def self_play(out: Path, cpu_minutes: float, seed: int, snapshot_every: float,
              pool_size: int, num_envs: int) -> list[dict[str, Any]]:
    """Train against the pool; save the snapshots; one row per snapshot."""
    ckpt = out / "checkpoints"
    ckpt.mkdir(parents=True, exist_ok=True)
    learner = Learner(default_config("ppo", num_envs=num_envs), seed=seed)
    pool: list[Opponent] = [policy_opponent(learner.policy())]
    games = AgainstPool(num_envs, pool, seed=seed)
    rows: list[dict[str, Any]] = []
    returns: list[float] = []
    next_at = snapshot_every

    def snapshot(u: Update) -> None:
        path = ckpt / f"step{u.steps:09d}.npz"
        policy = learner.policy()
        policy.save(path)
        seen = [r for r in returns if not math.isnan(r)]
        rows.append({"cpu_seconds": round(u.cpu_seconds, 1), "steps": u.steps,
                     "rounds": u.rounds, "pool": len(pool),
                     "margin_vs_pool": sum(seen) / len(seen) if seen else float("nan"),
                     "policy": str(path)})
        returns.clear()
        pool.append(policy_opponent(policy))
        del pool[: max(0, len(pool) - pool_size)]
        print(f"{u.cpu_seconds:6.0f} CPU s, {u.steps:>10,} steps: snapshot {path.name}, "
              f"margin against the pool {rows[-1]['margin_vs_pool']:+.2f}", flush=True)

    def on_update(u: Update) -> None:
        nonlocal next_at
        returns.append(u.mean_return)
        if u.cpu_seconds >= next_at:
            snapshot(u)
            next_at = u.cpu_seconds + snapshot_every

    history = learner.train(games, cpu_minutes * 60, seed=seed, on_update=on_update)
    if not rows or rows[-1]["steps"] != history[-1].steps:
        snapshot(history[-1])
    learner.policy().save(out / "final.npz")
    return rows


def measure(rows: list[dict[str, Any]], pairs: int, seed: int) -> None:
    """Duel every snapshot against each opponent; the margins go into its row."""
    for row in rows:
        for opp in OPPONENTS:
            r = run_duel(f"policy:{row['policy']}", opp, pairs, seed=seed, jobs=1)
            row[opp] = r.margin.mean
            row[f"{opp}_low"] = r.margin.low
            row[f"{opp}_high"] = r.margin.high
        print(f"{row['steps']:>10,} steps: " + ", ".join(
            f"vs {o} {row[o]:+.2f}" for o in OPPONENTS), flush=True)


def plot(rows: list[dict[str, Any]], path: Path, pairs: int) -> None:
    """The curve: each snapshot's margin against each opponent, with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r["steps"] / 1e6 for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for opp in OPPONENTS:
        ax.plot(steps, [r[opp] for r in rows], marker="o", ms=3, lw=1.5, label=f"vs {opp}")
        ax.fill_between(steps, [r[f"{opp}_low"] for r in rows],
                        [r[f"{opp}_high"] for r in rows], alpha=0.2)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("learner decisions (millions)")
    ax.set_ylabel(f"points per round ({pairs} duplicate pairs)")
    ax.set_title("PPO self-play against a pool of its past versions")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def main() -> None:
    """Train, measure the snapshots, write the curve."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--cpu-minutes", type=float, default=4.0, help="training budget")
    ap.add_argument("--snapshot-every", type=float, default=15.0, metavar="CPU_SECONDS")
    ap.add_argument("--pool-size", type=int, default=8)
    ap.add_argument("--envs", type=int, default=256, help="games stepped together")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pairs", type=int, default=200, help="duplicate pairs per measure")
    ap.add_argument("--out", type=Path, default=Path("self-play-out"))
    args = ap.parse_args()
    if args.pool_size < 1 or args.pairs < 1 or args.snapshot_every <= 0:
        ap.error("--pool-size and --pairs must be at least 1, --snapshot-every positive")
    before = load()
    wall = time.monotonic()
    rows = self_play(args.out, args.cpu_minutes, args.seed, args.snapshot_every,
                     args.pool_size, args.envs)
    trained = {"wall_seconds": round(time.monotonic() - wall, 1), "load_after": load()}
    measure(rows, args.pairs, seed=2026)
    with open(args.out / "curve.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plot(rows, args.out / "curve.png", args.pairs)
    summary = {"cpu_minutes": args.cpu_minutes, "snapshot_every": args.snapshot_every,
               "pool_size": args.pool_size, "envs": args.envs, "seed": args.seed,
               "pairs": args.pairs, "load_before": before, **trained,
               "steps": rows[-1]["steps"], "rounds": rows[-1]["rounds"]}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"wrote {args.out}/curve.csv, curve.png, final.npz, summary.json")


if __name__ == "__main__":
    main()
