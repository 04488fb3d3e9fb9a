"""A fast playout policy: what the search assumes every seat plays after a move.

The policy sees only what the seat to move would see (its hand and the table);
it never peeks at the sampled hidden cards, so playouts are not clairvoyant. It
scores each legal play by the cards it wins, valued in round points
(:data:`CARD_WEIGHT`), plus a whole point for a chkobba, minus a penalty for
leaving a table that one card could sweep (a total of 10 or less).
"""

from __future__ import annotations

import random
from typing import Final

from chkobba.cards import DIAMONDS_MASK, SEVEN_OF_DIAMONDS, SEVENS_MASK, SIXES_MASK, VALUE_OF
from chkobba.game import Round
from chkobba.moves import Cut, Move, Play

CARD: Final = 0.08
"""What one more card is worth towards kārṭa, in points."""
DIAMOND: Final = 0.12
SEVEN: Final = 0.30
SIX: Final = 0.10
HAYA: Final = 0.60
SWEEP: Final = 1.0
EXPOSE: Final = 0.45
"""Penalty for leaving a table one card could sweep."""
LAY: Final = 0.5
"""Share of a laid card's worth that is expected to be lost to the next capture."""


def card_weight(mask: int) -> float:
    """The worth of a set of cards, in round points, by :data:`CARD` and its kin."""
    return (
        CARD * mask.bit_count()
        + DIAMOND * (mask & DIAMONDS_MASK).bit_count()
        + SEVEN * (mask & SEVENS_MASK).bit_count()
        + SIX * (mask & SIXES_MASK).bit_count()
        + HAYA * (mask >> SEVEN_OF_DIAMONDS & 1)
    )


CARD_WEIGHT: Final = tuple(card_weight(1 << c) for c in range(40))


def table_total(table: int) -> int:
    """The sum of the values of the cards on the table."""
    total = 0
    while table:
        low = table & -table
        total += VALUE_OF[low.bit_length() - 1]
        table ^= low
    return total


def play_score(card: int, capture: int, table: int, last_play: bool) -> float:
    """How much the policy likes a play (higher is better)."""
    if capture:
        won = capture | (1 << card)
        score = card_weight(won)
        rest = table & ~capture
        if not rest:
            if not last_play:
                score += SWEEP
        elif table_total(rest) <= 10:
            score -= EXPOSE
        return score
    score = -LAY * CARD_WEIGHT[card]
    if table_total(table) + VALUE_OF[card] <= 10:
        score -= EXPOSE
    return score


def policy_move(r: Round, rng: random.Random) -> Move:
    """The policy's choice in ``r`` for the seat to move; ties broken at random."""
    moves = r.legal_moves()
    if len(moves) == 1:
        return moves[0]
    first = moves[0]
    if not isinstance(first, Play):
        cut_card = r.cut_card if r.cut_card is not None else 0
        return Cut.KEEP if VALUE_OF[cut_card] == 7 else Cut.TABLE
    table = r.table
    last_play = r.in_hands == 1 and r.stock_pos == len(r.deck)
    best: list[Move] = []
    best_score = -1e9
    for m in moves:
        assert isinstance(m, Play)
        s = play_score(m.card, m.capture, table, last_play)
        if s > best_score + 1e-9:
            best_score = s
            best = [m]
        elif s > best_score - 1e-9:
            best.append(m)
    return best[0] if len(best) == 1 else rng.choice(best)


def rollout(r: Round, rng: random.Random) -> None:
    """Play ``r`` to the end of the round with the policy (in place).

    Stops early if a cut makes the deal void (the caller scores that as even).
    """
    while r.score is None:
        r.apply_unchecked(policy_move(r, rng))
        if r.void:
            return
