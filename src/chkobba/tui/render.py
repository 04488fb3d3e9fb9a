"""What the terminal game draws: cards, the board as one seat sees it, the choices.

Everything here is built from an :class:`~chkobba.fishing.observe.Observation`, the same
view an agent gets, so the screen cannot show a card the player may not know.
Renderables are Rich objects; the caller decides which console they go to.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Final

from rich import box
from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from chkobba.fishing.cards import CARDS, DIAMONDS, HEARTS, cards_of, format_cards, sort_for_display
from chkobba.fishing.game import Phase
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.narrate import (
    seat_name,
    side_name,
    sweep_word,
    sweeps_label,
)
from chkobba.fishing.observe import Observation
from chkobba.tui.words import Speech

ENGLISH: Final = Speech()
"""English on French cards: what the terminal says unless told otherwise."""

RECENT_PLAYS: Final = 4
"""How many of the round's latest plays the board recalls."""

_RED: Final = (HEARTS, DIAMONDS)
_RED_CARD: Final = re.compile(r"[A2-7QJK][♥♦]")


def framed(text: str) -> str:
    """``text`` as it can go inside a frame: its accents composed (NFC), its Arabic
    vowel marks (harakat, shadda) left out.

    Rich gives a combining mark no cell, as Unicode does, but some terminals draw it
    in a cell of its own and push the frame's right edge. Composing removes most
    marks; Arabic's have no composed form and are optional, so they are left out as
    everyday writing leaves them out (شكبّة reads شكبة). Other scripts' marks are
    kept: leaving them out would misspell a name.
    """
    composed = unicodedata.normalize("NFC", text)
    return "".join(c for c in composed if not _arabic_mark(c))


def _arabic_mark(c: str) -> bool:
    return unicodedata.category(c) == "Mn" and unicodedata.name(c, "").startswith("ARABIC")


def card_style(card: int) -> str:
    """Hearts and diamonds are red, spades and clubs are not."""
    return "bold red" if CARDS[card].suit in _RED else "bold"


def card_text(card: int) -> Text:
    """A card with its suit symbol, in its suit's colour: ``7♦``."""
    return Text(CARDS[card].pretty(), style=card_style(card))


def card_face(card: int) -> Text:
    """A card drawn as a small face, for the hand and the table."""
    colour = "red" if CARDS[card].suit in _RED else "black"
    return Text(f" {CARDS[card].pretty()} ", style=f"bold {colour} on grey93")


def cards_row(mask: int, empty: str = "(empty)") -> Text:
    """A set of cards as a row of faces, by value then suit."""
    cards = sort_for_display(cards_of(mask))
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_face(c) for c in cards)


def coloured(line: str) -> Text:
    """A line of prose whose cards (``7♦``, ``Ks``…) are shown in their colours."""
    text = Text(line)
    text.highlight_regex(_RED_CARD, "bold red")
    return text


def cards_words(mask: int) -> Text:
    """A set of cards inline, separated by spaces, in their colours."""
    return coloured(format_cards(mask, " ", pretty=True))


def move_text(move: Move) -> Text:
    """One legal move in words: ``7♣ takes 3♠ 4♥``, ``lay 5♠``, ``keep the cut card``."""
    if isinstance(move, Cut):
        return Text("keep it in your hand" if move is Cut.KEEP else "put it on the table")
    if not move.capture:
        return Text("lay ").append_text(card_text(move.card))
    return card_text(move.card).append(" takes ").append_text(cards_words(move.capture))


def in_hand_order(moves: Sequence[Move]) -> list[Move]:
    """The moves in the order the hand is shown (by the played card's value, then suit),
    each card's captures in the engine's order; a cut's two answers as they are."""
    plays: list[Play] = [m for m in moves if isinstance(m, Play)]
    if len(plays) != len(moves):
        return list(moves)
    shown = sort_for_display(CARDS[p.card] for p in plays)
    rank = {int(c): i for i, c in enumerate(shown)}
    plays.sort(key=lambda p: rank[p.card])
    return list(plays)


def choices_table(moves: Sequence[Move], words: Callable[[Move], Text] = move_text) -> Table:
    """The numbered legal moves, each with its notation for typing it directly;
    ``words`` says each move (in the player's language: :class:`chkobba.tui.words.Speech`)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold cyan")
    table.add_column()
    table.add_column(style="dim")
    for i, move in enumerate(moves, 1):
        notation = "" if isinstance(move, Cut) else str(move)
        table.add_row(str(i), words(move), notation)
    return table


def score_line(totals: Sequence[int], side_of: Sequence[int], names: Sequence[str]) -> Text:
    """Each side's match points: ``Alice 5 · heuristic 3``."""
    parts = [f"{side_name(s, side_of, names)} {t}" for s, t in enumerate(totals)]
    return Text(" · ".join(parts))


MANY_SEATS: Final = 4
"""Above this many seats the board lists the players in a table, one row each."""


def players_table(obs: Observation, names: Sequence[str], speech: Speech = ENGLISH) -> Table:
    """One row per seat, for a table of many players (six, in the Scopa family): the cards
    in hand, the pile, the sweeps and the match points, and who deals and who plays."""
    say = speech.say
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column(say("col_player"), no_wrap=True)
    for col in (say("col_hand"), say("col_pile"), sweeps_label(obs.rules), say("col_points")):
        table.add_column(col, justify="right")
    table.add_column("")
    for s in range(obs.seats):
        side = obs.side_of[s]
        marks = [
            say(m) for m, on in (("mark_deals", s == obs.dealer), ("mark_to_play", s == obs.turn))
            if on
        ]
        name = seat_name(s, names) + (say("mark_you") if s == obs.seat else "")
        table.add_row(
            Text(name, style="bold" if s == obs.seat else ""),
            str(obs.hand_sizes[s]),
            str(obs.piles[side].bit_count()),
            str(obs.chkobba[side]),
            str(obs.totals[side]),
            Text(", ".join(marks), style="dim"),
        )
    return table


def board(obs: Observation, names: Sequence[str], speech: Speech = ENGLISH) -> Panel:
    """The whole situation as ``obs.seat`` sees it, framed for the terminal.

    While the cut is being decided nothing is dealt yet, so only the score shows.
    With more than four players, one table lists every seat's hand, pile, sweeps and
    points (:func:`players_table`). ``speech``: the player's language and the deck whose
    names the cards of the story take (the faces of the hand and the table stay in the
    notation the player types).
    """
    say = speech.say
    names = [framed(n) for n in names]
    many = obs.seats > MANY_SEATS
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    if many:
        grid.add_row(say("board_match"), Text(speech.goal(obs.rules)))
    else:
        score = score_line(obs.totals, obs.side_of, names)
        goal = speech.goal(obs.rules)
        grid.add_row(say("board_score"), score.append(f"   ({goal})", style="dim"))
    leads = "deals_cuts" if obs.rules.cut_choice else "deals_leads"
    dealer = Text(
        say(leads, dealer=seat_name(obs.dealer, names), cutter=seat_name(obs.cutter, names))
    )
    grid.add_row(say("board_deal"), dealer)
    if many and obs.phase is not Phase.CUT:
        grid.add_row(say("board_players"), players_table(obs, names, speech))
    if obs.phase is not Phase.CUT:
        if not many:
            sweeps = sweeps_label(obs.rules)
            piles = " · ".join(
                say(
                    "pile",
                    name=side_name(s, obs.side_of, names),
                    n=p.bit_count(),
                    sweeps=obs.chkobba[s],
                    label=sweeps,
                )
                for s, p in enumerate(obs.piles)
            )
            grid.add_row(say("board_piles"), Text(piles))
            others = " · ".join(
                say("hand_count_one" if n == 1 else "hand_count", name=seat_name(s, names), n=n)
                for s, n in enumerate(obs.hand_sizes)
                if s != obs.seat
            )
            grid.add_row(say("board_hands"), Text(others))
        for s, shown in enumerate(obs.shown):
            if shown and s != obs.seat:
                grid.add_row(
                    "",
                    Text(say("shows", name=seat_name(s, names))).append_text(
                        cards_row(shown, say("empty"))
                    ),
                )
        grid.add_row(say("board_stock"), Text(say("stock_cards", n=obs.stock)))
        recent = obs.history[-RECENT_PLAYS:]
        if recent:
            sweep = sweep_word(obs.rules)
            lines = Text("\n").join(speech.turn_text(t, names, sweep) for t in recent)
            grid.add_row(say("board_last"), lines)
        grid.add_row("", "")
        grid.add_row(say("board_table"), cards_row(obs.table, say("empty")))
        grid.add_row(say("board_hand"), cards_row(obs.hand, say("empty")))
    mover = seat_name(obs.turn, names)
    to_move = say("your_turn") if obs.turn == obs.seat else say("to_play", name=mover)
    return Panel(
        grid,
        title=say("round", n=obs.round_number),
        subtitle=escape(to_move),
        box=box.ROUNDED,
        expand=False,
    )


def breakdown_panel(lines: Sequence[str], title: str) -> Panel:
    """A finished round's points, one line each
    (from :func:`~chkobba.fishing.narrate.breakdown_lines`)."""
    return Panel(Group(*(coloured(framed(line)) for line in lines)), title=title, expand=False)


def play_line(line: str | Text, mine: bool, chkobba: bool) -> Text:
    """A play as it happens; the player's own and chkobba sweeps stand out."""
    text = coloured("  " + line) if isinstance(line, str) else Text("  ").append_text(line)
    if mine:
        text.stylize("bold", 0, len(text))
    if chkobba:
        text.stylize("bold yellow", 0, len(text))
    return text
