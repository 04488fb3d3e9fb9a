"""Duplicate deals for Touti: each deal played twice with the teams' players swapped.

Luck of the cards cancels out: the same shuffle and dealer are played once with
player A in seats 0 and 2 and once with A in seats 1 and 3, and A's margin is the
sum of A's team's points minus the other team's over both plays. A deal that
ends without a contract (four passes) scores nothing and is not redealt.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from chkobba.touti.agents import ToutiAgent
from chkobba.touti.deal import Deal
from chkobba.touti.observe import observe_deal
from chkobba.touti.rules import DEFAULT, ToutiRules


@dataclass
class DealOutcome:
    """One deal played to its end: the deal, and the time each seat spent choosing."""

    deal: Deal
    seconds: list[float]
    moves: list[int]


def play_deal(
    agents: Sequence[ToutiAgent], dealer: int, deck: Sequence[int], rules: ToutiRules = DEFAULT
) -> DealOutcome:
    """Play one deal with ``agents[seat]`` at each seat; every move is checked."""
    d = Deal(dealer, deck, rules)
    seconds = [0.0] * 4
    moves = [0] * 4
    while not d.is_over:
        seat = d.turn
        obs = observe_deal(d, seat)
        t0 = time.perf_counter()
        move = agents[seat].choose(obs)
        seconds[seat] += time.perf_counter() - t0
        moves[seat] += 1
        d.apply(move)
    return DealOutcome(d, seconds, moves)


@dataclass
class PairResult:
    """A duplicate pair: A's margin over B, summed over the two plays of the deal."""

    margin: int
    a_seconds: float
    a_moves: int
    contracts: int
    """How many of the two plays reached a contract."""


def play_pair(a: ToutiAgent, b: ToutiAgent, seed: int, rules: ToutiRules = DEFAULT) -> PairResult:
    """Play the deal of ``seed`` twice, A at seats 0 and 2, then at 1 and 3."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    dealer = rng.randrange(4)
    margin = 0
    secs = 0.0
    n = 0
    contracts = 0
    for a_team in (0, 1):
        seats = [a if s % 2 == a_team else b for s in range(4)]
        out = play_deal(seats, dealer, deck, rules)
        sc = out.deal.score
        if sc is not None:
            contracts += 1
            margin += sc.points[a_team] - sc.points[1 - a_team]
        secs += sum(out.seconds[s] for s in range(4) if s % 2 == a_team)
        n += sum(out.moves[s] for s in range(4) if s % 2 == a_team)
    return PairResult(margin, secs, n, contracts)
