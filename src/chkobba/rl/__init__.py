"""Reinforcement learning: the ``chkobba_v1`` PettingZoo and Gymnasium environments.

``chkobba.rl.env()`` / ``raw_env`` are the PettingZoo AEC environment
(:mod:`chkobba.rl.aec`), :class:`ChkobbaGymEnv` the single-agent Gymnasium
wrapper against a built-in player (:mod:`chkobba.rl.gym`), and
:mod:`chkobba.rl.spaces` the versioned action and observation spaces. The
environments need the ``rl`` extra (``pip install 'chkobba[rl]'``); the spaces
and a trained policy (:mod:`chkobba.rl.policy`) need only numpy.
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

__all__ = ["ChkobbaGymEnv", "IllegalActionPenalty", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    # Imported on first use so that the numpy-only parts load without PettingZoo.
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'chkobba.rl' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
