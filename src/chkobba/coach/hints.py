"""Hints: the expert's top plays for the player to move, with their estimates.

A hint is the analysis of one position (:mod:`chkobba.coach.estimate`) at a
smaller budget, so it answers at once. Games where hints were asked for say so
in their record: :func:`hint_meta` is what ``meta.coach`` holds (docs/coach.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from chkobba.coach.estimate import DEFAULT_BATCHES, Estimates, estimate
from chkobba.coach.explain import sentence
from chkobba.fishing.observe import Observation

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


@dataclass(frozen=True, slots=True)
class Hint:
    """The expert's top plays for one position."""

    lines: tuple[HintLine, ...]
    samples: int
    exact: bool

    def to_json(self) -> dict[str, Any]:
        """The hint as JSON (the web page's ``hint`` message)."""
        return {
            "samples": self.samples,
            "exact": self.exact,
            "plays": [
                {"move": h.move, "mean": round(h.mean, 3), "se": round(h.se, 3), "words": h.words}
                for h in self.lines
            ],
        }

    def text_lines(self) -> list[str]:
        """The hint in plain lines, best first."""
        behind = "solved exactly" if self.exact else f"{self.samples} sampled deals"
        out = [f"The expert's top plays ({behind}; expected round margin ± 1 SE):"]
        for i, h in enumerate(self.lines, 1):
            err = "" if self.exact else f" ± {h.se:.2f}"
            out.append(f"{i}. {h.move}  {h.mean:+.2f}{err}  — {h.words}")
        return out


def hint(obs: Observation, seed: int, samples: int = HINT_SAMPLES) -> Hint:
    """The top :data:`HINT_PLAYS` plays of ``obs`` (the observer must be to move)."""
    est: Estimates = estimate(obs, samples, DEFAULT_BATCHES, seed)
    lines = tuple(
        HintLine(str(p.move), p.mean, p.se, sentence(obs, p.move))
        for p in est.ranking()[:HINT_PLAYS]
    )
    return Hint(lines, est.samples, est.exact)


def hint_meta(hinted: list[tuple[int, int]]) -> dict[str, Any]:
    """``meta.coach``'s hint fields: how many hints, and at which (round, play)."""
    return {"hints": len(hinted), "hinted": [list(h) for h in hinted]}
