"""One deal of Touti: the deal in fives, the bidding, trumps, ten tricks, announcements
(docs/rules.md §4).

A :class:`Deal` starts from a shuffled deck and a dealer and is then driven only
by moves (:mod:`chkobba.touti.moves`). It is deterministic and pure: no clock,
no file, no global random state. :meth:`Deal.apply` checks a move and says why
an illegal one is illegal; :meth:`Deal.apply_unchecked` skips the check for
search, which only plays moves from :meth:`Deal.legal_moves`.

Seats are numbered in playing order (counter-clockwise at a real table); the
partners sit opposite, so team 0 is seats 0 and 2, team 1 seats 1 and 3.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import NamedTuple

from chkobba.fishing.cards import CARDS, SUITS, cards_of, format_cards
from chkobba.touti.cards import (
    ACE_MASK,
    BEATS,
    CARD_POINTS,
    LAST_TRICK_BONUS,
    PAIRS,
    STRENGTH,
    SUIT_MASKS,
    card_points,
    pair_mask,
    suit_name,
)
from chkobba.touti.moves import (
    BID_STEP,
    MAX_BID,
    MIN_BID,
    Ask,
    Bid,
    Call,
    Canto,
    CardPlay,
    Tell,
    ToutiMove,
    Trump,
)
from chkobba.touti.parle import TOPICS, answer, format_answer
from chkobba.touti.rules import DEFAULT, ToutiRules
from chkobba.touti.scoring import DealScore, score_deal

SEATS = 4
HAND_SIZE = 10
TRICKS = 10
PACKET = 5
"""The deal goes round twice, five cards at a time (docs/rules.md §4)."""
CLAIM_TRICKS = 5
"""A claim (book §2.5.6: "en fin de partie") may be made when at most this many tricks remain."""

def team_of(seat: int) -> int:
    """The team of a seat: partners sit opposite."""
    return seat % 2


def canto_value(suit: int, trump: int | None) -> int:
    """An announcement's points: 40 in trumps, 20 in another suit (docs/rules.md §4)."""
    return 40 if suit == trump else 20


class IllegalMove(ValueError):
    """A move the rules do not allow now; the message says why."""


class DealError(ValueError):
    """A deck or dealer that cannot start a deal."""


class Phase(enum.Enum):
    """Where a deal stands."""

    BID = "bid"
    ANSWER = "answer"
    """Parlé: the partner of the seat that asked answers its question."""
    TRUMP = "trump"
    """The declarer names trumps."""
    PLAY = "play"
    CANTO = "canto"
    """The declarer's team has won a trick and may announce."""
    OVER = "over"


class Trick(NamedTuple):
    """A finished trick: who led, the cards in the order played, who won it."""

    leader: int
    cards: tuple[int, ...]
    winner: int

    def seat_of(self, i: int) -> int:
        """The seat that played the ``i``-th card of the trick."""
        return (self.leader + i) % SEATS


class Announcement(NamedTuple):
    """A canto: who announced which suit's pair, after which trick (0-based)."""

    seat: int
    suit: int
    trick: int


def deal_hands(deck: Sequence[int], dealer: int) -> list[int]:
    """The four hands: five cards at a time, twice round, from the seat after the dealer."""
    hands = [0] * SEATS
    pos = 0
    for _ in range(HAND_SIZE // PACKET):
        for k in range(1, SEATS + 1):
            seat = (dealer + k) % SEATS
            for c in deck[pos : pos + PACKET]:
                hands[seat] |= 1 << c
            pos += PACKET
    return hands


def check_deck(deck: Sequence[int]) -> None:
    """Raise :class:`DealError` unless ``deck`` holds the 40 cards once each."""
    seen = 0
    for c in deck:
        if not isinstance(c, int) or not 0 <= c < 40:
            raise DealError(f"a deck holds card numbers 0 to 39, not {c!r}")
        if seen >> c & 1:
            raise DealError(f"the deck holds {CARDS[c]} twice")
        seen |= 1 << c
    if len(deck) != 40 or seen != (1 << 40) - 1:
        raise DealError(f"a deck holds the 40 cards once each, not {len(deck)} cards")


class Deal:
    """The state of one deal, from the bidding to the score."""

    __slots__ = (
        "alla",
        "announcements",
        "asked",
        "asked_now",
        "bid",
        "bids_made",
        "canto_stage",
        "claimed",
        "claims",
        "current",
        "dealer",
        "deck",
        "declarer",
        "hands",
        "high_bidder",
        "history",
        "leader",
        "macharich",
        "mute",
        "out",
        "phase",
        "played",
        "question",
        "redeal",
        "rules",
        "score",
        "spoken",
        "tricks",
        "trump",
        "turn",
        "won",
        "zadtak",
    )

    rules: ToutiRules
    dealer: int
    deck: tuple[int, ...]
    """The shuffle, top first, as the record holds it."""
    hands: list[int]
    phase: Phase
    turn: int
    history: list[tuple[int, ToutiMove]]
    """Every move of the deal with its seat, in order (all of it public)."""
    bid: int
    """The highest bid so far (0 before any)."""
    high_bidder: int | None
    declarer: int | None
    """The seat that won the bidding, once it is over."""
    trump: int | None
    out: int
    """Seats (bit per seat) that may no longer bid."""
    mute: int
    """Seats that passed outright and no longer speak (semi-parlé signals keep speaking)."""
    spoken: int
    """Seats that have spoken at least once."""
    alla: list[int]
    macharich: list[int]
    bids_made: list[int]
    """How many bids each seat has made (a zadtak counts as one)."""
    zadtak: tuple[int, int] | None
    """Semi-parlé, after a *zadtak* until it is met or lifted: the partner obliged to
    bid, and the least it must bid (its first bid plus 20)."""
    asked: list[int]
    """Parlé: per seat, the topics (bit per index in ``TOPICS``) it has asked about."""
    question: tuple[int, str] | None
    """Parlé, in the answer phase: the seat that asked and its topic."""
    asked_now: bool
    """Parlé: the seat to speak has asked its question this turn (it now bids or passes)."""
    redeal: bool
    """The bidding ended without a contract: four passes, or a redeal call."""
    current: list[int]
    """The cards of the trick in progress, in the order played."""
    leader: int
    """The seat that led the trick in progress."""
    tricks: list[Trick]
    won: list[int]
    """The cards each team has taken in tricks."""
    played: int
    """Every card played to a trick so far (the current trick included)."""
    announcements: list[Announcement]
    canto_stage: int
    """In the canto phase: 0 while the trick's winner decides, 1 for the partner."""
    claims: int
    """Seats that have claimed this deal (one claim each)."""
    claimed: tuple[int, bool] | None
    """A claim that ended the deal: the claimer and whether it was right."""
    score: DealScore | None

    def __init__(self, dealer: int, deck: Sequence[int], rules: ToutiRules = DEFAULT) -> None:
        if type(dealer) is not int or not 0 <= dealer < SEATS:
            raise DealError(f"the dealer must be a seat from 0 to 3, not {dealer!r}")
        check_deck(deck)
        self.rules = rules
        self.dealer = dealer
        self.deck = tuple(deck)
        self.hands = deal_hands(deck, dealer)
        self.phase = Phase.BID
        self.turn = (dealer + 1) % SEATS
        self.history = []
        self.bid = 0
        self.high_bidder = None
        self.declarer = None
        self.trump = None
        self.out = 0
        self.mute = 0
        self.spoken = 0
        self.alla = [0] * SEATS
        self.macharich = [0] * SEATS
        self.bids_made = [0] * SEATS
        self.zadtak = None
        self.asked = [0] * SEATS
        self.question = None
        self.asked_now = False
        self.redeal = False
        self.current = []
        self.leader = (dealer + 1) % SEATS
        self.tricks = []
        self.won = [0, 0]
        self.played = 0
        self.announcements = []
        self.canto_stage = 0
        self.claims = 0
        self.claimed = None
        self.score = None

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search."""
        d = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(d, name, getattr(self, name))
        d.hands = list(self.hands)
        d.history = list(self.history)
        d.alla = list(self.alla)
        d.macharich = list(self.macharich)
        d.bids_made = list(self.bids_made)
        d.asked = list(self.asked)
        d.current = list(self.current)
        d.tricks = list(self.tricks)
        d.won = list(self.won)
        d.announcements = list(self.announcements)
        return d

    # -- queries ---------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the deal is finished (scored, or ended without a contract)."""
        return self.phase is Phase.OVER

    @property
    def redeal_asked(self) -> bool:
        """Whether the deal ended on a player's redeal call (not on four passes)."""
        return self.redeal and self.history[-1][1] is Call.REDEAL

    @property
    def declarer_team(self) -> int | None:
        """The declarer's team, once the bidding is over."""
        return None if self.declarer is None else team_of(self.declarer)

    @property
    def initial_hands(self) -> list[int]:
        """The four hands as dealt."""
        return deal_hands(self.deck, self.dealer)

    def winning_index(self) -> int:
        """Which card of the trick in progress wins it so far (the trick must not be empty)."""
        return trick_winner_index(self.current, self.trump)

    def canto_points(self, team: int) -> int:
        """The announcement points of a team (only the declarer's team announces)."""
        return sum(
            canto_value(a.suit, self.trump) for a in self.announcements if team_of(a.seat) == team
        )

    def legal_moves(self) -> list[ToutiMove]:
        """Every legal move of the seat to move, in a fixed order (empty once over)."""
        phase = self.phase
        if phase is Phase.PLAY:
            moves: list[ToutiMove] = [CardPlay(c) for c in _bits(self.legal_cards())]
            if self._may_claim():
                moves.append(Call.CLAIM)
            return moves
        if phase is Phase.BID:
            return self._bid_moves()
        if phase is Phase.ANSWER:
            return [self._true_answer()]
        if phase is Phase.TRUMP:
            return [Trump(s) for s in range(4) if self._trump_ok(s)]
        if phase is Phase.CANTO:
            hand = self.hands[self.turn]
            sung = self._sung()
            out: list[ToutiMove] = [
                Canto(s) for s in range(4) if hand & PAIRS[s] == PAIRS[s] and not sung >> s & 1
            ]
            out.append(Call.NO_CANTO)
            return out
        return []

    def legal_cards(self) -> int:
        """The cards the seat to move may play to the trick (docs/rules.md §4, Play)."""
        return legal_cards(
            self.hands[self.turn], self.current, self.trump, self.rules.kaddour
        )

    def _bid_moves(self) -> list[ToutiMove]:
        seat = self.turn
        z = self.zadtak
        if z is not None and z[0] == seat:
            # Forced by the partner's zadtak: a bid of at least z[1], nothing else.
            return [Bid(a) for a in range(z[1], MAX_BID + 1, BID_STEP)]
        moves: list[ToutiMove] = []
        if not self.out >> seat & 1:
            low = self._lowest_bid()
            moves.extend(Bid(a) for a in range(low, MAX_BID + 1, BID_STEP))
        moves.append(Call.PASS)
        talk = self.rules.talk
        if talk == "semi":
            hand = self.hands[seat]
            if (hand & ACE_MASK).bit_count() > self.alla[seat]:
                moves.append(Call.ALLA)
            if _pairs_in(hand) > self.macharich[seat]:
                moves.append(Call.MACHARICH)
            if self._may_zadtak(seat):
                moves.append(Call.ZADTAK)
        elif talk == "parle" and not self.asked_now:
            moves.extend(
                Ask(t) for i, t in enumerate(TOPICS) if not self.asked[seat] >> i & 1
            )
        if self._may_redeal(seat):
            moves.append(Call.REDEAL)
        return moves

    def _lowest_bid(self) -> int:
        low = max(MIN_BID, self.bid + BID_STEP)
        if self.zadtak is not None:
            # Book §2.1.2a NB: after a zadtak on 100, the opponent may only bid above 120.
            low = max(low, self.zadtak[1] + BID_STEP)
        return low

    def _may_zadtak(self, seat: int) -> bool:
        # Zadtak raises the partner's first bid while it is the highest, by 10, and
        # obliges the partner to bid 20 more than it: possible up to 210.
        partner = (seat + 2) % SEATS
        return (
            not self.out >> seat & 1
            and self.zadtak is None
            and self.high_bidder == partner
            and self.bids_made[partner] == 1
            and self.bid + 2 * BID_STEP <= MAX_BID
        )

    def _true_answer(self) -> Tell:
        assert self.question is not None
        topic = self.question[1]
        return Tell(topic, answer(self.hands[self.turn], topic))

    def _may_redeal(self, seat: int) -> bool:
        return (
            self.rules.zero_point_redeal
            and not self.spoken >> seat & 1
            and card_points(self.hands[seat]) == 0
        )

    def _trump_ok(self, suit: int) -> bool:
        assert self.declarer is not None
        held = (self.hands[self.declarer] & SUIT_MASKS[suit]).bit_count()
        return held >= self.rules.min_trump_length

    def _may_claim(self) -> bool:
        return (
            self.rules.claim != "off"
            and not self.current
            and len(self.tricks) >= TRICKS - CLAIM_TRICKS
            and not self.claims >> self.turn & 1
        )

    def _sung(self) -> int:
        m = 0
        for a in self.announcements:
            m |= 1 << a.suit
        return m

    # -- applying moves --------------------------------------------------------

    def apply(self, move: ToutiMove) -> None:
        """Play ``move`` for the seat to move; raise :class:`IllegalMove` saying why not."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMove(reason)
        self.apply_unchecked(move)

    def why_illegal(self, move: ToutiMove) -> str | None:
        """Why ``move`` is illegal now, or None if it is legal."""
        if self.phase is Phase.OVER:
            return "the deal is over"
        # Compared with their types: a move is a small tuple, and Trump(2) == CardPlay(2).
        if any(type(m) is type(move) and m == move for m in self.legal_moves()):
            return None
        phase = self.phase
        who = f"seat {self.turn}"
        if phase is Phase.BID:
            return self._why_bid(move)
        if phase is Phase.ANSWER:
            return self._why_answer(move)
        if isinstance(move, Ask | Tell) or move is Call.ZADTAK:
            return f"{move} is a move of the bidding, which is over"
        if phase is Phase.TRUMP:
            if isinstance(move, Trump):
                n = self.rules.min_trump_length
                return (
                    f"{suit_name(move.suit)} cannot be trumps: the declarer must hold "
                    f"at least {n} of its cards"
                )
            return f"{who} (the declarer) must name trumps, like trump:d"
        if phase is Phase.CANTO:
            if isinstance(move, Canto):
                if self._sung() >> move.suit & 1:
                    return f"the pair of {suit_name(move.suit)} has already been announced"
                return (
                    f"{who} cannot announce {suit_name(move.suit)}: it needs both the 11 and "
                    f"the 12 ({format_cards(PAIRS[move.suit])}) in hand"
                )
            return f"{who} may announce (canto:SUIT) or not (nocanto) now"
        if isinstance(move, CardPlay):
            return self._why_card(move.card)
        if move is Call.CLAIM:
            if self.rules.claim == "off":
                return "claims are not allowed (option claim is off)"
            if self.current:
                return "only the player on lead may claim the remaining tricks"
            if len(self.tricks) < TRICKS - CLAIM_TRICKS:
                return f"a claim may be made only when {CLAIM_TRICKS} tricks or fewer remain"
            return f"{who} has already claimed in this deal"
        return f"{who} must play a card now"

    def _why_bid(self, move: ToutiMove) -> str:
        seat = self.turn
        z = self.zadtak
        if z is not None and z[0] == seat:
            return (
                f"seat {seat} must bid at least {z[1]}: its partner's zadtak is forcing "
                "(no pass, no other call)"
            )
        if isinstance(move, Bid):
            if self.out >> seat & 1:
                return f"seat {seat} has passed and may not bid again"
            if z is not None and move.amount > self.bid:
                return (
                    f"after a zadtak, the opponents may only bid above {z[1]}, "
                    f"not {move.amount}"
                )
            return f"a bid must be above {max(self.bid, MIN_BID - BID_STEP)}, not {move.amount}"
        if move is Call.ZADTAK:
            return self._why_zadtak(seat)
        if isinstance(move, Ask):
            if self.rules.talk != "parle":
                return "questions to the partner belong to the parlé game (option talk=parle)"
            if self.asked_now:
                return f"seat {seat} has asked its question this turn: now bid or pass"
            return f"seat {seat} has already asked its partner about {move.topic}"
        if isinstance(move, Tell):
            return "there is no question to answer now"
        if move in (Call.ALLA, Call.MACHARICH):
            if self.rules.talk != "semi":
                return f"{move} is a call of the semi-parlé game (option talk=semi)"
            if move is Call.ALLA:
                n = self.alla[seat] + 1
                return f"seat {seat} cannot say alla: it does not hold {n} ace(s)"
            n = self.macharich[seat] + 1
            return f"seat {seat} cannot say macharich: it does not hold {n} announcement(s)"
        if move is Call.REDEAL:
            if not self.rules.zero_point_redeal:
                return "a redeal call needs option zero_point_redeal"
            if self.spoken >> seat & 1:
                return "a redeal can be asked only at the first turn to speak"
            return f"seat {seat} holds card points, so it may not ask for a redeal"
        return "the bidding is on: bid (70 to 230) or pass"

    def _why_zadtak(self, seat: int) -> str:
        if self.rules.talk != "semi":
            return "zadtak is a call of the semi-parlé game (option talk=semi)"
        if self.out >> seat & 1:
            return f"seat {seat} has passed and may not bid again"
        partner = (seat + 2) % SEATS
        if self.high_bidder != partner or self.bids_made[partner] != 1 or self.zadtak:
            return "zadtak raises the partner's first bid, which must be the highest bid"
        return (
            f"zadtak on {self.bid} would oblige the partner to bid {self.bid + 2 * BID_STEP}, "
            f"above {MAX_BID}"
        )

    def _why_answer(self, move: ToutiMove) -> str:
        assert self.question is not None
        asker, topic = self.question
        true = self._true_answer()
        if isinstance(move, Tell) and move.topic == topic:
            return (
                f"seat {self.turn}'s answer is not true: it must answer "
                f"{format_answer(topic, true.answer)}, not {format_answer(topic, move.answer)}"
            )
        return f"seat {self.turn} must answer seat {asker}'s question first ({true.topic}): {true}"

    def _why_card(self, card: int) -> str:
        seat = self.turn
        hand = self.hands[seat]
        name = CARDS[card]
        if not hand >> card & 1:
            return f"{name} is not in seat {seat}'s hand"
        led = self.current[0] // 10
        follow = hand & SUIT_MASKS[led]
        best = self.current[self.winning_index()]
        if follow:
            if card // 10 != led:
                return f"{name} does not follow suit: seat {seat} holds {suit_name(led)}"
            return (
                f"{name} does not beat the {CARDS[best]}: seat {seat} must play higher "
                f"({format_cards(follow & BEATS[best])})"
            )
        assert self.trump is not None
        trumps = hand & SUIT_MASKS[self.trump]
        if best // 10 == self.trump and trumps & BEATS[best]:
            return (
                f"{name} does not over-trump the {CARDS[best]}: seat {seat} must play a higher "
                f"trump ({format_cards(trumps & BEATS[best])})"
            )
        return (
            f"{name} is not a trump: seat {seat} is void in {suit_name(led)} and must trump"
        )

    def apply_unchecked(self, move: ToutiMove) -> None:
        """Play a move known to be legal (from :meth:`legal_moves`), without checking it."""
        seat = self.turn
        self.history.append((seat, move))
        phase = self.phase
        if phase is Phase.PLAY:
            if isinstance(move, CardPlay):
                self._play_card(seat, move.card)
            else:
                self._claim(seat)
        elif phase is Phase.BID:
            if isinstance(move, Ask):
                self.asked[seat] |= 1 << TOPICS.index(move.topic)
                self.question = (seat, move.topic)
                self.phase = Phase.ANSWER
                self.turn = (seat + 2) % SEATS
            else:
                self._bid(seat, move)
        elif phase is Phase.ANSWER:
            assert self.question is not None
            self.turn = self.question[0]
            self.question = None
            self.phase = Phase.BID
            self.asked_now = True
        elif phase is Phase.TRUMP:
            assert isinstance(move, Trump)
            self.trump = move.suit
            self.phase = Phase.PLAY
            self.turn = self.leader
        elif phase is Phase.CANTO:
            self._canto(seat, move)

    def _bid(self, seat: int, move: ToutiMove) -> None:
        self.spoken |= 1 << seat
        self.asked_now = False
        if isinstance(move, Bid) or move is Call.ZADTAK:
            amount = move.amount if isinstance(move, Bid) else self.bid + BID_STEP
            self.bid = amount
            self.high_bidder = seat
            self.bids_made[seat] += 1
            # Met by the partner, or lifted by the next opponent's higher bid (§2.1.2a).
            self.zadtak = None
            if move is Call.ZADTAK:
                self.zadtak = ((seat + 2) % SEATS, amount + BID_STEP)
        elif move is Call.REDEAL:
            self.redeal = True
            self.phase = Phase.OVER
            return
        else:
            self.out |= 1 << seat
            if move is Call.ALLA:
                self.alla[seat] += 1
            elif move is Call.MACHARICH:
                self.macharich[seat] += 1
            else:
                self.mute |= 1 << seat
        if self.out == 0b1111:
            # Four passes (or their semi-parlé equivalents) without a bid.
            self.redeal = True
            self.phase = Phase.OVER
            return
        nxt = (seat + 1) % SEATS
        while self.mute >> nxt & 1:
            nxt = (nxt + 1) % SEATS
        hb = self.high_bidder
        if hb is not None and nxt == hb and self.out | (1 << hb) == 0b1111:
            self.declarer = hb
            self.phase = Phase.TRUMP
            self.turn = hb
            return
        self.turn = nxt

    def _play_card(self, seat: int, card: int) -> None:
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        self.current.append(card)
        if len(self.current) < SEATS:
            self.turn = (seat + 1) % SEATS
            return
        w = (self.leader + trick_winner_index(self.current, self.trump)) % SEATS
        cards = tuple(self.current)
        self.tricks.append(Trick(self.leader, cards, w))
        for c in cards:
            self.won[w % 2] |= 1 << c
        self.current = []
        self.leader = w
        self.turn = w
        if len(self.tricks) == TRICKS:
            self._finish()
            return
        if team_of(w) == self.declarer_team and self._canto_possible():
            self.phase = Phase.CANTO
            self.canto_stage = 0

    def _canto_possible(self) -> bool:
        # Public condition: some suit's 11 and 12 are both still unplayed and unannounced.
        # Asking whenever it holds, not only when a pair is in hand, keeps hands hidden.
        sung = self._sung()
        return any(
            not sung >> s & 1 and not self.played & PAIRS[s] for s in range(4)
        )

    def _canto(self, seat: int, move: ToutiMove) -> None:
        if isinstance(move, Canto):
            self.announcements.append(Announcement(seat, move.suit, len(self.tricks) - 1))
        elif self.canto_stage == 0:
            self.canto_stage = 1
            self.turn = (seat + 2) % SEATS
            return
        self.phase = Phase.PLAY
        self.turn = self.leader

    def _claim(self, seat: int) -> None:
        self.claims |= 1 << seat
        right = claim_holds(self, seat)
        if not right and self.rules.claim == "forgive":
            return  # withdrawn: the claimer still leads
        taker = team_of(seat) if right else 1 - team_of(seat)
        rest = 0
        for h in self.hands:
            rest |= h
        if not right and self.rules.claim == "opponents-take-best-three":
            # Book §2.5.6 b: the opponents take the last trick, and its 10, "with the
            # 3 best cards (in value) remaining"; the claimer's team keeps the others.
            best = best_three(rest)
            self.won[taker] |= best
            self.won[1 - taker] |= rest & ~best
        else:
            self.won[taker] |= rest
        self.hands = [0] * SEATS
        self.claimed = (seat, right)
        self._finish(last_trick_team=taker)

    def _finish(self, last_trick_team: int | None = None) -> None:
        assert self.declarer is not None
        if last_trick_team is None:
            last_trick_team = team_of(self.tricks[-1].winner)
        self.score = score_deal(
            rules=self.rules,
            declarer=self.declarer,
            bid=self.bid,
            trump=self.trump,
            won=(self.won[0], self.won[1]),
            last_trick_team=last_trick_team,
            cantos=tuple(
                (team_of(a.seat), canto_value(a.suit, self.trump)) for a in self.announcements
            ),
        )
        self.phase = Phase.OVER


def trick_winner_index(cards: Sequence[int], trump: int | None) -> int:
    """Which card wins a trick: the highest trump, else the highest card of the suit led."""
    best = 0
    bc = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if c // 10 == bc // 10:
            if STRENGTH[c] > STRENGTH[bc]:
                best, bc = i, c
        elif c // 10 == trump:
            best, bc = i, c
    return best


def legal_cards(hand: int, trick: Sequence[int], trump: int | None, kaddour: bool) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (docs/rules.md §4, Play).

    Follow suit, beating the trick's highest card if possible; void, trump,
    over-trumping a trump already played if possible (with *Kaddour*, a player
    who cannot over-trump may discard anything); otherwise discard.
    """
    if not trick:
        return hand
    led = trick[0] // 10
    follow = hand & SUIT_MASKS[led]
    best = trick[trick_winner_index(trick, trump)]
    if follow:
        if best // 10 == led:
            return follow & BEATS[best] or follow
        return follow
    if trump is None:
        return hand
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand
    if best // 10 == trump:
        over = trumps & BEATS[best]
        if over:
            return over
        return hand if kaddour else trumps
    return trumps


def claim_holds(deal: Deal, claimer: int) -> bool:
    """Whether the claimer's team wins every remaining trick whatever the opponents play.

    An exact AND-OR search over the real hands (the engine knows them), with the
    claimer's team choosing its cards and the opponents theirs; it stops at the
    first trick the opponents can take.
    """
    team = team_of(claimer)
    memo: dict[tuple[int, int, int, int, tuple[int, ...], int], bool] = {}

    def wins_all(hands: list[int], trick: list[int], leader: int) -> bool:
        if not any(hands):
            return True
        seat = (leader + len(trick)) % SEATS
        key = (hands[0], hands[1], hands[2], hands[3], tuple(trick), leader)
        got = memo.get(key)
        if got is not None:
            return got
        ours = team_of(seat) == team
        result = not ours
        for c in _bits(legal_cards(hands[seat], trick, deal.trump, deal.rules.kaddour)):
            hands[seat] ^= 1 << c
            trick.append(c)
            if len(trick) == SEATS:
                w = (leader + trick_winner_index(trick, deal.trump)) % SEATS
                r = team_of(w) == team and wins_all(hands, [], w)
            else:
                r = wins_all(hands, trick, leader)
            trick.pop()
            hands[seat] ^= 1 << c
            if r == ours:
                result = r
                break
        memo[key] = result
        return result

    return wins_all(list(deal.hands), list(deal.current), deal.leader)


def best_three(cards: int) -> int:
    """The three cards of ``cards`` worth most: card points first, then trick order
    (an ace before a three, a 7 before a 2), then the suit order s, h, d, c."""
    ranked = sorted(_bits(cards), key=lambda c: (-CARD_POINTS[c], -STRENGTH[c], c))
    out = 0
    for c in ranked[:3]:
        out |= 1 << c
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _pairs_in(hand: int) -> int:
    return sum(1 for p in PAIRS if hand & p == p)


def describe_hand(hand: int) -> str:
    """A hand by suit, highest first in trick order: ``s: A 3 K | h: … ``."""
    parts = []
    for s in range(4):
        cs = sorted(
            (c for c in cards_of(hand) if c // 10 == s), key=lambda c: -STRENGTH[c]
        )
        if cs:
            parts.append(f"{SUITS[s]}: " + " ".join(str(CARDS[c])[0] for c in cs))
    return " | ".join(parts)


__all__ = [
    "CARD_POINTS",
    "LAST_TRICK_BONUS",
    "Announcement",
    "Deal",
    "DealError",
    "IllegalMove",
    "Phase",
    "Trick",
    "best_three",
    "canto_value",
    "claim_holds",
    "deal_hands",
    "legal_cards",
    "pair_mask",
    "team_of",
    "trick_winner_index",
]
