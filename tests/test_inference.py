"""Inference-weighted sampling (chkobba.search.inference): decisions, weights, the kernel."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.agents.expert import ExpertAgent
from chkobba.fishing.cards import parse_cards
from chkobba.fishing.game import Phase, Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Cut, Play
from chkobba.fishing.observe import Observation, observe, observe_round
from chkobba.fishing.rules import CHKOBBA, RuleSet
from chkobba.search import fast, inference, policy
from chkobba.search.determinize import determinize
from chkobba.search.endgame import solve as endgame_solve

needs_kernel = pytest.mark.skipif(not fast.AVAILABLE, reason=f"no kernel: {fast.BACKEND}")

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]


def card(text: str) -> int:
    """The card number of one card in notation."""
    mask = parse_cards(text)
    return mask.bit_length() - 1


def played_round(
    seed: int, seats: int, teams: bool, rules: RuleSet, plies: int
) -> tuple[Round, list[Round]]:
    """A round after about ``plies`` random plays, and the round before each of its plays."""
    rng = random.Random(seed)
    while True:
        deck = list(range(40))
        rng.shuffle(deck)
        r = Round(rules, seats, teams, rng.randrange(seats), deck)
        if r.phase is Phase.CUT:
            r.apply_unchecked(rng.choice(r.legal_moves()))
        if not r.void:
            break
    before: list[Round] = []
    for _ in range(plies):
        nxt = r.copy()
        nxt.apply_unchecked(rng.choice(nxt.legal_moves()))
        if nxt.score is not None:
            break
        before.append(r)
        r = nxt
    return r, before


def observation(r: Round, seat: int | None = None) -> Observation:
    return observe_round(r, r.turn if seat is None else seat, (0,) * r.sides, 1, 21)


def random_rules(rng: random.Random) -> RuleSet:
    return CHKOBBA.with_options(
        {
            "max_capture_cards": rng.choice([0, 0, 2, 3]),
            "may_drop_capturing_card": rng.random() < 0.3,
        }
    )


# -- the decisions: what each play of the deal looked like -------------------------


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(SEATINGS), st.integers(0, 40))
def test_decisions_rebuild_what_the_seat_saw_before_each_play(
    seed: int, seating: tuple[int, bool], plies: int
) -> None:
    seats, teams = seating
    rules = random_rules(random.Random(seed))
    r, before = played_round(seed, seats, teams, rules, plies)
    obs = observation(r)
    found = inference.decisions(obs)
    deal_plays = seats * 3 - r.in_hands
    earlier = before[len(before) - deal_plays :] if deal_plays else []
    others = [b for b in earlier if b.turn != obs.seat]
    assert len(found) == len(others)
    for d, b in zip(found, others, strict=True):
        # The play itself, and the seat's hand then from its hand now and its later plays.
        assert d.seat == b.turn
        assert b.hands[d.seat] == r.hands[d.seat] | d.later
        move = r.history[len(b.history)].move
        assert isinstance(move, Play) and (d.card, d.capture) == (move.card, move.capture)
        # The policy's view rebuilt from public facts is the one the true round gave
        # (with the values of every table: inference does not take those for two).
        seen = policy.context(b)._replace(two=False)
        assert inference.decision_context(d, b.hands[d.seat], rules) == seen
        assert inference.legal_plays(b.hands[d.seat], d.table, rules) == [
            (m.card, m.capture) for m in b.legal_plays()
        ]


def test_decisions_leave_out_the_observer_and_earlier_deals() -> None:
    r, before = played_round(3, 2, False, CHKOBBA, 8)  # 8 plays: into the second deal
    assert r.in_hands == 4
    obs = observation(r)
    found = inference.decisions(obs)
    # Two plays in this deal: the opponent's and the observer's.
    assert [d.seat for d in found] == [1 - obs.seat]
    # The other seat's view of the same moment: only the mover's play is explained.
    other = inference.decisions(observation(r, 1 - obs.seat))
    assert [d.seat for d in other] == [obs.seat]
    assert before[-2].in_hands == 6
    assert inference.decisions(observation(before[-2])) == ()  # a fresh deal
    assert inference.decisions(observe(Match(seed=1), 0)) == ()  # the cut


# -- the weights -----------------------------------------------------------------------


def lay_beside_the_seven_of_diamonds() -> Round:
    """Seat 0 lays the A♥ while the 7♦ lies on the table; seat 1 is to move."""
    table = ["7d", "3s", "5h", "Qc"]
    hand0 = ["7s", "2h", "Ah"]
    hand1 = ["4s", "6h", "Kh"]
    rest = [c for c in range(40) if c not in {card(x) for x in table + hand0 + hand1}]
    deck = [card(x) for x in table + hand0 + hand1] + rest
    r = Round(CHKOBBA, 2, False, 1, deck)
    r.apply(Cut.TABLE)
    r.apply(Play(card("Ah"), 0))
    assert r.turn == 1
    return r


def test_passing_up_the_seven_of_diamonds_makes_a_seven_unlikely() -> None:
    r = lay_beside_the_seven_of_diamonds()
    obs = observation(r)
    found = inference.decisions(obs)
    assert len(found) == 1
    mine = obs.hand
    had_a_seven = [parse_cards("7s+2h"), mine]  # could take the 7♦, laid the A♥
    no_capture = [parse_cards("2h+Jc"), mine]  # nothing the A♥ or the 2♥ could take
    for t in (0.1, 0.3, 1.0):
        w_seven = inference.weight(found, had_a_seven, obs.rules, t)
        w_none = inference.weight(found, no_capture, obs.rules, t)
        assert 0.0 < w_seven < w_none <= 1.0
    # Colder means surer: the ratio falls with the temperature.
    ratios = [
        inference.weight(found, had_a_seven, obs.rules, t)
        / inference.weight(found, no_capture, obs.rules, t)
        for t in (1.0, 0.3, 0.1)
    ]
    assert ratios[0] > ratios[1] > ratios[2]
    assert ratios[2] < 1e-3


def test_weights_are_one_without_a_decision_to_explain() -> None:
    rng = random.Random(2)
    r, _ = played_round(5, 2, False, CHKOBBA, 6)  # a new deal, nobody has played yet
    obs = observation(r)
    assert inference.decisions(obs) == ()
    for _ in range(20):
        assert inference.weight((), determinize(obs, rng).hands, obs.rules, 0.2) == 1.0
    # A temperature of 0 (or None) is uniform sampling, whatever was played.
    r = lay_beside_the_seven_of_diamonds()
    obs = observation(r)
    found = inference.decisions(obs)
    assert found
    assert inference.log_likelihood(found, determinize(obs, rng).hands, obs.rules, 0.0) == 0.0
    assert not inference.active(None) and not inference.active(0.0)
    assert inference.active(0.2)


def test_a_forced_play_explains_nothing() -> None:
    # A hand of one card has one play: every deal explains it equally.
    for seed in range(40):
        r, _ = played_round(seed, 2, False, CHKOBBA, 5)
        obs = observation(r)
        found = inference.decisions(obs)
        if found and found[-1].later.bit_count() == 1 and r.in_hands == 1:
            hands = determinize(obs, random.Random(seed)).hands
            d = found[-1]
            assert inference.decision_log_likelihood(d, d.later, obs.rules, 0.1) == 0.0
            assert inference.log_likelihood((d,), hands, obs.rules, 0.1) == 0.0
            return
    pytest.fail("no position with a forced play found")


def test_weights_use_only_public_facts_and_the_sampled_hands() -> None:
    r = lay_beside_the_seven_of_diamonds()
    # Swap seat 0's hidden cards with the stock's: every public fact is unchanged ...
    other = r.copy()
    stock = list(other.deck[other.stock_pos :])
    hidden = other.hands[0]
    new = parse_cards("Kc+Js")
    assert all(c in stock for c in (card("Kc"), card("Js")))
    other.hands[0] = new
    swapped = [c for c in stock if not new >> c & 1] + [c for c in range(40) if hidden >> c & 1]
    other.deck = other.deck[: other.stock_pos] + tuple(swapped)
    obs, obs2 = observation(r), observation(other)
    assert obs == obs2
    # ... so are the decisions, and a sampled deal weighs the same whatever the truth.
    assert inference.decisions(obs) == inference.decisions(obs2)
    rng = random.Random(4)
    for _ in range(10):
        hands = determinize(obs, rng).hands
        assert inference.weight(inference.decisions(obs), hands, obs.rules, 0.2) == (
            inference.weight(inference.decisions(obs2), hands, obs2.rules, 0.2)
        )


def test_an_impossible_deal_and_a_bad_temperature_are_errors() -> None:
    r = lay_beside_the_seven_of_diamonds()
    obs = observation(r)
    found = inference.decisions(obs)
    with pytest.raises(ValueError, match="inconsistent"):
        # With the A♠ on the table the A♥ must take it: laying it was not a legal play.
        bad = found[0]._replace(table=found[0].table | parse_cards("As"))
        inference.log_likelihood((bad,), [0, obs.hand], obs.rules, 0.2)
    for t in (-0.1, math.inf, math.nan):
        with pytest.raises(ValueError, match="temperature"):
            inference.check_temperature(t)
        with pytest.raises(ValueError, match="temperature"):
            ExpertAgent(0, temperature=t)


# -- the kernel against the reference ---------------------------------------------------


def positions(n: int, seed: int) -> list[Observation]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        seats, teams = SEATINGS[i % len(SEATINGS)]
        r, _ = played_round(
            rng.randrange(10**6), seats, teams, random_rules(rng), rng.randint(1, 35)
        )
        out.append(observation(r))
    return out


@needs_kernel
def test_kernel_likelihoods_equal_the_reference() -> None:
    rng = random.Random(8)
    explained = 0
    for obs in positions(200, 8):
        found = inference.decisions(obs)
        explained += bool(found)
        deals = [determinize(obs, rng).hands for _ in range(20)]
        for t in (0.05, 0.2, 0.5, 2.0):
            k = fast.likelihoods(found, obs.rules, t, deals)
            p = fast.py_likelihoods(found, obs.rules, t, deals)
            assert k == pytest.approx(p, rel=1e-12, abs=1e-12)
        assert fast.likelihoods(found, obs.rules, 0.0, deals) == [0.0] * len(deals)
    assert explained > 100


@needs_kernel
def test_kernel_likelihoods_reject_bad_input() -> None:
    r = lay_beside_the_seven_of_diamonds()
    obs = observation(r)
    found = inference.decisions(obs)
    hands = determinize(obs, random.Random(0)).hands
    with pytest.raises(ValueError, match="temperature"):
        fast.likelihoods(found, obs.rules, -1.0, [hands])
    bad = found[0]._replace(table=found[0].table | parse_cards("As"))
    with pytest.raises(ValueError, match="inconsistent"):
        fast.likelihoods((bad,), obs.rules, 0.2, [[0, obs.hand]])
    with pytest.raises(ValueError, match="later cards"):
        fast.likelihoods((found[0]._replace(later=0),), obs.rules, 0.2, [hands])
    with pytest.raises(ValueError, match="2 to 6 hands"):
        fast.likelihoods(found, obs.rules, 0.2, [[hands[0]]])


def per_sample(obs: Observation, n: int, t: float | None, kernel: bool) -> list[list[float]]:
    f = fast.evaluate if kernel else fast.py_evaluate
    return [f(obs, 1, s, temperature=t) for s in range(n)]


def _same_mean(a: list[float], b: list[float], z_max: float = 4.5) -> None:
    n, m = len(a), len(b)
    ma, mb = sum(a) / n, sum(b) / m
    va = sum((x - ma) ** 2 for x in a) / (n - 1)
    vb = sum((x - mb) ** 2 for x in b) / (m - 1)
    se = math.sqrt(va / n + vb / m)
    assert abs(ma - mb) <= z_max * se + 1e-12, (ma, mb, se)


@needs_kernel
@pytest.mark.parametrize(
    ("seats", "teams", "seed"), [(2, False, 11), (4, True, 12), (3, False, 13)]
)
def test_weighted_evaluate_agrees_with_the_reference_within_sampling_error(
    seats: int, teams: bool, seed: int
) -> None:
    for obs in positions(40, seed):
        found = inference.decisions(obs)
        if (obs.seats, obs.teams) == (seats, teams) and found and len(obs.legal_moves) > 1:
            break
    else:
        pytest.fail("no position with decisions to explain")
    n = 150
    k = per_sample(obs, n, 0.2, True)
    p = per_sample(obs, n, 0.2, False)
    for i in range(len(obs.legal_moves)):
        _same_mean([x[i] for x in k], [x[i] for x in p])


@pytest.mark.parametrize("kernel", [pytest.param(True, marks=needs_kernel), False])
def test_temperature_zero_or_none_is_the_uniform_evaluate(kernel: bool) -> None:
    f = fast.evaluate if kernel else fast.py_evaluate
    obs = observation(lay_beside_the_seven_of_diamonds())
    uniform = f(obs, 30, 5)
    assert f(obs, 30, 5, temperature=None) == uniform
    assert f(obs, 30, 5, temperature=0.0) == uniform
    assert f(obs, 30, 5, temperature=0.2) != uniform


@pytest.mark.parametrize("kernel", [pytest.param(True, marks=needs_kernel), False])
def test_weighted_evaluate_is_the_weighted_sum_of_its_samples(kernel: bool) -> None:
    # One sample: its margins times its weight (the same deal as the uniform run).
    f = fast.evaluate if kernel else fast.py_evaluate
    obs = observation(lay_beside_the_seven_of_diamonds())
    found = inference.decisions(obs)
    if not kernel:
        for seed in range(10):
            deal = determinize(obs, random.Random(seed))
            w = inference.weight(found, deal.hands, obs.rules, 0.3)
            weighted = f(obs, 1, seed, temperature=0.3)
            uniform = f(obs, 1, seed)
            assert weighted == pytest.approx([w * u for u in uniform])
    else:
        # The kernel's deals are its own, but one seed draws the same deal and playouts
        # with or without weights: every move's margin is scaled by one weight.
        weights = set()
        for seed in range(30):
            weighted = f(obs, 1, seed, temperature=0.3)
            uniform = f(obs, 1, seed)
            ratios = {round(w / u, 12) for w, u in zip(weighted, uniform, strict=True) if u}
            assert len(ratios) <= 1
            weights |= ratios
        assert all(0.0 < w <= 1.0 for w in weights)
        assert len(weights) > 1


# -- the expert with inference -----------------------------------------------------------


def test_pure_expert_weighs_its_samples_as_the_reference_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fast, "AVAILABLE", False)
    obs = observation(lay_beside_the_seven_of_diamonds())
    for seed in range(3):
        agent = ExpertAgent(seed, samples=12, temperature=0.2)
        assert agent.evaluate(obs) == fast.py_evaluate(obs, 12, seed, temperature=0.2)
        assert agent.evaluate(obs) != ExpertAgent(seed, samples=12).evaluate(obs)


@pytest.mark.parametrize("kernel", [pytest.param(True, marks=needs_kernel), False])
@pytest.mark.parametrize(("seats", "teams"), [(2, False), (4, True)])
def test_expert_with_inference_plays_legal_moves_to_the_end(
    monkeypatch: pytest.MonkeyPatch, kernel: bool, seats: int, teams: bool
) -> None:
    if not kernel:
        monkeypatch.setattr(fast, "AVAILABLE", False)
    m = Match(seats=seats, teams=teams, seed=seats)
    players = [ExpertAgent(s, samples=8, endgame_samples=2, temperature=0.2) for s in range(seats)]
    while m.round_number == 1 and not m.round.is_over:
        obs = observe(m, m.turn)
        m.apply(players[m.turn].choose(obs))
    assert m.round_number > 1 or m.round.is_over


def test_a_partners_endgame_is_weighed_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # With partners the last deal's split of the other hands is sampled, and weighed.
    rng = random.Random(3)
    for _ in range(200):
        r, _ = played_round(rng.randrange(10**6), 4, True, CHKOBBA, 30)
        obs = observation(r)
        if r.stock == 0 and inference.decisions(obs) and len(obs.legal_moves) > 1:
            break
    else:
        pytest.fail("no partners' endgame with decisions found")
    monkeypatch.setattr(fast, "AVAILABLE", False)
    weighted = ExpertAgent(1, endgame_samples=6, temperature=0.1).evaluate(obs)
    uniform = ExpertAgent(1, endgame_samples=6).evaluate(obs)
    assert weighted != uniform
    # The same six splits, each solved exactly and counted at its weight.
    rng = random.Random(1)
    expected = [0.0] * len(obs.legal_moves)
    found = inference.decisions(obs)
    for _ in range(6):
        deal = determinize(obs, rng)
        w = inference.weight(found, deal.hands, obs.rules, 0.1)
        by_move = {(p.card, p.capture): v for p, v in endgame_solve(deal)[1]}
        for i, mv in enumerate(obs.legal_moves):
            assert isinstance(mv, Play)
            expected[i] += w * by_move[(mv.card, mv.capture)]
    assert weighted == pytest.approx(expected)
