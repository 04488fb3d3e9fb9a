"""A script run as ``python bench/NAME.py`` puts its own folder first on ``sys.path``, so a
script named like a module of the standard library hides it from every script there
(``bench/queue.py`` once broke ``concurrent.futures`` for all of ``bench/``)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_script_is_named_like_a_standard_module() -> None:
    folders = ("bench", "examples", "scripts", "tests")
    scripts = [p for d in folders for p in (ROOT / d).glob("*.py")]
    assert len(scripts) > 20
    clashing = sorted(p.relative_to(ROOT).as_posix() for p in scripts
                      if p.stem in sys.stdlib_module_names)
    assert clashing == []
