"""Touti's table in the one terminal session: one person (seat 0) with a computer partner
against two computers.

:class:`ToutiSession` is :class:`~chkobba.tui.session.TerminalSession` with
Touti's table: the same commands, help, quitting and saving as every game (the
record, ``touti-record/1``, is saved however the session ends, holding exactly
the moves shown), and Touti's own board and moves. The board shows the
contract, each team's tricks and card points so far, the trick in progress and
the hand (again only when it has changed, or on ``board``); with ``unseen`` on,
the cards not seen yet. :class:`ToutiCoach` gives ``hint`` and ``unseen`` as
:class:`~chkobba.tui.coach.TerminalCoach` does for the Chkobba family; Touti has
no card-counting trainer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.markup import escape

import chkobba.touti.moves as tm
from chkobba.coach import touti as touti_coach
from chkobba.coach.games import TOUTI_COACH
from chkobba.coach.hints import hint, hint_meta
from chkobba.fishing.cards import CARDS, FULL_DECK, SUIT_SYMBOLS, SUITS, Card
from chkobba.games.touti import ToutiTable
from chkobba.touti.agents import ToutiAgent
from chkobba.touti.cards import STRENGTH, SUIT_NAMES, card_points, suit_name
from chkobba.touti.deal import Deal, Phase, canto_value, team_of
from chkobba.touti.match import ToutiMatch
from chkobba.touti.narrate import describe_move, describe_trick, score_lines, team_label, verb
from chkobba.touti.observe import ToutiObservation
from chkobba.touti.record import record_of
from chkobba.touti.technique import technique_move
from chkobba.tui.coach import CoachCommands, coach_help
from chkobba.tui.saving import Savable
from chkobba.tui.session import Ask, TerminalSession
from chkobba.tui.words import Speech
from chkobba.words import DEFAULT_LANGUAGE, word

SEAT_NAMES: Final = ("You", "Right", "Partner", "Left")
"""Playing order runs counter-clockwise, so seat 1 sits on the person's right."""

def hand_order(card: int, trump: int | None) -> tuple[bool, int, int]:
    """Where a card stands in a hand as shown: by suit, trumps first, then high to low in
    trick order."""
    return (card // 10 != trump, card // 10, -STRENGTH[card])


def hand_line(hand: int, trump: int | None, speech: Speech | None = None) -> str:
    """A hand by suit, trumps first, each suit high to low in trick order (Rich markup)."""
    trumps = speech.say("touti_trumps") if speech is not None else " (trumps)"
    parts = []
    for s in sorted(range(4), key=lambda s: (s != trump, s)):
        cs = sorted(
            (c for c in range(40) if hand >> c & 1 and c // 10 == s),
            key=lambda c: hand_order(c, trump),
        )
        if cs:
            colour = "red" if s in (1, 2) else "default"
            label = SUIT_SYMBOLS[s] + (escape(trumps) if s == trump else "")
            cards = " ".join(CARDS[c].pretty() for c in cs)
            parts.append(f"[{colour}]{label}[/{colour}] {cards}")
    return "   ".join(parts)


def move_label(m: tm.ToutiMove) -> str:
    """A move as the help says to type it, cards with their suit symbol: ``Q♥``,
    ``trump s (espadas)``, ``canto h``, ``ask aces``; bids and calls as they are."""
    if isinstance(m, tm.CardPlay):
        return CARDS[m.card].pretty()
    if isinstance(m, tm.Trump):
        return f"trump {SUITS[m.suit]} ({SUIT_NAMES[m.suit]})"
    if isinstance(m, tm.Canto):
        return f"canto {SUITS[m.suit]} ({SUIT_NAMES[m.suit]})"
    if isinstance(m, tm.Ask):
        return f"ask {m.topic}"
    return str(m)


def unseen_cards(obs: ToutiObservation) -> int:
    """The cards the observer has not seen: not in its hand, not played, not shown in an
    announcement."""
    shown = 0
    for k in obs.known:
        shown |= k
    return FULL_DECK & ~obs.hand & ~obs.played & ~shown


def hint_lines(obs: ToutiObservation, seed: int, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The hint for the person's move (Rich markup): in the play, Touti's coach's best cards,
    each with its worth and standard error (:data:`chkobba.coach.games.TOUTI_COACH`, as for
    Chkobba); in the bidding and elsewhere, the technique player's call.

    The one seam between the terminal and Touti's coach: what the coach says of a
    position comes from here only; ``lang`` is the language it speaks.
    """
    if TOUTI_COACH.weighed(obs):
        h = hint(obs, seed, coach=TOUTI_COACH)
        if lang == DEFAULT_LANGUAGE:
            lines = h.text_lines(lambda card: Card.parse(card).pretty())
        else:
            lines = h.text_lines(
                lambda card: Card.parse(card).pretty(),
                lang=lang,
                words=lambda line: touti_coach.words(obs, tm.parse_move(line.move), lang),
            )
        return [escape(line) for line in lines]
    move = technique_move(obs)
    return [escape(word(lang, "terminal", "touti_technique_says", move=move_label(move)))]


class ToutiCoach(CoachCommands):
    """Hints and the unseen-cards toggle of Touti's table, as
    :class:`~chkobba.tui.coach.TerminalCoach` gives them in the Chkobba family; ``hinter``
    is the seam to Touti's coach (:func:`hint_lines`)."""

    def __init__(
        self,
        console: Console,
        *,
        hints: bool = False,
        show_unseen: bool = False,
        seed: int = 0,
        speech: Speech | None = None,
        hinter: Callable[[ToutiObservation, int], list[str]] | None = None,
    ) -> None:
        self.console = console
        self.hints = hints
        self.show_unseen = show_unseen
        self.seed = seed
        self.speech = speech if speech is not None else Speech()
        self.hidden = self.speech.say("unseen_hidden")
        self.thinking = self.speech.say("touti_thinking")
        self.hinter = hinter if hinter is not None else partial(hint_lines, lang=self.speech.lang)
        self.hinted: list[tuple[int, int]] = []
        """(deal, move) of every hint asked, both 1-based as in the record."""

    def help(self) -> str:
        """The coach's lines of the help."""
        return coach_help(self.speech, "touti_coach_help", self.hints)

    def meta(self) -> dict[str, Any]:
        """What the record's ``meta.coach`` holds about this game."""
        return {"hints_enabled": self.hints, **hint_meta(self.hinted)}

    def after_board(self, obs: Any) -> None:
        """Show the cards the person has not seen, when the toggle is on."""
        if self.show_unseen:
            unseen = unseen_cards(obs)
            label = escape(self.speech.say("unseen_count", n=unseen.bit_count()))
            self.console.print(f"[dim]{label}[/dim] {hand_line(unseen, obs.trump, self.speech)}")

    def before_turn(self, obs: Any) -> None:
        """Touti has no trainer questions."""

    def _hint_place(self, obs: ToutiObservation) -> tuple[int, int]:
        return (obs.deal_number, len(obs.history) + 1)

    def _hint_lines(self, obs: ToutiObservation, seed: int) -> list[str]:
        return self.hinter(obs, seed)


class ToutiSession(TerminalSession):
    """A match of Touti between the person at seat 0 and computers at seats 1, 2, 3."""

    def __init__(
        self,
        match: ToutiMatch,
        agents: Mapping[int, ToutiAgent],
        save_path: Path,
        *,
        names: Sequence[str] = SEAT_NAMES,
        console: Console | None = None,
        ask: Ask | None = None,
        pause: float = 0.0,
        meta: dict[str, Any] | None = None,
        hints: bool = False,
        show_unseen: bool = False,
        seed: int = 0,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        if set(agents) != {1, 2, 3}:
            raise ValueError("seats 1, 2 and 3 need a computer player")
        console = console if console is not None else Console(highlight=False)
        coach = ToutiCoach(
            console, hints=hints, show_unseen=show_unseen, seed=seed, speech=Speech(lang)
        )
        super().__init__(
            ToutiTable(match),
            agents,
            names,
            save_path,
            console=console,
            ask=ask,
            pause=pause,
            meta=meta,
            coach=coach,
            lang=lang,
        )
        self.match = match
        self.touti_coach = coach
        self._deal: Deal | None = None
        self._tricks = 0
        self._shown: tuple[int, int | None] | None = None
        """The hand and trumps last drawn, so an unchanged hand is not drawn again."""

    @property
    def hints(self) -> bool:
        """Whether hints are allowed."""
        return self.touti_coach.hints

    @property
    def hinted(self) -> list[tuple[int, int]]:
        """(deal, move) of every hint asked, both 1-based as in the record."""
        return self.touti_coach.hinted

    def _record(self, meta: dict[str, Any] | None) -> Savable:
        return record_of(self.match, self.names, meta=meta)

    @property
    def _story_lang(self) -> str | None:
        """The language of the story's lines (None: the English records have always had)."""
        return None if self.speech.lang == DEFAULT_LANGUAGE else self.speech.lang

    def _totals(self) -> str:
        t = self.match.totals
        lang = self._story_lang
        score = (
            f"{team_label(0, self.names, lang)} {t[0]}, {team_label(1, self.names, lang)} {t[1]}"
        )
        return self.speech.say("touti_match_score", score=score, target=self.match.rules.target)

    def _stopped(self) -> None:
        # A finished deal's score was printed with it; the totals, once more, on stopping.
        self.console.print(escape(self._totals()))

    def _announce_winner(self) -> None:
        w = self.match.winner
        assert w is not None
        head = self.speech.say("win", name=team_label(w, self.names, self._story_lang))
        self.console.rule(f"[bold green]{escape(head)}[/bold green]")

    # -- one move ----------------------------------------------------------------

    def _before_move(self) -> None:
        d = self.match.deal
        if d is not self._deal:
            self._deal = d
            self._shown = None
            self.console.print()
            dealer = self.names[d.dealer]
            say = self.speech.say
            deals = (
                f"{dealer} {verb(dealer, 'deals')}"
                if self.speech.lang == "en"
                else say("touti_deals", dealer=dealer)
            )
            self.console.rule(
                f"[bold]{escape(say('touti_deal', n=len(self.match.finished) + 1))}[/bold]: "
                + escape(deals)
            )
            self._show_hand(d.hands[self.human], None)
        self._tricks = len(d.tricks)

    def _show_move(self, seat: int, move: Any) -> None:
        d = self._deal
        assert d is not None
        last_seat, last_move = d.history[-1]
        if last_move is not tm.Call.NO_CANTO:
            text = escape(
                describe_move(
                    last_seat, last_move, self.names, trump=d.trump, bid=d.bid,
                    lang=self._story_lang,
                )
            )
            self.console.print(f"[bold]{text}[/bold]" if last_seat == self.human else text)
        if len(d.tricks) > self._tricks:
            self.console.print(
                "[dim]"
                + escape(describe_trick(d.tricks[-1], len(d.tricks), self.names, self._story_lang))
                + "[/dim]"
            )

    def _after_move(self) -> None:
        d = self._deal
        assert d is not None
        if not d.is_over:
            return
        if d.score is None:
            self.console.print(f"[yellow]{escape(self.speech.say('touti_no_contract'))}[/yellow]")
            return
        for line in score_lines(d.score, self.names, self._story_lang):
            self.console.print(escape(line))
        self.console.print(f"[bold]{escape(self._totals())}[/bold]")
        if not self.match.is_over:
            n = len(self.match.finished) + 1
            self._wait_for_enter(escape(self.speech.say("press_enter_deal", n=n)))

    # -- asking the person -------------------------------------------------------

    def _automatic(self, obs: Any) -> tm.ToutiMove | None:
        moves: list[tm.ToutiMove] = list(obs.legal_moves)
        if moves == [tm.Call.NO_CANTO] or obs.phase is Phase.ANSWER:
            # Nothing to announce, or the partner's question, whose one answer is the true
            # one: nothing to ask the person.
            return moves[0]
        return None

    def _ordered(self, obs: ToutiObservation) -> list[tm.ToutiMove]:
        # The cards to play are listed (and numbered) in the order the hand shows them.
        return sorted(
            obs.legal_moves,
            key=lambda m: hand_order(m.card, obs.trump) if isinstance(m, tm.CardPlay) else (),
        )

    def _choices(self, obs: Any) -> list[Any]:
        moves = self._ordered(obs)
        if obs.phase is Phase.BID:
            return [m for m in moves if not isinstance(m, tm.Bid)]
        return moves

    def _prompt(self, obs: Any) -> str:
        say = self.speech.say
        return f"[bold]{escape(say('touti_your_move'))}[/bold]{escape(say('touti_move_hint'))}"

    def _empty_answer(self, choices: Sequence[Any]) -> str:
        return self.speech.say("touti_empty_answer")

    def _help_text(self) -> list[tuple[str, bool]]:
        # Touti's moves, then the lines every game shares, in the person's language.
        say = self.speech.say
        return [(say("touti_help", common=say("common_help")), True)]

    def _show_turn(self, obs: Any, choices: Sequence[Any], again: bool = False) -> None:
        say = self.speech.say
        moves = self._ordered(obs)
        if obs.trump is not None:
            self.console.print(
                escape(
                    say(
                        "touti_contract",
                        name=self.names[obs.declarer or 0],
                        bid=obs.bid,
                        suit=suit_name(obs.trump),
                    )
                )
            )
            self.console.print(escape(self._running_count(obs)))
        if obs.current:
            cards = " ".join(
                f"{CARDS[c].pretty()}({escape(self.names[(obs.leader + i) % 4])})"
                for i, c in enumerate(obs.current)
            )
            self.console.print(escape(say("touti_trick_so_far")) + cards)
        self._show_hand(obs.hand, obs.trump, again)
        if self.coach is not None:
            self.coach.after_board(obs)
        if obs.phase is Phase.BID:
            bids = [m for m in moves if isinstance(m, tm.Bid)]
            listing = [f"[cyan]{i}[/cyan] {move_label(m)}" for i, m in enumerate(choices, 1)]
            if bids:
                listing.append(
                    escape(say("touti_or") if choices else "")
                    + escape(say("touti_bid_range", low=bids[0].amount, high=bids[-1].amount))
                )
            so_far = say("touti_none")
            if obs.high_bidder is not None:
                so_far = f"{obs.bid} ({self.names[obs.high_bidder]})"
            head = escape(say("touti_bid_so_far", bid=so_far))
            self.console.print(head + "  " + "  ".join(listing))
            if bids and tm.Call.PASS not in moves:
                self.console.print(
                    f"[yellow]{escape(say('touti_zadtak', n=bids[0].amount))}[/yellow]"
                )
        else:
            self.console.print(
                "  ".join(f"[cyan]{i}[/cyan] {move_label(m)}" for i, m in enumerate(choices, 1))
            )

    def _show_hand(self, hand: int, trump: int | None, force: bool = False) -> None:
        if force or self._shown != (hand, trump):
            self._shown = (hand, trump)
            self.console.print(
                escape(self.speech.say("touti_your_hand")) + hand_line(hand, trump, self.speech)
            )

    def _running_count(self, obs: ToutiObservation) -> str:
        tricks = [0, 0]
        taken = [0, 0]
        for t in obs.tricks:
            team = team_of(t.winner)
            tricks[team] += 1
            for c in t.cards:
                taken[team] |= 1 << c
        say = self.speech.say
        parts = []
        for team in (0, 1):
            cantos = sum(
                canto_value(a.suit, obs.trump) for a in obs.announcements if team_of(a.seat) == team
            )
            key = "touti_team_tricks_cantos" if cantos else "touti_team_tricks"
            parts.append(
                say(
                    key,
                    team=team_label(team, self.names, self._story_lang),
                    n=tricks[team],
                    points=card_points(taken[team]),
                    cantos=cantos,
                )
            )
        return say("touti_tricks") + ", ".join(parts)

    def _read_move(self, text: str, obs: Any, choices: Sequence[Any]) -> Any:
        low = text.lower()
        if low.isascii() and low.isdigit() and int(low) < tm.MIN_BID:
            n = int(low)
            if 1 <= n <= len(choices):
                return choices[n - 1]
            if obs.phase is Phase.BID and (n % tm.BID_STEP == 0 or n > len(choices) + tm.BID_STEP):
                self._complain(self._bid_range(n, obs.legal_moves))
                return None
            self._complain(self.speech.say("touti_no_move_number", n=n, count=len(choices)))
            return None
        if low in ("no", "n") and obs.phase is Phase.CANTO:
            return tm.Call.NO_CANTO
        words = text.split()
        if len(words) == 2 and words[0].lower() in ("trump", "canto", "ask"):
            text = f"{words[0]}:{words[1]}"
        try:
            return tm.parse_move(text)
        except tm.NotationError as e:
            self._complain(str(e))
            return None

    def _bid_range(self, n: int, moves: Sequence[tm.ToutiMove]) -> str:
        # A number too small to be a bid and too big to be a move's number: a bid meant.
        bids = [m for m in moves if isinstance(m, tm.Bid)]
        say = self.speech.say
        low, high = tm.MIN_BID, tm.MAX_BID
        if not bids:
            return say("touti_not_a_bid_now", n=n, low=low, high=high)
        if bids[0].amount == tm.MIN_BID:
            return say("touti_not_a_bid", n=n, low=low, high=high)
        return say("touti_not_a_bid_range", n=n, low=low, high=high,
                   now_low=bids[0].amount, now_high=bids[-1].amount)


__all__ = [
    "SEAT_NAMES",
    "ToutiCoach",
    "ToutiSession",
    "hand_line",
    "hint_lines",
    "move_label",
    "unseen_cards",
]
