"""The game interface every surface plays (chkobba.games): a match from a game name,
rules, options, seating and seed; moves in the notation, checked for a seat with the
engine's reason; what each seat may see; the record; replay from the stored moves.

Seatings per preset: docs/rules.md §2.1 and §3 (each preset's ``seatings``); Touti's
one table and its rule options: docs/rules.md §4.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.fishing.record import GameRecord
from chkobba.fishing.record import replay as replay_chkobba
from chkobba.fishing.rules import PRESETS
from chkobba.games import GAME_NAMES, MoveRefused, game, open_steps, replay
from chkobba.games.base import table_of
from chkobba.touti.record import ToutiRecord
from chkobba.touti.record import replay as replay_touti

TABLES = [
    ("chkobba", name, seating) for name, rules in PRESETS.items() for seating in rules.seatings
] + [("touti", None, "2v2")]


def played(game_name: str, preset: str | None, seating: str, seed: int, plies: int) -> Any:
    """A served table after ``plies`` random legal moves (fewer if the match ends)."""
    g = game(game_name)
    rules = g.make_rules(preset, {})
    seats, teams = table_of(seating)
    table = g.serve(rules, seats, teams, seed)
    rng = random.Random(seed)
    moves: list[str] = []
    while len(moves) < plies and not table.is_over:
        moves.append(table.play(table.turn, rng.choice(table.legal())))
    return g, rules, seats, teams, table, moves


@pytest.mark.parametrize(("game_name", "preset", "seating"), TABLES)
def test_every_table_plays_replays_and_hides_hands(
    game_name: str, preset: str | None, seating: str
) -> None:
    g, rules, seats, teams, table, moves = played(game_name, preset, seating, 7, 60)
    names = [f"p{s}" for s in range(seats)]
    again = replay(g, rules, seats, teams, 7, moves)
    for seat in range(-1, seats):
        view = table.view(seat, names)
        assert view == again.view(seat, names)
        json.dumps(view)  # every view is JSON
        hand = set(view["hand"])
        if seat < 0:
            assert hand == set() and view["legal"] == []
        # No other seat's card shows: a hand is the seat's own, and disjoint from the others'.
        for other in range(seats):
            if other != seat:
                assert not hand & set(table.view(other, names)["hand"])
        if seat != table.turn:
            assert view["legal"] == []
    assert table.view(table.turn, names)["legal"] == table.legal() or table.is_over


@pytest.mark.parametrize(("game_name", "preset", "seating"), [
    ("chkobba", "scopone", "2v2"), ("chkobba", "cirulla", "3"), ("touti", None, "2v2"),
])
def test_open_steps_show_every_hand_as_each_seat_holds_it(
    game_name: str, preset: str | None, seating: str
) -> None:
    """Each step of a replay (the table with every hand face up) against the seats' own
    views at the same move; a round's end comes before the next deal."""
    g, rules, seats, teams, _, moves = played(game_name, preset, seating, 11, 400)
    names = [f"p{s}" for s in range(seats)]
    steps = open_steps(g, rules, seats, teams, 11, moves, names)
    table = g.serve(rules, seats, teams, 11)
    it = iter(steps)
    step = next(it)
    assert step["note"] == "deal"
    for ply, text in enumerate(moves):
        # Before the move, every hand is the one its seat sees.
        assert [set(h) for h in step["hands"]] == [
            set(table.view(s, names)["hand"]) for s in range(seats)
        ]
        done = table.rounds
        table.play(table.turn, text)
        step = next(it)
        assert step["ply"] == ply
        if table.rounds > done:
            assert step["note"] == "end"
            if not table.is_over:
                step = next(it)
                assert step["note"] == "deal" and step["ply"] is None
        else:
            assert step["note"] == "play"
    assert next(it, None) is None
    assert table.rounds >= 1, "the moves should finish a round at least"


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_refusals_name_the_reason_and_leave_the_table_unchanged(game_name: str) -> None:
    _g, _rules, seats, _teams, table, _moves = played(game_name, None, g_seating(game_name), 3, 5)
    before = table.view(-1, ["x"] * seats)
    other = (table.turn + 1) % seats
    with pytest.raises(MoveRefused) as e:
        table.play(other, table.legal()[0])
    assert e.value.code == "not_your_turn" and "\n" not in str(e.value)
    with pytest.raises(MoveRefused) as e:
        table.play(table.turn, "no such move!")
    assert e.value.code == "bad_move"
    assert table.view(-1, ["x"] * seats) == before


def g_seating(game_name: str) -> str:
    """The first seating of the game's default rules."""
    g = game(game_name)
    return str(g.seatings(g.rules())[0])


def test_an_illegal_chkobba_move_gets_the_engines_reason() -> None:
    # docs/rules.md §2.3.1: a card that can capture must capture; laying it is refused.
    g = game("chkobba")
    table = g.serve(g.make_rules("chkobba", {}), 2, False, 1)
    while table.legal()[0] in ("keep", "table"):
        table.play(table.turn, "keep")
    hand = table.view(table.turn, ["a", "b"])["hand"]
    bad = next((c for c in ["Ah", *hand] if c not in table.legal()), None)
    assert bad is not None
    with pytest.raises(MoveRefused) as e:
        table.play(table.turn, bad)
    assert e.value.code == "illegal_move" and str(e.value)


def test_an_illegal_touti_move_gets_the_engines_reason() -> None:
    # docs/rules.md §4: bids go up in steps of 10 from 90; a bid of 85 is refused.
    g = game("touti")
    table = g.serve(g.make_rules(None, {}), 4, True, 2)
    with pytest.raises(MoveRefused) as e:
        table.play(table.turn, "85")
    assert e.value.code in ("illegal_move", "bad_move") and str(e.value)


@pytest.mark.parametrize(
    ("game_name", "preset", "options", "fragment"),
    [
        ("chkobba", "chess", {}, "chess"),
        ("chkobba", "scopa", {"no_such_option": 1}, "no_such_option"),
        ("chkobba", "scopa", {"target": "eleven"}, "target"),
        ("touti", None, {"kaddour": "yes"}, "kaddour"),
        ("touti", None, {"colour": 1}, "colour"),
        ("touti", "scopa", {}, "Touti has no rule presets"),
    ],
)
def test_bad_rules_are_one_line_errors(
    game_name: str, preset: str | None, options: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(ValueError) as e:
        game(game_name).make_rules(preset, options)
    assert fragment in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize(("game_name", "seating"), [("chkobba", "6"), ("touti", "2")])
def test_a_table_the_rules_do_not_allow_is_refused(game_name: str, seating: str) -> None:
    g = game(game_name)
    seats, teams = table_of(seating)
    with pytest.raises(ValueError):
        g.serve(g.rules(), seats, teams, 1)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_point_names_are_the_breakdowns_keys(preset: str) -> None:
    g = game("chkobba")
    rules = g.make_rules(preset, {})
    keys = [p["key"] for p in g.point_names(rules)]
    assert keys == list(rules.scoring)
    seats, teams = table_of(rules.seatings[0])
    table = g.serve(rules, seats, teams, 5)
    rng = random.Random(5)
    while not table.rounds:
        table.play(table.turn, rng.choice(table.legal()))
    breakdown = table.view(-1, ["x"] * seats)["rounds"][0]
    assert set(keys) <= set(breakdown)


def test_the_presets_points_differ() -> None:
    g = game("chkobba")
    assert "primiera" in [p["key"] for p in g.point_names(g.make_rules("scopa", {}))]
    assert "karta" in [p["key"] for p in g.point_names(g.make_rules("chkobba", {}))]


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_levels_are_fair_players_of_the_game(game_name: str) -> None:
    g = game(game_name)
    assert g.default_level() in g.levels()
    assert "cheater" not in g.levels()
    for level in g.levels():
        g.make_agent(level, 0)


def test_touti_plays_a_lone_no_announcement_by_itself() -> None:
    g = game("touti")
    table = g.serve(g.rules(), 4, True, 11)
    rng = random.Random(11)
    seen = False
    while not table.is_over and table.rounds < 3:
        auto = table.automatic()
        if auto is not None:
            seen = True
            assert table.legal() == [auto]
        table.play(table.turn, auto or rng.choice(table.legal()))
    assert seen


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**62), game_name=st.sampled_from(GAME_NAMES))
def test_a_finished_match_records_and_verifies(seed: int, game_name: str) -> None:
    g = game(game_name)
    rules = g.with_target(g.rules(), 11 if game_name == "chkobba" else 100)
    seats, teams = table_of(g.seatings(rules)[0])
    table = g.serve(rules, seats, teams, seed)
    rng = random.Random(seed)
    while not table.is_over:
        table.play(table.turn, rng.choice(table.legal()))
    text = table.record([f"p{s}" for s in range(seats)], {"site": "test"}).dumps()
    if game_name == "chkobba":
        assert replay_chkobba(GameRecord.loads(text)).winner == table.winner
    else:
        assert replay_touti(ToutiRecord.loads(text)).to_json()["winner"] == table.winner
    with pytest.raises(MoveRefused) as e:
        table.play(table.turn, "keep")
    assert e.value.code in ("game_over", "bad_move")
