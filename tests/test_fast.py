"""The fast path (chkobba.search.fast): the C kernel against the pure engine, and the fallback.

Every preset of the family is checked at every table it allows, with its options
varied at random (the cut, the cap on captured cards, the fewest cards, laying a
card that could capture, the void deal, the capture rules). The
kernel-against-reference tests are skipped when the extension is not built; the
pure fallback is tested always.
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
import subprocess
import sys
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.fishing.cards import FULL_DECK
from chkobba.fishing.game import Phase, Round, side_map
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Cut, Play
from chkobba.fishing.observe import Observation, observe
from chkobba.fishing.rules import CHKOBBA, PRESETS, RuleSet, preset
from chkobba.search import fast, inference, policy
from chkobba.search.determinize import determinize
from chkobba.search.endgame import solvable, solve_dealt
from chkobba.search.endgame import solve as endgame_solve

needs_kernel = pytest.mark.skipif(not fast.AVAILABLE, reason=f"no kernel: {fast.BACKEND}")

PURE = SimpleNamespace(
    legal_plays=fast.py_legal_plays,
    play_choices=fast.py_play_choices,
    rollout=fast.py_rollout,
    solve=fast.py_solve,
    evaluate=fast.py_evaluate,
)
KERNEL = SimpleNamespace(
    legal_plays=fast.legal_plays,
    play_choices=fast.play_choices,
    rollout=fast.rollout,
    solve=fast.solve,
    evaluate=fast.evaluate,
)
BACKENDS = [
    pytest.param(PURE, id="pure"),
    pytest.param(KERNEL, id="kernel", marks=needs_kernel),
]

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]
MAIN_PRESETS = ("scopa", "scopone", "scopone-scientifico", "cirulla", "escoba")
"""The games most played, measured in the report on the expert's strength."""


def tables(rules: RuleSet) -> list[tuple[int, bool]]:
    """Every table ``rules`` are played at, as (seats, teams)."""
    return [(4, True) if s == "2v2" else (int(s), False) for s in rules.seatings]


def random_rules(rng: random.Random) -> RuleSet:
    """A preset drawn at random, with the options the kernel takes varied at random."""
    base = PRESETS[rng.choice(sorted(PRESETS))]
    options: dict[str, object] = {
        "may_drop_capturing_card": rng.random() < 0.2,
        "void_deal_count": rng.choice([2, 3, 3, 4]),
    }
    if rng.random() < 0.4:
        options["max_capture_cards"] = rng.choice([0, 2, 3])
        options["fewest_cards"] = rng.random() < 0.5
    if base.table_size and rng.random() < 0.3:
        options["cut_choice"] = not base.cut_choice
    if rng.random() < 0.2:
        options["void_deal_ranks"] = rng.choice(["K", "7K", "A234567QJK"])
    if rng.random() < 0.25:
        # The capture rules mixed: a total of 14 makes a capture by total the same set
        # as an addition (7 + 7), which the captures list once.
        options["capture_match"] = rng.random() < 0.7
        options["capture_sum"] = rng.random() < 0.7
        options["capture_total"] = rng.choice([0, 14, 15])
        options["matching_priority"] = rng.random() < 0.5
        options["ace_takes_all"] = rng.random() < 0.2
        options["ace_sweep_scores"] = rng.random() < 0.5
        if not (options["capture_match"] or options["capture_sum"] or options["capture_total"]):
            options["capture_total"] = 15
    return base.with_options(options)


def random_table(rng: random.Random, rules: RuleSet) -> tuple[int, bool]:
    return rng.choice(tables(rules))


def reference_play_choices(
    rules: RuleSet, seats: int, teams: bool, dealer: int, deck: list[int], choices: list[float]
) -> tuple[list[object], list[int]]:
    """The round played on Round itself by the same choice rule as play_choices."""
    r = Round(rules, seats, teams, dealer, deck)
    moves: list[object] = []
    it = iter(choices)
    if r.void:
        return moves, []
    while r.score is None:
        legal = r.legal_moves()
        move = legal[int(next(it) * len(legal))]
        moves.append(move.value if isinstance(move, Cut) else (move.card, move.capture))
        r.apply_unchecked(move)
        if r.void:
            return moves, []
    return moves, list(r.score.points)


def mid_round(rng: random.Random, seats: int, teams: bool, rules: RuleSet, plays: int) -> Round:
    """A round in the play phase after about ``plays`` random plays (never over)."""
    while True:
        deck = list(range(40))
        rng.shuffle(deck)
        r = Round(rules, seats, teams, rng.randrange(seats), deck)
        if r.legal_moves() and r.phase is Phase.CUT:
            r.apply_unchecked(rng.choice(r.legal_moves()))
        if r.void:
            continue
        for _ in range(plays):
            nxt = r.copy()
            nxt.apply_unchecked(rng.choice(nxt.legal_moves()))
            if nxt.score is not None:
                break
            r = nxt
        return r


def endgame(
    rng: random.Random, seats: int, teams: bool, rules: RuleSet, extra: int, left: int = 12
) -> Round:
    """A round with the stock empty and at most ``left`` cards in hands (Scopone deals
    them all at once), ``extra`` plays further."""
    r = mid_round(rng, seats, teams, rules, 0)
    while r.stock_pos < len(r.deck) or r.in_hands == 0 or r.in_hands > left:
        r.apply_unchecked(rng.choice(r.legal_moves()))
    for _ in range(extra):
        if r.in_hands <= 1:
            break
        r.apply_unchecked(rng.choice(r.legal_moves()))
    return r


def pairs(r: Round) -> list[tuple[int, int]]:
    return [(m.card, m.capture) for m in r.legal_plays()]


# -- play_choices: whole rounds against Round ---------------------------------------


@needs_kernel
def test_play_choices_matches_round_over_3000_rounds_of_every_preset() -> None:
    rng = random.Random(20240601)
    voids = 0
    seen: set[str] = set()
    for i in range(3000):
        rules = random_rules(rng)
        seats, teams = random_table(rng, rules)
        seen.add(rules.name)
        deck = list(range(40))
        rng.shuffle(deck)
        dealer = rng.randrange(seats)
        choices = [rng.random() for _ in range(45)]
        expected = reference_play_choices(rules, seats, teams, dealer, deck, choices)
        got = fast.play_choices(rules, seats, side_map(seats, teams), dealer, deck, choices)
        assert got == expected, f"round {i}: {seats} seats, teams={teams}, {rules}"
        voids += not expected[1]
    assert seen == set(PRESETS)
    # The void-deal path is exercised too (void_deal_count 2 is frequent).
    assert 0 < voids < 1500


@needs_kernel
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_play_choices_plays_each_preset_at_each_table_as_round_does(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    for seats, teams in tables(rules):
        for _ in range(40):
            deck = list(range(40))
            rng.shuffle(deck)
            choices = [rng.random() for _ in range(45)]
            expected = reference_play_choices(rules, seats, teams, 1, deck, choices)
            got = fast.play_choices(rules, seats, side_map(seats, teams), 1, deck, choices)
            assert got == expected, (name, seats, teams)


def test_pure_play_choices_matches_round() -> None:
    rng = random.Random(7)
    for i in range(120):
        rules = random_rules(rng)
        seats, teams = random_table(rng, rules)
        deck = list(range(40))
        rng.shuffle(deck)
        choices = [rng.random() for _ in range(45)]
        expected = reference_play_choices(rules, seats, teams, 1, deck, choices)
        got = fast.py_play_choices(rules, seats, side_map(seats, teams), 1, deck, choices)
        assert got == expected, i


@pytest.mark.parametrize("impl", BACKENDS)
@pytest.mark.parametrize("name", ["chkobba", "cirulla", "chkop", "ponino"])
def test_play_choices_points_match_a_recorded_match(impl: SimpleNamespace, name: str) -> None:
    """Replaying a Match's own rounds through play_choices gives its round points."""
    rules = PRESETS[name]
    seats, teams = tables(rules)[-1] if name == "ponino" else (2, False)
    m = Match(rules, seats, teams, seed=11)
    rng = random.Random(3)
    while not m.is_over and len(m.finished) < 4:
        m.apply_unchecked(rng.choice(m.legal_moves()))
    for r in m.finished:
        replay = Round(r.rules, r.seats, r.sides != r.seats, r.dealer, r.shuffle)
        choices = []
        for turn in r.history:
            legal = replay.legal_moves()
            i = legal.index(turn.move)
            # The midpoint of the move's slot maps back to its index.
            choices.append((i + 0.5) / len(legal))
            replay.apply_unchecked(turn.move)
        moves, points = impl.play_choices(
            rules, seats, side_map(seats, teams), r.dealer, list(r.shuffle), choices
        )
        assert r.score is not None
        assert points == list(r.score.points)
        assert moves == [
            t.move.value if isinstance(t.move, Cut) else (t.move.card, t.move.capture)
            for t in r.history
        ]


@pytest.mark.parametrize("impl", BACKENDS)
def test_play_choices_rejects_bad_input(impl: SimpleNamespace) -> None:
    deck = list(range(40))
    args = (CHKOBBA, 2, (0, 1), 0, deck)
    with pytest.raises(ValueError, match="choices ran out"):
        impl.play_choices(*args, [0.1] * 5)
    with pytest.raises(ValueError, match=r"in \[0, 1\)"):
        impl.play_choices(*args, [1.0] * 40)
    with pytest.raises(ValueError, match="side_of"):
        impl.play_choices(CHKOBBA, 3, (0, 1, 0), 0, deck, [0.5] * 40)
    with pytest.raises(ValueError, match="twice"):
        impl.play_choices(CHKOBBA, 2, (0, 1), 0, [0] * 40, [0.5] * 40)
    with pytest.raises(ValueError, match="5"):
        impl.play_choices(PRESETS["scopa"], 5, (0, 1, 2, 3, 4), 0, deck, [0.5] * 40)


@needs_kernel
def test_the_kernel_refuses_a_rules_object_it_was_not_given() -> None:
    """The kernel's functions take the rules as chkobba.search.fast.kernel_rules builds them."""
    from chkobba import _fastcore

    with pytest.raises(TypeError, match="kernel_rules"):
        _fastcore.legal_plays(7, 1 << 20, 0, False)  # type: ignore[arg-type]
    good = fast.kernel_options(CHKOBBA)
    w = policy.weights(CHKOBBA)
    bad = (0, *good[1:])
    with pytest.raises(ValueError, match="hand_size must be from 1 to 10, not 0"):
        _fastcore.Rules(bad, w.card, w.lay, w.sweep, w.caution, w.ace_no_sweep)
    with pytest.raises(ValueError, match="options must be a sequence of 32 ints"):
        _fastcore.Rules(good[:5], w.card, w.lay, w.sweep, w.caution, w.ace_no_sweep)
    assert fast.kernel_rules(PRESETS["scopa"]) is fast.kernel_rules(PRESETS["scopa"])


# -- legal_plays ---------------------------------------------------------------------


def random_wild(rng: random.Random, rules: RuleSet) -> int:
    """The wild 7's value a round of ``rules`` may have: 0 unless it declares."""
    return rng.choice([0, 0, 1, 2, 5, 8, 10]) if rules.wild_seven_keeps_value else 0


@pytest.mark.parametrize("impl", BACKENDS)
def test_legal_plays_match_round_on_random_positions(impl: SimpleNamespace) -> None:
    rng = random.Random(5)
    for i in range(1500):
        rules = random_rules(rng)
        r = mid_round(rng, 2, False, rules, 0) if "2" in rules.seatings else None
        if r is None:
            r = mid_round(rng, 4, True, rules, 0)
        r.wild = random_wild(rng, rules)
        deck = list(range(40))
        rng.shuffle(deck)
        hand_size = rng.randint(1, 6)
        # Tables up to 30 cards: captures by addition explode there.
        table_size = rng.choice([0, 1, 2, 4, 6, 10, 16, 30]) if i % 3 else rng.randint(0, 8)
        r.hands[r.turn] = sum(1 << c for c in deck[:hand_size])
        r.table = sum(1 << c for c in deck[hand_size : hand_size + table_size])
        expected = pairs(r)
        got = impl.legal_plays(r.hands[r.turn], r.table, rules, r.wild)
        assert got == expected, (rules, r.wild)


@needs_kernel
@settings(max_examples=400, deadline=None)
@given(
    hand=st.integers(0, FULL_DECK),
    table=st.integers(0, FULL_DECK),
    name=st.sampled_from(sorted(PRESETS)),
    max_cards=st.sampled_from([0, 2, 3, 5]),
    fewest=st.booleans(),
    may_drop=st.booleans(),
    wild=st.sampled_from([0, 1, 4, 9]),
)
def test_legal_plays_kernel_equals_pure_on_any_masks(
    hand: int, table: int, name: str, max_cards: int, fewest: bool, may_drop: bool, wild: int
) -> None:
    table &= ~hand
    rules = preset(
        name,
        {
            "max_capture_cards": max_cards,
            "fewest_cards": fewest,
            "may_drop_capturing_card": may_drop,
        },
    )
    assert fast.legal_plays(hand, table, rules, wild) == fast.py_legal_plays(
        hand, table, rules, wild
    )


@pytest.mark.parametrize("impl", BACKENDS)
def test_legal_plays_rejects_bad_input(impl: SimpleNamespace) -> None:
    with pytest.raises(ValueError, match="both in the hand and on the table"):
        impl.legal_plays(0b11, 0b10)
    with pytest.raises(ValueError, match="40 cards"):
        impl.legal_plays(1 << 40, 0)
    with pytest.raises(ValueError, match="40 cards"):
        impl.legal_plays(-1, 0)
    with pytest.raises(ValueError, match="wild"):
        impl.legal_plays(1, 2, PRESETS["cirulla"], 7)
    with pytest.raises(TypeError):
        impl.legal_plays("7d", 0)


# -- rollout -------------------------------------------------------------------------


class FirstChoice(random.Random):
    """A random source whose choice is always the first: the policy's first best play."""

    def choice(self, seq):  # type: ignore[no-untyped-def]
        return seq[0]


def partners_ponino(r: Round) -> bool:
    """Il ponino between partners: a state rebuilt without its history knows which
    player took the knights only from then on, so it may score differently."""
    return r.sides != r.seats and "ponino" in r.rules.scoring


def test_pure_deterministic_rollout_is_the_policy_with_first_ties() -> None:
    rng = random.Random(9)
    checked = 0
    for _ in range(80):
        rules = random_rules(rng)
        seats, teams = random_table(rng, rules)
        r = mid_round(rng, seats, teams, rules, rng.randint(0, 25))
        if partners_ponino(r):
            continue
        ref = r.copy()
        policy.rollout(ref, FirstChoice())
        assert ref.score is not None
        assert fast.py_rollout(fast.state_of(r), 0, True) == list(ref.score.points)
        checked += 1
    assert checked > 60


@needs_kernel
def test_deterministic_rollout_matches_the_pure_reference() -> None:
    rng = random.Random(13)
    for i in range(800):
        rules = random_rules(rng)
        seats, teams = random_table(rng, rules)
        r = mid_round(rng, seats, teams, rules, rng.randint(0, 30))
        state = fast.state_of(r)
        assert fast.rollout(state, i, True) == fast.py_rollout(state, i, True), state


@needs_kernel
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_rolls_out_as_the_reference_at_each_table(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    for seats, teams in tables(rules):
        for i in range(12):
            r = mid_round(rng, seats, teams, rules, rng.randint(0, 20))
            state = fast.state_of(r)
            assert fast.rollout(state, i, True) == fast.py_rollout(state, i, True), state


@needs_kernel
@pytest.mark.parametrize("name", ["chkobba", "scopa", "cirulla"])
def test_random_rollout_agrees_with_the_pure_policy_in_distribution(name: str) -> None:
    rng = random.Random(17)
    r = mid_round(rng, 2, False, PRESETS[name], 2)
    state = fast.state_of(r)
    n = 300
    k = [fast.rollout(state, s, False) for s in range(n)]
    p = [fast.py_rollout(state, s, False) for s in range(n)]
    assert len({tuple(x) for x in k}) > 1  # ties really are broken at random
    for side in range(2):
        _assert_same_mean([x[side] for x in k], [x[side] for x in p])
    assert fast.rollout(state, 5, False) == fast.rollout(state, 5, False)


@pytest.mark.parametrize("impl", BACKENDS)
def test_rollout_rejects_bad_states(impl: SimpleNamespace) -> None:
    r = mid_round(random.Random(1), 2, False, CHKOBBA, 3)
    good = fast.state_of(r)
    hand_card = (good.hands[0] & -good.hands[0]).bit_length() - 1
    cases = {
        "twice": good._replace(table=good.table | (1 << hand_card)),
        "hand sizes": good._replace(turn=1 - good.turn) if r.in_hands % 2 else None,
        "whole deals": good._replace(stock=good.stock[:-1]) if good.stock else None,
        "side_of": good._replace(side_of=(0, 0)),
        "round is over": good._replace(hands=(0, 0), stock=()),
        "entries": good._replace(piles=(0,)),
    }
    for message, state in cases.items():
        if state is None:
            continue
        with pytest.raises(ValueError, match=message):
            impl.rollout(state, 0, True)


# -- solve ---------------------------------------------------------------------------


@pytest.mark.parametrize("impl", BACKENDS)
def test_solve_matches_the_endgame_solver(impl: SimpleNamespace) -> None:
    rng = random.Random(21)
    checked = 0
    for _ in range(200):
        rules = random_rules(rng)
        two = [t for t in tables(rules) if t[0] == 2 or t[1]]
        seats, teams = rng.choice(two)
        r = endgame(rng, seats, teams, rules, rng.randint(0, 5) if teams else 0, 8)
        if r.in_hands == 0 or not solvable(r):
            continue
        _, results = endgame_solve(r.copy())
        expected = [(p.card, p.capture, v) for p, v in results]
        assert impl.solve(fast.state_of(r)) == expected, rules
        checked += 1
    assert checked > 120


@needs_kernel
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_solves_as_the_endgame_solver(name: str) -> None:
    """Every preset's points, sweeps, declarations and goal, solved exactly by both."""
    rules = PRESETS[name]
    rng = random.Random(name)
    checked = 0
    for seats, teams in tables(rules):
        if seats != 2 and not teams:
            continue
        for _ in range(10):
            r = endgame(rng, seats, teams, rules, rng.randint(0, 3), 8)
            if r.in_hands == 0 or not solvable(r):
                continue
            state = fast.state_of(r)
            assert fast.solve(state) == fast.py_solve(state), state
            checked += 1
    assert checked >= 5


@needs_kernel
@pytest.mark.parametrize("name", ["chkobba", "scopa", "cirulla", "ponino", "scopa-a-perdere"])
def test_solve_with_larger_hands_uses_the_transposition_table(name: str) -> None:
    # Two players holding 4 or 5 cards each: deeper than any real endgame (Il ponino
    # keys the table on the sweeps too; Scopa a perdere plays for the lowest margin).
    rng = random.Random(23)
    rules = PRESETS[name]
    for _ in range(8):
        deck = list(range(40))
        rng.shuffle(deck)
        # The pure solver is slow where captures abound (Cirulla's fifteens).
        size = rng.choice([4, 5]) if name == "chkobba" else 4
        hands = (sum(1 << c for c in deck[:size]), sum(1 << c for c in deck[size : 2 * size]))
        table = sum(1 << c for c in deck[2 * size : 2 * size + 4])
        rest = deck[2 * size + 4 :]
        split = rng.randint(0, len(rest))
        state = fast.FastState(
            seats=2,
            side_of=(0, 1),
            cutter=0,
            hands=hands,
            table=table,
            piles=(sum(1 << c for c in rest[:split]), sum(1 << c for c in rest[split:])),
            chkobba=(rng.randint(0, 2), rng.randint(0, 2)),
            last_capturer=rng.choice([-1, 0, 1]),
            turn=0,
            stock=(),
            rules=rules.with_options(
                {
                    "max_capture_cards": rng.choice([0, 2]),
                    "may_drop_capturing_card": rng.random() < 0.5,
                }
            ),
        )
        assert fast.solve(state) == fast.py_solve(state)


@pytest.mark.parametrize("impl", BACKENDS)
def test_solve_refuses_a_stock(impl: SimpleNamespace) -> None:
    r = mid_round(random.Random(2), 2, False, CHKOBBA, 1)
    with pytest.raises(ValueError, match="empty stock"):
        impl.solve(fast.state_of(r))
    r3 = endgame(random.Random(2), 3, False, CHKOBBA, 0)
    with pytest.raises(ValueError, match="two sides"):
        impl.solve(fast.state_of(r3))
    rp = endgame(random.Random(2), 4, True, PRESETS["ponino"], 0)
    with pytest.raises(ValueError, match="ponino"):
        impl.solve(fast.state_of(rp))


def test_scopa_a_perdere_solves_for_the_lowest_margin() -> None:
    """Scopa a perdere: strictly the lowest total wins (scopa-wikipedia-fr.txt:78), so
    the solver's side to move plays for its lowest margin, and the value is that."""
    rng = random.Random(31)
    rules = PRESETS["scopa-a-perdere"]
    found = 0
    for _ in range(40):
        r = endgame(rng, 2, False, rules, 0, 6)
        if r.in_hands < 3:
            continue
        value, results = endgame_solve(r.copy())
        margins = [v for _, v in results]
        assert value == min(margins)
        normal = r.copy()
        normal.rules = rules.with_options({"lowest_wins": False})
        high, _ = endgame_solve(normal)
        found += high != value
    assert found > 0, "the goal changes the value of some endgames"


# -- evaluate ------------------------------------------------------------------------


def _assert_same_mean(a: list[float], b: list[float], z_max: float = 4.5) -> None:
    """Two samples' means agree within sampling error (Welch's z)."""
    n, m = len(a), len(b)
    ma, mb = sum(a) / n, sum(b) / m
    va = sum((x - ma) ** 2 for x in a) / (n - 1)
    vb = sum((x - mb) ** 2 for x in b) / (m - 1)
    se = math.sqrt(va / n + vb / m)
    if se == 0:
        assert ma == mb
    else:
        assert abs(ma - mb) / se < z_max, (ma, mb, se)


def observation_at(
    seed: int,
    seats: int,
    teams: bool,
    plays: int,
    pick: Callable[[Observation], bool],
    rules: RuleSet = CHKOBBA,
) -> Observation:
    """The first observation, from ``plays`` random plays into a seeded match, that ``pick``
    accepts."""
    rng = random.Random(seed)
    m = Match(rules, seats=seats, teams=teams, seed=seed)
    count = 0
    while True:
        obs = observe(m, m.turn)
        if count >= plays and len(obs.legal_moves) > 1 and pick(obs):
            return obs
        m.apply_unchecked(rng.choice(m.legal_moves()))
        count += obs.phase is Phase.PLAY
        if m.round.is_over or m.is_over:
            m = Match(rules, seats=seats, teams=teams, seed=seed + count)
            count = 0


def per_sample(
    evaluate: Callable[..., list[float]], obs: Observation, n: int, **kw: object
) -> list[list[float]]:
    return [evaluate(obs, 1, seed, **kw) for seed in range(n)]


def sweeps_available(obs: Observation) -> bool:
    return any(
        isinstance(mv, Play) and mv.capture == obs.table and obs.stock > 0 for mv in obs.legal_moves
    )


@needs_kernel
@pytest.mark.parametrize(
    ("seats", "teams", "plays"),
    [(2, False, 4), (2, False, 20), (4, True, 6), (3, False, 3), (2, False, 31)],
)
def test_evaluate_agrees_with_the_pure_expert_within_sampling_error(
    seats: int, teams: bool, plays: int
) -> None:
    obs = observation_at(seats * 100 + plays, seats, teams, plays, lambda o: True)
    n = 150
    k = per_sample(fast.evaluate, obs, n)
    p = per_sample(fast.py_evaluate, obs, n)
    for i in range(len(obs.legal_moves)):
        _assert_same_mean([x[i] for x in k], [x[i] for x in p])


PRESET_POSITIONS = [
    ("scopa", 2, False, 5),
    ("scopa", 6, False, 8),
    ("scopone", 4, True, 24),
    ("scopone-scientifico", 4, True, 28),
    ("cirulla", 2, False, 3),
    ("cirulla", 3, False, 10),
    ("escoba", 4, True, 10),
    ("escoba-del-15", 2, False, 4),
    ("asso-piglia-tutto", 2, False, 6),
    ("scopa-frac", 2, False, 6),
    ("scopa-a-perdere", 2, False, 20),
    ("napola", 4, False, 7),
    ("ponino", 4, True, 9),
    ("chkop", 2, False, 2),
    ("scopone-de-trente", 4, True, 26),
]


@needs_kernel
@pytest.mark.parametrize(("name", "seats", "teams", "plays"), PRESET_POSITIONS)
def test_evaluate_agrees_with_the_pure_expert_on_each_preset(
    name: str, seats: int, teams: bool, plays: int
) -> None:
    obs = observation_at(plays, seats, teams, plays, lambda o: True, PRESETS[name])
    n = 80
    for kw in ({}, {"temperature": 0.2}):
        k = per_sample(fast.evaluate, obs, n, **kw)
        p = per_sample(fast.py_evaluate, obs, n, **kw)
        for i in range(len(obs.legal_moves)):
            _assert_same_mean([x[i] for x in k], [x[i] for x in p])


def others_shown(obs: Observation) -> bool:
    """Another seat's declared hand is still partly in that hand (Cirulla)."""
    return any(m for s, m in enumerate(obs.shown) if s != obs.seat)


@needs_kernel
@pytest.mark.parametrize("plays", [0, 1, 4])
def test_evaluate_keeps_the_shown_cards_in_their_hand(plays: int) -> None:
    """Cirulla: a declared hand is shown (scopa-wikipedia-fr.txt:82) and its cards stay in
    that hand in every sample; the kernel and the reference sample alike."""
    obs = observation_at(40 + plays, 2, False, plays, others_shown, PRESETS["cirulla"])
    other = 1 - obs.seat
    rng = random.Random(plays)
    for _ in range(50):
        assert determinize(obs, rng).hands[other] & obs.shown[other] == obs.shown[other]
    n = 150
    k = per_sample(fast.evaluate, obs, n)
    p = per_sample(fast.py_evaluate, obs, n)
    for i in range(len(obs.legal_moves)):
        _assert_same_mean([x[i] for x in k], [x[i] for x in p])
    # Knowing the shown cards is worth something: sampling them anywhere differs.
    hidden = dataclasses.replace(
        obs, shown=(), declarations=(), unseen=obs.unseen | obs.shown[other]
    )
    assert per_sample(fast.evaluate, hidden, n) != k


@needs_kernel
def test_evaluate_plays_the_wild_seven_at_its_declared_value() -> None:
    """Cirulla: the 7♠ made wild by a declaration keeps its value (scopa-wikipedia-fr.txt:83)
    in the kernel's playouts as in the reference's."""
    obs = observation_at(3, 2, False, 0, lambda o: o.wild != 0, PRESETS["cirulla"])
    assert fast.legal_plays(obs.hand, obs.table, obs.rules, obs.wild) == [
        (m.card, m.capture) for m in obs.legal_moves if isinstance(m, Play)
    ]
    n = 150
    k = per_sample(fast.evaluate, obs, n, temperature=0.2)
    p = per_sample(fast.py_evaluate, obs, n, temperature=0.2)
    for i in range(len(obs.legal_moves)):
        _assert_same_mean([x[i] for x in k], [x[i] for x in p])


@needs_kernel
@pytest.mark.parametrize("name", ["scopa", "scopone", "cirulla", "scopa-di-quindici", "napola"])
def test_kernel_likelihoods_equal_the_reference_on_each_preset(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    explained = 0
    for i in range(30):
        seats, teams = tables(rules)[i % len(tables(rules))]
        obs = observation_at(i, seats, teams, rng.randint(1, 25), lambda o: True, rules)
        found = inference.decisions(obs)
        explained += bool(found)
        deals = [determinize(obs, rng).hands for _ in range(10)]
        for t in (0.05, 0.5):
            k = fast.likelihoods(found, rules, t, deals, obs.wild)
            p = fast.py_likelihoods(found, rules, t, deals, obs.wild)
            assert k == pytest.approx(p, rel=1e-12, abs=1e-12)
    assert explained > 15


@needs_kernel
def test_evaluate_at_six_seats_agrees_with_the_pure_expert() -> None:
    obs = observation_at(6, 6, False, 4, lambda o: True, PRESETS["scopa"])
    n = 100
    k = per_sample(fast.evaluate, obs, n)
    p = per_sample(fast.py_evaluate, obs, n)
    for i in range(len(obs.legal_moves)):
        _assert_same_mean([x[i] for x in k], [x[i] for x in p])


@needs_kernel
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_evaluate_finds_the_same_best_move_when_one_is_clear(seed: int) -> None:
    # A sweep of the table is worth a point outright: both must see it.
    obs = observation_at(seed, 2, False, 2, sweeps_available)
    k = fast.evaluate(obs, 400, seed)
    p = fast.py_evaluate(obs, 100, seed)
    best_k = max(range(len(k)), key=k.__getitem__)
    best_p = max(range(len(p)), key=p.__getitem__)
    move = obs.legal_moves[best_k]
    assert isinstance(move, Play) and move.capture == obs.table
    assert best_k == best_p


@needs_kernel
def test_evaluate_at_the_cut_agrees_with_the_pure_expert() -> None:
    m = Match(seed=4)
    obs = observe(m, m.turn)
    assert obs.phase is Phase.CUT and obs.cut_card is not None
    n = 120
    k = per_sample(fast.evaluate, obs, n)
    p = per_sample(fast.py_evaluate, obs, n)
    for i in range(2):
        _assert_same_mean([x[i] for x in k], [x[i] for x in p])


def last_deal(cards_left: int) -> Callable[[Observation], bool]:
    """Accept observations with an empty stock and at most ``cards_left`` cards in hands."""
    return lambda o: o.stock == 0 and sum(o.hand_sizes) <= cards_left


@pytest.mark.parametrize("impl", BACKENDS)
def test_evaluate_is_exact_in_a_two_player_endgame(impl: SimpleNamespace) -> None:
    # With two players and an empty stock every card is known: each sample is the
    # same deal, solved exactly.
    for seed in range(3):
        obs = observation_at(seed, 2, False, 0, last_deal(6))
        _, results = endgame_solve(determinize(obs, random.Random(0)))
        exact = {(p.card, p.capture): v for p, v in results}
        expected = [3 * exact[(m.card, m.capture)] for m in obs.legal_moves]
        assert impl.evaluate(obs, 3, seed) == expected


@needs_kernel
def test_evaluate_solves_each_split_of_a_partners_endgame() -> None:
    obs = observation_at(6, 4, True, 0, last_deal(8))
    n = 60
    k = [fast.evaluate(obs, 1, s, solve_cards=8) for s in range(n)]
    p = [fast.py_evaluate(obs, 1, s, solve_cards=8) for s in range(n)]
    for i in range(len(obs.legal_moves)):
        _assert_same_mean([x[i] for x in k], [x[i] for x in p])
    # Solved, not played out: the kernel's policy playouts give other values.
    assert k != [fast.evaluate(obs, 1, s, solve_cards=0) for s in range(n)]


@needs_kernel
def test_evaluate_is_deterministic_for_a_seed() -> None:
    obs = observation_at(8, 2, False, 5, lambda o: True)
    assert fast.evaluate(obs, 50, 1) == fast.evaluate(obs, 50, 1)
    assert fast.evaluate(obs, 50, 1) != fast.evaluate(obs, 50, 2)
    assert fast.evaluate(obs, 0, 1) == [0.0] * len(obs.legal_moves)


@pytest.mark.parametrize("impl", BACKENDS)
def test_evaluate_refuses_an_observer_not_to_move(impl: SimpleNamespace) -> None:
    m = Match(seed=1)
    obs = observe(m, (m.turn + 1) % 2)
    with pytest.raises(ValueError, match="to move"):
        impl.evaluate(obs, 10, 0)


def test_pure_evaluate_sums_the_expert_playouts() -> None:
    obs = observation_at(5, 2, False, 8, lambda o: True)
    totals = fast.py_evaluate(obs, 6, 3)
    per = per_sample(fast.py_evaluate, obs, 6)
    assert len(totals) == len(obs.legal_moves)
    assert all(abs(t) <= 6 * 20 for t in totals)
    # The same samples one by one, with other seeds, land in the same range.
    assert all(abs(x) <= 20 for row in per for x in row)


# -- Chkobba as it was ----------------------------------------------------------------

CHKOBBA_PINS = {
    (2, False): "table 6h 2h:As+Ad Qd 2s 7c 2d:2s 6s:6h 4h Qs:Qd 5h Ah Jc:Ah+3h+5h 4d:4h Qh 5c "
    "6c 5d:5c Js 4s Ks:Kd Kc:4s+6c Qc:Qh 4c 5s 7s:7c Ac Jd:Js Kh:Ac+4c+5s Jh 3d 3c:3d 3s 6d "
    "7h 2c 7d:7h",
    (4, True): "keep 6s:Ah+5d 4s:4c Jd 3s Kh 2h:2s 5h Ks:Kh 4h Kc Jh:Jd 7c:3s+4h 2c Jc "
    "7d:2c+5h 3d 2d Kd:Kc 3h:3d 3c Qd Ad 6d:Ad+2d+3c 6h Qs:Qd 6c:6h Ac 5c Qh As:Ac 5s:5c "
    "Js:Jc 7s 7h:7s 4d Qc:Qh",
}
"""The first round of two seeded Chkobba games, the expert's search (200 samples,
inference) against the hard level, as the kernel played them before it learnt the
other games of the family: Chkobba's search must stay move for move the same."""


@needs_kernel
@pytest.mark.parametrize(("seats", "teams"), list(CHKOBBA_PINS))
def test_chkobba_search_plays_the_moves_it_played_before(seats: int, teams: bool) -> None:
    from chkobba.agents import make_agent
    from chkobba.agents.expert import ExpertAgent

    seed = 0 if seats == 2 else 3
    m = Match(CHKOBBA, seats, teams, seed=seed)
    agents = [
        ExpertAgent(seed + s, samples=200, temperature=0.1)
        if s % 2 == 0
        else make_agent("hard", seed + s)
        for s in range(seats)
    ]
    moves = []
    while not m.finished:
        move = agents[m.turn].choose(observe(m, m.turn))
        moves.append(str(move))
        m.apply(move)
    assert " ".join(moves) == CHKOBBA_PINS[seats, teams]


# -- the benchmark function and the switch -----------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_rounds_counts_every_play(name: str) -> None:
    # Every card dealt into a hand is played, whatever the choices.
    rules = PRESETS[name]
    seats, teams = tables(rules)[0]
    per_round = 40 - rules.table_size
    assert fast.py_random_rounds(3, 1, rules, seats, teams) == 3 * per_round
    assert fast.random_rounds(50, 2, rules, seats, teams) == 50 * per_round


@pytest.mark.parametrize("name", ["chkobba", "cirulla", "scopone"])
def test_state_of_and_round_of_round_trip(name: str) -> None:
    r = mid_round(random.Random(4), 4, True, PRESETS[name], 10)
    state = fast.state_of(r)
    back = fast.round_of(state)
    assert fast.state_of(back) == state
    assert back.legal_moves() == r.legal_moves()
    assert back.wild == r.wild and back.declared() == r.declared()
    with pytest.raises(ValueError, match="play phase"):
        fast.state_of(Match(seed=1).round)


def test_chkobba_pure_forces_the_fallback() -> None:
    code = (
        "from chkobba.search import fast;"
        "print(fast.AVAILABLE, fast.legal_plays(7, 1 << 20) == fast.py_legal_plays(7, 1 << 20))"
    )
    env = {**os.environ, "CHKOBBA_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True"]


@needs_kernel
def test_the_kernel_counts_the_pair_threat_as_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Scopa with two players: the threat of a pair of table cards (policy.pair_threat,
    off by default) plays the same rounds in both paths, and does change some of them."""
    rules = PRESETS["scopa"]
    rng = random.Random(23)
    rounds = [mid_round(rng, 2, False, rules, rng.randint(0, 24)) for _ in range(150)]
    states = [fast.state_of(r) for r in rounds]
    without = [fast.rollout(s, i, True) for i, s in enumerate(states)]
    assert without == [fast.py_rollout(s, i, True) for i, s in enumerate(states)]
    full = policy.weights

    def with_pairs(r: RuleSet) -> policy.Weights:
        return full(r)._replace(pairs=True)

    monkeypatch.setattr(policy, "weights", with_pairs)
    fast.kernel_rules.cache_clear()
    try:
        paired = [fast.rollout(s, i, True) for i, s in enumerate(states)]
        assert paired == [fast.py_rollout(s, i, True) for i, s in enumerate(states)]
    finally:
        fast.kernel_rules.cache_clear()
    assert sum(a != b for a, b in zip(paired, without, strict=True)) >= 10


@needs_kernel
def test_epsilon_playouts_agree_with_the_reference_in_distribution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A playout's play drawn among all the legal plays with a chance (Weights.epsilon):
    the kernel and the reference draw different numbers but play the same distribution,
    one unlike the policy's own."""
    rules = PRESETS["scopa"]
    state = fast.state_of(mid_round(random.Random(29), 2, False, rules, 2))
    n = 300
    greedy = [fast.rollout(state, s, False) for s in range(n)]
    full = policy.weights

    def noisy(r: RuleSet) -> policy.Weights:
        return full(r)._replace(epsilon=0.5)

    monkeypatch.setattr(policy, "weights", noisy)
    fast.kernel_rules.cache_clear()
    try:
        k = [fast.rollout(state, s, False) for s in range(n)]
        p = [fast.py_rollout(state, s, False) for s in range(n)]
        # The deterministic playout takes no random play.
        assert fast.rollout(state, 1, True) == fast.py_rollout(state, 1, True)
    finally:
        fast.kernel_rules.cache_clear()
    for side in range(2):
        _assert_same_mean([x[side] for x in k], [x[side] for x in p])
    spread = [x[0] - x[1] for x in k]
    assert len(set(spread)) > len({x[0] - x[1] for x in greedy})


@needs_kernel
def test_the_kernel_refuses_an_epsilon_out_of_range() -> None:
    from chkobba import _fastcore

    w = policy.weights(PRESETS["scopa"])
    options = fast.kernel_options(PRESETS["scopa"])
    with pytest.raises(ValueError, match="epsilon"):
        _fastcore.Rules(options, w.card, w.lay, w.sweep, w.caution, w.ace_no_sweep, False, 1.5)


@needs_kernel
def test_the_kernel_weighs_the_threat_at_two_as_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Scopa with two players: the caution for two (policy.TWO_CAUTION) plays the same
    rounds in both paths, and other rounds than the caution of every table."""
    rules = PRESETS["scopa"]
    assert policy.weights(rules).caution_two != policy.weights(rules).caution
    rng = random.Random(31)
    rounds = [mid_round(rng, 2, False, rules, rng.randint(0, 24)) for _ in range(150)]
    states = [fast.state_of(r) for r in rounds]
    at_two = [fast.rollout(s, i, True) for i, s in enumerate(states)]
    assert at_two == [fast.py_rollout(s, i, True) for i, s in enumerate(states)]
    full = policy.weights

    def same(r: RuleSet) -> policy.Weights:
        w = full(r)
        return w._replace(caution_two=w.caution)

    monkeypatch.setattr(policy, "weights", same)
    fast.kernel_rules.cache_clear()
    try:
        flat = [fast.rollout(s, i, True) for i, s in enumerate(states)]
        assert flat == [fast.py_rollout(s, i, True) for i, s in enumerate(states)]
    finally:
        fast.kernel_rules.cache_clear()
    assert sum(a != b for a, b in zip(at_two, flat, strict=True)) >= 5


# -- the second ply at the root (reply) ----------------------------------------------

REPLY_POSITIONS = [
    ("scopa", 2, False, 5),
    ("scopa", 2, False, 20),
    ("scopa-a-perdere", 2, False, 14),
    ("chkobba", 2, False, 4),
    ("scopa", 4, True, 6),
    ("cirulla", 3, False, 4),
]


@needs_kernel
@pytest.mark.parametrize(("name", "seats", "teams", "plays"), REPLY_POSITIONS)
def test_second_ply_agrees_with_the_pure_reference(
    name: str, seats: int, teams: bool, plays: int
) -> None:
    obs = observation_at(plays, seats, teams, plays, lambda o: o.stock > 0, preset(name))
    n = 60
    for reply in (1.0, 0.5):
        k = per_sample(fast.evaluate, obs, n, reply=reply)
        p = per_sample(fast.py_evaluate, obs, n, reply=reply)
        for i in range(len(obs.legal_moves)):
            _assert_same_mean([x[i] for x in k], [x[i] for x in p])


@pytest.mark.parametrize("impl", BACKENDS)
@pytest.mark.parametrize("name", ["scopa", "scopa-a-perdere"])
def test_second_ply_mixes_the_worst_reply_and_the_policys(impl: SimpleNamespace, name: str) -> None:
    """Every positive share plays the same replies for a seed, so the margin is linear in
    it: the worst reply for the mover's goal at 1, the policy's near 0."""
    obs = observation_at(7, 2, False, 7, lambda o: o.stock > 0, preset(name))
    n = 40
    worst = impl.evaluate(obs, n, 5, reply=1.0)
    chosen = impl.evaluate(obs, n, 5, reply=1e-9)
    half = impl.evaluate(obs, n, 5, reply=0.5)
    sign = -1.0 if obs.rules.lowest_wins else 1.0
    for w, c, h in zip(worst, chosen, half, strict=True):
        assert sign * w <= sign * c + 1e-6
        assert h == pytest.approx((w + c) / 2, abs=1e-6)
    # Some reply is worse than the policy's in some sample: the second ply sees it.
    assert any(sign * w < sign * c - 1e-6 for w, c in zip(worst, chosen, strict=True))


@pytest.mark.parametrize("impl", BACKENDS)
def test_second_ply_refuses_a_share_out_of_range(impl: SimpleNamespace) -> None:
    obs = observation_at(7, 2, False, 7, lambda o: o.stock > 0, preset("scopa"))
    for bad in (-0.1, 1.5, math.nan):
        with pytest.raises(ValueError, match="reply must be from 0 to 1"):
            impl.evaluate(obs, 3, 1, reply=bad)


def test_the_expert_searches_the_reply_only_at_scopas_table_of_two() -> None:
    from chkobba.agents.expert import ExpertAgent

    agent = ExpertAgent(1, samples=30, reply=1.0)
    assert agent.reply_for(preset("scopa"), 2) == 1.0
    assert agent.reply_for(preset("escoba"), 2) == 1.0
    assert agent.reply_for(preset("scopa"), 4) == 0.0
    assert agent.reply_for(preset("scopa"), 3) == 0.0
    assert agent.reply_for(CHKOBBA, 2) == 0.0
    assert agent.reply_for(preset("cirulla"), 2) == 0.0
    assert agent.reply_for(preset("scopone"), 4) == 0.0
    # Elsewhere it searches exactly as without it, draw for draw.
    for name, seats, teams in (("chkobba", 2, False), ("scopa", 4, True), ("cirulla", 2, False)):
        obs = observation_at(3, seats, teams, 3, lambda o: o.stock > 0, preset(name))
        a = ExpertAgent(9, samples=30, reply=1.0, temperature=0.1)
        b = ExpertAgent(9, samples=30, temperature=0.1)
        assert a.evaluate(obs) == b.evaluate(obs)
    with pytest.raises(ValueError, match="reply must be from 0 to 1"):
        ExpertAgent(1, reply=2.0)


# -- solving a sampled deal through the stock (solve_stock) ------------------------


@pytest.mark.parametrize("name", ["scopa", "chkobba", "scopa-a-perdere"])
def test_solve_dealt_is_the_endgame_solver_once_the_stock_is_empty(name: str) -> None:
    for seed in range(4):
        obs = observation_at(seed, 2, False, 30, lambda o: o.stock == 0, preset(name))
        deal = determinize(obs, random.Random(seed))
        value, _ = endgame_solve(deal)
        assert solve_dealt(deal) == value


@pytest.mark.parametrize("name", ["scopa", "scopa-a-perdere"])
def test_solve_dealt_plays_the_last_deal_as_the_round_deals_it(name: str) -> None:
    """With one deal to come, the value is the best play's value after the deal: the
    solve of the position the round reaches once the hands are dealt again."""
    obs = observation_at(3, 2, False, 18, lambda o: o.stock == 6, preset(name))
    deal = determinize(obs, random.Random(3))
    sign = -1.0 if deal.rules.lowest_wins else 1.0

    def best(r: Round) -> float:
        # The side to move's value (times sign) by brute force, the solver only at the end.
        if r.score is not None:
            pts = r.score.points
            me = r.side_of[r.turn]
            return sign * (pts[me] - pts[1 - me])
        if solvable(r):
            value, _ = endgame_solve(r)
            return sign * value
        out = -1e9
        for p in r.legal_plays():
            c = r.copy()
            c.apply_unchecked(p)
            out = max(out, -best(c))
        return out

    assert solve_dealt(deal) == sign * best(deal)


@needs_kernel
@pytest.mark.parametrize(
    ("name", "plays"), [("scopa", 18), ("chkobba", 12), ("scopa-a-perdere", 18)]
)
def test_solving_through_the_stock_agrees_with_the_pure_reference(name: str, plays: int) -> None:
    obs = observation_at(plays, 2, False, plays, lambda o: o.stock == 6, preset(name))
    n = 40
    k = per_sample(fast.evaluate, obs, n, solve_stock=6)
    p = per_sample(fast.py_evaluate, obs, n, solve_stock=6)
    for i in range(len(obs.legal_moves)):
        _assert_same_mean([x[i] for x in k], [x[i] for x in p])
    # Playouts differ from exact solves: the setting is heard.
    assert per_sample(fast.evaluate, obs, n) != k


@pytest.mark.parametrize("impl", BACKENDS)
def test_solve_stock_refuses_a_count_out_of_range(impl: SimpleNamespace) -> None:
    obs = observation_at(7, 2, False, 7, lambda o: o.stock > 0, preset("scopa"))
    for bad in (-1, 41):
        with pytest.raises(ValueError, match="solve_stock must be from 0 to 40"):
            impl.evaluate(obs, 3, 1, solve_stock=bad)


def test_the_expert_solves_through_the_stock_only_at_scopas_table_of_two() -> None:
    from chkobba.agents.expert import ExpertAgent

    agent = ExpertAgent(1, samples=30, solve_stock=6, deal_samples=20)
    scopa = observation_at(18, 2, False, 18, lambda o: o.stock == 6, preset("scopa"))
    assert agent.stock_to_solve(scopa) == 6
    early = observation_at(4, 2, False, 4, lambda o: o.stock > 6, preset("scopa"))
    assert agent.stock_to_solve(early) == 0
    anywhere = ExpertAgent(1, samples=30, solve_stock=40, deal_samples=20)
    assert anywhere.stock_to_solve(early) == 40
    for name, seats, teams in (("chkobba", 2, False), ("scopa", 4, True), ("cirulla", 2, False)):
        obs = observation_at(8, seats, teams, 8, lambda o: o.stock > 0, preset(name))
        assert anywhere.stock_to_solve(obs) == 0
        plain = ExpertAgent(9, samples=30, temperature=0.1)
        deep = ExpertAgent(9, samples=30, temperature=0.1, solve_stock=40, deal_samples=20)
        assert deep.evaluate(obs) == plain.evaluate(obs)
    with pytest.raises(ValueError, match="solve_stock must be from 0 to 40"):
        ExpertAgent(1, solve_stock=-2)
    with pytest.raises(ValueError, match="deal_samples must be at least 1"):
        ExpertAgent(1, solve_stock=6, deal_samples=0)


# -- solving the last deal in every playout (solve_last) ---------------------------


@needs_kernel
@pytest.mark.parametrize(("name", "plays"), [("scopa", 6), ("chkobba", 6), ("scopa-a-perdere", 12)])
def test_solving_the_last_deal_agrees_with_the_pure_reference(name: str, plays: int) -> None:
    obs = observation_at(plays, 2, False, plays, lambda o: o.stock >= 12, preset(name))
    n = 60
    k = per_sample(fast.evaluate, obs, n, solve_last=True)
    p = per_sample(fast.py_evaluate, obs, n, solve_last=True)
    for i in range(len(obs.legal_moves)):
        _assert_same_mean([x[i] for x in k], [x[i] for x in p])
    # The policy's last deal differs from the exact one: the setting is heard.
    assert per_sample(fast.evaluate, obs, n) != k


@pytest.mark.parametrize("name", ["scopa", "scopa-a-perdere"])
def test_a_playout_solving_the_last_deal_ends_at_the_solvers_value(name: str) -> None:
    """The playout's margin is the exact solve of the position the policy reaches at the
    last deal: the same policy plays (same seed), then the solver takes over."""
    obs = observation_at(5, 2, False, 10, lambda o: 0 < o.stock <= 12, preset(name))
    for seed in range(6):
        deal = determinize(obs, random.Random(seed))
        played = deal.copy()
        rng = random.Random(seed)
        while not (solvable(played) and played.in_hands <= fast.SOLVE_CARDS):
            played.apply_unchecked(policy.policy_move(played, rng))
        value, _ = endgame_solve(played)
        mine = value if played.side_of[played.turn] == obs.side else -value
        got = fast.playout_margin(deal.copy(), obs.side, random.Random(seed), solve_last=True)
        assert got == mine


def test_the_expert_solves_the_last_deal_only_at_scopas_table_of_two() -> None:
    from chkobba.agents.expert import ExpertAgent

    agent = ExpertAgent(1, samples=30, solve_last=True)
    scopa = observation_at(4, 2, False, 4, lambda o: o.stock > 6, preset("scopa"))
    assert agent.last_to_solve(scopa)
    assert not ExpertAgent(1, samples=30).last_to_solve(scopa)
    for name, seats, teams in (("chkobba", 2, False), ("scopa", 4, True), ("cirulla", 2, False)):
        obs = observation_at(8, seats, teams, 8, lambda o: o.stock > 0, preset(name))
        assert not agent.last_to_solve(obs)
        plain = ExpertAgent(9, samples=30, temperature=0.1)
        last = ExpertAgent(9, samples=30, temperature=0.1, solve_last=True, last_samples=7)
        assert last.evaluate(obs) == plain.evaluate(obs)
    with pytest.raises(ValueError, match="last_samples must be at least 1"):
        ExpertAgent(1, solve_last=True, last_samples=0)


def test_the_expert_solving_the_last_deal_draws_its_own_samples(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the playouts solve the last deal, the move is searched on ``last_samples``
    sampled deals (each a solve as well as a playout), not on ``samples``."""
    from chkobba.agents.expert import ExpertAgent

    scopa = observation_at(4, 2, False, 4, lambda o: o.stock > 6, preset("scopa"))
    calls: list[tuple[int, object]] = []
    real = fast.evaluate

    def counting(obs: Observation, samples: int, seed: int, **kw: object) -> list[float]:
        calls.append((samples, kw.get("solve_last")))
        return real(obs, samples, seed, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(fast, "evaluate", counting)
    ExpertAgent(1, samples=30, solve_last=True, last_samples=11).evaluate(scopa)
    ExpertAgent(1, samples=30).evaluate(scopa)
    assert calls == ([(11, True), (30, False)] if fast.AVAILABLE else [])


@needs_kernel
def test_solving_through_the_stock_keeps_the_time_limit() -> None:
    """An expert with a time limit (``seconds``) stops after the chunk that passes it, also
    when it solves through the stock: with no time at all it searches one chunk, the
    same as an expert given that chunk's samples."""
    from chkobba.agents.expert import FAST_CHUNK, ExpertAgent

    obs = observation_at(18, 2, False, 18, lambda o: o.stock == 6, preset("scopa"))
    hurried = ExpertAgent(5, solve_stock=6, deal_samples=4 * FAST_CHUNK, seconds=0.0)
    one_chunk = ExpertAgent(5, solve_stock=6, deal_samples=FAST_CHUNK)
    unhurried = ExpertAgent(5, solve_stock=6, deal_samples=4 * FAST_CHUNK)
    assert hurried.stock_to_solve(obs) == 6
    assert hurried.evaluate(obs) == one_chunk.evaluate(obs)
    assert unhurried.evaluate(obs) != one_chunk.evaluate(obs)
