"""The rating pools: which games are rated together (docs/ratings.md).

A pool fixes everything that changes what skill wins: the game, its rule set (the
preset with its own target and no option changed) and the table (2 players, 2
against 2, 4 each for themselves). A rated game belongs to exactly one pool and a
player has one rating per pool. Pure data: the web layer checks a game against it,
the store rates in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Pool:
    """One pool: a game, its rule set and a table."""

    name: str
    """The pool's key (``chkobba``, ``scopone``, …): in URLs and in the database."""
    game: str
    """The game (:data:`chkobba.games.GAME_NAMES`)."""
    rules: str
    """The rule set (preset), played with its default target and options."""
    seating: str
    """The table: ``2`` players, ``2v2``, or ``3``/``4`` each for themselves."""
    title: str
    """The pool's name as shown (a proper name: the same in every language)."""


POOLS: Final = (
    Pool("chkobba", "chkobba", "chkobba", "2", "Chkobba"),
    Pool("chkobba-2v2", "chkobba", "chkobba", "2v2", "Chkobba 2v2"),
    Pool("chkobba-4", "chkobba", "chkobba", "4", "Chkobba ×4"),
    Pool("scopa", "chkobba", "scopa", "2", "Scopa"),
    Pool("scopa-2v2", "chkobba", "scopa", "2v2", "Scopa 2v2"),
    Pool("scopone", "chkobba", "scopone", "2v2", "Scopone"),
    Pool("cirulla", "chkobba", "cirulla", "2", "Cirulla"),
    Pool("escoba", "chkobba", "escoba", "2", "Escoba"),
    Pool("escoba-4", "chkobba", "escoba", "4", "Escoba ×4"),
    Pool("touti", "touti", "touti", "2v2", "Touti"),
)
"""Every pool, in the order the leaderboard offers them."""

POOL_NAMES: Final = tuple(p.name for p in POOLS)


def pool(name: str) -> Pool:
    """The pool called ``name``; ``KeyError`` if there is none."""
    for p in POOLS:
        if p.name == name:
            return p
    raise KeyError(name)


def pool_of(game: str, rules: str, seating: str) -> Pool | None:
    """The pool of a game of ``game`` under the preset ``rules`` at ``seating``, or None
    when no pool rates that combination."""
    for p in POOLS:
        if (p.game, p.rules, p.seating) == (game, rules, seating):
            return p
    return None
