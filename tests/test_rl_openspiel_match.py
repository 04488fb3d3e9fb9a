"""The OpenSpiel game's ``infostate="match"`` parameter: the information state tensor
holds every earlier round of the match beside the round being played."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel missing: pip install 'chkobba[openspiel]'")

import pyspiel

import chkobba.rl.openspiel  # noqa: F401  # registers "chkobba"
from chkobba.fishing.rules import preset
from chkobba.rl.spaces import HISTORY_ENTRY, history_length

MATCH = {"preset": "scopa", "episode": "match", "max_rounds": 3}


def test_the_match_tensor_adds_one_row_per_earlier_round_and_keeps_them() -> None:
    """Beside the round's own tensor (unchanged), a row per earlier round: empty in the
    first round, filled once a round is over, and never changed after (perfect recall)."""
    by_round = pyspiel.load_game("chkobba", MATCH)
    by_match = pyspiel.load_game("chkobba", {**MATCH, "infostate": "match"})
    width = history_length(preset("scopa")) * HISTORY_ENTRY + 40
    size = by_round.information_state_tensor_size()
    assert by_match.information_state_tensor_size() == size + 2 * width
    state = by_match.new_initial_state()
    twin = by_round.new_initial_state()
    rng = random.Random(2)
    kept: dict[int, list[np.ndarray]] = {0: [], 1: []}
    rounds_seen = set()
    while not state.is_terminal():
        if not state.is_chance_node():
            done = state.rounds_played
            rounds_seen.add(done)
            for p in range(2):
                t = np.asarray(state.information_state_tensor(p))
                assert np.array_equal(t[:size], twin.information_state_tensor(p))
                rows = t[size:].reshape(2, width)
                assert rows[done:].sum() == 0, "no row for a round not played yet"
                assert all(rows[k].any() for k in range(done))
                for k, row in enumerate(kept[p]):
                    assert np.array_equal(rows[k], row), "an earlier round never changes"
                kept[p] = [rows[k].copy() for k in range(done)]
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        twin.apply_action(action)
    assert rounds_seen >= {0, 1}


def test_infostate_match_needs_a_match_episode() -> None:
    """A round episode has no earlier round: the parameter says what it needs."""
    with pytest.raises(Exception, match="episode='match'"):
        pyspiel.load_game("chkobba", {"infostate": "match"})
    with pytest.raises(Exception, match="infostate"):
        pyspiel.load_game("chkobba", {"infostate": "season"})
