"""Saving a game record from the terminal, for every game, and saying where it went."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.markup import escape


class Savable(Protocol):
    """A record of any game: it can write itself to a file."""

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``."""


def save_record(console: Console, record: Savable, path: Path) -> Path | None:
    """Write ``record`` to ``path``; say where and how to replay it, or why it could not be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        record.save(path)
    except OSError as e:
        reason = e.strerror or str(e)
        if e.filename is not None and str(e.filename) != str(path):
            # The fault is on the way there (a folder that is a file, say): name it.
            reason = f"{reason}: {e.filename}"
        console.print(
            f"[bold red]Could not save the game record to {escape(str(path))}: "
            f"{escape(reason)}[/bold red]",
            soft_wrap=True,
        )
        return None
    # Soft wrap keeps a long path on one line, so it can be copied whole.
    where = escape(str(path))
    console.print(f"Game record saved to [bold]{where}[/bold]", soft_wrap=True)
    console.print(f"  replay it with: chkobba replay {where}", soft_wrap=True)
    return path
