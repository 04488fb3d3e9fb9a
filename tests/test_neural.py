"""The learned player ``neural``: its weight files, legal and deterministic play, no torch at
play time, and the distillation data's determinism."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chkobba.agents import AgentError, make_agent
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.rules import preset
from chkobba.rl.distill import generate, load_shards
from chkobba.rl.neural import (
    AFTER_FEATURES,
    MOVE_FEATURES,
    WEIGHTS_DIR,
    Network,
    NeuralAgent,
    NeuralError,
    ensemble,
    load_network,
    move_features,
    weights_for,
)
from chkobba.rl.spaces import OBS_SIZE

MAX_BYTES = 4_000_000
"""A shipped weight file stays small (the issue: a few MB at most)."""
SHIPPED = ("chkobba", "scopa")


def random_network(seed: int, hidden: int = 32) -> Network:
    """Random weights of the network's shape: they exercise every kind of decision."""
    rng = np.random.default_rng(seed)

    def w(*shape: int) -> np.ndarray:  # type: ignore[type-arg]
        return rng.normal(size=shape).astype(np.float32)

    return Network(w(OBS_SIZE, hidden), w(MOVE_FEATURES + AFTER_FEATURES, hidden), w(hidden),
                   ((w(hidden, 8), w(8)), (w(8, 2), w(2))), w(MOVE_FEATURES, 2), "test")


def play_deals(agent: NeuralAgent, rules: str, seats: int, teams: bool, seed: int) -> list[str]:
    """The first two rounds of a match with ``agent`` in every seat; the moves, each checked."""
    m = Match(preset(rules), seats, teams, seed=seed)
    moves = []
    while not m.is_over and m.round_number <= 2:
        obs = observe(m, m.turn)
        feats = move_features(obs)
        assert feats.shape == (len(obs.legal_moves), MOVE_FEATURES)
        move = agent.choose(obs)
        assert move in obs.legal_moves
        m.apply(move)
        moves.append(str(move))
    return moves


def test_a_saved_network_reads_back_and_plays_legal_moves(tmp_path: Path) -> None:
    """float16 on disk, the same scores within rounding, legal moves in several presets."""
    net = random_network(1)
    path = tmp_path / "n.npz"
    net.save(path)
    back = load_network(path)
    x = np.random.default_rng(0).random(OBS_SIZE, dtype=np.float32)
    f = np.random.default_rng(1).random((3, MOVE_FEATURES), dtype=np.float32)
    assert np.allclose(back.outputs(x, f), net.outputs(x, f), rtol=0.02, atol=0.5)
    agent = NeuralAgent(back)
    for rules, seats, teams in [("chkobba", 2, False), ("scopa", 2, False),
                                ("chkobba", 4, True), ("escoba", 3, False)]:
        assert len(play_deals(agent, rules, seats, teams, seed=3)) > 20


def test_an_ensemble_is_one_network_scoring_the_mean_of_its_members() -> None:
    """Block-diagonal side by side: the outputs are the members' mean, whatever their widths."""
    members = [random_network(1), random_network(2, hidden=16), random_network(3)]
    net = ensemble(members)
    rng = np.random.default_rng(0)
    x = rng.random(OBS_SIZE, dtype=np.float32)
    f = rng.random((4, MOVE_FEATURES), dtype=np.float32)
    want = np.mean([m.outputs(x, f) for m in members], axis=0)
    assert np.allclose(net.outputs(x, f), want, rtol=1e-4, atol=1e-3)
    with pytest.raises(NeuralError):
        ensemble([])
    shallow = Network(members[0].wo, members[0].wm, members[0].b0, members[0].layers[1:])
    with pytest.raises(NeuralError, match="same number of layers"):
        ensemble([members[0], shallow])


def test_bad_weight_files_are_clear_errors(tmp_path: Path) -> None:
    """Not an archive, another format, layers that do not fit: each says so."""
    bad = tmp_path / "bad.npz"
    bad.write_text("not a zip")
    with pytest.raises(NeuralError, match="not a weight file"):
        load_network(bad)
    other = tmp_path / "other.npz"
    np.savez(other, format=np.array("something-else"))
    with pytest.raises(NeuralError, match="is not a chkobba-neural/1 file"):
        load_network(other)
    net = random_network(2)
    broken = Network(net.wo[:10], net.wm, net.b0, net.layers)
    path = tmp_path / "broken.npz"
    broken.save(path)
    with pytest.raises(NeuralError, match="first layer does not fit"):
        load_network(path)
    with pytest.raises(NeuralError, match="cannot read weights"):
        load_network(tmp_path / "missing.npz")


@pytest.mark.parametrize("rules", SHIPPED)
def test_the_shipped_weights_are_small_and_play_whole_deals_legally(rules: str) -> None:
    """The level ``neural`` plays its preset's own weights, legally and deterministically."""
    path = weights_for(rules)
    assert path == WEIGHTS_DIR / f"neural_{rules}.npz"
    assert path.stat().st_size < MAX_BYTES
    assert load_network(path).preset == rules
    agent = make_agent("neural", 5)
    assert isinstance(agent, NeuralAgent)
    first = play_deals(agent, rules, 2, False, seed=11)
    assert first == play_deals(make_agent("neural", 6), rules, 2, False, seed=11)  # type: ignore[arg-type]
    assert len(first) > 30


def test_a_preset_without_weights_plays_chkobbas() -> None:
    """Where a preset has no weights of its own, Chkobba's play (and still legally)."""
    assert weights_for("escoba") == WEIGHTS_DIR / "neural_chkobba.npz"
    assert len(play_deals(make_agent("neural", 0), "escoba", 2, False, seed=2)) > 20  # type: ignore[arg-type]


def test_the_player_loads_and_plays_without_torch() -> None:
    """Play time is NumPy only: with torch made unimportable the level still plays."""
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from chkobba.agents import make_agent\n"
        "from chkobba.fishing.match import Match\n"
        "from chkobba.fishing.observe import observe\n"
        "from chkobba.fishing.rules import preset\n"
        "m = Match(preset('chkobba'), 2, False, seed=1)\n"
        "a = make_agent('neural', 0)\n"
        "obs = observe(m, m.turn)\n"
        "assert a.choose(obs) in obs.legal_moves\n"
        "assert 'torch' not in sys.modules or sys.modules['torch'] is None\n"
        "print('ok')\n"
    )
    src = str(Path(__file__).parent.parent / "src")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"}, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_duel_knows_the_level() -> None:
    """``neural`` is a registered, playable player name."""
    from chkobba.agents.base import check_playable

    check_playable("neural")
    with pytest.raises(AgentError):
        check_playable("neural-nonexistent")


def test_the_web_lobby_offers_the_level_in_every_language() -> None:
    """``neural`` is among the game's computer levels (what the lobby lists), next to
    ``medium``, with its name in every catalogue."""
    import json

    from chkobba.games.base import game

    named = game("chkobba").levels()
    assert "neural" in named and named.index("neural") == named.index("medium") + 1
    catalogues = Path(__file__).parents[1] / "src/chkobba/words/catalogues"
    for lang in ("en", "fr", "it", "es", "ar"):
        words = json.loads((catalogues / f"{lang}.json").read_text(encoding="utf-8"))
        assert words["page"]["level_neural"], lang


def test_the_distillation_data_is_deterministic_whatever_the_jobs(tmp_path: Path) -> None:
    """Two games at a tiny search budget: the same shards on one process or two, rerun."""
    runs = []
    for name, jobs in (("a", 1), ("b", 2)):
        out = tmp_path / name
        paths = list(generate("scopa", 3, 2, 8, out, jobs=jobs, shard_games=1))
        assert len(paths) == 2
        runs.append(load_shards(sorted(out.glob("*.npz"))))
    a, b = runs
    assert len(a) > 10
    for field in ("obs", "features", "values", "offsets", "chosen", "games"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    counts = np.diff(a.offsets)
    assert (counts >= 2).all()  # only decisions with a choice are kept
    assert a.features.shape == (int(a.offsets[-1]), MOVE_FEATURES)
    # The recorded move is the search's best mean.
    for k in range(len(a)):
        v = a.values[a.offsets[k]:a.offsets[k + 1]]
        assert v[a.chosen[k]] == v.max()


def test_with_an_actor_the_expert_labels_the_actors_games(tmp_path: Path) -> None:
    """DAgger: the recording seat plays greedy's moves, the expert's values are recorded."""
    from chkobba.rl.distill import Positions, play_game

    own, acted = Positions(), Positions()
    play_game("chkobba", 4, 1, 8, own)  # game 1: against heuristic, one seat recorded
    play_game("chkobba", 4, 1, 8, acted, actor="greedy")
    assert len(own) > 5 and len(acted) > 5
    # The same first decision, then the games part: greedy does not play as the search.
    assert np.array_equal(own.obs[0], acted.obs[0])
    assert any(not np.array_equal(a, b) for a, b in zip(own.obs, acted.obs, strict=False))


def test_an_actor_may_be_a_weight_file(tmp_path: Path) -> None:
    """``--actor PATH.npz``: the network in that file plays the recording seat."""
    from chkobba.rl.distill import Positions, actor_agent, play_game

    path = tmp_path / "w.npz"
    random_network(4).save(path)
    agent = actor_agent(str(path), 0)
    assert isinstance(agent, NeuralAgent) and agent.network is not None
    positions = Positions()
    play_game("scopa", 4, 2, 8, positions, actor=str(path))
    assert len(positions) > 5


def test_endgame_games_record_only_the_last_deal_with_exact_values(tmp_path: Path) -> None:
    """``--endgame``: decisions with the stock empty, both seats, each labelled by the exact
    solve: the move the solve prefers is worth no less than the actor's alternatives, and a
    second run writes the same shard."""
    from chkobba.rl.spaces import OBS_LAYOUT

    shards = []
    for name in ("a", "b"):
        out = tmp_path / name
        paths = list(generate("chkobba", 7, 6, 0, out, shard_games=6, actor="greedy",
                              endgame=True))
        assert [Path(p).name for p in paths] == ["chkobba-e7-g0000000.npz"]
        shards.append(load_shards([Path(paths[0])]))
    a, b = shards
    assert len(a) >= 6
    for field in ("obs", "values", "offsets", "chosen"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    stock = OBS_LAYOUT["stock"].start
    assert (a.obs[:, stock] == 0).all()  # the last deal only
    assert (np.diff(a.offsets) >= 2).all()
    for k in range(len(a)):
        v = a.values[a.offsets[k]:a.offsets[k + 1]]
        assert v[a.chosen[k]] == v.max()
