"""What one seat may know in a game of Touti, built by one function: :func:`observe`.

Public: every bid and call (parlé: every question and its answer, said aloud
at the table), the declarer and trumps, every card played to every
trick and who won it, the announcements (the two cards of an announced pair are
shown, so they are known to be in the announcer's hand until played), how many
cards each hand holds, the score. Hidden: the other three hands. Agents, the
terminal game and any server receive a :class:`ToutiObservation`, never the deal.

What the public plays imply is computed here once for every player, so a search
samples only deals that agree with it: a player who did not follow suit is void
in it; one who followed low did not hold a card that beats the trick; one who
did not trump (or over-trump) held no trump (or no higher one).
"""

from __future__ import annotations

from dataclasses import dataclass

from chkobba.fishing.cards import FULL_DECK, format_cards
from chkobba.touti.cards import BEATS, PAIRS, SUIT_MASKS
from chkobba.touti.deal import (
    SEATS,
    Announcement,
    Deal,
    Phase,
    Trick,
    team_of,
    trick_winner_index,
)
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import Tell, ToutiMove
from chkobba.touti.rules import ToutiRules


@dataclass(frozen=True, slots=True)
class ToutiObservation:
    """Everything one seat may know at one moment of a game of Touti."""

    seat: int
    """The observing seat, or -1 for a spectator (who sees only what is public)."""
    rules: ToutiRules
    dealer: int
    deal_number: int
    """1 for the match's first deal."""
    phase: Phase
    turn: int
    hand: int
    """The observer's own cards (0 for a spectator)."""
    history: tuple[tuple[int, ToutiMove], ...]
    """Every move of the deal, with its seat (all public)."""
    bid: int
    high_bidder: int | None
    declarer: int | None
    trump: int | None
    leader: int
    """The seat that led the trick in progress."""
    current: tuple[int, ...]
    """The cards of the trick in progress, in the order played."""
    tricks: tuple[Trick, ...]
    announcements: tuple[Announcement, ...]
    played: int
    """Every card played to a trick so far."""
    hand_sizes: tuple[int, ...]
    excluded: tuple[int, ...]
    """Per seat, cards the public play shows that seat cannot hold."""
    known: tuple[int, ...]
    """Per seat, cards known to be in that hand: announced pairs not yet played."""
    totals: tuple[int, int]
    target: int
    legal_moves: tuple[ToutiMove, ...]

    @property
    def unseen(self) -> int:
        """Cards the observer has not seen: the other hands."""
        return FULL_DECK & ~self.hand & ~self.played

    @property
    def answers(self) -> tuple[tuple[int, Tell], ...]:
        """Parlé: every answer given aloud this deal, with the seat that gave it."""
        return tuple((s, m) for s, m in self.history if isinstance(m, Tell))

    @property
    def team(self) -> int:
        """The observer's team."""
        return team_of(self.seat)

    @property
    def declarer_team(self) -> int | None:
        """The declarer's team, once known."""
        return None if self.declarer is None else team_of(self.declarer)

    def render(self) -> str:
        """A readable summary (for playthroughs and debugging)."""
        parts = [
            f"seat {self.seat} phase {self.phase.value} turn {self.turn}",
            f"hand {format_cards(self.hand)}",
            f"bid {self.bid} declarer {self.declarer} trump {self.trump}",
            f"trick {' '.join(format_cards(1 << c) for c in self.current)}",
            f"tricks {len(self.tricks)} sizes {list(self.hand_sizes)}",
            "cantos " + " ".join(f"{a.seat}:{'shdc'[a.suit]}" for a in self.announcements),
        ]
        return "; ".join(parts)


def observe(match: ToutiMatch, seat: int) -> ToutiObservation:
    """What ``seat`` (0-3, or -1 for a spectator) may know now."""
    return observe_deal(
        match.deal,
        seat,
        totals=(match.totals[0], match.totals[1]),
        deal_number=len(match.finished) + (0 if match.deal in match.finished else 1),
    )


def observe_deal(
    deal: Deal, seat: int, totals: tuple[int, int] = (0, 0), deal_number: int = 1
) -> ToutiObservation:
    """What ``seat`` may know of one deal (the match totals given by the caller)."""
    if not -1 <= seat < SEATS:
        raise ValueError(f"no seat {seat}: seats are 0 to 3, or -1 for a spectator")
    mine = seat >= 0 and deal.turn == seat and not deal.is_over
    return ToutiObservation(
        seat=seat,
        rules=deal.rules,
        dealer=deal.dealer,
        deal_number=deal_number,
        phase=deal.phase,
        turn=deal.turn,
        hand=deal.hands[seat] if seat >= 0 else 0,
        history=tuple(deal.history),
        bid=deal.bid,
        high_bidder=deal.high_bidder,
        declarer=deal.declarer,
        trump=deal.trump,
        leader=deal.leader,
        current=tuple(deal.current),
        tricks=tuple(deal.tricks),
        announcements=tuple(deal.announcements),
        played=deal.played,
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        excluded=inferred_exclusions(deal.tricks, deal.leader, deal.current, deal.trump,
                                     deal.rules.kaddour),
        known=_known(deal),
        totals=totals,
        target=deal.rules.target,
        legal_moves=tuple(deal.legal_moves()) if mine else (),
    )


def _known(deal: Deal) -> tuple[int, ...]:
    known = [0] * SEATS
    for a in deal.announcements:
        known[a.seat] |= PAIRS[a.suit] & ~deal.played
    return tuple(known)


def inferred_exclusions(
    tricks: tuple[Trick, ...] | list[Trick],
    leader: int,
    current: tuple[int, ...] | list[int],
    trump: int | None,
    kaddour: bool,
) -> tuple[int, ...]:
    """Per seat, the cards the public plays prove it did not hold (so does not hold now)."""
    ex = [0] * SEATS
    seqs = [(t.leader, t.cards) for t in tricks]
    if current:
        seqs.append((leader, tuple(current)))
    for lead_seat, cards in seqs:
        led = cards[0] // 10
        for i in range(1, len(cards)):
            c = cards[i]
            seat = (lead_seat + i) % SEATS
            b = cards[trick_winner_index(cards[:i], trump)]
            if c // 10 == led:
                if b // 10 == led and not BEATS[b] >> c & 1:
                    ex[seat] |= BEATS[b]
                continue
            ex[seat] |= SUIT_MASKS[led]
            if trump is None:
                continue
            if c // 10 == trump:
                if b // 10 == trump and not BEATS[b] >> c & 1:
                    ex[seat] |= BEATS[b]
            elif b // 10 == trump and kaddour:
                ex[seat] |= SUIT_MASKS[trump] & BEATS[b]
            else:
                ex[seat] |= SUIT_MASKS[trump]
    return tuple(ex)
