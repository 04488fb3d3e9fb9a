"""Hints: the expert's top plays for the player to move, with their estimates.

A hint is the analysis of one position (its game's coach, :mod:`chkobba.coach.games`:
:mod:`chkobba.coach.estimate` for the Chkobba family, :mod:`chkobba.coach.touti` for
Touti's cards) at a smaller budget, so it answers at once. Games where hints were asked for say so
in their record: :func:`hint_meta` is what ``meta.coach`` holds (docs/coach.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from chkobba.coach.estimate import DEFAULT_BATCHES, Estimates
from chkobba.coach.games import CHKOBBA_COACH, COACHES, Coach
from chkobba.words import LANGUAGES, word

HINT_SAMPLES: Final = 2000
"""Sampled deals behind a hint (a fraction of a second with the kernel)."""
HINT_PLAYS: Final = 3
"""How many plays a hint shows."""


@dataclass(frozen=True, slots=True)
class HintLine:
    """One suggested play."""

    move: str
    mean: float
    se: float
    words: str
    said: dict[str, str] = field(default_factory=dict)
    """:attr:`words` in every language (the page shows its own; :attr:`words` stays the
    English the records have always held)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The expert's top plays for one position."""

    lines: tuple[HintLine, ...]
    samples: int
    exact: bool
    adviser: str = CHKOBBA_COACH.adviser
    measure: str = CHKOBBA_COACH.measure
    game: str = CHKOBBA_COACH.game
    """The game whose coach gave the hint (its words in other languages: ``Coach.said``)."""

    def to_json(self) -> dict[str, Any]:
        """The hint as JSON (the web page's ``hint`` message)."""
        return {
            "measure": self.measure,
            "samples": self.samples,
            "exact": self.exact,
            "plays": [
                {
                    "move": h.move,
                    "mean": round(h.mean, 3),
                    "se": round(h.se, 3),
                    "words": h.words,
                    "said": h.said,
                }
                for h in self.lines
            ],
        }

    def text_lines(
        self,
        show: Callable[[str], str] = str,
        lang: str | None = None,
        words: Callable[[HintLine], str] | None = None,
    ) -> list[str]:
        """The hint in plain lines, best first; ``show`` writes a move (as it is, by
        default); ``lang`` the language of the head (English by default), ``words`` each
        play's words (the :class:`HintLine`'s, by default)."""
        if lang is None:
            behind = "solved exactly" if self.exact else f"{self.samples} sampled deals"
            out = [f"{self.adviser} ({behind}; {self.measure} ± 1 SE):"]
        else:
            adviser, measure = COACHES[self.game].said(lang)
            behind = (
                word(lang, "coach", "hint_exact")
                if self.exact
                else word(lang, "coach", "hint_sampled", n=self.samples)
            )
            out = [word(lang, "coach", "hint_head", adviser=adviser, behind=behind,
                        measure=measure)]
        for i, h in enumerate(self.lines, 1):
            err = "" if self.exact else f" ± {h.se:.2f}"
            said = words(h) if words is not None else h.words
            out.append(f"{i}. {show(h.move)}  {h.mean:+.2f}{err}  — {said}")
        return out


def hint(obs: Any, seed: int, samples: int = HINT_SAMPLES, coach: Coach = CHKOBBA_COACH) -> Hint:
    """The top :data:`HINT_PLAYS` plays of ``obs`` (the observer must be to move, with a
    decision ``coach`` weighs: :attr:`~chkobba.coach.games.Coach.weighed`)."""
    est: Estimates = coach.estimate(obs, samples, DEFAULT_BATCHES, seed)
    lines = tuple(
        HintLine(
            str(p.move),
            p.mean,
            p.se,
            coach.words(obs, p.move),
            {lang: coach.words_in(obs, p.move, lang) for lang in LANGUAGES},
        )
        for p in est.ranking()[:HINT_PLAYS]
    )
    return Hint(lines, est.samples, est.exact, coach.adviser, coach.measure, coach.game)


def hint_meta(hinted: list[tuple[int, int]]) -> dict[str, Any]:
    """``meta.coach``'s hint fields: how many hints, and at which (round, play)."""
    return {"hints": len(hinted), "hinted": [list(h) for h in hinted]}
