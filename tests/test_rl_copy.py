"""The RL environments copy and pickle (issue 25): search over copies and saved snapshots
need them, and the compiled kernel's rules (``chkobba._fastcore.Rules``) would not pickle.

Each environment is played some way, copied (``copy.deepcopy``) and pickled; the copies
then continue exactly as the original does with the same actions.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

from chkobba.fishing.rules import PRESETS, preset
from chkobba.search import fast

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")


@pytest.mark.skipif(not fast.AVAILABLE, reason="needs the compiled kernel")
@pytest.mark.parametrize("name", ["chkobba", "scopa", "cirulla"])
def test_the_kernel_rules_pickle_and_copy(name: str) -> None:
    from chkobba._fastcore import legal_plays

    rules = fast.kernel_rules(preset(name))
    again = pickle.loads(pickle.dumps(rules))
    assert type(again) is type(rules) and again is not rules
    assert copy.deepcopy(rules) is rules and copy.copy(rules) is rules  # immutable
    rng = random.Random(name)
    for _ in range(200):
        hand = sum(1 << c for c in rng.sample(range(40), 3))
        table = sum(1 << c for c in rng.sample(range(40), 5)) & ~hand
        assert legal_plays(again, hand, table, 0) == legal_plays(rules, hand, table, 0)
    # The pickle rebuilds through the constructor, which checks the arguments again.
    assert pickle.loads(pickle.dumps(fast.kernel_rules(PRESETS["scopone"]))) is not None


def _aec_trace(env: Any, actions: random.Random, steps: int) -> list[Any]:
    out = []
    for _ in range(steps):
        agent = env.agent_selection
        obs, reward, term, trunc, _ = env.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
        if term or trunc:
            env.step(None)
            if not env.agents:
                break
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[actions.randrange(len(legal))]))
    return out


@pytest.mark.parametrize(("rules", "seats", "teams"), [("chkobba", 2, False), ("scopa", 4, True)])
def test_the_aec_env_copies_and_pickles_and_goes_on_alike(
    rules: str, seats: int, teams: bool
) -> None:
    from chkobba.rl import raw_env

    env = raw_env(rules, seats=seats, teams=teams)
    env.reset(seed=7)
    _aec_trace(env, random.Random(1), 25)
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    expected = _aec_trace(env, random.Random(2), 400)
    assert len(expected) > 10
    for c in copies:
        assert _aec_trace(c, random.Random(2), 400) == expected


def _gym_trace(env: Any, actions: random.Random, steps: int) -> list[Any]:
    out = []
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        obs, reward, term, trunc, _ = env.step(int(legal[actions.randrange(len(legal))]))
        out.append((obs.tobytes(), float(reward), term, trunc))
        if term or trunc:
            obs, _ = env.reset()
            out.append(obs.tobytes())
    return out


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_the_gym_env_copies_and_pickles_and_goes_on_alike(opponent: str) -> None:
    from chkobba.rl import ChkobbaGymEnv

    env = ChkobbaGymEnv(opponent=opponent)
    env.reset(seed=3)
    _gym_trace(env, random.Random(1), 10)
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    expected = _gym_trace(env, random.Random(2), 120)
    for c in copies:
        assert _gym_trace(c, random.Random(2), 120) == expected


def _spiel_trace(state: Any, rng: random.Random, steps: int) -> list[Any]:
    out = []
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            out.append(state.information_state_string())
        state.apply_action(action)
        out.append((action, str(state)))
    out.append(state.returns() if state.is_terminal() else None)
    return out


def test_the_openspiel_state_copies_and_pickles_and_goes_on_alike() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.rl.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("chkobba", {"preset": "scopa"})
    state = game.new_initial_state()
    _spiel_trace(state, random.Random(1), 30)
    copies = [copy.deepcopy(state), pickle.loads(pickle.dumps(state)), state.clone()]
    expected = _spiel_trace(state, random.Random(2), 500)
    for c in copies:
        assert _spiel_trace(c, random.Random(2), 500) == expected
