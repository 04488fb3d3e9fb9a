"""Deals consistent with what a seat knows: the search's view of the hidden cards.

A *determinization* fills the other hands and the stock with the observer's
unseen cards, uniformly at random, keeping every public fact: hand sizes, the
table, the piles, the chkobba counts, the last capturer. Only the stock's
remaining cards are stored in the sampled round's deck; the cards already dealt
do not matter for what follows.
"""

from __future__ import annotations

import random

from chkobba.cards import cards_of
from chkobba.game import Phase, Round
from chkobba.observe import Observation


def determinize(obs: Observation, rng: random.Random) -> Round:
    """A full round state drawn uniformly among those consistent with ``obs``."""
    if obs.phase is Phase.CUT:
        return _determinize_cut(obs, rng)
    unseen = cards_of(obs.unseen)
    rng.shuffle(unseen)
    hands = [0] * obs.seats
    for seat, m in enumerate(obs.shown):
        hands[seat] = m  # cards a declaration showed (Cirulla) stay where they are
    hands[obs.seat] = obs.hand
    pos = 0
    for seat, size in enumerate(obs.hand_sizes):
        if seat != obs.seat:
            need = size - hands[seat].bit_count()
            for c in unseen[pos : pos + need]:
                hands[seat] |= 1 << c
            pos += need
    r = Round.__new__(Round)
    r.rules = obs.rules
    r.seats = obs.seats
    r.side_of = obs.side_of
    r.sides = max(obs.side_of) + 1
    r.dealer = obs.dealer
    r.cutter = obs.cutter
    r.deck = r.shuffle = tuple(unseen[pos:])
    r.stock_pos = 0
    r.hands = hands
    r.table = obs.table
    r.piles = list(obs.piles)
    r.chkobba = list(obs.chkobba)
    r.last_capturer = obs.last_capturer
    r.in_hands = sum(obs.hand_sizes)
    r.turn = obs.turn
    r.phase = obs.phase
    r.cut = None
    r.cut_card = None
    r.history = []
    r.score = None
    r.swept = 0
    r.leftover = 0
    r.void = False
    r.declarations = obs.declarations
    return r


def _determinize_cut(obs: Observation, rng: random.Random) -> Round:
    # Before the cut only the cutter knows a card: the top of the deck.
    rest = [c for c in range(40) if c != obs.cut_card]
    rng.shuffle(rest)
    deck = rest if obs.cut_card is None else [obs.cut_card, *rest]
    return Round(obs.rules, obs.seats, obs.teams, obs.dealer, deck)
