"""Touti in the ``chkobba`` command: the Touti rule options of ``chkobba play`` and the
text of ``chkobba rules touti``.

(``verify``, ``replay`` and ``analyze`` read Touti records through the game interface,
:meth:`chkobba.games.touti.ToutiGame.read_record` and the methods beside it.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

import click

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
