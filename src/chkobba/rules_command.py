"""``chkobba rules``: the rule presets (docs/rules.md §2 and §3) and their options."""

from __future__ import annotations

import json
import sys

import click

from chkobba.fishing.rules import (
    CHKOBBA,
    OPTION_HELP,
    PRESET_DESCRIPTIONS,
    PRESETS,
    VERSION_1,
    describe_point,
    preset,
)

TOUTI_DESCRIPTION = (
    "Touti, the Moroccan bidding and trick-taking game (docs/rules.md §4): 4 players, "
    "2 against 2; its own options (`chkobba rules touti`), played with `--game touti`."
)
"""The line ``chkobba rules`` gives Touti, which is a game of its own, not a preset."""


def listing() -> dict[str, str]:
    """Every name ``chkobba rules NAME`` takes, with what it is: the presets, then Touti."""
    return {**PRESET_DESCRIPTIONS, "touti": TOUTI_DESCRIPTION}


def preset_lines() -> list[str]:
    """One line per preset (and one for Touti): its name and what it is."""
    names = listing()
    width = max(len(n) for n in names)
    return [f"{name:<{width}}  {words}" for name, words in names.items()]


VALUE_WIDTH = 16
"""The widest option value shown beside its help in ``chkobba rules NAME``."""


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return ", ".join(str(x) for x in v)
    return str(v)


def preset_detail(name: str) -> list[str]:
    """A preset's description, every option (``*`` where it differs from Chkobba) and
    its points."""
    rules = PRESETS[name]
    base = CHKOBBA.options()
    options = rules.options()
    width = max(len(k) for k in options)
    # Every option's help starts in one column; a value too long for it (the points, a
    # list of tables) puts its help on the next line, in that column.
    vwidth = max(len(_value(v)) for v in options.values() if len(_value(v)) <= VALUE_WIDTH)
    lines = [name, f"  {PRESET_DESCRIPTIONS[name]}", "", "options (* differs from chkobba):"]
    for key, value in options.items():
        mark = "*" if base[key] != value else " "
        text = _value(value)
        head = f" {mark} {key:<{width}} = "
        if len(text) > vwidth:
            lines += [head + text, " " * (len(head) + vwidth + 2) + OPTION_HELP[key]]
        else:
            lines.append(f"{head}{text:<{vwidth}}  {OPTION_HELP[key]}")
    lines += ["", "points of a round:"]
    lines += [f"  {describe_point(k)}" for k in rules.scoring]
    lines += ["", f"play it: chkobba play --rules {name}"]
    return lines


@click.command("rules")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the preset's options as JSON.")
def rules(name: str | None, as_json: bool) -> None:
    """List the rule presets, or show preset NAME: its options and its points.

    Every game of the Scopa family is a preset of options on the same engine;
    records name a preset and override any of its options. NAME touti shows
    Touti's own options instead.
    """
    if name is None:
        if as_json:
            click.echo(json.dumps(listing(), ensure_ascii=False))
            return
        for line in preset_lines():
            click.echo(line)
        return
    if name == "touti":
        # Touti is not a preset of the Chkobba engine: it has its own options.
        from chkobba.touti.cli import rules_json, rules_lines

        lines = [json.dumps(rules_json(), ensure_ascii=False)] if as_json else rules_lines()
        click.echo("\n".join(lines))
        return
    if name not in PRESETS:
        message = f"unknown rules {name!r} (known: {', '.join(PRESETS)}, touti)"
        if name in VERSION_1:
            # A name only older records use: say what it is now.
            rules = preset(name, version=1)
            changes = ", ".join(f"{k}={_value(v)}" for k, v in rules.changed_options().items())
            message += f"; in records of rules version 1 it is {rules.name}" + (
                f" with {changes}" if changes else ""
            )
        click.echo(message, err=True)
        sys.exit(1)
    if as_json:
        click.echo(
            json.dumps(
                {"name": name, "options": PRESETS[name].json_options_all()}, ensure_ascii=False
            )
        )
        return
    for line in preset_detail(name):
        click.echo(line)
