"""Who plays whom: the pairing of the "Play now" queue (docs/web.md, "Play now and challenges").

Pure functions over the players waiting in one pool (one preset, one table, rated or
casual, one turn clock): no database, no clock of its own, so that the rule is tested
apart from the queue's storage (:mod:`chkobba.store.queue`).

The rule: a table is made of players whose ratings are close, the closest first. Each
waiting player accepts opponents within a *window* of their own rating that widens as
their wait grows (:class:`Widening`); a table is made only of players who all accept
one another, that is, whose ratings spread no wider than the narrowest of their windows.
Among the tables that can be made, the one of the smallest spread is made first (ties:
the one holding the longest wait), then the next, until no more can be made.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

DEFAULT_RATING: Final = 1500.0
"""The rating of a player the pool has no rating for (a guest, a new account)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player waiting in a pool: the queue entry's id, their rating, when they came."""

    id: int
    rating: float
    since: float
    """When they joined the queue (seconds since the epoch)."""


@dataclass(frozen=True, slots=True)
class Widening:
    """How a waiting player's rating window grows with the wait."""

    start: float = 50.0
    """Rating points either side accepted at once."""
    per_second: float = 25.0
    """Rating points the window grows by each second of waiting."""
    widest: float = math.inf
    """The window never grows beyond this (infinite: in the end anyone is accepted)."""

    def window(self, waited: float) -> float:
        """The window of a player who has waited ``waited`` seconds."""
        return min(self.widest, self.start + self.per_second * max(0.0, waited))


def table_size(seating: str) -> tuple[int, bool]:
    """The seats of a seating's table and whether partners play (``2v2``: 4, True), as
    :func:`chkobba.games.base.table_of` reads it (the store does not import the games)."""
    left, v, right = seating.partition("v")
    if not (left.isdigit() and (not v or right.isdigit())):
        raise ValueError(f"not a seating: {seating!r}")
    return (int(left) + int(right), True) if v else (int(left), False)


def spread(group: Sequence[Waiting]) -> float:
    """How far apart the ratings of a group are: the highest less the lowest."""
    ratings = [w.rating for w in group]
    return max(ratings) - min(ratings)


def tables(
    waiting: Sequence[Waiting], size: int, now: float, widening: Widening | None = None
) -> list[tuple[Waiting, ...]]:
    """The tables of ``size`` to make now from the players ``waiting`` in one pool.

    Each player is in at most one table, even if ``waiting`` names them twice; players
    left out keep waiting (their window will be wider at the next round).
    """
    if size < 2:
        raise ValueError(f"a table has at least 2 seats, not {size}")
    rule = widening or Widening()
    unique = {w.id: w for w in waiting}
    # The group of the smallest spread is always a run of neighbours in rating order.
    left = sorted(unique.values(), key=lambda w: (w.rating, w.since, w.id))
    made: list[tuple[Waiting, ...]] = []
    while len(left) >= size:
        best: tuple[float, float, int] | None = None
        for i in range(len(left) - size + 1):
            group = left[i : i + size]
            gap = group[-1].rating - group[0].rating
            narrowest = min(rule.window(now - w.since) for w in group)
            if gap > narrowest:
                continue
            key = (gap, min(w.since for w in group), i)
            if best is None or key < best:
                best = key
        if best is None:
            break
        i = best[2]
        made.append(tuple(left[i : i + size]))
        del left[i : i + size]
    return made


def seat_order(group: Sequence[Waiting], teams: bool, draw: Sequence[int]) -> list[Waiting]:
    """The seats of a table's players, seat 0 first.

    With partners (2 against 2: seats 0 and 2 against 1 and 3) the strongest and the
    weakest play together against the two others, so the sides' sums are as close as
    they can be; otherwise the seats follow ``draw`` (a permutation of the group's
    indexes, drawn at random by the caller), so that nobody always leads.
    """
    if teams and len(group) == 4:
        by_rating = sorted(group, key=lambda w: (-w.rating, w.since, w.id))
        first, second, third, fourth = by_rating
        return [first, second, fourth, third]
    if sorted(draw) != list(range(len(group))):
        raise ValueError("draw must be a permutation of the group's indexes")
    return [group[i] for i in draw]
