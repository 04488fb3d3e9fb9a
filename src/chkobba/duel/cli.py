"""The ``chkobba duel`` and ``chkobba tournament`` commands."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from chkobba.agents import AgentError
from chkobba.duel.harness import Progress as ProgressCallback
from chkobba.duel.harness import duel_spec, run_duel, run_tournament
from chkobba.duel.ray_backend import RayError
from chkobba.fishing.rules import PRESETS
from chkobba.games.base import GAME_NAMES, AgentMoveError, DuelGame, Unit, game


def check_players(g: DuelGame[Any], names: Sequence[str], hint: str) -> None:
    """A usage error (one line, naming the game's players) for a name the game lacks."""
    for name in dict.fromkeys(names):
        try:
            g.check_player(name)
        except AgentError as e:
            raise click.BadParameter(str(e), param_hint=hint) from None


def game_rules(
    game_name: str, rules_name: str | None, target: int | None
) -> tuple[DuelGame[Any], Any]:
    """The game and its rule set from ``--game``, ``--rules`` and ``--target``; usage errors
    for a preset Touti lacks or a bad target."""
    g = game(game_name)
    try:
        rules = g.rules(rules_name)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--rules") from None
    if target is not None:
        try:
            rules = g.with_target(rules, target)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--target") from None
    return g, rules


@contextmanager
def _progress(total: int, label: str, quiet: bool) -> Iterator[ProgressCallback | None]:
    """A progress bar on stderr (none when ``quiet``), fed with pairs played."""
    if quiet:
        yield None
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("pairs"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    console = Console(stderr=True)
    # Off a terminal (a log file, a pipe) a bar would only leave blank lines.
    with Progress(
        *columns, console=console, transient=True, disable=not console.is_terminal
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


GAME_OPTION = click.option(
    "--game", "game_name", type=click.Choice(list(GAME_NAMES)), default="chkobba",
    show_default=True,
    help="chkobba (and the Scopa family, see --rules) or touti (4 players, 2 against 2).",
)  # fmt: skip
"""``--game``, shared with ``chkobba simulate``."""

RULES_OPTION = click.option(
    "--rules", "rules_name", type=click.Choice(list(PRESETS)), default=None, metavar="NAME",
    help="A preset of the Chkobba family: " + ", ".join(PRESETS) + " (see `chkobba rules`; "
         "default chkobba).",
)  # fmt: skip
"""``--rules``, shared with ``chkobba simulate``."""

def _start_engine_log(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    if value is None:
        return
    from chkobba.agents.engine import start_engine_log

    try:
        start_engine_log(value)
    except OSError as e:
        raise click.BadParameter(
            f"cannot write {value}: {e.strerror or e}", ctx=ctx, param=param
        ) from None


ENGINE_LOG_OPTION = click.option(
    "--engine-log", type=click.Path(dir_okay=False, path_type=Path), default=None,
    expose_value=False, callback=_start_engine_log, metavar="FILE",
    help="Write every line exchanged with an engine:COMMAND player (its info lines "
         "included) to FILE, one line each with the time, process, seat and direction "
         "(> to the engine, < from it). Not on Ray workers.",
)  # fmt: skip
"""``--engine-log FILE``, shared by every command that may start an outside engine."""

_common = [
    click.option("--pairs", type=click.IntRange(min=1), default=100, show_default=True,
                 help="Duplicate pairs per duel (each pair is one game per seating: two at "
                      "a table of 2, 4 or 6, three at a table of 3)."),
    click.option("--seed", type=int, default=0, show_default=True,
                 help="Seed of the shuffles and of the players."),
    GAME_OPTION,
    RULES_OPTION,
    click.option("--players", "seats", type=click.Choice(["2", "3", "4", "6"]), default=None,
                 help="Players at the table, as the rules allow (default: 2 if they can, "
                      "else their first table; 4 for touti). 4 play 2 against 2 unless "
                      "--no-teams."),
    click.option("--teams/--no-teams", default=None,
                 help="Partners opposite, 2 against 2 (the default with 4 players where "
                      "the rules allow it), or each for themselves."),
    click.option("--target", type=click.IntRange(min=1), default=None,
                 help="Match target in points (default: the rules' own)."),
    click.option("--unit", type=click.Choice(["round", "match"]), default="round",
                 show_default=True, help="What one game is: one deal, or a whole match."),
    click.option("--jobs", type=click.IntRange(min=1), default=None,
                 help="Worker processes (default: one per core); results do not depend on it."),
    click.option("--ray", "ray", metavar="ADDRESS", default=None,
                 help="Play on a Ray cluster instead of local processes: auto, HOST:PORT, "
                      "ray://HOST:PORT, or local to start one here (needs chkobba[ray])."),
    click.option("--json", "as_json", is_flag=True, help="Print the result as JSON."),
    ENGINE_LOG_OPTION,
]  # fmt: skip


def _with_common(f: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(_common):
        f = option(f)
    return f


def checked_rules(
    a: str,
    b: str,
    seed: int,
    seats: str | None,
    teams: bool | None,
    unit: Unit,
    target: int | None,
    game_name: str,
    rules_name: str | None,
) -> Any:
    """The rule set to play, once the settings are checked: a bad one is a usage error
    (one line) before any game is played."""
    _, rules = game_rules(game_name, rules_name, target)
    players = None if seats is None else int(seats)
    try:
        duel_spec(a, b, seed, players, unit, None, rules, None, game_name, teams)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    return rules


@click.command()
@click.argument("a")
@click.argument("b")
@_with_common
@click.option(
    "--save-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Save every game there as a record (chkobba-record/1, or touti-record/1).",
)
def duel(
    a: str,
    b: str,
    pairs: int,
    seed: int,
    game_name: str,
    rules_name: str | None,
    seats: str | None,
    teams: bool | None,
    target: int | None,
    unit: Unit,
    jobs: int | None,
    ray: str | None,
    as_json: bool,
    save_dir: Path | None,
) -> None:
    """Play duplicate pairs of player A against player B and measure who is stronger.

    Each pair deals the same shuffle twice with the seats swapped (three times,
    turning the seats, at a table of three), so luck of the cards cancels out.
    Reports wins, draws and losses per game, the mean point margin with its 95%
    interval, an Elo difference and the time per move. Any preset of the Chkobba
    family (--rules) or Touti (--game touti, its own players) can be played.

    \b
    A player is a built-in name (`chkobba players` lists them with their strength),
    engine:COMMAND, an outside program speaking docs/engine-protocol.md
    (engine:COMMAND@2s for 2 s a move; quote a command with spaces:
    "engine:python3 examples/engines/greedy_engine.py"), or policy:PATH, a
    trained policy file (docs/rl.md; not in Touti).
    """
    check_players(game(game_name), [a], "A")
    check_players(game(game_name), [b], "B")
    rules = checked_rules(a, b, seed, seats, teams, unit, target, game_name, rules_name)
    players = None if seats is None else int(seats)
    try:
        with _progress(pairs, f"{a} vs {b}", as_json) as progress:
            result = run_duel(
                a, b, pairs, seed=seed, players=players, unit=unit, rules=rules,
                jobs=jobs, save_dir=save_dir, progress=progress, ray=ray,
                game_name=game_name, teams=teams,
            )  # fmt: skip
    except (AgentMoveError, RayError, ValueError, OSError) as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        for line in result.summary():
            click.echo(line)
        if save_dir is not None:
            click.echo(f"records: {result.games} games saved in {save_dir}")


@click.command()
@click.argument("names", metavar="PLAYER...", nargs=-1, required=True)
@_with_common
def tournament(
    names: tuple[str, ...],
    pairs: int,
    seed: int,
    game_name: str,
    rules_name: str | None,
    seats: str | None,
    teams: bool | None,
    target: int | None,
    unit: Unit,
    jobs: int | None,
    ray: str | None,
    as_json: bool,
) -> None:
    """A round robin of duels between every two players, with an Elo rating for each.

    The table gives each player's mean margin per game against every other,
    its total score (a draw counts half) and an Elo rating fitted to all the
    games, with ``random`` (or else the first player) rated 0. Players are
    named as for `chkobba duel`: a built-in name, engine:COMMAND or policy:PATH.
    """
    if len(names) < 2:
        raise click.UsageError("a tournament needs at least two players")
    check_players(game(game_name), names, "PLAYER...")
    rules = checked_rules(names[0], names[1], seed, seats, teams, unit, target, game_name,
                          rules_name)  # fmt: skip
    n = len(names)
    total = pairs * n * (n - 1) // 2
    players = None if seats is None else int(seats)
    try:
        with _progress(total, "tournament", as_json) as progress:
            result = run_tournament(
                names, pairs, seed=seed, players=players, unit=unit, rules=rules,
                jobs=jobs, progress=progress, ray=ray, game_name=game_name, teams=teams,
            )  # fmt: skip
    except (AgentMoveError, RayError, ValueError) as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        for line in result.table():
            click.echo(line)
