"""Touti (docs/rules.md §4) behind the game interface.

:data:`TOUTI_GAME` is Touti's side of :class:`~chkobba.games.base.Game`: its
players by name, its one table (4 players, 2 against 2), a plain shuffle per
deal and a :class:`ToutiTable` over a :class:`~chkobba.touti.match.ToutiMatch`.
A table served to people (:meth:`ToutiGame.serve`) also keeps the public story
of the game (bids, cards, tricks, scores) that its pages tell; what a seat sees
(:meth:`ToutiTable.view`) is built from that seat's
:func:`~chkobba.touti.observe.observe` and that story only, so it can carry no
card the seat may not know.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from chkobba.agents.base import AgentError
from chkobba.fishing.cards import CARDS
from chkobba.fishing.rules import RulesError
from chkobba.games.base import (
    Decks,
    MatchTable,
    MoveRefused,
    Player,
    match_lines,
    seating_words,
)
from chkobba.touti.agents import ToutiAgentError, make_touti_agent, touti_players
from chkobba.touti.cards import STRENGTH, card_points
from chkobba.touti.deal import SEATS, Deal, IllegalMove, team_of
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import (
    Ask,
    Bid,
    Call,
    Canto,
    CardPlay,
    NotationError,
    Tell,
    ToutiMove,
    Trump,
    parse_move,
)
from chkobba.touti.narrate import (
    describe_move,
    describe_trick,
    narrate_deal,
    score_lines,
    team_label,
)
from chkobba.touti.observe import ToutiObservation, observe, observe_deal
from chkobba.touti.record import FORMAT, DealRecord, ToutiRecord, replay
from chkobba.touti.rules import DEFAULT, TARGETS, ToutiRules

SIDE_OF: Final = tuple(team_of(s) for s in range(SEATS))
"""The team of each seat: partners sit opposite."""
LOG_LINES: Final = 80
"""Events of the story a view carries: the most recent ones."""
LEVELS: Final = ("random", "technique", "search")
"""Touti's computer players, weakest first."""
POINTS: Final = (
    {"key": "card_points", "name": "card points", "native": ""},
    {"key": "last_trick", "name": "last trick", "native": ""},
    {"key": "cantos", "name": "announcements", "native": ""},
)
"""What a deal's score counts (docs/rules.md §4), as the view's ``rounds`` name it."""

Names = Sequence[str] | None
Event = tuple[dict[str, Any], Callable[[Names], str]]
"""One event of the story: its facts, and how to tell it with the seats' names."""


def _suit(suit: int) -> str:
    return "shdc"[suit]


def move_event(seat: int, move: ToutiMove) -> Event:
    """A move of the story: ``kind`` (``bid``, ``trump``, ``play``, ``canto``, the parlé's
    ``ask`` and ``tell``, or the call: ``pass``, ``alla``, ``macharich``, ``zadtak``,
    ``redeal``, ``claim``), ``seat`` and its amount, suit, card, topic or answer."""
    event: dict[str, Any] = {"seat": seat}
    if isinstance(move, Bid):
        event.update(kind="bid", amount=move.amount)
    elif isinstance(move, Trump):
        event.update(kind="trump", suit=_suit(move.suit))
    elif isinstance(move, CardPlay):
        event.update(kind="play", card=str(CARDS[move.card]))
    elif isinstance(move, Canto):
        event.update(kind="canto", suit=_suit(move.suit))
    elif isinstance(move, Ask):
        event.update(kind="ask", topic=move.topic)
    elif isinstance(move, Tell):
        event.update(kind="tell", topic=move.topic, answer=str(move).partition("=")[2])
    else:
        event["kind"] = move.value
    return event, lambda names: describe_move(seat, move, names)


def trick_event(deal: Deal) -> Event:
    """The trick just finished: its number, its cards in order with their seats, its winner."""
    t = deal.tricks[-1]
    number = len(deal.tricks)
    facts = {
        "kind": "trick",
        "number": number,
        "cards": [{"seat": t.seat_of(i), "card": str(CARDS[c])} for i, c in enumerate(t.cards)],
        "winner": t.winner,
    }
    return facts, lambda names: describe_trick(t, number, names)


def score_events(deal: Deal) -> list[Event]:
    """The end of a deal: ``no_contract``, or ``contract`` (declarer, bid, trumps),
    each team's ``team`` line (card points, the last trick's 10, announcements) and the
    ``result`` (the declarer's total against the bid, made or not, the points scored)."""
    sc = deal.score
    if sc is None:
        return [({"kind": "no_contract"}, lambda _: "No contract: the cards are dealt again.")]
    return [
        (
            {
                "kind": "contract",
                "declarer": sc.declarer,
                "bid": sc.bid,
                "trump": _suit(sc.trump) if sc.trump is not None else None,
            },
            lambda names: score_lines(sc, names)[0],
        ),
        *(
            (
                {
                    "kind": "team",
                    "team": t,
                    "card_points": sc.card_points[t],
                    "last_trick": sc.last_trick == t,
                    "cantos": sc.cantos[t],
                },
                lambda names, t=t: score_lines(sc, names)[1 + t].strip(),
            )
            for t in (0, 1)
        ),
        (
            {
                "kind": "result",
                "total": sc.declarer_total,
                "bid": sc.bid,
                "made": sc.made,
                "points": list(sc.points),
            },
            lambda names: score_lines(sc, names)[3].strip(),
        ),
    ]


def deal_json(deal: Deal) -> dict[str, Any]:
    """A finished deal's score as everybody may see it (``points`` 0 each without a
    contract)."""
    sc = deal.score
    if sc is None:
        return {"points": [0, 0], "contract": None}
    return {
        "points": list(sc.points),
        "contract": {"declarer": sc.declarer, "bid": sc.bid, "made": sc.made},
        "card_points": list(sc.card_points),
        "last_trick": sc.last_trick,
        "cantos": list(sc.cantos),
    }


def _in_order(hand: int, trump: int | None) -> list[int]:
    """A hand's cards as a seat holds them: trumps first, then by suit, strongest first."""
    return sorted(
        (c for c in range(40) if hand >> c & 1),
        key=lambda c: (c // 10 != trump, c // 10, -STRENGTH[c]),
    )


class ToutiTable(MatchTable[ToutiMove]):
    """A :class:`~chkobba.touti.match.ToutiMatch` behind the game interface.

    With ``decks`` every deal after the first is dealt from the pair's shared
    deck of its number (the match's own shuffle for it is set aside). With
    ``story`` the public story of the game is kept for :meth:`view`.
    """

    match: ToutiMatch

    side_of: tuple[int, ...] = SIDE_OF

    def __init__(self, match: ToutiMatch, decks: Decks | None = None, story: bool = False) -> None:
        self.match = match
        self.decks = decks
        self.log: list[Event] | None = [] if story else None
        self.added: list[Event] = []
        """The events the last move added to the story."""

    def observe(self, seat: int) -> Any:
        """The seat's :class:`~chkobba.touti.observe.ToutiObservation`."""
        return observe(self.match, seat)

    def state(self) -> Any:
        """A copy of the deal being played."""
        return self.match.deal.copy()

    def apply_unchecked(self, move: Any) -> None:
        """Apply the move; with shared decks, deal the next deal from them."""
        m = self.match
        done = len(m.finished)
        deal, tricks = m.deal, len(m.deal.tricks)
        m.apply_unchecked(move)
        self._note(deal, tricks)
        if self.decks is not None and len(m.finished) > done and not m.is_over:
            m.deal = Deal(m.deal.dealer, self.decks(len(m.finished)), m.rules)

    def _note(self, deal: Deal, tricks_before: int) -> None:
        """Add the last move, and the trick or the deal it finished, to the story."""
        if self.log is None:
            return
        seat, move = deal.history[-1]
        added = []
        if move is not Call.NO_CANTO:
            added.append(move_event(seat, move))
        if len(deal.tricks) > tricks_before:
            added.append(trick_event(deal))
        if deal.is_over:
            added.extend(score_events(deal))
        self.added = added
        self.log.extend(added)
        del self.log[:-LOG_LINES]

    def round_points(self, k: int) -> tuple[int, ...]:
        """Each team's match points in finished deal ``k`` (0 each without a contract)."""
        score = self.match.finished[k].score
        return (0, 0) if score is None else tuple(score.points)

    def totals(self) -> tuple[int, ...]:
        """Each team's match points."""
        return tuple(self.match.totals)

    def record(self, names: Sequence[str], meta: dict[str, Any]) -> ToutiRecord:
        """A ``touti-record/1`` of the finished deals."""
        deals = [
            DealRecord(d.dealer, [str(CARDS[c]) for c in d.deck], [str(mv) for _, mv in d.history])
            for d in self.match.finished
        ]
        return ToutiRecord(self.match.rules.json_options(), list(names), deals, meta)

    # -- what a server and its pages need ----------------------------------------

    @property
    def rules_name(self) -> str:
        """``touti``."""
        return "touti"

    @property
    def target(self) -> int:
        """The match target."""
        return self.match.rules.target

    @property
    def seats(self) -> int:
        """Four."""
        return SEATS

    @property
    def teams(self) -> bool:
        """Partners always play."""
        return True

    notation_error = NotationError

    def _read(self, text: str) -> ToutiMove:
        return parse_move(text)

    def _why_illegal(self, move: ToutiMove) -> str | None:
        return self.match.deal.why_illegal(move)

    def play(self, seat: int, text: str) -> str:
        """Play ``text`` for ``seat``, checked (:class:`~chkobba.games.base.MoveRefused`)."""
        move = self._checked(seat, text)
        m = self.match
        deal, tricks = m.deal, len(m.deal.tricks)
        try:
            m.apply(move)
        except IllegalMove as e:  # pragma: no cover - why_illegal said it was legal
            raise MoveRefused("illegal_move", str(e)) from None
        self._note(deal, tricks)
        return str(move)

    def automatic(self) -> str | None:
        """The no-announcement of a seat that holds none: its only move, which tells nothing."""
        if self.match.legal_moves() == [Call.NO_CANTO]:
            return str(Call.NO_CANTO)
        return None

    def fresh(self) -> bool:
        """Whether the deal in progress has no move yet, or the match is over."""
        return not self.match.deal.history or self.match.is_over

    def view(self, seat: int, names: Sequence[str], full: bool = True) -> dict[str, Any]:
        """The seat's view (docs/protocol.md, Touti's ``state``): its hand and legal moves
        (none for a spectator), the bidding, the trick, the announcements, the totals and
        the story, told with ``names``."""
        told = list(names)
        return {
            **self._view(observe(self.match, seat), told),
            "log": [{**facts, "text": text(told)} for facts, text in self.log or []],
        }

    def open_view(self, names: Sequence[str], ended: bool = False) -> dict[str, Any]:
        """The spectator's view with the four hands face up (``hands``) and the events of
        the last move (``events``); with ``ended``, the deal the last move finished, its
        last trick still on the table, instead of the next one."""
        m = self.match
        if ended:
            deal = m.finished[-1]
            obs = observe_deal(deal, -1, (m.totals[0], m.totals[1]), len(m.finished))
        else:
            deal = m.deal
            obs = observe(m, -1)
        told = list(names)
        return {
            **self._view(obs, told),
            "hands": [[str(CARDS[c]) for c in _in_order(h, obs.trump)] for h in deal.hands],
            "events": [{**facts, "text": text(told)} for facts, text in self.added],
        }

    def _view(self, obs: ToutiObservation, told: list[str]) -> dict[str, Any]:
        m = self.match
        hand = _in_order(obs.hand, obs.trump)
        last = obs.tricks[-1] if obs.tricks else None
        return {
            "you": obs.seat,
            "names": told,
            "deal": obs.deal_number,
            "round": obs.deal_number,
            "dealer": obs.dealer,
            "phase": obs.phase.value,
            "turn": obs.turn,
            "hand": [str(CARDS[c]) for c in hand],
            "legal": [str(x) for x in obs.legal_moves],
            "bid": obs.bid,
            "high_bidder": obs.high_bidder,
            "declarer": obs.declarer,
            "trump": _suit(obs.trump) if obs.trump is not None else None,
            "trick": [
                {"seat": (obs.leader + i) % SEATS, "card": str(CARDS[c])}
                for i, c in enumerate(obs.current)
            ],
            "last_trick": None
            if last is None
            else {
                "cards": [
                    {"seat": last.seat_of(i), "card": str(CARDS[c])}
                    for i, c in enumerate(last.cards)
                ],
                "winner": last.winner,
            },
            "tricks": [sum(1 for t in obs.tricks if t.winner % 2 == team) for team in (0, 1)],
            # The card points each team has taken so far this deal (public: tricks are seen).
            "card_points": [
                sum(
                    card_points(sum(1 << c for c in t.cards))
                    for t in obs.tricks
                    if t.winner % 2 == team
                )
                for team in (0, 1)
            ],
            "announcements": [{"seat": a.seat, "suit": _suit(a.suit)} for a in obs.announcements],
            "hand_sizes": list(obs.hand_sizes),
            "totals": list(m.totals),
            "target": m.rules.target,
            "over": m.is_over,
            "winner": m.winner,
            "rounds": [deal_json(d) for d in m.finished],
        }


class ToutiGame:
    """Touti (docs/rules.md §4): 4 players, 2 against 2, its own players and rule options."""

    name = "touti"
    round_word = "deal"
    page = "/touti"
    """Where the pages play a game of it: ``/touti/CODE``."""

    def players(self) -> list[str]:
        """The Touti players."""
        return touti_players()

    def check_player(self, name: str) -> None:
        """Raise :class:`~chkobba.agents.AgentError` naming the Touti players."""
        self.make_agent(name, 0)

    def make_agent(self, name: str, seed: int) -> Player:
        """The Touti player ``name``."""
        try:
            return make_touti_agent(name, seed)
        except ToutiAgentError as e:
            raise AgentError(str(e)) from None

    def rules(self, preset_name: str | None = None) -> ToutiRules:
        """Touti's rules; Touti has no presets."""
        if preset_name is not None:
            raise RulesError(
                f"Touti has no rule presets: {preset_name!r} names a game of the Chkobba "
                "family (chkobba rules)"
            )
        return DEFAULT

    def with_target(self, rules: ToutiRules, target: int) -> ToutiRules:
        """The rules with another match target (a multiple of 10)."""
        return dataclasses.replace(rules, target=target)

    def rules_json(self, rules: ToutiRules) -> tuple[str, dict[str, Any]]:
        """``touti`` and the options that differ from the defaults."""
        return "touti", rules.json_options()

    def seatings(self, rules: ToutiRules) -> tuple[str, ...]:
        """Touti's one table."""
        return ("2v2",)

    def check_table(self, rules: ToutiRules, seats: int, teams: bool) -> None:
        """Refuse any table but 2 against 2."""
        if (seats, teams) != (SEATS, True):
            raise ValueError(
                f"Touti is played by 4 players, 2 against 2, not {seating_words(seats, teams)}"
            )

    def lowest_wins(self, rules: ToutiRules) -> bool:
        """The most points win."""
        return False

    def draw_deck(
        self, rng: random.Random, rules: ToutiRules, seats: int, teams: bool, dealer: int
    ) -> tuple[int, ...]:
        """Any shuffle: every Touti deal can be played."""
        deck = list(range(40))
        rng.shuffle(deck)
        return tuple(deck)

    def start(
        self,
        rules: ToutiRules,
        seats: int,
        teams: bool,
        seed: int,
        dealer: int | None = None,
        decks: Decks | None = None,
    ) -> ToutiTable:
        """A match, from ``seed`` or on the shared ``decks``."""
        self.check_table(rules, seats, teams)
        first = decks(0) if decks is not None else None
        match = ToutiMatch(rules, seed=seed, first_dealer=dealer, first_deck=first)
        return ToutiTable(match, decks)

    # -- what a server and its pages need ----------------------------------------

    def make_rules(
        self, preset_name: str | None, options: Mapping[str, Any], version: int | None = None
    ) -> ToutiRules:
        """Touti's rules with ``options`` (:meth:`ToutiRules.from_options`); Touti's rules
        have no versions."""
        if preset_name not in (None, "touti"):
            self.rules(preset_name)  # the error naming the Chkobba family
        return ToutiRules.from_options(options)

    def rule_sets(self) -> list[str]:
        """Touti's one rule set, its options aside."""
        return ["touti"]

    def levels(self) -> list[str]:
        """Every Touti player, weakest first (none sees hidden cards)."""
        known = touti_players()
        return [n for n in LEVELS if n in known] + [n for n in known if n not in LEVELS]

    def default_level(self) -> str:
        """The search player, the strongest."""
        return "search"

    def fair(self, level: str) -> bool:
        """Every Touti player sees only its own cards."""
        return level in touti_players()

    def targets(self, rules: ToutiRules) -> tuple[int, ...]:
        """600, 800 or 1000 (book §2.4)."""
        return (rules.target, *(t for t in TARGETS if t != rules.target))

    def point_names(self, rules: ToutiRules) -> list[dict[str, str]]:
        """What a deal's score counts (:data:`POINTS`)."""
        return [dict(p) for p in POINTS]

    def deck(self, rules: ToutiRules) -> str:
        """Touti is played with the Spanish deck (docs/rules.md §4)."""
        return "spanish"

    def serve(self, rules: ToutiRules, seats: int, teams: bool, seed: int) -> ToutiTable:
        """A match shuffled from ``seed``, keeping its story."""
        self.check_table(rules, seats, teams)
        return ToutiTable(ToutiMatch(rules, seed=seed), story=True)

    def parse(self, text: str) -> ToutiMove:
        """A move in Touti's notation (``90``, ``pass``, ``trump:h``, ``Ah``)."""
        return parse_move(text)

    # -- its records ---------------------------------------------------------------

    record_format = FORMAT

    def read_record(self, path: str | Path) -> ToutiRecord:
        """A ``touti-record/1`` file (:class:`~chkobba.touti.record.ToutiRecordError`)."""
        return ToutiRecord.load(path)

    def verify(self, record: ToutiRecord) -> tuple[str, dict[str, Any]]:
        """``valid Touti record: D deal(s), totals [...], won by team T`` (or
        ``unfinished``), and each deal's points, the totals and the winner."""
        rep = replay(record)
        return rep.summary(), rep.to_json()

    def replay_lines(self, record: ToutiRecord) -> list[str]:
        """Every deal move by move, trick by trick, with its score; then the match's."""
        rep = replay(record)
        names = record.names
        out: list[str] = []
        for i, d in enumerate(rep.deals, 1):
            out += [*narrate_deal(d, i, names), ""]
        totals = f"{team_label(0, names)} {rep.totals[0]}, {team_label(1, names)} {rep.totals[1]}"
        winner = None if rep.winner is None else team_label(rep.winner, names)
        return out + match_lines(totals, rep.rules.target, winner)


TOUTI_GAME: Final = ToutiGame()
"""Touti, as every surface plays it."""
