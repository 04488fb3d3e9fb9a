"""Reference playthroughs of every preset of the Scopa family (RULES.md §3).

The same form as ``test_playthroughs.py`` (OpenSpiel ``integration_tests/playthroughs``):
seeded matches written state by state and checked in, so any change in a preset's
behaviour shows as a diff. After an intended change, run
``.venv/bin/python tests/regen.py`` and review the diff.
"""

from __future__ import annotations

import difflib

import pytest

from chkobba.match import Match
from chkobba.moves import parse_move
from chkobba.rules import PRESETS, preset
from regen import PRESET_GAMES, Game, playthrough, playthrough_path


def test_every_preset_has_a_playthrough() -> None:
    assert sorted(g.rules for g in PRESET_GAMES) == sorted(n for n in PRESETS if n != "chkobba")


@pytest.mark.parametrize("game", PRESET_GAMES, ids=lambda g: g.name)
def test_preset_playthrough_matches_the_checked_in_file(game: Game) -> None:
    """Regenerating the playthrough gives the checked-in text, byte for byte."""
    path = playthrough_path(game)
    assert path.exists(), f"{path} is missing: run .venv/bin/python tests/regen.py"
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(game)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "checked in", "now", lineterm=""
        )
        pytest.fail(
            "behaviour changed; if intended, run .venv/bin/python tests/regen.py\n"
            + "\n".join(list(diff)[:80])
        )


@pytest.mark.parametrize("game", PRESET_GAMES, ids=lambda g: g.name)
def test_preset_playthrough_replays_as_a_legal_match(game: Game) -> None:
    """Read back independently: the listed moves are the legal ones under the preset, the
    applied move is among them, and the match ends with the winner the file names."""
    text = playthrough_path(game).read_text(encoding="utf-8")
    assert text.splitlines()[2].startswith(f"rules: {game.rules} ")
    m = Match(preset(game.rules, game.options), game.seats, game.teams, seed=game.seed)
    legal: list[str] = []
    states = 0
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
