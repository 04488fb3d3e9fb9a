"""What one seat may know (docs/rules.md §2.7), built by one function: :func:`observe`.

Everything played is public: the table, every play and capture, how many cards
each hand holds, each pile and its chkobba markers, the stock's size, the score.
Hidden: the other hands and the order of the stock; during the cut only the
cutter sees the cut card. Agents, the web server and the RL environment receive
an :class:`Observation`, never the game, so nothing hidden can leak.
"""

from __future__ import annotations

from dataclasses import dataclass

from chkobba.fishing.cards import CARDS, FULL_DECK, cards_of, format_cards, sort_for_display
from chkobba.fishing.game import Phase, Round, Turn, wild_value
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Move
from chkobba.fishing.rules import RuleSet
from chkobba.fishing.scoring import Declaration


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may know at one moment of a match."""

    seat: int
    """The observing seat (or -1 for a spectator, who sees only what is public)."""
    seats: int
    teams: bool
    rules: RuleSet
    side_of: tuple[int, ...]
    phase: Phase
    turn: int
    """The seat to move."""
    dealer: int
    cutter: int
    round_number: int
    hand: int
    """The observer's own cards (a set); 0 for a spectator."""
    table: int
    cut_card: int | None
    """The cut card, shown to the cutter alone while the cut is being decided."""
    history: tuple[Turn, ...]
    """This round's public history: the cut decision and every play, in order."""
    piles: tuple[int, ...]
    """The cards each side has captured (public: every capture is seen)."""
    chkobba: tuple[int, ...]
    last_capturer: int | None
    """The side that captured last this round (it takes the table at the end)."""
    hand_sizes: tuple[int, ...]
    stock: int
    """How many cards are left to deal."""
    unseen: int
    """Cards the observer has not seen: other hands, the stock and any hidden cut card."""
    totals: tuple[int, ...]
    """Match points per side, finished rounds only."""
    target: int
    legal_moves: tuple[Move, ...]
    """The observer's legal moves if it is to move, else empty."""
    declarations: tuple[Declaration, ...] = ()
    """The hands declared this round (Cirulla): public, like the cards they showed."""
    shown: tuple[int, ...] = ()
    """Per seat, the cards a declaration showed that are still in that hand; empty
    when no hand was shown this round."""

    @property
    def side(self) -> int:
        """The observer's side (a spectator is given side -1)."""
        return self.side_of[self.seat] if self.seat >= 0 else -1

    @property
    def wild(self) -> int:
        """The value the wild 7♠ keeps for the rest of the round, or 0 (public, like the
        declaration that made it wild)."""
        return wild_value(self.rules, self.declarations)

    @property
    def sides(self) -> int:
        """How many sides there are."""
        return max(self.side_of) + 1

    @property
    def to_move(self) -> bool:
        """Whether the observer is to move."""
        return bool(self.legal_moves)

    @property
    def plays_left(self) -> int:
        """Cards still to be played in this round, the observer's included."""
        return sum(self.hand_sizes) + self.stock

    def describe(self) -> str:
        """A short readable rendering, for logs and debugging."""
        hand = " ".join(str(c) for c in sort_for_display(cards_of(self.hand)))
        lines = [
            f"seat {self.seat} (side {self.side}) round {self.round_number}, "
            f"seat {self.turn} to move",
            f"hand: {hand or '-'}",
            f"table: {format_cards(self.table, ' ') or '-'}",
            f"piles: {[p.bit_count() for p in self.piles]} "
            f"{self.rules.sweep_key or 'sweeps'}: {list(self.chkobba)}",
            f"stock: {self.stock} score: {list(self.totals)} / {self.target}",
        ]
        if self.cut_card is not None:
            lines.append(f"cut card: {CARDS[self.cut_card]}")
        for d in self.declarations:
            lines.append(
                f"seat {d.seat} declared {d.name} ({d.points}): {format_cards(d.cards, ' ')}"
            )
        if self.wild:
            lines.append(f"the 7s counts {self.wild} for the rest of the round")
        if any(self.shown):
            shown = ", ".join(
                f"seat {s} {format_cards(m, ' ')}" for s, m in enumerate(self.shown) if m
            )
            lines.append(f"shown in hand: {shown}")
        return "\n".join(lines)


def observe_round(
    r: Round, seat: int, totals: tuple[int, ...], round_number: int, target: int
) -> Observation:
    """The observation of one round for ``seat`` (-1: a spectator)."""
    hand = r.hands[seat] if seat >= 0 else 0
    piles = r.piles
    known = hand | r.table | r.leftover
    for p in piles:
        known |= p
    cut_card = None
    if r.phase is Phase.CUT and seat == r.cutter:
        cut_card = r.cut_card
    if cut_card is not None:
        known |= 1 << cut_card
    shown: tuple[int, ...] = ()
    if r.declarations:
        # A declared hand was shown to everyone: its cards are no longer unseen.
        shown = tuple(r.shown(s) for s in range(r.seats))
        for m in shown:
            known |= m
    legal = tuple(r.legal_moves()) if seat == r.turn else ()
    return Observation(
        seat=seat,
        seats=r.seats,
        teams=r.sides != r.seats,
        rules=r.rules,
        side_of=r.side_of,
        phase=r.phase,
        turn=r.turn,
        dealer=r.dealer,
        cutter=r.cutter,
        round_number=round_number,
        hand=hand,
        table=r.table,
        cut_card=cut_card,
        history=tuple(r.history),
        piles=tuple(piles),
        chkobba=tuple(r.chkobba),
        last_capturer=r.last_capturer,
        hand_sizes=tuple(h.bit_count() for h in r.hands),
        stock=r.stock if r.phase is not Phase.CUT else len(r.deck),
        unseen=FULL_DECK & ~known,
        totals=totals,
        target=target,
        legal_moves=legal,
        declarations=r.declarations,
        shown=shown,
    )


def observe(match: Match, seat: int) -> Observation:
    """What ``seat`` may know now (pass -1 for a spectator's public view)."""
    if not -1 <= seat < match.seats:
        raise ValueError(f"no seat {seat} in a {match.seats}-player match")
    # Once the match is over its last round is over too, so no seat has moves.
    return observe_round(
        match.round, seat, tuple(match.totals), match.round_number, match.rules.target
    )
