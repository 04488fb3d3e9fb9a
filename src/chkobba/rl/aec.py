"""The PettingZoo AEC environment ``chkobba_v1``: any preset, 2, 3, 4 players or 2 against 2.

Agents are ``player_0`` … ``player_{n-1}``, one per seat. Each observation is a
dict: ``observation`` (the ``chkobba_v1`` vector, :mod:`chkobba.rl.spaces`)
and ``action_mask`` (1 for every legal action of that agent, all 0 when it is
not to move). An episode is one round (``episode="round"``, the default) or a
whole match (``episode="match"``). Each side's reward, given when a round ends,
is its points in the round minus the mean points of the other sides: with two
sides, the round's margin. Partners share their side's reward.

The environment never replaces an action: one the mask forbids raises
:class:`~chkobba.rl.spaces.IllegalAction` (wrap it in
:class:`~chkobba.rl.gym.IllegalActionPenalty`-style code of your own if you
want a penalty instead).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from chkobba.game import Round
from chkobba.match import Match
from chkobba.moves import Move
from chkobba.observe import Observation, observe_round
from chkobba.rl.spaces import (
    MAX_SEATS,
    NUM_ACTIONS,
    OBS_SIZE,
    VERSION,
    Choice,
    IllegalAction,
    action_mask,
    decide,
    encode,
)
from chkobba.rules import CHKOBBA, RuleSet, preset

Episode = Literal["round", "match"]
"""What one episode is: a round (one deal of the 40 cards) or a whole match."""

ObsDict = dict[str, npt.NDArray[Any]]


def round_rewards(points: tuple[int, ...] | list[int], side_of: tuple[int, ...]) -> list[float]:
    """Each seat's reward for a round: its side's points minus the other sides' mean."""
    sides = len(points)
    total = sum(points)
    out = []
    for side in side_of:
        mine = points[side]
        out.append(float(mine - (total - mine) / (sides - 1)))
    return out


class raw_env(AECEnv[str, ObsDict, int]):  # type: ignore[misc]  # PettingZoo is untyped
    """Chkobba (or any preset of its family) as an AEC game, without PettingZoo's wrappers."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention: a class attribute
        "render_modes": ["human", "ansi"],
        "name": VERSION,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: RuleSet | str = CHKOBBA,
        seats: int = 2,
        teams: bool = False,
        episode: Episode = "round",
        render_mode: str | None = None,
    ) -> None:
        """A table of ``seats`` players (``teams``: 2 against 2) under ``rules``."""
        super().__init__()
        self.rules = preset(rules) if isinstance(rules, str) else rules
        # Raises ValueError for a seating the rules do not allow, before any play.
        Match(self.rules, seats, teams, seed=0)
        if seats > MAX_SEATS:
            # The observation's layout is fixed at four seats (docs/rl.md).
            raise ValueError(
                f"the RL environment holds at most {MAX_SEATS} seats, not {seats}: its "
                "observation has room for four (docs/rl.md)"
            )
        if episode not in ("round", "match"):
            raise ValueError(f"episode must be 'round' or 'match', not {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.seats = seats
        self.teams = teams
        self.episode: Episode = episode
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self.agents = self.possible_agents[:]
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._rng = random.Random()
        self.match = Match(self.rules, seats, teams, seed=0)
        self.choice: Choice | None = None
        self._cache: dict[int, ObsDict] = {}
        self._ended: Round | None = None
        self._moves: Sequence[Move] | None = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]

    # -- spaces ------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The ``chkobba_v1`` observation space (the same for every agent)."""
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(83)``: the ``chkobba_v1`` action ids."""
        return self._act_space

    # -- the episode ---------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; ``seed`` fixes every deal of it and of the following resets."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.match = Match(self.rules, self.seats, self.teams, seed=self._rng.getrandbits(64))
        self.choice = None
        self._cache = {}
        self._ended = None
        self._moves = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.match.turn]

    def observe(self, agent: str) -> ObsDict:
        """What ``agent`` may know now, as the observation vector and its action mask."""
        seat = self.possible_agents.index(agent)
        cached = self._cache.get(seat)
        if cached is not None:
            return cached
        obs = self.observation(seat)
        choice = None
        if seat == self.match.turn and self._ended is None:
            choice = self.choice
            self._moves = obs.legal_moves
        out: ObsDict = {
            "observation": encode(obs, choice),
            "action_mask": action_mask(obs.legal_moves, choice),
        }
        self._cache[seat] = out
        return out

    def observation(self, seat: int) -> Observation:
        """The engine's observation for ``seat`` (the only source of the vector)."""
        m = self.match
        if self._ended is not None:
            # The episode ended with this round; the match has already dealt the next one.
            r = self._ended
            return observe_round(r, seat, tuple(m.totals), len(m.finished), m.rules.target)
        return observe_round(m.round, seat, tuple(m.totals), m.round_number, m.rules.target)

    def step(self, action: int | None) -> None:
        """Play one action id of the agent to move; raise ``IllegalAction`` if it is masked."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is to move and must give an action, not None")
        # The moves the agent's observation listed, if it was observed since the last move.
        moves = self._moves if self._moves is not None else self.match.round.legal_moves()
        step = decide(moves, self.choice, action)
        self._cache = {}
        # The agent's reward so far was seen by last() before it acted (PettingZoo's rule).
        self._cumulative_rewards[agent] = 0.0
        if isinstance(step, Choice):
            self.choice = step
            self._clear_rewards()
            return
        self.choice = None
        self._moves = None
        self._play(step)

    def play_move(self, move: Move) -> None:
        """Play a whole move of the agent to move (for built-in players); checked.

        Only when no capture is being chosen action by action.
        """
        if self.choice is not None:
            raise IllegalAction("a capture is being chosen: finish it with take/done actions")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise IllegalAction("the episode is over")
        if move not in self.match.round.legal_moves():
            raise IllegalAction(self.match.round.explain_illegal(move))
        self._cache = {}
        self._moves = None
        self._cumulative_rewards[agent] = 0.0
        self._play(move)

    def _play(self, move: Move) -> None:
        m = self.match
        rounds = len(m.finished)
        m.apply_unchecked(move)
        self._clear_rewards()
        if len(m.finished) > rounds:
            r = m.finished[-1]
            assert r.score is not None
            for agent, rew in zip(
                self.possible_agents, round_rewards(r.score.points, r.side_of), strict=True
            ):
                self.rewards[agent] = rew
            self._accumulate_rewards()
            if self.episode == "round" or m.is_over:
                self.terminations = dict.fromkeys(self.agents, True)
                self._ended = r
                # The agents that are done step once more with None (PettingZoo's rule).
                self.agent_selection = self.possible_agents[r.turn]
                return
        self.agent_selection = self.possible_agents[m.turn]

    def render(self) -> str | None:
        """The table as text from the seat to move (``ansi``: returned, ``human``: printed)."""
        if self.render_mode is None:
            return None
        seat = self.match.turn if self._ended is None else self._ended.turn
        text = self.observation(seat).describe()
        if self.choice is not None:
            from chkobba.cards import CARDS, format_cards

            text += (
                f"\nchoosing: {CARDS[self.choice.card]} taking "
                f"{format_cards(self.choice.taken) or '-'}"
            )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(
    rules: RuleSet | str = CHKOBBA,
    seats: int = 2,
    teams: bool = False,
    episode: Episode = "round",
    render_mode: str | None = None,
) -> AECEnv[str, ObsDict, int]:
    """The ``chkobba_v1`` environment with PettingZoo's order checks (reset before step).

    No ``AssertOutOfBoundsWrapper``: the environment itself refuses any action the
    mask does not allow, an out-of-range one included, with :class:`IllegalAction`.
    """
    e: AECEnv[str, ObsDict, int] = raw_env(rules, seats, teams, episode, render_mode)
    return wrappers.OrderEnforcingWrapper(e)
