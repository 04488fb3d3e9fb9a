"""A match of Touti: deals until a team reaches the target (docs/rules.md §4; 600 by default).

The match owns the only source of chance, a ``random.Random`` seeded at
creation: it picks the first dealer and shuffles every deal. The deal passes to
the next seat after each played deal. A deal that ends without a contract (four
passes, or a redeal call) is dealt again by the same dealer, or by the next one,
as the ``all_pass`` option says. The first team to reach the target wins: only
one team scores in a deal, so there is never a tie.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chkobba.touti.deal import SEATS, Deal, IllegalMove
from chkobba.touti.moves import ToutiMove
from chkobba.touti.rules import DEFAULT, ToutiRules

__all__ = ["IllegalMove", "ToutiMatch", "after_deal", "next_dealer"]


def after_deal(rules: ToutiRules, finished: Deal, all_pass_streak: int) -> tuple[int, int]:
    """The next dealer and the new count of passed-out deals in a row with that dealer."""
    streak = all_pass_streak
    if finished.score is not None:
        streak = 0
    elif not finished.redeal_asked:
        streak += 1
    dealer = next_dealer(rules, finished, streak)
    if dealer != finished.dealer:
        streak = 0
    return dealer, streak


def next_dealer(rules: ToutiRules, finished: Deal, all_pass_streak: int) -> int:
    """Who deals after ``finished``; ``all_pass_streak`` counts the deals in a row
    (``finished`` included) that ended without a contract by four passes."""
    if not finished.redeal:
        return (finished.dealer + 1) % SEATS
    if finished.redeal_asked or rules.all_pass == "same-dealer":
        return finished.dealer
    if rules.all_pass == "next-dealer" or all_pass_streak >= 3:
        return (finished.dealer + 1) % SEATS
    return finished.dealer


class ToutiMatch:
    """Deals of Touti between two teams, with the running totals."""

    rules: ToutiRules
    rng: random.Random
    totals: list[int]
    """Each team's match points, finished deals only."""
    finished: list[Deal]
    deal: Deal
    """The deal being played (or, once the match is over, the last one)."""
    winner: int | None
    all_pass_streak: int

    def __init__(
        self,
        rules: ToutiRules = DEFAULT,
        seed: int | None = None,
        first_dealer: int | None = None,
        first_deck: Sequence[int] | None = None,
    ) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.totals = [0, 0]
        self.finished = []
        self.winner = None
        self.all_pass_streak = 0
        dealer = self.rng.randrange(SEATS) if first_dealer is None else first_dealer
        self.deal = self._new_deal(dealer, first_deck)

    def _new_deal(self, dealer: int, deck: Sequence[int] | None = None) -> Deal:
        if deck is None:
            cards = list(range(40))
            self.rng.shuffle(cards)
            deck = cards
        return Deal(dealer, deck, self.rules)

    @property
    def is_over(self) -> bool:
        """Whether a team has won the match."""
        return self.winner is not None

    @property
    def turn(self) -> int:
        """The seat to move."""
        return self.deal.turn

    def legal_moves(self) -> list[ToutiMove]:
        """The legal moves of the seat to move (none once the match is over)."""
        return [] if self.is_over else self.deal.legal_moves()

    def apply(self, move: ToutiMove) -> None:
        """Play a move, checked; a finished deal is scored and the next one dealt."""
        if self.is_over:
            raise IllegalMove("the match is over")
        self.deal.apply(move)
        self._after()

    def apply_unchecked(self, move: ToutiMove) -> None:
        """Play a move known to be legal."""
        self.deal.apply_unchecked(move)
        self._after()

    def _after(self) -> None:
        d = self.deal
        if not d.is_over:
            return
        self.finished.append(d)
        if d.score is not None:
            for t in (0, 1):
                self.totals[t] += d.score.points[t]
            for t in (0, 1):
                if self.totals[t] >= self.rules.target:
                    self.winner = t
                    return
        dealer, self.all_pass_streak = after_deal(self.rules, d, self.all_pass_streak)
        self.deal = self._new_deal(dealer)
