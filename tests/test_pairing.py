"""The "Play now" pairing rule (chkobba.store.pairing): closest ratings first, windows
that widen with the wait, each player at one table at most."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba.store.pairing import Waiting, Widening, seat_order, spread, table_size, tables

RULE = Widening(start=50, per_second=10)


def ids(made: list[tuple[Waiting, ...]]) -> list[set[int]]:
    return [{w.id for w in t} for t in made]


def test_the_closest_ratings_are_paired_first() -> None:
    now = 100.0
    players = [Waiting(1, 1500, now), Waiting(2, 1540, now), Waiting(3, 1510, now),
               Waiting(4, 1900, now)]
    # 1500 and 1510 are the closest; 1540 alone within its window has nobody left.
    assert ids(tables(players, 2, now, RULE)) == [{1, 3}]


def test_the_window_widens_with_the_wait() -> None:
    a, b = Waiting(1, 1500, 0.0), Waiting(2, 1700, 0.0)
    # 200 apart: both must have waited (200 - 50) / 10 = 15 s.
    assert tables([a, b], 2, 14.0, RULE) == []
    assert ids(tables([a, b], 2, 15.0, RULE)) == [{1, 2}]
    # Both must accept: a newcomer's narrow window holds back an old waiter's wide one.
    late = Waiting(2, 1700, 14.0)
    assert tables([a, late], 2, 15.0, RULE) == []
    assert RULE.window(-3) == 50 and Widening(widest=80).window(100) == 80


def test_a_table_of_four_balances_the_sides() -> None:
    now = 0.0
    four = [Waiting(i, r, now) for i, r in enumerate((1500, 1520, 1510, 1530))]
    (table,) = tables(four, 4, now, RULE)
    seated = seat_order(table, True, [0, 1, 2, 3])
    # Seats 0 and 2 against 1 and 3: the strongest with the weakest.
    assert [w.rating for w in seated] == [1530, 1520, 1500, 1510]
    assert spread(table) == 30


def test_without_partners_the_seats_follow_the_draw() -> None:
    group = [Waiting(i, 1500, 0.0) for i in range(3)]
    assert [w.id for w in seat_order(group, False, [2, 0, 1])] == [2, 0, 1]
    with pytest.raises(ValueError, match="permutation"):
        seat_order(group, False, [0, 0, 1])


def test_table_sizes() -> None:
    assert table_size("2") == (2, False) and table_size("2v2") == (4, True)
    assert table_size("6") == (6, False)
    with pytest.raises(ValueError):
        table_size("x")
    with pytest.raises(ValueError):
        tables([], 1, 0.0)


@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(1000, 2000), st.integers(0, 60)),
             max_size=40),
    st.sampled_from([2, 3, 4]),
    st.integers(0, 120),
)
def test_nobody_is_seated_twice_and_every_table_is_acceptable(
    raw: list[tuple[int, int, int]], size: int, now: int
) -> None:
    # Ids repeat on purpose: a player named twice still sits once.
    players = [Waiting(i, float(r), float(s)) for i, r, s in raw]
    made = tables(players, size, float(now), RULE)
    seated = [w.id for t in made for w in t]
    assert len(seated) == len(set(seated))
    for t in made:
        assert len(t) == size
        assert spread(t) <= min(RULE.window(now - w.since) for w in t)
    # Whoever is left could not make a table among themselves.
    left = [w for w in {p.id: p for p in players}.values() if w.id not in seated]
    assert tables(left, size, float(now), RULE) == []


def test_everyone_is_paired_in_the_end() -> None:
    rng = random.Random(5)
    players = [Waiting(i, rng.gauss(1500, 300), 0.0) for i in range(200)]
    made = tables(players, 2, 1000.0, RULE)
    assert len(made) == 100
