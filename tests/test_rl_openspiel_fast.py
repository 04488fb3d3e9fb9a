"""The OpenSpiel game's fast path (rounds played by the compiled kernel) against its pure
path (the engine): the same game, step for step, along random games of several tables."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel missing: pip install 'chkobba[openspiel]'")

import pyspiel

from chkobba.rl import openspiel as osp

pytestmark = pytest.mark.skipif(
    not pyspiel.load_game("chkobba").new_initial_state().fast,
    reason="the compiled kernel is not built (or CHKOBBA_PURE is set)",
)

CONFIGS = [
    {},
    {"preset": "scopa", "players": 4, "teams": True},
    {"preset": "cirulla", "players": 3},
    {"preset": "chkop"},
    {"preset": "escoba", "episode": "match", "max_rounds": 2},
]


def _views(state: object, players: int) -> list[object]:
    """Everything a player or an algorithm can read of a state."""
    s = state
    out: list[object] = [str(s), s.returns(), s.is_terminal()]  # type: ignore[attr-defined]
    for p in range(players):
        out += [
            s.information_state_string(p),  # type: ignore[attr-defined]
            s.observation_string(p),  # type: ignore[attr-defined]
            np.asarray(s.information_state_tensor(p)).tobytes(),  # type: ignore[attr-defined]
            np.asarray(s.observation_tensor(p)).tobytes(),  # type: ignore[attr-defined]
            s.legal_actions(p),  # type: ignore[attr-defined]
        ]
    return out


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: ",".join(map(str, p.values())) or "-")
def test_the_fast_path_plays_the_pure_paths_game(
    params: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two states, one on each path, given the same random actions: the same player to
    move, legal actions, chance outcomes and returns at every step, and the same strings
    and tensors where asked (at random steps, so the engine's round catches up on several
    kernel steps at once), through clones and serialization too."""
    game = pyspiel.load_game("chkobba", params)
    players = game.num_players()
    for seed in range(2):
        rng = random.Random(seed)
        fast = game.new_initial_state()
        monkeypatch.setattr(osp, "FAST", False)
        pure = game.new_initial_state()
        monkeypatch.setattr(osp, "FAST", True)
        assert fast.fast and not pure.fast
        steps = 0
        while not pure.is_terminal():
            assert fast.current_player() == pure.current_player()
            assert fast.is_chance_node() == pure.is_chance_node()
            legal = pure.legal_actions()
            assert fast.legal_actions() == legal
            if pure.is_chance_node():
                assert fast.chance_outcomes() == pure.chance_outcomes()
            elif rng.random() < 0.15:
                assert _views(fast, players) == _views(pure, players)
            if rng.random() < 0.03:
                fast = fast.clone()
            if rng.random() < 0.01:
                _game, fast = pyspiel.deserialize_game_and_state(
                    pyspiel.serialize_game_and_state(game, fast))
            action = rng.choice(legal)
            fast.apply_action(action)
            pure.apply_action(action)
            steps += 1
        assert fast.is_terminal()
        assert fast.returns() == pure.returns()
        assert _views(fast, players) == _views(pure, players)
        assert fast.history() == pure.history()
        assert steps > 60


def test_an_illegal_action_is_the_engines_error_on_both_paths() -> None:
    """The fast path refuses an illegal action with the pure path's error, and the state
    is unchanged."""
    game = pyspiel.load_game("chkobba")
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    before = state.information_state_string(state.current_player())
    illegal = next(a for a in range(40) if a not in state.legal_actions())
    with pytest.raises(osp.IllegalAction):
        state.apply_action(illegal)
    assert state.information_state_string(state.current_player()) == before


def test_the_kernels_chance_outcomes_are_the_reference() -> None:
    """A draw's chance outcomes made by the kernel (one C call on the mask of the cards
    left) are the pure reference's: (card, 1/n) for each of the n cards, ascending."""
    rng = random.Random(7)
    masks = [osp._FULL_DECK, 0, 1, 1 << 39, (1 << 39) | 1]
    masks += [rng.getrandbits(40) for _ in range(300)]
    for left in masks:
        cards = [c for c in range(40) if left >> c & 1]
        want = [(c, 1.0 / len(cards)) for c in cards]
        assert osp._outcomes_py(left) == want
        assert osp._fastcore.spiel_outcomes(left) == want
    assert osp.outcomes_of is osp._fastcore.spiel_outcomes
    with pytest.raises(ValueError, match="above 39"):
        osp._fastcore.spiel_outcomes(1 << 40)


@pytest.mark.parametrize("drawn", [1, 38], ids=["first draw", "last draw"])
def test_a_card_that_is_not_left_is_refused_and_changes_nothing(drawn: int) -> None:
    """At a draw (one that ends no shuffle, or the 39th), a card already drawn or no card
    at all is OpenSpiel's error, and the state stays as it was."""
    game = pyspiel.load_game("chkobba")
    state = game.new_initial_state()
    state.apply_action(0)
    for c in range(drawn):
        state.apply_action(c)
    before = (state.history(), state.chance_outcomes(), str(state))
    for bad in (0, drawn - 1, 40, 82):
        with pytest.raises(pyspiel.SpielError, match="not a card left"):
            state.apply_action(bad)
        assert (state.history(), state.chance_outcomes(), str(state)) == before
    state.apply_action(39)  # a card left: drawn
    if drawn == 1:
        assert [a for a, _ in state.chance_outcomes()] == list(range(1, 39))
    else:  # the shuffle is whole (this deck is not void): the cutter decides
        assert state.current_player() == 1 and state.legal_actions() == [81, 82]


def test_a_clone_mid_round_goes_its_own_way() -> None:
    """A clone taken mid-round (the kernel's round, the deals, the shuffle's cards all in
    the state's one data object) shares nothing with its original: playing the clone to
    the end leaves the original as it was, and the original then plays as a fresh clone."""
    game = pyspiel.load_game("chkobba", {"preset": "cirulla", "players": 3})
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node() or len(state.history()) < 55:
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_chance_node() and state.data.deals[-1].core is not None
    before = [*_views(state, 3), state.history()]
    spare = state.clone()
    clone = state.clone()
    while not clone.is_terminal():
        clone.apply_action(rng.choice(clone.legal_actions()))
    assert [*_views(state, 3), state.history()] == before
    for s in (state, spare):
        play = random.Random(6)
        while not s.is_terminal():
            s.apply_action(play.choice(s.legal_actions()))
    assert state.history() == spare.history() and state.returns() == spare.returns()
