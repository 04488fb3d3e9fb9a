"""The expert's estimate of every legal play, with its sampling error.

The figure for a play is its **expected round margin**: the observer's side's
points for the round minus the best other side's, at the round's end, averaged
over deals of the unseen cards consistent with what the observer knows, the
round finished by the expert's playout policy. A playout is solved exactly
instead only where it starts: when, right after the play estimated (and the deal
it may bring), the stock is empty and two sides are left with at most
:data:`~chkobba.search.fast.SOLVE_CARDS` cards in hands (:data:`ENDGAME_CARDS` when the
position's own stock is empty). A playout that empties the stock later is
finished by the policy, not solved: solving there too made ``chkobba analyze``
1.6 to 1.7 times slower. Points already won this round count in it, so only the
differences between the plays of one position mean anything; the *loss* of a
play is the best play's figure minus its own.

The search (:func:`chkobba.search.fast.evaluate`) returns one sum per play. To report
an honest standard error without changing it, it is run in ``batches``
independent batches (each with its own seed): the figure is the mean of the
batch means, and its standard error is their standard deviation over
``sqrt(batches)``. All plays of one batch are compared on the same sampled
deals (common random numbers), so a loss's standard error comes from the paired
per-batch differences and is much smaller than either figure's.

Two-player positions with an empty stock hold no hidden card: the expert solves
them exactly, and their figures carry no sampling error (``exact``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from chkobba.agents.expert import ENDGAME_CARDS, PURE_DIVISOR
from chkobba.fishing.game import Phase
from chkobba.fishing.observe import Observation
from chkobba.search import fast

DEFAULT_SAMPLES: Final = 4000
"""Sampled deals per position at the default precision (the full expert uses 6,000)."""
DEFAULT_BATCHES: Final = 8
"""Independent batches the samples are split into, to measure the sampling error."""
PARTNER_ENDGAME_SAMPLES: Final = 64
"""Sampled splits of the partners' hands, each solved exactly, in a 2-against-2 endgame."""


@dataclass(frozen=True, slots=True)
class PlayEstimate:
    """One legal play's expected round margin."""

    move: Any
    """The play: a :class:`~chkobba.fishing.moves.Move`, or another game's move."""
    mean: float
    """Expected round margin in points (see the module's docstring; another game's
    figure for another game's move)."""
    se: float
    """Standard error of :attr:`mean` (0 when solved exactly)."""
    loss: float
    """The best play's :attr:`mean` minus this one's (0 for the best play)."""
    loss_se: float
    """Standard error of :attr:`loss`, from the paired batch differences."""

    def to_json(self) -> dict[str, Any]:
        """The estimate as JSON (figures rounded to 3 decimals)."""
        return {
            "move": str(self.move),
            "mean": round(self.mean, 3),
            "se": round(self.se, 3),
            "loss": round(self.loss, 3),
            "loss_se": round(self.loss_se, 3),
        }


@dataclass(frozen=True, slots=True)
class Estimates:
    """Every legal play of one position, in ``obs.legal_moves`` order."""

    plays: tuple[PlayEstimate, ...]
    samples: int
    """Sampled deals behind each figure (1 when solved exactly)."""
    batches: int
    exact: bool
    """Whether the position was solved exactly (no hidden card left)."""

    @property
    def best(self) -> int:
        """The index of the play with the highest figure (the first one on a tie)."""
        return max(range(len(self.plays)), key=lambda i: self.plays[i].mean)

    def ranking(self) -> list[PlayEstimate]:
        """The plays, best first."""
        return sorted(self.plays, key=lambda p: -p.mean)

    def index(self, move: Any) -> int:
        """The index of ``move`` among the plays; ``ValueError`` if it is not one."""
        for i, p in enumerate(self.plays):
            if p.move == move:
                return i
        raise ValueError(f"{move} is not a legal play here")

    def to_json(self) -> dict[str, Any]:
        """The estimates as JSON."""
        return {
            "samples": self.samples,
            "batches": self.batches,
            "exact": self.exact,
            "plays": [p.to_json() for p in self.plays],
        }


def is_exact(obs: Observation) -> bool:
    """Whether the expert solves this position exactly: two players, the stock empty."""
    return (
        obs.phase is Phase.PLAY
        and obs.stock == 0
        and obs.seats == 2
        and sum(obs.hand_sizes) <= ENDGAME_CARDS
    )


def effective_samples(obs: Observation, samples: int) -> int:
    """The samples used for ``obs``: fewer on the pure-Python path, which is ~40x slower."""
    if fast.AVAILABLE and fast.supports(obs.rules):
        return samples
    return max(16, samples // PURE_DIVISOR)


def estimate(
    obs: Observation,
    samples: int = DEFAULT_SAMPLES,
    batches: int = DEFAULT_BATCHES,
    seed: int = 0,
) -> Estimates:
    """Estimate every legal play of ``obs`` (the observer must be to move).

    Deterministic for a seed. ``samples`` is the total over the ``batches``
    (rounded down to a multiple of them; at least 2 batches of 1).
    """
    if not obs.legal_moves:
        raise ValueError("the observer has no play to estimate: it is not its turn")
    if batches < 2:
        raise ValueError(f"at least 2 batches are needed to measure the error, not {batches}")
    sign = -1.0 if obs.rules.lowest_wins else 1.0
    rng = random.Random(seed)
    if is_exact(obs):
        sums = fast.evaluate(obs, 1, rng.getrandbits(63), solve_cards=ENDGAME_CARDS)
        return solved(obs.legal_moves, [sign * v for v in sums])
    total = effective_samples(obs, samples)
    # As the expert's endgame: every card dealt and few left (not the start of a
    # Scopone, where all 40 are dealt at once and the playouts are not solved).
    stock_empty = (
        obs.phase is Phase.PLAY
        and obs.stock == 0
        and obs.sides == 2
        and sum(obs.hand_sizes) <= ENDGAME_CARDS
    )
    if stock_empty:
        # Partners at the end: each sampled split of the hidden hands is solved.
        total = min(total, PARTNER_ENDGAME_SAMPLES)
    per = max(1, total // batches)
    solve_cards = ENDGAME_CARDS if stock_empty else fast.SOLVE_CARDS
    means = [
        [sign * s / per for s in fast.evaluate(obs, per, rng.getrandbits(63), solve_cards)]
        for _ in range(batches)
    ]
    return from_batches(obs.legal_moves, means, per)


def from_batches(moves: Sequence[Any], means: list[list[float]], per: int) -> Estimates:
    """The estimates of ``moves`` from each batch's mean figure per move (``means[b][i]``,
    every move of a batch on the same ``per`` sampled deals): each figure the mean of the
    batch means, its standard error their spread, a loss's from the paired differences."""
    batches = len(means)
    n = len(moves)
    avg = [sum(b[i] for b in means) / batches for i in range(n)]
    best = max(range(n), key=avg.__getitem__)
    plays = tuple(
        PlayEstimate(
            moves[i],
            avg[i],
            _se([b[i] for b in means]),
            avg[best] - avg[i],
            _se([b[best] - b[i] for b in means]),
        )
        for i in range(n)
    )
    return Estimates(plays, per * batches, batches, False)


def solved(moves: Sequence[Any], values: Sequence[float]) -> Estimates:
    """The estimates of ``moves`` whose figures are exact ``values`` (no sampling error)."""
    top = max(values)
    plays = tuple(PlayEstimate(m, v, 0.0, top - v, 0.0) for m, v in zip(moves, values, strict=True))
    return Estimates(plays, 1, 1, True)


def _se(xs: list[float]) -> float:
    """The standard error of the mean of ``xs`` (sample standard deviation / sqrt(n))."""
    k = len(xs)
    mean = sum(xs) / k
    var = sum((x - mean) ** 2 for x in xs) / (k - 1)
    return math.sqrt(var / k)
