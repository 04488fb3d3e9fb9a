"""Playing one duplicate pair: the same shuffles twice, with the players' seats swapped.

Everything a pair does depends only on the duel's settings and the pair's
index, never on which process plays it or in what order, so a duel gives the
same results on one core or many.

**Void deals.** Whether a deal is void (three of a rank on the table, docs/rules.md
§2.2) depends on the cutter's decision, and the two games of a pair may decide
differently. So a deck is drawn from the pair's generator, and drawn again
until its deal is valid *whichever* way the cut is decided; both games then
play that same deck. This leaves out the about 3% of shuffles that would be void
for at least one decision, where a real table would reshuffle only if the
decision actually taken voids the deal: a negligible bias, and the only one that
keeps the two games of a pair on identical cards.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from chkobba.agents import Agent, make_agent
from chkobba.game import Phase, Round
from chkobba.match import match_winner
from chkobba.moves import Cut
from chkobba.observe import observe_round
from chkobba.record import GameRecord, round_record
from chkobba.rules import RuleSet

Unit = Literal["round", "match"]
"""What one game of a pair is: a single round (a deal) or a whole match."""


class AgentMoveError(RuntimeError):
    """A player chose a move that is not among its legal moves (a bug in the player)."""


@dataclass(frozen=True, slots=True)
class DuelSpec:
    """What every pair of a duel shares; small and picklable, for worker processes."""

    a: str
    b: str
    players: int
    unit: Unit
    seed: int
    rules: RuleSet
    save_dir: str | None = None

    @property
    def teams(self) -> bool:
        """Whether the game is 2 against 2 (four players)."""
        return self.players == 4


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a pair, from the duel's point of view."""

    a_points: int
    """Points of A's side: the round's points, or the match total."""
    b_points: int
    rounds: int

    @property
    def margin(self) -> int:
        """A's points minus B's."""
        return self.a_points - self.b_points

    @property
    def score(self) -> float:
        """A's result: 1 if A scored more, 0.5 for equal points, 0 if B scored more."""
        return 1.0 if self.margin > 0 else 0.0 if self.margin < 0 else 0.5


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """Both games of one pair and how long each player took per move."""

    index: int
    games: tuple[GameOutcome, GameOutcome]
    a_ms: tuple[float, ...]
    """Milliseconds of every ``choose`` call made by A's agents."""
    b_ms: tuple[float, ...]

    @property
    def margin(self) -> float:
        """The pair's mean margin (A minus B), the duel's unit of independence."""
        return (self.games[0].margin + self.games[1].margin) / 2

    @property
    def score(self) -> float:
        """A's mean score over the pair's two games."""
        return (self.games[0].score + self.games[1].score) / 2


def sub_seed(*parts: int) -> int:
    """A 64-bit seed derived from ``parts``, stable across runs and platforms."""
    text = ",".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def void_for_some_cut(
    rules: RuleSet, players: int, teams: bool, dealer: int, deck: Sequence[int]
) -> bool:
    """Whether dealing ``deck`` would be void for at least one cut decision."""
    r = Round(rules, players, teams, dealer, deck)
    if r.phase is not Phase.CUT:
        return r.void
    for cut in Cut:
        trial = r.copy()
        trial.apply_unchecked(cut)
        if trial.void:
            return True
    return False


def draw_deck(
    rng: random.Random, rules: RuleSet, players: int, teams: bool, dealer: int
) -> tuple[int, ...]:
    """A shuffle whose deal is valid whatever the cutter decides (see the module's note)."""
    while True:
        deck = list(range(40))
        rng.shuffle(deck)
        if not void_for_some_cut(rules, players, teams, dealer, deck):
            return tuple(deck)


def seat_names(spec: DuelSpec, game: int) -> list[str]:
    """``"a"`` or ``"b"`` for each seat: A sits at even seats in game 0, odd ones in game 1."""
    first, second = ("a", "b") if game == 0 else ("b", "a")
    return [first if s % 2 == 0 else second for s in range(spec.players)]


def play_round(
    r: Round,
    agents: Sequence[Agent],
    clocks: Sequence[list[float]],
    totals: tuple[int, ...],
    round_number: int,
) -> None:
    """Play ``r`` to its end, each seat's agent seeing only its observation."""
    target = r.rules.target
    while not r.is_over:
        seat = r.turn
        obs = observe_round(r, seat, totals, round_number, target)
        agent = agents[seat]
        start = time.perf_counter_ns()
        # The cheater (an upper bound for measurements only) is handed the true round.
        choose_state = getattr(agent, "choose_state", None)
        if getattr(agent, "sees_all", False) and choose_state is not None:
            move = choose_state(r.copy())
        else:
            move = agent.choose(obs)
        clocks[seat].append((time.perf_counter_ns() - start) / 1e6)
        if move not in obs.legal_moves:
            raise AgentMoveError(
                f"player {agent.name!r} at seat {seat} chose {move!r}, "
                f"which is not a legal move in round {round_number}"
            )
        r.apply_unchecked(move)
        if r.void:
            # draw_deck rules this out; reaching it would be a bug here, not in the agent.
            raise RuntimeError("a void deal was played: the deck should have been redrawn")


def play_game(
    spec: DuelSpec,
    dealer: int,
    deck_for: Callable[[int], tuple[int, ...]],
    agents: Sequence[Agent],
    clocks: Sequence[list[float]],
) -> list[Round]:
    """One game of a pair: one round, or rounds until the match is won."""
    rules = spec.rules
    sides = 2
    totals = [0] * sides
    rounds: list[Round] = []
    while True:
        r = Round(rules, spec.players, spec.teams, dealer, deck_for(len(rounds)))
        play_round(r, agents, clocks, tuple(totals), len(rounds) + 1)
        rounds.append(r)
        if spec.unit == "round":
            return rounds
        assert r.score is not None
        for side, pts in enumerate(r.score.points):
            totals[side] += pts
        if match_winner(totals, rules.target) is not None:
            return rounds
        dealer = (dealer + 1) % spec.players


def play_pair(spec: DuelSpec, index: int) -> PairOutcome:
    """Play pair ``index`` of the duel: two games on the same shuffles, seats swapped."""
    rng = random.Random(sub_seed(spec.seed, index))
    dealer = rng.randrange(spec.players)
    decks: list[tuple[int, ...]] = []

    def deck_for(k: int) -> tuple[int, ...]:
        # Drawn lazily and shared, so round k of both games gets the same deck
        # even when the two matches last a different number of rounds.
        while len(decks) <= k:
            round_dealer = (dealer + len(decks)) % spec.players
            decks.append(draw_deck(rng, spec.rules, spec.players, spec.teams, round_dealer))
        return decks[k]

    outcomes: list[GameOutcome] = []
    a_ms: list[float] = []
    b_ms: list[float] = []
    for game in (0, 1):
        roles = seat_names(spec, game)
        names = [spec.a if role == "a" else spec.b for role in roles]
        agents = [
            make_agent(name, sub_seed(spec.seed, index, game, seat))
            for seat, name in enumerate(names)
        ]
        clocks: list[list[float]] = [[] for _ in roles]
        rounds = play_game(spec, dealer, deck_for, agents, clocks)
        a_side = 0 if game == 0 else 1
        points = [0, 0]
        for r in rounds:
            assert r.score is not None
            for side, pts in enumerate(r.score.points):
                points[side] += pts
        outcomes.append(GameOutcome(points[a_side], points[1 - a_side], len(rounds)))
        for role, clock in zip(roles, clocks, strict=True):
            (a_ms if role == "a" else b_ms).extend(clock)
        if spec.save_dir is not None:
            save_game(spec, index, game, names, roles, rounds)
    return PairOutcome(index, (outcomes[0], outcomes[1]), tuple(a_ms), tuple(b_ms))


def play_pairs(spec: DuelSpec, indices: Sequence[int]) -> list[PairOutcome]:
    """Play several pairs (one worker's share of a duel)."""
    return [play_pair(spec, i) for i in indices]


def record_path(save_dir: str | Path, index: int, game: int) -> Path:
    """Where game ``game`` (0 or 1) of pair ``index`` is saved."""
    return Path(save_dir) / f"pair{index:06d}-game{game + 1}.json"


def save_game(
    spec: DuelSpec,
    index: int,
    game: int,
    names: list[str],
    roles: list[str],
    rounds: list[Round],
) -> None:
    """Save one game as a chkobba-record/1 file; ``meta.duel`` says who A and B are."""
    assert spec.save_dir is not None
    record = GameRecord(
        rules=spec.rules.name,
        options=spec.rules.changed_options(),
        seats=spec.players,
        teams=spec.teams,
        names=names,
        rounds=[round_record(r) for r in rounds],
        meta={
            "duel": {
                "a": spec.a,
                "b": spec.b,
                "seed": spec.seed,
                "unit": spec.unit,
                "pair": index,
                "game": game + 1,
                "seats": roles,
            }
        },
    )
    record.save(record_path(spec.save_dir, index, game))
