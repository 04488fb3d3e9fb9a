"""The batched environment (chkobba.rl.vector) against the single one, step by step.

``VecEnv`` game ``i`` after ``reset(seed=s)`` must be the PettingZoo ``raw_env`` after
``reset(seed=s + i)`` and its later ``reset()`` calls: the same vectors, masks, seats
to move, rewards and terminations for the same actions, in every preset at every
table of at most four seats.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from chkobba.fishing.rules import PRESETS
from chkobba.rl import raw_env
from chkobba.rl.spaces import KEEP, NUM_ACTIONS, OBS_LAYOUT, OBS_SIZE, TAKE, IllegalAction
from chkobba.rl.vector import AVAILABLE, VecEnv

pytestmark = [
    pytest.mark.skipif(not AVAILABLE, reason="the compiled kernel is not built"),
    # PettingZoo warns about any Dict observation, the convention of its own card games.
    pytest.mark.filterwarnings("ignore:Observation:UserWarning"),
]

TABLES = [
    (name, 4 if seating == "2v2" else int(seating), seating == "2v2")
    for name, rules in sorted(PRESETS.items())
    for seating in rules.seatings
    if seating != "6"
]
"""Every preset at every table the single environment holds."""


def check_rows(vec: VecEnv, batch: object, envs: list[raw_env], where: str) -> None:
    """Each game's row is what its single environment shows the agent to move."""
    for i, e in enumerate(envs):
        agent = e.agent_selection
        obs = e.observe(agent)
        assert int(batch.player[i]) == int(agent.removeprefix("player_")), where  # type: ignore[attr-defined]
        assert np.array_equal(batch.obs[i], obs["observation"]), f"{where}: game {i} vector"  # type: ignore[attr-defined]
        assert np.array_equal(batch.action_mask[i], obs["action_mask"].astype(bool)), (  # type: ignore[attr-defined]
            f"{where}: game {i} mask"
        )


def play_along(rules: str, seats: int, teams: bool, seed: int, n: int, steps: int) -> int:
    """Step ``n`` batched games and their single twins with the same random legal
    actions; return how many rounds ended."""
    vec = VecEnv(n, rules, seats, teams)
    batch = vec.reset(seed=seed)
    envs = []
    for i in range(n):
        e = raw_env(rules, seats, teams)
        e.reset(seed=seed + i)
        envs.append(e)
    check_rows(vec, batch, envs, f"{rules} {seats} {teams}: reset")
    rng = np.random.default_rng(seed)
    ended = 0
    for step in range(steps):
        where = f"{rules} {seats}{' teams' if teams else ''} seed {seed} step {step}"
        actions = vec.random_actions(rng)
        batch = vec.step(actions)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            if all(e.terminations.values()):
                ended += 1
                assert batch.terminations[i], where
                want = np.array([e.rewards[a] for a in e.possible_agents], np.float32)
                assert np.array_equal(batch.rewards[i], want), f"{where}: game {i} rewards"
                e.reset()
            else:
                assert not batch.terminations[i], where
                assert not batch.rewards[i].any(), where
        assert not batch.truncations.any()
        check_rows(vec, batch, envs, where)
    return ended


@pytest.mark.parametrize(("rules", "seats", "teams"), TABLES)
def test_every_preset_and_table_agrees_with_raw_env(rules: str, seats: int, teams: bool) -> None:
    """Random games of every preset and seating, step by step (auto-reset included)."""
    seed = zlib.crc32(f"{rules}{seats}{teams}".encode())
    ended = play_along(rules, seats, teams, seed, n=3, steps=160)
    assert ended >= 3  # every game played at least one whole round and a reset


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["chkobba", "cirulla", "escoba-del-15", "chkop"]),
       st.integers(0, 2**64 - 10))
def test_any_seed_agrees_with_raw_env(rules: str, seed: int) -> None:
    """Seeds anywhere in their range (two 32-bit words) deal what the single env deals."""
    play_along(rules, 2, False, seed, n=2, steps=45)


def test_capture_choices_are_played_action_by_action() -> None:
    """Where a card has several captures, play(c) opens a choice that takes name one by
    one (docs/rl.md, actions): the batch offers and follows them as the single env does."""
    vec = VecEnv(64, "escoba-del-15")
    batch = vec.reset(seed=5)
    rng = np.random.default_rng(5)
    takes = 0
    for _ in range(200):
        takes += int(batch.action_mask[:, TAKE:TAKE + 40].any(axis=1).sum())
        batch = vec.step(vec.random_actions(rng))
    assert takes > 0
    assert play_along("escoba-del-15", 2, False, 11, n=4, steps=60) >= 0


def void_cut_seed() -> int:
    """A seed whose first Chkobba deal, after the cutter keeps the cut card, is void."""
    for seed in range(5000):
        e = raw_env("chkobba")
        e.reset(seed=seed)
        e.step(KEEP)
        if e.match.void_deals:
            return seed
    raise AssertionError("no void deal in 5000 seeds")


def test_a_void_deal_after_the_cut_is_redealt_as_the_single_env_does() -> None:
    """docs/rules.md §2.2: a void deal is redone by the same dealer with a fresh shuffle."""
    seed = void_cut_seed()
    vec = VecEnv(1, "chkobba")
    vec.reset(seed=seed)
    e = raw_env("chkobba")
    e.reset(seed=seed)
    dealer = e.match.round.dealer
    batch = vec.step(np.array([KEEP]))
    e.step(KEEP)
    assert e.match.round.dealer == dealer and e.match.void_deals == 1
    assert not batch.terminations[0]
    assert batch.obs[0, OBS_LAYOUT["phase"]].tolist() == [1.0, 0.0]  # the cut again
    check_rows(vec, batch, [e], "after a void deal")


def test_auto_reset_reports_the_reward_and_the_next_deal() -> None:
    """The step that ends a round gives its rewards and the next round's first decision."""
    vec = VecEnv(8, "scopa")
    batch = vec.reset(seed=3)
    rng = np.random.default_rng(3)
    seen = 0
    for _ in range(120):
        batch = vec.step(vec.random_actions(rng))
        for i in np.flatnonzero(batch.terminations):
            seen += 1
            # Two sides: the rewards are the round's margin and its opposite.
            assert batch.rewards[i, 0] == -batch.rewards[i, 1]
            # A fresh deal: 3 cards in each hand, 4 on the table, 30 in the stock.
            assert batch.obs[i, OBS_LAYOUT["hand_sizes"]].tolist()[:2] == pytest.approx(
                [0.3, 0.3])
            assert batch.obs[i, OBS_LAYOUT["stock"]][0] == pytest.approx(30 / 40)
            assert batch.obs[i, OBS_LAYOUT["table"]].sum() == 4
        assert not batch.rewards[~batch.terminations].any()
    assert seen >= 8


def test_arrays_have_the_documented_shapes_and_dtypes() -> None:
    """obs [N, 868] float32, mask [N, 83] bool, player [N] int64, rewards [N, seats]."""
    vec = VecEnv(5, "chkobba", 4, True)
    b = vec.reset(seed=1)
    assert (b.obs.shape, b.obs.dtype) == ((5, OBS_SIZE), np.float32)
    assert (b.action_mask.shape, b.action_mask.dtype) == ((5, NUM_ACTIONS), np.bool_)
    assert (b.player.shape, b.player.dtype) == ((5,), np.int64)
    assert (b.rewards.shape, b.rewards.dtype) == ((5, 4), np.float32)
    assert b.terminations.dtype == b.truncations.dtype == np.bool_
    assert b.action_mask.any(axis=1).all()
    obs_space, act_space = vec.spaces()
    assert obs_space.shape == (OBS_SIZE,) and act_space.n == NUM_ACTIONS
    assert all(obs_space.contains(row) for row in b.obs)


def test_the_same_seed_and_actions_give_the_same_games() -> None:
    """Determinism: two batches from one seed stay equal; another seed deals otherwise."""
    a, b, c = VecEnv(16, "cirulla"), VecEnv(16, "cirulla"), VecEnv(16, "cirulla")
    ba, bb, bc = a.reset(seed=42), b.reset(seed=42), c.reset(seed=43)
    assert not np.array_equal(ba.obs, bc.obs)
    rng = np.random.default_rng(0)
    for _ in range(100):
        actions = a.random_actions(rng)
        ba, bb = a.step(actions), b.step(actions)
        for x, y in zip(ba, bb, strict=True):
            assert np.array_equal(x, y)
    # Game i of seed s is game i - 1 of seed s + 1.
    d = VecEnv(15, "cirulla")
    assert np.array_equal(d.reset(seed=43).obs, a.reset(seed=42).obs[1:])


def test_an_illegal_action_raises_and_changes_no_game() -> None:
    """on_illegal="raise" (raw_env's rule): the error names the game; nothing is played."""
    vec, twin = VecEnv(4, "chkobba"), VecEnv(4, "chkobba")
    batch = vec.reset(seed=9)
    twin.reset(seed=9)
    rng = np.random.default_rng(9)
    actions = vec.random_actions(rng)
    before = batch.obs.copy()
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(~batch.action_mask[2])[0])
    with pytest.raises(IllegalAction, match=r"^game 2: .* is illegal for player_\d now"):
        vec.step(bad)
    assert np.array_equal(batch.obs, before)  # the buffers were not written either
    for x, y in zip(vec.step(actions), twin.step(actions), strict=True):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("on_illegal", ["raise", "terminate"])
@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ([0, 83], r"game 1: 83 is not an action id: the ids are 0 to 82"),
        ([-1, 0], r"game 0: -1 is not an action id"),
        ([0.0, 1.0], r"action ids are integers, not float64 values"),
    ],
)
def test_what_is_no_action_id_always_raises(on_illegal: str, actions: list[float],
                                            message: str) -> None:
    """Out of range or not integers: a one-line error, whatever on_illegal says."""
    vec = VecEnv(2, "scopa", on_illegal=on_illegal)  # type: ignore[arg-type]
    vec.reset(seed=0)
    with pytest.raises(IllegalAction, match=message):
        vec.step(np.array(actions))


def test_a_masked_action_can_end_the_round_with_a_penalty() -> None:
    """on_illegal="terminate" (env()'s rule): that game's round ends with the penalty to
    the seat that chose the action and 0 to the others, and is dealt anew."""
    vec = VecEnv(3, "scopa", on_illegal="terminate", illegal_reward=-2.5)
    batch = vec.reset(seed=4)
    e = raw_env("scopa")
    e.reset(seed=5)  # game 1's twin
    e.reset()  # the deal that follows the penalised round
    actions = vec.random_actions(np.random.default_rng(4))
    mover = int(batch.player[1])
    actions[1] = int(np.flatnonzero(~batch.action_mask[1])[0])
    batch = vec.step(actions)
    assert batch.terminations.tolist() == [False, True, False]
    want = [0.0, 0.0]
    want[mover] = -2.5
    assert batch.rewards[1].tolist() == want
    assert not batch.rewards[[0, 2]].any()
    assert np.array_equal(batch.obs[1], e.observe(e.agent_selection)["observation"])


def test_bad_arguments_get_one_line_errors() -> None:
    """Shapes, seeds, tables and the order of calls."""
    with pytest.raises(ValueError, match="num_envs must be a positive number"):
        VecEnv(0)
    with pytest.raises(ValueError, match="at most 4 seats"):
        VecEnv(2, "scopa", 6)
    with pytest.raises(ValueError, match="teams need 4 players"):
        VecEnv(2, "chkobba", 3, True)
    with pytest.raises(ValueError, match="on_illegal must be"):
        VecEnv(2, on_illegal="skip")  # type: ignore[arg-type]
    vec = VecEnv(2)
    with pytest.raises(RuntimeError, match="reset the VecEnv before stepping it"):
        vec.step([81, 81])
    with pytest.raises(ValueError, match=r"seed must be from 0 to 2\*\*64 - num_envs"):
        vec.reset(seed=-1)
    with pytest.raises(ValueError, match=r"seed must be from 0 to 2\*\*64 - num_envs"):
        vec.reset(seed=2**64 - 1)
    vec.reset()
    with pytest.raises(ValueError, match=r"shape \(2,\), not \(3,\)"):
        vec.step([81, 81, 81])
    assert vec.legal(0, KEEP) and not vec.legal(0, 0)


@pytest.mark.parametrize(("rules", "seats", "teams", "plays"),
                         [("chkobba", 2, False, 18), ("scopa", 4, True, 9)])
def test_against_random_hands_every_game_to_the_learner(rules: str, seats: int, teams: bool,
                                                         plays: int) -> None:
    """AgainstRandom: after reset and each step the learner (seat i % seats) is to move in
    every game; a reward comes only with the end of a round, which the learner played
    through (at least its share of the 40 cards, less the table's)."""
    from chkobba.rl.vector import AgainstRandom

    env = AgainstRandom(32, rules, seats, teams)
    obs = env.reset(seed=7)
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(60):
        assert np.array_equal(env.vec._player, env.seat)
        assert env.action_masks().any(axis=1).all()
        choice = rng.random(env.action_masks().shape) * env.action_masks()
        obs, rewards, dones = env.step(np.argmax(choice, axis=1))
        assert obs.shape == (32, OBS_SIZE)
        assert not rewards[~dones].any()
        ended += int(dones.sum())
        lengths = env.episode_lengths[dones]
        assert (lengths >= plays).all() and (lengths <= 3 * plays).all()
    assert ended >= 32


def test_active_steps_only_the_games_marked() -> None:
    """step(actions, active): the other games keep their rows, and their actions (even
    no action id at all) are not read; each stepped game goes on as its twin does."""
    vec, twin = VecEnv(6, "chkobba"), VecEnv(6, "chkobba")
    vec.reset(seed=21)
    twin.reset(seed=21)
    active = np.array([True, False, True, False, True, False])
    for _ in range(50):
        actions = twin.sample_actions()
        frozen = [x.copy() for x in (vec._obs, vec._mask, vec._player)]
        mixed = np.where(active, actions, -1)
        batch = vec.step(mixed, active)
        twin_batch = twin.step(actions)
        for got, want, old in zip((batch.obs, batch.action_mask, batch.player),
                                  (twin_batch.obs, twin_batch.action_mask, twin_batch.player),
                                  frozen, strict=True):
            assert np.array_equal(got[active], want[active])
            assert np.array_equal(got[~active], old[~active])
        assert not batch.terminations[~active].any() and not batch.rewards[~active].any()


def test_sampled_actions_are_legal_and_seeded() -> None:
    """sample_actions draws from each mask, the same after the same reset."""
    a, b = VecEnv(64, "scopa-many"), VecEnv(64, "scopa-many")
    a.reset(seed=3)
    b.reset(seed=3)
    for _ in range(40):
        x, y = a.sample_actions(), b.sample_actions()
        assert np.array_equal(x, y)
        assert a._mask[np.arange(64), x].all()
        a.step(x)
        b.step(y)


def test_gymnasium_vector_env_of_the_learner() -> None:
    """gym_vector_env: Gymnasium's VectorEnv API over AgainstRandom (same-step reset)."""
    import gymnasium

    from chkobba.rl.vector import gym_vector_env

    env = gym_vector_env(8, "scopa")
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert str(env.metadata["autoreset_mode"]).endswith(("SAME_STEP", "SameStep"))
    obs, info = env.reset(seed=1)
    assert obs.shape == (8, OBS_SIZE) and env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    done_any = False
    for _ in range(40):
        choice = rng.random((8, NUM_ACTIONS)) * info["action_mask"]
        actions = np.argmax(choice, axis=1)
        assert env.action_space.contains(actions)
        obs, rewards, terms, truncs, info = env.step(actions)
        assert rewards.shape == terms.shape == truncs.shape == (8,)
        assert not rewards[~terms].any() and not truncs.any()
        assert np.array_equal(info["action_mask"], env.action_masks())
        done_any |= bool(terms.any())
    assert done_any
