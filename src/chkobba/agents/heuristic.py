"""The heuristic player: the defensive, card-counting strategy of the seed documents.

The seeds' "Main Strategies" (chkobba-readme-en.md, and the French Wikipedia
article) describe how good players play: take what is worth taking, never leave
the next player a table they can sweep in one card (with a queen on the table,
lay a 5 rather than a 2: 8 + 5 = 13, and no card is worth 13), count the cards
that have fallen, and remember that the last player to capture takes what is
left on the table at the end of the round.

This player does exactly that, one play deep, from its :class:`Observation`
only. Each legal play is scored as

    what it captures now  −  what the next player can expect to take afterwards
                          ±  what is left on the table at the end of the round

all in round points (:mod:`chkobba.agents.evaluate`, with the weights of points
the piles have already decided taken off). The next player's chances come from
counting: a card value whose four cards have all been seen (in piles, on the
table or in this player's own hand) cannot be held by anyone, and otherwise the
chance that the next player holds one is the hypergeometric chance of drawing
one of the ``k`` unseen cards of that value in a hand of ``h`` from the ``U``
unseen cards. The next player's best capture with each value (a sweep counts a
full chkobba point, and the 7♦, 7s, 6s and diamonds their weight) is weighed by
that chance, so the player guards its valuable cards, prefers leaving a table
that adds up to more than 10 (which no single card can sweep), and takes
valuable cards when it can.

Partners (2 against 2) are friends: a partner's capture is never a danger.

The cut: the same rule as the greedy player (keep a 7 or a diamond).
"""

from __future__ import annotations

import random
from typing import Final

from chkobba.agents.base import register
from chkobba.agents.evaluate import CHKOBBA_POINT, CardValues, live_values
from chkobba.agents.greedy import cut_decision
from chkobba.captures import captures
from chkobba.cards import rank_mask
from chkobba.moves import Cut, Move, Play
from chkobba.observe import Observation

_RANKS: Final = tuple(rank_mask(v) for v in range(1, 11))


@register("heuristic")
class HeuristicAgent:
    """Captures what is worth most, minus what the play leaves the next player to take."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Move:
        """The play with the best immediate gain less expected loss (ties at random)."""
        moves = obs.legal_moves
        if not moves:
            raise ValueError(f"seat {obs.seat} has no legal move to choose from")
        if isinstance(moves[0], Cut):
            return cut_decision(obs)
        judge = _Judge(obs)
        best: list[Play] = []
        best_score = float("-inf")
        for m in moves:
            assert isinstance(m, Play)
            score = judge.score(m)
            if score > best_score + 1e-9:
                best, best_score = [m], score
            elif score >= best_score - 1e-9:
                best.append(m)
        return best[0] if len(best) == 1 else self.rng.choice(best)


class _Judge:
    """Scores the plays of one observation; built once per decision."""

    __slots__ = (
        "card_worth",
        "chances",
        "last_capturer",
        "last_play",
        "next_is_friend",
        "next_plays_last",
        "obs",
        "side",
        "values",
    )

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.values: CardValues = live_values(obs.piles)
        self.side = obs.side
        plays_left = obs.plays_left
        self.last_play = plays_left == 1
        self.next_plays_last = plays_left == 2
        nxt = (obs.turn + 1) % obs.seats
        self.next_is_friend = obs.side_of[nxt] == self.side
        self.last_capturer = last_capturer(obs)
        # The next player's hand once this play is made: if the play empties every
        # hand and the stock is not empty, everyone is dealt three more.
        in_hands = sum(obs.hand_sizes) - 1
        hand = obs.hand_sizes[nxt] if in_hands else (3 if obs.stock else 0)
        unseen = obs.unseen
        total = unseen.bit_count()
        self.chances: list[tuple[int, float]] = []
        self.card_worth: list[float] = [0.0] * 11
        for v in range(1, 11):
            mine = unseen & _RANKS[v - 1]
            k = mine.bit_count()
            if k and hand:
                p = holds_one(total, k, hand)
                self.chances.append((v, p))
                self.card_worth[v] = self.values.of(mine) / k

    def score(self, play: Play) -> float:
        """Gain now, minus the next player's expected take, plus the end-of-round share."""
        obs = self.obs
        values = self.values
        card, cap = play
        if cap:
            left = obs.table ^ cap
            gain = values.of(cap | 1 << card)
            if self.last_play:
                # The last capturer takes what is left; no chkobba on the last play.
                return gain + values.of(left)
            if not left:
                gain += CHKOBBA_POINT
            capturer: int | None = self.side
        else:
            left = obs.table | 1 << card
            gain = 0.0
            capturer = self.last_capturer
            if self.last_play:
                return self._leftover(left, capturer)
        if not left or self.next_is_friend:
            return gain
        threat, none_p = self._threat(left)
        score = gain - threat
        if self.next_plays_last:
            score += none_p * self._leftover(left, capturer)
        return score

    def _leftover(self, left: int, capturer: int | None) -> float:
        """What the table left at the end is worth to this side: its own, or an opponent's."""
        if capturer is None:
            return 0.0
        worth = self.values.of(left)
        return worth if capturer == self.side else -worth

    def _threat(self, left: int) -> tuple[float, float]:
        """The next player's expected best take on ``left``, and the chance it takes nothing.

        Each value the next player may hold gives its best capture (the cards
        taken, the card played, a chkobba point for a sweep, and on the round's
        last play the rest of the table); the best of those they hold is taken,
        treating the values as held independently.
        """
        values = self.values
        last = self.next_plays_last
        rules = self.obs.rules
        options: list[tuple[float, float]] = []
        for v, p in self.chances:
            caps = captures(v, left, rules)
            if not caps:
                continue
            best = 0.0
            for c in caps:
                g = values.of(c)
                if last:
                    g += values.of(left ^ c)
                elif c == left:
                    g += CHKOBBA_POINT
                best = max(best, g)
            options.append((best + self.card_worth[v], p))
        if not options:
            return 0.0, 1.0
        options.sort(reverse=True)
        expected = 0.0
        none_p = 1.0
        for g, p in options:
            expected += none_p * p * g
            none_p *= 1.0 - p
        return expected, none_p


def holds_one(unseen: int, k: int, hand: int) -> float:
    """The chance that ``hand`` cards drawn from ``unseen`` include one of ``k`` given cards."""
    if k >= unseen or hand >= unseen:
        return 1.0
    miss = 1.0
    for i in range(hand):
        miss *= (unseen - k - i) / (unseen - i)
    return 1.0 - miss


def last_capturer(obs: Observation) -> int | None:
    """The side that captured last this round (it takes the table at the end), if any."""
    for turn in reversed(obs.history):
        move = turn.move
        if isinstance(move, Play) and move.capture:
            return obs.side_of[turn.seat]
    return None
