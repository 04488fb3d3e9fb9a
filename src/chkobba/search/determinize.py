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
    return Round.in_play(
        obs.rules,
        obs.side_of,
        obs.dealer,
        unseen[pos:],
        hands,
        obs.table,
        obs.piles,
        obs.chkobba,
        obs.last_capturer,
        obs.turn,
        obs.declarations,
    )


def _determinize_cut(obs: Observation, rng: random.Random) -> Round:
    # Before the cut only the cutter knows a card: the top of the deck.
    rest = [c for c in range(40) if c != obs.cut_card]
    rng.shuffle(rest)
    deck = rest if obs.cut_card is None else [obs.cut_card, *rest]
    return Round(obs.rules, obs.seats, obs.teams, obs.dealer, deck)
