"""A fast playout policy: what the search assumes every seat plays after a move.

The policy plays from what the seat to move would know: its hand, the table and
the cards it has not seen (everything but its hand, the table and the piles). It
never peeks at the sampled hidden cards, so playouts are not clairvoyant. Each
legal play is scored, in millionths of a round point, as

    the worth of the cards it wins (:func:`card_weight`), a chkobba point for a
    sweep (and on the round's last play, the rest of the table)
  − for a lay, a share (:data:`HOLD`) of the laid card's worth
  − :data:`CAUTION` × the next player's threat on the table left: the larger of
    the chance they hold the card that sweeps it (a total of 10 or less) times
    what the sweep is worth, and the chance they hold a card matching one table
    card times that card's worth; the chance of holding a value is counted from
    the unseen cards. A partner is no threat.

Scores are integers (the weights are whole millionths; the threat is rounded
once), so the compiled kernel (:mod:`chkobba.fast`) reproduces them exactly.
"""

from __future__ import annotations

import math
import random
from typing import Final, NamedTuple

from chkobba.cards import (
    DIAMONDS_MASK,
    FULL_DECK,
    SEVEN_OF_DIAMONDS,
    SEVENS_MASK,
    SIXES_MASK,
    VALUE_OF,
    rank_mask,
)
from chkobba.game import Phase, Round
from chkobba.moves import Cut, Move, Play

SCALE: Final = 1_000_000
"""Scores are in millionths of a round point."""
CARD: Final = 80_000
"""What one more card is worth towards kārṭa."""
DIAMOND: Final = 120_000
SEVEN: Final = 300_000
SIX: Final = 100_000
HAYA: Final = 600_000
SWEEP: Final = 1_000_000
"""A chkobba: one round point."""
HOLD: Final = 0.3
"""Share of a laid card's worth that is given up by laying it."""
CAUTION: Final = 1.0
"""How much the next player's threat counts against a play."""

_RANKS: Final = tuple(rank_mask(v) for v in range(1, 11))


def card_weight(mask: int) -> int:
    """The worth of a set of cards, in millionths of a point, by :data:`CARD` and its kin."""
    return (
        CARD * mask.bit_count()
        + DIAMOND * (mask & DIAMONDS_MASK).bit_count()
        + SEVEN * (mask & SEVENS_MASK).bit_count()
        + SIX * (mask & SIXES_MASK).bit_count()
        + HAYA * (mask >> SEVEN_OF_DIAMONDS & 1)
    )


CARD_WEIGHT: Final = tuple(card_weight(1 << c) for c in range(40))
LAY_COST: Final = tuple(math.floor(HOLD * w + 0.5) for w in CARD_WEIGHT)
"""What laying each card costs."""


def table_total(table: int) -> int:
    """The sum of the values of the cards on the table."""
    total = 0
    while table:
        low = table & -table
        total += VALUE_OF[low.bit_length() - 1]
        table ^= low
    return total


def holds_one(unseen: int, k: int, hand: int) -> float:
    """The chance that ``hand`` cards drawn from ``unseen`` include one of ``k`` given cards."""
    if k == 0 or hand == 0:
        return 0.0
    if k >= unseen or hand >= unseen:
        return 1.0
    miss = 1.0
    for i in range(hand):
        miss *= (unseen - k - i) / (unseen - i)
    return 1.0 - miss


class Context(NamedTuple):
    """What the policy knows for one decision of the seat to move."""

    table: int
    last_play: bool
    side: int
    last_capturer: int | None
    chances: tuple[float, ...] | None
    """Index v: the chance the next player holds a card of value v; None for a partner."""


def context(r: Round) -> Context:
    """The policy's view of ``r`` for the seat to move."""
    seat = r.turn
    known = r.hands[seat] | r.table | r.leftover
    for p in r.piles:
        known |= p
    unseen = FULL_DECK & ~known
    nxt = (seat + 1) % r.seats
    chances = None
    if r.side_of[nxt] != r.side_of[seat]:
        # If this play empties the hands, the next player is dealt three (if any are left).
        stock_left = r.stock_pos < len(r.deck)
        deal = r.rules.hand_size if stock_left else 0
        hand = r.hands[nxt].bit_count() if r.in_hands > 1 else deal
        total = unseen.bit_count()
        chances = (
            0.0,
            *(holds_one(total, (unseen & _RANKS[v - 1]).bit_count(), hand) for v in range(1, 11)),
        )
    return Context(
        table=r.table,
        last_play=r.in_hands == 1 and r.stock_pos == len(r.deck),
        side=r.side_of[seat],
        last_capturer=r.last_capturer,
        chances=chances,
    )


def play_score(card: int, capture: int, ctx: Context) -> int:
    """How much the policy likes a play, in millionths of a point (higher is better)."""
    table = ctx.table
    if capture:
        left = table & ~capture
        score = card_weight(capture | 1 << card)
        if ctx.last_play:
            return score + card_weight(left)
        if not left:
            return score + SWEEP
    else:
        left = table | 1 << card
        score = -LAY_COST[card]
        if ctx.last_play:
            if ctx.last_capturer is None:
                return score
            rest = card_weight(left)
            return score + rest if ctx.last_capturer == ctx.side else score - rest
    chances = ctx.chances
    if chances is None:
        return score
    total = table_total(left)
    threat = chances[total] * (SWEEP + card_weight(left)) if total <= 10 else 0.0
    m = left
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        t = chances[VALUE_OF[c]] * CARD_WEIGHT[c]
        if t > threat:
            threat = t
    return score - math.floor(CAUTION * threat + 0.5)


def best_plays(r: Round) -> list[Play]:
    """The plays with the policy's best score, in legal order."""
    moves = r.legal_plays()
    if len(moves) == 1:
        return moves
    ctx = context(r)
    best: list[Play] = []
    best_score = 0
    for m in moves:
        s = play_score(m.card, m.capture, ctx)
        if not best or s > best_score:
            best_score = s
            best = [m]
        elif s == best_score:
            best.append(m)
    return best


def policy_move(r: Round, rng: random.Random) -> Move:
    """The policy's choice in ``r`` for the seat to move; ties broken at random."""
    if r.phase is Phase.CUT:
        # At the cut: keep a 7, table anything else.
        return Cut.KEEP if r.cut_card is not None and VALUE_OF[r.cut_card] == 7 else Cut.TABLE
    best = best_plays(r)
    return best[0] if len(best) == 1 else rng.choice(best)


def rollout(r: Round, rng: random.Random) -> None:
    """Play ``r`` to the end of the round with the policy (in place).

    Stops early if a cut makes the deal void (the caller scores that as even).
    """
    while r.score is None:
        r.apply_unchecked(policy_move(r, rng))
        if r.void:
            return
