"""The import paths that moved in 0.2, kept working until 0.3 (CHANGELOG.md).

The Chkobba family's engine moved from the package's root into :mod:`chkobba.fishing`, and the
compiled fast path's wrapper into :mod:`chkobba.search.fast`. Importing an old path (``import
chkobba.rules``, ``from chkobba.cards import Card``) warns once and gives the new module itself:
the same module object, so identity, ``isinstance`` and monkeypatching see one module.

The old paths are served by an import hook rather than by files left at the old places, so that
version control sees the files as moved (a change made elsewhere to ``chkobba/rules.py`` follows
it to ``chkobba/fishing/rules.py`` when merged). Type checkers read the ``.pyi`` stubs left at the
old paths.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Final

#: Each old module path and the module that now holds it.
MOVED: Final[dict[str, str]] = {
    **{
        f"chkobba.{name}": f"chkobba.fishing.{name}"
        for name in (
            "cards",
            "rules",
            "scoring",
            "captures",
            "moves",
            "game",
            "match",
            "record",
            "recordfile",
            "observe",
            "narrate",
        )
    },
    "chkobba.fast": "chkobba.search.fast",
}


class MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path of :data:`MOVED` and loads it as the new module."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """A spec for an old path, served by this loader; None for every other name."""
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        """The new module itself (imported if it was not), after a deprecation warning."""
        new = MOVED[spec.name]
        # stacklevel 2 names the importing line: the import system's own frames are skipped.
        warnings.warn(
            f"{spec.name} is deprecated; import {new} (the old path goes in 0.3)",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        # The import system writes the old spec over the module's own before exec_module;
        # keep the true one to put back there.
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the new module ran when first imported); restore its own spec."""
        old = next((o for o, n in MOVED.items() if n == module.__name__), None)
        if old is not None and old in self._specs:
            module.__spec__ = self._specs.pop(old)

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}


def install() -> None:
    """Serve the old paths from now on (once, however often called)."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedFinder())
