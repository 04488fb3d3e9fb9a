"""Distillation data: the expert's decisions with its value for every legal move.

:func:`generate` plays seeded deals of a recording expert (:class:`RecordingExpert`)
against the expert, ``heuristic`` and ``greedy`` in turn, and keeps, for every decision
of a recording seat that had a choice, the seat's ``chkobba_v1`` observation vector,
each legal move's features (:func:`chkobba.rl.neural.move_features`), the search's
mean round-point margin for each move and the move it chose. Game ``i`` of seed ``s``
depends only on ``(s, i)``, so the shards are the same whatever the number of worker
processes (``jobs``). The shards are ``.npz`` files written by :func:`write_shard` and
read back, concatenated, by :func:`load_shards`.

The expert searches uniformly here (no inference weights), so that each figure it
returns is a sum over a known number of sampled deals (:func:`search_samples`) and the
means are comparable from one decision to the next.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from chkobba.agents.base import Agent, make_agent
from chkobba.agents.expert import (
    EXPERT_ENDGAME_SAMPLES,
    EXPERT_SOLVE_LAST,
    EXPERT_SOLVE_STOCK,
    ExpertAgent,
)
from chkobba.duel.play import sub_seed
from chkobba.fishing.moves import Move
from chkobba.fishing.observe import Observation
from chkobba.fishing.rules import preset
from chkobba.games.base import game, play_out
from chkobba.rl.neural import NeuralAgent, load_network, move_features
from chkobba.rl.spaces import OBS_SIZE, encode

OPPONENTS: Final = ("expert", "heuristic", "greedy")
"""The recording expert's opponents, in turn by game number: the expert itself (whose
decisions are recorded too), then the two one-ply players."""
SHARD_GAMES: Final = 60
"""Games per shard file."""


@dataclass
class Positions:
    """Recorded decisions, flat: the moves of decision ``k`` are rows
    ``offsets[k]:offsets[k + 1]`` of ``features`` and ``values``."""

    obs: list[npt.NDArray[np.float16]] = field(default_factory=list)
    features: list[npt.NDArray[np.float16]] = field(default_factory=list)
    values: list[npt.NDArray[np.float32]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    games: list[int] = field(default_factory=list)

    def add(self, obs: Observation, values: Sequence[float], chosen: int, game_id: int) -> None:
        """Record one decision: ``values`` are the mean margins of ``obs.legal_moves``."""
        self.obs.append(encode(obs).astype(np.float16))
        self.features.append(move_features(obs).astype(np.float16))
        self.values.append(np.asarray(values, dtype=np.float32))
        self.chosen.append(chosen)
        self.games.append(game_id)

    def __len__(self) -> int:
        return len(self.chosen)


def search_samples(agent: ExpertAgent, obs: Observation) -> int:
    """How many sampled deals ``agent.evaluate(obs)`` sums over (uniform sampling, the
    compiled kernel): one exact solve in a two-player endgame, else its plan's samples."""
    if agent.solves_exactly(obs):
        return 1 if obs.seats == 2 else agent.endgame_samples
    return agent.plan(obs)[0]


def distill_expert(seed: int, samples: int) -> ExpertAgent:
    """The expert's search at ``samples`` sampled deals a move, uniform; its solves
    (:data:`~chkobba.agents.expert.EXPERT_SOLVE_STOCK`, the last deal) keep the full
    expert's settings, their budgets cut in the same proportion as ``samples``."""
    return ExpertAgent(
        seed,
        samples=samples,
        endgame_samples=EXPERT_ENDGAME_SAMPLES,
        solve_stock=EXPERT_SOLVE_STOCK,
        solve_last=EXPERT_SOLVE_LAST,
        deal_samples=max(1, samples // 6),
        last_samples=max(1, samples // 2),
    )


class RecordingExpert:
    """The expert's search, playing its best move and recording every decision it makes.

    With an ``actor`` the actor's move is played instead, the expert's values still
    recorded: the decisions are then the ones the actor's own play leads to (DAgger,
    Ross, Gordon & Bagnell 2011), where a network distilled from the expert's games
    alone has seen few examples.
    """

    def __init__(
        self, expert: ExpertAgent, positions: Positions, game_id: int, actor: Agent | None = None
    ) -> None:
        self.expert = expert
        self.positions = positions
        self.game_id = game_id
        self.actor = actor
        self.name = "expert"

    def choose(self, obs: Observation) -> Move:
        """The move with the best mean margin; the decision is recorded if there was a choice."""
        moves = obs.legal_moves
        if len(moves) == 1:
            return moves[0]
        values = self.expert.evaluate(obs)
        n = search_samples(self.expert, obs)
        best = max(range(len(moves)), key=values.__getitem__)
        self.positions.add(obs, [v / n for v in values], best, self.game_id)
        return moves[best] if self.actor is None else self.actor.choose(obs)


class ExactRecorder:
    """Plays ``actor``'s moves and, where the expert solves the position exactly (the last
    deal of two players: every card is then known to the seat, and one solve gives each
    move's exact margin), records the solve's value of every legal move.

    Those labels carry none of the sampled search's noise, and the last deal is where the
    search gains most over ``heuristic`` (its regret there is several times the rest's),
    so they are worth many more decisions than the games that reach them cost: the
    actors are one-ply players or a network, a fraction of a millisecond a move.
    """

    def __init__(
        self, expert: ExpertAgent, positions: Positions, game_id: int, actor: Agent
    ) -> None:
        self.expert = expert
        self.positions = positions
        self.game_id = game_id
        self.actor = actor
        self.name = "exact-recorder"

    def choose(self, obs: Observation) -> Move:
        """The actor's move; the exact values recorded first where there is a choice."""
        moves = obs.legal_moves
        if len(moves) > 1 and self.expert.solves_exactly(obs):
            values = self.expert.evaluate(obs)
            n = search_samples(self.expert, obs)
            best = max(range(len(moves)), key=values.__getitem__)
            self.positions.add(obs, [v / n for v in values], best, self.game_id)
        return self.actor.choose(obs)


ENDGAME_ACTORS: Final = ("heuristic", "greedy", "heuristic")
"""The opponents of the recording actor in endgame games, in turn by game number."""


def play_endgame(
    rules_name: str, seed: int, index: int, positions: Positions, actor: str
) -> None:
    """Play game ``index`` of ``seed`` (one deal, two players): ``actor`` against
    :data:`ENDGAME_ACTORS` ``[index % 3]``, seats alternating every three games, both seats
    recording the exact values of their last deal's decisions (:class:`ExactRecorder`)."""
    g = game("chkobba")
    rules = preset(rules_name)
    rng = random.Random(sub_seed(seed, index))
    dealer = rng.randrange(2)
    deck = g.draw_deck(rng, rules, 2, False, dealer)
    me = (index // len(ENDGAME_ACTORS)) % 2
    agents: list[Agent] = []
    for seat in range(2):
        s = sub_seed(seed, index, seat)
        who = actor if seat == me else ENDGAME_ACTORS[index % len(ENDGAME_ACTORS)]
        agents.append(ExactRecorder(distill_expert(s, 1), positions, index, actor_agent(who, s)))
    table = g.start(rules, 2, False, seed=0, dealer=dealer, decks=lambda k: deck)
    play_out(table, agents, [[], []], "round")


def play_game(
    rules_name: str,
    seed: int,
    index: int,
    samples: int,
    positions: Positions,
    actor: str | None = None,
) -> None:
    """Play game ``index`` of ``seed``: one deal of two players, a recording expert against
    :data:`OPPONENTS` ``[index % 3]``, the expert's seat alternating every three games.
    With ``actor`` (:func:`actor_agent`) the recording seat plays the actor's moves
    (:class:`RecordingExpert`); an expert opponent still plays its own."""
    g = game("chkobba")
    rules = preset(rules_name)
    rng = random.Random(sub_seed(seed, index))
    dealer = rng.randrange(2)
    deck = g.draw_deck(rng, rules, 2, False, dealer)
    opponent = OPPONENTS[index % len(OPPONENTS)]
    me = (index // len(OPPONENTS)) % 2
    agents: list[Agent] = [
        make_agent("greedy") for _ in range(2)
    ]
    for seat in range(2):
        s = sub_seed(seed, index, seat)
        if seat == me:
            acting = None if actor is None else actor_agent(actor, s)
            agents[seat] = RecordingExpert(distill_expert(s, samples), positions, index, acting)
        elif opponent == "expert":
            agents[seat] = RecordingExpert(distill_expert(s, samples), positions, index)
        else:
            agents[seat] = make_agent(opponent, s)
    table = g.start(rules, 2, False, seed=0, dealer=dealer, decks=lambda k: deck)
    play_out(table, agents, [[], []], "round")


def actor_agent(actor: str, seed: int) -> Agent:
    """The player ``actor`` names: a ``chkobba-neural/1`` weight file (``*.npz``) played by
    :class:`~chkobba.rl.neural.NeuralAgent`, or a registered player's name."""
    if actor.endswith(".npz"):
        return NeuralAgent(load_network(actor))
    return make_agent(actor, seed)


def write_shard(path: Path, positions: Positions) -> None:
    """Write ``positions`` as one ``.npz`` shard (to a temporary name, then renamed, so a
    reader never sees half a shard)."""
    counts = [len(v) for v in positions.values]
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(counts)
    obs = np.stack(positions.obs) if positions.obs else np.zeros((0, OBS_SIZE), np.float16)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(
            f,
            obs=obs,
            features=np.concatenate(positions.features) if counts else np.zeros((0, 0)),
            values=np.concatenate(positions.values) if counts else np.zeros(0),
            offsets=offsets,
            chosen=np.asarray(positions.chosen, dtype=np.int16),
            games=np.asarray(positions.games, dtype=np.int64),
        )
    tmp.rename(path)


def shard_path(out: Path, rules_name: str, seed: int, start: int, endgame: bool = False) -> Path:
    """The shard of games ``start`` to ``start + SHARD_GAMES - 1`` (``-e``: endgame games)."""
    return out / f"{rules_name}-{'e' if endgame else 's'}{seed}-g{start:07d}.npz"


def make_shard(
    rules_name: str,
    seed: int,
    start: int,
    games: int,
    samples: int,
    out: str,
    actor: str | None = None,
    endgame: bool = False,
) -> str:
    """Play ``games`` games from ``start`` and write their shard (skipped if it exists);
    ``endgame``: only the last deal's exact values (:func:`play_endgame`)."""
    path = shard_path(Path(out), rules_name, seed, start, endgame)
    if path.exists():
        return str(path)
    positions = Positions()
    for index in range(start, start + games):
        if endgame:
            play_endgame(rules_name, seed, index, positions, actor or "heuristic")
        else:
            play_game(rules_name, seed, index, samples, positions, actor)
    write_shard(path, positions)
    return str(path)


def generate(
    rules_name: str,
    seed: int,
    games: int,
    samples: int,
    out: Path,
    jobs: int = 1,
    first: int = 0,
    shard_games: int = SHARD_GAMES,
    actor: str | None = None,
    endgame: bool = False,
) -> Iterable[str]:
    """Play games ``first`` to ``first + games - 1`` in shards, yielding each shard's path
    as it is written (in order with several ``jobs``); ``actor``: see :func:`play_game`;
    ``endgame``: see :func:`play_endgame`."""
    out.mkdir(parents=True, exist_ok=True)
    starts = range(first, first + games, shard_games)
    sizes = [min(shard_games, first + games - s) for s in starts]
    if jobs == 1:
        for s, n in zip(starts, sizes, strict=True):
            yield make_shard(rules_name, seed, s, n, samples, str(out), actor, endgame)
        return
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(make_shard, rules_name, seed, s, n, samples, str(out), actor, endgame)
            for s, n in zip(starts, sizes, strict=True)
        ]
        for f in futures:
            yield f.result()


@dataclass(frozen=True)
class Dataset:
    """Shards concatenated: see :class:`Positions` for the layout."""

    obs: npt.NDArray[np.float16]
    features: npt.NDArray[np.float16]
    values: npt.NDArray[np.float32]
    offsets: npt.NDArray[np.int64]
    chosen: npt.NDArray[np.int16]
    games: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.chosen)


def load_shards(paths: Sequence[Path]) -> Dataset:
    """Read and concatenate shards (in the order given)."""
    parts = []
    for p in paths:
        with np.load(p, allow_pickle=False) as d:
            parts.append({k: d[k] for k in d.files})
    parts = [d for d in parts if len(d["chosen"])]
    offsets = [np.zeros(1, dtype=np.int64)]
    at = 0
    for d in parts:
        offsets.append(d["offsets"][1:] + at)
        at += int(d["offsets"][-1])
    return Dataset(
        obs=np.concatenate([d["obs"] for d in parts]),
        features=np.concatenate([d["features"] for d in parts]),
        values=np.concatenate([d["values"] for d in parts]),
        offsets=np.concatenate(offsets),
        chosen=np.concatenate([d["chosen"] for d in parts]),
        games=np.concatenate([d["games"] for d in parts]),
    )
