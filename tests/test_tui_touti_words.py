"""Touti in the terminal speaks the player's language (issue 27, §5): the story of the
game (each move, each trick, each deal's score), the computers' seats, the complaints,
and the coach's hints, from the catalogues (chkobba.words), not English."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from chkobba.cli import main
from chkobba.coach.games import TOUTI_COACH
from chkobba.touti.deal import Trick
from chkobba.touti.moves import Bid, Call, CardPlay
from chkobba.touti.narrate import describe_move, describe_trick, team_label
from chkobba.touti.record import ToutiRecord
from chkobba.tui.touti import hint_lines
from chkobba.words import word
from test_tui_touti import Script, run

ENGLISH_STORY = re.compile(
    r"\b(plays?|bids?|passes|won by|Contract|card points|the contract is|announces?|"
    r"Right|Left|Partner|Match score|deals)\b"
)
"""Words of the English story, which another language's story must not hold."""


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_a_whole_match_is_told_in_the_players_language(tmp_path: Path, lang: str) -> None:
    names = ["Amel", *(word(lang, "touti", f"seat_{i}") for i in (1, 2, 3))]
    result, text = run(tmp_path, Script([]), lang=lang, names=names)
    assert result.winner is not None
    story = [line for line in text.splitlines() if line.strip()]
    english = [line for line in story if ENGLISH_STORY.search(line)]
    assert not english, english[:5]
    say = lambda key, **v: word(lang, "touti", key, **v)  # noqa: E731
    # Each of the story's kinds of line is there, in the language.
    verb = say("log_play", name="", card="").split()[0]
    assert any(re.search(rf"\b{verb} [A2-7QJK][♠♥♦♣]", line) for line in story)
    for key, values in (
        ("log_trick", {"n": 1, "cards": "X", "name": ""}),
        ("log_contract", {"name": "X", "bid": "", "suit": ""}),
        ("log_made", {"total": "X", "bid": 0, "a": "", "pa": "", "b": "", "pb": ""}),
        ("log_team", {"team": "X", "points": 0}),
    ):
        assert say(key, **values).split("X")[0] in text, key
    assert say("team", a="Amel", b=names[2]) in text


def test_the_story_lines_in_each_language() -> None:
    names = ["Tu", "Destra", "Compagno", "Sinistra"]
    assert describe_move(1, Bid(90), names, lang="it") == "Destra dichiara 90"
    # The person, by the language's word for them, in the second person.
    assert describe_move(0, CardPlay(0), names, lang="it") == "Giochi A♠"
    assert describe_move(3, Call.NO_CANTO, names, lang="fr") == "Sinistra n'annonce rien"
    assert describe_move(2, Call.ZADTAK, names, bid=100, lang="es") == (
        "Compagno dice zadtak âachra, 10 más (100): Tu debe pujar al menos 110"
    )
    assert team_label(0, names, "fr") == "Tu et Compagno"
    trick = Trick(leader=1, cards=(0, 1, 2, 3), winner=1)
    assert describe_trick(trick, 4, names, "fr").startswith("Levée 4 : A♠ (Destra) ")
    assert describe_trick(trick, 4, names, "fr").endswith("; remportée par Destra")
    # Without a language, the English records have always had.
    assert describe_move(1, Bid(90), names) == "Destra bids 90"
    assert describe_trick(trick, 4, names).startswith("trick 4: A♠(Destra) ")


def test_complaints_in_the_players_language(tmp_path: Path) -> None:
    _, text = run(tmp_path, Script(["9", "45", "q", "s"]), lang="it")
    assert word("it", "terminal", "touti_no_move_number", n=9, count=1).split(":")[0] in text
    assert word("it", "terminal", "touti_not_a_bid", n=45, low=70, high=230).split(":")[0] in text


def test_the_command_line_names_the_seats_in_the_language(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        main,
        ["play", "--game", "touti", "--seed", "4", "--opponent", "technique", "--partner",
         "technique", "--save", str(tmp_path / "g.json"), "--lang", "it", "--name", "Amel"],
        input="q\ns\n",
    )
    assert r.exit_code == 0, r.output
    assert "Destra e Sinistra" in r.output and "Type ? for help" not in r.output
    record = ToutiRecord.load(tmp_path / "g.json")
    assert list(record.names) == ["Amel", "Destra", "Compagno", "Sinistra"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> ToutiRecord:
    """A whole match's record."""
    where = tmp_path_factory.mktemp("touti-words")
    run(where, Script([]), lang="en")
    return ToutiRecord.load(where / "rec.json")


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_coachs_hint_in_the_language(played: ToutiRecord, lang: str) -> None:
    record = played
    obs = next(o for _, _, o, _ in TOUTI_COACH.positions(record) if TOUTI_COACH.weighed(o))
    lines = hint_lines(obs, 1, lang=lang)
    out = io.StringIO()
    Console(file=out, width=200).print("\n".join(lines))
    text = out.getvalue()
    adviser, measure = TOUTI_COACH.said(lang)
    assert text.startswith(adviser) and measure in text
    first = word(lang, "coach", "touti_lead", card="").split()[0]
    other = word(lang, "coach", "touti_play_on", card="", on="").split()[0]
    trump = word(lang, "coach", "touti_trump_with", card="", on="").split()[0]
    assert any(f"— {w}" in text for w in (first, other, trump)), text
    assert "lead" not in text and "play " not in text and "sampled deals" not in text
