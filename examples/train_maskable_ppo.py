"""Train a Chkobba player with sb3-contrib's MaskablePPO, export it, and measure it.

Trains on the Gymnasium wrapper (``chkobba.rl.ChkobbaGymEnv``, one seat against
a built-in player) or, with ``--vector N``, on N games of the batched environment
(``chkobba.rl.vector.AgainstRandom``: the compiled kernel steps them all in one
call, the learner against random players) within a wall-clock budget, saves the
learning curve as a PNG, exports the policy network to a numpy ``.npz``
(``chkobba-policy/1``, played without torch as ``--player policy:PATH``) and
evaluates it with duplicate deals against the opponent, as ``chkobba duel`` does.

Needs the ``train`` extra; install the CPU build of torch first::

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install -e '.[train]'
    python examples/train_maskable_ppo.py --minutes 12
    python examples/train_maskable_ppo.py --minutes 12 --vector 64   # the batched games

It writes into ``ppo-out/`` under the current directory (``--out-dir``; ``--out`` and
``--curve`` name the files) and never over an existing file unless ``--overwrite``:
the committed policy (``examples/policies/ppo_vs_random.*``) and its curve
(``docs/img/ppo_vs_random.png``) are replaced only when named on purpose. Then
``chkobba duel policy:ppo-out/ppo_vs_random.npz random --pairs 500``.
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
from stable_baselines3.common.vec_env import VecEnv as SB3VecEnv

from chkobba.duel.harness import run_duel
from chkobba.rl import ChkobbaGymEnv
from chkobba.rl.policy import Policy, load_policy
from chkobba.rl.vector import AgainstRandom


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


class BatchedGames(SB3VecEnv):  # type: ignore[misc]  # Stable-Baselines3 is untyped here
    """``AgainstRandom`` (N games stepped by the kernel in one call) as Stable-Baselines3's
    VecEnv: the learner's observations, rewards, dones, an ``episode`` entry in the info
    of each game whose round ended (as Monitor writes it), and ``action_masks``."""

    def __init__(self, num_envs: int, rules: str, seed: int) -> None:
        self.games = AgainstRandom(num_envs, rules)
        obs_space, act_space = self.games.vec.spaces()
        self._seed: int | None = seed
        self._actions = np.zeros(num_envs, np.int64)
        super().__init__(num_envs, obs_space, act_space)

    def reset(self) -> np.ndarray:
        obs = self.games.reset(self._seed)
        self._seed = None  # the next resets go on from the games' own generators
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, dones = self.games.step(self._actions)
        lengths = self.games.episode_lengths
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["episode"] = {"r": float(rewards[i]), "l": int(lengths[i])}
        return obs.copy(), rewards.copy(), dones.copy(), infos

    def action_masks(self) -> np.ndarray:
        return self.games.action_masks().copy()

    def close(self) -> None:
        pass

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        n = len(list(self._get_indices(indices)))
        if attr_name == "render_mode":
            return [None] * n
        if attr_name == "action_masks":
            return [self.action_masks] * n
        raise AttributeError(f"BatchedGames has no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"BatchedGames cannot set {attr_name!r}")

    def env_method(self, method_name: str, *args: Any, indices: Any = None,
                   **kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"BatchedGames has no method {method_name!r}")
        masks = self.games.action_masks()
        return [masks[i].copy() for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))


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


OUT_DIR = Path("ppo-out")
"""Where the outputs go by default: a folder of its own under the current directory."""


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, with the output files resolved and checked before any training:
    an existing file is an error unless ``--overwrite``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=12.0, help="training wall-clock budget")
    ap.add_argument("--opponent", default="random", help="the built-in player trained against")
    ap.add_argument("--rules", default="chkobba", help="the rule preset")
    ap.add_argument("--envs", type=int, default=8, help="environments stepped together")
    ap.add_argument("--vector", type=int, default=0, metavar="N",
                    help="train on N games of the batched environment (opponent random only)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out-dir", type=Path, default=OUT_DIR,
                    help="folder for the outputs (default ppo-out/ under the current directory)")
    ap.add_argument("--out", type=Path, default=None,
                    help="the policy file (default OUT_DIR/ppo_vs_random.npz; its summary "
                         "goes beside it as .json)")
    ap.add_argument("--curve", type=Path, default=None,
                    help="the learning curve (default OUT_DIR/ppo_vs_random.png)")
    ap.add_argument("--overwrite", action="store_true",
                    help="write over existing output files (the committed policy, say)")
    ap.add_argument("--pairs", type=int, default=500, help="duplicate pairs for the evaluation")
    ap.add_argument("--jobs", type=int, default=2, help="processes for the evaluation")
    args = ap.parse_args(argv)
    if args.vector and args.opponent != "random":
        ap.error("--vector trains against random players only (drawn in the kernel)")
    args.out = args.out or args.out_dir / "ppo_vs_random.npz"
    args.curve = args.curve or args.out_dir / "ppo_vs_random.png"
    existing = [p for p in (args.out, args.out.with_suffix(".json"), args.curve) if p.exists()]
    if existing and not args.overwrite:
        ap.error(f"{existing[0]} exists: choose other files (--out-dir, --out, --curve) "
                 "or pass --overwrite")
    return args


def main() -> None:
    """Train, export, plot, evaluate."""
    args = arguments()

    torch.set_num_threads(args.threads)
    envs: SB3VecEnv
    if args.vector:
        envs = BatchedGames(args.vector, args.rules, args.seed)
    else:
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
