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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from chkobba.agents.base import Agent, AgentError, check_playable, make_agent
from chkobba.match import Match
from chkobba.observe import observe
from chkobba.rules import CHKOBBA, PRESETS, RulesError, RuleSet, preset


class IllegalChoice(RuntimeError):
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
    rules: str = "chkobba"
    """The preset played (``chkobba`` or one of the Scopa family)."""

    def to_json(self) -> dict[str, Any]:
        """The results as a JSON-ready dict (``chkobba simulate --json``)."""
        return {
            "mode": self.mode,
            "rules": self.rules,
            "games": self.games,
            "seats": self.seats,
            "teams": self.teams,
            "target": self.target,
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


def lineup_period(lineup: Sequence[int]) -> int:
    """How many one-seat turns bring the lineup back to itself."""
    n = len(lineup)
    for r in range(1, n + 1):
        if all(lineup[(s + r) % n] == lineup[s] for s in range(n)):
            return r
    return n


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
    rules: RuleSet = CHKOBBA,
) -> Simulation:
    """Play ``games`` seeded rounds or matches between the named players.

    ``mode`` is ``rounds`` (each game is one round; points are round points) or
    ``matches`` (each game is a match to ``target``, by default the rules' own).
    ``rules`` is the rule set (Chkobba by default). Game ``g`` turns the
    lineup by ``g`` seats and uses the deals of group ``g // period``, so the
    games of one group replay the same deals with every entry in every seat.

    An entry's margin in a game is its points (per seat it holds) minus the
    mean of the other entries' points; its reported margin is the mean over
    groups of the group's mean margin. Raises ``ValueError`` for a bad seating,
    :class:`~chkobba.agents.AgentError` for an unknown player name.
    """
    if mode not in ("rounds", "matches"):
        raise ValueError(f"mode must be 'rounds' or 'matches', not {mode!r}")
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    if target is not None:
        rules = rules.with_options({"target": target})
    lineup = lineup_for(names, seats)
    Match(rules, seats, teams, seed=0)  # checks the seating before any work
    for n in dict.fromkeys(names):
        check_playable(n)
    period = lineup_period(lineup)
    entries = [EntryResult(n) for n in names]
    group: list[list[float]] = [[] for _ in names]
    for g in range(games):
        turn = g % period
        seating = [lineup[(s + turn) % seats] for s in range(seats)]
        agents: list[Agent] = [
            make_agent(names[e], _derived_seed("agent", seed, g, s)) for s, e in enumerate(seating)
        ]
        match = Match(rules, seats, teams, seed=_derived_seed("deal", seed, g // period))
        moves, seconds = _play(match, agents, stop_after_round=mode == "rounds")
        _account(match, seating, entries, mode, moves, seconds, group)
        if turn == period - 1 or g == games - 1:
            for e, ms in enumerate(group):
                if ms:
                    entries[e].margins.append(sum(ms) / len(ms))
                ms.clear()
        if on_game is not None:
            on_game()
    return Simulation(mode, games, seats, teams, rules.target, seed, lineup, entries, rules.name)


def _play(
    match: Match, agents: Sequence[Agent], stop_after_round: bool
) -> tuple[list[int], list[float]]:
    """Play the match (or its first round) out; moves and seconds spent per seat."""
    moves = [0] * len(agents)
    seconds = [0.0] * len(agents)
    clock = time.perf_counter
    while not match.is_over and not (stop_after_round and match.finished):
        seat = match.turn
        obs = observe(match, seat)
        agent = agents[seat]
        t0 = clock()
        move = agent.choose(obs)
        seconds[seat] += clock() - t0
        moves[seat] += 1
        if move not in obs.legal_moves:
            raise IllegalChoice(
                f"player {agent.name!r} at seat {seat} chose an illegal move: {move}"
            )
        match.apply_unchecked(move)
    return moves, seconds


def _account(
    match: Match,
    seating: Sequence[int],
    entries: list[EntryResult],
    mode: str,
    moves: Sequence[int],
    seconds: Sequence[float],
    group: list[list[float]],
) -> None:
    """Add one finished game to the entries' results."""
    if mode == "rounds":
        score = match.finished[0].score
        assert score is not None
        side_points: Sequence[int] = score.points
        rounds = 1
    else:
        side_points = match.totals
        rounds = len(match.finished)
    seats_of: dict[int, list[int]] = {}
    for s, e in enumerate(seating):
        seats_of.setdefault(e, []).append(s)
    points: dict[int, float] = {}
    for e, ss in seats_of.items():
        points[e] = sum(side_points[match.side_of[s]] for s in ss) / len(ss)
        entries[e].points += points[e]
        entries[e].rounds += rounds
        entries[e].moves += sum(moves[s] for s in ss)
        entries[e].seconds += sum(seconds[s] for s in ss)
    if mode == "matches":
        winners = {
            e for e, ss in seats_of.items() if any(match.side_of[s] == match.winner for s in ss)
        }
    else:
        best = max(points.values())
        winners = {e for e, p in points.items() if p == best}
    for e in seats_of:
        if e not in winners:
            entries[e].losses += 1
        elif len(winners) == 1 or mode == "matches":
            entries[e].wins += 1
        else:
            entries[e].draws += 1
        others = [p for o, p in points.items() if o != e]
        group[e].append(points[e] - sum(others) / len(others))


def results_table(sim: Simulation) -> Table:
    """The results as a rich table."""
    unit = "round" if sim.mode == "rounds" else "match"
    games = f"{sim.games} {unit}{'es' if unit == 'match' else 's'}"
    names = " vs ".join(e.name for e in sim.entries)
    seating = f"{sim.seats} seats" + (", 2 against 2" if sim.teams else "")
    game = "" if sim.rules == "chkobba" else f"{sim.rules}, "
    title = f"{names}: {game}{games}, {seating}, seed {sim.seed}"
    if sim.mode == "matches":
        title += f", target {sim.target}"
    caption = f"margin: points per {unit} above the others' mean, ± its standard error"
    table = Table(title=title, caption=caption)
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
@click.option(
    "--rules",
    "rules_name",
    type=click.Choice(list(PRESETS)),
    default="chkobba",
    show_default=True,
    help="The game: chkobba or one of the Scopa family (see `chkobba rules`).",
)
@click.option(
    "--seats",
    type=click.Choice(["2", "3", "4", "6"]),
    default=None,
    help="Players at the table (default: one per name, 4 with --teams, else 2); 6 in the "
    "Scopa family.",
)
@click.option("--teams", is_flag=True, help="Play 2 against 2 (partners opposite).")
@click.option(
    "--target",
    type=click.IntRange(min=1),
    default=None,
    help="Points that end a match (default: the rules' own). The sources name 11, 21 or 31 "
    "for Chkobba, 11, 16 or 21 for Scopa.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the results as JSON (no progress bar)."
)
def simulate(
    players: tuple[str, ...],
    rounds: int | None,
    matches: int | None,
    seed: int,
    rules_name: str,
    seats: str | None,
    teams: bool,
    target: int | None,
    as_json: bool,
) -> None:
    """Play seeded rounds or matches between PLAYERS and print the results.

    Name one player per seat, or two players to alternate around the table:
    `chkobba simulate greedy random --rounds 2000`. The lineup turns one seat
    per game so that every player plays the same deals from every seat.
    """
    for name in dict.fromkeys(players):
        try:
            check_playable(name)
        except AgentError as e:
            raise click.BadParameter(str(e), param_hint="PLAYERS") from None
    if len(players) < 2:
        raise click.BadParameter("name at least two players", param_hint="PLAYERS")
    if rounds is not None and matches is not None:
        raise click.UsageError("give --rounds or --matches, not both")
    n_seats = int(seats) if seats is not None else _default_seats(players, teams)
    if teams and n_seats != 4:
        raise click.BadParameter("teams need 4 seats (2 against 2)", param_hint="--teams")
    if len(players) not in (2, n_seats):
        raise click.BadParameter(
            f"{len(players)} players named for {n_seats} seats: name one player per seat, "
            "or two players to alternate around the table",
            param_hint="PLAYERS",
        )
    try:
        rules = preset(rules_name, {"target": target} if target is not None else {})
        Match(rules, n_seats, teams, seed=0)
    except RulesError as e:
        raise click.BadParameter(str(e), param_hint="--target") from None
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--seats") from None
    mode = "matches" if matches is not None else "rounds"
    games = matches if matches is not None else (rounds if rounds is not None else 1000)
    run = functools.partial(
        run_simulation, players, games, mode=mode, seats=n_seats, teams=teams, rules=rules
    )
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


def _default_seats(players: Sequence[str], teams: bool) -> int:
    if teams:
        return 4
    return len(players) if len(players) in (3, 4, 6) else 2
