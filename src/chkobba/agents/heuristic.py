"""The heuristic player: the defensive, card-counting strategy of the seed documents.

The seeds' "Main Strategies" (chkobba-readme-en.md, and the French Wikipedia
article) describe how good players play: take what is worth taking, never leave
the next player a table they can sweep in one card (with a queen on the table,
lay a 5 rather than a 2: 8 + 5 = 13, and no card is worth 13), beware of the
trap (lay a card so that the opponent's capture leaves a table you can sweep),
count the cards that have fallen, and remember that the last player to capture
takes what is left on the table at the end of the round.

This player does that, looking one reply ahead, from its :class:`Observation`
only. Each legal play is scored, in round points, as

    what it captures now (a sweep: a chkobba point more)
  − what the next player can expect to take from the table it leaves
  + in a 2-player game, what this player can take back on its next play
  ± on the last plays, what is left on the table (the last capturer takes it).

Cards are valued by :func:`~chkobba.agents.evaluate.live_values`: the greedy
player's weights, less the points the piles have already decided.

Counting cards: a value whose four cards have all been seen (in the piles, on the
table, in this player's own hand) cannot be held by anyone; otherwise the chance
that the next player holds one is the chance of drawing one of the ``k`` unseen
cards of that value in a hand of ``h`` from the ``U`` unseen cards. For each value
the next player may hold, their best capture (the cards, the card played, a
chkobba point for a sweep) is weighed by that chance. So the player guards the
7♦, 7s, 6s and diamonds (it does not lay them where they can be taken, and takes
them when it can), prefers leaving a table that adds up to more than 10 (no
single card can sweep it), and, when it holds the answer, leaves a bait.

Partners (2 against 2) are friends: when the next seat is a partner nothing it
could take counts as a danger. With 3 or 4 seats the player only looks at the
next seat, since it does not play again before the others have.

Where the fewest points win (``lowest_wins``, Scopa a perdere) every score is
negated, as the greedy player's is: the same estimate of points won and given
away, with the opposite goal.

The cut: the same rule as the greedy player (keep a 7 or a diamond).
"""

from __future__ import annotations

import random
from typing import Final

from chkobba.agents.evaluate import CHKOBBA_POINT, STATIC, CardValues, best_play, live_values
from chkobba.agents.greedy import cut_decision, goal_sign
from chkobba.agents.player import register
from chkobba.fishing.captures import captures, card_value
from chkobba.fishing.cards import rank_mask
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.observe import Observation
from chkobba.search.policy import holds_one

_RANKS: Final = tuple(rank_mask(v) for v in range(1, 11))
_TIE: Final = 1e-9
"""Scores this close are equal (float sums of the same weights in another order)."""


@register("heuristic")
class HeuristicAgent:
    """Takes what is worth most, less what its play leaves the next player to take.

    The defaults were tuned against the greedy player over seeded rounds (see the
    project's report); ``caution``, ``hold`` and ``opportunity`` are exposed for
    such experiments.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        caution: float = 1.25,
        hold: float = 0.25,
        opportunity: float = 1.0,
        base: CardValues = STATIC,
    ) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)
        self.caution = caution
        """How much the next player's expected take counts against a play (1: at par)."""
        self.hold = hold
        """The share of a card's worth given up by laying it rather than keeping it."""
        self.opportunity = opportunity
        """How much this player's expected take on its next play counts (2 players)."""
        self.base = base
        """Card weights before the points the piles have decided are taken off."""

    def choose(self, obs: Observation) -> Move:
        """The play with the best score (ties broken by the seeded generator)."""
        moves = obs.legal_moves
        if not moves:
            raise ValueError(f"seat {obs.seat} has no legal move to choose from")
        if isinstance(moves[0], Cut):
            return cut_decision(obs)
        judge = Judge(obs, self)
        sign = goal_sign(obs)
        return best_play(moves, lambda m: sign * judge.score(m), self.rng, _TIE)


class Judge:
    """Scores the plays of one observation for a :class:`HeuristicAgent`; built per decision."""

    __slots__ = (
        "agent",
        "card_worth",
        "chances",
        "last_play",
        "next_is_friend",
        "next_plays_last",
        "obs",
        "replies",
        "values",
    )

    def __init__(self, obs: Observation, agent: HeuristicAgent) -> None:
        self.obs = obs
        self.agent = agent
        self.values = live_values(obs.piles, agent.base)
        plays_left = obs.plays_left
        self.last_play = plays_left == 1
        self.next_plays_last = plays_left == 2
        nxt = (obs.turn + 1) % obs.seats
        self.next_is_friend = obs.side_of[nxt] == obs.side
        # Only with two players is this player's next play the one right after.
        self.replies = obs.seats == 2
        # The next player's hand once this play is made: if the play empties every
        # hand and the stock is not empty, everyone is dealt three more.
        in_hands = sum(obs.hand_sizes) - 1
        hand = obs.hand_sizes[nxt] if in_hands else (3 if obs.stock else 0)
        unseen = obs.unseen
        total = unseen.bit_count()
        self.chances: list[tuple[int, float]] = []
        """(value, chance the next player holds a card of it) for every value they may hold."""
        self.card_worth = [0.0] * 11
        """The mean worth of the unseen cards of each value (what the next player plays)."""
        for v in range(1, 11):
            cards = unseen & _RANKS[v - 1]
            k = cards.bit_count()
            if k and hand:
                self.chances.append((v, holds_one(total, k, hand)))
                self.card_worth[v] = self.values.of(cards) / k

    def score(self, play: Play) -> float:
        """The play's score in round points (see the module's docstring)."""
        obs = self.obs
        agent = self.agent
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
            capturer: int | None = obs.side
        else:
            left = obs.table | 1 << card
            gain = -agent.hold * values.of(1 << card)
            capturer = obs.last_capturer
            if self.last_play:
                return gain + self._leftover(left, capturer)
        if not left or self.next_is_friend:
            return gain
        hand = obs.hand & ~(1 << card) if self.replies else 0
        threat, none_p = self._threat(left, hand)
        score = gain - agent.caution * threat
        if hand and none_p > 0:
            score += agent.opportunity * none_p * self._after_lay(left, hand)
        if self.next_plays_last:
            score += none_p * self._leftover(left, capturer)
        return score

    def _leftover(self, left: int, capturer: int | None) -> float:
        """The table left at the end, to this side (+) or another (−): the last capturer's."""
        if capturer is None:
            return 0.0
        worth = self.values.of(left)
        return worth if capturer == self.obs.side else -worth

    def _threat(self, left: int, hand: int) -> tuple[float, float]:
        """The next player's expected take on ``left``, and the chance they take nothing.

        For each value they may hold: their best capture with it (the cards
        taken, the card played, a chkobba point for a sweep; on the round's last
        play, the rest of the table), less what this player's ``hand`` can take
        back from what they leave (the trap). They take the best of the values
        they hold, each held independently with its chance.
        """
        values = self.values
        last = self.next_plays_last
        rules = self.obs.rules
        options: list[tuple[float, float]] = []
        for v, p in self.chances:
            caps = captures(v, left, rules, self.obs.wild)
            if not caps:
                continue
            best = float("-inf")
            net = 0.0
            for c in caps:
                g = values.of(c)
                if last:
                    g += values.of(left ^ c)
                elif c == left:
                    g += CHKOBBA_POINT
                if g > best:
                    best = g
                    net = g - self._reply(left ^ c, hand) if hand and c != left else g
            options.append((net + self.card_worth[v], p))
        if not options:
            return 0.0, 1.0
        options.sort(reverse=True)
        expected = 0.0
        none_p = 1.0
        for g, p in options:
            expected += none_p * p * g
            none_p *= 1.0 - p
        return expected, none_p

    def _reply(self, table: int, hand: int) -> float:
        """This player's best capture on ``table`` with ``hand``, on its next play."""
        best = 0.0
        values = self.values
        rules = self.obs.rules
        wild = self.obs.wild
        # Two players: this play, the next player's, then ours.
        last = self.obs.plays_left == 3
        while hand:
            low = hand & -hand
            hand ^= low
            c = low.bit_length() - 1
            for cap in captures(card_value(c, wild), table, rules, wild):
                g = values.of(cap | low)
                if last:
                    g += values.of(table ^ cap)
                elif cap == table:
                    g += CHKOBBA_POINT
                best = max(best, g)
        return best

    def _after_lay(self, left: int, hand: int) -> float:
        """This player's expected take after the next player, unable to capture, lays a card.

        The laid card is of a value that captures nothing on ``left``, drawn in
        proportion to the unseen cards of each such value.
        """
        rules = self.obs.rules
        unseen = self.obs.unseen
        total = 0.0
        weight = 0
        for v in range(1, 11):
            cards = unseen & _RANKS[v - 1]
            if not cards or captures(v, left, rules, self.obs.wild):
                continue
            k = cards.bit_count()
            weight += k
            total += k * self._reply(left | (cards & -cards), hand)
        return total / weight if weight else 0.0
