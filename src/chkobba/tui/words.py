"""The terminal game's words: its prompts and its story of the game in the player's
language (the ``terminal`` section of the catalogues, :mod:`chkobba.words`), and the
cards in the words of the deck in use (:mod:`chkobba.words.cards`).

In English on French cards every line reads as it always has (``Alice plays 7♦ and
captures 3♠ 4♥``); on Italian cards in Italian the same play reads ``Alice gioca
7 di denari e prende 3 di spade, 4 di coppe``. The notation the player types (``7d``,
``7d:3s+4h``) never changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from chkobba.fishing.cards import CARDS, DIAMONDS, HEARTS, cards_of, sort_for_display
from chkobba.fishing.game import Turn
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.narrate import seat_name
from chkobba.fishing.rules import RuleSet
from chkobba.words import DEFAULT_LANGUAGE, word
from chkobba.words.cards import card_short

_RED = (HEARTS, DIAMONDS)


@dataclass(frozen=True)
class Speech:
    """How the terminal speaks: a language and the deck whose names the cards take."""

    lang: str = DEFAULT_LANGUAGE
    deck: str = "french"

    def say(self, key: str, **values: object) -> str:
        """The terminal's text ``key`` in the player's language, its placeholders filled."""
        return word(self.lang, "terminal", key, **values)

    def goal(self, rules: RuleSet) -> str:
        """What ends the match: ``first to 21``, ``a 21, vince chi ha meno punti``."""
        return self.say("goal_lowest" if rules.lowest_wins else "goal_first", n=rules.target)

    def yes(self, answer: str) -> bool:
        """Whether ``answer`` means yes in the player's language (or in English)."""
        return answer.strip().lower() in self.say("yes_answers").split()

    def card(self, card: int) -> str:
        """A card as written: ``7♦``, or ``7 di denari`` on Italian cards in Italian."""
        return card_short(card, self.deck, self.lang)

    def card_text(self, card: int) -> Text:
        """A card in its suit's colour (hearts and diamonds red)."""
        return Text(self.card(card), style="bold red" if CARDS[card].suit in _RED else "bold")

    def cards_text(self, mask: int) -> Text:
        """A set of cards inline, by value then suit, each in its colour."""
        sep = " " if self.deck == "french" else word(self.lang, "cards", "list")
        return Text(sep).join(self.card_text(c) for c in sort_for_display(cards_of(mask)))

    def move_text(self, move: Move) -> Text:
        """One legal move in words: ``7♣ takes 3♠ 4♥``, ``lay 5♠``, ``keep it in your hand``."""
        if isinstance(move, Cut):
            return Text(self.say("move_keep" if move is Cut.KEEP else "move_table"))
        if not move.capture:
            return self._filled("move_lay", card=self.card_text(move.card))
        return self._filled(
            "move_takes", card=self.card_text(move.card), taken=self.cards_text(move.capture)
        )

    def turn_text(self, turn: Turn, names: Sequence[str] | None, sweep: str) -> Text:
        """One play of the round, in words, its cards in their colours; ``sweep`` names a
        sweep that scores (``chkobba``, ``scopa``)."""
        who = Text(seat_name(turn.seat, names))
        move = turn.move
        if isinstance(move, Cut):
            return self._filled(
                "turn_keeps" if move is Cut.KEEP else "turn_tables", name=who
            )
        assert isinstance(move, Play)
        if not move.capture:
            return self._filled("turn_lays", name=who, card=self.card_text(move.card))
        line = self._filled(
            "turn_captures",
            name=who,
            card=self.card_text(move.card),
            taken=self.cards_text(move.capture),
        )
        return line + Text(self.say("turn_sweep", sweep=sweep)) if turn.chkobba else line

    def _filled(self, key: str, **parts: Text) -> Text:
        # The text's placeholders are filled with styled pieces, in the order the
        # language puts them (a translation may move a card before a name).
        template = word(self.lang, "terminal", key)
        out = Text()
        rest = template
        while rest:
            start = rest.find("{")
            end = rest.find("}", start)
            if start < 0 or end < 0:
                out.append(rest)
                break
            out.append(rest[:start])
            name = rest[start + 1 : end]
            if name in parts:
                out.append_text(parts[name])
            else:
                out.append(rest[start : end + 1])
            rest = rest[end + 1 :]
        return out
