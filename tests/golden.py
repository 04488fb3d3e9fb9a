"""What the reference playthrough tests share: comparing a regenerated text with the
checked-in file, and reading a Chkobba-family playthrough back through the engine."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from chkobba.fishing.match import Match
from chkobba.fishing.moves import parse_move


def check_checked_in(path: Path, actual: str, regen: str) -> None:
    """Fail with the start of a diff unless ``actual`` is the text of ``path``, byte for byte.

    ``regen`` names the script that rewrites the file after an intended change.
    """
    run = f".venv/bin/python tests/{regen}"
    assert path.exists(), f"{path} is missing: run {run}"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            f"{path.name} (checked in)",
            f"{path.name} (now)",
            lineterm="",
        )
        pytest.fail(f"behaviour changed; if intended, run {run}\n" + "\n".join(list(diff)[:80]))


def replay_playthrough(text: str, m: Match) -> None:
    """Read a playthrough back independently on a fresh match ``m``: each state's listed
    moves are the legal ones, the applied move is among them, the totals agree, and the
    match ends with the winner the file names."""
    states = 0
    legal: list[str] = []
    for line in text.splitlines():
        if line.startswith("state "):
            assert int(line.split()[3]) == m.turn, line
        elif line.startswith("  legal ("):
            head, _, moves = line.partition("): ")
            legal = moves.split()
            assert len(legal) == int(head.removeprefix("  legal ("))
            assert legal == [str(mv) for mv in m.legal_moves()]
        elif line.startswith("  apply: "):
            move = line.removeprefix("  apply: ")
            assert move in legal
            m.apply(parse_move(move), seat=m.turn)
            states += 1
        elif line.startswith("totals: "):
            assert line == f"totals: {m.totals}"
    assert m.is_over
    assert text.rstrip().endswith(f"winner: side {m.winner}")
    assert states == text.count("\nstate ")
