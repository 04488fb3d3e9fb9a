"""The cheaters: searches that see hidden cards, used only as upper bounds.

The *cheater* is given the true round (every hand and the stock's order), so it
evaluates each legal move by finishing the real deal with the playout policy,
and solves the last deal exactly. The *peeker* sees the other hands but not the
stock: it is the expert's search with those hands fixed in every sampled deal,
so ``peeker`` against the expert's opponents measures what seeing the hands is
worth, and the cheater's margin over the peeker's what the stock's order adds.
``peeker-played`` sees only the hands of the seats that have already played in
the current deal (the most that inference from their plays could learn), and
``peeker-unplayed`` only the others (what nothing in the game can reveal). No
interface offers any of them as an opponent: the duel harness and the benchmarks
use them to measure how much of the perfect-information gap the expert closes.
"""

from __future__ import annotations

import random
from typing import Final

from chkobba.agents.expert import (
    EXPERT_SAMPLES,
    EXPERT_TEMPERATURE,
    ExpertAgent,
    budget,
    margin,
    playout_margin,
)
from chkobba.agents.player import register
from chkobba.fishing.game import Phase, Round
from chkobba.fishing.moves import Move
from chkobba.fishing.observe import Observation, observe_round
from chkobba.search import fast
from chkobba.search.endgame import solvable


class CheaterAgent:
    """Evaluates moves on the true deal: ``samples`` policy playouts per move."""

    sees_all = True
    """Tells the harness to call :meth:`choose_state` with the true round."""

    def __init__(self, seed: int = 0, samples: int = 16) -> None:
        self.name = "cheater"
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, obs: Observation) -> Move:
        """Refuse: the cheater needs the true state, never an observation."""
        raise TypeError("the cheater plays only through choose_state(round)")

    def choose_state(self, r: Round) -> Move:
        """The best move on the true deal ``r``."""
        moves = r.legal_moves()
        if len(moves) == 1:
            return moves[0]
        side = r.side_of[r.turn]
        best, best_value = moves[0], -1e9
        for m in moves:
            child = r.copy()
            child.apply_unchecked(m)
            value = self._value(child, side)
            if value > best_value:
                best, best_value = m, value
        return best

    def _value(self, r: Round, side: int) -> float:
        """``side``'s mean margin after finishing the true deal ``r``."""
        if not (fast.AVAILABLE and fast.supports(r.rules, r.seats)):
            return sum(playout_margin(r.copy(), side, self.rng) for _ in range(self.samples))
        if r.void:
            return 0.0
        if r.score is not None:
            return margin(r.score.points, side)
        state = fast.state_of(r)
        if solvable(r) and r.in_hands <= fast.SOLVE_CARDS:
            best = max(v for _, _, v in fast.solve(state))
            return best if r.side_of[r.turn] == side else -best
        total = 0.0
        for _ in range(self.samples):
            total += margin(fast.rollout(state, self.rng.getrandbits(63)), side)
        return total


@register("cheater", playable=False)
def _cheater(seed: int) -> CheaterAgent:
    return CheaterAgent(seed)


SHOW: Final = ("all", "played", "unplayed")
"""Which other hands a peeker sees: all of them, those of the seats that have
already played in the current deal (the most that inference from their plays
could ever learn), or those of the seats that have not."""


class PeekerAgent(ExpertAgent):
    """The expert's search shown the other hands (not the stock): a measurement bound."""

    sees_all = True
    """Tells the harness to call :meth:`choose_state` with the true round."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 64,
        temperature: float | None = None,
        name: str = "peeker",
        show: str = "all",
    ) -> None:
        if show not in SHOW:
            raise ValueError(f"show must be one of {', '.join(SHOW)}, not {show!r}")
        super().__init__(seed, samples=samples, temperature=temperature, name=name)
        self.show = show

    def choose(self, obs: Observation) -> Move:
        """Refuse: the peeker needs the true state, never an observation."""
        raise TypeError("the peeker plays only through choose_state(round)")

    def choose_state(self, r: Round) -> Move:
        """The best move on the deals that keep the shown hands and redraw the rest."""
        # Match totals do not enter the search (it plays for the round's margin).
        obs = observe_round(r, r.turn, (0,) * r.sides, 1, r.rules.target)
        return self.best_move(obs, self.shown(r) if r.phase is Phase.PLAY else None)

    def shown(self, r: Round) -> list[int]:
        """The hands this peeker sees in ``r`` (0 for a hidden one)."""
        known = []
        for seat, hand in enumerate(r.hands):
            # Every deal gives each seat a full hand, so a short one has played in it.
            played = hand.bit_count() < r.rules.hand_size
            see = self.show == "all" or (self.show == "played") == played
            known.append(hand if seat != r.turn and see else 0)
        return known


def _register_peeker(show: str) -> None:
    name = "peeker" if show == "all" else f"peeker-{show}"

    @register(name, playable=False)
    def _peeker(seed: int) -> PeekerAgent:
        return PeekerAgent(
            seed,
            samples=budget(EXPERT_SAMPLES),
            temperature=EXPERT_TEMPERATURE,
            name=name,
            show=show,
        )


for _show in SHOW:
    _register_peeker(_show)
