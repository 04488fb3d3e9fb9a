"""The terminal game in the player's language, its cards in the deck's words:
``chkobba play --lang it|es|fr|en|ar`` (default from the locale) and
:class:`chkobba.tui.words.Speech`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chkobba.cli import main
from chkobba.fishing.cards import Card, mask_of
from chkobba.fishing.game import Turn
from chkobba.fishing.moves import Cut, Play
from chkobba.fishing.record import GameRecord, replay
from chkobba.tui.words import Speech

FRENCH_SIGNS = re.compile("[♠♥♦♣]")


def play(card: str, *taken: str) -> Play:
    return Play(Card.parse(card), mask_of(Card.parse(t) for t in taken))


def test_english_on_french_cards_reads_as_it_always_has() -> None:
    s = Speech()
    assert s.move_text(play("7c", "3s", "4h")).plain == "7♣ takes 3♠ 4♥"
    assert s.move_text(play("5s")).plain == "lay 5♠"
    assert s.move_text(Cut.KEEP).plain == "keep it in your hand"
    turn = Turn(0, play("7c", "3s", "4h"), chkobba=True)
    assert s.turn_text(turn, ["Ann"], "chkobba").plain == (
        "Ann plays 7♣ and captures 3♠ 4♥  — chkobba!")


def test_italian_cards_in_italian_and_spanish_cards_in_spanish() -> None:
    it = Speech("it", "italian")
    line = it.turn_text(Turn(1, play("Jh", "4d", "5c"), chkobba=False), ["Ann", "Bea"], "scopa")
    assert line.plain == "Bea gioca Cavallo di coppe e prende 4 di denari, 5 di bastoni"
    assert it.move_text(play("7d")).plain == "cala 7 di denari"
    es = Speech("es", "spanish")
    assert es.move_text(play("Qd", "Ah", "7s")).plain == (
        "Sota de oros se lleva As de copas, 7 de espadas")
    assert es.turn_text(Turn(0, play("Kc"), chkobba=False), ["Ana"], "escoba").plain == (
        "Ana echa Rey de bastos")


def test_the_answer_yes_in_each_language() -> None:
    assert Speech("it").yes("sì") and Speech("es").yes("s") and Speech("fr").yes("oui")
    assert Speech("it").yes("y") and not Speech("it").yes("n")


def run(args: list[str], answers: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(main, ["play", *args], input=answers, env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.output


def test_play_in_italian_on_italian_cards(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    args = ["--rules", "scopa", "--seed", "5", "--opponent", "random", "--name", "Ann",
            "--lang", "it", "--save", str(path)]
    output = run(args, "1\n" * 2000)
    assert "La tua giocata (numero, carta, ? per l'aiuto):" in output
    assert "Le tue giocate:" in output and "Punteggio della partita:" in output
    assert "vince la partita!" in output
    # The story of the game names the cards in the Italian deck's words.
    story = [line for line in output.splitlines() if line.startswith("  Ann ")]
    assert story and any(" di " in line for line in story)
    assert not any(FRENCH_SIGNS.search(line) for line in story)
    assert replay(GameRecord.load(path)).winner is not None


def test_the_locale_chooses_the_language_and_lang_overrides_it(tmp_path: Path) -> None:
    args = ["--rules", "escoba", "--seed", "2", "--opponent", "random", "--name", "Ana"]
    spanish = run([*args, "--save", str(tmp_path / "a.json")], "q\ns\n",
                  env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "es_ES.UTF-8"})
    assert "Tu jugada" in spanish and "¿Salir ahora?" in spanish
    assert re.search(r"(As|Sota|Caballo|Rey|[2-7]) de (copas|oros|bastos|espadas)", spanish)
    english = run([*args, "--lang", "en", "--save", str(tmp_path / "b.json")], "q\ny\n",
                  env={"LANG": "es_ES.UTF-8"})
    assert "Your play" in english and "Quit now?" in english


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_every_language_plays_a_round(lang: str, tmp_path: Path) -> None:
    args = ["--seed", "3", "--opponent", "random", "--lang", lang,
            "--save", str(tmp_path / "g.json")]
    output = run(args, "1\n" * 40 + "q\n" + {"fr": "o", "ar": "ن"}[lang] + "\n")
    assert {"fr": "Votre coup", "ar": "لعبتك"}[lang] in output
