"""The baseline: a player that picks uniformly among its legal moves."""

from __future__ import annotations

import random

from chkobba.agents.player import register
from chkobba.fishing.moves import Move
from chkobba.fishing.observe import Observation


@register("random")
class RandomAgent:
    """Picks any legal move with equal chance, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Move:
        """A uniformly random legal move."""
        return self.rng.choice(obs.legal_moves)
