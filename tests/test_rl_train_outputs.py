"""The training example writes to new files, never over the committed ones (issue 25):
run as docs/rl.md gives it, it used to replace examples/policies/ppo_vs_random.* and
docs/img/ppo_vs_random.png.

Its command line is read without training; where torch and sb3-contrib are missing
(as in CI) they are stood in for by empty modules, which only the training touches.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "examples" / "train_maskable_ppo.py"
COMMITTED = [
    ROOT / "examples" / "policies" / "ppo_vs_random.npz",
    ROOT / "examples" / "policies" / "ppo_vs_random.json",
    ROOT / "docs" / "img" / "ppo_vs_random.png",
]


def _stand_in(monkeypatch: pytest.MonkeyPatch, name: str, **attrs: object) -> None:
    try:
        importlib.import_module(name)
    except ImportError:
        module = ModuleType(name)
        for k, v in attrs.items():
            setattr(module, k, v)
        monkeypatch.setitem(sys.modules, name, module)


@pytest.fixture
def example(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    pytest.importorskip("gymnasium")  # chkobba.rl's Gymnasium environment
    _stand_in(monkeypatch, "torch")
    _stand_in(monkeypatch, "sb3_contrib", MaskablePPO=object)
    _stand_in(monkeypatch, "stable_baselines3")
    _stand_in(monkeypatch, "stable_baselines3.common")
    _stand_in(monkeypatch, "stable_baselines3.common.callbacks", BaseCallback=object)
    _stand_in(monkeypatch, "stable_baselines3.common.monitor", Monitor=object)
    _stand_in(monkeypatch, "stable_baselines3.common.vec_env", DummyVecEnv=object, VecEnv=object)
    spec = importlib.util.spec_from_file_location("train_maskable_ppo_args", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_files_are_there() -> None:
    assert all(p.is_file() for p in COMMITTED)


def test_by_default_it_writes_into_a_new_folder_of_the_current_directory(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # where docs/rl.md runs it from
    args = example.arguments(["--minutes", "12"])
    written = {args.out, args.out.with_suffix(".json"), args.curve}
    assert {p.parent for p in written} == {Path("ppo-out")}
    assert not {p.resolve() for p in written} & {p.resolve() for p in COMMITTED}


def test_the_outputs_are_chosen_by_flags_and_never_overwritten_by_accident(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    args = example.arguments(["--out-dir", str(tmp_path / "run")])
    assert args.out == tmp_path / "run" / "ppo_vs_random.npz"
    assert args.curve == tmp_path / "run" / "ppo_vs_random.png"
    named = ["--out", str(COMMITTED[0]), "--curve", str(COMMITTED[2])]
    with pytest.raises(SystemExit) as stop:
        example.arguments(named)
    assert stop.value.code == 2  # an existing file, refused before any training
    args = example.arguments([*named, "--overwrite"])  # on purpose, it may
    assert (args.out, args.curve) == (COMMITTED[0], COMMITTED[2])

