"""``chkobba play``: a game against the computer in the terminal."""

from __future__ import annotations

import getpass
import secrets
import sys
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import click
import platformdirs
from rich.console import Console
from rich.markup import escape

from chkobba.agents import Agent, AgentError, make_agent
from chkobba.agents.base import check_playable
from chkobba.agents.engine import close_all, shared_fallbacks
from chkobba.duel.cli import ENGINE_LOG_OPTION
from chkobba.fishing.game import seating_name
from chkobba.fishing.match import Match
from chkobba.fishing.narrate import goal
from chkobba.fishing.rules import PRESETS, RuleSet, preset
from chkobba.games.base import choose_table
from chkobba.touti.cli import play_options as touti_play_options
from chkobba.tui.coach import TerminalCoach
from chkobba.tui.session import Ask, Ending, PlaySession, TerminalSession
from chkobba.tui.words import Speech
from chkobba.words import DEFAULT_LANGUAGE, LANGUAGES, locale_language, word

PREFERRED_OPPONENTS: Final = ("hard", "heuristic", "greedy", "random")
"""The default computer player: the first of these that exists."""

COMPUTER_PAUSE: Final = 0.7
"""Seconds to wait after each computer play when a person is watching."""
TOUTI_PAUSE: Final = 0.5
"""The same in Touti, whose moves are shorter to read."""


def default_player() -> str:
    """The strongest player available among :data:`PREFERRED_OPPONENTS`."""
    for name in PREFERRED_OPPONENTS:
        try:
            make_agent(name, 0)
        except AgentError:
            continue
        return name
    raise AgentError(f"none of the players {', '.join(PREFERRED_OPPONENTS)} is available")


def games_dir() -> Path:
    """Where game records go unless ``--save`` says otherwise."""
    return Path(platformdirs.user_data_dir("chkobba")) / "games"


def default_save_path(now: datetime | None = None) -> Path:
    """A new file in :func:`games_dir` named after the time the game starts."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d_%H-%M-%S")
    folder = games_dir()
    path = folder / f"{stamp}.json"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-{n}.json"
        n += 1
    return path


def _human_name() -> str:
    try:
        return getpass.getuser() or "Player"
    except (OSError, KeyError):
        return "Player"


def _person(name: str | None, save: Path | None, seed: int | None) -> tuple[str, int]:
    """The person's name (``--name``, else the login name) and the game's seed (``--seed``,
    else a random one), once ``--save`` is known not to overwrite a record."""
    human = (name if name is not None else _human_name()).strip()
    if not human:
        raise click.BadParameter("a name cannot be empty", param_hint="--name")
    if save is not None and save.exists():
        raise click.BadParameter(
            f"{save} already exists; choose a new file so no record is overwritten",
            param_hint="--save",
        )
    return human, seed if seed is not None else secrets.randbelow(2**32)


def _meta(app: str, seed: int, players: dict[str, str], agents: Iterable[Any]) -> dict[str, Any]:
    """The record's ``meta``: the command, the seed, the person's seat, the computers."""
    meta: dict[str, Any] = {"app": app, "seed": seed, "human_seat": 0, "players": players}
    fallbacks = shared_fallbacks(agents)
    if fallbacks is not None:
        # Filled as the game goes: the record says which moves an engine failed to make.
        meta["engine_fallbacks"] = fallbacks
    return meta


def _agent(name: str, seed: int, option: str) -> Agent:
    try:
        # Any playable name: a built-in player, a level or a trained policy:PATH.
        check_playable(name)
        return make_agent(name, seed)
    except AgentError as e:
        raise click.BadParameter(str(e), param_hint=option) from None


def seat_names(
    human: str,
    computers: dict[int, str],
    seats: int,
    teams: bool | None = None,
    lang: str = DEFAULT_LANGUAGE,
) -> list[str]:
    """Names for the table: the human's, then each computer's.

    Two players: the computer is named after its player. Three or more: the
    computers are named by their place, which is what a player needs to follow the
    play; at 2 against 2 the one opposite is the partner (``teams`` defaults to
    that at 4 seats). The places are named in ``lang``.
    """

    def place(key: str) -> str:
        return word(lang, "terminal", f"place_{key}")

    if seats == 2:
        other = computers[1]
        return [human, other if other != human else place("computer").format(name=other)]
    # Playing order runs counter-clockwise, so seat 1 sits on the human's right.
    if seats == 3:
        return [human, place("right"), place("left")]
    if seats == 6:
        return [human, *(place(k) for k in ("right", "far_right", "opposite", "far_left",
                                              "left"))]
    middle = place("partner" if teams is not False else "opposite")
    return [human, place("right"), middle, place("left")]


PLAY_TABLES: Final = {
    "2": "--players 2",
    "3": "--players 3",
    "4": "--players 4 --no-teams",
    "2v2": "--players 4",
    "6": "--players 6",
}
"""How ``chkobba play`` asks for each table a rule set may list in its ``seatings``."""


def table_options(seatings: tuple[str, ...]) -> str:
    """A rule set's tables as the options that ask for them: ``--players 2, --players 4``."""
    return ", ".join(PLAY_TABLES[s] for s in seatings)


@click.command()
@click.option(
    "--game",
    type=click.Choice(["chkobba", "touti"]),
    default="chkobba",
    show_default=True,
    help="chkobba (and the Scopa family, see --rules) or touti, the Moroccan bidding "
    "and trick-taking game (4 players: you and a computer partner against two computers).",
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
    "--players",
    type=click.Choice(["2", "3", "4", "6", "2v2"]),
    default=None,
    help="2 (you against the computer), 3 (you against two computers, each for "
    "themselves), 4 (you and a computer partner, sitting opposite, against two computers; "
    "with --no-teams, four each for themselves; 2v2 is the same as 4 with teams) or 6 (the "
    "Scopa family: you against five computers, each for themselves), as the rules allow "
    "(`chkobba rules NAME` lists its tables). Default: 2 where the rules allow it, else "
    "their first table.",
)
@click.option(
    "--teams/--no-teams",
    default=None,
    help="With --players 4: partners opposite, 2 against 2 (the default where the rules "
    "allow it), or each for themselves.",
)
@click.option(
    "--opponent",
    "--player",
    "opponent",
    metavar="NAME",
    help="The computer player you play against: a level (easy, medium, hard, expert), "
    "a player (random, greedy, heuristic, neural: the learned one; `chkobba players` lists "
    "them), a trained policy (policy:PATH, docs/rl.md) or an outside program "
    "(engine:COMMAND, docs/engine-protocol.md). Default: hard.",
)
@click.option("--partner", metavar="NAME", help="Your computer partner (--players 4, 2 against 2).")
@click.option(
    "--target",
    type=click.IntRange(min=1),
    default=None,
    help="Points that win the match: any positive number. The sources name 11, 21 or 31 "
    "for Chkobba, 11, 16 or 21 for Scopa, 600, 800 or 1000 for Touti. Default: the rules' "
    "own (21 for chkobba, 11 for scopa, 600 for touti).",
)
@click.option("--seed", type=int, help="Seed of the shuffles (default: a random one).")
@click.option("--name", metavar="NAME", help="Your name (default: your login name).")
@click.option(
    "--save",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the game record (default: a new file in your data directory).",
)
@click.option(
    "--hints",
    is_flag=True,
    help="Allow hints: type 'hint' for the expert's top plays (counted in the record).",
)
@click.option(
    "--trainer",
    is_flag=True,
    help="Card-counting trainer: now and then asks which cards are still unseen, or "
    "whether a lay is safe from a chkobba, and scores the answers.",
)
@click.option(
    "--unseen",
    is_flag=True,
    help="Show the cards you have not seen yet (type 'unseen' to toggle during the game).",
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=None,
    help="The language of the game's words and card names: en, fr, it, es or ar. "
    "Default: the locale's (LC_ALL, LC_MESSAGES, LANG), else English.",
)
@touti_play_options
@ENGINE_LOG_OPTION
def play(
    game: str,
    rules_name: str,
    players: str | None,
    teams: bool | None,
    opponent: str | None,
    partner: str | None,
    target: int | None,
    seed: int | None,
    name: str | None,
    save: Path | None,
    hints: bool,
    trainer: bool,
    unseen: bool,
    lang: str | None,
    **touti: Any,
) -> None:
    """Play Chkobba (or a game of the Scopa family) against the computer in the terminal.

    Answer each turn with the number of a play, or a card (Qh), or a capture in
    the notation (Qh:7d+Ah); ? shows the help, q quits. The game record is saved
    when the game ends or stops, and `chkobba replay FILE` shows it again.
    With --game touti: bid, name trumps, play cards and announce (docs/touti.md).
    """
    if game == "touti":
        if click.get_current_context().get_parameter_source("rules_name") is not (
            click.core.ParameterSource.DEFAULT
        ):
            raise click.UsageError(
                "--rules names a Chkobba or Scopa preset; Touti has its own options "
                "(see `chkobba rules touti`)"
            )
        if trainer:
            raise click.UsageError(
                "--trainer asks Chkobba's card-counting questions and has none for Touti "
                "(--unseen shows the cards you have not seen)"
            )
        if teams is False:
            raise click.UsageError("Touti is played 2 against 2 (--no-teams is for Chkobba)")
        _play_touti(
            players, opponent, partner, target, seed, name, save, hints, unseen, lang, touti
        )
        return
    given = [k for k, v in touti.items() if v is not None]
    if given:
        raise click.UsageError(
            f"--{given[0].replace('_', '-')} is a Touti option: play Touti with --game touti"
        )
    if target in (600, 800, 1000):
        # Most likely a Touti game asked for without --game touti.
        raise click.BadParameter(
            f"{target} is a Touti target (--game touti); Chkobba is played to 11, 21 or 31",
            param_hint="--target",
        )
    rules = preset(rules_name, {"target": target} if target is not None else {})
    if players == "2v2":
        # The name `chkobba rules` gives the table: 4 players in teams.
        if teams is False:
            raise click.UsageError("--players 2v2 is 2 against 2: it cannot be --no-teams")
        players, teams = "4", True
    seats, together = choose_table(
        rules.seatings, None if players is None else int(players), teams, prefer_teams=True
    )
    if teams is not None and seats != 4:
        raise click.UsageError("--teams and --no-teams need --players 4")
    if seating_name(seats, together) not in rules.seatings:
        asked = "--players 4 --no-teams" if seats == 4 and not together else f"--players {seats}"
        raise click.UsageError(
            f"{rules_name} is not played with {asked} "
            f"(its tables: {table_options(rules.seatings)})"
        )
    if partner is not None and not together:
        raise click.UsageError("--partner needs a partner: --players 4, 2 against 2")
    human, seed = _person(name, save, seed)
    try:
        default = default_player() if opponent is None or partner is None else ""
    except AgentError as e:
        raise click.ClickException(str(e)) from None
    roles = dict.fromkeys(range(1, seats), opponent or default)
    if together:
        roles[2] = partner or default
    hint = {s: "--partner" if together and s == 2 else "--opponent" for s in roles}
    # Each computer gets its own stream of chance, all derived from the one seed.
    agents = {s: _agent(n, seed + s, hint[s]) for s, n in roles.items()}

    match = Match(rules, seats=seats, teams=together, seed=seed)
    path = save if save is not None else default_save_path()
    console = Console(highlight=False)
    interactive = console.is_terminal and sys.stdin.isatty()
    speaks = lang if lang is not None else locale_language()
    names = seat_names(human, roles, seats, together, speaks)
    if speaks != DEFAULT_LANGUAGE:
        _family_intro(console, rules_name, rules, names, roles, together, seed, speaks)
    else:
        if seats == 2:
            sides = f"you against {roles[1]}"
        elif not together:
            count = {3: "two", 4: "three", 6: "five"}[seats]
            sides = f"you against {count} computers ({roles[1]}), each for themselves"
        else:
            sides = (
                f"you and your partner ({roles[2]}, opposite you) "
                f"against Right and Left ({roles[1]})"
            )
        console.print(
            f"[bold]{title(rules_name)}[/bold]: {escape(sides)}, {goal(rules)}, "
            f"seed {seed}. "
            "Type ? for help.",
            soft_wrap=True,
        )
    ask = console.input if interactive else _echoing(console)
    coach = TerminalCoach(
        console, ask, hints=hints, trainer=trainer, show_unseen=unseen, seed=seed,
        speech=Speech(speaks, rules.deck),
    )
    meta = _meta(
        "chkobba play", seed, {str(s): n for s, n in roles.items()}, agents.values()
    )
    session = PlaySession(
        match,
        agents,
        names,
        path,
        console=console,
        ask=ask,
        coach=coach,
        pause=COMPUTER_PAUSE if interactive else 0.0,
        meta=meta,
        lang=speaks,
    )
    _run(session, agents.values())


def _family_intro(
    console: Console,
    rules_name: str,
    rules: RuleSet,
    names: list[str],
    roles: dict[int, str],
    together: bool,
    seed: int,
    lang: str,
) -> None:
    """The first line of a Chkobba-family game in ``lang``: who plays whom, the goal, the
    seed, and how to get help."""
    seats = len(names)
    if seats == 2:
        sides = word(lang, "terminal", "intro_two", opponent=roles[1])
    elif not together:
        sides = word(lang, "terminal", "intro_each", n=seats - 1, opponent=roles[1])
    else:
        sides = word(lang, "terminal", "intro_teams", partner=roles[2], right=names[1],
                     left=names[3], opponent=roles[1])
    line = word(lang, "terminal", "intro_line", sides=sides, goal=Speech(lang).goal(rules),
                seed=seed)
    console.print(f"[bold]{title(rules_name)}[/bold]: {escape(line)}", soft_wrap=True)


def _play_touti(
    players: str | None,
    opponent: str | None,
    partner: str | None,
    target: int | None,
    seed: int | None,
    name: str | None,
    save: Path | None,
    hints: bool,
    unseen: bool,
    lang: str | None,
    options: dict[str, Any],
) -> None:
    """Set up Touti's table in the one terminal session and play it; exit 1 if the record
    could not be saved, 130 on Ctrl-C."""
    # Imported here so that Chkobba games do not load Touti's engine and its players.
    from chkobba.games.touti import TOUTI_GAME
    from chkobba.touti.match import ToutiMatch
    from chkobba.touti.rules import TARGETS, RulesError, ToutiRules
    from chkobba.tui.touti import ToutiSession

    if players not in (None, "4", "2v2"):
        raise click.UsageError("Touti is played by 4 players (--players 4)")
    if target is not None and target not in TARGETS:
        raise click.BadParameter(
            f"Touti is played to {', '.join(map(str, TARGETS[:-1]))} or {TARGETS[-1]}, "
            f"not {target}",
            param_hint="--target",
        )
    human, seed = _person(name, save, seed)
    default = TOUTI_GAME.default_level()
    opp = opponent or default
    part = partner or default

    def touti_agent(player: str, at: int, option: str) -> Any:
        try:
            return TOUTI_GAME.make_agent(player, seed + at)
        except AgentError as e:
            # It names the known players (or what is wrong with an engine:COMMAND).
            raise click.BadParameter(str(e), param_hint=option) from None

    agents = {
        1: touti_agent(opp, 1, "--opponent"),
        2: touti_agent(part, 2, "--partner"),
        3: touti_agent(opp, 3, "--opponent"),
    }
    chosen = {k: v for k, v in options.items() if v is not None}
    if target is not None:
        chosen["target"] = target
    try:
        rules = ToutiRules.from_options(chosen)
    except RulesError as e:
        raise click.UsageError(str(e)) from None
    console = Console(highlight=False)
    interactive = console.is_terminal and sys.stdin.isatty()
    differ = {k: v for k, v in rules.json_options().items() if k != "target"}
    shown = ", ".join(f"{k.replace('_', '-')} {_word(v)}" for k, v in differ.items())
    speaks = lang if lang is not None else locale_language()
    intro = word(
        speaks, "terminal", "touti_intro", partner=part, opponent=opp,
        right=word(speaks, "touti", "seat_1"), left=word(speaks, "touti", "seat_3"),
        target=rules.target, options="; " + shown if shown else "", seed=seed,
    )
    console.print(f"[bold]Touti[/bold]: {escape(intro)}", soft_wrap=True)
    computers = {"1": opp, "2": part, "3": opp}
    meta = _meta("chkobba play --game touti", seed, computers, agents.values())
    session = ToutiSession(
        ToutiMatch(rules, seed=seed),
        agents,
        save if save is not None else default_save_path(),
        # The computers' seats by where they sit, in the player's language.
        names=[human, *(word(speaks, "touti", f"seat_{seat}") for seat in (1, 2, 3))],
        console=console,
        ask=console.input if interactive else _echoing(console),
        pause=TOUTI_PAUSE if interactive else 0.0,
        meta=meta,
        hints=hints,
        show_unseen=unseen,
        seed=seed,
        lang=speaks,
    )
    _run(session, agents.values())


def _run(session: TerminalSession, agents: Iterable[Any]) -> None:
    """Run the session; exit 1 if its record could not be saved, 130 on Ctrl-C."""
    try:
        result = session.run()
    finally:
        close_all(agents)
    if result.saved is None:
        sys.exit(1)
    if result.ending is Ending.INTERRUPTED:
        sys.exit(130)


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def title(name: str) -> str:
    """A preset's name as a title: ``scopone-scientifico`` → ``Scopone scientifico``."""
    return name.replace("-", " ").capitalize()


def _echoing(console: Console) -> Ask:
    """Read piped input, writing each answer after its prompt as a terminal would."""

    def ask(prompt: str) -> str:
        line = console.input(prompt)
        console.print(line, markup=False)
        return line

    return ask
