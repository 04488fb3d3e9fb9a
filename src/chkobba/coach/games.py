"""What the coach needs of each game, reached through the game interface.

A :class:`Coach` is one game's side of the analysis and the hints: the positions of a
record, which decisions it weighs, how it weighs them (with their standard errors, exact
where nothing is hidden), and its words. :func:`coach_of` gives the coach of a
:class:`~chkobba.games.base.Game`, :func:`coach_of_record` that of the game a record
belongs to (:func:`~chkobba.games.base.game_of_format`), so that the analysis, the hints
and ``chkobba analyze`` are written once for every game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from chkobba.coach import touti as touti_coach
from chkobba.coach.estimate import Estimates
from chkobba.coach.estimate import estimate as chkobba_estimate
from chkobba.coach.explain import Speech, difference, sentence
from chkobba.fishing.cards import Card, cards_of, sort_for_display
from chkobba.fishing.game import Round
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.observe import Observation, observe_round
from chkobba.fishing.record import GameRecord
from chkobba.fishing.record import replay as chkobba_replay
from chkobba.games.base import Game, game_of_format
from chkobba.touti.deal import SEATS as TOUTI_SEATS
from chkobba.touti.moves import CardPlay
from chkobba.touti.record import ToutiRecord
from chkobba.touti.record import replay as touti_replay
from chkobba.words import word

Position = tuple[int, int, Any, Any]
"""A decision of a record: (part, move number, the mover's observation, the move made)."""

CHKOBBA_FIGURE: Final = (
    "expected round margin: the side's points for the round minus the best other side's, "
    "at the round's end"
)


@dataclass(frozen=True, slots=True)
class Coach:
    """One game's side of the coach."""

    game: str
    figure: str
    """What the figures are (``chkobba analyze --json``'s ``figure``)."""
    part: str
    """What a part of a record is called: ``round``, ``deal``."""
    adviser: str
    """Whose plays a hint gives: ``The expert's top plays``."""
    measure: str
    """The figure in a few words: ``expected round margin``."""
    replay: Callable[[Any], Any]
    """Replay a record, raising its game's located error at the first fault."""
    seats: Callable[[Any], int]
    """How many seats a record has."""
    parts: Callable[[Any], int]
    """How many parts (rounds, deals) a record holds."""
    positions: Callable[[Any], Iterator[Position]]
    """Every move of a valid record with the mover's observation just before it."""
    considered: Callable[[Any, Any], bool]
    """Whether the analysis lists a decision (observation, move): Touti's lists the cards
    played, not the bidding."""
    weighed: Callable[[Any], bool]
    """Whether a decision is weighed (more than one choice the search weighs)."""
    estimate: Callable[[Any, int, int, int], Estimates]
    """Weigh every choice of an observation: (obs, samples, batches, seed)."""
    choices: Callable[[Any], list[Any]]
    """The choices :attr:`estimate` weighs, in its order."""
    words: Callable[[Any, Any], str]
    """A choice in words."""
    why: Callable[[Any, Any, Any], str]
    """Why the best choice is better than the one made, as far as it shows at once."""
    hand_table: Callable[[Any], tuple[str, str]]
    """The observer's hand and the cards in the middle (the table, the trick), in words."""
    words_in: Callable[[Any, Any, str], str]
    """A choice in words in a language (obs, move, lang), the cards in the deck's words."""
    why_in: Callable[[Any, Any, Any, str], str]
    """:attr:`why` in a language (obs, move, best, lang)."""

    def said(self, lang: str) -> tuple[str, str]:
        """:attr:`adviser` and :attr:`measure` in ``lang`` (the ``coach`` section of the
        catalogues: ``adviser_GAME``, ``measure_GAME``)."""
        return (
            word(lang, "coach", f"adviser_{self.game}"),
            word(lang, "coach", f"measure_{self.game}"),
        )


def _chkobba_positions(record: GameRecord) -> Iterator[Position]:
    """Every move of a Chkobba-family record (:func:`chkobba.coach.analysis.positions`)."""
    for i, j, obs, move, _ in round_positions(record):
        yield i, j, obs, move


def round_positions(record: GameRecord) -> Iterator[tuple[int, int, Observation, Move, Round]]:
    """Every move of a record with the mover's observation just before it.

    Yields (round, play, observation, move, round state before the move); the
    record must be valid (:func:`~chkobba.fishing.record.replay` it first).
    """
    rules = record.ruleset()
    totals = [0] * (2 if record.teams else record.seats)
    for i, rr in enumerate(record.rounds, 1):
        r = Round(rules, record.seats, record.teams, rr.dealer, [Card.parse(c) for c in rr.deck])
        moves: list[tuple[int, Move]] = []
        if rr.cut is not None:
            moves.append((0, Cut(rr.cut)))
        moves += [(j, Play.parse(p)) for j, p in enumerate(rr.plays, 1)]
        for j, move in moves:
            obs = observe_round(r, r.turn, tuple(totals), i, rules.target)
            yield i, j, obs, move, r
            r.apply(move)
        if r.score is not None:
            for side, pts in enumerate(r.score.points):
                totals[side] += pts


def _chkobba_hand_table(obs: Observation) -> tuple[str, str]:
    return (
        " ".join(c.pretty() for c in sort_for_display(cards_of(obs.hand))),
        " ".join(c.pretty() for c in sort_for_display(cards_of(obs.table))),
    )


CHKOBBA_COACH: Final = Coach(
    game="chkobba",
    figure=CHKOBBA_FIGURE,
    part="round",
    adviser="The expert's top plays",
    measure="expected round margin",
    replay=chkobba_replay,
    seats=lambda r: r.seats,
    parts=lambda r: len(r.rounds),
    positions=_chkobba_positions,
    considered=lambda obs, move: True,
    weighed=lambda obs: len(obs.legal_moves) > 1,
    estimate=chkobba_estimate,
    choices=lambda obs: list(obs.legal_moves),
    words=sentence,
    why=difference,
    hand_table=_chkobba_hand_table,
    words_in=lambda obs, move, lang: sentence(obs, move, Speech(lang, obs.rules.deck)),
    why_in=lambda obs, move, best, lang: difference(obs, move, best, Speech(lang, obs.rules.deck)),
)
"""The Chkobba family's coach: the expert's search (:mod:`chkobba.coach.estimate`)."""

TOUTI_COACH: Final = Coach(
    game="touti",
    figure=touti_coach.FIGURE,
    part="deal",
    adviser="The search player's best cards",
    measure="expected deal worth",
    replay=touti_replay,
    seats=lambda r: TOUTI_SEATS,
    parts=lambda r: len(r.deals),
    positions=touti_coach.positions,
    considered=lambda obs, move: isinstance(move, CardPlay),
    weighed=touti_coach.weighed,
    estimate=touti_coach.estimate,
    choices=lambda obs: [m for m in obs.legal_moves if isinstance(m, CardPlay)],
    words=touti_coach.words,
    why=lambda obs, move, best: "",
    hand_table=touti_coach.hand_words,
    words_in=touti_coach.words,
    why_in=lambda obs, move, best, lang: "",
)
"""Touti's coach: the search player's weighing of the cards (:mod:`chkobba.coach.touti`)."""

COACHES: Final = {c.game: c for c in (CHKOBBA_COACH, TOUTI_COACH)}


def coach_of(g: Game[Any]) -> Coach:
    """The coach of the game ``g``."""
    return COACHES[g.name]


def coach_of_record(record: GameRecord | ToutiRecord) -> Coach:
    """The coach of the game a record belongs to, by its format."""
    return coach_of(game_of_format(record.record_format))
