"""Reinforcement from the distilled network: the rollouts' records and one PPO update.

The rollouts (:mod:`chkobba.rl.finetune`) are NumPy only; the update is in
``examples/train_neural.py`` and needs torch (the ``train`` extra): those tests are
skipped without it.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from chkobba.agents.base import AGENTS
from chkobba.duel.play import DuelSpec
from chkobba.duel.play import play_pair as duel_pair
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.rules import preset
from chkobba.rl.finetune import (
    SELF,
    FinetuneError,
    League,
    Rollouts,
    Sampler,
    advantages,
    collect,
    log_softmax,
    pair_margins,
    paired_gain,
    play_pair,
)
from chkobba.rl.neural import NeuralAgent, load_network, move_features, weights_for
from chkobba.rl.spaces import encode

EXAMPLE = Path(__file__).parent.parent / "examples" / "train_neural.py"
HEURISTIC = League((("heuristic", 1.0),))


def shipped(rules: str = "chkobba"):  # type: ignore[no-untyped-def]
    """The shipped network of ``rules``."""
    return load_network(weights_for(rules))


def test_the_records_hold_the_networks_log_probs_and_values() -> None:
    """Each record's log-probability is the network's, at the temperature, for the move it
    drew, and its value the probability-weighted mean of the value head."""
    net = shipped()
    r = collect(net, HEURISTIC, "chkobba", 3, 0, 2, temperature=0.5)
    assert len(r) > 20
    assert {len(getattr(r, f)) for f in r.__dataclass_fields__ if f != "q"} == {len(r)}
    assert r.q == []  # sampled games try no moves
    for k in range(len(r)):
        out = net.outputs(r.obs[k], r.features[k]).astype(np.float64)
        logp = log_softmax(out[:, 0] / 0.5)
        assert len(r.features[k]) > 1
        assert r.logp[k] == pytest.approx(logp[r.chosen[k]], abs=1e-9)
        assert r.value[k] == pytest.approx(float(np.exp(logp) @ out[:, 1]), abs=1e-6)
    offsets = r.offsets()
    assert offsets[-1] == len(r.features_array()) and len(r.obs_array()) == len(r)


def test_the_returns_are_the_duels_margins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Near temperature zero the learner plays the network's best move, so a pair's two
    games are ``chkobba duel``'s pair on the same seed and index: each record's return is
    its game's margin there, and ``other`` the other game's."""
    net = shipped()
    monkeypatch.setitem(AGENTS, "finetune-test", lambda s: NeuralAgent(net, "finetune-test"))
    spec = DuelSpec("finetune-test", "heuristic", 2, "round", 7, preset("chkobba"))
    for index in (0, 1, 2):
        r = play_pair(net, HEURISTIC, "chkobba", 7, index, temperature=1e-4)
        games = duel_pair(spec, index).games
        seats = np.asarray(r.ret)
        first = seats == games[0].margin
        assert set(seats) <= {games[0].margin, games[1].margin}
        want_other = np.where(first, games[1].margin, games[0].margin)
        assert np.array_equal(np.asarray(r.other), want_other)
        assert r.pair == [index] * len(r) and r.opponent == ["heuristic"] * len(r)
        assert r.game == sorted(r.game) and set(r.game) == {0, 1}
        # The pair's summed margin is the duel pair's (twice its mean margin).
        assert r.ret[0] + r.other[0] == pytest.approx(2 * duel_pair(spec, index).margin)


def test_pair_margins_are_the_duels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The network alone against a player, pair by pair, is ``chkobba duel``'s pair; two
    networks' paired gain is the mean of their per-pair differences."""
    net = shipped("scopa")
    monkeypatch.setitem(AGENTS, "finetune-test", lambda s: NeuralAgent(net, "finetune-test"))
    spec = DuelSpec("finetune-test", "greedy", 2, "round", 11, preset("scopa"))
    got = pair_margins(net, "greedy", "scopa", 11, 3)
    assert got.tolist() == [duel_pair(spec, i).margin for i in range(3)]
    assert paired_gain(got, got) == (0.0, 0.0, 0.0)
    mean, low, high = paired_gain(got + np.array([1.0, 0.0, 2.0]), got)
    assert mean == pytest.approx(1.0) and low < 1.0 < high


def test_the_rollouts_are_reproducible() -> None:
    """The same seed gives the same records; another seed other deals."""
    net = shipped("scopa")
    league = League((("heuristic", 1.0), ("greedy", 1.0), (SELF, 1.0)), (net,))
    a = collect(net, league, "scopa", 5, 10, 3)
    b = collect(net, league, "scopa", 5, 10, 3)
    c = collect(net, league, "scopa", 6, 10, 3)
    assert a.chosen == b.chosen and a.ret == b.ret and a.opponent == b.opponent
    assert all(np.array_equal(x, y) for x, y in zip(a.obs, b.obs, strict=True))
    assert (a.chosen, a.ret) != (c.chosen, c.ret)


def test_the_vine_tries_the_likeliest_moves_of_hesitant_decisions() -> None:
    """The vine plays the network's best move; where its probability at the temperature is
    under the threshold it records the margins of the ``top`` likeliest moves (the others
    NaN), the best move's among them; the same seed gives the same margins."""
    net = shipped()
    a = collect(net, HEURISTIC, "chkobba", 2, 0, 1, 0.3, vine_top=2, vine_threshold=0.9)
    b = collect(net, HEURISTIC, "chkobba", 2, 0, 1, 0.3, vine_top=2, vine_threshold=0.9)
    assert len(a) > 3 and len(a.q) == len(a)
    for k in range(len(a)):
        logits = net.outputs(a.obs[k], a.features[k])[:, 0].astype(np.float64)
        assert a.chosen[k] == int(np.argmax(logits))
        assert np.exp(a.logp[k]) < 0.9
        tried = np.flatnonzero(~np.isnan(a.q[k]))
        assert a.chosen[k] in tried and len(tried) == min(2, len(logits))
        assert set(tried) == set(np.argsort(-logits, kind="stable")[:2])
    assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a.q, b.q, strict=True))
    assert collect(net, HEURISTIC, "chkobba", 2, 0, 1, 0.3, vine_top=2,
                   vine_threshold=0.0).q == []


def test_advantages_and_their_baselines() -> None:
    """``duplicate`` is the return plus the other game's margin; ``value`` the return less
    the state's value; ``both`` between them; anything else is refused."""
    r = Rollouts(ret=[2.0, -1.0], other=[1.0, 3.0], value=[0.5, -0.5])
    assert advantages(r, "duplicate").tolist() == [3.0, 2.0]
    assert advantages(r, "value").tolist() == [1.5, -0.5]
    assert advantages(r, "both").tolist() == [2.25, 0.75]
    with pytest.raises(FinetuneError, match="unknown baseline"):
        advantages(r, "mean")


def test_the_generalised_advantage_stays_within_each_game() -> None:
    """With lambda 0 a decision's advantage is the next decision's value less its own (the
    game's result after its last decision); with lambda 1 the return less the value; a
    game's values never leak into another's."""
    r = Rollouts(ret=[1.0, 1.0, 1.0, -2.0, -2.0], other=[-2.0] * 3 + [1.0] * 2,
                 value=[0.5, 0.25, 0.0, -1.0, -0.5], pair=[4] * 5, game=[0, 0, 0, 1, 1])
    assert advantages(r, "value", 0.0).tolist() == [-0.25, -0.25, 1.0, 0.5, -1.5]
    assert advantages(r, "value", 1.0).tolist() == [0.5, 0.75, 1.0, -1.0, -1.5]
    half = advantages(r, "value", 0.5)
    assert half[2] == 1.0 and half[1] == -0.25 + 0.5 * 1.0 and half[4] == -1.5
    assert half[3] == 0.5 + 0.5 * -1.5


def test_the_league() -> None:
    """Members parse with their weights; bad ones are refused; ``self`` draws a frozen
    version from the pool's newest half, or the learner's own weights (None)."""
    assert League.parse("heuristic:0.7, greedy,self:0.2") == (
        ("heuristic", 0.7), ("greedy", 1.0), ("self", 0.2))
    with pytest.raises(FinetuneError, match="not a weight"):
        League.parse("heuristic:much")
    with pytest.raises(FinetuneError):
        League((("heuristic", 0.0),))
    with pytest.raises(FinetuneError):
        League(())
    assert League(((SELF, 1.0),)).draw(random.Random(0)) == (SELF, None)
    old, new = shipped("chkobba"), shipped("scopa")
    league = League(((SELF, 1.0),), (old, new))
    assert {league.draw(random.Random(i))[1] is new for i in range(10)} == {True}
    with pytest.raises(FinetuneError, match="temperature"):
        Sampler(old, Rollouts(), np.random.default_rng(0), 0.0)


def example() -> ModuleType:
    """examples/train_neural.py, imported from its file."""
    spec = importlib.util.spec_from_file_location("train_neural_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_ppo_step_changes_the_weights_and_the_file_plays(tmp_path: Path) -> None:
    """The torch twin of the shipped network scores as it does and gives the records' own
    log-probabilities; one PPO update moves its weights; the written file loads and plays."""
    torch = pytest.importorskip("torch")
    ex = example()
    net = shipped()
    model = ex.scorer_from(net)
    batch = collect(net, League((("heuristic", 1.0), ("greedy", 1.0))), "chkobba", 1, 0, 3,
                    temperature=0.3)
    offsets = batch.offsets()
    seg = torch.from_numpy(np.repeat(np.arange(len(batch)), np.diff(offsets)))
    with torch.no_grad():
        out = model(torch.from_numpy(batch.obs_array()),
                    torch.from_numpy(batch.features_array()), seg)
        logp = ex.segment_log_softmax(out[:, 0] / 0.3, seg, len(batch)).numpy()
    assert np.allclose(logp[offsets[:-1] + np.asarray(batch.chosen)], batch.logp, atol=1e-4)
    before = [p.detach().clone() for p in model.modules.parameters()]
    args = argparse.Namespace(baseline="value", gae_lambda=0.9, temperature=0.3, ppo_epochs=2,
                              minibatch=16, clip=0.2, kl=0.05, value_coef=0.25, max_grad=1.0)
    reference = ex.scorer_from(net)
    opt = torch.optim.Adam(model.modules.parameters(), lr=1e-3)
    stats = ex.ppo_step(model, reference, opt, batch, args, np.random.default_rng(0))
    assert stats["kl_ref"] > 0 and np.isfinite(list(stats.values())).all()
    assert any(not torch.equal(a, b) for a, b in zip(before, model.modules.parameters(),
                                                      strict=True))
    path = tmp_path / "tuned.npz"
    model.export("chkobba").save(path)
    agent = NeuralAgent(load_network(path))
    m = Match(preset("chkobba"), 2, False, seed=4)
    obs = observe(m, m.turn)
    assert agent.choose(obs) in obs.legal_moves
    got = load_network(path).outputs(encode(obs), move_features(obs))
    with torch.no_grad():
        want = model(torch.from_numpy(encode(obs)[None, :]),
                     torch.from_numpy(move_features(obs)),
                     torch.zeros(len(obs.legal_moves), dtype=torch.long)).numpy()
    assert np.allclose(got, want, atol=0.05)
    vine = collect(net, HEURISTIC, "chkobba", 1, 0, 1, 0.3, vine_top=2)
    before = [p.detach().clone() for p in model.modules.parameters()]
    stats = ex.vine_step(model, reference, opt, vine, args, np.random.default_rng(0))
    assert np.isfinite(list(stats.values())).all()
    assert any(not torch.equal(a, b) for a, b in zip(before, model.modules.parameters(),
                                                      strict=True))
