"""Reference playthroughs (OpenSpiel ``integration_tests/playthroughs``): seeded matches
written state by state and checked in; any change in behaviour shows as a diff.

After an intended change, run ``.venv/bin/python tests/regen.py`` and review the diff.
"""

from __future__ import annotations

import pytest

from chkobba.fishing.match import Match
from chkobba.fishing.rules import preset
from golden import check_checked_in, replay_playthrough
from regen import GAMES, Game, playthrough, playthrough_path


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_playthrough_matches_the_checked_in_file(game: Game) -> None:
    """Regenerating the playthrough gives the checked-in text, byte for byte."""
    check_checked_in(playthrough_path(game), playthrough(game), "regen.py")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_playthrough_file_replays_as_a_legal_match(game: Game) -> None:
    """Read back independently: each state's listed moves are the legal ones, the applied
    move is among them, and the match ends with the winner the file names."""
    text = playthrough_path(game).read_text(encoding="utf-8")
    replay_playthrough(
        text, Match(preset("chkobba", game.options), game.seats, game.teams, seed=game.seed)
    )
