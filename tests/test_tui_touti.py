"""Touti's table in the one terminal session (issue 25): the same session, commands,
help and saving as the Chkobba family, in every language."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from chkobba.agents import make_agent
from chkobba.cli import main
from chkobba.fishing.match import Match
from chkobba.touti.agents import make_touti_agent
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import CardPlay
from chkobba.touti.record import ToutiRecord, replay
from chkobba.tui.session import COMMON_HELP, Ending, PlaySession, TerminalSession
from chkobba.tui.touti import ToutiSession
from chkobba.words import catalogue, word


class Script:
    """The scripted answers first; then '1' (the first listed move), or Enter where the
    prompt waits for it; ``interrupt_after`` answers, Ctrl-C."""

    def __init__(self, answers: list[str], interrupt_after: int | None = None) -> None:
        self.answers = answers
        self.interrupt_after = interrupt_after
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.interrupt_after is not None and len(self.prompts) > self.interrupt_after:
            raise KeyboardInterrupt
        if len(self.prompts) > 3000:
            raise EOFError
        if self.answers:
            return self.answers.pop(0)
        return "" if "Enter" in prompt or "Entrée" in prompt else "1"


def run(tmp_path: Path, script: Script, lang: str = "en", **options: Any) -> tuple[Any, str]:
    out = io.StringIO()
    s = ToutiSession(
        ToutiMatch(seed=3),
        {seat: make_touti_agent("technique", seat) for seat in (1, 2, 3)},
        tmp_path / "rec.json",
        console=Console(file=out, width=110, highlight=False),
        ask=script,
        lang=lang,
        **options,
    )
    result = s.run()
    return result, out.getvalue()


def test_touti_and_chkobba_are_the_one_session(tmp_path: Path) -> None:
    s = ToutiSession(
        ToutiMatch(seed=3),
        {seat: make_touti_agent("technique", seat) for seat in (1, 2, 3)},
        tmp_path / "t.json",
    )
    family = PlaySession(
        Match(seed=1), {1: make_agent("random", 1)}, ["A", "B"], tmp_path / "c.json"
    )
    assert isinstance(s, TerminalSession) and isinstance(family, TerminalSession)
    # Both drive their match through the game interface.
    assert s.table.match is s.match  # type: ignore[attr-defined]
    assert family.table.match is family.match  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_whole_match_against_the_computer_in_two_languages(tmp_path: Path, lang: str) -> None:
    result, text = run(tmp_path, Script([]), lang=lang)
    assert result.ending is Ending.FINISHED and result.saved == tmp_path / "rec.json"
    rep = replay(ToutiRecord.load(tmp_path / "rec.json"))
    assert rep.winner == result.winner is not None

    def say(key: str, **values: object) -> str:
        return word(lang, "terminal", key, **values)

    assert say("touti_deal", n=1) in text
    assert say("touti_your_hand").strip() in text
    assert say("touti_match_score", score="", target=600).split("{")[0][:10] in text
    assert re.search(re.escape(say("win", name="X")).replace("X", ".+"), text)
    if lang == "fr":
        assert "Your hand" not in text and "Match score" not in text


def test_help_is_the_games_moves_and_the_commands_every_game_shares(tmp_path: Path) -> None:
    result, text = run(tmp_path, Script(["?", "q", "y"]))
    assert result.ending is Ending.QUIT
    for line in Console(file=io.StringIO()).render_str(COMMON_HELP).plain.splitlines():
        assert line.strip() in text
    assert "trump d" in text and "Trick order" in text
    # The coach's lines, as in the Chkobba family's help.
    assert "hint" in text and "(off: start with --hints)" in text and "unseen" in text


def test_illegal_input_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    # 'Ad' in the bidding: a card, but no card may be played now; 'canto h' neither.
    result, text = run(tmp_path, Script(["Ad", "canto h", "50", "trump", "q", "y"]))
    assert result.ending is Ending.QUIT
    refusals = [line for line in text.splitlines() if line.startswith("✗")]
    assert len(refusals) == 4, refusals
    assert all(len(r) > 10 for r in refusals)
    assert "50 is not a bid: bids are 70 to 230 by tens" in text
    # Nothing refused was played: the record holds the computers' moves, none of the person's.
    assert all(seat != 0 for seat, _ in result_moves(tmp_path))


def result_moves(tmp_path: Path) -> list[Any]:
    rep = replay(ToutiRecord.load(tmp_path / "rec.json"))
    return [mv for d in rep.deals for mv in d.history]


@pytest.mark.parametrize("answers", [["q", "y"], ["q", "n", "q", "yes"]])
def test_quitting_saves_the_game_so_far(tmp_path: Path, answers: list[str]) -> None:
    result, text = run(tmp_path, Script(["1", "1", *answers]))
    assert result.ending is Ending.QUIT
    assert "Game record saved to" in text and "replay it with" in text
    replay(ToutiRecord.load(tmp_path / "rec.json"))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_ctrl_c_saves_exactly_the_moves_shown(tmp_path: Path, lang: str) -> None:
    result, text = run(tmp_path, Script([], interrupt_after=25), lang=lang)
    assert result.ending is Ending.INTERRUPTED
    moves = result_moves(tmp_path)
    assert moves, "some moves were played before Ctrl-C"
    # Every card in the record was shown being played, and no more (the narration names
    # each card played once, in its trick line too).
    played = [m for _, m in moves if isinstance(m, CardPlay)]
    # The verb of a play in the language spoken ("plays", "play"; "joue", "jouez").
    verbs = {
        catalogue(lang)["touti"][key].split("{card}")[0].split()[-1]
        for key in ("log_play", "log_play_you")
    }
    plays = re.compile(rf"\b(?:{'|'.join(verbs)}) [A2-7QJK][♠♥♦♣]")
    shown_plays = [line for line in text.splitlines() if plays.search(line)]
    assert len(shown_plays) == len(played)


def test_the_command_line_plays_touti_in_french(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    r = CliRunner().invoke(
        main,
        ["play", "--game", "touti", "--seed", "4", "--opponent", "technique", "--partner",
         "technique", "--save", str(path), "--lang", "fr"],
        input="?\nq\no\n",
    )
    assert r.exit_code == 0, r.output
    assert word("fr", "terminal", "touti_your_move") in r.output
    assert word("fr", "terminal", "touti_deal", n=1) in r.output
    assert ToutiRecord.load(path).meta["app"] == "chkobba play --game touti"  # type: ignore[index]


def test_touti_refuses_what_it_does_not_have_with_a_clear_message() -> None:
    r = CliRunner().invoke(main, ["play", "--game", "touti", "--trainer"])
    assert r.exit_code == 2 and "--trainer asks Chkobba's card-counting questions" in r.output


def test_the_chkobba_familys_help_has_the_same_shared_lines(tmp_path: Path) -> None:
    out = io.StringIO()
    s = PlaySession(
        Match(seed=1),
        {1: make_agent("random", 1)},
        ["A", "B"],
        tmp_path / "c.json",
        console=Console(file=out, width=110, highlight=False),
        ask=Script(["?", "q", "y"]),
    )
    assert s.run().ending is Ending.QUIT
    for line in Console(file=io.StringIO()).render_str(COMMON_HELP).plain.splitlines():
        assert line.strip() in out.getvalue()


def test_a_hint_goes_through_the_coach_seam_and_is_noted(tmp_path: Path) -> None:
    asked: list[int] = []

    def hinter(obs: Any, seed: int) -> list[str]:
        asked.append(len(obs.legal_moves))
        return ["[bold]the seam's hint[/bold]"]

    out = io.StringIO()
    console = Console(file=out, width=110, highlight=False)
    s = ToutiSession(
        ToutiMatch(seed=3),
        {seat: make_touti_agent("technique", seat) for seat in (1, 2, 3)},
        tmp_path / "rec.json",
        console=console,
        ask=Script(["hint", "q", "y"]),
        hints=True,
    )
    s.touti_coach.hinter = hinter
    assert s.run().ending is Ending.QUIT
    assert asked and "the seam's hint" in out.getvalue()
    meta = ToutiRecord.load(tmp_path / "rec.json").meta
    assert meta is not None and meta["coach"]["hints"] == 1
