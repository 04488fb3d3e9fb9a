"""The OpenSpiel game ``chkobba``: OpenSpiel's own conformance test, the information
states, resampling for ISMCTS, serialization and the bots as chkobba players."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel missing: pip install 'chkobba[openspiel]'")

import pyspiel

from chkobba.agents.base import AgentError, make_agent
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.rules import preset
from chkobba.rl import openspiel as osp

CONFIGS = [
    {},
    {"preset": "scopa", "players": 4, "teams": True},
    {"preset": "cirulla", "players": 3},
    {"preset": "escoba", "episode": "match", "max_rounds": 2},
]


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: ",".join(map(str, p.values())) or "-")
def test_openspiel_random_simulation_test_passes(params: dict[str, object]) -> None:
    """pyspiel.random_sim_test, OpenSpiel's own check of a game (legal actions, chance
    outcomes, returns within the utilities and zero-sum, observations, clones,
    serialization), on random games of each configuration (few: the suite stays fast)."""
    game = pyspiel.load_game(osp.GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2 if not params else 1, serialize=True,
                            verbose=False)


def play_to(game: object, actions: int, seed: int) -> object:
    """A state after ``actions`` random actions (chance ones included)."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_deal_is_explicit_chance() -> None:
    """The first chance node picks the dealer among the seats; then 39 draws of one card
    each, uniform among the cards left; the Chkobba cut is the cutter's decision."""
    game = pyspiel.load_game("chkobba", {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node() and [a for a, _ in state.chance_outcomes()] == [0, 1, 2]
    state.apply_action(1)
    for k in range(39):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 40 - k and all(p == pytest.approx(1 / (40 - k))
                                               for _, p in outcomes)
        state.apply_action(outcomes[0][0])
    assert state.current_player() == 2  # the seat after the dealer cuts
    assert state.legal_actions() == [81, 82]  # keep, table


@pytest.mark.parametrize("params", CONFIGS[:3], ids=["chkobba", "scopone", "cirulla"])
def test_resampling_keeps_the_information_state(params: dict[str, object]) -> None:
    """resample_from_infostate gives states the player cannot tell from this one (the
    same information state string and tensor, the same legal actions) that differ in
    cards it has not seen."""
    game = pyspiel.load_game("chkobba", params)
    for seed in range(4):
        state = play_to(game, 45 + 7 * seed, seed)
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        rng = np.random.RandomState(seed)
        others = set()
        for _ in range(5):
            world = state.resample_from_infostate(player, rng.uniform)
            assert world.information_state_string(player) == state.information_state_string(
                player)
            assert world.information_state_tensor(player) == state.information_state_tensor(
                player)
            assert world.legal_actions() == state.legal_actions()
            others.add(world.view_round().deck)
        hidden = state.observation_of(player).unseen.bit_count()
        assert len(others) > 1 or hidden < 2, "the hidden cards are drawn again"


def test_information_states_are_perfect_recall_and_private() -> None:
    """The information state keeps every earlier event (it only grows), holds the player's
    own cards and not the others'."""
    game = pyspiel.load_game("chkobba")
    state = play_to(game, 41, 3)
    seen = [state.information_state_string(p) for p in range(2)]
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        now = [state.information_state_string(p) for p in range(2)]
        for p in range(2):
            # Text added at the end (the choice under way aside).
            base = seen[p].split("\nchoosing")[0]
            assert now[p].startswith(base)
        seen = now
    # Each sees the hands it was dealt, and only those.
    hands = [{line for line in seen[p].splitlines() if line.startswith("hand")}
             for p in range(2)]
    r = state.view_round()
    assert len(hands[0]) == len(hands[1]) == 40 // (2 * r.rules.hand_size) - (
        r.rules.table_size // (2 * r.rules.hand_size))
    assert not hands[0] & hands[1]


def test_observers_shapes_and_public_view() -> None:
    """Tensors have the documented sizes; the public observation holds no hand."""
    game = pyspiel.load_game("chkobba")
    state = play_to(game, 45, 1)
    player = state.current_player()
    assert len(state.observation_tensor(player)) == 868
    assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
    from open_spiel.python.observation import make_observation

    public = make_observation(
        game, pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                         private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, player)
    assert not public.dict["observation"][:40].any()  # the hand plane
    text = public.string_from(state, player)
    assert "hand: -" in text
    private = make_observation(
        game, pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                                         private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    private.set_from(state, player)
    obs = state.observation_of(player)
    assert np.flatnonzero(private.dict["observation"][:40]).tolist() == [
        c for c in range(40) if obs.hand >> c & 1]
    assert not private.dict["observation"][40:280].any()  # no table, no piles
    assert private.string_from(state, player).startswith(f"p{player} hand ")
    with pytest.raises(ValueError, match="never all players"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_serialization_round_trips() -> None:
    """A state serialized with its game comes back the same (the chance outcomes are in
    the history)."""
    game = pyspiel.load_game("chkobba", {"preset": "scopa"})
    state = play_to(game, 70, 2)
    text = pyspiel.serialize_game_and_state(game, state)
    _game, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()
    assert state2.information_state_string(0) == state.information_state_string(0)


def test_bad_parameters_are_clear_errors() -> None:
    """Unknown presets, seatings and episodes are refused with a one-line reason."""
    for params, match in [({"preset": "poker"}, "poker"), ({"players": 5}, "2, 3 or 4"),
                          ({"episode": "season"}, "episode"), ({"max_rounds": 0}, "max_rounds")]:
        with pytest.raises(Exception, match=match):
            pyspiel.load_game("chkobba", params)


def test_openspiel_ismcts_plays_on_the_game() -> None:
    """OpenSpiel's own ISMCTS bot searches the game (it resamples from the infostate)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("chkobba")
    state = play_to(game, 45, 5)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 4.0, 20,
                           random_state=rng)
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize(("rules", "seats", "teams"),
                         [("chkobba", 2, False), ("scopa", 4, True), ("cirulla", 3, False),
                          ("chkop", 2, False)])
def test_a_state_rebuilt_from_an_observation_agrees_with_it(
    rules: str, seats: int, teams: bool
) -> None:
    """What the bots search from: a state whose round the seat sees exactly as it is."""
    game = pyspiel.load_game("chkobba", {"preset": rules, "players": seats, "teams": teams})
    for seed in range(3):
        m = Match(preset(rules), seats, teams, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 25)):
            m.apply(rng.choice(m.legal_moves()))
        obs = observe(m, m.turn)
        state = osp.state_from_observation(game, obs, rng)
        again = state.observation_of(obs.seat)
        assert again is not None
        for name in ("hand", "table", "piles", "unseen", "hand_sizes", "chkobba", "turn",
                     "phase", "cut_card"):
            assert getattr(again, name) == getattr(obs, name), name
        assert [t.move for t in again.history] == [t.move for t in obs.history]


def test_the_bots_are_chkobba_players() -> None:
    """openspiel-ismcts and openspiel-mcts are named players that choose legal moves."""
    m = Match(preset("chkobba"), 2, False, seed=8)
    rng = random.Random(8)
    for _ in range(7):
        m.apply(rng.choice(m.legal_moves()))
    for name in osp.BOTS:
        agent = make_agent(name, 1)
        agent.simulations = 10  # type: ignore[attr-defined]
        assert agent.choose(observe(m, m.turn)) in m.legal_moves()


def test_without_openspiel_the_bots_are_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where OpenSpiel is missing, naming the bots says what to install."""
    from chkobba.agents import base

    monkeypatch.setattr(base, "AGENTS", {k: v for k, v in base.AGENTS.items()
                                         if k not in base.OPENSPIEL_PLAYERS})
    monkeypatch.setattr(base.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(AgentError, match="pip install 'chkobba\\[openspiel\\]'"):
        make_agent("openspiel-ismcts", 0)


def test_the_worked_example_runs_and_never_overwrites(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """examples/openspiel_ismcts.py plays end to end, writes its summary to a new file,
    and refuses a file that exists."""
    import json
    import runpy
    import sys
    from pathlib import Path

    script = Path(__file__).parent.parent / "examples" / "openspiel_ismcts.py"
    out = Path(str(tmp_path)) / "summary.json"
    argv = [str(script), "--rounds", "2", "--simulations", "5", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(script), run_name="__main__")
    assert done.value.code == 0
    summary = json.loads(out.read_text())
    assert len(summary["margins"]) == 2 and summary["simulations"] == 5
    with pytest.raises(SystemExit) as again:
        runpy.run_path(str(script), run_name="__main__")
    assert again.value.code == 2 and json.loads(out.read_text()) == summary


def test_states_rebuild_at_every_decision_with_declared_hands() -> None:
    """Cirulla (docs/rules.md §3): hands declared at a deal are shown, and the rebuilt deal
    keeps them where they were, at every decision of whole rounds."""
    game = pyspiel.load_game("chkobba", {"preset": "cirulla"})
    declared = 0
    for seed in range(6):
        m = Match(preset("cirulla"), 2, False, seed=seed)
        rng = random.Random(seed)
        while not m.round.is_over and m.round_number == 1:
            obs = observe(m, m.turn)
            declared += bool(obs.declarations)
            state = osp.state_from_observation(game, obs, rng)
            assert state.observation_of(obs.seat).declarations == obs.declarations
            m.apply(rng.choice(m.legal_moves()))
    assert declared, "some hand was declared in these rounds"
