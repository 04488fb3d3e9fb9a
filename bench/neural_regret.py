"""Where the learned player loses to its teacher: held-out regret by phase of the deal.

Reads the distillation shards (``examples/train_neural.py generate``), holds out the
decisions of the last 5% of games by number (as ``train`` does, on the first ``--shards``
searched shards of the preset), and prints, for ``heuristic`` and for each weight file
given (and their mean, when several), the regret: the search's mean margin of its best
move less that of the move chosen, averaged over the decisions of each phase (the cut,
the deals with cards left in the stock, the last deal; by cards in hand). In the last deal
of two players the values are the exact solve's, free of sampling noise.

    python bench/neural_regret.py --data DATA --rules chkobba --shards 72 \\
        src/chkobba/rl/weights/neural_chkobba.npz
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import numpy as np

from chkobba.rl import neural
from chkobba.rl.distill import load_shards
from chkobba.rl.spaces import OBS_LAYOUT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", nargs="+", help="chkobba-neural/1 files")
    parser.add_argument("--data", required=True, help="the shards' folder")
    parser.add_argument("--rules", default="chkobba")
    parser.add_argument("--shards", type=int, default=0,
                        help="the first N searched shards (0: all)")
    parser.add_argument("--holdout", type=float, default=0.05)
    args = parser.parse_args()
    paths = sorted(Path(args.data).glob(f"{args.rules}-s*-g*.npz"))
    if args.shards:
        paths = paths[: args.shards]
    data = load_shards(paths)
    held = np.flatnonzero(data.games >= np.quantile(data.games, 1 - args.holdout))
    nets = [neural.load_network(w) for w in args.weights]
    names = ["heuristic", *(Path(w).name for w in args.weights)]
    if len(nets) > 1:
        nets.append(neural.ensemble(nets))
        names.append("their mean")
    stock = OBS_LAYOUT["stock"].start
    hand = OBS_LAYOUT["hand_sizes"].start
    sums: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(names) + 1))
    for k in held:
        obs = data.obs[k].astype(np.float32)
        rows = slice(data.offsets[k], data.offsets[k + 1])
        feats = data.features[rows].astype(np.float32)
        values = data.values[rows]
        cut = feats[0, neural._KEEP] + feats[0, neural._TABLE] > 0
        picks = [int(np.argmax(feats[:, neural._GREEDY_CUT if cut else neural._HEURISTIC]))]
        picks += [int(np.argmax(n.outputs(obs, feats)[:, 0])) for n in nets]
        regrets = [1.0, *(float(values.max() - values[p]) for p in picks)]
        phase = "cut" if cut else ("last deal" if obs[stock] == 0 else "stock left")
        cards = round(float(obs[hand]) * 10)
        for key in {"all", phase, phase if cut else f"{phase}, {cards} in hand"}:
            sums[key] += regrets
    print(f"{args.rules}: {len(held)} held-out decisions of {len(data)} "
          f"({len(paths)} shards); regret in points a decision")
    print(f"{'phase':<26}{'decisions':>10}" + "".join(f"{n[:16]:>18}" for n in names))
    for key in sorted(sums, key=lambda s: (s != "all", s)):
        count, *total = sums[key]
        print(f"{key:<26}{int(count):>10}" + "".join(f"{t / count:>18.4f}" for t in total))


if __name__ == "__main__":
    main()
