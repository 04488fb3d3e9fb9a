"""Train a Chkobba player with sb3-contrib's MaskablePPO, export it, and measure it.

Trains on the Gymnasium wrapper (``chkobba.rl.ChkobbaGymEnv``, one seat against
a built-in player) within a wall-clock budget, saves the learning curve as a
PNG, exports the policy network to a numpy ``.npz`` (``chkobba-policy/1``, played
without torch as ``--player policy:PATH``) and evaluates it with duplicate deals
against the opponent, as ``chkobba duel`` does.

Needs the ``train`` extra; install the CPU build of torch first::

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install -e '.[train]'
    python examples/train_maskable_ppo.py --minutes 12

then ``chkobba duel policy:examples/policies/ppo_vs_random.npz random --pairs 500``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from chkobba.duel.harness import run_duel
from chkobba.rl import ChkobbaGymEnv
from chkobba.rl.policy import Policy, load_policy


class Budget(BaseCallback):
    """Stop at the wall-clock budget; record each finished episode's return."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds
        self.returns: list[tuple[int, float]] = []
        self.next_report = time.monotonic() + 60

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            ep = info.get("episode")
            if ep is not None:
                self.returns.append((self.num_timesteps, float(ep["r"])))
        now = time.monotonic()
        if now >= self.next_report and self.returns:
            last = [r for _, r in self.returns[-1000:]]
            print(f"{self.num_timesteps:>9,} steps, mean return of the last {len(last)} "
                  f"episodes {sum(last) / len(last):+.2f}", flush=True)
            self.next_report = now + 60
        return now < self.deadline


def export(model: MaskablePPO, path: Path) -> Policy:
    """The actor network of ``model`` as a numpy policy, written to ``path`` (float16)."""
    layers = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    layers.append(model.policy.action_net)
    act = model.policy.activation_fn
    activation = "tanh" if act is torch.nn.Tanh else "relu"
    weights = tuple(
        layer.weight.detach().numpy().T.astype(np.float16).astype(np.float32) for layer in layers
    )
    biases = tuple(layer.bias.detach().numpy().astype(np.float16).astype(np.float32)
                   for layer in layers)
    policy = Policy(weights, biases, activation)
    path.parent.mkdir(parents=True, exist_ok=True)
    policy.save(path, dtype=np.float16)
    return policy


def plot(returns: list[tuple[int, float]], path: Path, title: str, window: int) -> None:
    """The learning curve: the mean return of the last ``window`` episodes by timestep."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([s for s, _ in returns])
    rets = np.array([r for _, r in returns])
    w = max(1, min(window, len(rets) // 5 or 1))
    smooth = np.convolve(rets, np.ones(w) / w, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(steps[w - 1 :], smooth, lw=1.5)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("environment steps (learner decisions)")
    ax.set_ylabel(f"round margin, mean of {w} episodes")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path)


def main() -> None:
    """Train, export, plot, evaluate."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=12.0, help="training wall-clock budget")
    ap.add_argument("--opponent", default="random", help="the built-in player trained against")
    ap.add_argument("--rules", default="chkobba", help="the rule preset")
    ap.add_argument("--envs", type=int, default=8, help="environments stepped together")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("examples/policies/ppo_vs_random.npz"))
    ap.add_argument("--curve", type=Path, default=Path("docs/img/ppo_vs_random.png"))
    ap.add_argument("--pairs", type=int, default=500, help="duplicate pairs for the evaluation")
    ap.add_argument("--jobs", type=int, default=2, help="processes for the evaluation")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    envs = DummyVecEnv(
        [
            (lambda i=i: Monitor(ChkobbaGymEnv(opponent=args.opponent, rules=args.rules)))
            for i in range(args.envs)
        ]
    )
    envs.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=128,
        batch_size=256,
        n_epochs=8,
        learning_rate=5e-4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": {"pi": [128, 64], "vf": [128, 64]}},
        seed=args.seed,
        verbose=0,
    )
    budget = Budget(args.minutes * 60)
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=budget)
    trained = time.monotonic() - start
    steps = model.num_timesteps
    print(f"trained {steps:,} steps in {trained / 60:.1f} min ({steps / trained:,.0f} steps/s), "
          f"{len(budget.returns):,} episodes")

    export(model, args.out)
    load_policy(args.out)  # the file reads back
    print(f"policy: {args.out} ({args.out.stat().st_size / 1024:.0f} KiB)")
    plot(budget.returns, args.curve,
         f"MaskablePPO vs {args.opponent} ({args.rules}), {trained / 60:.0f} min", 2000)
    print(f"curve: {args.curve}")

    t = time.monotonic()
    res = run_duel(f"policy:{args.out}", args.opponent, pairs=args.pairs, seed=2026,
                   jobs=args.jobs)
    m = res.margin
    print(f"duel policy vs {args.opponent}, {args.pairs} pairs: margin {m.mean:+.2f} "
          f"[{m.low:+.2f}, {m.high:+.2f}] points per round, "
          f"W/D/L {res.wins}/{res.draws}/{res.losses} ({time.monotonic() - t:.0f} s)")
    summary: dict[str, Any] = {
        "opponent": args.opponent,
        "rules": args.rules,
        "minutes": round(trained / 60, 2),
        "steps": steps,
        "episodes": len(budget.returns),
        "duel": {"pairs": args.pairs, "seed": 2026, "margin": m.mean, "ci95": [m.low, m.high],
                 "wins": res.wins, "draws": res.draws, "losses": res.losses},
    }
    args.out.with_suffix(".json").write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
