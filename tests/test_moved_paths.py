"""The engine's old import paths (chkobba.cards, ..., chkobba.fast) still give the moved modules.

They are deprecated until 0.3 (CHANGELOG.md); each must be the new module itself, so that
identity, isinstance and monkeypatching see one module.
"""

import importlib
import json
import subprocess
import sys
import warnings

import pytest

from chkobba._moved import MOVED

# Run in a fresh interpreter, where no old path was imported yet: each import warns once.
SCRIPT = """
import importlib, json, sys, warnings
from chkobba._moved import MOVED
out = {}
for old, new in MOVED.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    out[old] = {
        "same": module is importlib.import_module(new),
        "name": module.__name__,
        "spec": module.__spec__.name,
        "warnings": [str(w.message) for w in caught],
    }
print(json.dumps(out))
"""


def test_each_old_path_is_the_new_module_and_warns() -> None:
    """Importing an old path gives the new module itself, keeps its names, and warns."""
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert set(seen) == set(MOVED)
    for old, new in MOVED.items():
        assert seen[old]["same"] and seen[old]["name"] == new and seen[old]["spec"] == new, old
        if old == "chkobba.observe":
            # An alias from the start (the package's name observe is the function): no warning.
            assert seen[old]["warnings"] == []
        else:
            assert seen[old]["warnings"] == [
                f"{old} is deprecated; import {new} (the old path goes in 0.3)"
            ]


def test_names_and_identity_through_old_paths() -> None:
    """The names of the old paths are the new modules' objects (in this interpreter too)."""
    from chkobba.fishing import cards, rules
    from chkobba.search import fast

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from chkobba.cards import Card
        from chkobba.rules import CHKOBBA, RuleSet

        assert importlib.import_module("chkobba.rules") is rules
        assert importlib.import_module("chkobba.fast") is fast
        import chkobba.observe

    assert Card is cards.Card
    assert isinstance(CHKOBBA, RuleSet) and CHKOBBA is rules.CHKOBBA
    # The package's name observe stays the function, whatever was imported before.
    assert callable(chkobba.observe) and chkobba.observe.__module__ == "chkobba.fishing.observe"


def test_monkeypatch_through_an_old_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Patching the old path patches the module the engine uses."""
    from chkobba.fishing import rules

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        monkeypatch.setattr("chkobba.rules.RULES_VERSION", "patched")
    assert rules.RULES_VERSION == "patched"


def test_unknown_names_are_not_served() -> None:
    """Only the moved modules are served: a misspelt path still fails as before."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("chkobba.cardz")
