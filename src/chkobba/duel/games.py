"""The games the strength tools measure players on, behind one small interface.

``chkobba simulate``, ``chkobba duel`` and ``chkobba tournament`` play any
:class:`DuelGame`: the Chkobba family (:data:`CHKOBBA_GAME`, every preset of
:data:`~chkobba.rules.PRESETS`) and Touti (:data:`chkobba.touti.duplicate.TOUTI_GAME`).
A game says which players it has, which tables its rules allow, how a shuffle is
drawn and how a match starts; the tools drive the match (a :class:`Table`)
through one loop, :func:`play_out`, which times every choice and checks that it
is legal. Nothing in the tools branches on which game it is.

>>> g = game("touti")
>>> g.seatings(g.rules())
('2v2',)
>>> game("chess")
Traceback (most recent call last):
...
ValueError: unknown game 'chess' (known: chkobba, touti)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

from chkobba.agents.base import MEASUREMENT_ONLY, make_agent, playable_agents
from chkobba.game import Phase, Round, check_seating
from chkobba.match import Match
from chkobba.moves import Cut
from chkobba.observe import observe
from chkobba.record import GameRecord, round_record
from chkobba.rules import CHKOBBA, RuleSet, preset

Unit = Literal["round", "match"]
"""What one game is: a single round (a deal) or a whole match."""

GAME_NAMES: Final = ("chkobba", "touti")
"""The games the strength tools play, by name (``--game``)."""

R = TypeVar("R")

Decks = Callable[[int], Sequence[int]]
"""The shared shuffles of a duplicate pair: the deck of round ``k`` (0-based) of a match."""


class AgentMoveError(RuntimeError):
    """A player chose a move that is not among its legal moves (a bug in the player)."""


class Player(Protocol):
    """A player of either game: it picks one of its observation's legal moves."""

    name: str

    def choose(self, obs: Any) -> Any:
        """Pick a move from ``obs.legal_moves``."""
        ...


class Record(Protocol):
    """A game record that can be written to a file."""

    def save(self, path: str) -> None:
        """Write the record to ``path``."""
        ...


class Table(Protocol):
    """A match in progress, as the strength tools drive it."""

    @property
    def side_of(self) -> tuple[int, ...]:
        """The side (team, or player) of each seat."""
        ...

    @property
    def turn(self) -> int:
        """The seat to move."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the match is decided."""
        ...

    @property
    def rounds(self) -> int:
        """Rounds (deals) played to their end."""
        ...

    @property
    def winner(self) -> int | None:
        """The side that won the match, once it is decided."""
        ...

    def observe(self, seat: int) -> Any:
        """What ``seat`` may know now; its ``legal_moves`` are the moves it may make."""
        ...

    def state(self) -> Any:
        """A copy of the true state of the round, for a player that sees every card."""
        ...

    def apply_unchecked(self, move: Any) -> None:
        """Apply a move known to be legal."""
        ...

    def round_points(self, k: int) -> tuple[int, ...]:
        """Each side's points in finished round ``k`` (0-based)."""
        ...

    def totals(self) -> tuple[int, ...]:
        """Each side's match points so far."""
        ...

    def record(self, names: Sequence[str], meta: dict[str, Any]) -> Record:
        """The record of the finished rounds."""
        ...


class DuelGame(Protocol, Generic[R]):
    """A game the strength tools can play: its players, rules, tables and matches."""

    name: str
    round_word: str
    """What one round is called in this game (``round``, ``deal``)."""

    def players(self) -> list[str]:
        """The names of the game's players."""
        ...

    def check_player(self, name: str) -> None:
        """Raise :class:`~chkobba.agents.AgentError` (listing the game's players) for a
        name that is not one of them."""
        ...

    def make_agent(self, name: str, seed: int) -> Player:
        """The player called ``name``, seeded."""
        ...

    def rules(self, preset_name: str | None = None) -> R:
        """The game's default rule set, or the named preset; an unknown name is a
        ``ValueError`` listing the known ones."""
        ...

    def with_target(self, rules: R, target: int) -> R:
        """The rule set with another match target; a bad one is a ``ValueError``."""
        ...

    def rules_json(self, rules: R) -> tuple[str, dict[str, Any]]:
        """The rule set's name and the options that differ from it, as records name them."""
        ...

    def seatings(self, rules: R) -> tuple[str, ...]:
        """The tables the rules allow, named as :data:`~chkobba.rules.SEATINGS` names them."""
        ...

    def check_table(self, rules: R, seats: int, teams: bool) -> None:
        """Raise ``ValueError``, in one line, unless the rules allow this table."""
        ...

    def lowest_wins(self, rules: R) -> bool:
        """Whether the fewest points win (the margins are then counted the other way)."""
        ...

    def draw_deck(
        self, rng: random.Random, rules: R, seats: int, teams: bool, dealer: int
    ) -> tuple[int, ...]:
        """A shuffle for a round dealt by ``dealer`` that every game of a pair can play."""
        ...

    def start(
        self,
        rules: R,
        seats: int,
        teams: bool,
        seed: int,
        dealer: int | None = None,
        decks: Decks | None = None,
    ) -> Table:
        """A new match: shuffled from ``seed``, or with ``dealer`` dealing ``decks``."""
        ...


def table_of(seating: str) -> tuple[int, bool]:
    """The number of seats and whether partners play, for a seating name (``2v2``: 4, True).

    >>> table_of("3"), table_of("2v2")
    ((3, False), (4, True))
    """
    left, v, right = seating.partition("v")
    if v:
        return int(left) + int(right), True
    return int(seating), False


def seating_words(seats: int, teams: bool) -> str:
    """A table in words: ``2 players``, ``3 players each for themselves``,
    ``4 players, 2 against 2``."""
    if teams:
        return f"{seats} players, {seats // 2} against {seats // 2}"
    return "2 players" if seats == 2 else f"{seats} players each for themselves"


def choose_table(
    seatings: Sequence[str], players: int | None, teams: bool | None, prefer_teams: bool
) -> tuple[int, bool]:
    """The table to play at: what ``--players`` and ``--teams`` say, the rest chosen among
    the rules' ``seatings``.

    With neither, 2 players if the rules allow it, else their first table. With 4
    players and no ``--teams``, partners if only they are allowed, each for
    themselves if only that is, else as ``prefer_teams`` says. The result is not
    checked against the rules (:meth:`DuelGame.check_table` does it).
    """
    tables = [table_of(s) for s in seatings]
    if players is None:
        if teams:
            return next((t for t in tables if t[1]), (4, True))
        if (2, False) in tables or not tables:
            return 2, False
        if teams is False:
            return next((t for t in tables if not t[1]), (tables[0][0], False))
        return tables[0]
    if teams is None:
        both = (players, True) in tables and (players, False) in tables
        teams = prefer_teams if both else (players, True) in tables
    return players, teams


def play_out(
    table: Table,
    agents: Sequence[Player],
    clocks: Sequence[list[float]],
    unit: Unit,
    round_word: str = "round",
) -> None:
    """Play the match (or, for ``unit="round"``, its first round) to its end.

    Each seat's agent sees only its observation (a player marked ``sees_all``
    with a ``choose_state`` method, the measurements' cheater, is handed the true
    round instead). Every choice's time is appended to its seat's clock, in
    milliseconds; a move that is not legal raises :class:`AgentMoveError`. At the
    end (or on an error) each player is told it is over (:func:`end_game`).
    """
    try:
        _play(table, agents, clocks, unit, round_word)
    finally:
        end_game(table, agents)


def end_game(table: Table, agents: Sequence[Player]) -> None:
    """Tell each player with a ``finish`` method (an outside engine) that its game is over,
    with its seat's last observation, so that it stops its process."""
    for seat, agent in enumerate(agents):
        finish = getattr(agent, "finish", None)
        if finish is not None:
            finish(table.observe(seat))


def _play(
    table: Table, agents: Sequence[Player], clocks: Sequence[list[float]], unit: Unit,
    round_word: str,
) -> None:
    while not table.is_over and not (unit == "round" and table.rounds):
        seat = table.turn
        obs = table.observe(seat)
        agent = agents[seat]
        start = time.perf_counter_ns()
        choose_state = getattr(agent, "choose_state", None)
        if getattr(agent, "sees_all", False) and choose_state is not None:
            move = choose_state(table.state())
        else:
            move = agent.choose(obs)
        clocks[seat].append((time.perf_counter_ns() - start) / 1e6)
        if move not in obs.legal_moves:
            raise AgentMoveError(
                f"player {agent.name!r} at seat {seat} chose an illegal move: {move!r} "
                f"is not a legal move in {round_word} {table.rounds + 1}"
            )
        table.apply_unchecked(move)


def alternate(seats: int) -> list[int]:
    """Two entries alternated around the table: 0 at the even seats, 1 at the odd ones."""
    return [s % 2 for s in range(seats)]


def lineup_period(lineup: Sequence[int]) -> int:
    """How many one-seat turns bring the lineup back to itself.

    >>> lineup_period([0, 1, 0, 1]), lineup_period([0, 1, 0]), lineup_period([0, 1, 2, 3, 4, 5])
    (2, 3, 6)
    """
    n = len(lineup)
    for r in range(1, n + 1):
        if all(lineup[(s + r) % n] == lineup[s] for s in range(n)):
            return r
    return n


def rotated(lineup: Sequence[int], turn: int) -> list[int]:
    """The lineup turned by ``turn`` seats: seat ``s`` gets the entry of seat ``s + turn``."""
    n = len(lineup)
    return [lineup[(s + turn) % n] for s in range(n)]


# -- the Chkobba family -----------------------------------------------------------


def void_for_some_cut(
    rules: RuleSet, players: int, teams: bool, dealer: int, deck: Sequence[int]
) -> bool:
    """Whether dealing ``deck`` would be void for at least one cut decision."""
    r = Round(rules, players, teams, dealer, deck)
    if r.phase is not Phase.CUT:
        return r.void
    for cut in Cut:
        trial = r.copy()
        trial.apply_unchecked(cut)
        if trial.void:
            return True
    return False


def draw_deck(
    rng: random.Random, rules: RuleSet, players: int, teams: bool, dealer: int
) -> tuple[int, ...]:
    """A shuffle whose deal is valid whatever the cutter decides (docs/duel.md, void deals)."""
    while True:
        deck = list(range(40))
        rng.shuffle(deck)
        if not void_for_some_cut(rules, players, teams, dealer, deck):
            return tuple(deck)


class ChkobbaTable:
    """A :class:`~chkobba.match.Match` of the Chkobba family, as a :class:`Table`.

    With ``decks`` every round after the first is dealt from the pair's shared
    deck of its number (the match's own shuffle for it is set aside), so that the
    games of a duplicate pair play the same cards even when their matches last a
    different number of rounds.
    """

    def __init__(self, match: Match, decks: Decks | None = None) -> None:
        self.match = match
        self.decks = decks

    @property
    def side_of(self) -> tuple[int, ...]:
        """The side of each seat."""
        return self.match.side_of

    @property
    def turn(self) -> int:
        """The seat to move."""
        return self.match.turn

    @property
    def is_over(self) -> bool:
        """Whether a side has won the match."""
        return self.match.is_over

    @property
    def rounds(self) -> int:
        """Rounds played to their end."""
        return len(self.match.finished)

    @property
    def winner(self) -> int | None:
        """The side that won the match."""
        return self.match.winner

    def observe(self, seat: int) -> Any:
        """The seat's :class:`~chkobba.observe.Observation`."""
        return observe(self.match, seat)

    def state(self) -> Any:
        """A copy of the round being played."""
        return self.match.round.copy()

    def apply_unchecked(self, move: Any) -> None:
        """Apply the move; with shared decks, deal the next round from them."""
        m = self.match
        done = len(m.finished)
        m.apply_unchecked(move)
        if self.decks is None:
            return
        if m.void_deals:
            # draw_deck rules this out; reaching it would be a bug here, not in a player.
            raise RuntimeError("a void deal was played: the deck should have been redrawn")
        if len(m.finished) > done and not m.is_over:
            r = m.round
            m.round = Round(m.rules, m.seats, m.teams, r.dealer, self.decks(len(m.finished)))

    def round_points(self, k: int) -> tuple[int, ...]:
        """Each side's points in finished round ``k``."""
        score = self.match.finished[k].score
        assert score is not None
        return tuple(score.points)

    def totals(self) -> tuple[int, ...]:
        """Each side's match points."""
        return tuple(self.match.totals)

    def record(self, names: Sequence[str], meta: dict[str, Any]) -> GameRecord:
        """A ``chkobba-record/1`` of the finished rounds."""
        m = self.match
        return GameRecord(
            rules=m.rules.name,
            options=m.rules.changed_options(),
            seats=m.seats,
            teams=m.teams,
            names=list(names),
            rounds=[round_record(r) for r in m.finished],
            meta=meta,
        )


class ChkobbaGame:
    """Chkobba and every game of the Scopa family (the presets of ``chkobba rules``)."""

    name = "chkobba"
    round_word = "round"

    def players(self) -> list[str]:
        """Every registered player, those for measurements only (the cheater) included."""
        return sorted({*playable_agents(), *MEASUREMENT_ONLY})

    def check_player(self, name: str) -> None:
        """Raise :class:`~chkobba.agents.AgentError` for an unknown player."""
        make_agent(name, 0)

    def make_agent(self, name: str, seed: int) -> Player:
        """The registered player ``name``."""
        return make_agent(name, seed)

    def rules(self, preset_name: str | None = None) -> RuleSet:
        """The preset (default Chkobba)."""
        return CHKOBBA if preset_name is None else preset(preset_name)

    def with_target(self, rules: RuleSet, target: int) -> RuleSet:
        """The rule set with ``target``."""
        return rules.with_options({"target": target})

    def rules_json(self, rules: RuleSet) -> tuple[str, dict[str, Any]]:
        """The preset's name and the options changed from it."""
        return rules.name, rules.changed_options()

    def seatings(self, rules: RuleSet) -> tuple[str, ...]:
        """The rule set's ``seatings``."""
        return rules.seatings

    def check_table(self, rules: RuleSet, seats: int, teams: bool) -> None:
        """The engine's own check of a seating against the rules."""
        check_seating(seats, teams, rules)

    def lowest_wins(self, rules: RuleSet) -> bool:
        """Scopa a perdere: the fewest points win."""
        return rules.lowest_wins

    def draw_deck(
        self, rng: random.Random, rules: RuleSet, seats: int, teams: bool, dealer: int
    ) -> tuple[int, ...]:
        """A shuffle valid for either cut decision (:func:`draw_deck`)."""
        return draw_deck(rng, rules, seats, teams, dealer)

    def start(
        self,
        rules: RuleSet,
        seats: int,
        teams: bool,
        seed: int,
        dealer: int | None = None,
        decks: Decks | None = None,
    ) -> ChkobbaTable:
        """A match, from ``seed`` or on the shared ``decks``."""
        first = decks(0) if decks is not None else None
        match = Match(rules, seats, teams, seed=seed, first_dealer=dealer, first_deck=first)
        return ChkobbaTable(match, decks)


CHKOBBA_GAME: Final = ChkobbaGame()
"""The Chkobba family as the strength tools play it."""


def game(name: str) -> DuelGame[Any]:
    """The game called ``name`` (:data:`GAME_NAMES`); an unknown name is a ``ValueError``."""
    if name == "chkobba":
        return CHKOBBA_GAME
    if name == "touti":
        # Imported here: Touti's side of the interface builds on this module.
        from chkobba.touti.duplicate import TOUTI_GAME

        return TOUTI_GAME
    raise ValueError(f"unknown game {name!r} (known: {', '.join(GAME_NAMES)})")


def describe(g: DuelGame[R], rules: R) -> str:
    """The game and rule set in a few words: ``scopa``, ``touti``, ``chkobba (target 11)``."""
    name, options = g.rules_json(rules)
    if not options:
        return name
    return f"{name} ({', '.join(f'{k} {v}' for k, v in options.items())})"
