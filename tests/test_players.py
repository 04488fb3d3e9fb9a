"""``chkobba players`` and shell completion (issue 25, CLI habits)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chkobba.agents.base import AGENTS, _load_builtin
from chkobba.cli import main
from chkobba.players_command import PLAYERS
from chkobba.touti.agents import touti_players

ROOT = Path(__file__).parent.parent


def test_every_registered_player_and_level_is_listed() -> None:
    _load_builtin()
    listed = {(p.game, p.name) for p in PLAYERS} | {("chkobba", p.level) for p in PLAYERS}
    for name in AGENTS:
        assert ("chkobba", name) in listed, name
    for name in touti_players():
        assert ("touti", name) in listed, name
    for game in ("chkobba", "touti"):
        assert (game, "engine:COMMAND") in listed
    assert ("chkobba", "policy:PATH") in listed
    assert {p.level for p in PLAYERS if p.level} == {"easy", "medium", "hard", "expert"}


def _plain(text: str) -> str:
    return text.replace("\u2212", "-").replace(",", "")


@pytest.mark.parametrize("info", [p for p in PLAYERS if p.strength], ids=lambda p: p.name)
def test_every_strength_is_in_the_document_it_cites(info: object) -> None:
    """The figures are copied, not made up: the cited document has the margin and both
    ends of its interval on one line, under the cited section."""
    s = info.strength  # type: ignore[attr-defined]
    doc, section = s.source.split(", ", 1)
    text = (ROOT / doc).read_text()
    section = section.split(" (")[0]
    head = re.search(rf"^#+ {re.escape(section)}|\*\*{re.escape(section)}", text, re.M)
    assert head is not None, f"no section {section!r} in {doc}"
    start = head.start()
    low, high = s.interval.split(" to ")
    lines = [_plain(x) for x in text[start:].splitlines()]
    assert any(
        _plain(s.margin) in x and _plain(low) in x and _plain(high) in x for x in lines
    ), (s.margin, s.interval, doc)


def test_the_command_lists_them_with_their_strength() -> None:
    res = CliRunner().invoke(main, ["players"])
    assert res.exit_code == 0, res.output
    out = res.output
    for p in PLAYERS:
        assert p.name in out
    assert "+0.98 (+0.88 to +1.07) over easy, 1,000 pairs" in out
    assert "from docs/variants.md" in out and "Touti" in out
    data = json.loads(CliRunner().invoke(main, ["players", "--json", "--game", "touti"]).output)
    assert {d["name"] for d in data} == {"random", "technique", "search", "engine:COMMAND"}
    assert all(d["game"] == "touti" for d in data)


def test_shell_completion_is_click_s() -> None:
    """`eval "$(_CHKOBBA_COMPLETE=bash_source chkobba)"` as the README says."""
    runner = CliRunner()
    source = runner.invoke(main, [], prog_name="chkobba", env={"_CHKOBBA_COMPLETE": "bash_source"})
    assert "complete" in source.output and "_CHKOBBA_COMPLETE" in source.output
    done = runner.invoke(
        main, [], prog_name="chkobba",
        env={"_CHKOBBA_COMPLETE": "bash_complete", "COMP_WORDS": "chkobba pla",
             "COMP_CWORD": "1"},
    )  # fmt: skip
    assert "play" in done.output and "players" in done.output
    assert "_CHKOBBA_COMPLETE=bash_source chkobba" in (ROOT / "README.md").read_text()
