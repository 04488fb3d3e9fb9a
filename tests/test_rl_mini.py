"""The reduced Chkobba ``chkobba_mini``: a valid OpenSpiel game, perfect recall, solved by
CFR, and the players as tabular policies whose exploitability OpenSpiel measures."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel missing: pip install 'chkobba[openspiel]'")

import pyspiel

from chkobba.agents.base import make_agent
from chkobba.rl import mini

SMALL = {"ranks": 2, "hand": 1, "table": 1}
"""Four cards: a tree of a few dozen histories, solved in a blink."""


def test_the_variant_passes_openspiels_own_check() -> None:
    """random_sim_test (legal actions, chance, zero-sum returns, clones, serialization)."""
    pyspiel.random_sim_test(pyspiel.load_game("chkobba_mini"), num_sims=5, serialize=True,
                            verbose=False)


def test_points_follow_the_documented_rules() -> None:
    """Ace of diamonds on the table, seat 0 holds the other ace (it must take it: a sweep),
    seat 1 a 2 it can only lay; the last play scores no sweep, the 2 stays with nobody
    (no capture after it) and goes to the last capturer: seat 0 has 3 cards, 2 coins."""
    game = pyspiel.load_game("chkobba_mini", SMALL)
    state = game.new_initial_state()
    deal = next(i for i, d in enumerate(game.deals)
                if d.table == 1 << 20 and d.hands == (1 << 0, 1 << 21))
    state.apply_action(deal)
    assert state.legal_actions() == [game.cards.index(0) * mini.MAX_OPTIONS]
    state.apply_action(state.legal_actions()[0])
    assert state.sweeps == (1, 0)
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    # Seat 0: the sweep, more cards (3 to 0), more coins (2 to 0).
    assert state.points() == (3, 0) and state.returns() == [3.0, -3.0]


def test_cfr_approaches_equilibrium_and_players_are_measured() -> None:
    """CFR+ lowers the exploitability far under the uniform policy's; a player's tabular
    policy is deterministic, legal at every information state, and exploitable."""
    from open_spiel.python import policy as os_policy
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game("chkobba_mini", {"ranks": 3, "hand": 2, "table": 0})
    uniform = exploitability.exploitability(game, os_policy.UniformRandomPolicy(game))
    solver = cfr.CFRPlusSolver(game)
    # Ten iterations bring it well under the bound (deterministic: no luck is needed).
    for _ in range(10):
        solver.evaluate_and_update_policy()
    solved = exploitability.exploitability(game, solver.average_policy())
    assert solved < 0.05 < uniform
    table = mini.agent_policy(game, make_agent("greedy", 1).choose)
    for key, row in zip(table.state_lookup, table.action_probability_array, strict=True):
        assert sorted(row)[-1] == 1.0 and row.sum() == 1.0, key
    assert exploitability.exploitability(game, table) >= solved - 1e-9


def test_bad_parameters_are_clear_errors() -> None:
    """A deck too small for the deal is refused with the reason."""
    with pytest.raises(Exception, match="cannot deal"):
        pyspiel.load_game("chkobba_mini", {"ranks": 2, "hand": 3})
    with pytest.raises(Exception, match=r"(?i)unknown parameter"):
        pyspiel.load_game("chkobba_mini", {"suits": 4})


def test_the_recall_check_passes_and_catches_a_forgetful_string(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """check_recall accepts the game's strings, and refuses strings that forget the plays
    (two recalls in one string) or the hand (two situations in one string)."""
    game = pyspiel.load_game("chkobba_mini", {"ranks": 2, "hand": 2, "table": 0})
    histories, infostates = mini.check_recall(game)
    assert histories > infostates > 0
    monkeypatch.setattr(mini.MiniState, "information_state_text",
                        lambda self, player: f"p{player} {len(self.plays)}")
    with pytest.raises(mini.RecallError):
        mini.check_recall(game)
