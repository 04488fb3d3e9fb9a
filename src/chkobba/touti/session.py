"""The terminal game of Touti: one person (seat 0) with a computer partner against two computers.

:class:`ToutiSession` drives a :class:`~chkobba.touti.match.ToutiMatch` to its
end. Computer seats choose from their observation only; the person is asked
through an injectable ``ask`` function and everything is drawn on an injectable
Rich console, so tests can script a game. However the session ends (the match
won, ``quit``, end of input, Ctrl-C, even a crash) the record of the game so
far is saved as ``touti-record/1``.

The board shows the contract, each team's tricks and card points so far, the
trick in progress and the hand (again only when it has changed, or on
``board``); with ``unseen`` on, the cards not seen yet. With hints allowed,
``hint`` gives the search player's worth of each card (the technique's choice
in the bidding); hints are counted in the record's ``meta.coach``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.markup import escape

from chkobba.coach.hints import hint_meta
from chkobba.fishing.cards import CARDS, FULL_DECK, SUIT_SYMBOLS, SUITS
from chkobba.touti.agents import ToutiAgent
from chkobba.touti.cards import STRENGTH, SUIT_NAMES, card_points, suit_name
from chkobba.touti.deal import Deal, IllegalMove, Phase, canto_value, team_of
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import (
    BID_STEP,
    MAX_BID,
    MIN_BID,
    Bid,
    Call,
    Canto,
    CardPlay,
    NotationError,
    ToutiMove,
    Trump,
)
from chkobba.touti.moves import Ask as AskPartner
from chkobba.touti.moves import parse_move as parse_touti_move
from chkobba.touti.narrate import (
    describe_move,
    describe_trick,
    score_lines,
    team_label,
    verb,
)
from chkobba.touti.observe import ToutiObservation, observe
from chkobba.touti.record import record_of
from chkobba.touti.search import SearchAgent
from chkobba.touti.technique import technique_move
from chkobba.tui.saving import save_record
from chkobba.tui.session import Ask, Ending, Quit, SessionResult, interrupts_held, play_out

HELP: Final = """\
[bold]How to answer[/bold]
  [cyan]3[/cyan]          the move numbered 3 in the list
  [cyan]90[/cyan]         bid 90 (bids are 70 to 230 by tens, above the last bid)
  [cyan]pass[/cyan]       pass (final: you may not bid again in this deal)
  [cyan]alla[/cyan], [cyan]macharich[/cyan], [cyan]zadtak[/cyan]   semi-parlé calls (--talk semi)
  [cyan]ask aces[/cyan]   parlé (--talk parle): ask your partner (voids, singletons, shape,
             aces, threes, twelves, elevens, tens, tchanek, cantos); it answers truly
  [cyan]trump d[/cyan]    name trumps (d oros, h copas, s espadas, c bastos)
  [cyan]Ad[/cyan]         play the card (rank then suit)
  [cyan]canto h[/cyan]    announce the 11 and 12 of a suit; [cyan]no[/cyan]: announce nothing
  [cyan]claim[/cyan]      claim the remaining tricks (--claim, last five tricks, on lead)
  [cyan]hint[/cyan]       the search player's worth of each card (--hints)
  [cyan]unseen[/cyan]     show or hide the cards you have not seen yet
  [cyan]board[/cyan]      show the table again;  [cyan]?[/cyan] this help
  [cyan]q[/cyan]          quit; the game so far is then saved (on Ctrl-C and end of input too)
Cards: A = 1 (as), Q = 10 (sota), J = 11 (caballo), K = 12 (rey).
Suits: d oros ♦, h copas ♥, s espadas ♠, c bastos ♣.
Trick order: 1 3 12 11 10 7 6 5 4 2.
Follow suit and beat the highest card if you can; void in the suit,
trump (over-trump a trump if you can); otherwise discard.
Announcements: only the declarer's team, after a trick it wins:
40 in trumps, 20 otherwise."""

SEAT_NAMES: Final = ("You", "Right", "Partner", "Left")
"""Playing order runs counter-clockwise, so seat 1 sits on the person's right."""
HINT_SAMPLES: Final = 48
"""Sampled deals behind a hint on a card."""
HINT_CARDS: Final = 3
"""How many cards a hint shows."""


def hand_order(card: int, trump: int | None) -> tuple[bool, int, int]:
    """Where a card stands in a hand as shown: by suit, trumps first, then high to low in
    trick order."""
    return (card // 10 != trump, card // 10, -STRENGTH[card])


def hand_line(hand: int, trump: int | None) -> str:
    """A hand by suit, trumps first, each suit high to low in trick order (Rich markup)."""
    parts = []
    for s in sorted(range(4), key=lambda s: (s != trump, s)):
        cs = sorted(
            (c for c in range(40) if hand >> c & 1 and c // 10 == s),
            key=lambda c: hand_order(c, trump),
        )
        if cs:
            colour = "red" if s in (1, 2) else "default"
            label = SUIT_SYMBOLS[s] + (" (trumps)" if s == trump else "")
            cards = " ".join(CARDS[c].pretty() for c in cs)
            parts.append(f"[{colour}]{label}[/{colour}] {cards}")
    return "   ".join(parts)


def move_label(m: ToutiMove) -> str:
    """A move as the help says to type it, cards with their suit symbol: ``Q♥``,
    ``trump s (espadas)``, ``canto h``, ``ask aces``; bids and calls as they are."""
    if isinstance(m, CardPlay):
        return CARDS[m.card].pretty()
    if isinstance(m, Trump):
        return f"trump {SUITS[m.suit]} ({SUIT_NAMES[m.suit]})"
    if isinstance(m, Canto):
        return f"canto {SUITS[m.suit]} ({SUIT_NAMES[m.suit]})"
    if isinstance(m, AskPartner):
        return f"ask {m.topic}"
    return str(m)


class ToutiSession:
    """A match of Touti between the person at seat 0 and agents at seats 1, 2, 3."""

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
    ) -> None:
        if set(agents) != {1, 2, 3}:
            raise ValueError("seats 1, 2 and 3 need a computer player")
        self.match = match
        self.agents = dict(agents)
        self.names = list(names)
        self.save_path = save_path
        self.console = console if console is not None else Console(highlight=False)
        self.ask: Ask = ask if ask is not None else self.console.input
        self.pause = pause
        self.meta = meta
        self.hints = hints
        self.show_unseen = show_unseen
        self.seed = seed
        self.hinted: list[tuple[int, int]] = []
        """(deal, move) of every hint asked, both 1-based as in the record."""
        self._deal: Deal | None = None
        self._shown: tuple[int, int | None] | None = None
        """The hand and trumps last drawn, so an unchanged hand is not drawn again."""

    def run(self) -> SessionResult:
        """Play until the match is decided or the player stops; save the record."""
        ending = play_out(self.console, self._step, lambda: self.match.is_over, self.save)
        if ending is Ending.FINISHED:
            w = self.match.winner
            assert w is not None
            head = f"{team_label(w, self.names)} win the match!"
            self.console.rule(f"[bold green]{escape(head)}[/bold green]")
        else:
            # A finished match's score was just printed with its last deal.
            self.console.print(self._totals())
        return SessionResult(ending, self.match.winner, self.save())

    def save(self) -> Path | None:
        """Write the record of the game so far; say where, or why it could not be."""
        meta = self.meta
        if self.hints:
            meta = {**(meta or {}), "coach": {"hints_enabled": True, **hint_meta(self.hinted)}}
        record = record_of(self.match, self.names, meta=meta)
        return save_record(self.console, record, self.save_path)

    def _totals(self) -> str:
        t = self.match.totals
        return (
            f"Match score: {team_label(0, self.names)} {t[0]}, "
            f"{team_label(1, self.names)} {t[1]} (to {self.match.rules.target})"
        )

    # -- one move ----------------------------------------------------------------

    def _step(self) -> None:
        d = self.match.deal
        if d is not self._deal:
            self._deal = d
            self._shown = None
            self.console.print()
            dealer = self.names[d.dealer]
            self.console.rule(
                f"[bold]Deal {len(self.match.finished) + 1}[/bold]: "
                f"{escape(dealer)} {verb(dealer, 'deals')}"
            )
            self._show_hand(d.hands[0], None)
        seat = d.turn
        tricks = len(d.tricks)
        if seat == 0:
            self._human_turn()
            with interrupts_held():
                self._tell(d, tricks)
        else:
            move = self.agents[seat].choose(observe(self.match, seat))
            # The pause comes before the move is taken, and the move is taken and shown
            # as one: a Ctrl-C never saves a computer's move the person did not see.
            if self.pause > 0:
                time.sleep(self.pause)
            with interrupts_held():
                try:
                    self.match.apply(move)
                except IllegalMove as e:
                    raise RuntimeError(
                        f"the {self.agents[seat].name!r} player at seat {seat} chose an "
                        f"illegal move {move}: {e}"
                    ) from None
                self._tell(d, tricks)
        if d.is_over:
            self._end_deal(d)

    def _tell(self, d: Deal, tricks: int) -> None:
        """Show the move just made, and the trick it finished if it did."""
        last_seat, last_move = d.history[-1]
        if last_move is not Call.NO_CANTO:
            style = "bold" if last_seat == 0 else ""
            text = escape(
                describe_move(last_seat, last_move, self.names, trump=d.trump, bid=d.bid)
            )
            self.console.print(f"[{style}]{text}[/{style}]" if style else text)
        if len(d.tricks) > tricks:
            self.console.print(
                "[dim]" + escape(describe_trick(d.tricks[-1], len(d.tricks), self.names)) + "[/dim]"
            )

    def _end_deal(self, d: Deal) -> None:
        if d.score is None:
            self.console.print("[yellow]No contract: the cards are dealt again.[/yellow]")
            return
        for line in score_lines(d.score, self.names):
            self.console.print(escape(line))
        self.console.print(f"[bold]{escape(self._totals())}[/bold]")
        if not self.match.is_over:
            self._wait("Press Enter for the next deal (q to quit) ")

    # -- asking the person -------------------------------------------------------

    def _human_turn(self) -> None:
        obs = observe(self.match, 0)
        # The cards to play are listed (and numbered) in the order the hand shows them.
        moves = sorted(
            obs.legal_moves,
            key=lambda m: hand_order(m.card, obs.trump) if isinstance(m, CardPlay) else (),
        )
        if moves == [Call.NO_CANTO] or obs.phase is Phase.ANSWER:
            # Nothing to announce, or the partner's question, whose one answer is the true
            # one: nothing to ask the person.
            self.match.apply(moves[0])
            return
        self._show(obs, moves)
        while True:
            move = self._read(
                self.ask("[bold]Your move[/bold] (number or move, ? for help): ").strip(),
                obs,
                moves,
            )
            if move is None:
                continue
            try:
                self.match.apply(move)
            except IllegalMove as e:
                self._complain(str(e))
                continue
            return

    def _show(
        self, obs: ToutiObservation, moves: Sequence[ToutiMove], force: bool = False
    ) -> None:
        if obs.trump is not None:
            self.console.print(
                f"Contract: {escape(self.names[obs.declarer or 0])} {obs.bid}, "
                f"trumps {suit_name(obs.trump)}"
            )
            self.console.print(escape(self._running_count(obs)))
        if obs.current:
            cards = " ".join(
                f"{CARDS[c].pretty()}({escape(self.names[(obs.leader + i) % 4])})"
                for i, c in enumerate(obs.current)
            )
            self.console.print(f"Trick so far: {cards}")
        self._show_hand(obs.hand, obs.trump, force)
        self._show_unseen(obs)
        if obs.phase is Phase.BID:
            bids = [m for m in moves if isinstance(m, Bid)]
            others = [m for m in moves if not isinstance(m, Bid)]
            choices = [f"[cyan]{i}[/cyan] {move_label(m)}" for i, m in enumerate(others, 1)]
            if bids:
                choices.append(
                    ("or " if others else "") + f"a bid from {bids[0].amount} to {bids[-1].amount}"
                )
            listing = "  ".join(choices)
            so_far = "none"
            if obs.high_bidder is not None:
                so_far = f"{obs.bid} ({escape(self.names[obs.high_bidder])})"
            self.console.print(f"Bid so far: {so_far}.  " + listing)
            if bids and Call.PASS not in moves:
                self.console.print(
                    f"[yellow]Your partner said zadtak: you must bid at least "
                    f"{bids[0].amount}.[/yellow]"
                )
        else:
            self.console.print(
                "  ".join(f"[cyan]{i}[/cyan] {move_label(m)}" for i, m in enumerate(moves, 1))
            )

    def _show_hand(self, hand: int, trump: int | None, force: bool = False) -> None:
        if force or self._shown != (hand, trump):
            self._shown = (hand, trump)
            self.console.print("Your hand: " + hand_line(hand, trump))

    def _show_unseen(self, obs: ToutiObservation) -> None:
        if self.show_unseen:
            unseen = unseen_cards(obs)
            self.console.print(
                f"[dim]Unseen ({unseen.bit_count()}):[/dim] {hand_line(unseen, obs.trump)}"
            )

    def _running_count(self, obs: ToutiObservation) -> str:
        tricks = [0, 0]
        taken = [0, 0]
        for t in obs.tricks:
            team = team_of(t.winner)
            tricks[team] += 1
            for c in t.cards:
                taken[team] |= 1 << c
        parts = []
        for team in (0, 1):
            cantos = sum(
                canto_value(a.suit, obs.trump) for a in obs.announcements if team_of(a.seat) == team
            )
            extra = f", announcements {cantos}" if cantos else ""
            parts.append(
                f"{team_label(team, self.names)} {tricks[team]} "
                f"(card points {card_points(taken[team])}{extra})"
            )
        return "Tricks so far: " + ", ".join(parts)

    def _hint(self, obs: ToutiObservation) -> None:
        if not self.hints:
            self.console.print("[yellow]Hints are off: start the game with --hints.[/yellow]")
            return
        if len(obs.legal_moves) < 2:
            self.console.print("Only one move is possible here.")
            return
        self.hinted.append((obs.deal_number, len(obs.history) + 1))
        cards = [m for m in obs.legal_moves if isinstance(m, CardPlay)]
        if obs.phase is Phase.PLAY and len(cards) > 1:
            agent = SearchAgent(self.seed + 7919 * len(self.hinted), samples=HINT_SAMPLES)
            with self.console.status("The search player is thinking…"):
                values = sorted(agent.card_values(obs), key=lambda mv: -mv[1])
            self.console.print(
                f"The search player's best cards ({HINT_SAMPLES} sampled deals; your team's "
                "points minus the opponents', and a quarter of the card points):"
            )
            for i, (m, v) in enumerate(values[:HINT_CARDS], 1):
                self.console.print(f"{i}. {CARDS[m.card].pretty()}  {v:+.1f}")
        else:
            move = technique_move(obs)
            self.console.print(f"The technique player would say: {escape(move_label(move))}")
        self.console.print(
            f"[dim]Hints this game: {len(self.hinted)} (noted in the record)[/dim]"
        )

    def _choices(self, obs: ToutiObservation, moves: Sequence[ToutiMove]) -> list[ToutiMove]:
        if obs.phase is Phase.BID:
            return [m for m in moves if not isinstance(m, Bid)]
        return list(moves)

    def _read(
        self, text: str, obs: ToutiObservation, moves: Sequence[ToutiMove]
    ) -> ToutiMove | None:
        """The move ``text`` names, or None once the player has been told what is wrong."""
        low = text.lower()
        choices = self._choices(obs, moves)
        if not low:
            self._complain("type a move, or its number, or ? for help")
            return None
        if low in ("?", "h", "help"):
            self.console.print(HELP)
            return None
        if low in ("q", "quit", "exit"):
            self._confirm_quit()
            return None
        if low in ("b", "board"):
            self._show(obs, moves, force=True)
            return None
        if low in ("hint", "!"):
            self._hint(obs)
            return None
        if low in ("unseen", "u"):
            self.show_unseen = not self.show_unseen
            if self.show_unseen:
                self._show_unseen(obs)
            else:
                self.console.print("[dim]Unseen cards hidden.[/dim]")
            return None
        if low.isascii() and low.isdigit() and int(low) < MIN_BID:
            n = int(low)
            if 1 <= n <= len(choices):
                return choices[n - 1]
            if obs.phase is Phase.BID and (n % BID_STEP == 0 or n > len(choices) + BID_STEP):
                self._complain(self._bid_range(n, moves))
                return None
            self._complain(f"there is no move number {n}: choose 1 to {len(choices)}")
            return None
        if low in ("no", "n") and obs.phase is Phase.CANTO:
            return Call.NO_CANTO
        words = text.split()
        if len(words) == 2 and words[0].lower() in ("trump", "canto", "ask"):
            text = f"{words[0]}:{words[1]}"
        try:
            return parse_touti_move(text)
        except NotationError as e:
            self._complain(str(e))
            return None

    def _bid_range(self, n: int, moves: Sequence[ToutiMove]) -> str:
        # A number too small to be a bid and too big to be a move's number: a bid meant.
        bids = [m for m in moves if isinstance(m, Bid)]
        head = f"{n} is not a bid: bids are {MIN_BID} to {MAX_BID} by tens"
        if not bids:
            return f"{head}, and you may not bid now"
        if bids[0].amount == MIN_BID:
            return head
        return f"{head}; now {bids[0].amount} to {bids[-1].amount}"

    def _confirm_quit(self) -> None:
        answer = self.ask("Quit now? The game so far will be saved. \\[y/N] ").strip().lower()
        if answer in ("y", "yes"):
            raise Quit
        self.console.print("Let's play on.")

    def _wait(self, prompt: str) -> None:
        while True:
            text = self.ask(prompt).strip().lower()
            if text in ("?", "h", "help"):
                self.console.print(HELP)
            elif text in ("q", "quit", "exit"):
                self._confirm_quit()
            else:
                return

    def _complain(self, reason: str) -> None:
        self.console.print(f"[bold red]✗[/bold red] {escape(reason)}")


def unseen_cards(obs: ToutiObservation) -> int:
    """The cards the observer has not seen: not in its hand, not played, not shown in an
    announcement."""
    shown = 0
    for k in obs.known:
        shown |= k
    return FULL_DECK & ~obs.hand & ~obs.played & ~shown


__all__ = ["HELP", "SEAT_NAMES", "ToutiSession", "hand_line", "move_label", "unseen_cards"]
