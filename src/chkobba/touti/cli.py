"""Touti in the ``chkobba`` command: ``verify`` and ``replay`` of Touti records
(``touti-record/1``), and the Touti rule options of ``chkobba play``.

The shared commands look at a record's ``format`` field and hand Touti records
to these functions, which print in the same way as for Chkobba records.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import click

from chkobba.touti.narrate import narrate_deal, team_label
from chkobba.touti.record import FORMAT, ToutiRecord, ToutiRecordError, replay
from chkobba.touti.rules import CHOICES, DEFAULT, OPTION_HELP

F = TypeVar("F", bound=Callable[..., Any])

PLAY_OPTIONS: Final = (
    "kaddour",
    "talk",
    "all_pass",
    "failure",
    "min_trump_length",
    "zero_point_redeal",
    "claim",
)
"""The Touti rule options ``chkobba play`` takes (``--all-pass`` for ``all_pass``; the
target is ``--target``)."""


def play_options(f: F) -> F:
    """Add the Touti rule options (:data:`PLAY_OPTIONS`) to ``chkobba play``; each is
    None unless given."""
    for name in reversed(PLAY_OPTIONS):
        _, section, words = OPTION_HELP[name]
        flag = "--" + name.replace("_", "-")
        help_text = f"Touti ({section}): {words}."
        if name in ("kaddour", "zero_point_redeal"):
            f = click.option(flag, is_flag=True, default=None, help=help_text)(f)
        elif name == "min_trump_length":
            f = click.option(flag, type=click.IntRange(0, 3), help=help_text)(f)
        else:
            f = click.option(flag, type=click.Choice(CHOICES[name]), help=help_text)(f)
    return f


def rules_lines() -> list[str]:
    """``chkobba rules touti``: every Touti option with its default, its values, the
    book's section (Falaki, *Jeux de cartes au Maroc*, ch. Touti) and what it does."""
    defaults = {k: _text(v) for k, v in DEFAULT.options().items()}
    width = max(len(k) for k in defaults)
    dwidth = max(len(v) for v in defaults.values())
    lines = [
        "touti",
        "  Touti, the Moroccan bidding and trick-taking game: 4 players, 2 against 2 "
        "(docs/touti.md)",
        "",
        "options (default, the book's section, what it does; then its values):",
    ]
    for key, default in defaults.items():
        values, section, words = OPTION_HELP[key]
        lines.append(f"  {key:<{width}} = {default:<{dwidth}}  {section:<9} {words}")
        lines.append(f"  {'':<{width}}   values: {values}")
    lines += [
        "",
        "play it: chkobba play --game touti, an option as a flag (--talk parle, --all-pass "
        "next-dealer, --kaddour, --target 800)",
    ]
    return lines


def rules_json() -> dict[str, Any]:
    """``chkobba rules touti --json``: the defaults, and per option its values and section."""
    return {
        "name": "touti",
        "options": DEFAULT.options(),
        "help": {
            k: {"values": values, "section": section, "help": words}
            for k, (values, section, words) in OPTION_HELP.items()
        },
    }


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def is_touti_record(file: Path) -> bool:
    """Whether ``file`` is a JSON object whose ``format`` names a Touti record
    (``touti-record/…``; the Touti reader then checks the version). Anything
    unreadable is left to the Chkobba reader, which reports it."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    fmt = data.get("format") if isinstance(data, dict) else None
    return isinstance(fmt, str) and fmt.split("/")[0] == FORMAT.split("/")[0]


def verify_touti(file: Path, as_json: bool) -> None:
    """Replay a Touti record: exit 0 if valid, 1 with ``deal D, move M: reason`` if not."""
    try:
        rep = replay(ToutiRecord.load(file))
    except ToutiRecordError as e:
        click.echo(str(e), err=not as_json)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(rep.to_json()))
    else:
        click.echo(rep.summary())


def replay_touti(file: Path) -> None:
    """Print a Touti record move by move, trick by trick, with each deal's score."""
    try:
        record = ToutiRecord.load(file)
        rep = replay(record)
    except ToutiRecordError as e:
        click.echo(str(e), err=True)
        sys.exit(1)
    names = record.names
    for i, d in enumerate(rep.deals, 1):
        for line in narrate_deal(d, i, names):
            click.echo(line)
        click.echo("")
    click.echo(
        f"Match score: {team_label(0, names)} {rep.totals[0]}, "
        f"{team_label(1, names)} {rep.totals[1]} (target {rep.rules.target})"
    )
    if rep.winner is not None:
        click.echo(f"Winner: {team_label(rep.winner, names)}")
    else:
        click.echo("The match is unfinished.")
