"""Rated games (docs/ratings.md): which games may be rated, and what their end tells the
ratings.

A rated game is a room between signed-in people only: no computer seat, no coach,
partners who chat in quick phrases only until the end (``team_talk`` ``phrases``), and
the rules of its pool (:mod:`chkobba.store.pools`) unchanged. It always has a
turn clock, and a player out of time loses the game (the computer never stands in).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chkobba.games import Game
from chkobba.store.pools import POOL_NAMES, Pool, pool_of
from chkobba.store.ratings import Outcome, side_ranks


class NotRateable(ValueError):
    """A game asked to be rated that cannot be (``not_rateable``, 400)."""


def seating_of(seats: int, teams: bool) -> str:
    """A table's seating name: ``2v2`` in teams, else the number of players."""
    return "2v2" if teams else str(seats)


def pool_for(played: Game[Any], rules: Any, seats: int, teams: bool) -> Pool | None:
    """The pool of a game of ``played`` with ``rules`` at this table, or None: its rules
    must be a pool's preset exactly (its own target and options)."""
    name, options = played.rules_json(rules)
    if options:
        return None
    if played.rules_json(played.make_rules(name, {})) != (name, options):
        return None
    return pool_of(played.name, name, seating_of(seats, teams))


def check_rated(
    played: Game[Any],
    rules: Any,
    seats: int,
    teams: bool,
    kind: str,
    signed_in: bool,
    computers: Sequence[str | None] | None,
    coaching: bool,
    team_talk: str = "phrases",
) -> Pool:
    """The pool of a game asked to be rated, or :class:`NotRateable` saying why not."""
    if kind != "room":
        raise NotRateable("a rated game is played between people: mode must be 'room'")
    if not signed_in:
        raise NotRateable("only a signed-in player can create a rated game: log in first")
    if computers and any(c is not None for c in computers):
        raise NotRateable("a rated game has no computer seat")
    if coaching:
        raise NotRateable("a rated game is played without the coach")
    if team_talk != "phrases":
        raise NotRateable(
            "in a rated game partners chat in quick phrases only: team_talk must be 'phrases'"
        )
    found = pool_for(played, rules, seats, teams)
    if found is None:
        raise NotRateable(
            f"no rating pool plays {played.rules_json(rules)[0]!r} with these options, "
            f"target and table ({seating_of(seats, teams)}); the pools are "
            f"{', '.join(POOL_NAMES)}, each with its preset's rules unchanged"
        )
    return found


def outcome(
    pool: Pool | None,
    side_of: Sequence[int],
    winner: int | None,
    totals: Sequence[int],
    loser: int | None = None,
) -> Outcome | None:
    """What the end of a rated game in ``pool`` tells the ratings (None for a casual
    game): played out, resigned by ``loser``'s side or lost on time by it (an abandoned
    game, which nobody played to its end, is not rated)."""
    if pool is None:
        return None
    sides = len(set(side_of))
    return Outcome(pool.name, tuple(side_of), side_ranks(sides, winner, totals, loser))
