"""Touti reference playthroughs: seeded matches checked in state by state.

Any change in behaviour shows as a diff; after an intended change run
``.venv/bin/python tests/regen_touti.py`` and review it.
"""

from __future__ import annotations

import json

import pytest

from golden import check_checked_in
from regen_touti import GAMES, PERFT, Game, path_of, perft_counts, playthrough


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_touti_playthrough_matches_the_checked_in_file(game: Game) -> None:
    check_checked_in(path_of(game), playthrough(game), "regen_touti.py")


def test_touti_perft_counts() -> None:
    """The number of move sequences two tricks deep along fixed deals is unchanged."""
    assert json.loads(PERFT.read_text(encoding="utf-8")) == perft_counts()
