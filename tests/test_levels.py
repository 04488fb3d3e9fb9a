"""The play levels: what each one is, and where their order is measured.

The order easy < medium < hard < expert is a measurement, not a property a fast
test can check, so these tests hold the documentation to it: docs/variants.md has
the levels' table on every preset and table the presets allow (2 players, 2
against 2), each rung's verdict agrees with its interval, and the levels' module
points at that table.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import chkobba.agents.levels as levels
from chkobba.agents import make_agent
from chkobba.agents.expert import EXPERT_SAMPLES, ExpertAgent, budget
from chkobba.fishing.game import Phase, Round
from chkobba.fishing.observe import Observation, observe_round
from chkobba.fishing.rules import PRESETS, RuleSet
from chkobba.search import fast

ROOT = Path(__file__).parent.parent
VARIANTS_MD = ROOT / "docs" / "variants.md"
HEADING = "The levels on every preset"
RUNGS = ("medium vs easy", "hard vs medium", "expert vs hard", "expert vs medium")
"""Each level against the one below, and the expert against medium."""
TABLE_WORDS = {"2": "2 players", "2v2": "2 against 2"}
NOT_MEASURED = "not measured"
"""The margin cell of a rung whose duel is not played yet (its command is given)."""
NUMBER = re.compile(r"^[+-−]?\d+\.\d+$")


def section(text: str, heading: str) -> str:
    """The text under a ``###`` heading, up to the next heading of any level."""
    m = re.search(rf"^###\s+{re.escape(heading)}\s*$(.*?)(?=^#)", text, re.MULTILINE | re.DOTALL)
    assert m, f"docs/variants.md has no section {heading!r}"
    return m.group(1)


def rows() -> list[list[str]]:
    """The cells of each row of the levels' table (not its header or rule)."""
    out = []
    for line in section(VARIANTS_MD.read_text(encoding="utf-8"), HEADING).splitlines():
        if line.startswith("| ") and not line.startswith("| preset "):
            out.append([c.strip() for c in line.strip().strip("|").split("|")])
    return out


def number(text: str) -> float:
    """A signed figure as the tables print it (with an ASCII or a typographic minus)."""
    assert NUMBER.match(text), f"not a figure: {text!r}"
    return float(text.replace("−", "-"))


def test_every_preset_and_table_has_each_rung() -> None:
    found = {(r[0], r[1], r[2]) for r in rows()}
    missing = [
        f"{name} {TABLE_WORDS[t]} {rung}"
        for name, rules in PRESETS.items()
        for t in TABLE_WORDS
        if t in rules.seatings
        for rung in RUNGS
        if (name, TABLE_WORDS[t], rung) not in found
    ]
    assert not missing, "rungs missing from the levels' table: " + ", ".join(missing)


def test_no_row_names_an_unknown_preset_or_rung() -> None:
    for r in rows():
        assert r[0] in PRESETS, r
        assert r[1] in TABLE_WORDS.values(), r
        assert r[2] in RUNGS, r
        command = r[-1].startswith(("`chkobba duel ", "`python bench/strength.py "))
        assert command, f"each row gives its command: {r}"


@pytest.mark.parametrize(
    "row", [r for r in rows() if r[3] != NOT_MEASURED], ids=lambda r: " ".join(r[:3])
)
def test_each_verdict_follows_its_interval(row: list[str]) -> None:
    mean = number(row[3])
    low, to, high = row[4].partition(" to ")
    assert to, f"an interval is 'LOW to HIGH': {row[4]!r}"
    lo, hi = number(low), number(high)
    assert lo <= mean <= hi, row
    verdict = "yes" if lo > 0 else "no" if hi < 0 else "not shown"
    assert row[5] == verdict, f"{row[:3]}: {row[4]} is {verdict!r}, the table says {row[5]!r}"
    assert int(row[6].replace(",", "")) >= 100, "each rung is measured over 100 pairs or more"


def test_the_levels_point_at_their_table() -> None:
    assert HEADING in (levels.__doc__ or "")
    section(VARIANTS_MD.read_text(encoding="utf-8"), HEADING)


def test_hard_is_the_expert_with_fewer_uniform_samples() -> None:
    hard, expert = make_agent("hard", 1), make_agent("expert", 1)
    assert isinstance(hard, ExpertAgent) and isinstance(expert, ExpertAgent)
    assert hard.name == "hard"
    assert hard.samples == budget(levels.HARD_SAMPLES) < budget(EXPERT_SAMPLES) == expert.samples
    assert hard.temperature is None
    assert [make_agent(n, 0).name for n in levels.LEVELS[:2]] == ["greedy", "heuristic"]


def last_deal(rules: RuleSet, seed: int) -> Observation:
    """A 2-against-2 position of the last deal (the stock empty) with a choice to make."""
    rng = random.Random(seed)
    while True:
        deck = list(range(40))
        rng.shuffle(deck)
        r = Round(rules, 4, True, rng.randrange(4), deck)
        if r.phase is Phase.CUT:
            r.apply_unchecked(rng.choice(r.legal_moves()))
        while r.score is None and not r.void:
            if r.stock == 0 and len(r.legal_moves()) > 1:
                return observe_round(r, r.turn, (0, 0), 1, rules.target)
            r.apply_unchecked(rng.choice(r.legal_moves()))


@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "pure"])
@pytest.mark.parametrize(("preset", "solved"), [("ponino", False), ("scopa", True)])
def test_the_last_deal_is_solved_only_where_the_solver_scores_the_rules(
    monkeypatch: pytest.MonkeyPatch, preset: str, solved: bool, kernel: bool
) -> None:
    # Il ponino between partners needs the seat that took each knight, which the
    # solver does not keep: its last deal gets the search's whole budget, not a few
    # endgame splits played out.
    if kernel and not fast.AVAILABLE:
        pytest.skip(f"no kernel: {fast.BACKEND}")
    if not kernel:
        monkeypatch.setattr(fast, "AVAILABLE", False)
    obs = last_deal(PRESETS[preset], 5)
    calls: list[dict[str, Any]] = []
    original = fast.evaluate

    def spy(o: Observation, samples: int, seed: int, **kw: Any) -> list[float]:
        calls.append({"samples": samples, **kw})
        return original(o, samples, seed, **kw)

    monkeypatch.setattr(fast, "evaluate", spy)
    solves: list[Observation] = []
    monkeypatch.setattr(ExpertAgent, "_endgame", lambda self, o, known: solves.append(o) or [])
    agent = ExpertAgent(1, samples=40, endgame_samples=3)
    agent.evaluate(obs)
    if kernel:
        assert [c["samples"] for c in calls] == [3 if solved else 40]
        assert ("solve_cards" in calls[0]) == solved
    else:
        assert not calls
        assert bool(solves) == solved
