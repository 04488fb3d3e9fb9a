"""Touti in the strength tools: ``chkobba duel --game touti``, ``tournament`` and ``simulate``.

:data:`TOUTI_GAME` is Touti's side of the tools' game interface
(:class:`~chkobba.duel.games.DuelGame`): its players by name, its one table (4
players, 2 against 2), a plain shuffle per deal and a :class:`ToutiTable` over
a :class:`~chkobba.touti.match.ToutiMatch`. The duplicate pairs themselves are
the harness's (:mod:`chkobba.duel.play`): each shuffle and dealer is played
twice, player A's team in seats 0 and 2, then in seats 1 and 3, and A's margin
is its team's points minus the other team's per deal. A deal that ends without
a contract (four passes) scores nothing and is not redealt; in a match the next
deal follows as the rules say.

:func:`play_deal` plays one deal the same way with player objects rather than
names, for tests and experiments in Python.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from chkobba.agents.base import AgentError
from chkobba.cards import CARDS
from chkobba.duel.games import Decks, Player, play_out, seating_words
from chkobba.rules import RulesError
from chkobba.touti.agents import ToutiAgent, ToutiAgentError, make_touti_agent, touti_players
from chkobba.touti.deal import SEATS, Deal, team_of
from chkobba.touti.match import ToutiMatch
from chkobba.touti.observe import observe
from chkobba.touti.record import DealRecord, ToutiRecord
from chkobba.touti.rules import DEFAULT, ToutiRules

SIDE_OF: Final = tuple(team_of(s) for s in range(SEATS))
"""The team of each seat: partners sit opposite."""


class ToutiTable:
    """A :class:`~chkobba.touti.match.ToutiMatch` as the strength tools drive it.

    With ``decks`` every deal after the first is dealt from the pair's shared
    deck of its number (the match's own shuffle for it is set aside).
    """

    side_of: tuple[int, ...] = SIDE_OF

    def __init__(self, match: ToutiMatch, decks: Decks | None = None) -> None:
        self.match = match
        self.decks = decks

    @property
    def turn(self) -> int:
        """The seat to move."""
        return self.match.turn

    @property
    def is_over(self) -> bool:
        """Whether a team has won the match."""
        return self.match.is_over

    @property
    def rounds(self) -> int:
        """Deals played to their end (passed-out deals included)."""
        return len(self.match.finished)

    @property
    def winner(self) -> int | None:
        """The team that won the match."""
        return self.match.winner

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
        m.apply_unchecked(move)
        if self.decks is not None and len(m.finished) > done and not m.is_over:
            m.deal = Deal(m.deal.dealer, self.decks(len(m.finished)), m.rules)

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


class ToutiGame:
    """Touti (docs/rules.md §4): 4 players, 2 against 2, its own players and rule options."""

    name = "touti"
    round_word = "deal"

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


TOUTI_GAME: Final = ToutiGame()
"""Touti as the strength tools play it."""


@dataclass
class DealOutcome:
    """One deal played to its end: the deal, and the time each seat spent choosing."""

    deal: Deal
    seconds: list[float]
    moves: list[int]


def play_deal(
    agents: Sequence[ToutiAgent], dealer: int, deck: Sequence[int], rules: ToutiRules = DEFAULT
) -> DealOutcome:
    """Play one deal with ``agents[seat]`` at each seat; every move is checked
    (:class:`~chkobba.duel.games.AgentMoveError`)."""
    table = ToutiTable(ToutiMatch(rules, first_dealer=dealer, first_deck=deck))
    clocks: list[list[float]] = [[] for _ in range(SEATS)]
    play_out(table, agents, clocks, "round", "deal")
    return DealOutcome(
        table.match.finished[0], [sum(c) / 1000 for c in clocks], [len(c) for c in clocks]
    )
