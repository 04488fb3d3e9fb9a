"""One round of Chkobba: the deal, legal moves, applying them, the end (docs/rules.md §2.2-2.5).

The same round plays every game of the Scopa family (docs/rules.md §3): the deal's
sizes, the void deal's ranks, the cut, the capture rules and the points are all
options of the :class:`~chkobba.fishing.rules.RuleSet`.

A :class:`Round` starts from a shuffled deck (the shuffle is the match's chance
move, see :mod:`chkobba.fishing.match`) and is then driven only by moves: the cutter's
:class:`~chkobba.fishing.moves.Cut` decision where the rules have one, then one
:class:`~chkobba.fishing.moves.Play` per turn. Everything is deterministic; nothing here
reads a clock, a file or a global random state.

Card sets are 40-bit masks (:mod:`chkobba.fishing.cards`). :meth:`Round.apply` checks a
move and explains why an illegal one is illegal; :meth:`Round.apply_unchecked`
skips the check for search, which only plays moves from :meth:`Round.legal_moves`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import NamedTuple

from chkobba.fishing.captures import WILD_SEVEN, captures, card_value, matches
from chkobba.fishing.cards import CARDS, RANKS, cards_of, format_cards, iter_bits, sort_for_display
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.rules import RuleSet
from chkobba.fishing.scoring import Declaration, RoundScore, declaration, has_rule, score_round

HAND_SIZE = 3
"""Chkobba's hand: 3 cards a deal (other games: the rule set's ``hand_size``)."""
TABLE_SIZE = 4
"""Chkobba's first table: 4 cards (other games: the rule set's ``table_size``)."""


class IllegalMove(ValueError):
    """A move that the rules do not allow now; the message says why."""


def seat_words(seat: int, possessive: bool) -> str:
    """A seat in a message: ``seat 2``, or ``seat 2's`` where it owns something."""
    return f"seat {seat}'s" if possessive else f"seat {seat}"


class DealError(ValueError):
    """A deck that cannot be dealt: not the 40 cards once each."""


class Phase(enum.Enum):
    """Where a round stands."""

    CUT = "cut"
    """The cutter must decide whether to keep or table the cut card."""
    PLAY = "play"
    """Players play cards in turn."""
    OVER = "over"
    """Every card is played and the round is scored."""


class Turn(NamedTuple):
    """One entry of a round's public history."""

    seat: int
    move: Move
    chkobba: bool
    """Whether this play swept the table and scored a chkobba point."""


PLAYER_COUNTS = (2, 3, 4, 6)
"""How many players a table may seat: 2, 3 or 4 (docs/rules.md §2.1), or 6 in the Scopa family
(scopa-wikipedia-fr.txt:11); only 4 may play in teams."""


def side_map(seats: int, teams: bool) -> tuple[int, ...]:
    """The side of each seat: partners sit opposite, so seats 0 and 2 form side 0."""
    return tuple(s % 2 for s in range(seats)) if teams else tuple(range(seats))


def check_seating(seats: int, teams: bool, rules: RuleSet | None = None) -> None:
    """Raise ``ValueError`` unless the seating is one docs/rules.md §2.1 allows
    (and, given ``rules``, one of the rule set's ``seatings``)."""
    if seats not in PLAYER_COUNTS:
        if rules is None:
            game, counts = "the game", "2, 3 or 4 players (the Scopa family also by 6)"
        else:
            game = "Chkobba" if rules.name == "chkobba" else rules.name
            counts = "2, 3, 4 or 6 players" if "6" in rules.seatings else "2, 3 or 4 players"
        raise ValueError(f"{game} is played by {counts}, not {seats}")
    if teams and seats != 4:
        raise ValueError("teams need 4 players (2 against 2)")
    if rules is not None and seating_name(seats, teams) not in rules.seatings:
        allowed = ", ".join(_SEATING_WORDS[s] for s in rules.seatings)
        raise ValueError(
            f"{rules.name} is played by {allowed}, not {_SEATING_WORDS[seating_name(seats, teams)]}"
        )


_SEATING_WORDS = {
    "2": "2 players",
    "3": "3 players",
    "4": "4 players each for themselves",
    "2v2": "4 players in two teams",
    "6": "6 players each for themselves",
}


def seating_name(seats: int, teams: bool) -> str:
    """The name of a table in a rule set's ``seatings``: ``2``, ``3``, ``4``, ``6`` or ``2v2``."""
    return "2v2" if teams else str(seats)


class Round:
    """The state of one round, from the deal to the score."""

    __slots__ = (
        "chkobba",
        "cut",
        "cut_card",
        "cutter",
        "dealer",
        "deck",
        "declarations",
        "hands",
        "history",
        "in_hands",
        "last_capturer",
        "leftover",
        "phase",
        "piles",
        "rules",
        "score",
        "seats",
        "shuffle",
        "side_of",
        "sides",
        "stock_pos",
        "swept",
        "table",
        "turn",
        "void",
        "wild",
    )

    rules: RuleSet
    seats: int
    sides: int
    side_of: tuple[int, ...]
    dealer: int
    cutter: int
    deck: tuple[int, ...]
    """The cards in the order they are dealt, top first; the stock is ``deck[stock_pos:]``.
    The shuffle itself unless a duplicate was put back under the stock (``distinct_table``)."""
    shuffle: tuple[int, ...]
    """The round's shuffle, top first, as the record holds it."""
    stock_pos: int
    hands: list[int]
    table: int
    piles: list[int]
    """Each side's captured cards."""
    chkobba: list[int]
    last_capturer: int | None
    """The side that captured last, which takes the table at the end."""
    in_hands: int
    turn: int
    phase: Phase
    cut: Cut | None
    cut_card: int | None
    history: list[Turn]
    score: RoundScore | None
    swept: int
    """Cards the last capturer took from the table at the end of the round."""
    leftover: int
    """Cards left on the table when nobody captured in the whole round."""
    void: bool
    """Whether the deal put too many cards of one rank on the table (§2.2): redeal."""
    declarations: tuple[Declaration, ...]
    """The hands declared at the deals so far (Cirulla), in order; public."""
    wild: int
    """The value the wild 7♠ keeps for the rest of the round (``wild_seven_keeps_value``),
    or 0 while it is a 7; public (:func:`wild_value`)."""

    def __init__(
        self, rules: RuleSet, seats: int, teams: bool, dealer: int, deck: Sequence[int]
    ) -> None:
        check_seating(seats, teams, rules)
        if not 0 <= dealer < seats:
            raise DealError(f"dealer must be a seat from 0 to {seats - 1}, not {dealer}")
        check_deck(deck)
        self.rules = rules
        self.seats = seats
        self.side_of = side_map(seats, teams)
        self.sides = max(self.side_of) + 1
        self.dealer = dealer
        self.cutter = (dealer + 1) % seats
        self.deck = self.shuffle = tuple(deck)
        self.stock_pos = 0
        self.hands = [0] * seats
        self.table = 0
        self.piles = [0] * self.sides
        self.chkobba = [0] * self.sides
        self.last_capturer = None
        self.in_hands = 0
        self.turn = self.cutter
        self.history = []
        self.score = None
        self.swept = 0
        self.leftover = 0
        self.cut = None
        self.cut_card = None
        self.void = False
        self.declarations = ()
        self.wild = 0
        if rules.cut_choice:
            self.phase = Phase.CUT
            self.cut_card = self.deck[0]
        else:
            # The dealer deals each player's cards from the seat after the dealer,
            # then the table (docs/records.md).
            self.phase = Phase.PLAY
            self._deal_hands(self.cutter)
            self._deal_table(rules.table_size)
            self._check_void()

    # -- dealing ---------------------------------------------------------------

    def _take(self, n: int) -> int:
        m = 0
        for c in self.deck[self.stock_pos : self.stock_pos + n]:
            m |= 1 << c
        self.stock_pos += n
        return m

    def _deal_hands(self, first: int, skip: int | None = None) -> None:
        size = self.rules.hand_size
        for i in range(self.seats):
            seat = (first + i) % self.seats
            if seat != skip:
                self.hands[seat] |= self._take(size)
        self.in_hands = sum(h.bit_count() for h in self.hands)
        if self.rules.declares:
            self._declare()

    def _declare(self) -> None:
        # Declaring is never a bad choice, so it is made for the player at once
        # [decided]: the hand is shown and the points are the side's.
        for i in range(self.seats):
            seat = (self.cutter + i) % self.seats
            found = declaration(self.hands[seat])
            if found is not None:
                name, points, wild = found
                d = Declaration(seat, name, points, self.hands[seat], wild, len(self.history))
                self.declarations = (*self.declarations, d)
        self.wild = wild_value(self.rules, self.declarations)

    def _deal_table(self, n: int) -> None:
        if not self.rules.distinct_table:
            self.table |= self._take(n)
            return
        # Chkop: a card whose rank is already on the table goes back under the
        # stock and the next card is dealt instead (docs/rules.md §3).
        order = list(self.deck)
        pos = self.stock_pos
        ranks = 0
        for c in iter_bits(self.table):
            ranks |= 1 << c % 10
        returned = 0
        while n and pos < len(order) and returned <= len(order) - pos:
            c = order[pos]
            if ranks >> c % 10 & 1:
                order.append(order.pop(pos))
                returned += 1
                continue
            ranks |= 1 << c % 10
            self.table |= 1 << c
            pos += 1
            n -= 1
        self.deck = tuple(order)
        self.stock_pos = pos
        if n:
            # Too few ranks left to complete the table: the deal cannot be made.
            self.void = True

    def _decide_cut(self, cut: Cut) -> None:
        self.cut = cut
        if cut is Cut.KEEP:
            # The cutter holds the cut card and gets two more, then the others
            # in playing order, ending with the dealer, then the table (§2.2).
            self.hands[self.cutter] = self._take(self.rules.hand_size)
            self._deal_hands((self.cutter + 1) % self.seats, skip=self.cutter)
            self._deal_table(self.rules.table_size)
        else:
            self._deal_table(self.rules.table_size)
            self._deal_hands(self.cutter)
        self.phase = Phase.PLAY
        self._check_void()

    def _check_void(self) -> None:
        counts = [0] * 10
        for c in iter_bits(self.table):
            counts[c % 10] += 1
        ranks = self.rules.void_deal_ranks
        limit = self.rules.void_deal_count
        if len(ranks) == len(RANKS):
            self.void = self.void or max(counts) >= limit
        else:
            self.void = self.void or any(
                n >= limit and RANKS[i] in ranks for i, n in enumerate(counts)
            )

    # -- queries ---------------------------------------------------------------

    @property
    def stock(self) -> int:
        """How many cards are left to deal."""
        return len(self.deck) - self.stock_pos

    @property
    def is_over(self) -> bool:
        """Whether the round has been played out and scored."""
        return self.phase is Phase.OVER

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, each capture choice separately."""
        if self.phase is not Phase.PLAY:
            return [Cut.KEEP, Cut.TABLE] if self.phase is Phase.CUT else []
        table = self.table
        rules = self.rules
        drop_ok = rules.may_drop_capturing_card
        wild = self.wild
        out: list[Move] = []
        hand = self.hands[self.turn]
        while hand:
            low = hand & -hand
            hand ^= low
            c = low.bit_length() - 1
            caps = captures(card_value(c, wild), table, rules, wild) if table else []
            for m in caps:
                out.append(Play(c, m))
            if drop_ok or not caps:
                out.append(Play(c, 0))
        return out

    def legal_plays(self) -> list[Play]:
        """The legal plays (no cut decision) of the seat to move."""
        return [m for m in self.legal_moves() if isinstance(m, Play)]

    # -- moves -----------------------------------------------------------------

    def apply(self, move: Move, seat: int | None = None) -> None:
        """Apply a move after checking it; raise :class:`IllegalMove` saying why not."""
        if seat is not None and seat != self.turn:
            raise IllegalMove(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if move not in self.legal_moves():
            raise IllegalMove(self.explain_illegal(move))
        self.apply_unchecked(move)

    def apply_unchecked(self, move: Move) -> None:
        """Apply a move known to be legal (from :meth:`legal_moves`)."""
        if type(move) is not Play:
            self.history.append(Turn(self.turn, move, False))
            self._decide_cut(move)  # type: ignore[arg-type]
            return
        card, cap = move
        seat = self.turn
        side = self.side_of[seat]
        bit = 1 << card
        self.hands[seat] ^= bit
        self.in_hands -= 1
        last_play = self.in_hands == 0 and self.stock_pos == len(self.deck)
        sweep = False
        if cap:
            table = self.table ^ cap
            self.table = table
            self.piles[side] |= cap | bit
            self.last_capturer = side
            # No chkobba on the last play of the round (§2.4), nor where the rules
            # give a sweep no point (an ace taking the table, Scopa Frac).
            if table == 0 and not last_play and not self.rules.no_sweep >> card & 1:
                self.chkobba[side] += 1
                sweep = True
        else:
            self.table |= bit
        self.history.append(Turn(seat, move, sweep))
        self.turn = (seat + 1) % self.seats
        if self.in_hands == 0:
            if last_play:
                self._finish()
            else:
                # The dealer deals again from the cutter on; play goes on with
                # the seat after the one who played last (§2.2).
                self._deal_hands(self.cutter)

    def _finish(self) -> None:
        if self.last_capturer is None:
            self.leftover = self.table
        else:
            self.swept = self.table
            self.piles[self.last_capturer] |= self.table
        self.table = 0
        self.phase = Phase.OVER
        rules = self.rules
        seat_piles = None
        if self.sides != self.seats and has_rule(rules.scoring, "ponino"):
            seat_piles = self.seat_piles()
        self.score = score_round(
            self.piles,
            self.chkobba,
            rules,
            seat_piles=seat_piles,
            side_of=self.side_of,
            declared=self.declared() if self.declarations else None,
        )

    def seat_piles(self) -> list[int]:
        """The cards each player (not each side) has captured, from the history."""
        piles = [0] * self.seats
        last = None
        for t in self.history:
            m = t.move
            if type(m) is Play and m.capture:
                piles[t.seat] |= m.capture | 1 << m.card
                last = t.seat
        if last is not None:
            piles[last] |= self.swept
        return piles

    def declared(self) -> list[int]:
        """Each side's declaration points so far (Cirulla)."""
        pts = [0] * self.sides
        for d in self.declarations:
            pts[self.side_of[d.seat]] += d.points
        return pts

    def shown(self, seat: int) -> int:
        """The cards of ``seat``'s hand that a declaration showed to everyone."""
        m = 0
        for d in self.declarations:
            if d.seat == seat:
                m |= d.cards
        return m & self.hands[seat]

    def explain_illegal(self, move: Move, who: Callable[[int, bool], str] = seat_words) -> str:
        """Why ``move`` is not legal now (for an illegal move).

        ``who(seat, possessive)`` names the seats, as :func:`seat_words` does by
        default (a terminal game says ``you`` and ``your``).
        """
        if self.phase is Phase.OVER:
            return "the round is over"
        if self.phase is Phase.CUT:
            if isinstance(move, Cut):
                return f"{move} is legal"
            return f"{who(self.cutter, False)} must first decide the cut: keep or table"
        if isinstance(move, Cut):
            return f"there is no cut to decide now: it is {who(self.turn, True)} play"
        card, cap = move
        if not 0 <= card < 40 or not 0 <= cap < 1 << 40:
            return f"Play({card}, {cap}) names no card: cards are numbered 0 to 39"
        name = CARDS[card]
        if not self.hands[self.turn] >> card & 1:
            return f"{name} is not in {who(self.turn, True)} hand"
        legal = self._captures_of(card)
        if not cap:
            if legal:
                return f"{name} cannot be laid on the table: it captures {format_cards(legal[0])}"
            return f"{name} may be laid"
        missing = cap & ~self.table
        if missing:
            return (
                f"{name} cannot capture {format_cards(cap)}: "
                f"{format_cards(missing)} {'is' if missing.bit_count() == 1 else 'are'} "
                "not on the table"
            )
        return self._explain_capture(card, cap, legal)

    def _captures_of(self, card: int) -> list[int]:
        wild = self.wild
        return captures(card_value(card, wild), self.table, self.rules, wild) if self.table else []

    def _explain_capture(self, card: int, cap: int, legal: list[int]) -> str:
        """Why capturing ``cap`` (all on the table) with ``card`` is not one of ``legal``."""
        rules = self.rules
        name = CARDS[card]
        wild = self.wild
        v = card_value(card, wild)
        if rules.ace_takes_all and v == 1:
            return f"{name} is an ace: it takes the whole table ({format_cards(self.table)})"
        if cap in legal:
            return f"{Play(card, cap)} is legal"
        values = [card_value(c, wild) for c in sort_for_display(cards_of(cap))]
        n = len(values)
        total = sum(values)
        options = f"; {name} may take {_alternatives(legal)}" if legal else ""
        same = matches(v, self.table, wild)
        if rules.capture_match and n > 1 and all(w == v for w in values):
            return (
                f"{name} must capture a single {RANKS[v - 1]} ({_names(same)}): "
                "a card takes one card of its own value"
            )
        by_value = rules.capture_match if n == 1 else rules.capture_sum
        by_total = rules.capture_total > v and total + v == rules.capture_total
        if not (by_value and total == v) and not by_total:
            wants = [str(v)] if by_value else []
            if rules.capture_total > v:
                wants.append(f"{rules.capture_total - v} (to make {rules.capture_total} with it)")
            what = f"it is worth {total}" if n == 1 else "+".join(map(str, values)) + f" = {total}"
            if not wants:
                return f"{name} cannot capture {n} cards: it takes a single card{options}"
            return (
                f"{name} cannot capture {format_cards(cap)}: {what}, not {' or '.join(wants)}"
                + (options)
            )
        limit = rules.max_capture_cards
        if limit and n > limit:
            return (
                f"{name} cannot capture {format_cards(cap)}: a capture takes at most {limit} "
                f"cards{options}"
            )
        if not by_total and n > 1 and same and rules.capture_match and rules.matching_priority:
            return (
                f"{name} must capture a single {RANKS[v - 1]} ({_names(same)}): "
                "matching has priority over addition"
            )
        if rules.fewest_cards and legal:
            least = min(m.bit_count() for m in legal)
            if n > least:
                best = next(m for m in legal if m.bit_count() == least)
                return (
                    f"{name} cannot capture {format_cards(cap)}: it must take the fewest cards: "
                    f"{Play(card, best)} takes {least}"
                )
        return f"{Play(card, cap)} is not a legal play now"

    # -- copying and accounting ------------------------------------------------

    @staticmethod
    def in_play(
        rules: RuleSet,
        side_of: tuple[int, ...],
        dealer: int,
        stock: Sequence[int],
        hands: Sequence[int],
        table: int,
        piles: Sequence[int],
        chkobba: Sequence[int],
        last_capturer: int | None,
        turn: int,
        declarations: tuple[Declaration, ...] = (),
    ) -> Round:
        """A round in the play phase rebuilt from its parts, the stock in deal order.

        For search, which samples the hidden cards: no history, and the cards
        already dealt are not part of the deck. The caller vouches that the
        parts are consistent.
        """
        r = Round.__new__(Round)
        r.rules = rules
        r.seats = len(side_of)
        r.side_of = side_of
        r.sides = max(side_of) + 1
        r.dealer = dealer
        r.cutter = (dealer + 1) % r.seats
        r.deck = r.shuffle = tuple(stock)
        r.stock_pos = 0
        r.hands = list(hands)
        r.table = table
        r.piles = list(piles)
        r.chkobba = list(chkobba)
        r.last_capturer = last_capturer
        r.in_hands = sum(h.bit_count() for h in hands)
        r.turn = turn
        r.phase = Phase.PLAY
        r.cut = None
        r.cut_card = None
        r.history = []
        r.score = None
        r.swept = 0
        r.leftover = 0
        r.void = False
        r.declarations = declarations
        r.wild = wild_value(rules, declarations)
        return r

    def copy(self) -> Round:
        """An independent copy, cheap enough for search."""
        r = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(r, name, getattr(self, name))
        r.hands = self.hands[:]
        r.piles = self.piles[:]
        r.chkobba = self.chkobba[:]
        r.history = self.history[:]
        return r

    def stock_mask(self) -> int:
        """The cards not yet dealt, as a set."""
        m = 0
        for c in self.deck[self.stock_pos :]:
            m |= 1 << c
        return m

    def plays(self) -> list[Play]:
        """The plays of the round so far, in order (the cut decision left out)."""
        return [t.move for t in self.history if isinstance(t.move, Play)]


def wild_value(rules: RuleSet, declarations: Sequence[Declaration]) -> int:
    """The value the 7♠ keeps for the rest of the round once a declaration made it wild
    (``wild_seven_keeps_value``, scopa-wikipedia-fr.txt:83), or 0: it is a 7."""
    if not rules.wild_seven_keeps_value:
        return 0
    for d in declarations:
        if d.wild and d.cards >> WILD_SEVEN & 1:
            return d.wild
    return 0


def _names(cards: int) -> str:
    return ", ".join(str(CARDS[c]) for c in iter_bits(cards))


def _alternatives(legal: Sequence[int]) -> str:
    shown = " or ".join(format_cards(m) for m in legal[:4])
    return shown + (" …" if len(legal) > 4 else "")


def check_deck(deck: Sequence[int]) -> None:
    """Raise :class:`DealError` unless ``deck`` holds each of the 40 cards once."""
    if len(deck) != 40:
        raise DealError(f"a deck has 40 cards, this one has {len(deck)}")
    seen = 0
    for c in deck:
        if not 0 <= c < 40:
            raise DealError(f"{c!r} is not a card number")
        if seen >> c & 1:
            raise DealError(f"{CARDS[c]} appears twice in the deck")
        seen |= 1 << c
