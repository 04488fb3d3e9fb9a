"""A match: rounds played until a side reaches the target (docs/rules.md §2.6).

The match owns the only source of chance, a ``random.Random`` seeded at
creation: it shuffles each round's deck and picks the first dealer. A deal that
turns out void (three of a rank on the table) is reshuffled by the same dealer;
records keep only the valid deal. Given the same seed and the same moves, a
match is the same bit for bit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chkobba.fishing.game import IllegalMove, Phase, Round, check_seating, side_map
from chkobba.fishing.moves import Move
from chkobba.fishing.rules import CHKOBBA, RuleSet
from chkobba.fishing.scoring import RoundScore

__all__ = ["IllegalMove", "Match"]


class Match:
    """Rounds of one rule set between fixed seats, with the running totals."""

    rules: RuleSet
    seats: int
    teams: bool
    side_of: tuple[int, ...]
    sides: int
    rng: random.Random
    totals: list[int]
    """Each side's match points so far, finished rounds only."""
    finished: list[Round]
    """The rounds played to the end, in order."""
    round: Round
    """The round being played (or, once the match is over, the last one)."""
    winner: int | None
    """The winning side once the match is decided."""
    void_deals: int
    """How many deals were void and redone."""

    def __init__(
        self,
        rules: RuleSet = CHKOBBA,
        seats: int = 2,
        teams: bool = False,
        seed: int | None = None,
        first_dealer: int | None = None,
        first_deck: Sequence[int] | None = None,
    ) -> None:
        check_seating(seats, teams, rules)
        self.rules = rules
        self.seats = seats
        self.teams = teams
        self.side_of = side_map(seats, teams)
        self.sides = max(self.side_of) + 1
        self.rng = random.Random(seed)
        self.totals = [0] * self.sides
        self.finished = []
        self.winner = None
        self.void_deals = 0
        dealer = self.rng.randrange(seats) if first_dealer is None else first_dealer
        self.round = self._new_round(dealer, first_deck)

    def _new_round(self, dealer: int, deck: Sequence[int] | None = None) -> Round:
        if deck is not None:
            return Round(self.rules, self.seats, self.teams, dealer, deck)
        while True:
            cards = list(range(40))
            self.rng.shuffle(cards)
            r = Round(self.rules, self.seats, self.teams, dealer, cards)
            if not r.void:
                return r
            # Without the cut the deal is complete at once: a void one is redone
            # here, before anyone plays on it (§2.2).
            self.void_deals += 1

    # -- queries ---------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether a side has won the match."""
        return self.winner is not None

    @property
    def turn(self) -> int:
        """The seat to move."""
        return self.round.turn

    @property
    def round_number(self) -> int:
        """The current round, counting from 1."""
        return len(self.finished) + (0 if self.round.is_over else 1)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move; empty once the match is over."""
        return [] if self.is_over else self.round.legal_moves()

    # -- moves -----------------------------------------------------------------

    def apply(self, move: Move, seat: int | None = None) -> None:
        """Apply a move after checking it (and, if given, that ``seat`` is to move)."""
        if self.is_over:
            raise IllegalMove("the match is over")
        self.round.apply(move, seat)
        self._advance()

    def apply_unchecked(self, move: Move) -> None:
        """Apply a move known to be legal."""
        self.round.apply_unchecked(move)
        self._advance()

    def _advance(self) -> None:
        r = self.round
        if r.void:
            # A void deal is redone by the same dealer with a fresh shuffle (§2.2).
            self.void_deals += 1
            self.round = self._new_round(r.dealer)
        elif r.phase is Phase.OVER:
            self.end_round()
            if self.winner is None:
                self.round = self._new_round((r.dealer + 1) % self.seats)

    def end_round(self) -> None:
        """Add the finished round's points to the totals and decide the match."""
        r = self.round
        assert r.score is not None
        self.finished.append(r)
        for side, pts in enumerate(r.score.points):
            self.totals[side] += pts
        self.winner = decide_match(self.totals, self.rules, r.score)


def match_winner(totals: Sequence[int], target: int, lowest_wins: bool = False) -> int | None:
    """The side that wins with these totals, or None if play goes on (§2.6).

    Once a side has reached the target, the highest total wins; if the highest
    totals are tied, another round is played. With ``lowest_wins`` (Scopa a
    perdere, docs/rules.md §3) strictly the lowest total wins instead.
    """
    best = max(totals)
    if best < target:
        return None
    if lowest_wins:
        low = min(totals)
        leaders = [i for i, t in enumerate(totals) if t == low]
    else:
        leaders = [i for i, t in enumerate(totals) if t == best]
    return leaders[0] if len(leaders) == 1 else None


def decide_match(totals: Sequence[int], rules: RuleSet, score: RoundScore) -> int | None:
    """The winner after a round that ended with ``score`` and left these totals, or None.

    A side that wins at once (all ten coins, where the rules say so) wins;
    otherwise :func:`match_winner`.
    """
    if score.wins_match is not None:
        return score.wins_match
    return match_winner(totals, rules.target, rules.lowest_wins)
