"""Helpers for the Touti tests: deals with chosen hands, moves by text."""

from __future__ import annotations

from chkobba.fishing.cards import Card, cards_of, parse_cards
from chkobba.touti.deal import Deal
from chkobba.touti.moves import parse_move
from chkobba.touti.rules import DEFAULT, ToutiRules


def deck_for(hands: list[str], dealer: int) -> list[int]:
    """The deck that deals ``hands`` (10 cards each, ``+``-separated) from ``dealer``."""
    cards = [[Card(c) for c in cards_of(parse_cards(h))] for h in hands]
    assert all(len(h) == 10 for h in cards), [len(h) for h in cards]
    deck: list[int] = []
    for packet in range(2):
        for k in range(1, 5):
            seat = (dealer + k) % 4
            deck.extend(cards[seat][5 * packet : 5 * packet + 5])
    return deck


def make_deal(hands: list[str], dealer: int = 3, rules: ToutiRules = DEFAULT) -> Deal:
    """A deal whose four hands are ``hands`` (seat 0 first)."""
    return Deal(dealer, deck_for(hands, dealer), rules)


def play(d: Deal, *moves: str) -> None:
    """Apply moves given in the notation, each checked."""
    for m in moves:
        d.apply(parse_move(m))


def texts(d: Deal) -> list[str]:
    """The legal moves in the notation."""
    return [str(m) for m in d.legal_moves()]


# Four hands used by many cases. Dealer 3, so seat 0 bids and leads first.
# Seat 0 holds every spade but the 2 and the ace of hearts; the others one suit each.
H0 = "As+3s+Ks+Js+Qs+7s+6s+5s+4s+Ah"
H1 = "2s+3h+Kh+Jh+Qh+7h+6h+5h+4h+2h"
H2 = "Ad+3d+Kd+Jd+Qd+7d+6d+5d+4d+2d"
H3 = "Ac+3c+Kc+Jc+Qc+7c+6c+5c+4c+2c"
