"""Touti's compiled playouts (chkobba.touti.kernel) against the pure ones (search.playout).

The deals are reached by random legal moves from random shuffles under random
options (Kaddour, the failed contract's rule, the talk), so the playouts start
from every kind of state: any trick, mid-trick, in the announcements. The
kernel-against-reference tests are skipped when the extension is not built; the
pure fallback is tested always.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.touti import kernel
from chkobba.touti.deal import Deal, Phase, team_of
from chkobba.touti.moves import CardPlay
from chkobba.touti.observe import ToutiObservation, observe_deal
from chkobba.touti.rules import ToutiRules
from chkobba.touti.search import (
    POINTS_WEIGHT,
    DealSampler,
    SearchAgent,
    evaluate,
    finished_score,
    playout,
    sample_hands,
    world,
)
from chkobba.touti.technique import technique_move

needs_kernel = pytest.mark.skipif(not kernel.AVAILABLE, reason=f"no kernel: {kernel.BACKEND}")

RULES = st.builds(
    ToutiRules,
    kaddour=st.booleans(),
    failure=st.sampled_from(["opponents-score", "declarer-loses"]),
    talk=st.sampled_from(["kalyado", "semi", "parle"]),
)


def deal_in_play(seed: int, rules: ToutiRules, moves: int, technique: bool) -> Deal | None:
    """A deal after its bidding and ``moves`` further moves (random or the technique's),
    stopped early if it ends; None if the bidding ended without a contract."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    d = Deal(rng.randrange(4), deck, rules)
    while d.phase in (Phase.BID, Phase.ANSWER, Phase.TRUMP):
        d.apply(technique_move(observe_deal(d, d.turn)))
    if d.is_over:
        return None
    for _ in range(moves):
        if d.is_over:
            break
        if technique:
            d.apply(technique_move(observe_deal(d, d.turn)))
        else:
            d.apply(rng.choice(d.legal_moves()))
    return d


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rules=RULES,
    moves=st.integers(0, 45),
    technique=st.booleans(),
)
def test_kernel_finishes_deals_as_the_pure_playout(
    seed: int, rules: ToutiRules, moves: int, technique: bool
) -> None:
    d = deal_in_play(seed, rules, moves, technique)
    if d is None or d.is_over:
        return
    before = d.copy()
    got = kernel.finish(d)
    assert d.hands == before.hands and d.phase is before.phase  # left as it was
    ref = d.copy()
    playout(ref)
    assert got == ref.score


def observation(seed: int, rules: ToutiRules, moves: int) -> ToutiObservation | None:
    """The observation of the seat to play a card with a choice, or None."""
    d = deal_in_play(seed, rules, moves, technique=True)
    if d is None:
        return None
    while not d.is_over:
        obs = observe_deal(d, d.turn)
        if d.phase is Phase.PLAY and sum(isinstance(m, CardPlay) for m in obs.legal_moves) > 1:
            return obs
        d.apply(technique_move(obs))
    return None


@needs_kernel
@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), rules=RULES, moves=st.integers(0, 36))
def test_card_totals_agree_with_pure_playouts(seed: int, rules: ToutiRules, moves: int) -> None:
    obs = observation(seed, rules, moves)
    if obs is None:
        return
    rng = random.Random(seed)
    samples = [sample_hands(obs, rng) for _ in range(4)]
    cards = [m for m in obs.legal_moves if isinstance(m, CardPlay)]
    team = team_of(obs.seat)
    want = [0.0] * len(cards)
    for hands in samples:
        base = world(obs, hands)
        for i, m in enumerate(cards):
            d = base.copy()
            d.apply_unchecked(m)
            playout(d)
            want[i] += evaluate(d, team)
    got = kernel.card_totals(
        world(obs, samples[0]), samples, [m.card for m in cards], team, POINTS_WEIGHT
    )
    assert got == want


@needs_kernel
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), rules=RULES, moves=st.integers(0, 36))
def test_search_values_cards_the_same_on_both_paths(
    seed: int, rules: ToutiRules, moves: int
) -> None:
    obs = observation(seed, rules, moves)
    if obs is None:
        return
    fast = SearchAgent(seed, samples=3, compiled=True)
    slow = SearchAgent(seed, samples=3, compiled=False)
    assert fast.card_values(obs) == slow.card_values(obs)
    assert fast.rng.random() == slow.rng.random()  # the same draws were made


def any_observation(seed: int, rules: ToutiRules, moves: int, seat: int) -> ToutiObservation | None:
    """What ``seat`` knows after the bidding and ``moves`` random moves, or None."""
    d = deal_in_play(seed, rules, moves, technique=False)
    return None if d is None or d.is_over else observe_deal(d, seat)


@needs_kernel
@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 45),
    seat=st.integers(0, 3),
    kaddour=st.booleans(),
)
def test_compiled_draws_are_the_python_draws(
    seed: int, moves: int, seat: int, kaddour: bool
) -> None:
    obs = any_observation(seed, ToutiRules(kaddour=kaddour), moves, seat)
    if obs is None:
        return
    sampler = DealSampler(obs)
    assert not sampler.said  # kalyado: nothing is said about the hands
    fast, slow = random.Random(seed), random.Random(seed)
    fast.random()  # a generator part-way through its words, as a search's is
    slow.random()
    got = sampler.draw_many(fast, 7, compiled=True)
    assert got == [sampler.draw(slow) for _ in range(7)]
    assert fast.getstate() == slow.getstate()


@needs_kernel
def test_draws_of_what_was_said_stay_in_python() -> None:
    # Semi-parlé and parlé statements are repaired in Python; the compiled path
    # is asked only where nothing was said, so both paths still draw the same.
    for talk in ("semi", "parle"):
        for seed in range(40):
            obs = any_observation(seed, ToutiRules(talk=talk), 4, seed % 4)
            if obs is None:
                continue
            sampler = DealSampler(obs)
            fast, slow = random.Random(seed), random.Random(seed)
            assert sampler.draw_many(fast, 3, compiled=True) == sampler.draw_many(
                slow, 3, compiled=False
            )
            assert fast.getstate() == slow.getstate()


@needs_kernel
def test_draws_refuse_inconsistent_counts() -> None:
    obs = any_observation(2, ToutiRules(), 3, 1)
    assert obs is not None
    sampler = DealSampler(obs)
    rng = random.Random(1)
    state = rng.getstate()
    with pytest.raises(ValueError, match="does not fill"):
        kernel.draw_hands(rng, obs.seat, sampler.hands, sampler.pool & (sampler.pool - 1),
                          obs.hand_sizes, obs.excluded, 2)  # fmt: skip
    assert rng.getstate() == state  # an input refused leaves the generator as it was


@needs_kernel
def test_sampled_bidding_is_the_same_on_both_paths() -> None:
    rng = random.Random(4)
    for _ in range(6):
        deck = list(range(40))
        rng.shuffle(deck)
        d = Deal(1, deck)
        obs = observe_deal(d, d.turn)
        fast = SearchAgent(7, samples=3, bidding="sampled", compiled=True)
        slow = SearchAgent(7, samples=3, bidding="sampled", compiled=False)
        assert fast.choose(obs) == slow.choose(obs)


@needs_kernel
def test_finished_score_leaves_the_deal_on_the_compiled_path() -> None:
    d = deal_in_play(3, ToutiRules(), 5, technique=True)
    assert d is not None
    hands = list(d.hands)
    sc = finished_score(d, compiled=True)
    assert d.hands == hands and not d.is_over
    assert sc == finished_score(d, compiled=False)
    assert d.is_over  # the pure path plays the deal out


@needs_kernel
def test_bad_states_are_refused_with_a_reason() -> None:
    d = deal_in_play(3, ToutiRules(), 2, technique=True)
    assert d is not None
    state = list(kernel.state_of(d))
    hands = list(d.hands)
    hands[1] |= hands[0] & -hands[0]  # a card of seat 0 in seat 1's hand too
    from chkobba.touti import _playout

    with pytest.raises(ValueError, match="two hands"):
        _playout.finish((tuple(hands), *state[1:]))
    with pytest.raises(ValueError, match="40 cards"):
        _playout.finish(((hands[0], 0, 0, 0), *state[1:]))
    with pytest.raises(ValueError, match="trump"):
        _playout.finish((*state[:4], 7, *state[5:]))
    with pytest.raises(ValueError, match="fields"):
        _playout.finish(tuple(state[:5]))
    legal = d.legal_cards()
    illegal = next(c for c in range(40) if not legal >> c & 1)
    with pytest.raises(ValueError, match="not legal"):
        kernel.card_totals(d, [d.hands], [illegal], 0, POINTS_WEIGHT)


def test_the_kernel_takes_only_the_play() -> None:
    rng = random.Random(1)
    deck = list(range(40))
    rng.shuffle(deck)
    d = Deal(0, deck)
    with pytest.raises(kernel.KernelError, match="not its bid"):
        kernel.state_of(d)
    claims = deal_in_play(3, ToutiRules(claim="forgive"), 2, technique=True)
    assert claims is not None
    with pytest.raises(kernel.KernelError, match="never claim"):
        kernel.state_of(claims)


def test_search_refuses_no_samples() -> None:
    with pytest.raises(ValueError, match="at least one sampled deal"):
        SearchAgent(samples=0)


def test_pure_fallback_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel, "AVAILABLE", False)
    with pytest.raises(kernel.KernelError, match="not available"):
        SearchAgent(compiled=True)
    agent = SearchAgent(2, samples=2)
    assert not agent.compiled
    obs = observation(5, ToutiRules(), 3)
    assert obs is not None
    values = agent.card_values(obs)
    assert [m for m, _ in values] == [m for m in obs.legal_moves if isinstance(m, CardPlay)]


def test_chkobba_pure_forces_the_pure_path() -> None:
    env = {**os.environ, "CHKOBBA_PURE": "1"}
    code = "from chkobba.touti import kernel; print(kernel.AVAILABLE, kernel.BACKEND)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False CHKOBBA_PURE is set"
