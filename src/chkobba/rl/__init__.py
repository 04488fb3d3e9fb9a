"""Reinforcement learning: the ``chkobba_v1`` PettingZoo and Gymnasium environments.

``chkobba.rl.env()`` / ``raw_env`` are the PettingZoo AEC environment
(:mod:`chkobba.rl.aec`), :class:`ChkobbaGymEnv` the single-agent Gymnasium
wrapper against a built-in player (:mod:`chkobba.rl.gym`), and
:mod:`chkobba.rl.spaces` the versioned action and observation spaces. The
environments need the ``rl`` extra (``pip install 'chkobba[rl]'``); the spaces
and a trained policy (:mod:`chkobba.rl.policy`) need only numpy.
:mod:`chkobba.rl.openspiel` is the OpenSpiel game ``chkobba`` (the ``openspiel``
extra); it is imported only when asked for. :mod:`chkobba.rl.vector` is the batched
environment, and :mod:`chkobba.rl.learn` trains PPO and A2C on it in NumPy
(:mod:`chkobba.rl.mlp`: the network and Adam), against random players or a pool of
the learner's past versions.

Importing this package registers the Gymnasium id :data:`GYM_ID`
(``gymnasium.make("chkobba/Chkobba-v1", opponent="greedy", rules="scopa")``, or
``gymnasium.make("chkobba.rl:chkobba/Chkobba-v1")`` without importing it first),
when Gymnasium is installed.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "env": "chkobba.rl.aec",
    "raw_env": "chkobba.rl.aec",
    "ChkobbaGymEnv": "chkobba.rl.gym",
    "IllegalActionPenalty": "chkobba.rl.gym",
}

__all__ = ["GYM_ID", "ChkobbaGymEnv", "IllegalActionPenalty", "env", "raw_env"]

GYM_ID = "chkobba/Chkobba-v1"
"""The Gymnasium id of :class:`ChkobbaGymEnv` (its keyword arguments pass through ``make``)."""


def _register() -> None:
    try:
        import gymnasium
    except ImportError:  # the rl extra is not installed: nothing to register with
        return
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="chkobba.rl.gym:ChkobbaGymEnv")


_register()


def __getattr__(name: str) -> Any:
    # Imported on first use so that the numpy-only parts load without PettingZoo.
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'chkobba.rl' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
