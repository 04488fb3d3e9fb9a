"""The coach for Touti: each card a seat may play, weighed by Touti's search.

The figure for a card is what the search player (:mod:`chkobba.touti.search`) counts a
deal's worth: the deal's match points for the observer's team minus the opponents', plus
a quarter of the difference in card and announcement points, at the deal's end. It is
averaged over deals of the hidden hands consistent with what the observer knows (its own
hand, the cards played, the voids the play shows, the announced pairs, what was said in
the bidding), each finished by the technique player at every seat, with the compiled
playouts where they are built. As for Chkobba (:mod:`chkobba.coach.estimate`), the
samples are split into independent batches, every card of a batch weighed on the same
deals: a figure's standard error is the spread of its batch means, a loss's comes from
the paired differences.

Where nothing is hidden any more (the cards the observer has not seen can lie in the
other hands in one way only, as when each other seat has played its last card or the
voids leave each card one seat) and at most :data:`EXACT_CARDS` cards are left in
hands, the rest of the deal is solved exactly instead: every seat plays its team's best
from there, announcements included, and the figures carry no sampling error (``exact``).

Only the cards to play are weighed: the bidding, the trumps and the announcements are the
technique's (the search player bids the same way), and the analysis leaves them out.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Final

from chkobba.coach.estimate import Estimates, from_batches, solved
from chkobba.fishing.cards import CARDS, Card
from chkobba.touti import kernel
from chkobba.touti.cards import STRENGTH
from chkobba.touti.deal import Deal, Phase, team_of
from chkobba.touti.moves import CardPlay, ToutiMove, parse_move
from chkobba.touti.observe import ToutiObservation, observe_deal
from chkobba.touti.record import ToutiRecord
from chkobba.touti.rules import ToutiRules
from chkobba.touti.search import (
    COMPILED_SAMPLES,
    DEFAULT_SAMPLES,
    DealSampler,
    SearchAgent,
    world,
    worth,
)
from chkobba.words import word

EXACT_CARDS: Final = 12
"""The most cards left in the four hands for a position with nothing hidden to be solved
exactly (three tricks: a few thousand lines of play)."""
PURE_DIVISOR: Final = COMPILED_SAMPLES // DEFAULT_SAMPLES
"""How many times fewer samples a position gets without the compiled playouts (the
search player's own ratio)."""
PINNED_POOL: Final = 9
"""The most unseen cards for which the ways they may lie are counted (to find a position
where they may lie in one way only)."""

FIGURE: Final = (
    "expected deal worth: your team's match points for the deal minus the opponents', "
    "plus a quarter of the difference in card and announcement points, at the deal's end"
)


def weighed(obs: ToutiObservation) -> bool:
    """Whether the coach weighs this decision: a card to play, among two or more."""
    return obs.phase is Phase.PLAY and sum(isinstance(m, CardPlay) for m in obs.legal_moves) > 1


def estimate(obs: ToutiObservation, samples: int, batches: int, seed: int) -> Estimates:
    """Weigh every card ``obs``'s seat may play (it must be to play a card, :func:`weighed`).

    Deterministic for a seed. ``samples`` is the total over the ``batches`` (rounded down
    to a multiple of them, at least one per batch).
    """
    if not weighed(obs):
        raise ValueError("the coach weighs a card to play among two or more, not this move")
    if batches < 2:
        raise ValueError(f"at least 2 batches are needed to measure the error, not {batches}")
    cards = [m for m in obs.legal_moves if isinstance(m, CardPlay)]
    hands = pinned(obs)
    if hands is not None and sum(h.bit_count() for h in hands) <= EXACT_CARDS:
        return solved(cards, [solve_card(obs, hands, m) for m in cards])
    if not kernel.AVAILABLE:
        # The pure-Python playouts are slower: as many fewer samples as the search player takes.
        samples = max(batches, samples // PURE_DIVISOR)
    rng = random.Random(seed)
    per = max(1, samples // batches)
    means = []
    for _ in range(batches):
        values = SearchAgent(rng.getrandbits(63), samples=per).card_values(obs)
        means.append([v for _, v in values])
    return from_batches(cards, means, per)


def pinned(obs: ToutiObservation) -> list[int] | None:
    """The four hands, if what ``obs`` knows leaves the unseen cards one way to lie (and
    there are at most :data:`PINNED_POOL` of them); else None."""
    sampler = DealSampler(obs)
    if len(sampler.cards) > PINNED_POOL:
        return None
    found: list[list[int]] = []
    hands = list(sampler.hands)
    room = list(sampler.room)
    allowed = sampler.allowed

    def place(k: int) -> None:
        if len(found) > 1:
            return
        if k == len(sampler.cards):
            if all(
                sum(f(hands[s] | sampler.gone[s]) for f in sampler.said.get(s, ())) == 0
                for s in sampler.others
            ):
                found.append(list(hands))
            return
        c = sampler.cards[k]
        for s in allowed[c]:
            if room[s]:
                room[s] -= 1
                hands[s] |= 1 << c
                place(k + 1)
                hands[s] &= ~(1 << c)
                room[s] += 1

    place(0)
    return found[0] if len(found) == 1 else None


def solve_card(obs: ToutiObservation, hands: list[int], move: CardPlay) -> float:
    """The worth of playing ``move`` to ``obs``'s team when the hands are ``hands`` and
    every seat then plays its team's best."""
    d = world(obs, hands)
    d.apply_unchecked(move)
    return _solve(d, team_of(obs.seat))


def _solve(d: Deal, team: int) -> float:
    if d.phase is Phase.OVER:
        assert d.score is not None
        return worth(d.score, team)
    mine = team_of(d.turn) == team
    best: float | None = None
    for m in d.legal_moves():
        child = d.copy()
        child.apply_unchecked(m)
        v = _solve(child, team)
        if best is None or (v > best if mine else v < best):
            best = v
    assert best is not None
    return best


def positions(record: ToutiRecord) -> Iterator[tuple[int, int, ToutiObservation, ToutiMove]]:
    """Every move of a record with the mover's observation just before it: (deal, move
    number, observation, move), both numbers 1-based as in the record. The record must be
    valid (:func:`chkobba.touti.record.replay` it first)."""
    rules = ToutiRules.from_options(record.options)
    totals = [0, 0]
    for i, dr in enumerate(record.deals, 1):
        d = Deal(dr.dealer, [Card.parse(c) for c in dr.deck], rules)
        for j, text in enumerate(dr.moves, 1):
            move = parse_move(text)
            yield i, j, observe_deal(d, d.turn, (totals[0], totals[1]), i), move
            d.apply(move)
        if d.score is not None:
            for t in (0, 1):
                totals[t] += d.score.points[t]


def hand_words(obs: ToutiObservation) -> tuple[str, str]:
    """The observer's hand (trumps first, each suit strongest first) and the trick so far."""
    hand = sorted(
        (c for c in range(40) if obs.hand >> c & 1),
        key=lambda c: (c // 10 != obs.trump, c // 10, -STRENGTH[c]),
    )
    return (
        " ".join(CARDS[c].pretty() for c in hand),
        " ".join(CARDS[c].pretty() for c in obs.current),
    )


def words(obs: ToutiObservation, move: Any, lang: str = "en") -> str:
    """A card played, in words: ``lead Q♥``, ``play Q♥ on A♦ 3♦``, ``trump with 2♠``
    (in ``lang``: ``jouer Q♥ sur A♦ 3♦``)."""
    if not isinstance(move, CardPlay):
        return str(move)
    card = CARDS[move.card].pretty()
    if not obs.current:
        return word(lang, "coach", "touti_lead", card=card)
    led = obs.current[0] // 10
    on = " ".join(CARDS[c].pretty() for c in obs.current)
    if move.card // 10 != led and move.card // 10 == obs.trump:
        return word(lang, "coach", "touti_trump_with", card=card, on=on)
    return word(lang, "coach", "touti_play_on", card=card, on=on)


__all__ = [
    "EXACT_CARDS",
    "FIGURE",
    "PINNED_POOL",
    "PURE_DIVISOR",
    "estimate",
    "hand_words",
    "pinned",
    "positions",
    "solve_card",
    "weighed",
    "words",
]
