"""The ``chkobba`` command: play, verify and replay records, simulate."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from chkobba.coach.command import analyze_cmd
from chkobba.duel.cli import duel, tournament
from chkobba.games import RecordFault, game_of_record
from chkobba.moderator_command import moderator
from chkobba.players_command import players
from chkobba.rules_command import rules
from chkobba.simulate import simulate
from chkobba.tui import play
from chkobba.web.serve import serve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chkobba")
def main() -> None:
    """Chkobba, the Tunisian card game: play it, simulate it, check its records.

    Shell completion (bash): eval "$(_CHKOBBA_COMPLETE=bash_source chkobba)"; for zsh
    or fish, zsh_source or fish_source.
    """


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def verify(file: Path, as_json: bool) -> None:
    """Replay a game record and check every move.

    Exits 0 for a valid record (printing the rounds' points with --json), 1 with
    one line naming the round, the play and the reason for an invalid one.
    Touti records (format touti-record/1) name the deal and the move instead.
    """
    g = game_of_record(file)
    try:
        line, summary = g.verify(g.read_record(file))
    except RecordFault as e:
        click.echo(str(e), err=not as_json)
        sys.exit(1)
    click.echo(json.dumps(summary) if as_json else line)


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def replay_cmd(file: Path) -> None:
    """Print a record play by play, with each round's breakdown."""
    g = game_of_record(file)
    try:
        lines = g.replay_lines(g.read_record(file))
    except RecordFault as e:
        click.echo(str(e), err=True)
        sys.exit(1)
    for line in lines:
        click.echo(line)


main.add_command(simulate)
main.add_command(play)
main.add_command(duel)
main.add_command(tournament)
main.add_command(serve)
main.add_command(rules)
main.add_command(analyze_cmd)
main.add_command(players)
main.add_command(moderator)
