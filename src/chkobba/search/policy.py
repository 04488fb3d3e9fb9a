"""A fast playout policy: what the search assumes every seat plays after a move.

The policy plays from what the seat to move would know: its hand, the table and
the cards it has not seen (everything but its hand, the table and the piles). It
never peeks at the sampled hidden cards, so playouts are not clairvoyant. Each
legal play is scored, in millionths of a round point, as

    the worth of the cards it wins (:func:`worth`), a sweep point for a sweep
    that scores one (and on the round's last play, the rest of the table)
  − for a lay, a share (:data:`HOLD`) of the laid card's worth
  − :data:`CAUTION` × the next player's threat on the table left: the larger of
    the chance they hold a card that sweeps it (by the rule set's captures: a
    match or an addition of the whole table, a capture by total, an ace taking
    all) times what the sweep is worth, and the chance they hold a card that
    takes one table card (by match or by total) times that card's worth; the
    chance of holding a value is counted from the unseen cards. A partner is no
    threat. At a table of two with Scopa's captures the caution is
    :data:`TWO_CAUTION` (:func:`scopa_two`).

What a card is worth follows the rule set's points (:func:`weights`): Chkobba's
kārṭa, dīnārī, barmīla and sabʿa l-ḥayya give :data:`CARD`, :data:`DIAMOND`,
:data:`SEVEN`, :data:`SIX` and :data:`HAYA`; the other games' points give their
own cheap per-card shares (the primiera's 7s, 6s, aces and 5s, the re bello, the
napola's low coins, Frac's aces and faces…). Where the lowest total wins (Scopa a
perdere) every score is turned round.

Two variants measured no stronger and are off (:class:`Weights`: ``pairs``, the threat
of a pair of table cards, and ``epsilon``, a play drawn among all); the measurement
script ``bench/expert_variants.py`` turns them on.

Scores are integers (the weights are whole millionths; the threat is rounded
once), so the compiled kernel (:mod:`chkobba.search.fast`) reproduces them exactly.
"""

from __future__ import annotations

import functools
import math
import random
from typing import Final, NamedTuple

from chkobba.fishing.cards import (
    DIAMONDS,
    DIAMONDS_MASK,
    FULL_DECK,
    SEVEN_OF_DIAMONDS,
    SEVENS_MASK,
    SIXES_MASK,
    VALUE_OF,
    rank_mask,
)
from chkobba.fishing.game import Phase, Round
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.rules import RuleSet
from chkobba.fishing.scoring import POINT_KEYS

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
TWO_CAUTION: Final = 1.5
""":data:`CAUTION` in Scopa's captures (of one card or two) with two players and hands of
three (:attr:`Weights.caution_two`): see :func:`scopa_two`."""

PRIMIERA: Final = {7: SEVEN, 6: 150_000, 1: 100_000, 5: 50_000}
"""The primiera's share by card value: its 7s (21), 6s (18), aces (16) and 5s (15) decide it."""
NAPOLA_COIN: Final = 300_000
"""Each of the A, 2 and 3 of coins where the napola scores (three points for the three)."""
KNIGHT: Final = 100_000
"""Each knight (J) where Il ponino doubles the sweeps of the player holding all four."""
FRAC_TIE_KING: Final = 300_000
"""The K♦ where it breaks Frac's 8-8 tie."""

_RANKS: Final = tuple(rank_mask(v) for v in range(1, 11))


def card_weight(mask: int) -> int:
    """Chkobba's worth of a set of cards, in millionths of a point, by :data:`CARD` and its
    kin (:func:`worth` with :func:`weights` of another rule set gives its game's)."""
    return (
        CARD * mask.bit_count()
        + DIAMOND * (mask & DIAMONDS_MASK).bit_count()
        + SEVEN * (mask & SEVENS_MASK).bit_count()
        + SIX * (mask & SIXES_MASK).bit_count()
        + HAYA * (mask >> SEVEN_OF_DIAMONDS & 1)
    )


CARD_WEIGHT: Final = tuple(card_weight(1 << c) for c in range(40))
LAY_COST: Final = tuple(math.floor(HOLD * w + 0.5) for w in CARD_WEIGHT)
"""What laying each card costs (Chkobba)."""


class Weights(NamedTuple):
    """The policy's values and capture model for one rule set (:func:`weights`)."""

    card: tuple[int, ...]
    """Each card's worth, in millionths of a point."""
    suits: tuple[tuple[int, ...], ...]
    """Per suit, the worth of each pattern of its ten cards: :func:`worth` in four lookups."""
    lay: tuple[int, ...]
    """What laying each card costs."""
    sweep: int
    """What a sweep that scores is worth (0 where sweeps score nothing)."""
    no_sweep: int
    """The cards whose sweep scores no point (:attr:`RuleSet.no_sweep`)."""
    match: bool
    sum: bool
    max_cards: int
    total: int
    ace_all: bool
    ace_no_sweep: bool
    """Whether an ace's sweep scores nothing (an ace taking all, not counted as a sweep)."""
    invert: bool
    """Whether the lowest total wins: every score is turned round."""
    caution: float
    caution_two: float
    """:attr:`caution` at a table of two (:data:`TWO_CAUTION` where :func:`scopa_two`)."""
    pairs: bool
    """Whether the threat counts a capture of two table cards by their sum at a table of two
    (:func:`pair_threat`). Off: measured no stronger in Scopa (see :func:`scopa_two`)."""
    fewest: bool
    """Whether a card that matches a table card takes it alone (the fewest cards, or the
    match's priority): no pair of that sum is then taken."""
    epsilon: float = 0.0
    """At a table of two, the chance that a playout's play is drawn among all the legal
    plays rather than the best-scored ones (:func:`policy_move`; 0: never)."""


def _rule_worth(rule: str) -> list[int]:
    """Each card's share of one point rule (zero for the rules that no card decides)."""
    w = [0] * 40
    for c in range(40):
        v, suit = VALUE_OF[c], c // 10
        if rule == "cards":
            w[c] = CARD
        elif rule == "coins":
            w[c] = DIAMOND * (suit == DIAMONDS)
        elif rule == "sevens":
            w[c] = SEVEN * (v == 7) + SIX * (v == 6)
        elif rule == "primiera":
            w[c] = PRIMIERA.get(v, 0)
        elif rule == "seven_of_coins":
            w[c] = HAYA * (c == SEVEN_OF_DIAMONDS)
        elif rule == "king_of_coins":
            w[c] = HAYA * (c == DIAMONDS * 10 + 9)
        elif rule == "napola":
            w[c] = NAPOLA_COIN * (suit == DIAMONDS and v <= 3)
        elif rule == "ponino":
            w[c] = KNIGHT * (v == 9)
        elif rule == "coin_faces":
            w[c] = SCALE * v * (suit == DIAMONDS and v <= 3)
        elif rule == "frac":
            w[c] = SCALE * (v in (1, 8, 9, 10))
        elif rule == "frac_tie":
            w[c] = FRAC_TIE_KING * (c == DIAMONDS * 10 + 9)
    return w


def _suit_table(card: list[int]) -> tuple[int, ...]:
    """The worth of each pattern of one suit's ten cards: a pattern is its lowest card
    and the pattern without it."""
    table = [0] * (1 << 10)
    for pattern in range(1, 1 << 10):
        low = pattern & -pattern
        table[pattern] = table[pattern ^ low] + card[low.bit_length() - 1]
    return tuple(table)


@functools.lru_cache(maxsize=64)
def weights(rules: RuleSet) -> Weights:
    """The policy's values for ``rules``: each card's share of the points its scoring
    lists, the sweep point if sweeps score, and the captures the threat is counted by.
    Chkobba's are :data:`CARD_WEIGHT` and :data:`LAY_COST`, the sweep :data:`SWEEP`."""
    card = [0] * 40
    sweep = 0
    for key in rules.scoring:
        rule = POINT_KEYS[key].rule
        if rule == "sweeps":
            sweep += SWEEP
        card = [a + b for a, b in zip(card, _rule_worth(rule), strict=True)]
    suits = tuple(_suit_table(card[s * 10 : s * 10 + 10]) for s in range(4))
    return Weights(
        card=tuple(card),
        suits=suits,
        lay=tuple(math.floor(HOLD * x + 0.5) for x in card),
        sweep=sweep,
        no_sweep=rules.no_sweep,
        match=rules.capture_match,
        sum=rules.capture_sum,
        max_cards=rules.max_capture_cards,
        total=rules.capture_total,
        ace_all=rules.ace_takes_all,
        ace_no_sweep=rules.ace_takes_all and not rules.ace_sweep_scores,
        invert=rules.lowest_wins,
        caution=CAUTION,
        caution_two=TWO_CAUTION if scopa_two(rules) else CAUTION,
        pairs=False,
        fewest=rules.fewest_cards or rules.matching_priority,
    )


def scopa_two(rules: RuleSet) -> bool:
    """Whether ``rules`` capture as Scopa does (one card or two, by their sum) with hands of
    three, where the values for two players differ (:data:`TWO_CAUTION`).

    Measured in Scopa with two players (bench/expert_variants.py, the expert against
    heuristic on the same 300 duplicate pairs, seed 1): the next player's threat counted
    at 1.5 rather than 1 gave +0.07 [-0.07, +0.20] points a deal (at 2: -0.01 [-0.14,
    +0.13]); a sweep worth 1.5 points +0.01 [-0.11, +0.13]; the threat of a pair of table
    cards (:attr:`Weights.pairs`) -0.04 [-0.14, +0.07]; one playout play in ten drawn
    among all (:attr:`Weights.epsilon`) +0.02 [-0.09, +0.14]. All within the noise; with
    the caution for two the expert beats heuristic by +0.39 [+0.31, +0.47] over 1,000
    pairs (docs/variants.md, "The expert on every preset, measured").
    """
    return rules.capture_sum and rules.max_capture_cards == 2 and rules.hand_size <= 3


def worth(mask: int, w: Weights) -> int:
    """The worth of a set of cards under ``w``, in millionths of a point."""
    s = w.suits
    return s[0][mask & 1023] + s[1][mask >> 10 & 1023] + s[2][mask >> 20 & 1023] + s[3][mask >> 30]


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
    weights: Weights
    """The rule set's values (:func:`weights`)."""
    two: bool = False
    """Whether two players sit at the table: the values for two apply
    (:attr:`Weights.caution_two`, :attr:`Weights.pairs`). Inference's view of a past play
    (:func:`chkobba.search.inference.decision_context`) keeps the values of every table."""


def chances_of(unseen: int, hand: int) -> tuple[float, ...]:
    """Index v: the chance that ``hand`` cards drawn from ``unseen`` hold a card of value v."""
    total = unseen.bit_count()
    return (
        0.0,
        *(holds_one(total, (unseen & _RANKS[v - 1]).bit_count(), hand) for v in range(1, 11)),
    )


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
        # If this play empties the hands, the next player is dealt a hand (if any are left).
        stock_left = r.stock_pos < len(r.deck)
        deal = r.rules.hand_size if stock_left else 0
        hand = r.hands[nxt].bit_count() if r.in_hands > 1 else deal
        chances = chances_of(unseen, hand)
    w = weights(r.rules)
    return Context(
        table=r.table,
        last_play=r.in_hands == 1 and r.stock_pos == len(r.deck),
        side=r.side_of[seat],
        last_capturer=r.last_capturer,
        chances=chances,
        weights=w,
        two=r.seats == 2,
    )


def play_score(card: int, capture: int, ctx: Context) -> int:
    """How much the policy likes a play, in millionths of a point (higher is better)."""
    score = _score(card, capture, ctx)
    return -score if ctx.weights.invert else score


def _score(card: int, capture: int, ctx: Context) -> int:
    w = ctx.weights
    table = ctx.table
    if capture:
        left = table & ~capture
        score = worth(capture | 1 << card, w)
        if ctx.last_play:
            return score + worth(left, w)
        if not left:
            return score + (0 if w.no_sweep >> card & 1 else w.sweep)
    else:
        left = table | 1 << card
        score = -w.lay[card]
        if ctx.last_play:
            if ctx.last_capturer is None:
                return score
            rest = worth(left, w)
            return score + rest if ctx.last_capturer == ctx.side else score - rest
    chances = ctx.chances
    if chances is None:
        return score
    caution = w.caution_two if ctx.two else w.caution
    return score - math.floor(caution * threat(left, chances, w, w.pairs and ctx.two) + 0.5)


def threat(left: int, chances: tuple[float, ...], w: Weights, pairs: bool = False) -> float:
    """What the next player is expected to take from ``left`` with one card: the larger of
    a sweep's worth and one card's (with ``pairs``, or two cards' by their sum:
    :func:`pair_threat`), each times the chance they hold a card that does it."""
    total = table_total(left)
    n = left.bit_count()
    whole = worth(left, w)
    # The values whose card sweeps the table: a match of a lone card, an addition of
    # the whole table, a capture making the total with it, an ace taking all.
    fits = not w.max_cards or n <= w.max_cards
    sweepers: list[int] = []
    if w.ace_all:
        sweepers.append(1)
    if n == 1:
        if w.match:
            sweepers.append(total)
    elif w.sum and fits and total <= 10:
        sweepers.append(total)
    if w.total and fits and 1 <= w.total - total <= 10:
        sweepers.append(w.total - total)
    best = 0.0
    for u in sweepers:
        bonus = 0 if u == 1 and w.ace_no_sweep else w.sweep
        t = chances[u] * (bonus + whole)
        if t > best:
            best = t
    m = left
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        v = VALUE_OF[c]
        if w.match:
            t = chances[v] * w.card[c]
            if t > best:
                best = t
        if w.total and 1 <= w.total - v <= 10:
            t = chances[w.total - v] * w.card[c]
            if t > best:
                best = t
    if pairs:
        t = pair_threat(left, chances, w)
        if t > best:
            best = t
    return best


def pair_threat(left: int, chances: tuple[float, ...], w: Weights) -> float:
    """The most the next player is expected to take from ``left`` by adding two of its cards:
    for each pair of sum ``v`` up to 10, the chance they hold a ``v`` times the pair's worth.

    Where a capture takes at most two cards (Scopa) most captures are of one card or two,
    and a lay next to a card it adds up with gives that pair away; a sum that a table card
    matches takes that card alone (:attr:`Weights.fewest`) and gives no pair.
    """
    best = 0.0
    m = left
    while m:
        low = m & -m
        m ^= low
        a = low.bit_length() - 1
        rest = m
        while rest:
            low2 = rest & -rest
            rest ^= low2
            b = low2.bit_length() - 1
            v = VALUE_OF[a] + VALUE_OF[b]
            if v > 10 or (w.fewest and left & _RANKS[v - 1]):
                continue
            t = chances[v] * (w.card[a] + w.card[b])
            if t > best:
                best = t
    return best


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
    eps = weights(r.rules).epsilon
    if eps and r.seats == 2 and rng.random() < eps:
        return rng.choice(r.legal_plays())
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
