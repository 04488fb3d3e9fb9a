"""Reference ``chkobba_v1`` playthroughs: any change to the spaces shows as a diff.

After OpenSpiel's playthroughs: a seeded episode of the PettingZoo environment
written step by step (the agent, the non-zero entries of its observation vector,
its legal actions and the action taken, chosen by a seeded ``random.Random``, and
the rewards). The files under ``tests/data/rl/`` are ``chkobba_v1``: a change to
them is a change to the spaces, which needs a new version (``docs/rl.md``).
Regenerate them, for a new version only, with ``python tests/test_rl_playthrough.py``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from chkobba.rl.aec import raw_env
from chkobba.rl.spaces import VERSION, action_name

DATA = Path(__file__).parent / "data" / "rl"
# The sum-to-15 escoba of rules version 1 is escoba-del-15 now (docs/variants.md): the same
# episode, and the same spaces.
EPISODES = [("chkobba", 2, False, 1), ("escoba-del-15", 2, False, 4), ("chkobba", 4, True, 2)]


def playthrough(rules: str, seats: int, teams: bool, seed: int) -> str:
    """One seeded episode of ``raw_env`` as text."""
    e = raw_env(rules, seats, teams)
    e.reset(seed=seed)
    rng = random.Random(seed)
    lines = [f"{VERSION} {rules} seats={seats} teams={teams} seed={seed}"]
    step = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        if term or trunc:
            lines.append(f"end {agent} reward {reward:+g}")
            e.step(None)
            continue
        vec = obs["observation"]
        entries = " ".join(
            str(i) if vec[i] == 1 else f"{i}={vec[i]:.4g}" for i in np.flatnonzero(vec)
        )
        legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        action = rng.choice(legal)
        lines += [
            f"step {step} {agent}",
            f"  obs {entries}",
            f"  legal {' '.join(action_name(a) for a in legal)}",
            f"  action {action_name(action)}",
        ]
        e.step(action)
        step += 1
    return "\n".join(lines) + "\n"


def path_of(rules: str, seats: int, teams: bool, seed: int) -> Path:
    """Where the reference text of an episode lives."""
    return DATA / f"{rules}_{'2v2' if teams else seats}_{seed}.txt"


@pytest.mark.parametrize(("rules", "seats", "teams", "seed"), EPISODES)
def test_playthrough_is_unchanged(rules: str, seats: int, teams: bool, seed: int) -> None:
    """The environment plays the checked-in episode step for step."""
    want = path_of(rules, seats, teams, seed).read_text()
    assert playthrough(rules, seats, teams, seed) == want


def test_the_playthroughs_include_a_capture_choice() -> None:
    """At least one reference episode chooses a capture action by action."""
    texts = [path_of(*ep).read_text() for ep in EPISODES]
    assert any("action take(" in t for t in texts)


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    for ep in EPISODES:
        path_of(*ep).write_text(playthrough(*ep))
        print(f"wrote {path_of(*ep)}", file=sys.stderr)
