"""The ``chkobba`` command: play, verify and replay records, simulate."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from chkobba.coach.command import analyze_cmd
from chkobba.duel.cli import duel, tournament
from chkobba.fishing.narrate import narrate_round, side_name
from chkobba.fishing.record import GameRecord, RecordError, replay
from chkobba.players_command import players
from chkobba.rules_command import rules
from chkobba.simulate import simulate
from chkobba.touti.cli import is_touti_record, replay_touti, verify_touti
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
    if is_touti_record(file):
        verify_touti(file, as_json)
        return
    try:
        rep = replay(GameRecord.load(file))
    except RecordError as e:
        click.echo(str(e), err=not as_json)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(rep.to_json()))
    else:
        state = "unfinished" if rep.winner is None else f"won by side {rep.winner}"
        click.echo(f"valid: {len(rep.rounds)} round(s), totals {rep.totals}, {state}")


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def replay_cmd(file: Path) -> None:
    """Print a record play by play, with each round's breakdown."""
    if is_touti_record(file):
        replay_touti(file)
        return
    try:
        record = GameRecord.load(file)
        rep = replay(record)
    except RecordError as e:
        click.echo(str(e), err=True)
        sys.exit(1)
    names = record.names
    for i, r in enumerate(rep.rounds, 1):
        for line in narrate_round(r, i, names):
            click.echo(line)
        click.echo("")
    side_of = rep.rounds[0].side_of if rep.rounds else tuple(range(record.seats))
    totals = ", ".join(f"{side_name(s, side_of, names)} {t}" for s, t in enumerate(rep.totals))
    click.echo(f"Match score: {totals} (target {rep.rules.target})")
    if rep.winner is not None:
        click.echo(f"Winner: {side_name(rep.winner, side_of, names)}")
    else:
        click.echo("The match is unfinished.")


main.add_command(simulate)
main.add_command(play)
main.add_command(duel)
main.add_command(tournament)
main.add_command(serve)
main.add_command(rules)
main.add_command(analyze_cmd)
main.add_command(players)
