"""What captured cards are worth, in round points: the scoring the greedy and heuristic share.

A round's points are kārṭa (most cards), dīnārī (most diamonds), barmīla (most
7s, then most 6s), sabʿa l-ḥayya (the 7♦) and one per chkobba (docs/rules.md §2.5).
Only the 7♦ and a chkobba are worth a whole point by themselves; every other
card is worth a share of the points it helps to win. :class:`CardValues` gives
each kind of card a weight in points and values a card set with a few popcounts,
so an agent can compare plays in the same unit as the score.

The static weights (:data:`STATIC`) are the greedy player's: a card is worth 0.1
for kārṭa, a diamond 0.15 more for dīnārī, a 7 0.3 more and a 6 0.1 more for
barmīla, and the 7♦ a whole point more for sabʿa l-ḥayya. :func:`live_values`
is the heuristic's refinement: a point that is already decided, because one side
is out of reach of all the others, gives its cards no more weight.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from chkobba.fishing.cards import (
    DIAMONDS_MASK,
    FULL_DECK,
    SEVEN_OF_DIAMONDS,
    SEVENS_MASK,
    SIXES_MASK,
)
from chkobba.fishing.moves import Play

CHKOBBA_POINT: Final = 1.0
"""A chkobba (a capture that empties the table) is worth one point at once."""

_HAYA_BIT: Final = 1 << SEVEN_OF_DIAMONDS


@dataclass(frozen=True, slots=True)
class CardValues:
    """Weights in round points for each kind of card; :meth:`of` values a card set."""

    card: float
    """Every card counts towards kārṭa."""
    diamond: float
    """A diamond counts towards dīnārī as well."""
    seven: float
    """A 7 counts towards barmīla."""
    six: float
    """A 6 breaks a tie on 7s for barmīla."""
    haya: float
    """The 7♦ wins sabʿa l-ḥayya by itself."""

    def of(self, cards: int) -> float:
        """The worth of a set of cards (a 40-bit mask) in round points."""
        v = self.card * cards.bit_count()
        if cards & DIAMONDS_MASK:
            v += self.diamond * (cards & DIAMONDS_MASK).bit_count()
        if cards & SEVENS_MASK:
            v += self.seven * (cards & SEVENS_MASK).bit_count()
        if cards & SIXES_MASK:
            v += self.six * (cards & SIXES_MASK).bit_count()
        if cards & _HAYA_BIT:
            v += self.haya
        return v

    def card_values(self) -> tuple[float, ...]:
        """The worth of each of the 40 cards, indexed by card number."""
        return tuple(self.of(1 << c) for c in range(40))


STATIC: Final = CardValues(card=0.1, diamond=0.15, seven=0.3, six=0.1, haya=1.0)
"""The fixed weights: what a card is worth before anything is known about the round."""


def decided(counts: Sequence[int], remaining: int) -> bool:
    """Whether a "strictly the most" point is out of anyone's reach to change.

    ``counts`` is each side's tally so far and ``remaining`` how many cards of
    the kind are still to be captured: the leader keeps the point whatever
    happens when even a side taking all of them stays strictly behind.
    """
    if len(counts) < 2:
        return True
    best, second = sorted(counts, reverse=True)[:2]
    return second + remaining < best if best > second else remaining == 0


def live_values(piles: Sequence[int], base: CardValues = STATIC) -> CardValues:
    """``base`` with the weight taken off every point that the piles already decide.

    The piles are public (each side's captured cards), so any seat can work this
    out: once a side holds six diamonds, more diamonds no longer matter for
    dīnārī; once the 7♦ is taken, sabʿa l-ḥayya is settled.
    """
    taken = 0
    for p in piles:
        taken |= p
    left = FULL_DECK & ~taken
    card = base.card
    if decided([p.bit_count() for p in piles], left.bit_count()):
        card = 0.0
    diamond = base.diamond
    if decided(
        [(p & DIAMONDS_MASK).bit_count() for p in piles], (left & DIAMONDS_MASK).bit_count()
    ):
        diamond = 0.0
    seven, six = base.seven, base.six
    sevens = [(p & SEVENS_MASK).bit_count() for p in piles]
    sevens_left = (left & SEVENS_MASK).bit_count()
    if decided(sevens, sevens_left):
        if sevens.count(max(sevens)) == 1:
            # A strict leader on 7s that nobody can catch: barmīla is settled.
            seven = six = 0.0
        else:
            # 7s all out and tied at the top: only 6s can still decide it.
            seven = 0.0
            if decided(
                [(p & SIXES_MASK).bit_count() for p in piles], (left & SIXES_MASK).bit_count()
            ):
                six = 0.0
    haya = base.haya if left & _HAYA_BIT else 0.0
    return CardValues(card=card, diamond=diamond, seven=seven, six=six, haya=haya)


def best_play(
    moves: Sequence[object],
    score: Callable[[Play], float],
    rng: random.Random,
    tolerance: float = 0.0,
) -> Play:
    """The play with the highest score; plays within ``tolerance`` of it tie, and a
    tie is broken by ``rng``."""
    best: list[Play] = []
    best_score = float("-inf")
    for m in moves:
        assert isinstance(m, Play)
        s = score(m)
        if s > best_score + tolerance:
            best, best_score = [m], s
        elif s >= best_score - tolerance:
            best.append(m)
    return best[0] if len(best) == 1 else rng.choice(best)
