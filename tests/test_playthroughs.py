"""Reference playthroughs (OpenSpiel ``integration_tests/playthroughs``): seeded matches
written state by state and checked in; any change in behaviour shows as a diff.

After an intended change, run ``.venv/bin/python tests/regen.py`` and review the diff.
"""

from __future__ import annotations

import difflib

import pytest

from chkobba.match import Match
from chkobba.moves import parse_move
from chkobba.rules import preset
from regen import GAMES, Game, playthrough, playthrough_path


def _diff(expected: str, actual: str, name: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(),
        actual.splitlines(),
        f"{name} (checked in)",
        f"{name} (now)",
        lineterm="",
    )
    return "\n".join(list(lines)[:80])


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_playthrough_matches_the_checked_in_file(game: Game) -> None:
    """Regenerating the playthrough gives the checked-in text, byte for byte."""
    path = playthrough_path(game)
    assert path.exists(), f"{path} is missing: run .venv/bin/python tests/regen.py"
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(game)
    if actual != expected:
        pytest.fail(
            "behaviour changed; if intended, run .venv/bin/python tests/regen.py\n"
            + _diff(expected, actual, path.name)
        )


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_playthrough_file_replays_as_a_legal_match(game: Game) -> None:
    """Read back independently: each state's listed moves are the legal ones, the applied
    move is among them, and the match ends with the winner the file names."""
    text = playthrough_path(game).read_text(encoding="utf-8")
    m = Match(preset("chkobba", game.options), game.seats, game.teams, seed=game.seed)
    states = 0
    legal: list[str] = []
    for line in text.splitlines():
        if line.startswith("state "):
            seat = int(line.split()[3])
            assert seat == m.turn, line
        elif line.startswith("  legal ("):
            head, _, moves = line.partition("): ")
            legal = moves.split()
            assert len(legal) == int(head.removeprefix("  legal ("))
            assert legal == [str(mv) for mv in m.legal_moves()]
        elif line.startswith("  apply: "):
            text_move = line.removeprefix("  apply: ")
            assert text_move in legal
            m.apply(parse_move(text_move), seat=m.turn)
            states += 1
        elif line.startswith("totals: "):
            assert line == f"totals: {m.totals}"
    assert m.is_over
    assert text.rstrip().endswith(f"winner: side {m.winner}")
    assert states == text.count("\nstate ")
