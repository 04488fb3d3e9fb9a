"""The game interface: what every game gives the tools, the server and the pages.

Every surface, ``chkobba simulate``, ``duel`` and ``tournament``, the web hub
and its pages, plays any :class:`Game`: the Chkobba family
(:data:`chkobba.games.chkobba.CHKOBBA_GAME`, every preset of
:data:`~chkobba.fishing.rules.PRESETS`) and Touti (:data:`chkobba.games.touti.TOUTI_GAME`).
A game says which players it has, which rule sets and tables it allows, how a
shuffle is drawn and how a match starts; a match in progress is a :class:`Table`
(whose turn, the legal moves in the notation, a checked move for a seat, what a
seat may see as JSON, the totals, the record). The tools drive a table through
one loop, :func:`play_out`, which times every choice and checks that it is
legal. Nothing outside ``chkobba.games.chkobba`` and ``chkobba.games.touti``
branches on which game it is.

>>> g = game("touti")
>>> g.seatings(g.rules())
('2v2',)
>>> game("chess")
Traceback (most recent call last):
...
ValueError: unknown game 'chess' (known: chkobba, touti)
"""

from __future__ import annotations

import importlib
import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

from chkobba.fishing.recordfile import LocatedError

RecordFault = LocatedError
"""A record that cannot be read or replayed: its message names the place (the part,
a round or a deal, and the move) and the reason, in the record's game's words."""

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

    def dumps(self) -> str:
        """The record as JSON text."""
        ...


MOVE_REFUSALS: Final = ("bad_move", "illegal_move", "not_your_turn", "game_over")
"""Why :meth:`Table.play` refuses a move: not in the notation, not allowed by the
rules now, another seat to move, the match over."""


class MoveRefused(ValueError):
    """A move :meth:`Table.play` will not play; ``code`` is one of :data:`MOVE_REFUSALS`
    and the message, one line, is the engine's reason."""

    def __init__(self, code: str, message: str) -> None:
        assert code in MOVE_REFUSALS, code
        super().__init__(message)
        self.code = code



class _Match(Protocol):
    """What a game's match says of itself (both :class:`~chkobba.fishing.match.Match` and
    :class:`~chkobba.touti.match.ToutiMatch` do)."""

    @property
    def turn(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def finished(self) -> Sequence[Any]: ...

    @property
    def winner(self) -> int | None: ...

    def legal_moves(self) -> Sequence[Any]: ...


M = TypeVar("M")


class MatchTable(Generic[M]):
    """The part of a :class:`Table` that only repeats what its match says, and the checks
    of a move sent for a seat (:meth:`check`); a game says how its notation is read
    (:meth:`_read`) and why a move is illegal (:meth:`_why_illegal`)."""

    match: _Match
    notation_error: type[ValueError] = ValueError
    """What the game's :meth:`_read` raises for text that is no move."""

    def _read(self, text: str) -> M:
        raise NotImplementedError

    def _why_illegal(self, move: M) -> str | None:
        raise NotImplementedError

    def _checked(self, seat: int, text: str) -> M:
        try:
            move = self._read(text)
        except self.notation_error as e:
            raise MoveRefused("bad_move", str(e)) from None
        m = self.match
        if m.is_over:
            raise MoveRefused("game_over", "the match is over")
        if seat != m.turn:
            raise MoveRefused("not_your_turn", f"it is seat {m.turn}'s turn, not seat {seat}'s")
        reason = self._why_illegal(move)
        if reason is not None:
            raise MoveRefused("illegal_move", reason)
        return move

    def legal(self) -> list[str]:
        """The legal moves of the seat to move, in the notation."""
        return [str(m) for m in self.match.legal_moves()]

    def check(self, seat: int, text: str) -> str:
        """``text`` in the canonical notation, if ``seat`` may play it now."""
        return str(self._checked(seat, text))

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
        """Rounds (deals, passed-out ones included) played to their end."""
        return len(self.match.finished)

    @property
    def winner(self) -> int | None:
        """The side (team, or player) that won the match."""
        return self.match.winner

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

    # -- what a server and its pages need ----------------------------------------

    @property
    def rules_name(self) -> str:
        """The rule set's name, as records and the lobby name it (``scopa``, ``touti``)."""
        ...

    @property
    def target(self) -> int:
        """The match target."""
        ...

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        ...

    @property
    def teams(self) -> bool:
        """Whether partners play (2 against 2, 3 against 3)."""
        ...

    def legal(self) -> list[str]:
        """The legal moves of the seat to move, in the notation (none once it is over)."""
        ...

    def check(self, seat: int, text: str) -> str:
        """The move written ``text``, in the canonical notation, if ``seat`` may play it
        now; else raise :class:`MoveRefused` with the engine's reason. Nothing changes:
        a server checks a move, stores it, and only then plays it."""
        ...

    def play(self, seat: int, text: str) -> str:
        """Play the move written ``text`` for ``seat``, checked by the engine; return it
        in the canonical notation. Raise :class:`MoveRefused` (the table unchanged)
        with the engine's reason if it may not be played."""
        ...

    def automatic(self) -> str | None:
        """A move the seat to move makes without being asked (it has no choice and the
        move tells nothing), or None."""
        ...

    def fresh(self) -> bool:
        """Whether the round in progress has no move yet (or the match is over): the
        moment the last finished round's details go out."""
        ...

    def view(self, seat: int, names: Sequence[str], full: bool = True) -> dict[str, Any]:
        """What ``seat`` may see now, as JSON (-1: a spectator, who sees the public part
        only): never a card that seat may not know. ``names`` are the seats' names;
        ``full`` adds what clients keep once told (the last finished round)."""
        ...

    def open_view(self, names: Sequence[str], ended: bool = False) -> dict[str, Any]:
        """What everybody sees now with every hand face up (``hands``), as JSON, and the
        events the last move added (``events``): for the replay of a finished game only.
        With ``ended``, the round the last move finished, as it ended, instead of the one
        dealt after it."""
        ...


class Game(Protocol, Generic[R]):
    """A game every surface can play: its players, rules, tables and matches."""

    name: str
    round_word: str
    """What one round is called in this game (``round``, ``deal``)."""
    page: str
    """The path of the page that plays a game of it (``/g``: ``/g/CODE``)."""

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
        """The tables the rules allow, named as
        :data:`~chkobba.fishing.rules.SEATINGS` names them."""
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

    # -- what a server and its pages need ----------------------------------------

    def make_rules(
        self, preset_name: str | None, options: Mapping[str, Any], version: int | None = None
    ) -> R:
        """The named rule set (None: the game's default) with ``options`` changed, as it
        was defined in rules ``version`` (None: the current one); anything unknown or
        mistyped is a ``ValueError`` in one line."""
        ...

    def rule_sets(self) -> list[str]:
        """The names of the game's rule sets, the default first (:meth:`make_rules`)."""
        ...

    def levels(self) -> list[str]:
        """The computer players people may be seated with, weakest first (none that
        sees hidden cards)."""
        ...

    def default_level(self) -> str:
        """The computer player a game gets when none is named."""
        ...

    def fair(self, level: str) -> bool:
        """Whether ``level`` names a computer player people may be seated with (one of
        :meth:`levels`, or another registered player that sees only its own cards)."""
        ...

    def targets(self, rules: R) -> tuple[int, ...]:
        """The match targets the lobby offers for these rules (the rules' own first)."""
        ...

    def point_names(self, rules: R) -> list[dict[str, str]]:
        """The points of a round's breakdown under these rules, in order: each one's
        ``key`` (as the view's ``rounds`` name it), ``name`` and ``native`` name."""
        ...

    def deck(self, rules: R) -> str:
        """The deck the rules show by default (``french``, ``italian``, ``spanish``): the
        card images a page draws unless its player chooses another."""
        ...

    def serve(self, rules: R, seats: int, teams: bool, seed: int) -> Table:
        """A new match to be played by people, shuffled from ``seed``: like :meth:`start`,
        and keeping what its pages show (the story of the game)."""
        ...

    def parse(self, text: str) -> Any:
        """The move written ``text``; a ``ValueError`` (one line) if it is not a move."""
        ...

    # -- its records (docs/records.md) -----------------------------------------------

    record_format: str
    """The ``format`` its records name (``chkobba-record/1``)."""

    def read_record(self, path: str | Path) -> Any:
        """The game's record in the file ``path``; a :data:`RecordFault` if unreadable or
        malformed."""
        ...

    def verify(self, record: Any) -> tuple[str, dict[str, Any]]:
        """Replay ``record``, checking every move: the line ``chkobba verify`` prints and
        the summary ``--json`` prints; a :data:`RecordFault` at the first fault."""
        ...

    def replay_lines(self, record: Any) -> list[str]:
        """``record`` told move by move, each part's score after it, then the match's;
        a :data:`RecordFault` at the first fault."""
        ...


DuelGame = Game
"""The name the strength tools first gave :class:`Game`."""


def catalogue(
    g: Game[Any], targets: Callable[[Game[Any], Any], Sequence[int]] | None = None
) -> dict[str, Any]:
    """What a lobby offers of a game, as JSON: its rule sets (each one's seatings, target,
    the targets offered and the points of its breakdown) and its computer players. The
    targets offered are ``targets(g, rules)`` when given (a server's own), else the game's."""
    sets: dict[str, Any] = {}
    for name in g.rule_sets():
        rules = g.make_rules(name, {})
        sets[name] = {
            "seatings": list(g.seatings(rules)),
            "target": g.targets(rules)[0],
            "targets": list(targets(g, rules) if targets else g.targets(rules)),
            "points": g.point_names(rules),
        }
    return {"rules": sets, "levels": g.levels(), "level": g.default_level()}


def replay(g: Game[R], rules: R, seats: int, teams: bool, seed: int, moves: Sequence[str]) -> Table:
    """The match :meth:`Game.serve` starts from ``seed``, with ``moves`` (in the notation)
    played again, each checked; a move that is not legal there is a
    :class:`MoveRefused` naming its ply."""
    table = g.serve(rules, seats, teams, seed)
    for ply, text in enumerate(moves):
        try:
            table.play(table.turn, text)
        except MoveRefused as e:
            raise MoveRefused(e.code, f"move {ply} ({text!r}): {e}") from None
    return table


def open_steps(
    g: Game[R], rules: R, seats: int, teams: bool, seed: int, moves: Sequence[str],
    names: Sequence[str],
) -> list[dict[str, Any]]:
    """Every step of a finished match, every hand face up (:meth:`Table.open_view`): the
    first deal, then the table after each move; a move that ends a round gives the round
    as it ended (``note`` ``end``), then the next deal (``deal``). Each move is checked
    again on the way (:func:`replay`'s :class:`MoveRefused`)."""
    table = g.serve(rules, seats, teams, seed)
    steps = [{**table.open_view(names), "note": "deal", "ply": None}]
    for ply, text in enumerate(moves):
        done = table.rounds
        try:
            table.play(table.turn, text)
        except MoveRefused as e:
            raise MoveRefused(e.code, f"move {ply} ({text!r}): {e}") from None
        if table.rounds > done:
            steps.append({**table.open_view(names, ended=True), "note": "end", "ply": ply})
            if not table.is_over:
                steps.append({**table.open_view(names), "note": "deal", "ply": None})
        else:
            steps.append({**table.open_view(names), "note": "play", "ply": ply})
    return steps


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
    table: Table,
    agents: Sequence[Player],
    clocks: Sequence[list[float]],
    unit: Unit,
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


def game(name: str) -> Game[Any]:
    """The game called ``name`` (:data:`GAME_NAMES`); an unknown name is a ``ValueError``."""
    if name in GAME_NAMES:
        # Imported here: each game's side of the interface builds on this module.
        module = importlib.import_module(f"chkobba.games.{name}")
        found: Game[Any] = getattr(module, f"{name.upper()}_GAME")
        return found
    raise ValueError(f"unknown game {name!r} (known: {', '.join(GAME_NAMES)})")


def match_lines(totals: str, target: int, winner: str | None) -> list[str]:
    """The last lines ``chkobba replay`` prints: the match score (``totals`` in words),
    then its winner or that it is unfinished."""
    end = f"Winner: {winner}" if winner is not None else "The match is unfinished."
    return [f"Match score: {totals} (target {target})", end]


def game_of_record(path: str | Path) -> Game[Any]:
    """The game a record file belongs to, by the family of its ``format`` (``touti-record``
    for ``touti-record/1``: the game's reader then checks the version). A file that is not
    a JSON object naming a known format goes to the first game, whose reader says why."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        data = None
    fmt = data.get("format") if isinstance(data, dict) else None
    return game_of_format(fmt if isinstance(fmt, str) else "")


def game_of_format(fmt: str) -> Game[Any]:
    """The game whose records have the format ``fmt`` (its family: ``touti-record`` for
    ``touti-record/1``); the first game for a format no game has."""
    games = [game(name) for name in GAME_NAMES]
    family = fmt.split("/")[0]
    return next((g for g in games if g.record_format.split("/")[0] == family), games[0])


def describe(g: Game[R], rules: R) -> str:
    """The game and rule set in a few words: ``scopa``, ``touti``, ``chkobba (target 11)``."""
    name, options = g.rules_json(rules)
    if not options:
        return name
    return f"{name} ({', '.join(f'{k} {v}' for k, v in options.items())})"
