"""The post-game summary: points won and lost per category, and its chart.

Categories are the rule set's points in its own words (for Chkobba: kārṭa,
dīnārī, barmīla, sabʿa l-ḥayya, chkobba), each side's points in each, added over
the finished rounds of a game. Every point of a round belongs to exactly one
category, so each side's categories add up to its points. The chart is drawn
with matplotlib (PNG for the terminal, SVG for the web page).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chkobba.fishing.game import Round
from chkobba.fishing.narrate import side_name
from chkobba.fishing.scoring import POINT_KEYS
from chkobba.words import DEFAULT_LANGUAGE, word
from chkobba.words.catalogue import RIGHT_TO_LEFT


@dataclass(frozen=True, slots=True)
class Summary:
    """Each side's points per category over a game's finished rounds."""

    keys: tuple[str, ...]
    """The categories' record names (``karta`` …), in the rule set's order."""
    labels: tuple[str, ...]
    """The categories in the game's words (``kārṭa`` …)."""
    points: tuple[tuple[int, ...], ...]
    """``points[category][side]``."""
    sides: tuple[str, ...]
    """Each side's name."""
    rounds: int

    def side_total(self, side: int) -> int:
        """A side's points over every category."""
        return sum(row[side] for row in self.points)

    def lines(self, side: int, lang: str = DEFAULT_LANGUAGE) -> list[str]:
        """The summary in words from one side's point of view (in ``lang``)."""
        out = []
        for label, row in zip(self.labels, self.points, strict=True):
            won = row[side]
            lost = sum(p for s, p in enumerate(row) if s != side)
            out.append(word(lang, "coach", "x_s_line", label=label, won=won, lost=lost))
        return out

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON."""
        return {
            "rounds": self.rounds,
            "sides": list(self.sides),
            "categories": [
                {"key": k, "label": lab, "points": list(row)}
                for k, lab, row in zip(self.keys, self.labels, self.points, strict=True)
            ],
            "totals": [self.side_total(s) for s in range(len(self.sides))],
        }


def summarize(rounds: Sequence[Round], names: Sequence[str] | None = None) -> Summary:
    """The summary of the finished rounds among ``rounds``."""
    done = [r for r in rounds if r.score is not None]
    if not rounds:
        raise ValueError("a summary needs at least one round")
    first = rounds[0]
    keys: list[str] = []
    table: dict[str, list[int]] = {}
    for r in done:
        assert r.score is not None
        for p in r.score.items:
            if p.key not in table:
                keys.append(p.key)
                table[p.key] = [0] * first.sides
            for s, v in enumerate(p.points):
                table[p.key][s] += v
    if not keys:
        keys = list(first.rules.scoring)
        table = {k: [0] * first.sides for k in keys}
    return Summary(
        keys=tuple(keys),
        labels=tuple(POINT_KEYS[k].label if k in POINT_KEYS else k for k in keys),
        points=tuple(tuple(table[k]) for k in keys),
        sides=tuple(side_name(s, first.side_of, names) for s in range(first.sides)),
        rounds=len(done),
    )


def _plain(text: str) -> str:
    """``text`` drawn as it is: matplotlib reads a pair of ``$`` as a formula (mathtext),
    which garbles a name such as ``cost $5 and $6``, or fails on ``$a^$``."""
    return text.replace("$", r"\$")


def chart(summary: Summary, fmt: str = "png", lang: str = DEFAULT_LANGUAGE) -> bytes:
    """The summary as a bar chart: per category, one bar per side (``png`` or ``svg``),
    its words in ``lang`` (English for a right-to-left language: matplotlib does not
    join Arabic letters).

    Names and labels are text, never formulas, whatever ``$`` they hold.
    """
    if lang in RIGHT_TO_LEFT:
        lang = DEFAULT_LANGUAGE
    # Imported here: matplotlib is slow to import and only the summary needs it.
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 0.6 + 0.55 * len(summary.keys) * max(1, len(summary.sides) / 2)))
    ax = fig.add_subplot()
    n = len(summary.sides)
    height = 0.8 / n
    rows = range(len(summary.keys))
    colours = ["#2e7d32", "#c62828", "#1565c0", "#f9a825"]
    for s, name in enumerate(summary.sides):
        values = [row[s] for row in summary.points]
        ys = [i + (s - (n - 1) / 2) * height for i in rows]
        bars = ax.barh(
            ys, values, height=height, label=_plain(name), color=colours[s % len(colours)]
        )
        ax.bar_label(bars, padding=2, fontsize=8)
    ax.set_yticks(list(rows), [_plain(label) for label in summary.labels])
    ax.invert_yaxis()
    ax.set_xlabel(word(lang, "coach", "x_s_points"))
    totals = ", ".join(f"{n} {summary.side_total(s)}" for s, n in enumerate(summary.sides))
    ax.set_title(
        _plain(word(lang, "coach", "x_s_title", n=summary.rounds, totals=totals)), fontsize=9
    )
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    out = io.BytesIO()
    # Text stays text in SVG: smaller, and searchable on the page.
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig.savefig(out, format=fmt)
    return out.getvalue()
