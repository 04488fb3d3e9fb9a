"""Playing one duplicate pair: the same shuffles once per seating, the players' seats turned.

A and B alternate around the table (A at the even seats). The pair's games turn
that lineup one seat at a time until it comes back: two games at an even table
(A at the even seats, then at the odd ones; with partners, A's team then B's
team in seats 0 and 2), three at a table of three, so that each player sits
every seat on the same cards. Every game of the pair plays the same dealer and,
round by round, the same decks.

Everything a pair does depends only on the duel's settings and the pair's
index, never on which process plays it or in what order, so a duel gives the
same results on one core or many.

**Void deals.** Whether a Chkobba deal is void (three of a rank on the table,
docs/rules.md §2.2) depends on the cutter's decision, and the games of a pair
may decide differently. So a deck is drawn from the pair's generator, and drawn
again until its deal is valid *whichever* way the cut is decided; every game
then plays that same deck. This leaves out the about 3% of shuffles that would
be void for at least one decision, where a real table would reshuffle only if
the decision actually taken voids the deal: a negligible bias, and the only one
that keeps the games of a pair on identical cards.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chkobba.games.base import (
    AgentMoveError,
    Table,
    Unit,
    alternate,
    game,
    lineup_period,
    play_out,
    rotated,
)
from chkobba.games.chkobba import draw_deck, void_for_some_cut

__all__ = [
    "AgentMoveError",
    "DuelSpec",
    "GameOutcome",
    "PairOutcome",
    "Unit",
    "draw_deck",
    "play_pair",
    "play_pairs",
    "record_path",
    "seat_roles",
    "sub_seed",
    "void_for_some_cut",
]


@dataclass(frozen=True, slots=True)
class DuelSpec:
    """What every pair of a duel shares; small and picklable, for worker processes."""

    a: str
    b: str
    players: int
    unit: Unit
    seed: int
    rules: Any
    """The game's rule set (a :class:`~chkobba.fishing.rules.RuleSet` for the Chkobba family)."""
    save_dir: str | None = None
    game: str = "chkobba"
    """The game's name (:data:`~chkobba.duel.games.GAME_NAMES`)."""
    teams: bool | None = None
    """Whether partners play 2 against 2; None: so with 4 players, the harness's habit."""

    @property
    def partners(self) -> bool:
        """Whether the game is played 2 against 2 (partners opposite)."""
        return self.players == 4 if self.teams is None else self.teams

    @property
    def rotations(self) -> int:
        """Games per pair: one per seating of the turning lineup."""
        return lineup_period(alternate(self.players))


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a pair, from the duel's point of view.

    A's and B's points are per seat: the mean, over the seats each holds, of the
    points of the seat's side (with partners, the team's points).
    """

    a_points: float
    """Points of A's seats: the round's points, or the match totals."""
    b_points: float
    rounds: int
    margin: float
    """A's points minus B's; B's minus A's where the fewest points win."""
    score: float
    """A's result: 1 for a won game, 0.5 for a draw, 0 for a lost one."""


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """Every game of one pair and how long each player took per move."""

    index: int
    games: tuple[GameOutcome, ...]
    a_ms: tuple[float, ...]
    """Milliseconds of every ``choose`` call made by A's agents."""
    b_ms: tuple[float, ...]
    a_faults: tuple[int, ...] = (0, 0, 0, 0)
    """A's outside engines' faults, counted as :data:`~chkobba.agents.engine.FAULTS` lists
    them (timeouts, garbage, illegal moves, crashes); zeros for any other player."""
    b_faults: tuple[int, ...] = (0, 0, 0, 0)

    @property
    def margin(self) -> float:
        """The pair's mean margin (A minus B), the duel's unit of independence."""
        return sum(g.margin for g in self.games) / len(self.games)

    @property
    def score(self) -> float:
        """A's mean score over the pair's games."""
        return sum(g.score for g in self.games) / len(self.games)


def sub_seed(*parts: int) -> int:
    """A 64-bit seed derived from ``parts``, stable across runs and platforms."""
    text = ",".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def seat_roles(spec: DuelSpec, game_number: int) -> list[str]:
    """``"a"`` or ``"b"`` for each seat: A sits at the even seats in game 0, and the
    lineup turns one seat per game."""
    return ["ab"[e] for e in rotated(alternate(spec.players), game_number)]


def play_pair(spec: DuelSpec, index: int) -> PairOutcome:
    """Play pair ``index`` of the duel: one game per seating, on the same shuffles."""
    g = game(spec.game)
    seats, teams = spec.players, spec.partners
    rng = random.Random(sub_seed(spec.seed, index))
    dealer = rng.randrange(seats)
    decks: list[tuple[int, ...]] = []

    def deck_for(k: int) -> tuple[int, ...]:
        # Drawn lazily and shared, so round k of every game gets the same deck
        # even when the matches last a different number of rounds.
        while len(decks) <= k:
            round_dealer = (dealer + len(decks)) % seats
            decks.append(g.draw_deck(rng, spec.rules, seats, teams, round_dealer))
        return decks[k]

    sign = -1 if g.lowest_wins(spec.rules) else 1
    outcomes: list[GameOutcome] = []
    a_ms: list[float] = []
    b_ms: list[float] = []
    faults: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    for number in range(spec.rotations):
        roles = seat_roles(spec, number)
        names = [spec.a if role == "a" else spec.b for role in roles]
        agents = [
            g.make_agent(name, sub_seed(spec.seed, index, number, seat))
            for seat, name in enumerate(names)
        ]
        clocks: list[list[float]] = [[] for _ in roles]
        table = g.start(spec.rules, seats, teams, seed=0, dealer=dealer, decks=deck_for)
        play_out(table, agents, clocks, spec.unit, g.round_word)
        outcomes.append(_outcome(table, roles, spec.unit, sign))
        for role, clock in zip(roles, clocks, strict=True):
            (a_ms if role == "a" else b_ms).extend(clock)
        # The moves an outside engine failed to make, and what made them instead.
        fallbacks = sorted(
            (f for agent in agents for f in getattr(agent, "faults", ())),
            key=lambda f: (f["round"], f["ply"]),
        )
        for f in fallbacks:
            faults[roles[f["seat"]]].append(f)
        if spec.save_dir is not None:
            meta: dict[str, Any] = {
                "duel": {
                    "a": spec.a,
                    "b": spec.b,
                    "seed": spec.seed,
                    "unit": spec.unit,
                    "pair": index,
                    "game": number + 1,
                    "seats": roles,
                }
            }
            if fallbacks:
                meta["engine_fallbacks"] = fallbacks
            table.record(names, meta).save(str(record_path(spec.save_dir, index, number)))
    return PairOutcome(
        index, tuple(outcomes), tuple(a_ms), tuple(b_ms),
        fault_counts(faults["a"]), fault_counts(faults["b"]),
    )  # fmt: skip


def fault_counts(fallbacks: Sequence[dict[str, Any]]) -> tuple[int, ...]:
    """How many of each fault (:data:`~chkobba.agents.engine.FAULTS`) the fallback moves
    of an outside engine answer; the moves after a stop (``gone``) are not faults."""
    from chkobba.agents.engine import FAULTS

    return tuple(sum(f["why"] == k for f in fallbacks) for k in FAULTS)


def _outcome(table: Table, roles: Sequence[str], unit: Unit, sign: int) -> GameOutcome:
    side_points = table.round_points(0) if unit == "round" else table.totals()
    side_of = table.side_of

    def mean(role: str, value: Sequence[float]) -> float:
        of_role = [value[side_of[s]] for s, r in enumerate(roles) if r == role]
        return sum(of_role) / len(of_role)

    a, b = mean("a", side_points), mean("b", side_points)
    margin = sign * (a - b)
    lead = margin
    if unit == "match":
        # The match's winner decides (all ten coins win a match whatever the totals).
        won = [float(side == table.winner) for side in range(len(side_points))]
        lead = mean("a", won) - mean("b", won)
    score = 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
    return GameOutcome(a, b, table.rounds, margin, score)


def play_pairs(spec: DuelSpec, indices: Sequence[int]) -> list[PairOutcome]:
    """Play several pairs (one worker's share of a duel)."""
    return [play_pair(spec, i) for i in indices]


def record_path(save_dir: str | Path, index: int, game_number: int) -> Path:
    """Where game ``game_number`` (0-based) of pair ``index`` is saved."""
    return Path(save_dir) / f"pair{index:06d}-game{game_number + 1}.json"
