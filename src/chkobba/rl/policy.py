"""A trained policy as a player: ``policy:PATH`` wherever a player is named.

A policy file is a numpy ``.npz`` archive (format ``chkobba-policy/1``) holding
a multilayer perceptron over the ``chkobba_v1`` observation: arrays ``w0``,
``b0``, ``w1``, ``b1`` … (each ``w`` of shape inputs x outputs), a hidden
activation (``tanh`` or ``relu``) between layers and 83 action logits out.
``examples/train_maskable_ppo.py`` exports one from a MaskablePPO model. The
forward pass is numpy only, so playing a policy needs neither torch nor
PettingZoo. The player takes the legal action with the highest logit, one
decision after another, until its play is complete: it is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from chkobba.fishing.moves import Move
from chkobba.fishing.observe import Observation
from chkobba.rl.npzfile import read_arrays
from chkobba.rl.spaces import NUM_ACTIONS, OBS_SIZE, VERSION, Choice, action_mask, decide, encode

FORMAT: Final = "chkobba-policy/1"
"""The policy file format this module reads and writes."""
PREFIX: Final = "policy:"
"""How a player name points at a policy file: ``policy:PATH``."""


class PolicyError(ValueError):
    """A policy file that cannot be read or does not fit the ``chkobba_v1`` spaces."""


@dataclass(frozen=True)
class Policy:
    """The weights of a multilayer perceptron from observation to action logits."""

    weights: tuple[npt.NDArray[np.float32], ...]
    biases: tuple[npt.NDArray[np.float32], ...]
    activation: str = "tanh"

    def logits(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The action logits for one observation vector."""
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0)
        return x

    def save(self, path: str | Path, dtype: type[np.floating] = np.float32) -> None:
        """Write the policy as a ``chkobba-policy/1`` archive (``float16`` halves its size)."""
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "format": np.array(FORMAT),
            "version": np.array(VERSION),
            "activation": np.array(self.activation),
        }
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(dtype)
            arrays[f"b{i}"] = b.astype(dtype)
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)  # type: ignore[arg-type]


def load_policy(path: str | Path) -> Policy:
    """Read and check a policy file; raise :class:`PolicyError` saying what is wrong."""
    p = Path(path)
    try:
        return _load(str(p.resolve()), p.stat().st_mtime_ns)
    except OSError as e:
        raise PolicyError(f"cannot read policy {path}: {e.strerror}") from None


@lru_cache(maxsize=16)
def _load(path: str, mtime: int) -> Policy:
    # Cached by path and modification time: a duel makes a player for every game.
    arrays = read_arrays(path, FORMAT, "a policy file", PolicyError)
    activation = str(arrays.get("activation", "tanh"))
    if activation not in ("tanh", "relu"):
        raise PolicyError(f"{path}: unknown activation {activation!r}")
    weights = []
    biases = []
    width = OBS_SIZE
    i = 0
    while f"w{i}" in arrays:
        w = arrays[f"w{i}"]
        b = arrays.get(f"b{i}")
        if w.ndim != 2 or w.shape[0] != width or b is None or b.shape != (w.shape[1],):
            raise PolicyError(f"{path}: layer {i} does not fit the previous one")
        if w.dtype.kind != "f" or b.dtype.kind != "f":
            raise PolicyError(f"{path}: layer {i} is not made of floating-point numbers")
        weights.append(w.astype(np.float32))
        biases.append(b.astype(np.float32))
        width = w.shape[1]
        i += 1
    if not weights or width != NUM_ACTIONS:
        raise PolicyError(f"{path}: the network must end in {NUM_ACTIONS} action logits")
    return Policy(tuple(weights), tuple(biases), activation)


class PolicyAgent:
    """A player that plays a trained policy's best legal action at each decision."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        """Play ``policy`` under the player name ``name``."""
        self.policy = policy
        self.name = name
        self._vec = np.zeros(OBS_SIZE, dtype=np.float32)
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.int8)

    def choose(self, obs: Observation) -> Move:
        """The move the policy's decisions make, from ``obs.legal_moves``."""
        choice: Choice | None = None
        while True:
            vec = encode(obs, choice, self._vec)
            mask = action_mask(obs.legal_moves, choice, self._mask)
            logits = self.policy.logits(vec)
            action = int(np.argmax(np.where(mask == 1, logits, -np.inf)))
            step = decide(obs.legal_moves, choice, action)
            if not isinstance(step, Choice):
                return step
            choice = step


def policy_agent(name: str) -> PolicyAgent:
    """The player for ``policy:PATH``; raise :class:`PolicyError` for a bad file."""
    path = name[len(PREFIX) :]
    if not path:
        raise PolicyError("policy: needs a file, as in policy:examples/policies/ppo_vs_random.npz")
    return PolicyAgent(load_policy(path), name)
