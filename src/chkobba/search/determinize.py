"""Deals consistent with what a seat knows: the search's view of the hidden cards.

A *determinization* fills the other hands and the stock with the observer's
unseen cards, uniformly at random, keeping every public fact: hand sizes, the
table, the piles, the chkobba counts, the last capturer. Only the stock's
remaining cards are stored in the sampled round's deck; the cards already dealt
do not matter for what follows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chkobba.fishing.cards import cards_of
from chkobba.fishing.game import Phase, Round
from chkobba.fishing.observe import Observation


def determinize(
    obs: Observation, rng: random.Random, known: Sequence[int] | None = None
) -> Round:
    """A full round state drawn uniformly among those consistent with ``obs``.

    ``known`` (one card set per seat, 0 for a hidden hand) gives other seats'
    hands that the caller is let see: a measurement's peeking player
    (:mod:`chkobba.agents.cheater`). They are kept, and only the rest is drawn.
    """
    if obs.phase is Phase.CUT:
        if known is not None:
            raise ValueError("known hands are for the play, not the cut")
        return _determinize_cut(obs, rng)
    fixed = check_known(obs, known)
    unseen = cards_of(obs.unseen & ~fixed)
    rng.shuffle(unseen)
    hands = [0] * obs.seats
    for seat, m in enumerate(obs.shown):
        hands[seat] = m  # cards a declaration showed (Cirulla) stay where they are
    hands[obs.seat] = obs.hand
    pos = 0
    for seat, size in enumerate(obs.hand_sizes):
        if known is not None and known[seat]:
            hands[seat] = known[seat]
        elif seat != obs.seat:
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


def check_known(obs: Observation, known: Sequence[int] | None) -> int:
    """The unseen cards of the ``known`` hands, after checking each is a whole hand of
    another seat, made of unseen cards and the cards it has shown (Cirulla)."""
    if known is None:
        return 0
    if len(known) != obs.seats:
        raise ValueError(f"known must hold {obs.seats} entries, not {len(known)}")
    fixed = 0
    for seat, m in enumerate(known):
        if not m:
            continue
        shown = obs.shown[seat] if obs.shown else 0
        if (
            seat == obs.seat
            or m & ~(obs.unseen | shown)
            or m & fixed
            or m & shown != shown
            or m.bit_count() != obs.hand_sizes[seat]
        ):
            raise ValueError(
                f"known hand of seat {seat} must be {obs.hand_sizes[seat]} unseen cards "
                "of another seat"
            )
        fixed |= m & obs.unseen
    return fixed
