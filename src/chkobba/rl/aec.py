"""The PettingZoo AEC environment ``chkobba_v1``: any preset, 2, 3, 4 players or 2 against 2.

Agents are ``player_0`` … ``player_{n-1}``, one per seat. Each observation is a
dict: ``observation`` (the ``chkobba_v1`` vector, :mod:`chkobba.rl.spaces`)
and ``action_mask`` (1 for every legal action of that agent, all 0 when it is
not to move). An episode is one round (``episode="round"``, the default) or a
whole match (``episode="match"``). Each side's reward, given when a round ends,
is its points in the round minus the mean points of the other sides: with two
sides, the round's margin. Partners share their side's reward.

The environment never replaces an action. :class:`raw_env` is strict: an action
the mask forbids raises :class:`~chkobba.rl.spaces.IllegalAction`. :func:`env`
is what tools that sample actions without the mask expect, as PettingZoo's
classic games are: a masked action ends the episode, with a reward of -1 to the
agent that chose it and 0 to the others (PettingZoo's ``TerminateIllegalWrapper``).

``planes`` and ``history`` choose the observation vector
(:class:`~chkobba.rl.spaces.ObsSpec`); :meth:`raw_env.state` is the whole state,
for centralised critics.
"""

from __future__ import annotations

import random
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Move, Play
from chkobba.fishing.observe import Observation, observe_round
from chkobba.fishing.rules import CHKOBBA, RuleSet, preset
from chkobba.rl.encoder import Moves, encode_round, moves_of, plays_kernel
from chkobba.rl.spaces import (
    MAX_SEATS,
    NUM_ACTIONS,
    OBS_SIZE,
    STATE_HIGH,
    STATE_SIZE,
    VERSION,
    Choice,
    IllegalAction,
    ObsSpec,
    decide,
    encode_history,
    encode_state,
)

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
    """Chkobba (or any preset of its family) as an AEC game, without PettingZoo's wrappers.

    Strict: an action the mask forbids raises :class:`IllegalAction` and changes nothing.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention: a class attribute
        "render_modes": ["human", "ansi"],
        "render_fps": 1,
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
        planes: bool = True,
        history: bool = False,
    ) -> None:
        """A table of ``seats`` players (``teams``: 2 against 2) under ``rules``.

        ``planes=False`` leaves the engineered planes out of the observation vector,
        ``history=True`` adds the round's whole public history (``docs/rl.md``).
        """
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
        self.obs_spec = ObsSpec(self.rules, planes, history)
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self.agents = self.possible_agents[:]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, self.obs_spec.high, (self.obs_spec.size,),
                                          np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self.state_space = spaces.Box(0.0, STATE_HIGH, (STATE_SIZE,), np.float32)
        self._kernel = plays_kernel(self.rules)
        # The default vector is written straight into the seat's buffer.
        self._plain = self.obs_spec.planes and not self.obs_spec.history
        self._rng = random.Random()
        self.match = Match(self.rules, seats, teams, seed=0)
        self.choice: Choice | None = None
        # Each seat's vector and mask, written in place; _fresh says which are up to date.
        self._vecs = [np.zeros(self.obs_spec.size, np.float32) for _ in range(seats)]
        self._masks = [np.zeros(NUM_ACTIONS, np.int8) for _ in range(seats)]
        self._fresh = [False] * seats
        self._ended: Round | None = None
        self._moves: Moves | None = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]

    # -- spaces ------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space (the same for every agent)."""
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
        self._fresh = [False] * self.seats
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
        """What ``agent`` may know now, as the observation vector and its action mask.

        Fresh arrays at every call: changing them changes nothing else.
        """
        seat = self._seat_of[agent]
        if not self._fresh[seat]:
            self._encode(seat)
            self._fresh[seat] = True
        vec = self._vecs[seat]
        if self.terminations[agent] or self.truncations[agent]:
            # Ended by PettingZoo's TerminateIllegalWrapper: nothing is legal any more.
            return {"observation": vec.copy(), "action_mask": np.zeros(NUM_ACTIONS, np.int8)}
        return {"observation": vec.copy(), "action_mask": self._masks[seat].copy()}

    def _mask_of(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s action mask now: the environment's own buffer, never handed out."""
        if not self._fresh[seat]:
            self._encode(seat)
            self._fresh[seat] = True
        return self._masks[seat]

    def _encode(self, seat: int) -> None:
        """Write ``seat``'s vector and mask into its buffers."""
        m = self.match
        r = self._ended if self._ended is not None else m.round
        moves: Moves = ()
        choice = None
        if self._ended is None and seat == r.turn:
            if self._moves is None:
                self._moves = moves_of(r, self._kernel)
            moves = self._moves
            choice = self.choice
        if self._plain:
            encode_round(r, seat, m.totals, m.rules.target, moves, choice, self._vecs[seat],
                         self._masks[seat])
            return
        spec = self.obs_spec
        vec = np.empty(OBS_SIZE, dtype=np.float32)
        encode_round(r, seat, m.totals, m.rules.target, moves, choice, vec, self._masks[seat])
        hist = encode_history(r.history, seat, r.seats, spec.entries) if spec.history else None
        self._vecs[seat][:] = spec.assemble(vec, hist)

    def observation(self, seat: int) -> Observation:
        """The engine's observation for ``seat`` (what built-in players are given)."""
        m = self.match
        if self._ended is not None:
            # The episode ended with this round; the match has already dealt the next one.
            r = self._ended
            return observe_round(r, seat, tuple(m.totals), len(m.finished), m.rules.target)
        return observe_round(m.round, seat, tuple(m.totals), m.round_number, m.rules.target)

    def state(self) -> npt.NDArray[np.float32]:
        """The whole state (every hand, the stock's cards), for a centralised critic:
        ``STATE_LAYOUT`` of :mod:`chkobba.rl.spaces`, seats and sides absolute."""
        m = self.match
        r = self._ended if self._ended is not None else m.round
        return encode_state(r, m.totals, m.rules.target, self.choice)

    def step(self, action: int | None) -> None:
        """Play one action id of the agent to move; raise ``IllegalAction`` if it is masked."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is to move and must give an action, not None")
        moves = self._moves
        if moves is None:
            moves = self._moves = moves_of(self.match.round, self._kernel)
        step = decide(moves, self.choice, action)  # type: ignore[arg-type]
        self._fresh = [False] * self.seats
        # The agent's reward so far was seen by last() before it acted (PettingZoo's rule).
        self._cumulative_rewards[agent] = 0.0
        if type(step) is Choice:
            self.choice = step
            self._clear_rewards()
            return
        self.choice = None
        self._moves = None
        self._play(step)  # type: ignore[arg-type]

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
        self._fresh = [False] * self.seats
        self._moves = None
        self._cumulative_rewards[agent] = 0.0
        self._play(move)

    def _play(self, move: Move) -> None:
        m = self.match
        r = m.round
        if self.episode == "round" and type(move) is Play and r.in_hands == 1 \
                and r.stock_pos == len(r.deck):
            # The round's last play ends the episode: the match scores it, and deals no
            # next round that nobody would play.
            r.apply_unchecked(move)
            m.end_round()
            ended = True
        else:
            rounds = len(m.finished)
            m.apply_unchecked(move)
            ended = len(m.finished) > rounds
        for a in self.rewards:
            self.rewards[a] = 0.0
        if ended:
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
        self.agent_selection = self.possible_agents[m.round.turn]

    def render(self) -> str | None:
        """The table as text from the seat to move (``ansi``: returned, ``human``: printed)."""
        if self.render_mode is None:
            return None
        seat = self.match.turn if self._ended is None else self._ended.turn
        text = self.observation(seat).describe()
        if self.choice is not None:
            from chkobba.fishing.cards import CARDS, format_cards

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


_FORWARDED: Final = (
    "agent_selection",
    "agents",
    "rewards",
    "_cumulative_rewards",
    "terminations",
    "truncations",
    "infos",
)
"""The attributes read at every step: PettingZoo's wrappers forward them through
``__getattr__``, after a failed lookup, which costs microseconds at each layer."""
_BEFORE_RESET: Final = frozenset(
    ("rewards", "terminations", "truncations", "infos", "agent_selection", "agents")
)


def _forward(name: str) -> property:
    def get(self: Any) -> Any:
        if not self._has_reset and name in _BEFORE_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        # Straight from the unwrapped environment: the wrapper never holds these
        # itself (the illegal-action rule writes them there too).
        return getattr(self._raw, name)

    return property(get, doc=f"``{name}`` of the unwrapped environment.")


class ClassicWrapper(
    wrappers.OrderEnforcingWrapper,  # type: ignore[misc]  # PettingZoo is untyped
    wrappers.TerminateIllegalWrapper,  # type: ignore[misc]
):
    """PettingZoo's classic wrappers, ``TerminateIllegalWrapper`` inside
    ``OrderEnforcingWrapper``, as one layer over :class:`raw_env`.

    A masked action ends the episode, with the illegal reward to the agent that chose
    it and 0 to the others; the order of calls is checked (reset before anything else,
    a warning for a step once every agent is done). Anything that is no action id at
    all (out of range, not an integer, or None from an agent to move) raises
    :class:`IllegalAction` with a one-line reason, where PettingZoo would index the
    mask with it. It is an instance of both PettingZoo classes and behaves as the two
    stacked, but each call goes straight to the unwrapped environment: two layers
    were about a quarter of a step in attribute look-ups and forwarding calls
    (``docs/rl.md``, Speed).
    """

    def __init__(self, env: raw_env, illegal_reward: float) -> None:
        """Wrap ``env``; a masked action ends the episode with ``illegal_reward``."""
        # Neither parent's __init__: each would call the other's with its own arguments.
        wrappers.BaseWrapper.__init__(self, env)
        self._raw = env
        self._has_reset = False
        self._has_updated = False
        self._illegal_value = illegal_reward
        self._terminated = False

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode (see :meth:`raw_env.reset`)."""
        self._has_reset = True
        self._has_updated = True
        self._terminated = False
        self._raw.reset(seed=seed, options=options)

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s observation (see :meth:`raw_env.observe`)."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        obs: ObsDict = self._raw.observe(agent)
        return obs

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, Any]:
        """The agent to move's observation, reward, termination, truncation and info."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        raw = self._raw
        agent = raw.agent_selection
        obs = raw.observe(agent) if observe else None
        return (obs, raw._cumulative_rewards[agent], raw.terminations[agent],
                raw.truncations[agent], raw.infos[agent])

    def step(self, action: int | None) -> None:
        """Apply ``action``, or end the episode if the mask forbids it."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self._raw
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        if raw.terminations[agent] or raw.truncations[agent]:
            raw._was_dead_step(action)
            return
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            action = _action_id(agent, action)
        # The mask of the agent's own observation, read from the environment's buffer.
        if raw._mask_of(raw._seat_of[agent])[action]:
            raw.step(action)
            return
        EnvLogger.warn_on_illegal_move()
        raw._cumulative_rewards[agent] = 0
        raw.terminations = dict.fromkeys(raw.agents, True)
        raw.truncations = dict.fromkeys(raw.agents, True)
        raw.rewards = dict.fromkeys(raw.agents, 0)
        raw.rewards[agent] = float(self._illegal_value)
        raw._accumulate_rewards()
        raw._deads_step_first()
        self._terminated = True

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        """The agent to move, until every agent is done (``step`` in between)."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)


def _action_id(agent: str, action: object) -> int:
    """``action`` as an action id (a NumPy integer, say), or :class:`IllegalAction`."""
    if action is None:
        raise IllegalAction(f"{agent} is to move and must give an action, not None")
    try:
        a: int = int(action)  # type: ignore[call-overload]
        ok = a == action and 0 <= a < NUM_ACTIONS
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise IllegalAction(f"{action!r} is not an action id: the ids are 0 to {NUM_ACTIONS - 1}")
    return a


class _AgentIterable(wrappers.order_enforcing.AECOrderEnforcingIterable):  # type: ignore[misc]
    """PettingZoo's iterable of the agents to move, iterated by :class:`_AgentIterator`."""

    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(wrappers.order_enforcing.AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's iterator of the agents to move, reading the unwrapped environment."""

    def __next__(self) -> str:
        wrapper = self.env
        raw = wrapper._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = raw.agent_selection
        return agent


for _name in _FORWARDED:
    setattr(ClassicWrapper, _name, _forward(_name))


def env(
    rules: RuleSet | str = CHKOBBA,
    seats: int = 2,
    teams: bool = False,
    episode: Episode = "round",
    render_mode: str | None = None,
    planes: bool = True,
    history: bool = False,
    illegal_reward: float = -1.0,
) -> AECEnv[str, ObsDict, int]:
    """The environment as PettingZoo's classic games ship: a masked action ends the
    episode with ``illegal_reward`` to the agent that chose it (``TerminateIllegalWrapper``),
    something that is no action id raises :class:`IllegalAction`, and the order of calls
    is checked (reset before step). :class:`raw_env` is the strict one.
    """
    e = raw_env(rules, seats, teams, episode, render_mode, planes, history)
    return ClassicWrapper(e, illegal_reward=illegal_reward)
