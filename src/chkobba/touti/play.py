"""``chkobba play --game touti``: the person and a computer partner against two computers."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Any, Final

import click
from rich.console import Console

from chkobba.agents.engine import close_all, shared_fallbacks
from chkobba.touti.agents import ToutiAgent, ToutiAgentError, make_touti_agent
from chkobba.touti.match import ToutiMatch
from chkobba.touti.rules import TARGETS, RulesError, ToutiRules
from chkobba.touti.session import ToutiSession
from chkobba.tui.session import Ask, Ending

DEFAULT_PLAYER: Final = "search"
COMPUTER_PAUSE: Final = 0.5
"""Seconds to wait after each computer move when a person is watching."""


def _agent(name: str, seed: int, option: str) -> ToutiAgent:
    try:
        return make_touti_agent(name, seed)
    except ToutiAgentError as e:
        # It names the known players (or what is wrong with an engine:COMMAND).
        raise click.BadParameter(str(e), param_hint=option) from None


def play_touti(
    *,
    opponent: str | None,
    partner: str | None,
    target: int | None,
    seed: int | None,
    human: str,
    save: Path,
    options: dict[str, Any] | None = None,
    hints: bool = False,
    unseen: bool = False,
) -> None:
    """Set up and run a Touti match in the terminal; exit 1 if the record could not be saved.

    ``options`` are Touti rule options (:class:`ToutiRules` field names) besides the target.
    """
    if target is not None and target not in TARGETS:
        raise click.BadParameter(
            f"Touti is played to {', '.join(map(str, TARGETS))}, not {target}",
            param_hint="--target",
        )
    if seed is None:
        seed = secrets.randbelow(2**32)
    opp = opponent or DEFAULT_PLAYER
    part = partner or DEFAULT_PLAYER
    agents = {
        1: _agent(opp, seed + 1, "--opponent"),
        2: _agent(part, seed + 2, "--partner"),
        3: _agent(opp, seed + 3, "--opponent"),
    }
    chosen = dict(options or {})
    if target is not None:
        chosen["target"] = target
    try:
        rules = ToutiRules.from_options(chosen)
    except RulesError as e:
        raise click.UsageError(str(e)) from None
    match = ToutiMatch(rules, seed=seed)
    console = Console(highlight=False)
    interactive = console.is_terminal and sys.stdin.isatty()
    names = [human, "Right", "Partner", "Left"]
    differ = {k: v for k, v in rules.json_options().items() if k != "target"}
    shown = ", ".join(f"{k.replace('_', '-')} {_word(v)}" for k, v in differ.items())
    console.print(
        f"[bold]Touti[/bold]: you and your partner ({part}, opposite you) against Right and "
        f"Left ({opp}), to {rules.target} points{'; ' + shown if shown else ''}, seed {seed}. "
        "Type ? for help.",
        soft_wrap=True,
    )
    meta: dict[str, Any] = {
        "app": "chkobba play --game touti",
        "seed": seed,
        "human_seat": 0,
        "players": {"1": opp, "2": part, "3": opp},
    }
    fallbacks = shared_fallbacks(agents.values())
    if fallbacks is not None:
        # Filled as the game goes: the record says which moves an engine failed to make.
        meta["engine_fallbacks"] = fallbacks
    session = ToutiSession(
        match,
        agents,
        save,
        names=names,
        console=console,
        ask=console.input if interactive else _echoing(console),
        pause=COMPUTER_PAUSE if interactive else 0.0,
        meta=meta,
        hints=hints,
        show_unseen=unseen,
        seed=seed,
    )
    try:
        result = session.run()
    finally:
        close_all(agents.values())
    if result.saved is None:
        sys.exit(1)
    if result.ending is Ending.INTERRUPTED:
        sys.exit(130)


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _echoing(console: Console) -> Ask:
    """Read piped input, writing each answer after its prompt as a terminal would."""

    def ask(prompt: str) -> str:
        line = console.input(prompt)
        console.print(line, markup=False)
        return line

    return ask
