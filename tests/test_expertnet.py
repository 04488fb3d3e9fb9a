"""The expert with the network inside its search (chkobba.rl.expertnet, issue 29 §2)."""

from __future__ import annotations

import pytest

from chkobba.agents import make_agent
from chkobba.agents.expert import ExpertAgent
from chkobba.fishing.match import Match
from chkobba.fishing.observe import Observation, observe
from chkobba.fishing.rules import preset
from chkobba.rl.expertnet import (
    NetExpertAgent,
    past_views,
    play_log_likelihood,
    resample,
    view_with,
)
from chkobba.rl.neural import load_network, weights_for

Position = tuple[Observation, Observation, dict[int, Observation]]


def _positions(rules: str, deals: int) -> list[Position]:
    """Seat 0's observations of a heuristic game with choices, each with seat 1's
    observation then and seat 1's observations so far by history length."""
    h = make_agent("heuristic", 0)
    out = []
    for deal in range(deals):
        m = Match(preset(rules), 2, False, seed=300 + deal)
        seen: dict[int, Observation] = {}
        while m.round_number == 1 and not m.is_over:
            obs = observe(m, m.turn)
            if m.turn == 1:
                seen[len(obs.history)] = obs
            elif len(obs.legal_moves) > 1:
                out.append((obs, observe(m, 1), dict(seen)))
            m.apply(h.choose(obs))
    return out


@pytest.mark.parametrize("rules", ["scopa", "chkobba"])
def test_the_other_seats_past_views_are_what_it_saw(rules: str) -> None:
    checked = 0
    for obs, other, seen in _positions(rules, 2):
        for past in past_views(obs):
            assert view_with(past, other.hand) == seen[len(past.obs.history)]
            checked += 1
    assert checked > 8


def test_the_true_hand_explains_the_plays_better_than_others() -> None:
    net = load_network(weights_for("scopa"))
    true = other = 0.0
    for obs, opp, _ in _positions("scopa", 2):
        for past in past_views(obs):
            true += play_log_likelihood(net, past, opp.hand)
            # The same number of cards, none of the true hand's where possible.
            pool = [c for c in range(40) if obs.unseen >> c & 1 and not opp.hand >> c & 1]
            h = sum(1 << c for c in pool[: opp.hand.bit_count()])
            other += play_log_likelihood(net, past, h)
    assert true > other


def test_resampling_shares_the_draws_in_proportion() -> None:
    assert resample([1.0, 0.0, 3.0], 8, 0.5) == [2, 0, 6]
    assert sum(resample([0.2, 0.5, 0.1, 0.7], 1000, 0.99)) == 1000
    with pytest.raises(ValueError, match="positive weight"):
        resample([0.0, 0.0], 4, 0.1)


def test_without_options_it_is_the_expert() -> None:
    a = NetExpertAgent(7, samples=64)
    b = ExpertAgent(7, samples=64)
    for obs, _, _ in _positions("chkobba", 1)[:8]:
        assert a.choose(obs) == b.choose(obs)


@pytest.mark.parametrize("rules", ["scopa", "chkobba"])
def test_the_prior_plays_legal_moves_the_same_for_a_seed(rules: str) -> None:
    positions = _positions(rules, 1)[:10]
    a = NetExpertAgent(3, samples=64, prior=1.0, candidates=8, blend=0.1)
    b = NetExpertAgent(3, samples=64, prior=1.0, candidates=8, blend=0.1)
    used = 0
    for obs, _, _ in positions:
        move = a.choose(obs)
        assert move in obs.legal_moves
        assert b.choose(obs) == move
        used += bool(a.uses_prior(obs) and past_views(obs))
    assert used > 0


def test_a_large_blend_plays_the_networks_choice() -> None:
    from chkobba.rl.neural import NeuralAgent

    net_player = NeuralAgent()
    agent = NetExpertAgent(1, samples=16, blend=1e6)
    for obs, _, _ in _positions("scopa", 1)[:6]:
        if agent.solves_exactly(obs):
            continue
        assert agent.choose(obs) == net_player.choose(obs)


@pytest.mark.parametrize(
    "options", [{"prior": -1.0}, {"candidates": 0}, {"blend": float("nan")}]
)
def test_bad_options_are_clear_errors(options: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="must"):
        NetExpertAgent(0, **options)  # type: ignore[arg-type]


def test_the_weighted_evaluation_returns_the_same_sums_and_their_weight() -> None:
    from chkobba.search import fast

    if not fast.AVAILABLE:
        pytest.skip("the compiled kernel is not built")
    obs = next(o for o, _, _ in _positions("scopa", 1) if past_views(o))
    sums, weight = fast.evaluate_weighted(obs, 50, 9)
    assert sums == fast.evaluate(obs, 50, 9) and weight == 50.0
    sums, weight = fast.evaluate_weighted(obs, 50, 9, temperature=0.1)
    assert sums == fast.evaluate(obs, 50, 9, temperature=0.1) and 0.0 < weight < 50.0


def test_the_helper_has_the_registered_experts_settings() -> None:
    from chkobba.rl.expertnet import net_expert

    ours, theirs = net_expert(0, prior=2.0), make_agent("expert", 0)
    assert isinstance(theirs, ExpertAgent) and ours.prior == 2.0
    for key in ("samples", "endgame_samples", "temperature", "solve_stock", "solve_last"):
        assert getattr(ours, key) == getattr(theirs, key)
