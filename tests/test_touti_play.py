"""``chkobba play --game touti``: a scripted session in the terminal."""

from __future__ import annotations

import io
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console

from chkobba.cli import main
from chkobba.touti.agents import make_touti_agent
from chkobba.touti.match import ToutiMatch
from chkobba.touti.record import ToutiRecord, replay
from chkobba.touti.session import ToutiSession
from chkobba.tui.session import Ending


class Script:
    """Answers: the scripted ones first, then the first listed move ('1') or Enter."""

    def __init__(self, answers: list[str], limit: int = 2000) -> None:
        self.answers = answers
        self.limit = limit

    def __call__(self, prompt: str) -> str:
        self.limit -= 1
        if self.limit < 0:
            raise EOFError
        if self.answers:
            return self.answers.pop(0)
        return "" if "Enter" in prompt else "1"


def session(tmp_path: Path, answers: list[str], limit: int = 2000) -> tuple[ToutiSession, str]:
    out = io.StringIO()
    s = ToutiSession(
        ToutiMatch(seed=12),
        {s: make_touti_agent("technique", s) for s in (1, 2, 3)},
        tmp_path / "rec.json",
        console=Console(file=out, width=100, highlight=False),
        ask=Script(answers, limit),
    )
    s.result = s.run()  # type: ignore[attr-defined]
    return s, out.getvalue()


def test_a_whole_match_is_played_and_saved(tmp_path: Path) -> None:
    s, text = session(tmp_path, [])
    assert s.result.ending is Ending.FINISHED  # type: ignore[attr-defined]
    rep = replay(ToutiRecord.load(tmp_path / "rec.json"))
    assert rep.winner == s.match.winner and rep.totals == s.match.totals
    assert "win the match" in text


def test_bad_input_is_explained_and_quit_saves(tmp_path: Path) -> None:
    s, text = session(tmp_path, ["", "zz", "99", "Qz", "q", "n", "q", "y"])
    assert s.result.ending is Ending.QUIT  # type: ignore[attr-defined]
    assert "type a move, or its number" in text
    assert "malformed card 'zz'" in text and "malformed card 'Qz'" in text
    assert "malformed bid '99'" in text
    assert "Let's play on." in text
    assert (tmp_path / "rec.json").exists()
    replay(ToutiRecord.load(tmp_path / "rec.json"))


def test_end_of_input_saves(tmp_path: Path) -> None:
    s, _ = session(tmp_path, [], limit=30)
    assert s.result.ending is Ending.END_OF_INPUT  # type: ignore[attr-defined]
    rep = replay(ToutiRecord.load(tmp_path / "rec.json"))
    assert rep.deals


def test_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    r = CliRunner().invoke(
        main,
        ["play", "--game", "touti", "--seed", "4", "--opponent", "technique",
         "--partner", "technique", "--save", str(path)],
        input="pass\n",
    )
    assert r.exit_code == 0, r.output
    assert "Touti" in r.output and "saved" in r.output
    assert ToutiRecord.load(path).meta["app"] == "chkobba play --game touti"  # type: ignore[index]
    r = CliRunner().invoke(main, ["play", "--game", "touti", "--players", "2"])
    assert r.exit_code == 2 and "4 players" in r.output
    r = CliRunner().invoke(main, ["play", "--target", "600"])
    assert r.exit_code == 2 and "Touti target" in r.output


def test_the_person_declares_names_trumps_and_plays(tmp_path: Path) -> None:
    _, text = session(tmp_path, ["230", "trump d"], limit=40)
    assert "You bid 230" in text
    assert "You name trumps: oros (d)" in text
    assert "You play" in text
    d = replay(ToutiRecord.load(tmp_path / "rec.json")).deals[0]
    assert d.declarer == 0 and d.trump == 2
