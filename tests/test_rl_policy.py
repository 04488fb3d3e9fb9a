"""Trained policies as players (``policy:PATH``): the file format, legal play, the commands."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from chkobba.agents import AGENTS, AgentError, make_agent
from chkobba.agents import base as agents_base
from chkobba.cli import main
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord
from chkobba.fishing.rules import preset
from chkobba.rl.policy import Policy, PolicyAgent, load_policy
from chkobba.rl.spaces import NUM_ACTIONS, OBS_SIZE

COMMITTED = Path(__file__).parent.parent / "examples" / "policies" / "ppo_vs_random.npz"


def random_policy(seed: int, hidden: int = 16) -> Policy:
    """A small network with random weights: it exercises every decision, capture choices too."""
    rng = np.random.default_rng(seed)
    sizes = [OBS_SIZE, hidden, NUM_ACTIONS]
    ws = tuple(rng.normal(size=(a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes))
    bs = tuple(rng.normal(size=b).astype(np.float32) for b in sizes[1:])
    return Policy(ws, bs, "tanh")


def play_out(agent: PolicyAgent, rules: str, seats: int, teams: bool, seed: int) -> int:
    """Play a match's first rounds with ``agent`` in every seat; the number of moves checked."""
    m = Match(preset(rules), seats, teams, seed=seed)
    n = 0
    while not m.is_over and m.round_number <= 2:
        obs = observe(m, m.turn)
        move = agent.choose(obs)
        assert move in obs.legal_moves
        m.apply(move)
        n += 1
    return n


def test_a_saved_policy_reads_back_and_plays_legal_moves(tmp_path: Path) -> None:
    """Save, load (float32 and float16) and play every preset's legal moves only."""
    pol = random_policy(1)
    for dtype in (np.float32, np.float16):
        path = tmp_path / f"p_{dtype.__name__}.npz"
        pol.save(path, dtype=dtype)
        back = load_policy(path)
        x = np.random.default_rng(0).random(OBS_SIZE, dtype=np.float32)
        atol = 0.05 if dtype is np.float16 else 1e-5
        assert np.allclose(back.logits(x), pol.logits(x), atol=atol)
    agent = make_agent(f"policy:{tmp_path / 'p_float32.npz'}", 0)
    assert isinstance(agent, PolicyAgent)
    for rules, seats, teams in [("chkobba", 2, False), ("chkobba", 4, True),
                                ("escoba", 3, False), ("scopa-frac", 2, False)]:
        assert play_out(agent, rules, seats, teams, seed=7) > 0


@pytest.mark.skipif(not COMMITTED.exists(), reason="the trained policy is not committed yet")
def test_the_committed_policy_loads_and_plays_legal_moves() -> None:
    """examples/policies/ppo_vs_random.npz is a valid chkobba_v1 policy that plays legally."""
    agent = make_agent(f"policy:{COMMITTED}", 0)
    for seed in range(3):
        assert play_out(agent, "chkobba", 2, False, seed) > 0  # type: ignore[arg-type]
    assert play_out(agent, "chkobba", 4, True, 9) > 0  # type: ignore[arg-type]


def test_bad_policy_files_are_clear_errors(tmp_path: Path) -> None:
    """A missing, corrupt or mismatched file is an AgentError that says what is wrong."""
    with pytest.raises(AgentError, match="cannot read policy"):
        make_agent(f"policy:{tmp_path / 'missing.npz'}")
    with pytest.raises(AgentError, match="needs a file"):
        make_agent("policy:")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(AgentError, match="not a policy file"):
        make_agent(f"policy:{junk}")
    other = tmp_path / "other.npz"
    np.savez(other, w0=np.zeros((3, 3)))
    with pytest.raises(AgentError, match="chkobba-policy/1"):
        make_agent(f"policy:{other}")
    narrow = tmp_path / "narrow.npz"
    Policy((np.zeros((OBS_SIZE, 4), np.float32),), (np.zeros(4, np.float32),)).save(narrow)
    with pytest.raises(AgentError, match="83 action logits"):
        make_agent(f"policy:{narrow}")
    skewed = tmp_path / "skewed.npz"
    Policy((np.zeros((10, 83), np.float32),), (np.zeros(83, np.float32),)).save(skewed)
    with pytest.raises(AgentError, match="layer 0"):
        make_agent(f"policy:{skewed}")


def test_duel_and_play_take_a_policy(tmp_path: Path) -> None:
    """``chkobba duel policy:PATH random`` runs; a bad path is one clear line, exit 2."""
    path = tmp_path / "p.npz"
    random_policy(2).save(path)
    runner = CliRunner()
    res = runner.invoke(main, ["duel", f"policy:{path}", "random", "--pairs", "3",
                               "--jobs", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["a"] == f"policy:{path}" and out["games"] == 6
    res = runner.invoke(main, ["duel", f"policy:{tmp_path / 'nope.npz'}", "random", "--pairs", "1"])
    assert res.exit_code == 2 and "cannot read policy" in res.output
    assert "Traceback" not in res.output
    for flag in ("--opponent", "--player"):
        res = runner.invoke(main, ["play", flag, f"policy:{tmp_path / 'nope.npz'}"])
        assert res.exit_code == 2 and "cannot read policy" in res.output
    saved = tmp_path / "game.json"
    res = runner.invoke(
        main, ["play", "--player", f"policy:{path}", "--save", str(saved)], input="q\ny\n"
    )
    assert res.exit_code == 0, res.output
    assert f"policy:{path}" in GameRecord.load(saved).names[1]
    res = runner.invoke(main, ["serve", "--player", f"policy:{tmp_path / 'nope.npz'}"])
    assert res.exit_code == 2 and "cannot read policy" in res.output


def test_the_web_app_offers_a_served_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``chkobba serve --player policy:PATH`` adds the policy to the levels a game may have."""
    from chkobba.games.chkobba import is_fair, levels

    path = tmp_path / "p.npz"
    random_policy(3).save(path)
    name = f"policy:{path}"
    monkeypatch.setattr(agents_base, "OFFERED", {})
    assert name not in levels() and not is_fair(name)
    aliases = []
    try:
        aliases.append(agents_base.offer(name))
        assert aliases[0] == "policy:p"  # short enough for the database's agent column
        assert levels()[-1] == "policy:p" and is_fair("policy:p")
        assert isinstance(make_agent("policy:p", random.Random(0).getrandbits(32)), PolicyAgent)
        assert agents_base.offer(name) == "policy:p"  # offering it again changes nothing
        other = tmp_path / "sub"
        other.mkdir()
        random_policy(4).save(other / "p.npz")
        aliases.append(agents_base.offer(f"policy:{other / 'p.npz'}"))
        assert aliases[1] == "policy:p-2" and levels()[-2:] == ["policy:p", "policy:p-2"]
    finally:
        for a in aliases:
            AGENTS.pop(a, None)
    with pytest.raises(AgentError):
        agents_base.offer(f"policy:{tmp_path / 'nope.npz'}")
