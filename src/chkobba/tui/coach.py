"""The coach in the terminal game: hints, the card-counting trainer, the unseen cards,
and the post-game summary with its chart.

:class:`TerminalCoach` is what :class:`~chkobba.tui.session.PlaySession` asks at
a few points: before the player's turn (a trainer question), after the board is
drawn (the unseen cards, when shown), and for each line typed (``hint``,
``unseen``). What the coach did goes into the record's ``meta.coach``
(docs/coach.md), so a hinted game can be told from an unaided one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from chkobba.coach.counting import Question, TrainerScore, ask, read_answer
from chkobba.coach.explain import Speech as CoachSpeech
from chkobba.coach.explain import sentence
from chkobba.coach.hints import hint, hint_meta
from chkobba.coach.summary import chart, summarize
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Play
from chkobba.fishing.observe import Observation
from chkobba.tui.render import cards_row
from chkobba.tui.words import Speech
from chkobba.words import DEFAULT_LANGUAGE, word

TRAINER_EVERY: Final = 3
"""The trainer asks before about one turn in this many (at random, seeded)."""

def coach_help(speech: Speech, key: str, hints: bool) -> str:
    """A coach's lines of the help (Rich markup) in the player's language: the terminal's
    text ``key``, saying so when hints are off."""
    off = "" if hints else speech.say("coach_help_off")
    return speech.say(key, hints=escape(off))


def answer_prompt(q: Question, speech: Speech | None = None) -> str:
    """The prompt for a trainer question's answer: yes or no for a lay's safety, cards
    for a rank or a suit."""
    say = (speech or Speech()).say
    return say("trainer_answer_safe" if q.kind == "safe" else "trainer_answer_cards")


def english_answer(q: Question, text: str, speech: Speech) -> str:
    """A trainer answer typed in the player's language as the trainer reads it: yes and
    no (``sì``, ``non``), and the word for none, in English; cards as typed."""
    t = text.strip().lower()
    if q.kind == "safe":
        if speech.yes(t):
            return "yes"
        if t in (word(speech.lang, "coach", "no").lower(), "n", "no"):
            return "no"
    elif t == word(speech.lang, "coach", "x_none").lower():
        return "none"
    return text


class CoachCommands:
    """What the coach of every game does alike: ``hint`` and ``unseen`` typed at a turn,
    and the hints noted for the record's ``meta.coach``. A game's coach says how a hint
    reads (:meth:`_hint_lines`), where it was asked (:meth:`_hint_place`) and how the
    unseen cards are drawn (:meth:`after_board`)."""

    console: Console
    hints: bool
    show_unseen: bool
    seed: int
    hinted: list[tuple[int, int]]
    speech: Speech
    thinking = "The expert is thinking…"
    """What the screen says while a hint is worked out."""
    hidden = "Unseen cards hidden."

    def command(self, text: str, obs: Any) -> bool:
        """Act on a typed coach command; False if ``text`` is not one."""
        if text in ("hint", "!"):
            self._hint(obs)
            return True
        if text in ("unseen", "u"):
            self.show_unseen = not self.show_unseen
            if self.show_unseen:
                self.after_board(obs)
            else:
                self.console.print(f"[dim]{escape(self.hidden)}[/dim]")
            return True
        return False

    def after_board(self, obs: Any) -> None:
        """Show the cards the player has not seen, when the toggle is on."""
        raise NotImplementedError

    def _hint_place(self, obs: Any) -> tuple[int, int]:
        """(round, move) of the hint, as the record numbers them."""
        raise NotImplementedError

    def _hint_lines(self, obs: Any, seed: int) -> list[str]:
        """The hint, line by line (Rich markup)."""
        raise NotImplementedError

    def _hint(self, obs: Any) -> None:
        if not self.hints:
            self.console.print(f"[yellow]{escape(self.speech.say('coach_hints_off'))}[/yellow]")
            return
        if len(obs.legal_moves) < 2:
            self.console.print(escape(self.speech.say("coach_one_move")))
            return
        self.hinted.append(self._hint_place(obs))
        with self.console.status(self.thinking):
            lines = self._hint_lines(obs, self.seed + 7919 * len(self.hinted))
        for line in lines:
            self.console.print(line)
        counted = self.speech.say("coach_hints_count", n=len(self.hinted))
        self.console.print(f"[dim]{escape(counted)}[/dim]")


class TerminalCoach(CoachCommands):
    """Hints, trainer questions and the unseen-cards toggle for one human seat."""

    def __init__(
        self,
        console: Console,
        ask_line: Callable[[str], str],
        *,
        hints: bool = False,
        trainer: bool = False,
        show_unseen: bool = False,
        seed: int = 0,
        speech: Speech | None = None,
    ) -> None:
        self.console = console
        self.ask_line = ask_line
        self.speech = speech if speech is not None else Speech()
        """The player's language and the deck whose words name the cards."""
        if self.speech.lang != DEFAULT_LANGUAGE:
            self.thinking = self.speech.say("coach_thinking")
            self.hidden = self.speech.say("unseen_hidden")
        self.hints = hints
        self.trainer = trainer
        self.show_unseen = show_unseen
        self.rng = random.Random(seed)
        self.seed = seed
        self.hinted: list[tuple[int, int]] = []
        self.score = TrainerScore()

    def help(self) -> str:
        """The coach's lines of the help."""
        return coach_help(self.speech, "coach_help", self.hints)

    def meta(self) -> dict[str, Any]:
        """What the record's ``meta.coach`` holds about this game."""
        out: dict[str, Any] = {"hints_enabled": self.hints, **hint_meta(self.hinted)}
        if self.trainer:
            out["trainer"] = self.score.to_json()
        return out

    def after_board(self, obs: Observation) -> None:
        """Show the cards the player has not seen, when the toggle is on."""
        if self.show_unseen:
            # The faces keep the notation, as the hand's; the words are the player's.
            label = self.speech.say("unseen_count", n=obs.unseen.bit_count()) + " "
            none = word(self.speech.lang, "coach", "x_none")
            self.console.print(
                Text(label, style="dim").append_text(cards_row(obs.unseen, none))
            )

    def before_turn(self, obs: Observation) -> None:
        """In trainer mode, now and then ask a counting question and score the answer."""
        if not self.trainer or not obs.legal_moves or obs.cut_card is not None:
            return
        if self.rng.randrange(TRAINER_EVERY) != 0:
            return
        self._quiz(ask(obs, self.rng))

    def _quiz(self, q: Question) -> None:
        sp = self.speech
        lang = sp.lang
        why = escape(q.why_in(lang))
        label = escape(sp.say("trainer_label"))
        self.console.print(f"[bold magenta]{label}[/bold magenta] {escape(q.prompt_in(lang))}")
        while True:
            text = self.ask_line(answer_prompt(q, sp))
            if not text.strip():
                self.console.print(f"[dim]{escape(sp.say('trainer_skipped'))} {why}[/dim]")
                return
            try:
                given = read_answer(q, english_answer(q, text, sp))
            except ValueError:
                # The parser's reason is English; the player is told in their language.
                said = sp.say("trainer_unreadable", text=text.strip())
                again = sp.say("trainer_try_again")
                self.console.print(f"[red]✗[/red] {escape(said)}; {escape(again)}")
                continue
            break
        right = self.score.mark(q, given)
        verdict = escape(word(lang, "coach", "right" if right else "wrong"))
        colour = "green" if right else "red"
        self.console.print(f"[{colour}]{verdict}[/{colour}] {why}")
        score = sp.say("trainer_score", right=self.score.right, asked=self.score.asked)
        self.console.print(f"[dim]{escape(score)}[/dim]")

    def _hint_place(self, obs: Observation) -> tuple[int, int]:
        # The play about to be made, numbered as in the record (0: the cut decision).
        play = (
            0
            if obs.cut_card is not None
            else 1 + sum(isinstance(t.move, Play) for t in obs.history)
        )
        return (obs.round_number, play)

    def _hint_lines(self, obs: Observation, seed: int) -> list[str]:
        h = hint(obs, seed)
        sp = self.speech
        if sp.lang == DEFAULT_LANGUAGE and sp.deck == "french":
            return [escape(line) for line in h.text_lines()]
        said = CoachSpeech(sp.lang, sp.deck)
        moves = {str(m): m for m in obs.legal_moves}
        lines = h.text_lines(
            lang=sp.lang, words=lambda line: sentence(obs, moves[line.move], said)
        )
        return [escape(line) for line in lines]


def show_summary(
    console: Console,
    match: Match,
    names: list[str],
    record_path: Path | None,
    human: int = 0,
    speech: Speech | None = None,
) -> Path | None:
    """Print the points won and lost per category (in the player's language); save the
    chart next to the record; return its path."""
    sp = speech if speech is not None else Speech()
    rounds = [*match.finished]
    if not rounds:
        return None
    s = summarize(rounds, names)
    mine = match.side_of[human]
    head = escape(word(sp.lang, "coach", "per_category"))
    console.print(f"[bold]{head}[/bold] ({escape(s.sides[mine])}):")
    for line in s.lines(mine, sp.lang):
        console.print(f"  {escape(line)}")
    if record_path is None:
        return None
    png = record_path.with_name(record_path.stem + ".summary.png")
    try:
        png.write_bytes(chart(s, "png", sp.lang))
    except OSError as e:
        failed = sp.say("chart_failed", why=e.strerror or str(e))
        console.print(f"[red]{escape(failed)}[/red]")
        return None
    saved = sp.say("chart_saved", path="\x00").split("\x00")
    console.print(
        f"{escape(saved[0])}[bold]{escape(str(png))}[/bold]{escape(saved[-1])}", soft_wrap=True
    )
    return png
