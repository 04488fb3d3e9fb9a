"""A batched ``chkobba_v1`` environment: N games stepped per call by the compiled kernel.

:class:`VecEnv` holds ``num_envs`` games of one rule set at one table and steps
them all at once in C (the GIL released), reading one action id per game from a
NumPy array and writing NumPy arrays back: each game's observation vector, action
mask, seat to move, rewards, terminations and truncations. It is the PettingZoo
environment :class:`chkobba.rl.aec.raw_env` (``episode="round"``, the default
``chkobba_v1`` vector) played N times over, in the spirit of EnvPool and pgx:

* **The same game.** Game ``i`` after ``reset(seed=s)`` deals exactly what
  ``raw_env`` deals after ``reset(seed=s + i)`` and then after each further
  ``reset()``; its vectors, masks, rewards and terminations are the single
  environment's, action for action (``tests/test_rl_vector.py`` checks it along
  random games of every preset and seating).
* **Automatic reset, on the same step.** When an action ends a game's round,
  ``rewards[i]`` holds every seat's reward for the round (absolute seats, as
  :func:`chkobba.rl.aec.round_rewards` gives them), ``terminations[i]`` is True,
  and ``obs[i]``, ``action_mask[i]`` and ``player[i]`` are already those of the
  next round's first decision: there is no terminal observation (nobody is to
  move in a finished round) and no step to waste on a reset. This is the
  convention of Stable-Baselines3's vector environments and of Gymnasium's
  ``SAME_STEP`` autoreset; EnvPool instead resets on the step after.
* **One observation per game**, the seat to move's (``player[i]``), since every
  decision belongs to one seat; a self-play learner credits ``rewards[i, seat]``
  to the seat's own last decisions. Rewards are 0 except when a round ends.
  ``truncations`` is always False (a round always ends).

A masked action is handled as ``on_illegal`` says: ``"raise"`` (the default, as
:class:`~chkobba.rl.aec.raw_env`) raises :class:`~chkobba.rl.spaces.IllegalAction`
naming the game and changes no game at all; ``"terminate"`` (as
:func:`chkobba.rl.aec.env`) ends that game's round with ``illegal_reward`` to the
seat that chose it and 0 to the others, and deals it anew. Something that is no
action id at all (out of 0-82, not an integer) always raises.

The arrays a call returns are the environment's own buffers, overwritten by the
next call: copy what must be kept. The batch needs the compiled kernel
(:data:`chkobba.rl.encoder.KERNEL`); ``docs/rl.md`` gives its speed.
"""

from __future__ import annotations

import random
from typing import Any, Final, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from chkobba.fishing.game import check_seating, side_map
from chkobba.fishing.rules import CHKOBBA, RuleSet, preset
from chkobba.rl.encoder import KERNEL
from chkobba.rl.spaces import (
    MAX_SEATS,
    NUM_ACTIONS,
    OBS_HIGH,
    OBS_SIZE,
    IllegalAction,
    action_name,
)
from chkobba.search import fast

try:
    from chkobba import _fastcore
except ImportError:  # not built: no compiler where the package was installed
    _fastcore = None  # type: ignore[assignment]

OnIllegal = Literal["raise", "terminate"]
"""What a masked action does: raise and change nothing, or end the game's round."""

AVAILABLE: Final = KERNEL and hasattr(_fastcore, "VecEnv")
"""Whether the batched environment can run here (the compiled kernel is built)."""

SEED_LIMIT: Final = 2**64
"""Seeds are integers with ``0 <= seed`` and ``seed + num_envs <= SEED_LIMIT``."""


class Batch(NamedTuple):
    """What :meth:`VecEnv.reset` and :meth:`VecEnv.step` return: the environment's own
    arrays, one row per game (overwritten by the next call)."""

    obs: npt.NDArray[np.float32]
    """``[N, 868]``: the ``chkobba_v1`` vector of the seat to move."""
    action_mask: npt.NDArray[np.bool_]
    """``[N, 83]``: True for each legal action id of the seat to move."""
    player: npt.NDArray[np.int64]
    """``[N]``: the seat to move (``player_{seat}`` of the PettingZoo environment)."""
    rewards: npt.NDArray[np.float32]
    """``[N, seats]``: each seat's reward from this step (nonzero when a round ended)."""
    terminations: npt.NDArray[np.bool_]
    """``[N]``: whether this step ended the game's round (it has been dealt anew)."""
    truncations: npt.NDArray[np.bool_]
    """``[N]``: always False (a round always ends)."""


class VecEnv:
    """``num_envs`` games of ``rules`` at a table of ``seats`` (``teams``: 2 against 2),
    stepped together by the compiled kernel (see the module's documentation)."""

    def __init__(
        self,
        num_envs: int,
        rules: RuleSet | str = CHKOBBA,
        seats: int = 2,
        teams: bool = False,
        on_illegal: OnIllegal = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        """The games, not dealt yet: call :meth:`reset` first."""
        if not AVAILABLE:
            raise RuntimeError(
                "the batched environment needs the compiled kernel chkobba._fastcore "
                f"({fast.BACKEND}): reinstall the package where a C compiler is available"
            )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive number of games, not {num_envs!r}")
        self.rules = preset(rules) if isinstance(rules, str) else rules
        check_seating(seats, teams, self.rules)
        if seats > MAX_SEATS:
            raise ValueError(
                f"the RL environment holds at most {MAX_SEATS} seats, not {seats}: its "
                "observation has room for four (docs/rl.md)"
            )
        if not fast.supports(self.rules, seats):
            raise ValueError(
                f"the compiled kernel does not play the rules {self.rules.name!r} with these "
                "options: use the PettingZoo environment chkobba.rl.env"
            )
        if on_illegal not in ("raise", "terminate"):
            raise ValueError(f"on_illegal must be 'raise' or 'terminate', not {on_illegal!r}")
        self.num_envs = num_envs
        self.seats = seats
        self.teams = teams
        self.on_illegal: OnIllegal = on_illegal
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self._core = _fastcore.VecEnv(
            fast.kernel_rules(self.rules), num_envs, seats, side_map(seats, teams),
            self.rules.target,
        )
        n = num_envs
        self._obs = np.zeros((n, OBS_SIZE), np.float32)
        self._mask = np.zeros((n, NUM_ACTIONS), np.bool_)
        self._player = np.zeros(n, np.int64)
        self._rewards = np.zeros((n, seats), np.float32)
        self._terminations = np.zeros(n, np.bool_)
        self._truncations = np.zeros(n, np.bool_)
        self._dealt = False

    @property
    def observation_size(self) -> int:
        """The length of an observation vector (``OBS_SIZE``)."""
        return int(OBS_SIZE)

    @property
    def num_actions(self) -> int:
        """The number of action ids (``NUM_ACTIONS``)."""
        return NUM_ACTIONS

    @property
    def observation_high(self) -> npt.NDArray[np.float32]:
        """The upper bound of each entry of a vector (the lower bound is 0)."""
        return OBS_HIGH

    def _batch(self) -> Batch:
        return Batch(self._obs, self._mask, self._player, self._rewards, self._terminations,
                     self._truncations)

    def reset(self, seed: int | None = None) -> Batch:
        """Deal every game anew: game ``i`` as ``raw_env.reset(seed=seed + i)`` deals it
        (``seed=None``: a seed from the operating system's entropy)."""
        if seed is None:
            seed = random.SystemRandom().randrange(SEED_LIMIT - self.num_envs)
        elif isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        seed = int(seed)
        if not 0 <= seed <= SEED_LIMIT - self.num_envs:
            raise ValueError(
                f"seed must be from 0 to 2**64 - num_envs ({self.num_envs} games), not {seed}"
            )
        self._core.reset(seed, self._obs, self._mask, self._player)
        self._rewards[:] = 0.0
        self._terminations[:] = False
        self._dealt = True
        return self._batch()

    def step(self, actions: npt.ArrayLike, active: npt.ArrayLike | None = None) -> Batch:
        """Apply one action id per game (``actions[i]`` for game ``i``); see the module's
        documentation for what comes back and for masked actions.

        ``active`` (bools, one per game) steps only the games marked True: the others
        stay as they are (their rows unchanged, their rewards and terminations False) and
        their actions are not read, so a learner can wait while other seats move.
        """
        if not self._dealt:
            raise RuntimeError("reset the VecEnv before stepping it")
        n = self.num_envs
        a = actions
        if not (type(a) is np.ndarray and a.dtype == np.int64 and a.shape == (n,)
                and a.flags.c_contiguous):
            a = np.asarray(actions)
            if a.shape != (n,):
                raise ValueError(
                    f"actions must hold one action id per game, shape ({n},), not {a.shape}"
                )
            if a.dtype.kind not in "iu":
                raise IllegalAction(f"action ids are integers, not {a.dtype} values")
            a = np.ascontiguousarray(a, dtype=np.int64)
        on: npt.NDArray[np.bool_] | None = None
        if active is not None:
            on = np.ascontiguousarray(active)
            if on.shape != (n,) or on.dtype != np.bool_:
                raise ValueError(
                    f"active must hold one bool per game, shape ({n},), not {on.dtype} "
                    f"values of shape {on.shape}"
                )
        # The kernel checks every action before it applies any (and the legality too
        # when strict): nothing is stepped unless all pass.
        bad = self._core.step(a, self._obs, self._mask, self._player, self._rewards,
                              self._terminations, self.on_illegal == "raise",
                              self.illegal_reward, on)
        if bad <= -2:
            i = -2 - bad
            raise IllegalAction(
                f"game {i}: {int(a[i])} is not an action id: the ids are 0 to "
                f"{NUM_ACTIONS - 1} (no game was stepped)"
            )
        if bad >= 0:
            allowed = ", ".join(action_name(int(x)) for x in np.flatnonzero(self._mask[bad]))
            raise IllegalAction(
                f"game {bad}: {action_name(int(a[bad]))} is illegal for "
                f"player_{int(self._player[bad])} now (legal: {allowed}); no game was stepped"
            )
        return self._batch()

    def legal(self, game: int, action: int) -> bool:
        """Whether ``action`` is legal in game ``game`` now."""
        return bool(self._core.legal(game, action))

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A legal action per game drawn uniformly from its mask (vectorised NumPy)."""
        weights = rng.random((self.num_envs, NUM_ACTIONS), dtype=np.float32)
        weights *= self._mask
        out: npt.NDArray[np.int64] = np.argmax(weights, axis=1)
        return out

    def sample_actions(
        self, out: npt.NDArray[np.int64] | None = None
    ) -> npt.NDArray[np.int64]:
        """A legal action per game drawn uniformly from its mask, in C (a few nanoseconds a
        game), by a generator that :meth:`reset` seeds; written into ``out`` if given."""
        if not self._dealt:
            raise RuntimeError("reset the VecEnv before sampling its actions")
        if out is None:
            out = np.empty(self.num_envs, np.int64)
        self._core.sample(self._mask, out)
        return out

    def close(self) -> None:
        """Nothing to release (the games are freed with the object)."""

    def spaces(self) -> tuple[Any, Any]:
        """Gymnasium's single observation and action spaces (``Box``, ``Discrete(83)``);
        needs the ``rl`` extra."""
        from gymnasium import spaces

        return (spaces.Box(0.0, OBS_HIGH, (OBS_SIZE,), np.float32),
                spaces.Discrete(NUM_ACTIONS))



class AgainstRandom:
    """The vectorised single-agent view of a :class:`VecEnv`: in game ``i`` the learner
    holds seat ``i % seats`` and every other seat plays a uniformly random legal action
    (drawn in C), as trainers of one policy against a fixed opponent step it.

    :meth:`reset` and :meth:`step` return once the learner is to move in every game.
    The reward of a game is the learner's seat's (0 until its round ends, whoever made
    the last play); a game whose round ended is dealt anew at once, its observation the
    learner's first of the next round (the same-step automatic reset of :class:`VecEnv`).
    """

    def __init__(
        self, num_envs: int, rules: RuleSet | str = CHKOBBA, seats: int = 2, teams: bool = False
    ) -> None:
        """``num_envs`` games of ``rules`` at a table of ``seats`` (``teams``: 2 against 2)."""
        self.vec = VecEnv(num_envs, rules, seats, teams)
        self.num_envs = num_envs
        self.seat = np.arange(num_envs, dtype=np.int64) % seats
        """The learner's seat in each game."""
        self.episode_lengths = np.zeros(num_envs, np.int64)
        """After a step: the learner's decisions in each round that ended (0 elsewhere)."""
        self._rows = np.arange(num_envs)
        self._lengths = np.zeros(num_envs, np.int64)
        self._actions = np.empty(num_envs, np.int64)

    def _others_play(self, rewards: npt.NDArray[np.float32],
                     dones: npt.NDArray[np.bool_]) -> None:
        """Step the games where another seat is to move until the learner is, everywhere."""
        vec = self.vec
        while True:
            waiting = vec._player != self.seat
            if not waiting.any():
                return
            vec.sample_actions(self._actions)
            batch = vec.step(self._actions, waiting)
            rewards += batch.rewards[self._rows, self.seat]
            dones |= batch.terminations

    def reset(self, seed: int | None = None) -> npt.NDArray[np.float32]:
        """Deal every game (:meth:`VecEnv.reset`) and play to the learner's first decisions."""
        self.vec.reset(seed)
        self._lengths[:] = 0
        self.episode_lengths[:] = 0
        self._others_play(np.zeros(self.num_envs, np.float32), np.zeros(self.num_envs, np.bool_))
        return self.vec._obs

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """The learner's actions, one per game: the observations, the learner's rewards and
        whether each game's round ended (the arrays are overwritten by the next call)."""
        batch = self.vec.step(actions)
        self._lengths += 1
        rewards = batch.rewards[self._rows, self.seat]
        dones = batch.terminations.copy()
        self._others_play(rewards, dones)
        np.copyto(self.episode_lengths, np.where(dones, self._lengths, 0))
        self._lengths[dones] = 0
        return self.vec._obs, rewards, dones

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's action masks ``[N, 83]`` (what sb3-contrib's MaskablePPO asks for)."""
        return self.vec._mask


def gym_vector_env(
    num_envs: int, rules: RuleSet | str = CHKOBBA, seats: int = 2, teams: bool = False
) -> Any:
    """:class:`AgainstRandom` as a Gymnasium ``VectorEnv`` (the ``rl`` extra): Gymnasium's
    ``reset(seed=...)`` and ``step(actions)``, the learner's rewards, terminations on the
    same step as the automatic reset (``metadata["autoreset_mode"]`` says so), and the
    learner's masks in ``info["action_mask"]`` and ``action_masks()``."""
    import gymnasium
    from gymnasium.vector.utils import batch_space

    same_step: Any
    try:
        from gymnasium.vector import AutoresetMode

        same_step = AutoresetMode.SAME_STEP
    except ImportError:  # Gymnasium 1.0 has no such name (it knew one mode only)
        same_step = "SameStep"

    class GymVectorEnv(gymnasium.vector.VectorEnv):
        """The learner's seat in ``num_envs`` batched games, against random players."""

        metadata: dict[str, Any] = {"autoreset_mode": same_step}  # noqa: RUF012

        def __init__(self) -> None:
            self.games = AgainstRandom(num_envs, rules, seats, teams)
            self.num_envs = num_envs
            obs_space, act_space = self.games.vec.spaces()
            self.single_observation_space = obs_space
            self.single_action_space = act_space
            self.observation_space = batch_space(obs_space, num_envs)
            self.action_space = batch_space(act_space, num_envs)
            self._truncations = np.zeros(num_envs, np.bool_)

        def _info(self) -> dict[str, Any]:
            mask = self.games.action_masks().copy()
            return {"action_mask": mask, "_action_mask": np.ones(self.num_envs, np.bool_)}

        def reset(
            self, *, seed: int | None = None, options: dict[str, Any] | None = None
        ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
            obs = self.games.reset(seed)
            return obs.copy(), self._info()

        def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
            obs, rewards, dones = self.games.step(actions)
            return obs.copy(), rewards.copy(), dones.copy(), self._truncations.copy(), \
                self._info()

        def action_masks(self) -> npt.NDArray[np.bool_]:
            return self.games.action_masks().copy()

    return GymVectorEnv()
