"""Reproducibility pins: Chkobba duels and simulations give the results they gave before
the harness learnt other games (issue 18, section 4).

The figures were computed on main before the harness was generalised to every
preset and to Touti: the same seeds must keep giving the same deals, hence the
same margins, wins and points.
"""

from __future__ import annotations

from typing import Any

import pytest

from chkobba.duel import run_duel
from chkobba.simulate import run_simulation

DUEL_PINS: list[tuple[dict[str, Any], tuple[float, ...], tuple[int, int, int], int, int, int]] = [
    (
        {"a": "heuristic", "b": "greedy", "pairs": 6, "seed": 1},
        (1.5, -1.0, 1.5, 1.5, 2.5, -1.5), (7, 2, 3), 37, 28, 12,
    ),
    (
        {"a": "greedy", "b": "random", "pairs": 4, "seed": 7, "players": 4},
        (2.5, 0.0, 3.5, 2.0), (6, 1, 1), 27, 11, 8,
    ),
    (
        {"a": "heuristic", "b": "random", "pairs": 3, "seed": 2, "unit": "match", "target": 11},
        (8.0, 6.0, 7.0), (6, 0, 0), 72, 30, 23,
    ),
]  # fmt: skip


@pytest.mark.parametrize(("args", "margins", "wdl", "a_points", "b_points", "rounds"), DUEL_PINS)
def test_chkobba_duels_keep_their_margins(
    args: dict[str, Any],
    margins: tuple[float, ...],
    wdl: tuple[int, int, int],
    a_points: int,
    b_points: int,
    rounds: int,
) -> None:
    r = run_duel(jobs=1, **args)
    assert r.pair_margins == margins
    assert (r.wins, r.draws, r.losses) == wdl
    assert (r.a_points, r.b_points, r.rounds) == (a_points, b_points, rounds)


Entry = tuple[str, list[float], int, int, int, float]
"""An entry's name, margins per group, wins, draws, losses and points."""

SIMULATION_PINS: list[tuple[dict[str, Any], list[Entry]]] = [
    (
        {"names": ["greedy", "random"], "games": 6, "seed": 3},
        [("greedy", [3.0, 3.5, 2.0], 5, 1, 0, 24.0),
         ("random", [-3.0, -3.5, -2.0], 0, 1, 5, 7.0)],
    ),
    (
        {"names": ["heuristic", "greedy", "random"], "games": 6, "seats": 3, "seed": 4},
        [("heuristic", [2 / 3, 1.5], 4, 0, 2, 14.0),
         ("greedy", [-1 / 3, -0.5], 2, 0, 4, 8.0),
         ("random", [-1 / 3, -1.0], 0, 0, 6, 7.0)],
    ),
    (
        {"names": ["greedy", "random"], "games": 4, "seats": 4, "teams": True, "seed": 5,
         "mode": "matches", "target": 11},
        [("greedy", [6.5, 9.5], 4, 0, 0, 50.0), ("random", [-6.5, -9.5], 0, 0, 4, 18.0)],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("args", "entries"), SIMULATION_PINS)
def test_chkobba_simulations_keep_their_margins(
    args: dict[str, Any], entries: list[Entry]
) -> None:
    sim = run_simulation(**args)
    assert len(sim.entries) == len(entries)
    for e, (name, margins, wins, draws, losses, points) in zip(sim.entries, entries, strict=True):
        assert (e.name, e.wins, e.draws, e.losses, e.points) == (name, wins, draws, losses, points)
        assert e.margins == pytest.approx(margins)
