"""Saving a game record from the terminal, for every game, and saying where it went."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.markup import escape

from chkobba.words import DEFAULT_LANGUAGE, word


class Savable(Protocol):
    """A record of any game: it can write itself to a file."""

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``."""


def chkobba_command() -> str:
    """How to type the ``chkobba`` command in this shell, so a printed command works as is.

    ``chkobba`` when that name on the PATH is this program (or, run some other way,
    names one at all); else the path it was started by (``.venv/bin/chkobba`` after
    the quick start, which installs into a virtualenv it does not activate), or the
    one installed beside this Python.
    """
    on_path = shutil.which("chkobba")
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name == "chkobba" and started.is_file():
        if on_path is not None and Path(on_path).resolve() == started.resolve():
            return "chkobba"
        return shlex.quote(str(started))
    if on_path is not None:
        return "chkobba"
    beside = Path(sys.executable).parent / "chkobba"
    if beside.is_file():
        try:
            shown = os.path.relpath(beside)
        except ValueError:  # another drive (Windows)
            shown = str(beside)
        if not shown.startswith(".."):
            shown = shown if os.sep in shown else f".{os.sep}{shown}"
            return shlex.quote(shown)
        return shlex.quote(str(beside))
    return "chkobba"


def save_record(
    console: Console, record: Savable, path: Path, lang: str = DEFAULT_LANGUAGE
) -> Path | None:
    """Write ``record`` to ``path``; say where and how to replay it, or why it could not be
    (in ``lang``)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        record.save(path)
    except OSError as e:
        reason = e.strerror or str(e)
        if e.filename is not None and str(e.filename) != str(path):
            # The fault is on the way there (a folder that is a file, say): name it.
            reason = f"{reason}: {e.filename}"
        failed = word(lang, "terminal", "record_not_saved", path=path, reason=reason)
        console.print(f"[bold red]{escape(failed)}[/bold red]", soft_wrap=True)
        return None
    # Soft wrap keeps a long path on one line, so it can be copied whole.
    where = escape(str(path))
    before, _, after = word(lang, "terminal", "record_saved", path="\x00").partition("\x00")
    console.print(f"{escape(before)}[bold]{where}[/bold]{escape(after)}", soft_wrap=True)
    command = f"{chkobba_command()} replay {shlex.quote(str(path))}"
    console.print(escape(word(lang, "terminal", "record_replay", command=command)),
                  soft_wrap=True)
    return path
