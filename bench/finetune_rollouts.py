"""The fine-tuning's rollouts (docs/rl.md, "Fourth round"): how strong the sampled policy
is, how noisy each advantage estimate is, and what the rollouts cost.

Plays ``--pairs`` duplicate pairs of a weight file's policy against ``heuristic``
(:func:`chkobba.rl.finetune.collect`) at each ``--temperatures`` and prints the sampled
policy's mean margin, the standard deviation of the bare return and of each advantage
estimate (the value baseline at several lambdas, the duplicate baseline), the decisions
recorded a CPU-second and how often the move drawn is the network's best; then the
vine's (:func:`~chkobba.rl.finetune.vine_pair`) recorded decisions a CPU-second. Prints the
load average at the start and the end.

    python bench/finetune_rollouts.py --rules chkobba --pairs 300
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from chkobba.rl.finetune import League, advantages, collect
from chkobba.rl.neural import load_network, weights_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="chkobba")
    parser.add_argument("--weights", help="a chkobba-neural/1 file (default: the shipped one)")
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--vine-pairs", type=int, default=20)
    parser.add_argument("--temperatures", type=float, nargs="+", default=[1.0, 0.3])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
    net = load_network(args.weights or weights_for(args.rules))
    league = League((("heuristic", 1.0),))
    for t in args.temperatures:
        c0 = time.process_time()
        r = collect(net, league, args.rules, args.seed, 0, args.pairs, t)
        cpu = time.process_time() - c0
        ret = np.asarray(r.ret)
        stds = {f"value, lambda {lam}": advantages(r, "value", lam).std()
                for lam in (1.0, 0.95, 0.9, 0.8)}
        stds["duplicate"] = advantages(r, "duplicate").std()
        # How often the move drawn is the network's best (the duels' move).
        best = np.mean([int(np.argmax(net.outputs(o, f)[:, 0])) == c
                        for o, f, c in zip(r.obs, r.features, r.chosen, strict=True)])
        print(f"temperature {t}: {len(r)} decisions of {args.pairs} pairs against heuristic, "
              f"{len(r) / cpu:.0f} a CPU-second; the best move drawn at {best:.0%} of them; "
              f"the sampled policy's margin "
              f"{ret.mean():+.3f} a deal; the standard deviation of the return "
              f"{ret.std():.3f}, of the advantage: "
              + ", ".join(f"{k} {v:.3f}" for k, v in stds.items()), flush=True)
    c0 = time.process_time()
    v = collect(net, league, args.rules, args.seed, 0, args.vine_pairs, 0.3, 3, 0.9)
    cpu = time.process_time() - c0
    print(f"the vine (3 moves tried where the best move's probability at 0.3 is under 0.9): "
          f"{len(v)} decisions of {args.vine_pairs} pairs, {len(v) / cpu:.0f} a CPU-second",
          flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
