"""The rule-based Touti player, ``technique``: bids from hand strength, plays the usual technique.

Bidding: for each suit as trumps, the hand's worth is estimated from its aces
and threes (guarded or not), its trump length and honours, its announcements
(40 in trumps, 20 otherwise), its voids and singletons when it holds trumps,
plus a share for the partner; the player bids while the best estimate beats the
current bid, does not outbid its partner without a clearly stronger hand, and
names the suit of the best estimate as trumps. Semi-parlé: it signals its aces
and pairs when it passes, and raises its partner's first bid with *zadtak*
rather than a plain bid; forced by its partner's zadtak, it bids the least it
may. Parlé: with a hand near a bid it asks its partner about its aces, then its
announcements, and counts the answers in the partner's share; it answers its
partner's questions (truly: the engine allows nothing else).

Play (:func:`choose_card`, shared with the search's playouts): the declarer's
team draws trumps with master trumps; a leader cashes master cards (aces, threes
whose ace is gone) and otherwise leads low from a side suit; a follower whose
partner holds the trick gives points when the trick is safe and the lowest card
otherwise, wins cheaply when it can keep the trick (last to play, or with a master
card), and else plays its least valuable card. Announcements are always made,
the trump pair first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from chkobba.fishing.cards import FULL_DECK
from chkobba.touti.cards import ACE_MASK, BEATS, CARD_POINTS, PAIRS, STRENGTH, SUIT_MASKS
from chkobba.touti.deal import SEATS, Phase, trick_winner_index
from chkobba.touti.moves import (
    MAX_BID,
    MIN_BID,
    Ask,
    Bid,
    Call,
    Canto,
    CardPlay,
    ToutiMove,
    Trump,
)
from chkobba.touti.observe import ToutiObservation
from chkobba.touti.parle import answer
from chkobba.touti.player import register

PARTNER_SHARE: Final = 32
"""Points a bidder counts on from an unknown partner's hand."""
ACE_SHARE: Final = 11
"""Parlé: what each of the partner's aces above the expected number adds to its share."""
THREE_SHARE: Final = 6
PAIR_SHARE: Final = {True: 18, False: 10}
"""Parlé: what a partner's announcement adds, matayhach or tayha."""
ASK_REACH: Final = 30
"""Parlé: ask only with a hand worth at least the lowest bid minus this."""
QUESTIONS: Final = ("aces", "cantos")
"""Parlé: what the technique asks its partner, in this order."""
OUTBID_PARTNER_MARGIN: Final = 30
"""How much more than the partner's bid a hand must be worth to outbid the partner."""

_ACE = 0
_THREE = 2
_TEN, _ELEVEN, _TWELVE = 7, 8, 9


def _has(hand: int, suit: int, idx: int) -> bool:
    return bool(hand >> (10 * suit + idx) & 1)


def hand_value(hand: int, trump: int, partner_share: int = PARTNER_SHARE) -> int:
    """The points a hand is estimated to make with ``trump`` as trumps, partner's share included."""
    tl = (hand & SUIT_MASKS[trump]).bit_count()
    est = partner_share
    for s in range(4):
        n = (hand & SUIT_MASKS[s]).bit_count()
        ace, three = _has(hand, s, _ACE), _has(hand, s, _THREE)
        pair = hand & PAIRS[s] == PAIRS[s]
        if s == trump:
            est += 14 * ace
            est += (10 if ace or n >= 4 else 5) * three
            est += 3 * _has(hand, s, _TWELVE) + 2 * _has(hand, s, _ELEVEN)
            est += 11 * max(0, n - 3)
            est += 40 if pair else 0
        else:
            est += 15 * ace
            if three:
                est += 10 if ace else (4 if n >= 3 else 2)
            est += 16 if pair else 0
            if tl >= 3:
                est += 8 if n == 0 else 3 if n == 1 else 0
    if tl >= 5:
        est += 8
    return est


def best_trump(
    hand: int, allowed: Sequence[int] = (0, 1, 2, 3), partner_share: int = PARTNER_SHARE
) -> tuple[int, int]:
    """The suit worth most as trumps among ``allowed``, and its estimate."""
    return max(
        ((hand_value(hand, s, partner_share), s) for s in allowed),
        key=lambda t: (t[0], -t[1]),
    )[::-1]


def partner_share(obs: ToutiObservation) -> int:
    """The points counted on from the partner: :data:`PARTNER_SHARE`, moved by what the
    partner answered in the parlé game (its aces and threes against the number an
    unknown hand holds, its announcements)."""
    share = PARTNER_SHARE
    partner = (obs.seat + 2) % SEATS
    for seat, tell in obs.answers:
        if seat != partner:
            continue
        if tell.topic in ("aces", "threes"):
            mine = answer(obs.hand, tell.topic)[0]
            worth = ACE_SHARE if tell.topic == "aces" else THREE_SHARE
            # Against an unknown partner's (4 - mine) / 3 of them.
            share += worth * (3 * tell.answer[0] - (4 - mine)) // 3
        elif tell.topic == "cantos":
            share += sum(PAIR_SHARE[bool(m)] for m in tell.answer[1::2])
    return share


def choose_bid(obs: ToutiObservation) -> ToutiMove:
    """Bid from the hand's best estimate, or pass (semi-parlé: signal aces and pairs;
    parlé: first ask the partner)."""
    legal = obs.legal_moves
    if obs.phase is Phase.ANSWER:
        return legal[0]  # the true answer, the only one
    _, value = best_trump(obs.hand, partner_share=partner_share(obs))
    cap = min(MAX_BID, value // 10 * 10)
    low = max(MIN_BID, obs.bid + 10)
    bids = [m for m in legal if isinstance(m, Bid)]
    if Call.PASS not in legal and bids:
        return bids[0]  # forced by the partner's zadtak: the least it may bid
    if bids and value + ASK_REACH >= bids[0].amount:
        for topic in QUESTIONS:
            if Ask(topic) in legal:
                return Ask(topic)
    partner_high = obs.high_bidder is not None and obs.high_bidder % 2 == obs.seat % 2
    if partner_high:
        cap = min(cap, value - OUTBID_PARTNER_MARGIN) // 10 * 10
    if cap >= low and Bid(low) in legal:
        # A raise of the partner's first bid is a zadtak where it may be: the same bid,
        # and it tells the partner to go 20 higher.
        return Call.ZADTAK if partner_high and Call.ZADTAK in legal else Bid(low)
    for call in (Call.ALLA, Call.MACHARICH):
        if call in legal:
            return call
    if Call.REDEAL in legal:
        return Call.REDEAL
    return Call.PASS


def choose_canto(obs: ToutiObservation) -> ToutiMove:
    """Announce when possible, the trump pair first."""
    cantos = [m for m in obs.legal_moves if isinstance(m, Canto)]
    if not cantos:
        return Call.NO_CANTO
    cantos.sort(key=lambda m: m.suit != obs.trump)
    return cantos[0]


def _value_key(c: int, trump: int | None) -> tuple[int, int, int]:
    # The cheapest card to give away: fewest points, not a trump, lowest in its suit.
    return (CARD_POINTS[c], c // 10 == trump, STRENGTH[c])


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def choose_card(
    seat: int,
    hand: int,
    legal: int,
    trick: Sequence[int],
    trump: int | None,
    played: int,
    declarer_team: int | None,
) -> int:
    """The technique's card: pure function of what the seat knows (its hand, the trick,
    trumps, the cards played), fast enough for the search's playouts."""
    cards = _bits(legal)
    if len(cards) == 1:
        return cards[0]
    # Cards that someone else may still hold.
    outside = FULL_DECK & ~hand & ~played & ~_mask(trick)
    if not trick:
        return _lead(seat, hand, cards, trump, outside, declarer_team)
    lead_seat = (seat - len(trick)) % SEATS
    wi = trick_winner_index(trick, trump)
    winner_seat = (lead_seat + wi) % SEATS
    best = trick[wi]
    last = len(trick) == SEATS - 1
    trick_pts = sum(CARD_POINTS[c] for c in trick)
    if winner_seat % 2 == seat % 2:
        safe = last or _holds(best, trick[0] // 10, trump, outside)
        if safe:
            # Give points to the partner's trick: the richest card that is not a trump.
            return max(cards, key=lambda c: (CARD_POINTS[c] * (c // 10 != trump), -STRENGTH[c]))
        return min(cards, key=lambda c: _value_key(c, trump))
    winners = [c for c in cards if _beats(c, best, trump)]
    if winners:
        cheapest = min(winners, key=lambda c: (c // 10 == trump, STRENGTH[c]))
        if last:
            if trick_pts + CARD_POINTS[cheapest] > 0 or cheapest // 10 != trump:
                return cheapest
        else:
            masters = [c for c in winners if _holds(c, trick[0] // 10, trump, outside)]
            if masters and (trick_pts >= 2 or CARD_POINTS[min(masters, key=STRENGTH.__getitem__)]):
                return min(masters, key=lambda c: (c // 10 == trump, STRENGTH[c]))
            if trick_pts >= 10:
                return cheapest
    return min(cards, key=lambda c: _value_key(c, trump))


def _lead(
    seat: int,
    hand: int,
    cards: list[int],
    trump: int | None,
    outside: int,
    declarer_team: int | None,
) -> int:
    if trump is not None:
        trumps_out = outside & SUIT_MASKS[trump]
        my_trumps = [c for c in cards if c // 10 == trump]
        if declarer_team == seat % 2 and trumps_out and my_trumps:
            top = max(my_trumps, key=STRENGTH.__getitem__)
            if not BEATS[top] & outside:
                return top  # draw trumps with a master trump
        masters = [
            c
            for c in cards
            if c // 10 != trump and not BEATS[c] & outside and CARD_POINTS[c] >= 10
        ]
        if masters and (not trumps_out or declarer_team == seat % 2):
            return max(masters, key=lambda c: CARD_POINTS[c])
    # A low card from the longest side suit, keeping the pairs and unguarded threes.
    def key(c: int) -> tuple[int, int, int, int]:
        s = c // 10
        length = (hand & SUIT_MASKS[s]).bit_count()
        in_pair = hand & PAIRS[s] == PAIRS[s] and c % 10 in (_ELEVEN, _TWELVE)
        return (s == trump, CARD_POINTS[c] + 20 * in_pair, -length, STRENGTH[c])

    return min(cards, key=key)


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _beats(c: int, best: int, trump: int | None) -> bool:
    if c // 10 == best // 10:
        return STRENGTH[c] > STRENGTH[best]
    return c // 10 == trump


def _holds(card: int, led: int, trump: int | None, outside: int) -> bool:
    """Whether ``card`` cannot be beaten by any card still outside (voids ignored:
    a non-trump is safe only when no trump is outside either)."""
    if BEATS[card] & outside:
        return False
    if card // 10 == trump or trump is None:
        return True
    return not outside & SUIT_MASKS[trump]


@register("technique")
class TechniqueAgent:
    """The rule-based player: hand-strength bidding and the usual card technique."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "technique"

    def choose(self, obs: ToutiObservation) -> ToutiMove:
        """The technique's move for the seat to move."""
        return technique_move(obs)


def technique_move(obs: ToutiObservation) -> ToutiMove:
    """The technique's move in any phase."""
    if obs.phase in (Phase.BID, Phase.ANSWER):
        return choose_bid(obs)
    if obs.phase is Phase.TRUMP:
        allowed = [m.suit for m in obs.legal_moves if isinstance(m, Trump)]
        return Trump(best_trump(obs.hand, allowed)[0])
    if obs.phase is Phase.CANTO:
        return choose_canto(obs)
    legal = 0
    for m in obs.legal_moves:
        if isinstance(m, CardPlay):
            legal |= 1 << m.card
    return CardPlay(
        choose_card(
            obs.seat, obs.hand, legal, obs.current, obs.trump, obs.played, obs.declarer_team
        )
    )


__all__ = ["ACE_MASK", "TechniqueAgent", "best_trump", "choose_card", "hand_value"]
