"""Every player plays every preset legally, and every game verifies from its record.

The players choose from their observation's legal moves; the search players also
simulate the rest of the round, which must follow the preset's rules: the compiled
kernel plays every preset, and the search falls back to the pure engine
(``chkobba.search.fast.supports``) for any rule set the kernel does not know.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.agents import make_agent
from chkobba.agents.expert import ExpertAgent
from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Play
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord, record_of, replay
from chkobba.fishing.rules import CHKOBBA, PRESETS, RuleSet, preset
from chkobba.search import fast, policy
from chkobba.search.endgame import solvable, solve

SCOPA_FAMILY = [name for name in PRESETS if name != "chkobba"]


def table(rules: RuleSet, seed: int) -> tuple[int, bool]:
    """One of the preset's tables, chosen by ``seed``."""
    name = rules.seatings[seed % len(rules.seatings)]
    return (4, True) if name == "2v2" else (int(name), False)


def play_match(rules: RuleSet, agent: str, seed: int, max_rounds: int = 3) -> Match:
    """A seeded match between copies of ``agent`` (at most ``max_rounds`` rounds)."""
    seats, teams = table(rules, seed)
    m = Match(rules, seats, teams, seed=seed)
    agents = [make_agent(agent, seed + s) for s in range(seats)]
    while not m.is_over and len(m.finished) < max_rounds:
        seat = m.turn
        m.apply(agents[seat].choose(observe(m, seat)), seat=seat)
    return m


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("agent", ["random", "greedy"])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_seeded_games_of_every_preset_verify_through_their_records(
    name: str, agent: str, seed: int
) -> None:
    """Issue 5: every preset's seeded random and greedy games verify from their records."""
    rules = PRESETS[name]
    m = play_match(rules, agent, seed)
    rec = GameRecord.loads(record_of(m).dumps())
    assert rec.rules == name
    rep = replay(rec)
    assert rep.totals == m.totals and rep.winner == m.winner
    assert [r.score for r in rep.finished] == [r.score for r in m.finished]
    for r in m.finished:
        assert r.score is not None
        # Every card ends in a pile or set aside; a round's points add up its items.
        assert sum(r.score.cards) + r.leftover.bit_count() == 40
        assert r.score.points == tuple(
            map(sum, zip(*(p.points for p in r.score.items), strict=True))
        )
        assert [p.key for p in r.score.items] == list(rules.scoring)


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_heuristic_player_plays_every_preset(name: str) -> None:
    m = play_match(PRESETS[name], "heuristic", 7, max_rounds=1)
    rep = replay(GameRecord.loads(record_of(m).dumps()))
    assert rep.totals == m.totals


def test_the_kernel_supports_every_preset_and_guards_the_rest() -> None:
    """``fast.supports``: the kernel plays every preset at every table it allows (issue 14;
    tests/test_fast.py checks it plays them as the engine does), and stays the guard for
    an option or a point it does not know."""
    for name, rules in PRESETS.items():
        assert fast.supports(rules), name
    assert fast.supports(preset("chkobba", {"scoring": ["karta", "dinari", "chkobba"]}))
    assert fast.supports(preset("chkobba", {"capture_total": 15}))
    assert not fast.supports(CHKOBBA, 5)
    unknown = dataclasses.replace(CHKOBBA, scoring=("karta", "a-new-point"))
    assert not fast.supports(unknown)


class _NoKernel:
    """Stands in for the compiled kernel and fails if it is asked anything."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the kernel was asked to {name} a game it does not know")


def test_the_expert_never_searches_unknown_rules_with_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The expert falls back to its pure search for rules the kernel does not implement,
    so it never plays under the wrong rules."""
    monkeypatch.setattr(fast, "_fastcore", _NoKernel())
    monkeypatch.setattr(fast, "AVAILABLE", True)
    monkeypatch.setattr(fast, "KERNEL_OPTIONS", fast.KERNEL_OPTIONS - {"capture_total"})
    rules = PRESETS["cirulla"]
    assert not fast.supports(rules)
    m = Match(rules, 2, seed=3)
    expert = ExpertAgent(5, samples=32 * 4)  # 4 samples on the pure path
    moves = 0
    while not m.is_over and len(m.finished) < 1 and moves < 12:
        seat = m.turn
        obs = observe(m, seat)
        move = expert.choose(obs) if seat == 0 else obs.legal_moves[0]
        m.apply(move, seat=seat)
        moves += 1


def _negamax(r: Round, side: int) -> float:
    """``side``'s exact margin by playing every line on copies of the engine's round, each
    side playing for its goal: the highest margin, or where the lowest total wins (Scopa a
    perdere) the lowest."""
    if r.score is not None:
        pts = r.score.points
        return float(pts[side] - pts[1 - side])
    values = []
    for m in r.legal_moves():
        child = r.copy()
        child.apply_unchecked(m)
        values.append(_negamax(child, side))
    wants_high = (r.side_of[r.turn] == side) != r.rules.lowest_wins
    return max(values) if wants_high else min(values)


@pytest.mark.parametrize("name", SCOPA_FAMILY)
def test_the_endgame_solver_scores_each_preset_as_the_engine_does(name: str) -> None:
    """The pure search's exact endgame follows the preset's captures, sweeps and points."""
    rules = PRESETS[name]
    rng = random.Random(name)
    checked = 0
    for seed in range(40):
        seats, teams = table(rules, 0)
        m = Match(rules, seats, teams, seed=seed)
        r = m.round
        while not (r.stock == 0 and r.in_hands <= 5) and not r.is_over:
            r.apply(rng.choice(r.legal_moves()))
        if r.is_over or not solvable(r):
            continue
        side = r.side_of[r.turn]
        value, results = solve(r)
        assert value == _negamax(r, side)
        for play, v in results:
            child = r.copy()
            child.apply_unchecked(play)
            assert isinstance(play, Play) and v == _negamax(child, side)
        checked += 1
        if checked == 3:
            break
    assert checked, "no solvable endgame found"


def test_the_expert_plays_to_lose_the_fewest_points_in_scopa_a_perdere() -> None:
    """§3 Scopa a perdere: the fewest points win, so the expert ranks its moves by the lowest
    margin, and its playouts play for the lowest too (the policy's scores turn around)."""
    m = Match(PRESETS["scopa"], 2, seed=11)
    obs = observe(m, m.turn)
    perdere_rules = preset("scopa", {"lowest_wins": True})
    perdere = dataclasses.replace(obs, rules=perdere_rules)
    turned = ExpertAgent(3, samples=16).evaluate(perdere)
    searched = fast.evaluate(perdere, 16, random.Random(3).getrandbits(63))
    assert turned == [-v for v in searched]
    r = m.round.copy()
    plain_ctx = policy.context(r)
    r.rules = perdere_rules
    ctx = policy.context(r)
    for play in r.legal_plays():
        assert policy.play_score(*play, ctx) == -policy.play_score(*play, plain_ctx)
