"""The NumPy baselines: the network's gradients, the updates' direction, self-play's pool,
and a tiny run end to end whose policy plays in the duel harness."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.duel.harness import run_duel
from chkobba.rl.learn import (
    AgainstPool,
    Learner,
    default_config,
    evaluate,
    masked_log_softmax,
    policy_opponent,
    random_opponent,
    sample,
)
from chkobba.rl.mlp import MLP, Adam
from chkobba.rl.policy import load_policy
from chkobba.rl.spaces import NUM_ACTIONS, OBS_SIZE
from chkobba.rl.vector import AVAILABLE, AgainstRandom

ROOT = Path(__file__).parent.parent
COMMITTED = ROOT / "examples" / "policies" / "baselines"
needs_kernel = pytest.mark.skipif(not AVAILABLE, reason="the compiled kernel is not built")


def example(name: str) -> ModuleType:
    """Import ``examples/{name}.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_backward_matches_finite_differences() -> None:
    """Every parameter's gradient agrees with a numerical derivative of the loss."""
    rng = np.random.default_rng(0)
    net = MLP([5, 4, 3, 2], rng, scale=rng.random(5).astype(np.float32) + 0.5, out_gain=1.0)
    net.params = [p.astype(np.float64) for p in net.params]  # type: ignore[misc]
    x = rng.normal(size=(6, 5))
    target = rng.normal(size=(6, 2))

    def loss() -> float:
        return float(0.5 * np.sum((net.forward(x) - target) ** 2))  # type: ignore[arg-type]

    out = net.forward(x, keep=True)  # type: ignore[arg-type]
    grads = net.backward(out - target)  # type: ignore[arg-type]
    for p, g in zip(net.params, grads, strict=True):
        for idx in [(0,) * p.ndim, tuple(s - 1 for s in p.shape)]:
            old = p[idx]
            p[idx] = old + 1e-6
            up = loss()
            p[idx] = old - 1e-6
            down = loss()
            p[idx] = old
            assert g[idx] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7)


def test_exported_policy_computes_the_network_on_raw_observations() -> None:
    """The input scaling is folded into the exported first layer."""
    rng = np.random.default_rng(1)
    net = MLP([OBS_SIZE, 8, NUM_ACTIONS], rng, scale=rng.random(OBS_SIZE).astype(np.float32),
              out_gain=1.0)
    x = rng.random((3, OBS_SIZE), dtype=np.float32) * 4
    policy = net.to_policy()
    for row, expected in zip(x, net.forward(x), strict=True):
        assert np.allclose(policy.logits(row), expected, atol=1e-4)


def test_adam_clips_the_gradient_norm() -> None:
    """A huge gradient moves a parameter by about the learning rate, not more."""
    p = np.zeros(3, np.float32)
    opt = Adam([p], lr=0.1, max_norm=0.5)
    assert opt.step([np.array([1e6, 0, 0], np.float32)]) == pytest.approx(1e6)
    assert np.all(np.abs(p) <= 0.1 + 1e-6) and p[0] < 0


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_only_legal_actions_are_drawn(seed: int) -> None:
    """Masked probabilities sum to 1 over the legal actions and sampling keeps to them."""
    rng = np.random.default_rng(seed)
    mask = rng.random((16, NUM_ACTIONS)) < 0.05
    mask[np.arange(16), rng.integers(NUM_ACTIONS, size=16)] = True
    logits = rng.normal(scale=5, size=(16, NUM_ACTIONS)).astype(np.float32)
    logp = masked_log_softmax(logits, mask)
    assert np.allclose(np.exp(logp).sum(axis=1), 1, atol=1e-5)
    assert np.all(np.exp(logp)[~mask] == 0)
    assert mask[np.arange(16), sample(logp, rng)].all()
    assert mask[np.arange(16), random_opponent(logits, mask, rng)].all()


@pytest.mark.parametrize("algo", ["ppo", "a2c"])
def test_an_update_makes_advantageous_actions_likelier(algo: str) -> None:
    """With a positive advantage on one action and negative on another, one update raises
    the first's probability and lowers the second's."""
    config = default_config(algo, hidden=(16,), minibatches=1, epochs=1, ent_coef=0.0)  # type: ignore[arg-type]
    learner = Learner(config, seed=3)
    rng = np.random.default_rng(4)
    obs = rng.random((64, OBS_SIZE), dtype=np.float32)
    mask = np.zeros((64, NUM_ACTIONS), np.bool_)
    mask[:, [5, 9]] = True
    act = np.where(np.arange(64) % 2 == 0, 5, 9).astype(np.int64)
    adv = np.where(act == 5, 1.0, -1.0).astype(np.float32)

    def logp() -> np.ndarray:
        return masked_log_softmax(learner.pi.forward(obs), mask)

    before = logp()
    old = before[np.arange(64), act]
    learner._update(obs, mask, act, old, adv, adv)
    after = logp()
    assert np.all(after[:, 5] > before[:, 5]) and np.all(after[:, 9] < before[:, 9])


@needs_kernel
def test_the_pool_plays_every_other_seat() -> None:
    """After reset and each step the learner is to move in every game; the pool's members
    are drawn for each round."""
    pool = [random_opponent, random_opponent]
    games = AgainstPool(32, pool, seed=5)
    obs = games.reset(7)
    seen: set[int] = set()
    done_any = False
    for _ in range(40):
        assert (games.vec._player == games.seat).all()
        assert obs.shape == (32, OBS_SIZE)
        seen.update(games.opponent.tolist())
        actions = random_opponent(obs, games.action_masks(), games.rng)
        obs, rew, done = games.step(actions)
        done_any |= bool(done.any())
        assert np.all(rew[~done] == 0)
    assert done_any and seen == {0, 1}


@needs_kernel
def test_a_short_training_learns_to_beat_random_players() -> None:
    """60 PPO updates (61,440 decisions, a few CPU seconds) play measurably better against
    random players than the untrained network: the gain exceeds the interval's half-width."""
    config = default_config("ppo", hidden=(64,), num_envs=64, steps=16, minibatches=8, lr=1e-3)
    learner = Learner(config, seed=0)
    start, _ = evaluate(learner.policy(), random_opponent, 1500, seed=11)
    history = learner.train(AgainstRandom(64), cpu_seconds=120.0, seed=1, max_updates=60)
    assert len(history) == 60 and history[-1].steps == 61_440
    end, half = evaluate(learner.policy(), random_opponent, 1500, seed=11)
    assert end > start + 2 * half


@needs_kernel
def test_the_examples_run_end_to_end(tmp_path: Path) -> None:
    """Train, duel and tabulate with baselines.py; the policy plays legal moves in a duel."""
    baselines = example("baselines")
    path = baselines.train("ppo", 0, 0.0, tmp_path, num_envs=8, steps=4, hidden=(8,),
                           minibatches=2)
    summary = json.loads(path.with_suffix(".json").read_text())
    assert summary["steps"] == 32 and summary["curve"]
    results = baselines.evaluate(path, pairs=2, expert_pairs=1,
                                 opponents=("random", "greedy"))
    assert set(results) == {"random", "greedy"}
    table = baselines.table(tmp_path)
    assert "| ppo_seed0 |" in table and table == (tmp_path / "table.md").read_text()
    assert load_policy(path).weights[0].shape == (OBS_SIZE, 8)


def test_the_committed_baselines_play_in_the_duel_harness() -> None:
    """Each committed policy loads as ``policy:PATH`` and plays legal moves in a duel (an
    illegal move would end the duel with an error)."""
    paths = sorted(COMMITTED.glob("*.npz"))
    assert {p.stem for p in paths} >= {f"{a}_seed{s}" for a in ("ppo", "a2c") for s in range(3)}
    for p in paths:
        r = run_duel(f"policy:{p}", "random", 2, seed=1, jobs=1)
        assert r.games == 4 and r.a_faults == (0, 0, 0, 0)


@needs_kernel
def test_a_snapshot_plays_as_an_opponent_in_the_pool() -> None:
    """A frozen policy drawn from the pool plays legal actions (greedy or sampled)."""
    learner = Learner(default_config("ppo", hidden=(8,)), seed=2)
    pool = [policy_opponent(learner.policy()), policy_opponent(learner.policy(), greedy=True)]
    games = AgainstPool(16, pool, seed=3)
    obs = games.reset(1)
    for _ in range(30):
        obs, _, _ = games.step(random_opponent(obs, games.action_masks(), games.rng))
    assert (games.vec._player == games.seat).all()
