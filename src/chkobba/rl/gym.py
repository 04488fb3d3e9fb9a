"""A Gymnasium single-agent environment: one seat of ``chkobba_v1`` against built-in players.

The learner plays one seat (``seat``: fixed, or ``None`` to take a seat at random
each episode); every other seat is played by the named built-in player
(``random``, ``greedy``, ``heuristic``, ``expert``, a level, or ``policy:PATH``)
through the engine's observation, as in a duel. The observation is the
``chkobba_v1`` vector alone; the mask is :meth:`ChkobbaGymEnv.action_masks`
(the method sb3-contrib's ``MaskablePPO`` calls) and ``info["action_mask"]``.
The episode's return is the learner's reward of :mod:`chkobba.rl.aec`: for two
sides, the round's margin (or the sum of the rounds' margins for a match).

A masked action is handled as ``illegal`` says: ``"terminate"`` (the default,
what tools that sample actions without the mask need, such as Gymnasium's and
Stable-Baselines3's ``check_env``) ends the episode with ``illegal_reward`` and
``info["illegal_action"]``, and plays nothing; ``"raise"`` (strict) raises
:class:`~chkobba.rl.spaces.IllegalAction` and changes nothing. Nothing is ever
replaced by another action.
"""

from __future__ import annotations

import random
from typing import Any, Literal, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from chkobba.agents.base import Agent, make_agent
from chkobba.fishing.rules import CHKOBBA, RuleSet
from chkobba.rl.aec import Episode, raw_env
from chkobba.rl.spaces import NUM_ACTIONS, IllegalAction

Vector = npt.NDArray[np.float32]
Illegal = Literal["terminate", "raise"]
"""What a masked action does: end the episode with a penalty, or raise."""


class ChkobbaGymEnv(gymnasium.Env[Vector, int]):
    """One learner seat against built-in players, for single-agent libraries."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self,
        opponent: str = "random",
        rules: RuleSet | str = CHKOBBA,
        seats: int = 2,
        teams: bool = False,
        seat: int | None = None,
        episode: Episode = "round",
        partner: str | None = None,
        render_mode: str | None = None,
        illegal: Illegal = "terminate",
        illegal_reward: float = -1.0,
        planes: bool = True,
        history: bool = False,
    ) -> None:
        """The learner at ``seat`` against ``opponent`` (and, in 2v2, with ``partner``);
        ``illegal`` and ``illegal_reward``: what a masked action does; ``planes`` and
        ``history``: the observation vector (:class:`~chkobba.rl.spaces.ObsSpec`)."""
        self.aec = raw_env(rules, seats, teams, episode, render_mode, planes, history)
        if seat is not None and not 0 <= seat < seats:
            raise ValueError(f"seat must be 0 to {seats - 1}, not {seat}")
        if illegal not in ("terminate", "raise"):
            raise ValueError(f"illegal must be 'terminate' or 'raise', not {illegal!r}")
        self.illegal: Illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.opponent = opponent
        self.partner = partner or opponent
        make_agent(self.opponent, 0)  # an unknown player is an error now, not mid-episode
        make_agent(self.partner, 0)
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.render_mode = render_mode
        spec = self.aec.obs_spec
        self.observation_space = spaces.Box(0.0, spec.high, (spec.size,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        self._rng = random.Random()
        self._agents: dict[int, Agent] = {}
        self._over = False

    def _player(self, seat: int) -> Agent:
        agent = self._agents.get(seat)
        if agent is None:
            partner = self.aec.teams and seat % 2 == self.seat % 2
            name = self.partner if partner else self.opponent
            agent = make_agent(name, self._rng.getrandbits(32))
            self._agents[seat] = agent
        return agent

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """Deal a new episode and play the others' moves up to the learner's first turn."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.aec.reset(seed=self._rng.getrandbits(64))
        if self.fixed_seat is None:
            self.seat = self._rng.randrange(self.aec.seats)
        self._agents = {}
        self._over = False
        reward = self._play_others()
        return self._obs(), {"action_mask": self.action_masks(), "reward_before": reward}

    def _play_others(self) -> float:
        """Let the built-in players move until the learner's turn or the end; its reward."""
        aec = self.aec
        me = aec.possible_agents[self.seat]
        reward = 0.0
        while not aec.terminations[me] and aec.agent_selection != me:
            seat = aec.match.turn
            move = self._player(seat).choose(aec.observation(seat))
            aec.play_move(move)
            reward += aec.rewards[me]
        return reward

    def _obs(self) -> Vector:
        """The learner's observation vector (a fresh array)."""
        vec: Vector = self.aec.observe(self.aec.possible_agents[self.seat])["observation"]
        return vec

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as booleans (all False once the episode is over)."""
        if self._over:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        mask: npt.NDArray[np.int8] = self.aec.observe(self.aec.possible_agents[self.seat])[
            "action_mask"
        ]
        return mask.astype(bool)

    def step(self, action: int) -> tuple[Vector, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the others' moves up to its next turn."""
        aec = self.aec
        me = aec.possible_agents[self.seat]
        if aec.terminations[me] or self._over:
            raise IllegalAction("the episode is over: call reset()")
        if self.illegal == "terminate" and not self.action_masks()[self._action_id(action)]:
            # The harness's sampled action is refused, not replaced: the episode ends.
            self._over = True
            info = {"action_mask": self.action_masks(), "illegal_action": int(action)}
            return self._obs(), self.illegal_reward, True, False, info
        aec.step(int(action))
        reward = aec.rewards[me] + self._play_others()
        done = aec.terminations[me]
        return self._obs(), reward, done, False, {"action_mask": self.action_masks()}

    @staticmethod
    def _action_id(action: object) -> int:
        """``action`` as an action id; anything else raises, whatever ``illegal`` says."""
        try:
            a: int = int(action)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            a = -1
        if a != action or not 0 <= a < NUM_ACTIONS:
            raise IllegalAction(
                f"{action!r} is not an action id: the ids are 0 to {NUM_ACTIONS - 1}"
            )
        return a

    def render(self) -> str | None:
        """The table as text (see :meth:`chkobba.rl.aec.raw_env.render`)."""
        return self.aec.render()


class IllegalActionPenalty(gymnasium.Wrapper[Vector, int, Vector, int]):
    """Turn a masked action into a reward of ``penalty`` and the end of the episode.

    For an environment made with ``illegal="raise"``; the default ``"terminate"``
    does the same by itself.
    """

    def __init__(self, env: ChkobbaGymEnv, penalty: float = -1.0) -> None:
        """Wrap ``env``; a masked action ends the episode with ``penalty``."""
        super().__init__(env)
        self.penalty = penalty

    def step(self, action: int) -> tuple[Vector, SupportsFloat, bool, bool, dict[str, Any]]:
        """The wrapped step, or the penalty for an action the mask forbids."""
        mask = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        if not 0 <= int(action) < len(mask) or not mask[int(action)]:
            obs = self.env.unwrapped._obs()  # type: ignore[attr-defined]  # a fresh array
            return obs, self.penalty, True, False, {"illegal_action": int(action)}
        return self.env.step(action)
