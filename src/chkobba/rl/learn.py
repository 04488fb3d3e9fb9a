"""PPO and A2C in NumPy on the batched environment, and a pool of opponents for self-play.

The baselines of ``docs/rl.md`` come from here (``examples/baselines.py`` and
``examples/self_play.py`` drive it). A learner is two :class:`~chkobba.rl.mlp.MLP`
networks over the ``chkobba_v1`` vector: the policy (83 action logits, masked to
the legal ones before the softmax) and the value of the learner's position. It
collects ``steps`` decisions in each of ``num_envs`` games at once
(:class:`~chkobba.rl.vector.AgainstRandom` or :class:`AgainstPool`), then updates:

* **PPO** (Schulman et al. 2017): advantages by GAE(λ), several epochs of
  minibatches on the clipped surrogate, an entropy bonus;
* **A2C** (Mnih et al. 2016, synchronous): one gradient step per short rollout on
  the plain policy gradient, returns bootstrapped from the value (λ = 1).

Both normalise the advantages of a batch and clip the gradients' norm; a round is
an episode and its reward is the learner's points minus the opponent's
(:func:`chkobba.rl.aec.round_rewards`), undiscounted. Training stops at a budget
of this process's CPU seconds, so that a figure says how much computing it took
whatever else ran on the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

import numpy as np
import numpy.typing as npt

from chkobba.fishing.rules import CHKOBBA, RuleSet
from chkobba.rl.mlp import MLP, Adam, Array
from chkobba.rl.policy import Policy
from chkobba.rl.spaces import NUM_ACTIONS, OBS_HIGH, OBS_SIZE
from chkobba.rl.vector import VecEnv

Algo = Literal["ppo", "a2c"]
"""The learning algorithms: ``ppo`` or ``a2c``."""
Masks = npt.NDArray[np.bool_]
Actions = npt.NDArray[np.int64]
Opponent = Callable[[Array, Masks, np.random.Generator], Actions]
"""A player of the batched games: observations and masks of the games where it is to move
in, one legal action id per game out."""

_ILLEGAL = np.float32(-1e9)  # finite, so that 0 * log p stays 0 for an illegal action


@dataclass(frozen=True)
class Config:
    """The hyperparameters of a training run."""

    algo: Algo = "ppo"
    num_envs: int = 256
    """Games stepped together."""
    steps: int = 32
    """Decisions per game in a rollout (a batch is ``num_envs * steps`` decisions)."""
    gamma: float = 1.0
    lam: float = 0.95
    lr: float = 3e-4
    clip: float = 0.2
    """PPO's clipping of the probability ratio."""
    epochs: int = 4
    minibatches: int = 4
    ent_coef: float = 0.01
    max_grad_norm: float = 0.5
    hidden: tuple[int, ...] = (256, 128)

    def __post_init__(self) -> None:
        """Reject settings that cannot train."""
        if self.algo not in ("ppo", "a2c"):
            raise ValueError(f"algo must be 'ppo' or 'a2c', not {self.algo!r}")
        if min(self.num_envs, self.steps, self.epochs, self.minibatches) < 1:
            raise ValueError("num_envs, steps, epochs and minibatches must be at least 1")
        if (self.num_envs * self.steps) % self.minibatches:
            raise ValueError("minibatches must divide num_envs * steps")


def default_config(algo: Algo, **changes: object) -> Config:
    """The settings the baselines use for ``algo`` (PPO's and A2C's usual ones), with
    ``changes``."""
    # Chosen on 30-CPU-second trials: PPO gained most from smaller minibatches (more
    # gradient steps for the same arithmetic), A2C from fewer games per batch.
    if algo == "a2c":
        base = Config(algo="a2c", num_envs=64, steps=8, lam=1.0, lr=7e-4, epochs=1,
                      minibatches=1)
    else:
        base = Config(algo="ppo", lr=5e-4, minibatches=16)
    return replace(base, **changes)  # type: ignore[arg-type]


class Games(Protocol):
    """What a learner trains on: the learner to move in every game after each call."""

    num_envs: int

    def reset(self, seed: int | None = None) -> Array:
        """Deal every game; the learner's observations."""

    def step(self, actions: npt.ArrayLike) -> tuple[Array, Array, Masks]:
        """The learner's actions: observations, learner's rewards, rounds ended."""

    def action_masks(self) -> Masks:
        """The learner's legal actions."""


def masked_log_softmax(logits: Array, mask: Masks) -> Array:
    """Log-probabilities of the actions, the illegal ones at (about) minus infinity."""
    z = np.where(mask, logits, _ILLEGAL)
    z = z - z.max(axis=1, keepdims=True)
    out: Array = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return out


def sample(logp: Array, rng: np.random.Generator) -> Actions:
    """One action per row drawn from the distribution ``exp(logp)`` (the Gumbel-max trick)."""
    g = rng.gumbel(size=logp.shape).astype(np.float32)
    out: Actions = np.argmax(logp + g, axis=1)
    return out


def observation_scale() -> Array:
    """The factor that brings each entry of the vector between 0 and 1."""
    high = np.asarray(OBS_HIGH, np.float32)
    return np.where(high > 0, 1.0 / np.maximum(high, 1e-6), 1.0).astype(np.float32)


def random_opponent(obs: Array, mask: Masks, rng: np.random.Generator) -> Actions:
    """A uniformly random legal action per game."""
    w = rng.random(mask.shape, dtype=np.float32) * mask
    out: Actions = np.argmax(w, axis=1)
    return out


def policy_opponent(policy: Policy, greedy: bool = False) -> Opponent:
    """A frozen policy as an opponent: it samples from its masked softmax (or, ``greedy``,
    plays its highest legal logit, as :class:`~chkobba.rl.policy.PolicyAgent` does)."""

    def play(obs: Array, mask: Masks, rng: np.random.Generator) -> Actions:
        logits = obs
        last = len(policy.weights) - 1
        for i, (w, b) in enumerate(zip(policy.weights, policy.biases, strict=True)):
            logits = logits @ w + b
            if i < last:
                logits = np.tanh(logits)
        logp = masked_log_softmax(logits, mask)
        if greedy:
            out: Actions = np.argmax(logp, axis=1)
            return out
        return sample(logp, rng)

    return play


class AgainstPool:
    """Batched games where the learner holds seat ``i % seats`` of game ``i`` and the
    other seats are played by an opponent drawn from :attr:`pool` at random for each
    round (the same for all other seats of the round). The :class:`Games` interface, as
    :class:`~chkobba.rl.vector.AgainstRandom` has it."""

    def __init__(self, num_envs: int, pool: list[Opponent], rules: RuleSet | str = CHKOBBA,
                 seats: int = 2, seed: int = 0) -> None:
        """``num_envs`` games of ``rules``; ``pool`` (kept by reference, never empty when
        the games are stepped) may grow between steps."""
        self.vec = VecEnv(num_envs, rules, seats)
        self.num_envs = num_envs
        self.pool = pool
        self.seat = np.arange(num_envs, dtype=np.int64) % seats
        self.rng = np.random.default_rng(seed)
        self.opponent = np.zeros(num_envs, np.int64)
        """The pool index playing the other seats of each game's round."""
        self._rows = np.arange(num_envs)
        self._actions = np.zeros(num_envs, np.int64)

    def _draw(self, games: Masks) -> None:
        if not self.pool:
            raise ValueError("the pool of opponents is empty")
        n = int(games.sum())
        if n:
            self.opponent[games] = self.rng.integers(len(self.pool), size=n)

    def _others_play(self, rewards: Array, dones: Masks) -> None:
        vec = self.vec
        while True:
            waiting = vec._player != self.seat
            if not waiting.any():
                return
            self._actions[:] = 0
            for k in np.unique(self.opponent[waiting]):
                rows = np.flatnonzero(waiting & (self.opponent == k))
                self._actions[rows] = self.pool[int(k)](vec._obs[rows], vec._mask[rows],
                                                        self.rng)
            batch = vec.step(self._actions, waiting)
            rewards += batch.rewards[self._rows, self.seat]
            dones |= batch.terminations
            self._draw(batch.terminations)

    def reset(self, seed: int | None = None) -> Array:
        """Deal every game, draw its opponent, play to the learner's first decisions."""
        self.vec.reset(seed)
        self._draw(np.ones(self.num_envs, np.bool_))
        self._others_play(np.zeros(self.num_envs, np.float32), np.zeros(self.num_envs, bool))
        return self.vec._obs

    def step(self, actions: npt.ArrayLike) -> tuple[Array, Array, Masks]:
        """The learner's actions; its observations, rewards, and the rounds that ended."""
        batch = self.vec.step(actions)
        rewards = batch.rewards[self._rows, self.seat].copy()
        dones = batch.terminations.copy()
        self._draw(dones)
        self._others_play(rewards, dones)
        return self.vec._obs, rewards, dones

    def action_masks(self) -> Masks:
        """The learner's legal actions ``[N, 83]``."""
        return self.vec._mask


@dataclass
class Update:
    """What one update measured."""

    steps: int
    """The learner's decisions so far."""
    rounds: int
    """Rounds finished so far."""
    cpu_seconds: float
    mean_return: float
    """The mean reward of the rounds finished since the previous update (NaN: none)."""
    entropy: float
    approx_kl: float
    clip_fraction: float
    value_loss: float


@dataclass
class Learner:
    """A policy network and a value network trained by :attr:`config`'s algorithm."""

    config: Config
    seed: int = 0
    rng: np.random.Generator = field(init=False)
    pi: MLP = field(init=False)
    vf: MLP = field(init=False)

    def __post_init__(self) -> None:
        """Initialise the networks and their optimisers from ``seed``."""
        self.rng = np.random.default_rng(self.seed)
        scale = observation_scale()
        hidden = list(self.config.hidden)
        self.pi = MLP([OBS_SIZE, *hidden, NUM_ACTIONS], self.rng, scale, out_gain=0.01)
        self.vf = MLP([OBS_SIZE, *hidden, 1], self.rng, scale, out_gain=1.0)
        self._pi_opt = Adam(self.pi.params, self.config.lr, self.config.max_grad_norm)
        self._vf_opt = Adam(self.vf.params, self.config.lr, self.config.max_grad_norm)

    def policy(self) -> Policy:
        """The policy network as a playable :class:`~chkobba.rl.policy.Policy`."""
        return self.pi.to_policy()

    def act(self, obs: Array, mask: Masks) -> tuple[Actions, Array, Array]:
        """Sampled actions, their log-probabilities and the values of ``obs``."""
        logp = masked_log_softmax(self.pi.forward(obs), mask)
        actions = sample(logp, self.rng)
        values = self.vf.forward(obs)[:, 0]
        return actions, logp[np.arange(len(actions)), actions], values

    def train(self, games: Games, cpu_seconds: float, seed: int = 0,
              on_update: Callable[[Update], None] | None = None,
              max_updates: int | None = None) -> list[Update]:
        """Train on ``games`` until this process has spent ``cpu_seconds`` more CPU time
        (at least one update) or made ``max_updates`` updates; each update's
        measurements, also passed to ``on_update``."""
        c = self.config
        n, t_len = games.num_envs, c.steps
        buf_obs = np.zeros((t_len, n, OBS_SIZE), np.float32)
        buf_mask = np.zeros((t_len, n, NUM_ACTIONS), np.bool_)
        buf_act = np.zeros((t_len, n), np.int64)
        buf_logp = np.zeros((t_len, n), np.float32)
        buf_val = np.zeros((t_len, n), np.float32)
        buf_rew = np.zeros((t_len, n), np.float32)
        buf_done = np.zeros((t_len, n), np.bool_)
        running = np.zeros(n, np.float64)
        start = time.process_time()
        obs = games.reset(seed)
        steps = rounds = 0
        history: list[Update] = []
        while not history or (time.process_time() - start < cpu_seconds
                                and (max_updates is None or len(history) < max_updates)):
            finished: list[float] = []
            for t in range(t_len):
                buf_obs[t] = obs
                buf_mask[t] = games.action_masks()
                a, lp, v = self.act(buf_obs[t], buf_mask[t])
                buf_act[t], buf_logp[t], buf_val[t] = a, lp, v
                obs, rew, done = games.step(a)
                buf_rew[t], buf_done[t] = rew, done
                running += rew
                finished.extend(running[done].tolist())
                running[done] = 0.0
            last_val = self.vf.forward(obs)[:, 0]
            adv = _gae(buf_rew, buf_val, buf_done, last_val, c.gamma, c.lam)
            ret = adv + buf_val
            stats = self._update(buf_obs.reshape(-1, OBS_SIZE), buf_mask.reshape(-1, NUM_ACTIONS),
                                 buf_act.ravel(), buf_logp.ravel(), adv.ravel(), ret.ravel())
            steps += n * t_len
            rounds += len(finished)
            u = Update(steps, rounds, time.process_time() - start,
                       float(np.mean(finished)) if finished else float("nan"), *stats)
            history.append(u)
            if on_update is not None:
                on_update(u)
        return history

    def _update(self, obs: Array, mask: Masks, act: Actions, old_logp: Array, adv: Array,
                ret: Array) -> tuple[float, float, float, float]:
        c = self.config
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        size = len(act)
        mb = size // c.minibatches
        ent_sum = kl_sum = clip_sum = vl_sum = 0.0
        count = 0
        for _ in range(c.epochs):
            order = self.rng.permutation(size)
            for k in range(c.minibatches):
                idx = order[k * mb:(k + 1) * mb]
                x, m, a, adv_b = obs[idx], mask[idx], act[idx], adv[idx]
                rows = np.arange(len(idx))
                logp = masked_log_softmax(self.pi.forward(x, keep=True), m)
                p = np.exp(logp)
                new = logp[rows, a]
                entropy = -(p * logp).sum(axis=1)
                if c.algo == "ppo":
                    ratio = np.exp(new - old_logp[idx])
                    # The clipped objective's gradient is zero where clipping binds.
                    live = np.where(adv_b >= 0, ratio < 1 + c.clip, ratio > 1 - c.clip)
                    d_logp = -adv_b * ratio * live
                    clip_sum += float(np.mean(~live))
                else:
                    d_logp = -adv_b
                kl_sum += float(np.mean(old_logp[idx] - new))
                grad = -p * d_logp[:, None]
                grad[rows, a] += d_logp
                grad += c.ent_coef * p * (logp + entropy[:, None])
                self._pi_opt.step(self.pi.backward((grad / len(idx)).astype(np.float32)))
                v = self.vf.forward(x, keep=True)[:, 0]
                err = v - ret[idx]
                self._vf_opt.step(self.vf.backward((err / len(idx))[:, None].astype(np.float32)))
                ent_sum += float(entropy.mean())
                vl_sum += float(np.mean(err * err))
                count += 1
        return ent_sum / count, kl_sum / count, clip_sum / count, vl_sum / count


def _gae(rew: Array, val: Array, done: Masks, last_val: Array, gamma: float,
         lam: float) -> Array:
    """Generalised advantage estimates; a round that ended does not bootstrap."""
    adv = np.zeros_like(rew)
    acc = np.zeros(rew.shape[1], np.float32)
    for t in reversed(range(rew.shape[0])):
        nxt = last_val if t == rew.shape[0] - 1 else val[t + 1]
        live = 1.0 - done[t].astype(np.float32)
        delta = rew[t] + gamma * nxt * live - val[t]
        acc = delta + gamma * lam * live * acc
        adv[t] = acc
    return adv


def evaluate(policy: Policy, opponent: Opponent, rounds: int, num_envs: int = 256,
             seed: int = 0, rules: RuleSet | str = CHKOBBA) -> tuple[float, float]:
    """The mean reward per round of ``policy`` (its best legal action, as it plays in a
    duel) against ``opponent`` over at least ``rounds`` rounds, and the half-width of its
    95% interval (normal approximation; the deals are not duplicated)."""
    games = AgainstPool(num_envs, [opponent], rules, seed=seed)
    me = policy_opponent(policy, greedy=True)
    obs = games.reset(seed)
    running = np.zeros(num_envs, np.float64)
    results: list[float] = []
    while len(results) < rounds:
        a = me(obs, games.action_masks(), games.rng)
        obs, rew, done = games.step(a)
        running += rew
        results.extend(running[done].tolist())
        running[done] = 0.0
    r = np.asarray(results)
    return float(r.mean()), float(1.96 * r.std(ddof=1) / np.sqrt(len(r)))
