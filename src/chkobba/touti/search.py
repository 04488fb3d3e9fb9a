"""The search player, ``search``: determinized Monte Carlo over the hidden hands.

At each card to play, the player samples deals consistent with what it has
seen: its own hand, every card played, the announced pairs still in hand, how
many cards each hand holds, and what the plays prove (a player who did not
follow suit is void in it, one who did not beat the trick or did not
over-trump held nothing higher, one who did not trump held no trump). In each
sampled deal it plays every legal card and finishes the deal with the
rule-based technique for all four seats (announcements made as soon as
allowed), and it picks the card with the best total over the samples: the
deal's match points for its team minus the opponents', plus a quarter of the
difference in card and announcement points to separate cards that do not
change the contract. Bidding, trumps and announcements follow the technique.
"""

from __future__ import annotations

import math
import random
from typing import Final

from chkobba.touti.agents import register
from chkobba.touti.cards import PAIRS
from chkobba.touti.deal import SEATS, Deal, Phase, team_of
from chkobba.touti.moves import BID_STEP, MIN_BID, Bid, Call, Canto, CardPlay, ToutiMove, Trump
from chkobba.touti.observe import ToutiObservation
from chkobba.touti.technique import choose_card, technique_move

DEFAULT_SAMPLES: Final = 24
"""Sampled deals per card decision."""
POINTS_WEIGHT: Final = 0.25
"""Weight of the card-point difference beside the contract's match points."""
_TRIES: Final = 40
BID_CONFIDENCE: Final = 0.6
"""Sampled bidding: bid up to what the team makes in this share of the sampled deals."""
PARTNER_MARGIN: Final = 30


class SamplingError(RuntimeError):
    """No deal consistent with the observation could be drawn (a bug if it happens)."""


def sample_hands(obs: ToutiObservation, rng: random.Random) -> list[int]:
    """Four hands consistent with ``obs``: the observer's own, the others drawn at random.

    Cards go out most-constrained first, each to a seat that may hold it with
    room left, weighted by the room; after a few failed draws the inferred
    exclusions other than voids are dropped rather than fail.
    """
    me = obs.seat
    hands = [0] * SEATS
    hands[me] = obs.hand
    pool = obs.unseen
    for s in range(SEATS):
        if s != me:
            hands[s] |= obs.known[s]
            pool &= ~obs.known[s]
    cards = []
    m = pool
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    others = [s for s in range(SEATS) if s != me]
    for attempt in range(_TRIES * 2):
        strict = attempt < _TRIES
        room = {s: obs.hand_sizes[s] - hands[s].bit_count() for s in others}
        allowed = {
            c: [s for s in others if not (obs.excluded[s] >> c & 1)] if strict else others
            for c in cards
        }
        order = cards[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        out = {s: hands[s] for s in others}
        ok = True
        for c in order:
            choices = [s for s in allowed[c] if room[s] > 0]
            if not choices:
                ok = False
                break
            weights = [room[s] for s in choices]
            s = rng.choices(choices, weights)[0]
            out[s] |= 1 << c
            room[s] -= 1
        if ok:
            for s in others:
                hands[s] = out[s]
            return hands
    raise SamplingError("no deal agrees with the observation")


def world(obs: ToutiObservation, hands: list[int]) -> Deal:
    """A deal in the observed state with the given hands (for playouts; no history)."""
    d = Deal.__new__(Deal)
    d.rules = obs.rules
    d.dealer = obs.dealer
    d.deck = ()
    d.hands = list(hands)
    d.phase = obs.phase
    d.turn = obs.turn
    d.history = []
    d.bid = obs.bid
    d.high_bidder = obs.high_bidder
    d.declarer = obs.declarer
    d.trump = obs.trump
    d.out = d.mute = d.spoken = 0b1111
    d.alla = [0] * SEATS
    d.macharich = [0] * SEATS
    d.bids_made = [0] * SEATS
    d.zadtak = None
    d.asked = [0] * SEATS
    d.question = None
    d.asked_now = False
    d.redeal = False
    d.current = list(obs.current)
    d.leader = obs.leader
    d.tricks = list(obs.tricks)
    won = [0, 0]
    for t in obs.tricks:
        for c in t.cards:
            won[team_of(t.winner)] |= 1 << c
    d.won = won
    d.played = obs.played
    d.announcements = list(obs.announcements)
    d.canto_stage = 0
    d.claims = 0b1111  # playouts never claim
    d.claimed = None
    d.score = None
    return d


def playout(d: Deal) -> None:
    """Finish a deal with the technique at every seat (announcing whenever allowed)."""
    while d.phase is not Phase.OVER:
        seat = d.turn
        if d.phase is Phase.CANTO:
            hand = d.hands[seat]
            sung = 0
            for a in d.announcements:
                sung |= 1 << a.suit
            pairs = [s for s in range(4) if hand & PAIRS[s] == PAIRS[s] and not sung >> s & 1]
            if pairs:
                pairs.sort(key=lambda s: s != d.trump)
                d.apply_unchecked(Canto(pairs[0]))
            else:
                d.apply_unchecked(Call.NO_CANTO)
            continue
        legal = d.legal_cards()
        card = choose_card(
            seat, d.hands[seat], legal, d.current, d.trump, d.played, d.declarer_team
        )
        d.apply_unchecked(CardPlay(card))


def evaluate(d: Deal, team: int) -> float:
    """A finished deal's worth to ``team``: match points, then card and announcement points."""
    sc = d.score
    assert sc is not None
    pts = sc.points[team] - sc.points[1 - team]
    mine = sc.card_points[team] + sc.cantos[team]
    theirs = sc.card_points[1 - team] + sc.cantos[1 - team]
    return pts + POINTS_WEIGHT * (mine - theirs)


def contract_outcomes(
    obs: ToutiObservation, suits: list[int], samples: int, rng: random.Random
) -> dict[int, list[int]]:
    """For each suit as trumps with the observer as declarer, its team's points (cards and
    announcements) in ``samples`` sampled deals finished by the technique (the same deals
    for every suit, so the suits are compared on equal luck)."""
    out: dict[int, list[int]] = {s: [] for s in suits}
    team = team_of(obs.seat)
    for _ in range(samples):
        hands = sample_hands(obs, rng)
        for s in suits:
            d = world(obs, hands)
            d.phase = Phase.PLAY
            d.declarer = obs.seat
            d.trump = s
            d.bid = 0
            d.current = []
            d.tricks = []
            d.leader = d.turn = (obs.dealer + 1) % SEATS
            playout(d)
            sc = d.score
            assert sc is not None
            out[s].append(sc.card_points[team] + sc.cantos[team])
    return out


def safe_bid(points: list[int], confidence: float) -> int:
    """The highest bid (a multiple of 10) reached in at least ``confidence`` of the samples."""
    ranked = sorted(points, reverse=True)
    k = max(0, min(len(ranked) - 1, math.ceil(confidence * len(ranked)) - 1))
    return ranked[k] // BID_STEP * BID_STEP


@register("search")
class SearchAgent:
    """Determinized Monte Carlo over the hidden hands, technique playouts."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = DEFAULT_SAMPLES,
        bidding: str = "technique",
    ) -> None:
        if bidding not in ("technique", "sampled"):
            raise ValueError(f"bidding must be technique or sampled, not {bidding!r}")
        self.name = "search"
        self.rng = random.Random(seed)
        self.samples = samples
        self.bidding = bidding

    def choose(self, obs: ToutiObservation) -> ToutiMove:
        """The card with the best total over sampled deals; bids and trumps by the
        technique or, with ``bidding="sampled"``, from sampled deals; announcements
        by the technique."""
        if self.bidding == "sampled" and obs.phase in (Phase.BID, Phase.TRUMP):
            return self._sampled_contract(obs)
        cards = [m for m in obs.legal_moves if isinstance(m, CardPlay)]
        if obs.phase is not Phase.PLAY or len(cards) <= 1:
            return technique_move(obs)
        team = team_of(obs.seat)
        totals = [0.0] * len(cards)
        for _ in range(self.samples):
            base = world(obs, sample_hands(obs, self.rng))
            for i, m in enumerate(cards):
                d = base.copy()
                d.apply_unchecked(m)
                playout(d)
                totals[i] += evaluate(d, team)
        best = max(range(len(cards)), key=lambda i: totals[i])
        return cards[best]

    def _sampled_contract(self, obs: ToutiObservation) -> ToutiMove:
        legal = obs.legal_moves
        if obs.phase is Phase.TRUMP:
            suits = [m.suit for m in legal if isinstance(m, Trump)]
            out = contract_outcomes(obs, suits, self.samples, self.rng)
            made = {s: sum(p >= obs.bid for p in out[s]) + sum(out[s]) / 1000 for s in suits}
            return Trump(max(suits, key=made.__getitem__))
        if not any(isinstance(m, Bid) for m in legal):
            return technique_move(obs)
        out = contract_outcomes(obs, [0, 1, 2, 3], self.samples, self.rng)
        best = max(safe_bid(out[s], BID_CONFIDENCE) for s in range(4))
        low = max(MIN_BID, obs.bid + BID_STEP)
        partner_high = obs.high_bidder is not None and obs.high_bidder % 2 == obs.seat % 2
        if partner_high:
            best -= PARTNER_MARGIN  # the partner's bid already counts on this hand's help
        if best >= low:
            return Bid(low)
        return technique_move(obs)  # pass (or the semi-parlé calls)
