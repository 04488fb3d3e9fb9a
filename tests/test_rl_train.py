"""The training example's export: the numpy policy computes what the torch network does.

Needs the ``train`` extra (torch, sb3-contrib); skipped without it, as in CI.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from chkobba.rl.policy import load_policy
from chkobba.rl.spaces import OBS_SIZE

pytest.importorskip("pettingzoo")
pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

EXAMPLE = Path(__file__).parent.parent / "examples" / "train_maskable_ppo.py"


def example() -> ModuleType:
    """The training example, imported from its file."""
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_exported_policy_matches_the_torch_network(tmp_path: Path) -> None:
    """The .npz written by export() gives the torch actor's logits (to float16 rounding)."""
    from sb3_contrib import MaskablePPO

    from chkobba.rl import ChkobbaGymEnv

    ex = example()
    env = ChkobbaGymEnv(opponent="random", seat=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, seed=0,
                        policy_kwargs={"net_arch": {"pi": [32, 16], "vf": [16]}})
    path = tmp_path / "p.npz"
    ex.export(model, path)
    policy = load_policy(path)
    x = np.random.default_rng(1).random((5, OBS_SIZE), dtype=np.float32)
    with torch.no_grad():
        t = torch.as_tensor(x)
        want = model.policy.action_net(model.policy.mlp_extractor.forward_actor(t)).numpy()
    got = np.stack([policy.logits(row) for row in x])
    assert np.allclose(got, want, atol=0.02)
