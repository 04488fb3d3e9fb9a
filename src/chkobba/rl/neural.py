"""The learned player ``neural``: a small network that scores each legal move, no search.

The network was distilled from the expert's sampled search (``docs/rl.md``, "The learned
player"): for every decision it sees the seat's ``chkobba_v1`` observation vector
(:func:`chkobba.rl.spaces.encode`) and, for each legal move, the move's features
(:func:`move_features`: the card, the cards it takes, whether it sweeps, and what the
greedy and heuristic players' one-ply judgements make of it). It writes one score per
move and plays the best: deterministic, a fraction of a millisecond a move, NumPy only.

The weights are shipped per rule set in ``chkobba/rl/weights/neural_<preset>.npz``
(format :data:`FORMAT`); a game whose preset has none plays with the Chkobba weights
(:func:`weights_for` says which file it picked), which is the network trained on
Chkobba's deals: still legal, but not measured elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from chkobba.agents.greedy import KEEP_ON_CUT, goal_sign, play_worth
from chkobba.agents.heuristic import HeuristicAgent, Judge
from chkobba.agents.player import register
from chkobba.fishing.moves import Cut, Move
from chkobba.fishing.observe import Observation
from chkobba.rl.npzfile import read_arrays
from chkobba.rl.spaces import OBS_LAYOUT, OBS_SIZE, VERSION, encode

FORMAT: Final = "chkobba-neural/1"
"""The weight file format this module reads and the training script writes."""
WEIGHTS_DIR: Final = Path(__file__).parent / "weights"
"""Where the shipped weights are: ``neural_<preset>.npz``."""
FALLBACK: Final = "chkobba"
"""The preset whose weights play where a preset has none of its own."""

MOVE_FEATURES: Final = 90
"""The length of one move's feature vector (:func:`move_features`)."""
_CARD: Final = 0
_TAKE: Final = 40
_FLAGS: Final = 80
_LAY, _CAPTURE, _SWEEP, _KEEP, _TABLE, _LAST, _GREEDY_CUT = range(_FLAGS, _FLAGS + 7)
_GREEDY: Final = 87
_HEURISTIC: Final = 88
_TAKEN: Final = 89
_HAND: Final = OBS_LAYOUT["hand"]
_TABLE_PLANE: Final = OBS_LAYOUT["table"]
AFTER_FEATURES: Final = 80
"""The cards left on the table and in the hand once the move is made (:func:`after`): the
network's first layer reads them beside the move's own features."""
_SCALE: Final = 3.0
"""The one-ply judgements are divided by this (they are round points: a few at most)."""
_JUDGE_AGENT: Final = HeuristicAgent(0)


class NeuralError(ValueError):
    """A weight file that cannot be read or does not fit the network."""


def move_features(obs: Observation) -> npt.NDArray[np.float32]:
    """One row of :data:`MOVE_FEATURES` numbers per legal move of ``obs``, in their order.

    A play: its card (one-hot), the table cards it takes, whether it lays, captures or
    sweeps the table, whether it is the round's last play, the greedy player's value
    of it (:func:`~chkobba.agents.greedy.play_worth`), the heuristic player's score
    (:class:`~chkobba.agents.heuristic.Judge`), both turned round where the fewest points
    win, and the number of cards taken. A cut decision: the cut card, keep or table,
    and whether the greedy player would decide so.
    """
    moves = obs.legal_moves
    out = np.zeros((len(moves), MOVE_FEATURES), dtype=np.float32)
    if not moves:
        return out
    last = obs.plays_left == 1
    if isinstance(moves[0], Cut):
        card = obs.cut_card
        keep_greedy = card is not None and bool(KEEP_ON_CUT >> card & 1)
        for i, m in enumerate(moves):
            if card is not None:
                out[i, _CARD + card] = 1.0
            keep = m is Cut.KEEP
            out[i, _KEEP if keep else _TABLE] = 1.0
            out[i, _GREEDY_CUT] = float(keep == keep_greedy)
        return out
    sign = goal_sign(obs)
    judge = Judge(obs, _JUDGE_AGENT)
    table = obs.table
    for i, m in enumerate(moves):
        card, cap = m  # type: ignore[misc]
        row = out[i]
        row[_CARD + card] = 1.0
        taken = 0
        c = cap
        while c:
            low = c & -c
            row[_TAKE + low.bit_length() - 1] = 1.0
            c ^= low
            taken += 1
        row[_LAY if not cap else _CAPTURE] = 1.0
        row[_SWEEP] = float(bool(cap) and cap == table and not last)
        row[_LAST] = float(last)
        row[_GREEDY] = sign * play_worth(m, table, last) / _SCALE  # type: ignore[arg-type]
        row[_HEURISTIC] = sign * judge.score(m) / _SCALE  # type: ignore[arg-type]
        row[_TAKEN] = taken / 4.0
    return out


def after(
    obs_vec: npt.NDArray[np.float32], feats: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """For each move (a row of :func:`move_features`), the table and the hand it leaves:
    (moves, :data:`AFTER_FEATURES`). A lay or a tabled cut card joins the table, a capture
    leaves it, the card played leaves the hand and a kept cut card joins it."""
    card = feats[:, _CARD:_CARD + 40]
    lays = (feats[:, _LAY] + feats[:, _TABLE])[:, None]
    plays = (feats[:, _LAY] + feats[:, _CAPTURE])[:, None]
    keeps = feats[:, _KEEP][:, None]
    table = obs_vec[_TABLE_PLANE][None, :] - feats[:, _TAKE:_TAKE + 40] + card * lays
    hand = obs_vec[_HAND][None, :] - card * plays + card * keeps
    return np.concatenate([table, hand], axis=1)


@dataclass(frozen=True)
class Network:
    """An action-scoring network: ``relu(obs @ wo + [move, after] @ wm + b0)``, then ReLU layers,
    to two outputs per move: a logit (the policy) and a value (the expected round-point
    margin after the move), plus a linear path from the move's features straight to the
    outputs (``move @ ws``: the one-ply judgements count from the start, the deep part
    learns what they miss).

    The observation's part of the first layer is computed once per decision and shared
    by every move.
    """

    wo: npt.NDArray[np.float32]
    wm: npt.NDArray[np.float32]
    """The first layer's weights on a move's features and :func:`after` them."""
    b0: npt.NDArray[np.float32]
    layers: tuple[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], ...]
    ws: npt.NDArray[np.float32] | None = None
    """The linear path, (:data:`MOVE_FEATURES`, 2); None: none."""
    preset: str = ""
    """The preset whose decisions trained it."""

    def outputs(
        self, obs_vec: npt.NDArray[np.float32], feats: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """The (moves, 2) logits and values for one observation and its moves' features."""
        moves = np.concatenate([feats, after(obs_vec, feats)], axis=1)
        x = np.maximum(obs_vec @ self.wo + moves @ self.wm + self.b0, 0.0)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0)
        if self.ws is not None:
            x = x + feats @ self.ws
        return x

    def save(self, path: str | Path) -> None:
        """Write the weights as a :data:`FORMAT` archive in float16 (half the size)."""
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "format": np.array(FORMAT),
            "version": np.array(VERSION),
            "preset": np.array(self.preset),
            "wo": self.wo.astype(np.float16),
            "wm": self.wm.astype(np.float16),
            "b0": self.b0.astype(np.float16),
        }
        if self.ws is not None:
            arrays["ws"] = self.ws.astype(np.float16)
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i + 1}"] = w.astype(np.float16)
            arrays[f"b{i + 1}"] = b.astype(np.float16)
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)  # type: ignore[arg-type]


def load_network(path: str | Path) -> Network:
    """Read and check a weight file; raise :class:`NeuralError` saying what is wrong."""
    p = Path(path)
    try:
        return _load(str(p.resolve()), p.stat().st_mtime_ns)
    except OSError as e:
        raise NeuralError(f"cannot read weights {path}: {e.strerror}") from None


@lru_cache(maxsize=8)
def _load(path: str, mtime: int) -> Network:
    # Cached by path and modification time: a duel makes a player for every game.
    arrays = read_arrays(path, FORMAT, "a weight file", NeuralError)
    try:
        wo, wm, b0 = (arrays[k].astype(np.float32) for k in ("wo", "wm", "b0"))
    except KeyError as e:
        raise NeuralError(f"{path}: missing array {e}") from None
    width = b0.shape[0] if b0.ndim == 1 else -1
    if wo.shape != (OBS_SIZE, width) or wm.shape != (MOVE_FEATURES + AFTER_FEATURES, width):
        raise NeuralError(f"{path}: the first layer does not fit the observation and moves")
    layers = []
    i = 1
    while f"w{i}" in arrays:
        w = arrays[f"w{i}"].astype(np.float32)
        b = arrays.get(f"b{i}")
        if w.ndim != 2 or w.shape[0] != width or b is None or b.shape != (w.shape[1],):
            raise NeuralError(f"{path}: layer {i} does not fit the previous one")
        layers.append((w, b.astype(np.float32)))
        width = w.shape[1]
        i += 1
    if not layers or width != 2:
        raise NeuralError(f"{path}: the network must end in 2 outputs a move (logit, value)")
    ws = arrays.get("ws")
    if ws is not None and ws.shape != (MOVE_FEATURES, 2):
        raise NeuralError(f"{path}: the linear path does not fit the moves' features")
    skip = None if ws is None else ws.astype(np.float32)
    return Network(wo, wm, b0, tuple(layers), skip, str(arrays.get("preset", "")))


def ensemble(networks: Sequence[Network]) -> Network:
    """One network whose outputs are the mean of ``networks``' outputs (same depth each).

    The members sit side by side: their first layers' columns are concatenated, their
    hidden layers placed on a block diagonal, and their last layers stacked and divided
    by their number, so the result is an ordinary :class:`Network` (one file, one pass).
    Averaging the logits of networks trained from different seeds averages away part of
    what each learned of the search's noise (an ensemble, Dietterich 2000); the move a
    mean of logits prefers is the one the mean of the log-probabilities prefers.
    """
    if not networks:
        raise NeuralError("an ensemble needs at least one network")
    depth = len(networks[0].layers)
    if any(len(n.layers) != depth for n in networks):
        raise NeuralError("the networks of an ensemble must have the same number of layers")
    k = float(len(networks))
    layers = []
    for i in range(depth):
        ws = [n.layers[i][0] for n in networks]
        bs = [n.layers[i][1] for n in networks]
        if i == depth - 1:
            layers.append((np.concatenate(ws, axis=0) / k, np.mean(bs, axis=0)))
            continue
        block = np.zeros((sum(w.shape[0] for w in ws), sum(w.shape[1] for w in ws)), np.float32)
        r = c = 0
        for w in ws:
            block[r:r + w.shape[0], c:c + w.shape[1]] = w
            r += w.shape[0]
            c += w.shape[1]
        layers.append((block, np.concatenate(bs)))
    skips = [n.ws if n.ws is not None else np.zeros((MOVE_FEATURES, 2), np.float32)
             for n in networks]
    return Network(
        np.concatenate([n.wo for n in networks], axis=1),
        np.concatenate([n.wm for n in networks], axis=1),
        np.concatenate([n.b0 for n in networks]),
        tuple(layers),
        np.mean(skips, axis=0).astype(np.float32),
        networks[0].preset,
    )


def weights_for(preset_name: str) -> Path:
    """The shipped weight file for ``preset_name``, or Chkobba's (:data:`FALLBACK`) where
    that preset has none; raise :class:`NeuralError` if neither is installed."""
    own = WEIGHTS_DIR / f"neural_{preset_name}.npz"
    if own.exists():
        return own
    fallback = WEIGHTS_DIR / f"neural_{FALLBACK}.npz"
    if fallback.exists():
        return fallback
    raise NeuralError(f"no weights for the neural player in {WEIGHTS_DIR}")


class NeuralAgent:
    """Plays the legal move the network scores highest (ties: the first listed)."""

    def __init__(self, network: Network | None = None, name: str = "neural") -> None:
        """Play ``network``; None: the shipped weights of each game's preset."""
        self.network = network
        self.name = name
        self._vec = np.zeros(OBS_SIZE, dtype=np.float32)

    def network_for(self, obs: Observation) -> Network:
        """The network that plays ``obs``: the one given, or the preset's shipped weights."""
        if self.network is not None:
            return self.network
        return load_network(weights_for(obs.rules.name))

    def choose(self, obs: Observation) -> Move:
        """The legal move with the highest logit."""
        moves = obs.legal_moves
        if not moves:
            raise ValueError(f"seat {obs.seat} has no legal move to choose from")
        if len(moves) == 1:
            return moves[0]
        net = self.network_for(obs)
        out = net.outputs(encode(obs, None, self._vec), move_features(obs))
        return moves[int(np.argmax(out[:, 0]))]


@register("neural")
def _neural(seed: int) -> NeuralAgent:
    # Deterministic: the seed is not needed (ties go to the first move listed).
    return NeuralAgent()


__all__ = [
    "FORMAT",
    "MOVE_FEATURES",
    "Network",
    "NeuralAgent",
    "NeuralError",
    "ensemble",
    "load_network",
    "move_features",
    "weights_for",
]
