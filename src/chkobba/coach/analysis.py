"""Move analysis of a game record: every decision of the chosen seats, estimated.

:func:`analyze` replays a record of any game (checked by its game's replay first), and
at every decision of a chosen seat estimates each legal play from that seat's
observation (the game's :class:`~chkobba.coach.games.Coach`: the expert's search,
:mod:`chkobba.coach.estimate`, for the Chkobba family; Touti's search,
:mod:`chkobba.coach.touti`, for the cards of Touti), so the coach knows no more than
the player did. The play made, the best play and the loss
between them are kept with their sentences in words
(:mod:`chkobba.coach.explain`). Each position gets its own seed derived from the
analysis seed and the position, so an analysis is reproducible, whatever seats
are analysed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from chkobba.coach.estimate import DEFAULT_BATCHES, DEFAULT_SAMPLES, Estimates
from chkobba.coach.games import CHKOBBA_FIGURE, coach_of_record, round_positions
from chkobba.fishing.record import GameRecord
from chkobba.touti.record import ToutiRecord
from chkobba.words import DEFAULT_LANGUAGE, LANGUAGES, word

positions = round_positions
"""Every move of a Chkobba-family record with the mover's observation (and the round)."""

SIGNIFICANT: Final = 2.0
"""A loss counts as a mistake when it exceeds this many of its standard errors."""

Progress = Callable[[int, int], None]
"""Called with (positions done, positions in all) as the analysis goes."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of an analysed seat: the position, the play made and the estimates."""

    round: int
    """1-based round number (Touti: the deal's)."""
    play: int
    """1-based number of the play in the round's record (0: the cut decision; Touti: of
    the move in the deal's)."""
    seat: int
    hand: str
    table: str
    """The cards in the middle: the table (Touti: the trick so far)."""
    move: Any
    """The play made (a :class:`~chkobba.fishing.moves.Move`, or Touti's card)."""
    estimates: Estimates | None
    """None for a forced play (only one legal play)."""
    played: str
    """The play made, in words."""
    best_words: str
    """The best play, in words (the same as :attr:`played` when it was the best)."""
    why: str = ""
    """Why the best play is better, as far as it shows at once
    (:func:`~chkobba.coach.explain.difference`); empty when the play made was the best."""
    said: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """:attr:`played`, :attr:`best_words` and :attr:`why` in other languages, the cards in
    the deck's words (what a page reads; the English above is what the records hold)."""

    @property
    def loss(self) -> float:
        """Points lost against the best play (0 for the best or a forced play)."""
        if self.estimates is None:
            return 0.0
        return self.estimates.plays[self.estimates.index(self.move)].loss

    @property
    def loss_se(self) -> float:
        """The standard error of :attr:`loss`."""
        if self.estimates is None:
            return 0.0
        return self.estimates.plays[self.estimates.index(self.move)].loss_se

    @property
    def best(self) -> Any:
        """The play the expert rates best."""
        if self.estimates is None:
            return self.move
        return self.estimates.plays[self.estimates.best].move

    @property
    def mistake(self) -> bool:
        """Whether the loss is clearly more than sampling noise (see :data:`SIGNIFICANT`)."""
        return self.loss > 0 and self.loss > SIGNIFICANT * self.loss_se

    def words(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The decision as a coach says it: what was done, and what was better (in
        ``lang`` when :attr:`said` has it, else the English)."""
        if lang != DEFAULT_LANGUAGE and lang in self.said:
            return self._words_in(lang)
        if self.estimates is None:
            return f"{self.played} (the only legal play)"
        if self.move == self.best:
            return f"{self.played} (the best play)"
        if self.loss <= 0.0:
            return f"{self.played} (as good as the best)"
        exact = self.estimates is not None and self.estimates.exact
        err = "exact" if exact else f"± {self.loss_se:.2f}"
        why = f"; {self.why}" if self.why else ""
        return f"{self.played}. Better: {self.best_words} (+{self.loss:.2f} points, {err}){why}"

    def _words_in(self, lang: str) -> str:
        played, best, why = self.said[lang]
        if self.estimates is None:
            return word(lang, "coach", "d_only", played=played)
        if self.move == self.best:
            return word(lang, "coach", "d_best", played=played)
        if self.loss <= 0.0:
            return word(lang, "coach", "d_as_good", played=played)
        err = word(lang, "coach", "d_exact") if self.estimates.exact else f"± {self.loss_se:.2f}"
        why = word(lang, "coach", "d_why", why=why) if why else ""
        return word(lang, "coach", "d_better", played=played, best=best,
                    loss=f"{self.loss:.2f}", err=err, why=why)

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON (``said``: its words in every language)."""
        return {
            "round": self.round,
            "play": self.play,
            "seat": self.seat,
            "hand": self.hand,
            "table": self.table,
            "move": str(self.move),
            "best": str(self.best),
            "loss": round(self.loss, 3),
            "loss_se": round(self.loss_se, 3),
            "mistake": self.mistake,
            "words": self.words(),
            "said": {lang: self.words(lang) for lang in (DEFAULT_LANGUAGE, *self.said)},
            "estimates": None if self.estimates is None else self.estimates.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of a record for some seats."""

    seats: tuple[int, ...]
    samples: int
    batches: int
    seed: int
    decisions: tuple[Decision, ...]
    seconds: float
    figure: str = CHKOBBA_FIGURE
    """What the figures are (the game's)."""
    game: str = "chkobba"
    """The game of the record."""

    def mistakes(self, top: int = 5, round: int | None = None) -> list[Decision]:
        """The biggest losses (significant ones only), largest first; of one round if given."""
        found = [d for d in self.decisions if d.mistake and (round is None or d.round == round)]
        return sorted(found, key=lambda d: -d.loss)[:top]

    def rounds(self) -> list[int]:
        """The round numbers with at least one decision."""
        return sorted({d.round for d in self.decisions})

    def total_loss(self, round: int | None = None) -> float:
        """The summed loss of every decision (of one round if given)."""
        return sum(d.loss for d in self.decisions if round is None or d.round == round)

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON (``chkobba analyze --json`` and the web app)."""
        return {
            "game": self.game,
            "seats": list(self.seats),
            "samples": self.samples,
            "batches": self.batches,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "figure": self.figure,
            "total_loss": round(self.total_loss(), 3),
            "mistakes": [[d.round, d.play] for d in self.mistakes(10)],
            "decisions": [d.to_json() for d in self.decisions],
        }


def default_seat(record: GameRecord | ToutiRecord) -> int:
    """The seat to analyse by default: the record's human seat if it names one, else 0."""
    meta = record.meta or {}
    seat = meta.get("human_seat")
    seats = coach_of_record(record).seats(record)
    return seat if isinstance(seat, int) and 0 <= seat < seats else 0


def position_seed(seed: int, round: int, play: int) -> int:
    """The seed of one position's estimate, derived from the analysis seed."""
    return (seed * 1_000_003 + round * 1_009 + play) & (2**63 - 1)


def analyze(
    record: GameRecord | ToutiRecord,
    seats: Sequence[int] | None = None,
    samples: int = DEFAULT_SAMPLES,
    batches: int = DEFAULT_BATCHES,
    seed: int = 0,
    progress: Progress | None = None,
    rounds: Sequence[int] | None = None,
) -> Analysis:
    """Analyse every decision of ``seats`` (default :func:`default_seat`) in ``record``.

    Raises the record's game's located error (:class:`~chkobba.fishing.record.RecordError`,
    :class:`~chkobba.touti.record.ToutiRecordError`) for an invalid record and
    ``ValueError`` for a seat the record does not have. ``rounds`` limits the analysis
    to those round (deal) numbers.
    """
    coach = coach_of_record(record)
    coach.replay(record)
    n_seats = coach.seats(record)
    chosen = tuple(seats) if seats is not None else (default_seat(record),)
    for s in chosen:
        if not 0 <= s < n_seats:
            raise ValueError(f"no seat {s} in a {n_seats}-player record")
    if samples < batches:
        raise ValueError(f"samples ({samples}) must be at least the batches ({batches})")
    wanted = [
        (i, j, obs, move)
        for i, j, obs, move in coach.positions(record)
        if obs.seat in chosen and (rounds is None or i in rounds) and coach.considered(obs, move)
    ]
    start = time.perf_counter()
    out = []
    for n, (i, j, obs, move) in enumerate(wanted):
        est = None
        if coach.weighed(obs):
            est = coach.estimate(obs, samples, batches, position_seed(seed, i, j))
        best = move if est is None else est.plays[est.best].move
        hand, table = coach.hand_table(obs)
        out.append(
            Decision(
                round=i,
                play=j,
                seat=obs.seat,
                hand=hand,
                table=table,
                move=move,
                estimates=est,
                played=coach.words(obs, move),
                best_words=coach.words(obs, best),
                why=coach.why(obs, move, best) if move != best else "",
                said={
                    lang: (
                        coach.words_in(obs, move, lang),
                        coach.words_in(obs, best, lang),
                        coach.why_in(obs, move, best, lang) if move != best else "",
                    )
                    for lang in LANGUAGES
                    if lang != DEFAULT_LANGUAGE
                },
            )
        )
        if progress is not None:
            progress(n + 1, len(wanted))
    return Analysis(
        chosen,
        samples,
        batches,
        seed,
        tuple(out),
        time.perf_counter() - start,
        coach.figure,
        coach.game,
    )
