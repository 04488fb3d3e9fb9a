"""The terminal game's one session, for every game: one human seat, computers at the others.

:class:`TerminalSession` drives a match through the game interface
(:class:`~chkobba.games.base.Table`: whose turn, what a seat may see, a checked
move, the winner) to its end, the same way for every game: the computer seats
choose from their observation only; the human is asked through an injectable
``ask`` function and everything is drawn on an injectable
:class:`rich.console.Console`, so a test can script the answers and read the
screen. The commands are the same in every game (a number, a move in the game's
notation, ``board``, ``?``, ``q``, and the coach's ``hint`` and ``unseen``), and
whatever way the session ends (the match won, ``quit``, end of input, Ctrl-C,
even a crash) the record of the game so far is saved. A move is taken by the
table and shown on the screen together (Ctrl-C waits for both), so the record
holds exactly the moves the player was shown.

What differs between games is the table drawn and the moves read: each game's
subclass says it (:class:`PlaySession` here for the Chkobba family,
:class:`chkobba.tui.touti.ToutiSession` for Touti).
"""

from __future__ import annotations

import contextlib
import enum
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from chkobba.agents import Agent
from chkobba.fishing.cards import CARDS, DIAMONDS, RANKS, SUIT_SYMBOLS, SUITS, cards_of
from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Cut, Move, NotationError, Play, parse_move
from chkobba.fishing.narrate import (
    breakdown_lines,
    describe_declaration,
    goal,
    ranks_help,
    seat_name,
    side_name,
    suits_help,
    sweep_word,
)
from chkobba.fishing.record import record_of
from chkobba.fishing.rules import RuleSet
from chkobba.games.base import MoveRefused, Player, Table
from chkobba.games.chkobba import ChkobbaTable
from chkobba.tui.coach import show_summary
from chkobba.tui.render import (
    board,
    breakdown_panel,
    choices_table,
    coloured,
    in_hand_order,
    play_line,
    score_line,
)
from chkobba.tui.saving import Savable, save_record
from chkobba.tui.words import Speech
from chkobba.words import DEFAULT_LANGUAGE
from chkobba.words.cards import rank_name, suit_name

Ask = Callable[[str], str]
"""Shows a prompt (Rich markup) and returns the line typed, without its newline.

Raises :class:`EOFError` at the end of input and :class:`KeyboardInterrupt` on
Ctrl-C, as the builtin :func:`input` does.
"""

COMMON_HELP: Final = """\
  [cyan]board[/cyan]        show the board again
  [cyan]?[/cyan]            this help
  [cyan]q[/cyan]            quit; the game so far is then saved (on Ctrl-C and end of input too)
"""
"""The help's lines every game shares (each game's help begins with its own moves)."""

HELP_WORDS: Final = ("?", "h", "help")
QUIT_WORDS: Final = ("q", "quit", "exit")
BOARD_WORDS: Final = ("b", "board")

HELP: Final = """\
[bold]How to answer[/bold]
  [cyan]3[/cyan]            the play numbered 3 in the list
  [cyan]Qh[/cyan]           play the Q♥ (asks which capture if it has several)
  [cyan]Qh:7d+Ah[/cyan]     play the Q♥ and capture the 7♦ and the A♥
  [cyan]lay 5s[/cyan]       lay the 5♠ on the table without capturing
  [cyan]keep[/cyan] / [cyan]table[/cyan]  at the cut: keep the card shown, or put it on the table
{common}{suits}
{ranks}"""
"""The help's commands (:func:`game_help` names the deck's suits and faces);
:func:`capture_help` adds the game's capture rules."""


def capture_help(rules: RuleSet, speech: Speech | None = None) -> str:
    """The capture rules of ``rules`` in a few sentences, from its options (in the
    player's language)."""
    if speech is not None and speech.lang != DEFAULT_LANGUAGE:
        return _capture_help_in(rules, speech)
    limit = rules.max_capture_cards
    most = f" (at most {limit} of them)" if limit else ""
    kinds = []
    if rules.capture_match:
        kinds.append("a table card of its own value")
    if rules.capture_sum:
        kinds.append(f"table cards adding up to its value{most}")
    if rules.capture_total:
        kinds.append(f"table cards that make {rules.capture_total} with its value{most}")
    ways = " or ".join([", ".join(kinds[:-1]), kinds[-1]] if len(kinds) > 2 else kinds)
    lines = [f"A card may take {ways}." if ways else "No card captures."]
    if rules.fewest_cards:
        lines.append("Where a card could take a single card or several, it takes the fewest.")
    if rules.capture_match and rules.capture_sum and rules.matching_priority:
        lines.append("A card that matches a table card's value takes one such card, not a sum.")
    if rules.ace_takes_all:
        lines.append("An ace takes the whole table.")
    if rules.declares and rules.wild_seven_keeps_value:
        lines.append("A 7♠ made wild by a declaration keeps its new value for the round.")
    if rules.may_drop_capturing_card:
        lines.append("A card that can capture may be laid on the table instead.")
    else:
        lines.append("A card that can capture must capture.")
    return "\n".join(lines)


def _capture_help_in(rules: RuleSet, speech: Speech) -> str:
    say = speech.say
    limit = rules.max_capture_cards
    most = say("help_cap_most", n=limit) if limit else ""
    kinds = []
    if rules.capture_match:
        kinds.append(say("help_cap_match"))
    if rules.capture_sum:
        kinds.append(say("help_cap_sum", most=most))
    if rules.capture_total:
        kinds.append(say("help_cap_total", total=rules.capture_total, most=most))
    ways = say("help_cap_or").join(
        [", ".join(kinds[:-1]), kinds[-1]] if len(kinds) > 2 else kinds
    )
    lines = [say("help_cap_may", ways=ways) if ways else say("help_cap_none")]
    if rules.fewest_cards:
        lines.append(say("help_cap_fewest"))
    if rules.capture_match and rules.capture_sum and rules.matching_priority:
        lines.append(say("help_cap_priority"))
    if rules.ace_takes_all:
        lines.append(say("help_cap_ace"))
    if rules.declares and rules.wild_seven_keeps_value:
        lines.append(say("help_cap_wild"))
    lines.append(say("help_cap_may_drop" if rules.may_drop_capturing_card else "help_cap_must"))
    return "\n".join(lines)


def _game_help_in(rules: RuleSet, speech: Speech) -> str:
    say, lang, deck = speech.say, speech.lang, rules.deck
    suits = []
    for i in range(4):
        part = f"{SUITS[i]} {SUIT_SYMBOLS[i]} {suit_name(i, deck, lang)}"
        if i == DIAMONDS:
            # Chkobba's own word for the coins stays; the other decks' are named.
            part += f" ({'dīnārī' if deck == 'french' else say('help_coins')})"
        suits.append(part)
    faces = ", ".join(
        say("help_face", r=r, face=rank_name(r, deck, lang))
        + (f" ({RANKS.index(r) + 1})" if r != "A" else "")
        for r in "AQJK"
    )
    return say(
        "family_help",
        common=say("common_help"),
        suits=escape(say("help_suits", suits=", ".join(suits))),
        ranks=escape(say("help_ranks", faces=faces)),
    )


def game_help(rules: RuleSet, speech: Speech | None = None) -> str:
    """:data:`HELP` for a rule set: the suits and faces named in its deck (``deck``), in
    the player's language."""
    if speech is not None and speech.lang != DEFAULT_LANGUAGE:
        return _game_help_in(rules, speech)
    return HELP.format(
        common=COMMON_HELP, suits=escape(suits_help(rules)), ranks=escape(ranks_help(rules))
    )


class Ending(enum.Enum):
    """How a session ended."""

    FINISHED = "finished"
    """The match was played to its end."""
    QUIT = "quit"
    """The player typed ``quit`` and confirmed."""
    END_OF_INPUT = "end of input"
    INTERRUPTED = "interrupted"
    """Ctrl-C."""


@dataclass(frozen=True)
class SessionResult:
    """What a finished session reports to its caller."""

    ending: Ending
    winner: int | None
    """The winning side, once the match is decided."""
    saved: Path | None
    """Where the record was written, or None if it could not be."""


class Quit(Exception):
    """The player asked to stop."""


@dataclass
class Held:
    """What :func:`interrupts_held` held back."""

    signals: list[int] = field(default_factory=list)
    """The SIGINTs that arrived during the block."""


@contextlib.contextmanager
def interrupts_held(*, deliver: bool = True) -> Iterator[Held]:
    """Hold Ctrl-C back while the block runs, then deliver it (unless ``deliver`` is False).

    What must not be cut in two (a move taken by the match and shown on the
    screen, the writing of the record) runs inside. Only the main thread receives
    signals, so elsewhere the block simply runs.
    """
    held = Held()
    if threading.current_thread() is not threading.main_thread():
        yield held
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is None:
        # A handler installed outside Python cannot be put back: leave it alone.
        yield held
        return
    signal.signal(signal.SIGINT, lambda signum, frame: held.signals.append(signum))
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, previous)
    if held.signals and deliver:
        # Delivered to the handler in place (KeyboardInterrupt by default), now.
        signal.raise_signal(signal.SIGINT)


def play_out(
    console: Console,
    step: Callable[[], None],
    is_over: Callable[[], bool],
    save: Callable[[], object],
) -> Ending:
    """Call ``step`` until ``is_over``; how it ended (quit, end of input, Ctrl-C).

    Whatever else stops the game, a bug included, the record of the game so far is
    saved with ``save`` before the error goes on.
    """
    try:
        while not is_over():
            step()
    except Quit:
        return Ending.QUIT
    except EOFError:
        console.print("\n[yellow]End of input: the game stops here.[/yellow]")
        return Ending.END_OF_INPUT
    except KeyboardInterrupt:
        console.print("\n[yellow]Interrupted: the game stops here.[/yellow]")
        return Ending.INTERRUPTED
    except BaseException:
        # The error goes on, not a Ctrl-C pressed while the record is written.
        with interrupts_held(deliver=False):
            save()
        raise
    return Ending.FINISHED


class Coach(Protocol):
    """What the session asks of a game's coach (hints, a trainer, the unseen cards)."""

    def help(self) -> str:
        """The coach's lines of the help (Rich markup)."""
        ...

    def meta(self) -> dict[str, Any]:
        """What the record's ``meta.coach`` holds about this game."""
        ...

    def command(self, text: str, obs: Any) -> bool:
        """Act on a typed coach command (``hint``, ``unseen``); False if it is not one."""
        ...

    def after_board(self, obs: Any) -> None:
        """Called once the board is drawn (the unseen cards, when shown)."""
        ...

    def before_turn(self, obs: Any) -> None:
        """Called before the human is asked for a move (a trainer question)."""
        ...


class TerminalSession:
    """A match between one human seat and computer players at every other seat, played
    through the game interface; a game's subclass draws its table and reads its moves.

    Subclasses give :meth:`_record` (the record of the game so far), :meth:`_choices`,
    :meth:`_show_turn`, :meth:`_prompt`, :meth:`_read_move` and :meth:`_help_text`, and
    may add to :meth:`_before_move`, :meth:`_show_move`, :meth:`_after_move`,
    :meth:`_automatic`, :meth:`_announce_winner`, :meth:`_stopped` and :meth:`_after_game`.
    """

    def __init__(
        self,
        table: Table,
        agents: Mapping[int, Player],
        names: Sequence[str],
        save_path: Path,
        *,
        human: int = 0,
        console: Console | None = None,
        ask: Ask | None = None,
        pause: float = 0.0,
        meta: dict[str, Any] | None = None,
        coach: Coach | None = None,
        lang: str = DEFAULT_LANGUAGE,
        deck: str = "french",
    ) -> None:
        if not 0 <= human < table.seats:
            raise ValueError(f"no seat {human} in a {table.seats}-player match")
        if set(agents) != set(range(table.seats)) - {human}:
            raise ValueError("every seat but the human's needs a computer player")
        if len(names) != table.seats:
            raise ValueError(f"{table.seats} names are needed, not {len(names)}")
        self.table = table
        self.agents = dict(agents)
        self.names = list(names)
        self.save_path = save_path
        self.human = human
        self.console = console if console is not None else Console(highlight=False)
        self.ask: Ask = ask if ask is not None else self.console.input
        self.pause = pause
        self.meta = meta
        self.coach = coach
        """Hints, the trainer, the unseen cards (None: none)."""
        self.speech = Speech(lang, deck)
        """The player's language, and the deck whose names the cards take."""

    # -- the whole session -------------------------------------------------------

    def run(self) -> SessionResult:
        """Play until the match is decided or the player stops; save the record."""
        try:
            ending = play_out(self.console, self._step, lambda: self.table.is_over, self.save)
            if ending is Ending.FINISHED:
                self._announce_winner()
            else:
                self._stopped()
        except KeyboardInterrupt:
            # Ctrl-C again while the session was stopping: it stops, and is saved all the same.
            ending = Ending.INTERRUPTED
        # A Ctrl-C while the record is written waits for it, then skips what follows.
        with interrupts_held(deliver=False) as held:
            saved = self.save()
        if not held.signals:
            with contextlib.suppress(KeyboardInterrupt):
                self._after_game(saved)
        return SessionResult(ending, self.table.winner, saved)

    def save(self) -> Path | None:
        """Write the record of the game so far; say where, or why it could not be."""
        meta = self.meta
        if self.coach is not None:
            meta = {**(meta or {}), "coach": self.coach.meta()}
        record = self._record(meta)
        with interrupts_held():
            return save_record(self.console, record, self.save_path, self.speech.lang)

    def _record(self, meta: dict[str, Any] | None) -> Savable:
        """The record of the game so far, the round in progress included."""
        raise NotImplementedError

    def _stopped(self) -> None:
        """What to show when the player stops before the end (the score so far)."""

    def _after_game(self, saved: Path | None) -> None:
        """What to show once the record is saved (a summary)."""

    def _announce_winner(self) -> None:
        """Say who won the match."""

    # -- one move ----------------------------------------------------------------

    def _step(self) -> None:
        self._before_move()
        seat = self.table.turn
        move = self._human_turn() if seat == self.human else self._computer_turn(seat)
        # The record saved on Ctrl-C must hold exactly the moves the player saw.
        with interrupts_held():
            try:
                self.table.play(seat, str(move))
            except MoveRefused as e:
                raise RuntimeError(
                    f"the {self._player(seat)!r} player at seat {seat} chose an illegal move "
                    f"{move}: {e}"
                ) from None
            self._show_move(seat, move)
        self._after_move()

    def _before_move(self) -> None:
        """Before each move: a new round's heading, what the deal showed."""

    def _show_move(self, seat: int, move: Any) -> None:
        """Show the move just taken (and the trick it finished)."""

    def _after_move(self) -> None:
        """After each move is shown: the end of a round, the cards dealt."""

    def _player(self, seat: int) -> str:
        agent = self.agents.get(seat)
        return agent.name if agent is not None else "human"

    def _computer_turn(self, seat: int) -> Any:
        move = self.agents[seat].choose(self.table.observe(seat))
        # The pause comes before the move is taken: stopping in it loses nothing shown.
        if self.pause > 0:
            time.sleep(self.pause)
        return move

    # -- asking the human --------------------------------------------------------

    def _ask_line(self, prompt: str) -> str:
        return self.ask(prompt).strip()

    def _human_turn(self) -> Any:
        """The legal move the player chooses (not yet taken by the table)."""
        obs = self.table.observe(self.human)
        automatic = self._automatic(obs)
        if automatic is not None:
            return automatic
        choices = self._choices(obs)
        self._show_turn(obs, choices)
        if self.coach is not None:
            self.coach.before_turn(obs)
        while True:
            move = self._read(self._ask_line(self._prompt(obs)), obs, choices)
            if move is None:
                continue
            if move not in obs.legal_moves:
                self._complain(self._why_illegal(move))
                continue
            return move

    def _automatic(self, obs: Any) -> Any:
        """A move the player makes without being asked (none by default)."""
        return None

    def _choices(self, obs: Any) -> list[Any]:
        """The moves listed with a number, in the order they are shown."""
        raise NotImplementedError

    def _show_turn(self, obs: Any, choices: Sequence[Any], again: bool = False) -> None:
        """Draw the table as the player sees it, and the numbered moves."""
        raise NotImplementedError

    def _prompt(self, obs: Any) -> str:
        """The question of the player's turn (Rich markup)."""
        raise NotImplementedError

    def _read_move(self, text: str, obs: Any, choices: Sequence[Any]) -> Any:
        """The move ``text`` (a number or the game's notation) names, or None once the
        player has been told what is wrong."""
        raise NotImplementedError

    def _why_illegal(self, move: Any) -> str:
        """Why ``move`` may not be played now, in the engine's words."""
        try:
            self.table.check(self.human, str(move))
        except MoveRefused as e:
            return str(e)
        return f"{move} may not be played now"  # pragma: no cover - not in legal_moves

    def _empty_answer(self, choices: Sequence[Any]) -> str:
        return f"type the number of a play (1 to {len(choices)}), or ? for help"

    def _read(self, text: str, obs: Any, choices: Sequence[Any]) -> Any:
        """The move ``text`` names, or None once the player has been told what is wrong
        (or has been answered: help, the board, a coach command)."""
        low = text.lower()
        if not low:
            self._complain(self._empty_answer(choices))
            return None
        if low in HELP_WORDS:
            self._help()
            return None
        if low in QUIT_WORDS:
            self._confirm_quit()
            return None
        if self.coach is not None and self.coach.command(low, obs):
            return None
        if low in BOARD_WORDS:
            self._show_turn(obs, choices, again=True)
            return None
        return self._read_move(text, obs, choices)

    def _numbered(self, low: str, choices: Sequence[Any]) -> Any:
        """The choice numbered ``low``, or None once told there is no such number."""
        n = int(low)
        if 1 <= n <= len(choices):
            return choices[n - 1]
        self._complain(f"there is no play number {n}: choose 1 to {len(choices)}")
        return None

    def _confirm_quit(self) -> None:
        # Said as a promise: only the save itself tells where it went, or that it failed.
        answer = self._ask_line(escape(self.speech.say("quit_sure"))).lower()
        if self.speech.yes(answer):
            raise Quit
        self.console.print(self.speech.say("play_on"))

    def _wait_for_enter(self, prompt: str) -> None:
        while True:
            text = self._ask_line(prompt).lower()
            if text in HELP_WORDS:
                self._help()
            elif text in QUIT_WORDS:
                self._confirm_quit()
            else:
                return

    def _help_text(self) -> list[tuple[str, bool]]:
        """The game's help: each piece with whether it is Rich markup."""
        raise NotImplementedError

    def _help(self) -> None:
        for text, markup in self._help_text():
            self.console.print(text, markup=markup)
        if self.coach is not None:
            self.console.print(self.coach.help())

    def _complain(self, reason: str) -> None:
        self.console.print(Text.assemble(("✗ ", "bold red"), reason))


class PlaySession(TerminalSession):
    """A match of the Chkobba family between one human seat and computers at the others.

    ``options`` are :class:`TerminalSession`'s (``human``, ``console``, ``ask``,
    ``pause``, ``meta``, ``coach``: a :class:`~chkobba.tui.coach.TerminalCoach`,
    ``lang``); the cards take the names of the rules' deck.
    """

    def __init__(
        self,
        match: Match,
        agents: Mapping[int, Agent],
        names: Sequence[str],
        save_path: Path,
        **options: Any,
    ) -> None:
        super().__init__(
            ChkobbaTable(match), agents, names, save_path, deck=match.rules.deck, **options
        )
        self.match = match
        self._round: Round | None = None
        self._told_declarations = 0
        self._void_deals = match.void_deals
        self._stock_before = 0

    def _record(self, meta: dict[str, Any] | None) -> Savable:
        return record_of(self.match, self.names, meta=meta)

    def _stopped(self) -> None:
        if self.match.finished or self.match.round.history:
            self.console.print(score_line(self.match.totals, self.match.side_of, self.names))

    def _after_game(self, saved: Path | None) -> None:
        if self.coach is not None:
            show_summary(
                self.console, self.match, self.names, saved, self.human, self.speech
            )

    # -- one move ----------------------------------------------------------------

    def _before_move(self) -> None:
        r = self.match.round
        if r is not self._round:
            self._start_round(r)
        self._tell_declarations(r)
        self._stock_before = r.stock

    def _show_move(self, seat: int, move: Any) -> None:
        r = self._round
        assert r is not None
        turn = r.history[-1]
        line = self.speech.turn_text(turn, self.names, sweep_word(r.rules))
        self.console.print(play_line(line, turn.seat == self.human, turn.chkobba))

    def _after_move(self) -> None:
        r = self._round
        assert r is not None
        turn = r.history[-1]
        if self.match.void_deals != self._void_deals:
            self._void_deals = self.match.void_deals
            self._tell_void(r)
        elif r.is_over:
            self._end_round(r)
        elif isinstance(turn.move, Play) and r.stock < self._stock_before:
            more = self.speech.say(
                "more_cards",
                dealer=seat_name(r.dealer, self.names),
                n=r.rules.hand_size,
                left=r.stock,
            )
            self.console.print(Text(more, style="dim"))

    # -- rounds ------------------------------------------------------------------

    def _start_round(self, r: Round) -> None:
        self._round = r
        dealer = seat_name(r.dealer, self.names)
        cutter = seat_name(r.cutter, self.names)
        verb = "cut" if r.rules.cut_choice else "lead"
        key = f"deals_you_{verb}" if r.cutter == self.human else f"deals_{verb}s"
        say = self.speech.say
        self.console.print()
        self.console.rule(
            f"[bold]{escape(say('round', n=self.match.round_number))}[/bold]: "
            + escape(say(key, dealer=dealer, cutter=cutter))
        )
        self._told_declarations = 0

    def _tell_declarations(self, r: Round) -> None:
        # Declared hands are shown to everyone at the deal (Cirulla).
        for d in r.declarations[self._told_declarations :]:
            self.console.print(coloured(describe_declaration(d, self.names)), style="bold")
        self._told_declarations = len(r.declarations)

    def _tell_void(self, r: Round) -> None:
        counts = [0] * 10
        for c in cards_of(r.table):
            counts[c % 10] += 1
        rank = max(range(10), key=counts.__getitem__)
        line = self.speech.say(
            "void_deal",
            cards=self.speech.cards_text(r.table).plain,
            count=counts[rank],
            rank=CARDS[rank].rank,
            dealer=seat_name(r.dealer, self.names),
        )
        self.console.print(coloured(line), style="yellow")

    def _end_round(self, r: Round) -> None:
        assert r.score is not None
        number = len(self.match.finished)
        if r.swept:
            taker = side_name(r.last_capturer or 0, r.side_of, self.names)
            takes = "take_rest" if self.match.teams else "takes_rest"
            self.console.print(
                coloured(self.speech.say(takes, name=taker)).append_text(
                    self.speech.cards_text(r.swept)
                )
            )
        if r.leftover:
            self.console.print(
                Text(self.speech.say("set_aside")).append_text(
                    self.speech.cards_text(r.leftover)
                )
            )
        lines = breakdown_lines(r.score, r.side_of, self.names)
        self.console.print(breakdown_panel(lines, self.speech.say("round_points", n=number)))
        total = score_line(self.match.totals, self.match.side_of, self.names)
        self.console.print(
            Text(self.speech.say("match_score"), style="bold")
            .append_text(total)
            .append(f"   ({goal(self.match.rules)})", style="dim")
        )
        if not self.match.is_over:
            self._wait_for_enter(escape(self.speech.say("press_enter", n=number + 1)))

    def _announce_winner(self) -> None:
        winner = self.match.winner
        assert winner is not None
        name = side_name(winner, self.match.side_of, self.names)
        headline = self.speech.say("win" if self.match.teams else "wins", name=name)
        if winner == self.match.side_of[self.human]:
            headline += self.speech.say("well_played")
        self.console.print()
        self.console.rule(f"[bold green]{escape(headline)}[/bold green]")
        self.console.print(
            Text(self.speech.say("final_score"), style="bold").append_text(
                score_line(self.match.totals, self.match.side_of, self.names)
            )
        )

    # -- asking the human --------------------------------------------------------

    def _choices(self, obs: Any) -> list[Any]:
        return in_hand_order(obs.legal_moves)

    def _prompt(self, obs: Any) -> str:
        say = self.speech.say
        if obs.cut_card is not None:
            return f"[bold]{escape(say('your_choice'))}[/bold]{escape(say('cut_hint'))}"
        return f"[bold]{escape(say('your_play'))}[/bold]{escape(say('play_hint'))}"

    def _why_illegal(self, move: Any) -> str:
        return self.match.round.explain_illegal(move, self.who)

    def who(self, seat: int, possessive: bool) -> str:
        """A seat as the player reads it: ``you``/``your``, else as the board names it."""
        if seat == self.human:
            return "your" if possessive else "you"
        name = seat_name(seat, self.names)
        return f"{name}'s" if possessive else name

    def _show_turn(self, obs: Any, choices: Sequence[Any], again: bool = False) -> None:
        self.console.print(board(obs, self.names, self.speech))
        if obs.cut_card is not None:
            self.console.print(
                Text(self.speech.say("cut_shown"), style="bold")
                .append_text(self.speech.card_text(obs.cut_card))
                .append(self.speech.say("keep_or_table"), style="bold")
            )
        else:
            self.console.print(Text(self.speech.say("your_plays"), style="bold"))
        self.console.print(choices_table(choices, self.speech.move_text))
        if self.coach is not None:
            self.coach.after_board(obs)

    def _read_move(self, text: str, obs: Any, choices: Sequence[Any]) -> Move | None:
        low = text.lower()
        if low.isascii() and low.isdigit():
            found: Move | None = self._numbered(low, choices)
            return found
        if obs.cut_card is not None:
            # At the cut only the cut can be decided: a card or a capture is no answer.
            if low in ("k", "keep", "t", "table"):
                return Cut.KEEP if low.startswith("k") else Cut.TABLE
            self._complain(
                f"{text!r} does not decide the cut: answer keep or table "
                f"(or 1 to {len(choices)}), ? for help"
            )
            return None
        lay = low.startswith("lay ")
        try:
            move = parse_move(text[4:] if lay else text)
        except NotationError as e:
            self._complain(str(e))
            return None
        if lay:
            if not isinstance(move, Play) or move.capture:
                self._complain(f"'lay' takes one card, like 'lay 5s', not {text[4:].strip()!r}")
                return None
            return move
        if isinstance(move, Play) and ":" not in text:
            # A bare card stands for its play when that is unambiguous.
            options = [m for m in choices if isinstance(m, Play) and m.card == move.card]
            if len(options) == 1:
                return options[0]
            if len(options) > 1:
                return self._which_capture(move.card, options)
        return move

    def _which_capture(self, card: int, options: Sequence[Move]) -> Move | None:
        self.console.print(
            self.speech.card_text(card).append(
                self.speech.say("ways", n=len(options)), style="bold"
            )
        )
        self.console.print(choices_table(options, self.speech.move_text))
        while True:
            text = self._ask_line(escape(self.speech.say("which_one"))).lower()
            if not text:
                return None
            if text in QUIT_WORDS:
                self._confirm_quit()
                continue
            if text.isascii() and text.isdigit() and 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            self._complain(f"answer a number from 1 to {len(options)}, or Enter to go back")

    def _help_text(self) -> list[tuple[str, bool]]:
        rules = self.match.rules
        return [(game_help(rules, self.speech), True), (capture_help(rules, self.speech), False)]
