"""Reinforcement from the distilled network: the rollouts a policy-gradient fine-tuning learns from.

The learned player ``neural`` (:mod:`chkobba.rl.neural`) was distilled from the expert's
search; this module plays that network, as a *stochastic* policy, against a league of
opponents and records every decision it makes, so that a policy-gradient method (PPO,
Schulman et al. 2017; the update itself is in ``examples/train_neural.py finetune``, with
torch) can improve it on the game's own result.

**The policy.** The network's logits over the legal moves, divided by a temperature, go
through a softmax and the move is drawn from it (:class:`Sampler`). Its value head scores
each move (the expected round-point margin after it), so the state's value under the
policy is the probability-weighted mean of those scores (:attr:`Rollouts.value`), a
baseline that does not depend on the move drawn.

**The deals are duplicate.** Each deal is played twice on the same cards, the learner in
seat 0 and then in seat 1, against the same opponent (:func:`play_pair`), as ``chkobba
duel`` measures. A decision's return is its seat's round-point margin at the round's end
(points a deal, the duel's unit, no discount; :attr:`Rollouts.ret`), and each record also
carries the learner's margin in the *other* game of its pair (:attr:`Rollouts.other`):
minus that is what the opponent made of the learner's cards, a baseline that removes the
luck of the cards without depending on any of the learner's moves in this game.

**The league** (:class:`League`): the fixed players by name (``heuristic``, ``greedy``,
any registered player) and frozen past versions of the network itself, each drawn with
its weight for every pair, in the manner of fictitious self-play's mixture of past
policies (Heinrich, Lanctot & Silver 2015) and AlphaStar's league (Vinyals et al. 2019).

Everything a pair does depends only on ``(seed, index)`` and the networks: the rollouts
are reproducible, whatever order the pairs are played in. NumPy only: torch is for the
update.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from chkobba.agents.base import Agent, make_agent
from chkobba.duel.play import sub_seed
from chkobba.fishing.moves import Move
from chkobba.fishing.observe import Observation
from chkobba.fishing.rules import preset
from chkobba.games.base import game, play_out
from chkobba.rl.neural import Network, NeuralAgent, move_features
from chkobba.rl.spaces import OBS_SIZE, encode

SELF: Final = "self"
"""The league's name for frozen past versions of the learner."""


class FinetuneError(ValueError):
    """A league or rollout setting that cannot be played."""


def log_softmax(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The log-probabilities of the softmax of ``x`` (one decision's moves)."""
    z: npt.NDArray[np.float64] = x - x.max()
    out: npt.NDArray[np.float64] = z - np.log(np.exp(z).sum())
    return out


@dataclass
class Rollouts:
    """The learner's recorded decisions, flat: the moves of decision ``k`` are rows
    ``offsets[k]:offsets[k + 1]`` of :meth:`features_array` (as in
    :class:`chkobba.rl.distill.Positions`). Only decisions with a choice are recorded."""

    obs: list[npt.NDArray[np.float32]] = field(default_factory=list)
    """The seat's ``chkobba_v1`` observation vector at each decision."""
    features: list[npt.NDArray[np.float32]] = field(default_factory=list)
    """Each legal move's features (:func:`~chkobba.rl.neural.move_features`)."""
    chosen: list[int] = field(default_factory=list)
    """The index of the move drawn, in the legal moves' order."""
    logp: list[float] = field(default_factory=list)
    """Its log-probability under the policy that drew it (the temperature included)."""
    value: list[float] = field(default_factory=list)
    """The state's value under that policy: its probabilities times the value head."""
    ret: list[float] = field(default_factory=list)
    """The seat's round-point margin at the round's end (its goal's sign applied)."""
    other: list[float] = field(default_factory=list)
    """The learner's margin in the other game of the pair (the seats swapped)."""
    pair: list[int] = field(default_factory=list)
    """The pair's index."""
    game: list[int] = field(default_factory=list)
    """The game of the pair: the learner's seat (0 or 1). A game's decisions are
    consecutive records, in the order they were made."""
    opponent: list[str] = field(default_factory=list)
    """The league member it played."""
    q: list[npt.NDArray[np.float64]] = field(default_factory=list)
    """Vine rollouts only (:func:`vine_pair`): each legal move's margin when it is played
    and the game finished from the true cards; NaN for the moves not tried."""

    def __len__(self) -> int:
        return len(self.chosen)

    def offsets(self) -> npt.NDArray[np.int64]:
        """Where each decision's moves start in :meth:`features_array` (and one past the end)."""
        out = np.zeros(len(self.features) + 1, dtype=np.int64)
        out[1:] = np.cumsum([len(f) for f in self.features])
        return out

    def features_array(self) -> npt.NDArray[np.float32]:
        """Every decision's moves' features, stacked."""
        if not self.features:
            return np.zeros((0, 0), np.float32)
        return np.concatenate(self.features)

    def obs_array(self) -> npt.NDArray[np.float32]:
        """The observation vectors, one row a decision."""
        if not self.obs:
            return np.zeros((0, OBS_SIZE), np.float32)
        return np.stack(self.obs)

    def extend(self, other: Rollouts) -> None:
        """Append ``other``'s decisions."""
        for name in self.__dataclass_fields__:
            getattr(self, name).extend(getattr(other, name))


class _Scored:
    """The network's outputs for ``obs``'s legal moves and its policy at ``temperature``
    (log-probabilities ``logp`` and probabilities ``p``)."""

    def __init__(self, network: Network, obs: Observation, temperature: float) -> None:
        self.vec = encode(obs)
        self.feats = move_features(obs)
        self.out = network.outputs(self.vec, self.feats).astype(np.float64)
        self.logp = log_softmax(self.out[:, 0] / temperature)
        self.p = np.exp(self.logp)

    def record(self, r: Rollouts, k: int) -> None:
        """Record the decision in ``r``, move ``k`` played, with the state's value (the
        policy's probabilities times the value head's score of each move)."""
        r.obs.append(self.vec)
        r.features.append(self.feats)
        r.chosen.append(k)
        r.logp.append(float(self.logp[k]))
        r.value.append(float(self.p @ self.out[:, 1]))


class Sampler:
    """Plays a move drawn from the softmax of ``network``'s logits over the legal moves (at
    ``temperature``) and records each decision that had a choice in ``rollouts``; the
    return is filled in by :func:`play_pair` once the round is over."""

    def __init__(
        self,
        network: Network,
        rollouts: Rollouts,
        rng: np.random.Generator,
        temperature: float = 1.0,
        name: str = "learner",
    ) -> None:
        if not temperature > 0:
            raise FinetuneError(f"the temperature must be above zero, not {temperature}")
        self.network = network
        self.rollouts = rollouts
        self.rng = rng
        self.temperature = temperature
        self.name = name

    def choose(self, obs: Observation) -> Move:
        """A move drawn from the policy; recorded when there was more than one."""
        moves = obs.legal_moves
        if len(moves) == 1:
            return moves[0]
        s = _Scored(self.network, obs, self.temperature)
        k = int(self.rng.choice(len(moves), p=s.p / s.p.sum()))
        s.record(self.rollouts, k)
        return moves[k]


@dataclass(frozen=True)
class League:
    """The opponents and their weights: registered players by name, and :data:`SELF` for
    the frozen past versions in :attr:`pool` (the latest weighted most, below)."""

    members: tuple[tuple[str, float], ...]
    pool: tuple[Network, ...] = ()

    def __post_init__(self) -> None:
        if not self.members or any(w < 0 for _, w in self.members):
            raise FinetuneError("a league needs at least one member, with weights ≥ 0")
        if sum(w for _, w in self.members) <= 0:
            raise FinetuneError("a league's weights must not all be zero")

    @staticmethod
    def parse(text: str) -> tuple[tuple[str, float], ...]:
        """``"heuristic:0.7,greedy:0.1,self:0.2"`` (a missing weight is 1) as members."""
        members = []
        for part in text.split(","):
            name, _, weight = part.strip().partition(":")
            if not name:
                raise FinetuneError(f"an empty league member in {text!r}")
            try:
                members.append((name, float(weight) if weight else 1.0))
            except ValueError:
                raise FinetuneError(f"not a weight: {weight!r} in {text!r}") from None
        return tuple(members)

    def draw(self, rng: random.Random) -> tuple[str, Network | None]:
        """A member for one pair: its name and, for :data:`SELF`, a frozen network drawn
        uniformly from the newest half of the pool (None while the pool is empty: the
        learner's current weights play)."""
        names = [n for n, _ in self.members]
        weights = [w for _, w in self.members]
        name = rng.choices(names, weights)[0]
        if name != SELF:
            return name, None
        if not self.pool:
            return name, None
        newest = self.pool[len(self.pool) // 2:]
        return name, newest[rng.randrange(len(newest))]


def opponent_agent(name: str, frozen: Network | None, learner: Network, seed: int) -> Agent:
    """The player of a league member: a registered player, or a network playing its
    best move (a frozen version, or the learner's current weights)."""
    if name == SELF:
        return NeuralAgent(frozen if frozen is not None else learner, "self")
    return make_agent(name, seed)


def margins(rules_name: str, table_points: Sequence[int], side_of: Sequence[int]) -> list[float]:
    """Each seat's round-point margin over the other side (turned round where the fewest
    points win), two players."""
    sign = -1.0 if game("chkobba").lowest_wins(preset(rules_name)) else 1.0
    a, b = (table_points[side_of[s]] for s in (0, 1))
    return [sign * (a - b), sign * (b - a)]


def play_game(
    rules_name: str, seed: int, index: int, me: int, learner: Agent, other: Agent
) -> float:
    """Game ``me`` of pair ``index`` of ``seed`` (the deal ``chkobba duel`` deals there),
    ``learner`` in seat ``me`` against ``other``: the learner's round-point margin."""
    g = game("chkobba")
    rules = preset(rules_name)
    rng = random.Random(sub_seed(seed, index))
    dealer = rng.randrange(2)
    deck = g.draw_deck(rng, rules, 2, False, dealer)
    agents = [learner, other] if me == 0 else [other, learner]
    table = g.start(rules, 2, False, seed=0, dealer=dealer, decks=lambda k: deck)
    play_out(table, agents, [[], []], "round")
    return margins(rules_name, table.round_points(0), table.side_of)[me]


def pair_margins(
    network: Network, opponent: str, rules_name: str, seed: int, pairs: int
) -> npt.NDArray[np.float64]:
    """The network alone (its best move, :class:`~chkobba.rl.neural.NeuralAgent`) against
    the registered player ``opponent``: each pair's mean margin, as ``chkobba duel``
    plays pairs ``0`` to ``pairs - 1`` of ``seed``. Two networks measured on the same
    seed play the same deals, so their per-pair difference (:func:`paired_gain`) is free of
    most of the cards' luck: where they choose alike, their games are the same."""
    out = np.zeros(pairs)
    for index in range(pairs):
        out[index] = sum(
            play_game(rules_name, seed, index, me, NeuralAgent(network, "candidate"),
                      make_agent(opponent, sub_seed(seed, index, me, 1 - me)))
            for me in (0, 1)
        ) / 2
    return out


def paired_gain(
    new: npt.NDArray[np.float64], old: npt.NDArray[np.float64]
) -> tuple[float, float, float]:
    """The mean per-pair difference ``new - old`` and its 95% interval (normal)."""
    d = np.asarray(new, np.float64) - np.asarray(old, np.float64)
    half = 1.96 * float(d.std(ddof=1)) / np.sqrt(len(d)) if len(d) > 1 else float("inf")
    return float(d.mean()), float(d.mean()) - half, float(d.mean()) + half


def _labelled(games: list[Rollouts], results: list[float], index: int, name: str) -> Rollouts:
    """The pair's two games' records as one, each decision given its game's return, the
    other game's, the pair, the game and the opponent."""
    out = Rollouts()
    for me, r in enumerate(games):
        n = len(r)
        r.ret.extend([results[me]] * n)
        r.other.extend([results[1 - me]] * n)
        r.pair.extend([index] * n)
        r.game.extend([me] * n)
        r.opponent.extend([name] * n)
        out.extend(r)
    return out


def play_pair(
    network: Network,
    league: League,
    rules_name: str,
    seed: int,
    index: int,
    temperature: float = 1.0,
) -> Rollouts:
    """Pair ``index`` of ``seed``: one deal of two players, played twice on the same cards
    against a league member drawn for the pair, the learner (:class:`Sampler`) in seat 0
    and then in seat 1. Returns the learner's decisions of both games, each with its
    game's margin (:attr:`Rollouts.ret`) and the other game's (:attr:`Rollouts.other`)."""
    name, frozen = league.draw(random.Random(sub_seed(seed, index, 1)))
    draws = np.random.default_rng(sub_seed(seed, index, 2))
    games: list[Rollouts] = []
    results: list[float] = []
    for me in (0, 1):
        r = Rollouts()
        learner = Sampler(network, r, draws, temperature)
        # The opponent's seed is the one ``chkobba duel`` gives it (game ``me``, seat
        # ``1 - me``): at a temperature near zero the pair is the duel's.
        other = opponent_agent(name, frozen, network, sub_seed(seed, index, me, 1 - me))
        results.append(play_game(rules_name, seed, index, me, learner, other))
        games.append(r)
    return _labelled(games, results, index, name)


def collect(
    network: Network,
    league: League,
    rules_name: str,
    seed: int,
    first: int,
    pairs: int,
    temperature: float = 1.0,
    vine_top: int = 0,
    vine_threshold: float = 0.9,
) -> Rollouts:
    """Pairs ``first`` to ``first + pairs - 1`` of ``seed`` (:func:`play_pair`), in order;
    with ``vine_top`` the vine's pairs instead (:func:`vine_pair`)."""
    out = Rollouts()
    for index in range(first, first + pairs):
        if vine_top:
            out.extend(vine_pair(network, league, rules_name, seed, index, temperature,
                                 vine_threshold, vine_top))
        else:
            out.extend(play_pair(network, league, rules_name, seed, index, temperature))
    return out


def advantages(
    rollouts: Rollouts, baseline: str, lam: float = 1.0
) -> npt.NDArray[np.float64]:
    """Each decision's advantage: its return less a baseline that does not depend on the
    move drawn. ``value``: the state's value (:attr:`Rollouts.value`), with ``lam`` below 1
    the generalised advantage estimate (Schulman et al. 2016: the value's changes from one
    decision of the game to the next, weighted by powers of ``lam``; no discount, the only
    reward the margin at the end; ``lam`` = 1 is the return less the value);
    ``duplicate``: minus the other game's margin, what the opponent made of the same cards
    (so the advantage is the pair's summed margin); ``both``: the return less the mean of
    the two."""
    ret = np.asarray(rollouts.ret, dtype=np.float64)
    value = np.asarray(rollouts.value, dtype=np.float64)
    dup = -np.asarray(rollouts.other, dtype=np.float64)
    if baseline == "value":
        if lam == 1.0:
            return ret - value
        out = np.zeros(len(ret))
        # Walk back through each game: its records are consecutive, the last one's next
        # value is the game's result.
        acc = 0.0
        for k in range(len(ret) - 1, -1, -1):
            last = k == len(ret) - 1 or (rollouts.pair[k + 1], rollouts.game[k + 1]) != (
                rollouts.pair[k], rollouts.game[k])
            nxt = ret[k] if last else value[k + 1]
            acc = (nxt - value[k]) + (0.0 if last else lam * acc)
            out[k] = acc
        return out
    if baseline == "duplicate":
        return ret - dup
    if baseline == "both":
        return ret - 0.5 * (value + dup)
    raise FinetuneError(f"unknown baseline {baseline!r}: value, duplicate or both")


def _finish(table: Any, agents: Sequence[Agent]) -> None:
    # The round played out from where it is (the table is a copy).
    while not table.rounds:
        seat = table.turn
        table.apply_unchecked(agents[seat].choose(table.observe(seat)))


class VineLearner:
    """The network's best move (as the level plays), and at the decisions where the policy
    at ``temperature`` hesitates (its best move's probability under ``threshold``) each of
    its ``top`` likeliest moves tried from a copy of the true position, the round played
    out by the same players (TRPO's "vine" estimate, Schulman et al. 2015): every tried
    move's margin on the same cards, the rest of the game deterministic."""

    def __init__(
        self,
        network: Network,
        rollouts: Rollouts,
        table: Any,
        me: int,
        opponent: Callable[[], Agent],
        temperature: float,
        threshold: float,
        top: int,
        rules_name: str,
    ) -> None:
        self.network = network
        self.rollouts = rollouts
        self.table = table
        self.me = me
        self.opponent = opponent
        self.temperature = temperature
        self.threshold = threshold
        self.top = top
        self.rules_name = rules_name
        self.name = "vine"

    def choose(self, obs: Observation) -> Move:
        """The best move; the tried moves' margins recorded where the policy hesitates."""
        moves = obs.legal_moves
        if len(moves) == 1:
            return moves[0]
        s = _Scored(self.network, obs, self.temperature)
        best = int(np.argmax(s.out[:, 0]))
        if s.p[best] >= self.threshold:
            return moves[best]
        q = np.full(len(moves), np.nan)
        for k in np.argsort(-s.out[:, 0], kind="stable")[: self.top]:
            copy = deepcopy(self.table)
            copy.apply_unchecked(moves[k])
            agents = [NeuralAgent(self.network, "vine"), self.opponent()]
            _finish(copy, agents if self.me == 0 else agents[::-1])
            q[k] = margins(self.rules_name, copy.round_points(0), copy.side_of)[self.me]
        s.record(self.rollouts, best)
        self.rollouts.q.append(q)
        return moves[best]


def vine_pair(
    network: Network,
    league: League,
    rules_name: str,
    seed: int,
    index: int,
    temperature: float = 0.3,
    threshold: float = 0.9,
    top: int = 3,
) -> Rollouts:
    """Pair ``index`` of ``seed`` played as :func:`play_pair` plays it, but by the network's
    best move (:class:`VineLearner`), each hesitant decision's likeliest moves tried on the
    true cards (:attr:`Rollouts.q`)."""
    g = game("chkobba")
    rules = preset(rules_name)
    rng = random.Random(sub_seed(seed, index))
    dealer = rng.randrange(2)
    deck = g.draw_deck(rng, rules, 2, False, dealer)
    name, frozen = league.draw(random.Random(sub_seed(seed, index, 1)))
    results: list[float] = []
    games: list[Rollouts] = []
    for me in (0, 1):
        r = Rollouts()
        opp_seed = sub_seed(seed, index, me, 1 - me)

        def opponent(s: int = opp_seed) -> Agent:
            return opponent_agent(name, frozen, network, s)

        table = g.start(rules, 2, False, seed=0, dealer=dealer, decks=lambda k: deck)
        learner = VineLearner(network, r, table, me, opponent, temperature, threshold, top,
                              rules_name)
        agents = [learner, opponent()] if me == 0 else [opponent(), learner]
        play_out(table, agents, [[], []], "round")
        results.append(margins(rules_name, table.round_points(0), table.side_of)[me])
        games.append(r)
    return _labelled(games, results, index, name)


BASELINES: Final = ("value", "duplicate", "both")
"""The baselines :func:`advantages` knows."""

__all__ = [
    "BASELINES",
    "SELF",
    "FinetuneError",
    "League",
    "Rollouts",
    "Sampler",
    "VineLearner",
    "advantages",
    "collect",
    "log_softmax",
    "margins",
    "opponent_agent",
    "pair_margins",
    "paired_gain",
    "play_game",
    "play_pair",
    "vine_pair",
]
