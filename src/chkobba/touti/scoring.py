"""The score of a deal of Touti (docs/rules.md §4, Scoring), as a breakdown a UI can show.

The declarer's team makes its contract when its card points (the 10 for the
last trick included) plus its announcements reach the bid: it scores the bid and
the opponents nothing. Otherwise, by the [decided] default, the opponents score
the bid (option ``failure="declarer-loses"``: the declarer's team loses it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chkobba.touti.cards import LAST_TRICK_BONUS, card_points
from chkobba.touti.rules import ToutiRules


@dataclass(frozen=True, slots=True)
class DealScore:
    """Everything that decided a deal's points, per team (team 0 is seats 0 and 2)."""

    declarer: int
    declarer_team: int
    bid: int
    trump: int | None
    card_points: tuple[int, int]
    """Card points taken in tricks, the 10 for the last trick included: they sum to 130."""
    last_trick: int
    """The team that took the last trick (and its 10)."""
    cantos: tuple[int, int]
    """Announcement points (only the declarer's team announces)."""
    made: bool
    """Whether the declarer's team reached its bid."""
    points: tuple[int, int]
    """Match points each team scores for the deal."""

    @property
    def declarer_total(self) -> int:
        """The declarer's team's card points plus its announcements."""
        t = self.declarer_team
        return self.card_points[t] + self.cantos[t]

    def to_json(self) -> dict[str, Any]:
        """The deal's entry in ``chkobba verify --json`` (docs/touti.md)."""
        return {
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": "shdc"[self.trump] if self.trump is not None else None,
            "card_points": list(self.card_points),
            "last_trick": self.last_trick,
            "cantos": list(self.cantos),
            "made": self.made,
            "points": list(self.points),
        }


def score_deal(
    *,
    rules: ToutiRules,
    declarer: int,
    bid: int,
    trump: int | None,
    won: tuple[int, int],
    last_trick_team: int,
    cantos: tuple[tuple[int, int], ...],
) -> DealScore:
    """Score a finished deal from the cards each team took and the announcements made."""
    cp = [card_points(won[0]), card_points(won[1])]
    cp[last_trick_team] += LAST_TRICK_BONUS
    ct = [0, 0]
    for team, value in cantos:
        ct[team] += value
    dt = declarer % 2
    made = cp[dt] + ct[dt] >= bid
    points = [0, 0]
    if made:
        points[dt] = bid
    elif rules.failure == "opponents-score":
        points[1 - dt] = bid
    else:
        points[dt] = -bid
    return DealScore(
        declarer=declarer,
        declarer_team=dt,
        bid=bid,
        trump=trump,
        card_points=(cp[0], cp[1]),
        last_trick=last_trick_team,
        cantos=(ct[0], ct[1]),
        made=made,
        points=(points[0], points[1]),
    )
