"""The environments as outside tools use them: conformance checkers that sample actions
without the mask, fresh arrays, finite bounds, the Gymnasium id, the state vector and
the observation options."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger

from chkobba.fishing.cards import cards_of
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe_round
from chkobba.fishing.rules import preset
from chkobba.rl import GYM_ID, ChkobbaGymEnv, IllegalActionPenalty, env, raw_env
from chkobba.rl.spaces import (
    HISTORY_ENTRY,
    NUM_ACTIONS,
    OBS_HIGH,
    OBS_LAYOUT,
    OBS_SIZE,
    STATE_LAYOUT,
    STATE_SIZE,
    IllegalAction,
    ObsSpec,
    encode,
    history_length,
)
from test_rl_env import swap_hidden

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation:UserWarning"),
    pytest.mark.filterwarnings("ignore:.*Illegal move made.*"),
]


def test_gymnasium_check_env_passes() -> None:
    """Gymnasium's own checker, which steps with unmasked samples, passes on the shipped
    environment and on the observation options, built through the registered id."""
    assert GYM_ID in gymnasium.registry
    for kwargs in ({}, {"rules": "scopa", "seats": 4, "teams": True, "history": True},
                   {"rules": "escoba", "seats": 3, "planes": False, "opponent": "greedy"}):
        e = gymnasium.make(GYM_ID, **kwargs)
        check_env(e.unwrapped, skip_render_check=True)


def test_stable_baselines3_check_env_passes() -> None:
    """Stable-Baselines3's checker too (the ``train`` extra)."""
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(ChkobbaGymEnv(), warn=True)


@pytest.mark.parametrize(("rules", "seats", "teams", "kwargs"), [
    ("chkobba", 2, False, {}),
    ("chkobba", 4, True, {"history": True}),
    ("scopa", 3, False, {"planes": False}),
    ("escoba", 2, False, {"episode": "match"}),
])
def test_pettingzoo_parallel_tests_pass(rules: str, seats: int, teams: bool,
                                        kwargs: dict[str, object]) -> None:
    """PettingZoo's parallel_api_test and parallel_seed_test, through
    turn_based_aec_to_parallel: its samples ignore the mask, and env() ends the episode."""
    parallel_api_test(turn_based_aec_to_parallel(env(rules, seats, teams, **kwargs)),
                      num_cycles=100)
    parallel_seed_test(lambda: turn_based_aec_to_parallel(env(rules, seats, teams, **kwargs)),
                       num_cycles=100)


def test_pettingzoo_tests_pass_with_the_options() -> None:
    """api_test and seed_test with the history and without the engineered planes."""
    api_test(env(history=True), num_cycles=60)
    seed_test(lambda: env("scopa", 2, history=True, planes=False), num_cycles=60)


def test_env_ends_the_episode_on_a_masked_action_and_raw_env_raises() -> None:
    """env() is PettingZoo classic's TerminateIllegalWrapper: a masked action ends the
    episode, -1 to the agent that chose it, 0 to the others; raw_env raises; anything that
    is no action id at all raises in both."""
    e = env()
    e.reset(seed=3)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for bad in (NUM_ACTIONS, -1, "x", None, 2.5):
        with pytest.raises(IllegalAction, match="action"):
            e.step(bad)  # type: ignore[arg-type]
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert all(r == 0 for a, r in e.rewards.items() if a != agent)
    for other in e.agents:
        assert not e.observe(other)["action_mask"].any()
    strict = raw_env()
    strict.reset(seed=3)
    with pytest.raises(IllegalAction):
        strict.step(illegal)


def _pettingzoo_stack(rules: str, seats: int, teams: bool, episode: Any) -> Any:
    """env() as PettingZoo's own classes would build it: two wrappers over raw_env."""
    return wrappers.OrderEnforcingWrapper(
        wrappers.TerminateIllegalWrapper(raw_env(rules, seats, teams, episode), -1.0)
    )


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from([("chkobba", 2, False, "round"), ("scopa", 4, True, "round"),
                     ("escoba", 3, False, "round"), ("chkobba", 2, False, "match")]),
    st.integers(0, 2**32 - 1),
)
def test_env_behaves_as_pettingzoos_two_wrappers(
    table: tuple[str, int, bool, str], seed: int
) -> None:
    """env()'s single layer does what PettingZoo's OrderEnforcingWrapper over its
    TerminateIllegalWrapper do, call for call: the same observations, rewards, ends,
    warnings and agents, along episodes with masked actions, NumPy integer actions, the
    done agents' None steps and steps after the end."""
    rules, seats, teams, episode = table
    ours = env(rules, seats, teams, episode)  # type: ignore[arg-type]  # a Literal
    theirs = _pettingzoo_stack(rules, seats, teams, episode)
    assert isinstance(ours, wrappers.OrderEnforcingWrapper)
    assert isinstance(ours, wrappers.TerminateIllegalWrapper)
    assert isinstance(ours.unwrapped, raw_env) and ours.env is ours.unwrapped
    rng = random.Random(seed)
    for episode_seed in (seed, None):
        EnvLogger.flush()
        ours.reset(seed=episode_seed)
        ours_log = list(EnvLogger.mqueue)
        EnvLogger.flush()
        theirs.reset(seed=episode_seed)
        assert list(EnvLogger.mqueue) == ours_log
        for _ in range(400 if episode == "round" else 2000):
            done = not ours.agents
            action: object = None  # once every agent is done: a step that only warns
            if not done:
                got, want = ours.last(), theirs.last()
                assert got[1:] == want[1:]
                assert np.array_equal(got[0]["observation"], want[0]["observation"])
                assert np.array_equal(got[0]["action_mask"], want[0]["action_mask"])
                mask = got[0]["action_mask"]
                if got[2] or got[3]:
                    action = None
                elif rng.random() < 0.02:
                    action = int(rng.choice(np.flatnonzero(mask == 0)))  # masked: ends it
                else:
                    action = rng.choice(np.flatnonzero(mask))  # a NumPy integer
                    if rng.random() < 0.5:
                        action = int(action)  # type: ignore[call-overload]
            for e in (ours, theirs):
                EnvLogger.flush()
                e.step(action)
                if e is ours:
                    ours_log = list(EnvLogger.mqueue)
            assert list(EnvLogger.mqueue) == ours_log
            for name in ("agents", "agent_selection", "rewards", "_cumulative_rewards",
                         "terminations", "truncations", "infos"):
                assert getattr(ours, name) == getattr(theirs, name), name
            if done:
                break
        else:
            raise AssertionError("the episode did not end")
    EnvLogger.flush()


def test_env_checks_the_order_of_calls() -> None:
    """Before reset(), env() refuses what OrderEnforcingWrapper refuses; agent_iter wants
    a step between two agents; a step once every agent is done only warns."""
    e = env()
    for name in ("agent_selection", "agents", "rewards", "terminations", "truncations",
                 "infos", "num_agents"):
        with pytest.raises(AttributeError, match="reset"):
            getattr(e, name)
    for call in (lambda: e.step(0), lambda: e.observe("player_0"), lambda: e.last(),
                 lambda: e.agent_iter()):
        with pytest.raises(AssertionError, match="reset"):
            call()
    e.reset(seed=5)
    assert e.num_agents == 2 and e.possible_agents == ["player_0", "player_1"]
    it = iter(e.agent_iter())
    assert next(it) == e.agent_selection
    with pytest.raises(AssertionError, match="step"):
        next(it)
    e.reset(seed=5)
    rng = random.Random(5)
    for _agent in e.agent_iter():
        obs, _r, term, trunc, _i = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not e.agents
    EnvLogger.flush()
    e.step(None)
    assert any("after all agents" in m for m in EnvLogger.mqueue)
    EnvLogger.flush()


def test_gym_terminates_on_a_masked_action_unless_strict() -> None:
    """The Gymnasium default ends the episode with the penalty and plays nothing; the
    strict mode raises and changes nothing; no action id at all raises in both."""
    e = ChkobbaGymEnv(seat=0, illegal_reward=-3.0)
    obs, _ = e.reset(seed=2)
    history = len(e.aec.match.round.history)
    illegal = int(np.flatnonzero(~e.action_masks())[0])
    with pytest.raises(IllegalAction, match="not an action id"):
        e.step(NUM_ACTIONS)
    after, rew, done, trunc, info = e.step(illegal)
    assert (rew, done, trunc, info["illegal_action"]) == (-3.0, True, False, illegal)
    assert np.array_equal(after, obs) and not info["action_mask"].any()
    assert len(e.aec.match.round.history) == history
    with pytest.raises(IllegalAction, match="reset"):
        e.step(illegal)
    strict = ChkobbaGymEnv(seat=0, illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    with pytest.raises(ValueError, match="illegal"):
        ChkobbaGymEnv(illegal="ignore")  # type: ignore[arg-type]
    wrapped = IllegalActionPenalty(ChkobbaGymEnv(seat=0, illegal="raise"), penalty=-5.0)
    first, _ = wrapped.reset(seed=2)
    second, rew, done, _t, _i = wrapped.step(illegal)
    assert rew == -5.0 and done and second is not first


def test_observations_are_fresh_arrays() -> None:
    """Each reset(), step() and last() gives new arrays: changing one changes nothing else
    (the aliasing of IllegalActionPenalty and of last()'s cached dict)."""
    g = ChkobbaGymEnv(seat=0)
    a, info_a = g.reset(seed=1)
    b, info_b = g.reset(seed=1)
    assert a is not b and np.array_equal(a, b)
    assert info_a["action_mask"] is not info_b["action_mask"]
    a[:] = 7
    c, _r, _d, _t, _i = g.step(int(np.flatnonzero(g.action_masks())[0]))
    assert not (c == 7).all()
    e = raw_env()
    e.reset(seed=1)
    one = e.last()[0]
    two = e.last()[0]
    assert one is not two and one["observation"] is not two["observation"]
    assert one["action_mask"] is not two["action_mask"]
    one["observation"][:] = 7
    one["action_mask"][:] = 0
    three = e.last()[0]
    assert np.array_equal(three["observation"], two["observation"])
    assert np.array_equal(three["action_mask"], two["action_mask"])


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["chkobba", "scopa", "escoba", "cirulla"]), st.integers(0, 2**32 - 1))
def test_observations_and_states_stay_within_finite_bounds(rules: str, seed: int) -> None:
    """Every vector of a whole match lies in its Box, whose bounds are finite."""
    e = raw_env(rules, 2, episode="match", history=True)
    box = e.observation_space("player_0")["observation"]
    assert np.isfinite(box.high).all() and np.isfinite(e.state_space.high).all()
    e.reset(seed=seed)
    rng = random.Random(seed)
    for _agent in e.agent_iter(max_iter=3000):
        obs, _r, term, trunc, _i = e.last()
        assert box.contains(obs["observation"])
        assert e.state_space.contains(e.state())
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_the_state_is_the_whole_table() -> None:
    """state(): every hand (absolute seats), the table, the stock's cards, the piles, the
    cut card during the cut; what the observation hides is there."""
    e = raw_env("chkobba", 3)
    e.reset(seed=9)
    r = e.match.round
    s = e.state()
    assert s.shape == (STATE_SIZE,)
    assert np.flatnonzero(s[STATE_LAYOUT["cut_card"]]).tolist() == [r.cut_card]
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    r = e.match.round
    s = e.state()
    hands = s[STATE_LAYOUT["hands"]].reshape(4, 40)
    for seat in range(3):
        assert np.flatnonzero(hands[seat]).tolist() == cards_of(r.hands[seat])
    assert not hands[3].any()
    assert np.flatnonzero(s[STATE_LAYOUT["stock"]]).tolist() == sorted(r.deck[r.stock_pos:])
    assert np.flatnonzero(s[STATE_LAYOUT["table"]]).tolist() == cards_of(r.table)
    assert s[STATE_LAYOUT["turn"]].argmax() == r.turn


def test_observation_options_have_their_documented_layout() -> None:
    """planes=False drops exactly the engineered planes; history=True appends
    history_length(rules) entries of HISTORY_ENTRY floats."""
    rules = preset("chkobba")
    plain = ObsSpec(rules)
    assert (plain.size, plain.name) == (OBS_SIZE, "chkobba_v1")
    bare = ObsSpec(rules, planes=False)
    assert bare.size == OBS_SIZE - 7 * 40 and "captures" not in bare.layout
    assert bare.layout["phase"].start == OBS_LAYOUT["phase"].start - 280
    full = ObsSpec(rules, history=True)
    assert history_length(rules) == 37  # 36 cards dealt to hands and the cut
    assert full.size == OBS_SIZE + 37 * HISTORY_ENTRY
    assert full.name == "chkobba_v1+history"
    assert len(full.high) == full.size and (full.high[:OBS_SIZE] >= OBS_HIGH).all()
    e = raw_env(planes=False)
    e.reset(seed=1)
    vec = e.last()[0]["observation"]
    ref = encode(observe_round(e.match.round, e.match.turn, (0, 0), 1, rules.target))
    assert np.array_equal(vec, np.concatenate([ref[:560], ref[840:]]))


def test_the_history_holds_every_play_in_order() -> None:
    """Perfect recall within the round: the history option lists every turn so far (the
    cut, then each play with its capture and sweep), seats relative to the observer."""
    e = raw_env("chkobba", 2, history=True)
    e.reset(seed=5)
    rng = random.Random(5)
    for _ in range(15):
        obs = e.last()[0]
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    r = e.match.round
    for seat, agent in enumerate(e.possible_agents):
        vec = e.observe(agent)["observation"]
        rows = vec[OBS_SIZE:].reshape(history_length(r.rules), HISTORY_ENTRY)
        assert rows[len(r.history):].sum() == 0
        for row, turn in zip(rows, r.history, strict=False):
            assert row[:4].argmax() == (turn.seat - seat) % 2
            if hasattr(turn.move, "card"):
                assert row[4:44].argmax() == turn.move.card
                assert np.flatnonzero(row[44:84]).tolist() == cards_of(turn.move.capture)
                assert row[84] == float(turn.chkobba)
            else:
                assert row[85:87].sum() == 1


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["chkobba", "scopa", "escoba"]),
       st.sampled_from([(2, False), (3, False), (4, True)]),
       st.integers(0, 2**32 - 1), st.integers(1, 60))
def test_the_history_never_holds_hidden_cards(
    rules: str, seating: tuple[int, bool], seed: int, steps: int
) -> None:
    """docs/rules.md §2.7: redealing the cards a seat has not seen leaves the perfect-recall
    vector unchanged."""
    seats, teams = seating
    m = Match(preset(rules), seats, teams, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_moves()))
    spec = ObsSpec(m.rules, history=True)
    r = m.round
    for seat in range(seats):
        def vec(rr: object, seat: int = seat) -> np.ndarray:
            return spec.encode(observe_round(rr, seat, tuple(m.totals), 1,  # type: ignore[arg-type]
                                             m.rules.target))

        base = vec(r)
        for _ in range(3):
            assert np.array_equal(vec(swap_hidden(r, seat, rng)), base)
