"""The ``chkobba duel`` and ``chkobba tournament`` commands."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
from chkobba.duel.harness import check_player, run_duel, run_tournament
from chkobba.duel.play import AgentMoveError, Unit
from chkobba.duel.ray_backend import RayError


def _player(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        check_player(value)
    except AgentError as e:
        raise click.BadParameter(str(e), ctx, param) from None
    return value


def _players(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    for name in value:
        _player(ctx, param, name)
    return value


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


_common = [
    click.option("--pairs", type=click.IntRange(min=1), default=100, show_default=True,
                 help="Duplicate pairs per duel (each pair is two games)."),
    click.option("--seed", type=int, default=0, show_default=True,
                 help="Seed of the shuffles and of the players."),
    click.option("--players", "seats", type=click.Choice(["2", "4"]), default="2",
                 show_default=True, help="2 players, or 4 playing 2 against 2."),
    click.option("--target", type=click.IntRange(min=1), default=None,
                 help="Match target in points (default: the rules' 21)."),
    click.option("--unit", type=click.Choice(["round", "match"]), default="round",
                 show_default=True, help="What one game is: one deal, or a whole match."),
    click.option("--jobs", type=click.IntRange(min=1), default=None,
                 help="Worker processes (default: one per core); results do not depend on it."),
    click.option("--ray", "ray", metavar="ADDRESS", default=None,
                 help="Play on a Ray cluster instead of local processes: auto, HOST:PORT, "
                      "ray://HOST:PORT, or local to start one here (needs chkobba[ray])."),
    click.option("--json", "as_json", is_flag=True, help="Print the result as JSON."),
]  # fmt: skip


def _with_common(f: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(_common):
        f = option(f)
    return f


@click.command()
@click.argument("a", callback=_player)
@click.argument("b", callback=_player)
@_with_common
@click.option(
    "--save-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Save every game there as a chkobba-record/1 file.",
)
def duel(
    a: str,
    b: str,
    pairs: int,
    seed: int,
    seats: str,
    target: int | None,
    unit: Unit,
    jobs: int | None,
    ray: str | None,
    as_json: bool,
    save_dir: Path | None,
) -> None:
    """Play duplicate pairs of player A against player B and measure who is stronger.

    Each pair deals the same shuffle twice with the seats swapped, so luck of
    the cards cancels out. Reports wins, draws and losses per game, the mean
    point margin with its 95% interval, an Elo difference and the time per move.
    """
    try:
        with _progress(pairs, f"{a} vs {b}", as_json) as progress:
            result = run_duel(
                a, b, pairs, seed=seed, players=int(seats), unit=unit, target=target,
                jobs=jobs, save_dir=save_dir, progress=progress, ray=ray,
            )  # fmt: skip
    except (AgentMoveError, RayError, ValueError, OSError) as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        for line in result.summary():
            click.echo(line)
        if save_dir is not None:
            click.echo(f"records: {2 * pairs} games saved in {save_dir}")


@click.command()
@click.argument("names", metavar="PLAYER...", nargs=-1, required=True, callback=_players)
@_with_common
def tournament(
    names: tuple[str, ...],
    pairs: int,
    seed: int,
    seats: str,
    target: int | None,
    unit: Unit,
    jobs: int | None,
    ray: str | None,
    as_json: bool,
) -> None:
    """A round robin of duels between every two players, with an Elo rating for each.

    The table gives each player's mean margin per game against every other,
    its total score (a draw counts half) and an Elo rating fitted to all the
    games, with ``random`` (or else the first player) rated 0.
    """
    if len(names) < 2:
        raise click.UsageError("a tournament needs at least two players")
    n = len(names)
    total = pairs * n * (n - 1) // 2
    try:
        with _progress(total, "tournament", as_json) as progress:
            result = run_tournament(
                names, pairs, seed=seed, players=int(seats), unit=unit, target=target,
                jobs=jobs, progress=progress, ray=ray,
            )  # fmt: skip
    except (AgentMoveError, RayError, ValueError) as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        for line in result.table():
            click.echo(line)
