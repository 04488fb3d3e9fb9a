"""RL baselines: PPO and A2C (NumPy, no torch) trained on the batched environment, seeds
apart, then measured with the duel harness against random, greedy, heuristic and expert.

Each run trains :class:`chkobba.rl.learn.Learner` on ``AgainstRandom`` (the learner
against random players, N games stepped by the compiled kernel in one call) for a
budget of this process's CPU seconds, and writes to ``--out`` (``baselines-out/`` by
default; nothing committed is overwritten):

* ``{algo}_seed{S}.npz`` — the policy (``chkobba-policy/1`` in half precision, plays
  as ``policy:PATH``);
* ``{algo}_seed{S}.json`` — its settings, budget, steps, rounds, the machine's load,
  and the learning curve (mean round margin per update);
* ``{algo}_seed{S}.duels.json`` — after ``evaluate``, each duel's margin and interval;
* ``table.md`` — after ``table``, the margins of every policy against every opponent.

Usage (one training process: the budget is CPU time, so the figures do not depend
on what else the machine runs, only the wall-clock time does)::

    python examples/baselines.py                       # train all, evaluate all, table
    python examples/baselines.py train --algo ppo --seed 0 --cpu-minutes 2
    python examples/baselines.py evaluate baselines-out/ppo_seed0.npz --pairs 400
    python examples/baselines.py table baselines-out
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

# One thread: the baselines are measured in one core's CPU time (set before NumPy loads).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from chkobba.duel.harness import run_duel  # noqa: E402
from chkobba.rl.learn import Learner, Update, default_config  # noqa: E402
from chkobba.rl.vector import AgainstRandom  # noqa: E402

ALGOS = ("ppo", "a2c")
OPPONENTS = ("random", "greedy", "heuristic", "expert")


def load() -> list[float]:
    """The machine's load averages (1, 5, 15 minutes)."""
    return [round(x, 2) for x in os.getloadavg()]


def train(algo: str, seed: int, cpu_minutes: float, out: Path, rules: str = "chkobba",
          **changes: Any) -> Path:
    """Train one policy and write its ``.npz`` and ``.json``; the policy's path."""
    out.mkdir(parents=True, exist_ok=True)
    config = default_config(algo, **changes)  # type: ignore[arg-type]
    learner = Learner(config, seed=seed)
    games = AgainstRandom(config.num_envs, rules)
    load_before = load()
    wall = time.monotonic()
    next_print = [0.0]

    def report(u: Update) -> None:
        if u.cpu_seconds >= next_print[0]:
            print(f"{algo} seed {seed}: {u.cpu_seconds:6.0f} CPU s, {u.steps:>10,} steps, "
                  f"{u.rounds:>9,} rounds, mean margin {u.mean_return:+.2f}, "
                  f"entropy {u.entropy:.3f}", flush=True)
            next_print[0] = u.cpu_seconds + 30

    history = learner.train(games, cpu_minutes * 60, seed=1_000_003 * seed, on_update=report)
    path = out / f"{algo}_seed{seed}.npz"
    # Half precision halves the file to commit; the duels measure this very file.
    learner.policy().save(path, dtype=np.float16)
    last = history[-1]
    summary = {
        "algo": algo,
        "seed": seed,
        "rules": rules,
        "opponent_in_training": "random (AgainstRandom, batched)",
        "config": {k: v for k, v in vars(config).items()},
        "cpu_seconds": round(last.cpu_seconds, 1),
        "wall_seconds": round(time.monotonic() - wall, 1),
        "steps": last.steps,
        "rounds": last.rounds,
        "load_before": load_before,
        "load_after": load(),
        "curve": [[u.steps, u.rounds, round(u.cpu_seconds, 2), u.mean_return]
                  for u in history],
    }
    path.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"wrote {path} ({last.steps:,} steps, {last.rounds:,} rounds in "
          f"{last.cpu_seconds:.0f} CPU s; load {load_before} -> {summary['load_after']})")
    return path


def evaluate(policy: Path, pairs: int, expert_pairs: int, seed: int = 2026,
             opponents: tuple[str, ...] = OPPONENTS) -> dict[str, Any]:
    """Duel ``policy`` against each opponent (one worker) and write ``.duels.json``."""
    results: dict[str, Any] = {}
    for opp in opponents:
        n = expert_pairs if opp == "expert" else pairs
        before = load()
        t = time.monotonic()
        r = run_duel(f"policy:{policy}", opp, n, seed=seed, jobs=1)
        results[opp] = {
            "command": f"chkobba duel policy:{policy} {opp} --pairs {n} --seed {seed}",
            "pairs": n,
            "seed": seed,
            "margin": r.margin.mean,
            "ci95": [r.margin.low, r.margin.high],
            "wins": r.wins, "draws": r.draws, "losses": r.losses,
            "wall_seconds": round(time.monotonic() - t, 1),
            "load": before,
        }
        print(f"{policy.name} vs {opp}: {r.margin.mean:+.2f} [{r.margin.low:+.2f}, "
              f"{r.margin.high:+.2f}] over {n} pairs", flush=True)
    out = policy.with_suffix(".duels.json")
    out.write_text(json.dumps(results, indent=1) + "\n")
    return results


def table(out: Path) -> str:
    """The Markdown table of every evaluated policy in ``out`` (written to ``table.md``)."""
    head = ("| policy | CPU min | steps | " + " | ".join(f"vs {o}" for o in OPPONENTS) + " |")
    lines = [head, "|" + "---|" * (3 + len(OPPONENTS))]
    for duels_path in sorted(out.glob("*.duels.json")):
        stem = duels_path.name.removesuffix(".duels.json")
        summary = json.loads((out / f"{stem}.json").read_text())
        duels = json.loads(duels_path.read_text())
        cells = []
        for o in OPPONENTS:
            d = duels.get(o)
            cells.append("—" if d is None else
                         f"{d['margin']:+.2f} [{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}] "
                         f"({d['pairs']})")
        lines.append(f"| {stem} | {summary['cpu_seconds'] / 60:.1f} | {summary['steps']:,} | "
                     + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    (out / "table.md").write_text(text)
    return text


def main() -> None:
    """Parse the command line and run it."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="command")
    t = sub.add_parser("train", help="train one policy")
    t.add_argument("--algo", choices=ALGOS, default="ppo")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--cpu-minutes", type=float, default=2.0)
    t.add_argument("--rules", default="chkobba")
    t.add_argument("--out", type=Path, default=Path("baselines-out"))
    e = sub.add_parser("evaluate", help="duel trained policies against the built-in players")
    e.add_argument("policies", type=Path, nargs="+")
    e.add_argument("--pairs", type=int, default=400)
    e.add_argument("--expert-pairs", type=int, default=100)
    e.add_argument("--seed", type=int, default=2026)
    tb = sub.add_parser("table", help="the Markdown table of the evaluated policies")
    tb.add_argument("out", type=Path, nargs="?", default=Path("baselines-out"))
    # Without a command: every algorithm and seed trained, measured and tabulated.
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--cpu-minutes", type=float, default=2.0)
    ap.add_argument("--out", type=Path, default=Path("baselines-out"))
    ap.add_argument("--pairs", type=int, default=400)
    ap.add_argument("--expert-pairs", type=int, default=100)
    args = ap.parse_args()
    if getattr(args, "pairs", 1) < 1 or getattr(args, "expert_pairs", 1) < 1:
        ap.error("--pairs and --expert-pairs must be at least 1")
    if getattr(args, "cpu_minutes", 0.0) < 0:
        ap.error("--cpu-minutes cannot be negative")
    if args.command == "train":
        train(args.algo, args.seed, args.cpu_minutes, args.out, args.rules)
    elif args.command == "evaluate":
        for p in args.policies:
            if not p.exists():
                sys.exit(f"no policy file {p}: train it first")
            evaluate(p, args.pairs, args.expert_pairs, args.seed)
    elif args.command == "table":
        print(table(args.out), end="")
    else:
        for seed in args.seeds:
            for algo in ALGOS:
                path = train(algo, seed, args.cpu_minutes, args.out)
                evaluate(path, args.pairs, args.expert_pairs)
        print(table(args.out), end="")


if __name__ == "__main__":
    main()
