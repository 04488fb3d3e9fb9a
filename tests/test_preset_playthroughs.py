"""Reference playthroughs of every preset of the Scopa family (docs/rules.md §3).

The same form as ``test_playthroughs.py`` (OpenSpiel ``integration_tests/playthroughs``):
seeded matches written state by state and checked in, so any change in a preset's
behaviour shows as a diff. After an intended change, run
``.venv/bin/python tests/regen.py`` and review the diff.
"""

from __future__ import annotations

import pytest

from chkobba.fishing.match import Match
from chkobba.fishing.rules import PRESETS, preset
from golden import check_checked_in, replay_playthrough
from regen import PRESET_GAMES, Game, playthrough, playthrough_path


def test_every_preset_has_a_playthrough() -> None:
    assert sorted(g.rules for g in PRESET_GAMES) == sorted(n for n in PRESETS if n != "chkobba")


@pytest.mark.parametrize("game", PRESET_GAMES, ids=lambda g: g.name)
def test_preset_playthrough_matches_the_checked_in_file(game: Game) -> None:
    """Regenerating the playthrough gives the checked-in text, byte for byte."""
    check_checked_in(playthrough_path(game), playthrough(game), "regen.py")


@pytest.mark.parametrize("game", PRESET_GAMES, ids=lambda g: g.name)
def test_preset_playthrough_replays_as_a_legal_match(game: Game) -> None:
    """Read back independently: the listed moves are the legal ones under the preset, the
    applied move is among them, and the match ends with the winner the file names."""
    text = playthrough_path(game).read_text(encoding="utf-8")
    assert text.splitlines()[2].startswith(f"rules: {game.rules} ")
    replay_playthrough(
        text, Match(preset(game.rules, game.options), game.seats, game.teams, seed=game.seed)
    )
