"""``chkobba simulate``: seeded rounds or matches between named players, and their results.

Players are named as the agent registry knows them (``random``, ``greedy``,
``heuristic`` …): one name per seat, or two names alternated around the table.
Each name in the list is an *entry*, and the results are given per entry.

Seats are not equal (the cutter plays first; the last capturer takes the
table), so the lineup turns around the table: game ``g`` seats the entries
rotated by ``g`` places, and the games of one full turn of the lineup share the
same seeded deals. Every entry thus plays every deal from every seat (the
"duplicate" format of bridge tournaments), which removes most of the luck of the
deal from the comparison; the standard error of the margin is computed over
these groups of games, which are independent of each other.

Everything is seeded: the same command gives the same results (apart from the
timings).
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from chkobba.agents.base import ENGINE_PREFIX
from chkobba.agents.engine import FAULTS
from chkobba.duel.cli import (
    ENGINE_LOG_OPTION,
    GAME_OPTION,
    RULES_OPTION,
    check_players,
    game_rules,
)
from chkobba.games.base import (
    AgentMoveError,
    DuelGame,
    Table,
    Unit,
    choose_table,
    game,
    lineup_period,
    play_out,
    rotated,
)

IllegalChoice = AgentMoveError
"""A player chose a move that is not among its legal moves (a bug in that player)."""


@dataclass
class EntryResult:
    """One entry's results over the simulation."""

    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    """Points scored in all games (per seat, for an entry holding several)."""
    rounds: int = 0
    """Rounds played (summed over games)."""
    margins: list[float] = field(default_factory=list)
    """Margin of each group of games (one full turn of the lineup): see :func:`run_simulation`."""
    moves: int = 0
    seconds: float = 0.0
    """Time spent choosing moves."""
    faults: list[int] = field(default_factory=lambda: [0] * len(FAULTS))
    """As an outside engine: its faults per kind (:data:`~chkobba.agents.engine.FAULTS`)."""

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def points_per_round(self) -> float:
        """Mean points per round."""
        return self.points / self.rounds if self.rounds else 0.0

    @property
    def margin(self) -> float:
        """Mean margin over the other entries, per game."""
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def margin_se(self) -> float | None:
        """Standard error of :attr:`margin`; None with fewer than two groups of games."""
        n = len(self.margins)
        if n < 2:
            return None
        mean = self.margin
        var = sum((m - mean) ** 2 for m in self.margins) / (n - 1)
        return math.sqrt(var / n)

    @property
    def ms_per_move(self) -> float:
        """Mean time to choose a move, in milliseconds."""
        return 1000 * self.seconds / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, Any]:
        """The entry's results as a JSON-ready dict."""
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "points_per_round": self.points_per_round,
            "margin": self.margin,
            "margin_se": self.margin_se,
            "moves": self.moves,
            "ms_per_move": self.ms_per_move,
            **(
                {"faults": dict(zip(FAULTS, self.faults, strict=True))}
                if self.name.startswith(ENGINE_PREFIX)
                else {}
            ),
        }


@dataclass
class Simulation:
    """The results of a simulation, per entry."""

    mode: str
    """``rounds`` (single rounds, margins in round points) or ``matches`` (match points)."""
    games: int
    seats: int
    teams: bool
    target: int
    seed: int
    lineup: list[int]
    """The entry sitting at each seat in the first game."""
    entries: list[EntryResult]
    game: str = "chkobba"
    rules: str = "chkobba"
    """The rule set played: a preset's name (``touti`` for Touti)."""
    options: dict[str, Any] = field(default_factory=dict)
    """The options changed from the preset (or from Touti's defaults)."""
    lowest_wins: bool = False
    """Whether the fewest points won: margins are then counted the other way."""

    def to_json(self) -> dict[str, Any]:
        """The results as a JSON-ready dict (``chkobba simulate --json``)."""
        return {
            "game": self.game,
            "rules": self.rules,
            "options": self.options,
            "mode": self.mode,
            "games": self.games,
            "seats": self.seats,
            "teams": self.teams,
            "target": self.target,
            "lowest_wins": self.lowest_wins,
            "seed": self.seed,
            "lineup": [self.entries[e].name for e in self.lineup],
            "players": [e.to_json() for e in self.entries],
        }


def lineup_for(names: Sequence[str], seats: int) -> list[int]:
    """The entry at each seat: one name per seat, or two names alternated.

    Raises ``ValueError`` for any other number of names.
    """
    if len(names) == seats:
        return list(range(seats))
    if len(names) == 2:
        return [s % 2 for s in range(seats)]
    raise ValueError(
        f"{len(names)} players named for {seats} seats: name one player per seat, "
        "or two players to alternate around the table"
    )


def _derived_seed(*parts: object) -> int:
    # A str seed is hashed with SHA-512 by random.Random: stable across runs and
    # platforms, and independent streams for each (game, seat).
    return random.Random("/".join(str(p) for p in parts)).getrandbits(63)


def run_simulation(
    names: Sequence[str],
    games: int,
    *,
    mode: str = "rounds",
    seats: int = 2,
    teams: bool = False,
    target: int | None = None,
    seed: int = 0,
    on_game: Callable[[], None] | None = None,
    rules: Any = None,
    game_name: str = "chkobba",
) -> Simulation:
    """Play ``games`` seeded rounds or matches between the named players.

    ``mode`` is ``rounds`` (each game is one round; points are round points) or
    ``matches`` (each game is a match to ``target``, default the rules' own).
    ``game_name`` is ``chkobba`` (``rules`` any preset's rule set, default
    Chkobba's) or ``touti``. Game ``g`` turns the lineup by ``g`` seats and uses
    the deals of group ``g // period``, so the games of one group replay the same
    deals with every entry in every seat.

    An entry's margin in a game is its points (per seat it holds) minus the
    mean of the other entries' points (the other way round where the fewest
    points win); its reported margin is the mean over groups of the group's mean
    margin. Raises ``ValueError`` for a bad seating or rule set,
    :class:`~chkobba.agents.AgentError` for an unknown player name.
    """
    if mode not in ("rounds", "matches"):
        raise ValueError(f"mode must be 'rounds' or 'matches', not {mode!r}")
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    g = game(game_name)
    if rules is None:
        rules = g.rules()
    if target is not None:
        rules = g.with_target(rules, target)
    lineup = lineup_for(names, seats)
    g.check_table(rules, seats, teams)  # before any work
    for n in dict.fromkeys(names):
        g.check_player(n)
    period = lineup_period(lineup)
    sign = -1 if g.lowest_wins(rules) else 1
    entries = [EntryResult(n) for n in names]
    group: list[list[float]] = [[] for _ in names]
    unit: Unit = "round" if mode == "rounds" else "match"
    for number in range(games):
        turn = number % period
        seating = rotated(lineup, turn)
        agents = [
            g.make_agent(names[e], _derived_seed("agent", seed, number, s))
            for s, e in enumerate(seating)
        ]
        table = g.start(rules, seats, teams, seed=_derived_seed("deal", seed, number // period))
        clocks: list[list[float]] = [[] for _ in range(seats)]
        play_out(table, agents, clocks, unit, g.round_word)
        _account(table, seating, entries, mode, clocks, group, sign)
        for s, e in enumerate(seating):
            # The moves an outside engine failed to make (the fallback made them).
            for f in getattr(agents[s], "faults", ()):
                if f["why"] in FAULTS:
                    entries[e].faults[FAULTS.index(f["why"])] += 1
        if turn == period - 1 or number == games - 1:
            for e, ms in enumerate(group):
                if ms:
                    entries[e].margins.append(sum(ms) / len(ms))
                ms.clear()
        if on_game is not None:
            on_game()
    rules_name, options = g.rules_json(rules)
    return Simulation(
        mode, games, seats, teams, rules.target, seed, lineup, entries,
        game=g.name, rules=rules_name, options=options, lowest_wins=sign < 0,
    )  # fmt: skip


def _account(
    table: Table,
    seating: Sequence[int],
    entries: list[EntryResult],
    mode: str,
    clocks: Sequence[Sequence[float]],
    group: list[list[float]],
    sign: int,
) -> None:
    """Add one finished game to the entries' results."""
    if mode == "rounds":
        side_points = table.round_points(0)
        rounds = 1
    else:
        side_points = table.totals()
        rounds = table.rounds
    side_of = table.side_of
    seats_of: dict[int, list[int]] = {}
    for s, e in enumerate(seating):
        seats_of.setdefault(e, []).append(s)
    points: dict[int, float] = {}
    for e, ss in seats_of.items():
        points[e] = sum(side_points[side_of[s]] for s in ss) / len(ss)
        entries[e].points += points[e]
        entries[e].rounds += rounds
        entries[e].moves += sum(len(clocks[s]) for s in ss)
        entries[e].seconds += sum(sum(clocks[s]) for s in ss) / 1000
    if mode == "matches":
        winners = {e for e, ss in seats_of.items() if any(side_of[s] == table.winner for s in ss)}
    else:
        best = max(sign * p for p in points.values())
        winners = {e for e, p in points.items() if sign * p == best}
    for e in seats_of:
        if e not in winners:
            entries[e].losses += 1
        elif len(winners) == 1 or mode == "matches":
            entries[e].wins += 1
        else:
            entries[e].draws += 1
        others = [p for o, p in points.items() if o != e]
        group[e].append(sign * (points[e] - sum(others) / len(others)))


def results_table(sim: Simulation) -> RichTable:
    """The results as a rich table."""
    unit = game(sim.game).round_word if sim.mode == "rounds" else "match"
    games = f"{sim.games} {unit}{'es' if unit == 'match' else 's'}"
    names = " vs ".join(e.name for e in sim.entries)
    seating = f"{sim.seats} seats" + (", 2 against 2" if sim.teams else "")
    # The target is in the title already, for matches.
    changed = {k: v for k, v in sim.options.items() if k != "target"}
    rules = "" if sim.rules == "chkobba" and not changed else f"{sim.rules}, "
    title = f"{names}: {games}, {rules}{seating}, seed {sim.seed}"
    if sim.mode == "matches":
        title += f", target {sim.target}"
    if sim.lowest_wins:
        caption = f"margin: the others' mean minus own points per {unit} (the fewest win)"
    else:
        caption = f"margin: points per {unit} above the others' mean"
    caption += ", ± its standard error"
    table = RichTable(title=title, caption=caption)
    table.add_column("player")
    for col in ("won", "drawn", "lost", "win %", "pts/rnd", "margin", "± se", "ms/move"):
        table.add_column(col, justify="right")
    for e in sim.entries:
        se = e.margin_se
        table.add_row(
            e.name,
            str(e.wins),
            str(e.draws),
            str(e.losses),
            f"{100 * e.wins / e.games:.1f}" if e.games else "-",
            f"{e.points_per_round:.3f}",
            f"{e.margin:+.3f}",
            f"{se:.3f}" if se is not None else "-",
            f"{e.ms_per_move:.3f}",
        )
    return table


@click.command()
@click.argument("players", nargs=-1, required=True)
@click.option(
    "--rounds", "rounds", type=click.IntRange(min=1), help="Play N single rounds (default 1000)."
)
@click.option("--matches", "matches", type=click.IntRange(min=1), help="Play N whole matches.")
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed for the deals and the players."
)
@GAME_OPTION
@RULES_OPTION
@click.option(
    "--seats",
    "--players",
    "seats",
    type=click.Choice(["2", "3", "4", "6"]),
    default=None,
    help="Players at the table, as the rules allow (default: one per name, 4 with --teams, "
    "else 2, or the rules' first table).",
)
@click.option("--teams", is_flag=True, help="Play 2 against 2 (partners opposite).")
@click.option(
    "--target",
    type=click.IntRange(min=1),
    default=None,
    help="Points that end a match (default: the rules' own: 21 for chkobba, 600 for touti).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the results as JSON (no progress bar)."
)
@ENGINE_LOG_OPTION
def simulate(
    players: tuple[str, ...],
    rounds: int | None,
    matches: int | None,
    seed: int,
    game_name: str,
    rules_name: str | None,
    seats: str | None,
    teams: bool,
    target: int | None,
    as_json: bool,
) -> None:
    """Play seeded rounds or matches between PLAYERS and print the results.

    Name one player per seat, or two players to alternate around the table:
    `chkobba simulate greedy random --rounds 2000`. The lineup turns one seat
    per game so that every player plays the same deals from every seat. Any
    preset of the Chkobba family (--rules) or Touti (--game touti) can be played.
    Players are named as for `chkobba duel`: a built-in name, engine:COMMAND or
    policy:PATH.
    """
    g, rules = game_rules(game_name, rules_name, target)
    check_players(g, players, "PLAYERS")
    if len(players) < 2:
        raise click.BadParameter("name at least two players", param_hint="PLAYERS")
    if rounds is not None and matches is not None:
        raise click.UsageError("give --rounds or --matches, not both")
    n_seats, teams = _table(g, rules, players, seats, teams)
    if len(players) not in (2, n_seats):
        raise click.BadParameter(
            f"{len(players)} players named for {n_seats} seats: name one player per seat, "
            "or two players to alternate around the table",
            param_hint="PLAYERS",
        )
    mode = "matches" if matches is not None else "rounds"
    games = matches if matches is not None else (rounds if rounds is not None else 1000)
    run = functools.partial(
        run_simulation, players, games, mode=mode, seats=n_seats, teams=teams, rules=rules,
        game_name=game_name,
    )  # fmt: skip
    try:
        if as_json:
            click.echo(json.dumps(run(seed=seed).to_json()))
            return
        progress = Progress(
            TextColumn(mode),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        with progress:
            task = progress.add_task(mode, total=games)
            sim = run(seed=seed, on_game=lambda: progress.advance(task))
    except IllegalChoice as e:
        raise click.ClickException(str(e)) from None
    Console().print(results_table(sim))
    for entry in sim.entries:
        if entry.name.startswith(ENGINE_PREFIX):
            counts = ", ".join(f"{n} {k}" for k, n in zip(FAULTS, entry.faults, strict=True) if n)
            click.echo(
                f"engine faults of {entry.name} (moves made by random): {counts or 'none'}"
            )


def _table(
    g: DuelGame[Any], rules: Any, players: Sequence[str], seats: str | None, teams: bool
) -> tuple[int, bool]:
    """The table from ``--seats`` and ``--teams`` (or the number of names), checked
    against the rules: a usage error if they do not allow it."""
    n_seats: int | None = int(seats) if seats is not None else None
    if n_seats is None and not teams and len(players) > 2:
        n_seats = len(players)
    if teams and n_seats not in (None, 4):
        raise click.BadParameter("teams need 4 seats (2 against 2)", param_hint="--teams")
    n_seats, partners = choose_table(
        g.seatings(rules), n_seats, True if teams else None, prefer_teams=False
    )
    try:
        g.check_table(rules, n_seats, partners)
    except ValueError as e:
        hint = "--teams" if teams else "--seats"
        raise click.BadParameter(str(e), param_hint=hint) from None
    return n_seats, partners
