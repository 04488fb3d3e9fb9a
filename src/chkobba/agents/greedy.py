"""The greedy player: takes the most valuable capture there is, or lays its cheapest card.

It values cards with the fixed weights of :data:`~chkobba.agents.evaluate.STATIC`
(kārṭa, dīnārī, barmīla, sabʿa l-ḥayya) and a chkobba at a full point, looks no
further than the play in front of it, and breaks ties with its own seeded
``random.Random``. Where the fewest points win (``lowest_wins``, Scopa a perdere)
it turns its values round: the play that earns least is the one it wants.

The cut: it keeps the cut card when it is worth keeping — a 7 (a 7 in hand can
take a 7 or any pair adding to 7, and barmīla and the 7♦ are the points a 7
decides) or a diamond — and tables anything else. The cutter plays first, so a
tabled card is also one it may capture at once.
"""

from __future__ import annotations

import random
from typing import Final

from chkobba.agents.evaluate import CHKOBBA_POINT, STATIC, best_play
from chkobba.agents.player import register
from chkobba.fishing.cards import DIAMONDS_MASK, SEVENS_MASK
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.observe import Observation

_WORTH: Final = STATIC.card_values()

KEEP_ON_CUT: Final = SEVENS_MASK | DIAMONDS_MASK
"""The cut cards the greedy player keeps: every 7 and every diamond."""


@register("greedy")
class GreedyAgent:
    """Captures the most valuable set it can; otherwise lays its least valuable card."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Move:
        """The best immediate capture by card value, or the cheapest lay."""
        moves = obs.legal_moves
        if not moves:
            raise ValueError(f"seat {obs.seat} has no legal move to choose from")
        if isinstance(moves[0], Cut):
            return cut_decision(obs)
        last_play = obs.plays_left == 1
        sign = goal_sign(obs)
        return best_play(moves, lambda m: sign * play_worth(m, obs.table, last_play), self.rng)


def goal_sign(obs: Observation) -> float:
    """+1 where points are wanted; −1 where the fewest points win (``lowest_wins``).

    The one-ply players score a play in the points it earns this side less what it
    gives away; in Scopa a perdere those points lose, so the same score, negated,
    ranks the plays for the goal.
    """
    return -1.0 if obs.rules.lowest_wins else 1.0


def play_worth(play: Play, table: int, last_play: bool) -> float:
    """What a play earns at once by the fixed weights; a lay scores minus its card's worth.

    A capture earns the captured cards and the card played (both go to the
    pile), plus a full point when it sweeps the table, except on the round's
    last play (docs/rules.md §2.4). A lay earns nothing and gives the card up, so the
    cheapest lay scores highest, and any capture beats any lay.
    """
    card, cap = play
    if not cap:
        return -_WORTH[card]
    worth = STATIC.of(cap | 1 << card)
    if cap == table and not last_play:
        worth += CHKOBBA_POINT
    return worth


def cut_decision(obs: Observation) -> Cut:
    """Keep a 7 or a diamond (:data:`KEEP_ON_CUT`); table anything else."""
    card = obs.cut_card
    if card is not None and KEEP_ON_CUT >> card & 1:
        return Cut.KEEP
    return Cut.TABLE
