"""The search player, ``search``: determinized Monte Carlo over the hidden hands.

At each card to play, the player samples deals consistent with what it has
seen: its own hand, every card played, the announced pairs still in hand, how
many cards each hand holds, what the plays prove (a player who did not
follow suit is void in it, one who did not beat the trick or did not
over-trump held nothing higher, one who did not trump held no trump), and
what was said in the bidding: every parlé answer (``tell:aces=2``: that hand as
dealt held exactly two aces) and every semi-parlé *alla* and *macharich* (so
many aces, so many announcements at least). In each
sampled deal it plays every legal card and finishes the deal with the
rule-based technique for all four seats (announcements made as soon as
allowed), and it picks the card with the best total over the samples: the
deal's match points for its team minus the opponents', plus a quarter of the
difference in card and announcement points to separate cards that do not
change the contract. Bidding, trumps and announcements follow the technique.

The playouts are where a pure-Python search spends its time, and then the draws
(docs/touti.md, Players): both run compiled (:mod:`chkobba.touti.kernel`) where the
extensions are built, with the same results; :func:`playout` and
:meth:`DealSampler.draw` stay their reference and the fallback. Draws that must
agree with what was said in the bidding are made in Python either way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cached_property, partial
from typing import Final

from chkobba.touti import kernel
from chkobba.touti.cards import ACE_MASK, PAIRS
from chkobba.touti.deal import SEATS, Deal, Phase, team_of
from chkobba.touti.moves import (
    BID_STEP,
    MIN_BID,
    Bid,
    Call,
    Canto,
    CardPlay,
    Tell,
    ToutiMove,
    Trump,
)
from chkobba.touti.observe import ToutiObservation
from chkobba.touti.parle import Answer, answer_distance
from chkobba.touti.player import register
from chkobba.touti.scoring import DealScore
from chkobba.touti.technique import choose_card, technique_move

DEFAULT_SAMPLES: Final = 24
"""Sampled deals per card decision in pure Python (no compiled kernel)."""
COMPILED_SAMPLES: Final = 1792
"""Sampled deals per card decision with the compiled playouts and draws: about the time
per decision the pure search takes with :data:`DEFAULT_SAMPLES` (docs/touti.md, Players),
and measured stronger (+24.9 points a deal against technique, against +17.5)."""
POINTS_WEIGHT: Final = 0.25
"""Weight of the card-point difference beside the contract's match points."""
_TRIES: Final = 40
REPAIR_STEPS: Final = 600
"""Card swaps tried per draw to make a draw agree with what was said in the bidding."""
_REPAIR_HEAT: Final = 0.5
BID_CONFIDENCE: Final = 0.6
"""Sampled bidding: bid up to what the team makes in this share of the sampled deals."""
PARTNER_MARGIN: Final = 30


class SamplingError(RuntimeError):
    """No deal consistent with the observation could be drawn (a bug if it happens)."""


Statement = Callable[[int], int]
"""Something said about a hand as dealt: how far a hand is from making it true (0: true)."""


def statements(obs: ToutiObservation) -> dict[int, list[Statement]]:
    """Per seat, what it said about its hand in the bidding (parlé answers, semi-parlé
    alla and macharich), as measures of how far a hand as dealt is from it."""
    out: dict[int, list[Statement]] = {}
    alla = [0] * SEATS
    macharich = [0] * SEATS
    for seat, move in obs.history:
        if isinstance(move, Tell):
            out.setdefault(seat, []).append(partial(_answer_gap, move.topic, move.answer))
        elif move is Call.ALLA:
            alla[seat] += 1
        elif move is Call.MACHARICH:
            macharich[seat] += 1
    for seat in range(SEATS):
        # The k-th alla says "I hold k aces" at least; the k-th macharich, k pairs.
        if alla[seat]:
            out.setdefault(seat, []).append(partial(_aces_gap, alla[seat]))
        if macharich[seat]:
            out.setdefault(seat, []).append(partial(_pairs_gap, macharich[seat]))
    return out


def _answer_gap(topic: str, value: Answer, hand: int) -> int:
    return answer_distance(hand, topic, value)


def _aces_gap(least: int, hand: int) -> int:
    return max(0, least - (hand & ACE_MASK).bit_count())


def _pairs_gap(least: int, hand: int) -> int:
    return max(0, least - sum(hand & p == p for p in PAIRS))


def played_by(obs: ToutiObservation) -> list[int]:
    """The cards each seat has played to tricks (the trick in progress included)."""
    out = [0] * SEATS
    for t in obs.tricks:
        for i, c in enumerate(t.cards):
            out[t.seat_of(i)] |= 1 << c
    for i, c in enumerate(obs.current):
        out[(obs.leader + i) % SEATS] |= 1 << c
    return out


def sample_hands(obs: ToutiObservation, rng: random.Random) -> list[int]:
    """Four hands consistent with ``obs``: the observer's own, the others drawn at random
    (:meth:`DealSampler.draw`; a search drawing many should keep one :class:`DealSampler`)."""
    return DealSampler(obs).draw(rng)


class DealSampler:
    """Draws the hidden hands of one observation; what does not change from draw to draw
    (what each seat said, the cards to deal, where each may go) is worked out once."""

    def __init__(self, obs: ToutiObservation) -> None:
        self.obs = obs
        me = obs.seat
        self.said = {s: f for s, f in statements(obs).items() if s != me}
        self.gone = played_by(obs) if self.said else [0] * SEATS
        hands = [0] * SEATS
        hands[me] = obs.hand
        pool = obs.unseen
        self.others = [s for s in range(SEATS) if s != me]
        for s in self.others:
            hands[s] |= obs.known[s]
            pool &= ~obs.known[s]
        self.hands = hands
        self.pool = pool
        self.cards = _bits(pool)
        self.room = [obs.hand_sizes[s] - hands[s].bit_count() for s in range(SEATS)]

    @cached_property
    def allowed(self) -> list[list[int]]:
        """Per card, the other seats the public play does not rule out (worked out when
        a draw in Python first needs it: the compiled draws take the exclusions)."""
        excluded = self.obs.excluded
        return [[s for s in self.others if not (excluded[s] >> c & 1)] for c in range(40)]

    def draw_many(self, rng: random.Random, n: int, compiled: bool) -> list[list[int]]:
        """``n`` draws (:meth:`draw`); compiled (:func:`chkobba.touti.kernel.draw_hands`,
        the same draws) where nothing was said about the hands and ``compiled``."""
        if not compiled or self.said:
            return [self.draw(rng) for _ in range(n)]
        obs = self.obs
        out = kernel.draw_hands(
            rng, obs.seat, self.hands, self.pool, obs.hand_sizes, obs.excluded, n
        )
        if len(out) < n:
            raise SamplingError("no deal agrees with the observation")
        return out

    def draw(self, rng: random.Random) -> list[int]:
        """Four hands consistent with the observation, drawn with ``rng``.

        Cards go out most-constrained first, each to a seat that may hold it with
        room left, weighted by the room; after a few failed draws the inferred
        exclusions are dropped rather than fail. When seats have said something
        about their hands (:func:`statements`), cards are then swapped between the
        hidden hands until all of it is true of the hands as dealt (each hand plus
        the cards its seat has played); a draw that cannot be repaired is drawn again.
        """
        others = self.others
        for attempt in range(_TRIES * 2):
            strict = attempt < _TRIES
            allowed = self.allowed if strict else [others] * 40
            room = list(self.room)
            order = self.cards[:]
            rng.shuffle(order)
            if strict:
                order.sort(key=lambda c: len(allowed[c]))
            out = list(self.hands)
            ok = True
            for c in order:
                # rng.choices(choices, weights) by hand, drawing exactly what it draws:
                # one random() scaled by the total weight, then the first seat whose
                # running total exceeds it.
                choices = [s for s in allowed[c] if room[s] > 0]
                if not choices:
                    ok = False
                    break
                x = rng.random() * float(sum(room[s] for s in choices))
                last = len(choices) - 1
                i = 0
                acc = room[choices[0]]
                while i < last and acc <= x:
                    i += 1
                    acc += room[choices[i]]
                s = choices[i]
                out[s] |= 1 << c
                room[s] -= 1
            if not ok:
                continue
            if self.said:
                hidden = {s: out[s] for s in others}
                if not _repair(hidden, self.obs, self.said, self.gone, strict, rng):
                    continue
                for s in others:
                    out[s] = hidden[s]
            return out
        raise SamplingError("no deal agrees with the observation")


def _repair(
    out: dict[int, int],
    obs: ToutiObservation,
    said: dict[int, list[Statement]],
    gone: list[int],
    strict: bool,
    rng: random.Random,
) -> bool:
    """Swap cards between the hidden hands in ``out`` until every statement is true.

    A local search: swaps that do not take the hands further from the statements
    are kept, worse ones now and then (less often the worse they are), so that
    the search does not stick; False if ``REPAIR_STEPS`` swaps were not enough.
    """
    seats = list(out)

    def far(s: int) -> int:
        h = out[s] | gone[s]
        return sum(f(h) for f in said.get(s, ()))

    dist = {s: far(s) for s in seats}
    for _ in range(REPAIR_STEPS):
        wrong = [s for s in seats if dist[s]]
        if not wrong:
            return True
        a = rng.choice(wrong)
        b = rng.choice([s for s in seats if s != a])
        give = out[a] & ~obs.known[a]
        take = out[b] & ~obs.known[b]
        if strict:
            give &= ~obs.excluded[b]
            take &= ~obs.excluded[a]
        if not give or not take:
            continue
        x = 1 << rng.choice(_bits(give))
        y = 1 << rng.choice(_bits(take))
        out[a] ^= x | y
        out[b] ^= x | y
        da, db = far(a), far(b)
        worse = da + db - dist[a] - dist[b]
        if worse <= 0 or rng.random() < math.exp(-worse / _REPAIR_HEAT):
            dist[a], dist[b] = da, db
        else:
            out[a] ^= x | y
            out[b] ^= x | y
    return not any(dist.values())


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


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


def finished_score(d: Deal, compiled: bool) -> DealScore:
    """The score of ``d`` finished by :func:`playout`: by the compiled playouts if
    ``compiled`` (:mod:`chkobba.touti.kernel`, ``d`` left as it is), else by playing ``d`` out."""
    if compiled:
        return kernel.finish(d)
    playout(d)
    assert d.score is not None
    return d.score


def evaluate(d: Deal, team: int) -> float:
    """A finished deal's worth to ``team``: match points, then card and announcement points."""
    sc = d.score
    assert sc is not None
    return worth(sc, team)


def worth(sc: DealScore, team: int) -> float:
    """A deal's score as the search values it for ``team`` (:func:`evaluate`)."""
    pts = sc.points[team] - sc.points[1 - team]
    mine = sc.card_points[team] + sc.cantos[team]
    theirs = sc.card_points[1 - team] + sc.cantos[1 - team]
    return pts + POINTS_WEIGHT * (mine - theirs)


def contract_outcomes(
    obs: ToutiObservation,
    suits: list[int],
    samples: int,
    rng: random.Random,
    compiled: bool = kernel.AVAILABLE,
) -> dict[int, list[int]]:
    """For each suit as trumps with the observer as declarer, its team's points (cards and
    announcements) in ``samples`` sampled deals finished by the technique (the same deals
    for every suit, so the suits are compared on equal luck)."""
    out: dict[int, list[int]] = {s: [] for s in suits}
    team = team_of(obs.seat)
    # The playouts draw nothing from the generator: drawing every deal first draws the
    # same deals.
    for hands in DealSampler(obs).draw_many(rng, samples, compiled):
        for s in suits:
            d = world(obs, hands)
            d.phase = Phase.PLAY
            d.declarer = obs.seat
            d.trump = s
            d.bid = 0
            d.current = []
            d.tricks = []
            d.leader = d.turn = (obs.dealer + 1) % SEATS
            sc = finished_score(d, compiled)
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
        samples: int | None = None,
        bidding: str = "technique",
        compiled: bool | None = None,
    ) -> None:
        if bidding not in ("technique", "sampled"):
            raise ValueError(f"bidding must be technique or sampled, not {bidding!r}")
        if samples is not None and samples < 1:
            raise ValueError(f"the search needs at least one sampled deal, not {samples}")
        if compiled and not kernel.AVAILABLE:
            raise kernel.KernelError(f"the compiled search is not available: {kernel.BACKEND}")
        self.compiled = kernel.AVAILABLE if compiled is None else compiled
        """Whether the playouts and draws are the compiled ones (the same results, faster)."""
        self.name = "search"
        self.rng = random.Random(seed)
        if samples is None:
            samples = COMPILED_SAMPLES if self.compiled else DEFAULT_SAMPLES
        self.samples = samples
        """Sampled deals per decision: by default as many as the time a move allows,
        :data:`COMPILED_SAMPLES` compiled, :data:`DEFAULT_SAMPLES` in pure Python."""
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
        values = self.card_values(obs)
        return max(values, key=lambda mv: mv[1])[0]

    def card_values(self, obs: ToutiObservation) -> list[tuple[CardPlay, float]]:
        """Each legal card with its mean worth over the sampled deals (:func:`evaluate`:
        the deal's match points for the observer's team minus the opponents', plus a
        quarter of the card-point difference), in the order of the legal moves."""
        cards = [m for m in obs.legal_moves if isinstance(m, CardPlay)]
        team = team_of(obs.seat)
        sampler = DealSampler(obs)
        if self.compiled:
            # The playouts draw nothing from the generator: drawing every sample first
            # leaves the same deals as drawing each before its playouts.
            samples = sampler.draw_many(self.rng, self.samples, compiled=True)
            base = world(obs, samples[0])
            totals = kernel.card_totals(
                base, samples, [m.card for m in cards], team, POINTS_WEIGHT
            )
            return [(m, t / self.samples) for m, t in zip(cards, totals, strict=True)]
        totals = [0.0] * len(cards)
        for _ in range(self.samples):
            base = world(obs, sampler.draw(self.rng))
            for i, m in enumerate(cards):
                d = base.copy()
                d.apply_unchecked(m)
                playout(d)
                totals[i] += evaluate(d, team)
        return [(m, t / self.samples) for m, t in zip(cards, totals, strict=True)]

    def _sampled_contract(self, obs: ToutiObservation) -> ToutiMove:
        legal = obs.legal_moves
        if obs.phase is Phase.TRUMP:
            suits = [m.suit for m in legal if isinstance(m, Trump)]
            out = contract_outcomes(obs, suits, self.samples, self.rng, self.compiled)
            made = {s: sum(p >= obs.bid for p in out[s]) + sum(out[s]) / 1000 for s in suits}
            return Trump(max(suits, key=made.__getitem__))
        if not any(isinstance(m, Bid) for m in legal):
            return technique_move(obs)
        out = contract_outcomes(obs, [0, 1, 2, 3], self.samples, self.rng, self.compiled)
        best = max(safe_bid(out[s], BID_CONFIDENCE) for s in range(4))
        low = max(MIN_BID, obs.bid + BID_STEP)
        partner_high = obs.high_bidder is not None and obs.high_bidder % 2 == obs.seat % 2
        if partner_high:
            best -= PARTNER_MARGIN  # the partner's bid already counts on this hand's help
        if best >= low:
            return Bid(low)
        return technique_move(obs)  # pass (or the semi-parlé calls)
