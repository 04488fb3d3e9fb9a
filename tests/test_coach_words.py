"""The coach's sentences in the player's language and the deck's words (issue 27 §1, §2):
the Chkobba family's hints and analysis sentences (chkobba.coach.explain), the
terminal coach's messages and help, Touti's help and parlé's questions and answers,
all from the catalogues; the records keep their English."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chkobba.cli import main
from chkobba.coach.analysis import analyze
from chkobba.coach.counting import ask
from chkobba.coach.explain import Speech, difference, sentence
from chkobba.coach.games import round_positions
from chkobba.coach.hints import hint
from chkobba.coach.summary import Summary, chart
from chkobba.fishing.record import GameRecord
from chkobba.touti.moves import Ask, Tell
from chkobba.touti.narrate import describe_move
from chkobba.touti.parle import answer_words, question_words
from chkobba.tui.session import Ending
from chkobba.words import LANGUAGES, word
from test_tui_touti import Script, run

FRENCH_SIGNS = re.compile("[♠♥♦♣]")
ENGLISH_COACH = re.compile(
    r"\b(laid|took|swept|kept|offers?|unseen|better play|play made|the table|none|"
    r"can be taken|secures|sampled|expected|round margin|to any|of 4|takes)\b"
)
"""Words of the coach's English sentences, which another language's must not hold."""


def play_cli(args: list[str], answers: str) -> str:
    result = CliRunner().invoke(main, ["play", *args], input=answers)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.output


def test_the_terminal_hint_in_italian_on_a_scopa_game(tmp_path: Path) -> None:
    args = ["--rules", "scopa", "--seed", "5", "--opponent", "random", "--name", "Ann",
            "--lang", "it", "--hints", "--save", str(tmp_path / "g.json")]
    output = play_cli(args, "hint\nq\ns\n")
    text = " ".join(output.split())  # Rich wraps the long lines
    head = word("it", "coach", "adviser_chkobba")
    assert head in text and word("it", "coach", "measure_chkobba") in text
    hint = text[text.index(head):text.index("Consigli in questa partita: 1")]
    plays = re.findall(r"\d\. \S+ +[-+]\d\.\d\d ± \d\.\d\d — (.*?)(?= \d\. \S+ +[-+]|$)", hint)
    assert len(plays) >= 2, hint
    for said in plays:
        assert not ENGLISH_COACH.search(said), said
        # The cards in the Italian deck's words, never French signs.
        assert " di " in said and not FRENCH_SIGNS.search(said), said
        assert said.split()[0] in ("calato", "preso", "spazzato"), said
    assert "Hints this game" not in text and "The expert" not in text
    assert "Registrazione della partita salvata in" in text and "Game record" not in text


@pytest.fixture(scope="module")
def scopa_record(tmp_path_factory: pytest.TempPathFactory) -> GameRecord:
    path = tmp_path_factory.mktemp("scopa") / "g.json"
    args = ["--rules", "scopa", "--seed", "11", "--opponent", "random", "--name", "Ann",
            "--lang", "it", "--save", str(path)]
    play_cli(args, "1\n" * 2000)
    return GameRecord.load(path)


@pytest.mark.parametrize(
    ("lang", "deck"), [("it", "italian"), ("es", "spanish"), ("fr", "french"), ("ar", "italian")]
)
def test_every_sentence_of_a_game_in_another_language(
    scopa_record: GameRecord, lang: str, deck: str
) -> None:
    said = Speech(lang, deck)
    seen = 0
    for _, _, obs, move, _ in round_positions(scopa_record):
        for best in obs.legal_moves:
            for text in (sentence(obs, move, said), difference(obs, move, best, said)):
                assert "{" not in text and not ENGLISH_COACH.search(text), text
                if deck != "french":
                    assert not FRENCH_SIGNS.search(text), text
                seen += 1
    assert seen > 50


def test_english_on_the_french_deck_is_what_the_records_always_said(
    scopa_record: GameRecord,
) -> None:
    for _, _, obs, move, _ in round_positions(scopa_record):
        assert sentence(obs, move) == sentence(obs, move, Speech("en", "french"))
        text = sentence(obs, move)
        assert text.split()[0] in ("laid", "took", "swept", "kept", "put"), text


def test_touti_help_in_french(tmp_path: Path) -> None:
    result, text = run(tmp_path, Script(["?", "q", "o"]), lang="fr")
    assert result.ending is Ending.QUIT
    flat = " ".join(text.split())
    for english in ("How to answer", "Trick order", "this help", "show the board again",
                    "(off: start with --hints)", "show or hide"):
        assert english not in flat, english
    for french in ("Comment répondre", "Ordre des plis", "cette aide", "réafficher la table",
                   "(désactivé : lancez avec --hints)", "Entraîneur"):
        assert french in flat, french


def test_parle_questions_and_answers_in_french() -> None:
    names = ["Vous", "Droite", "Partenaire", "Gauche"]
    asked = describe_move(2, Ask("aces"), names, lang="fr")
    assert asked == "Partenaire demande à Vous : as (1, allas) : combien ?"
    told = describe_move(0, Tell("aces", (2,)), names, lang="fr")
    assert told.endswith(": as (1, allas) : 2")
    assert question_words("shape", "fr").startswith("combien de cartes")
    assert answer_words("cantos", (), "fr") == "aucune annonce"
    assert answer_words("voids", (1,), "fr") == "chicanes : 1 (je coupe en 1er)"
    # The records' English is unchanged.
    assert question_words("aces") == "how many aces (1, allas)?"
    assert answer_words("aces", (2,)) == "2 aces (1, allas)"


def test_the_coach_help_in_the_terminal_in_spanish(tmp_path: Path) -> None:
    output = play_cli(["--rules", "escoba", "--seed", "2", "--opponent", "random",
                       "--lang", "es", "--save", str(tmp_path / "e.json")], "?\nhint\nq\ns\n")
    flat = " ".join(output.split())
    assert "Entrenador" in flat and "(desactivadas: empieza con --hints)" in flat
    assert word("es", "terminal", "coach_hints_off") in flat
    assert "Hints are off" not in flat and "off: start" not in flat


def test_a_hint_and_an_analysis_carry_their_words_in_every_language(
    scopa_record: GameRecord,
) -> None:
    # What the web coach shows in the page's language; ``words`` stays the records' English.
    obs = next(o for _, _, o, _, _ in round_positions(scopa_record) if len(o.legal_moves) > 1)
    h = hint(obs, seed=1, samples=40).to_json()
    for p in h["plays"]:
        assert set(p["said"]) == set(LANGUAGES)
        assert p["said"]["en"] != p["said"]["it"]
        assert not ENGLISH_COACH.search(p["said"]["it"]) and " di " in p["said"]["it"]
        assert p["words"].split()[0] in ("laid", "took", "swept")
    a = analyze(scopa_record, samples=40, batches=2, rounds=[1]).to_json()
    assert a["decisions"]
    for d in a["decisions"]:
        assert d["said"]["en"] == d["words"]
        for lang in ("fr", "it", "es", "ar"):
            assert not ENGLISH_COACH.search(d["said"][lang]), d["said"][lang]
            assert not re.search(r"\b(Better|the best play|legal play)\b", d["said"][lang])


def test_the_trainer_asks_and_explains_in_every_language(scopa_record: GameRecord) -> None:
    kinds = set()
    for i, (_, _, obs, _, _) in enumerate(round_positions(scopa_record)):
        if not obs.legal_moves or obs.cut_card is not None:
            continue
        q = ask(obs, random.Random(i))
        kinds.add(q.kind)
        assert set(q.said) == set(LANGUAGES)
        # English is the question as it always was (the cards in the deck's words); the
        # others have no English left.
        assert q.said["en"][0].split()[0] == q.prompt.split()[0] in ("Which", "Is")
        for lang in ("fr", "it", "es", "ar"):
            prompt, why = q.said[lang]
            for text in (prompt, why):
                assert "{" not in text and not FRENCH_SIGNS.search(text), text
                assert not re.search(r"\b(Which|unseen|sweeps|Is laying|none|yes|of the)\b", text)
        assert q.to_json()["said"]["it"]["prompt"] == q.said["it"][0]
    assert kinds == {"rank", "suit", "safe"}


def test_the_terminal_trainer_in_italian(tmp_path: Path) -> None:
    args = ["--rules", "scopa", "--seed", "3", "--opponent", "random", "--name", "Ann",
            "--lang", "it", "--trainer", "--save", str(tmp_path / "t.json")]
    output = play_cli(args, "\n1\n" * 60 + "q\ns\n")
    flat = " ".join(output.split())
    assert "Allenamento:" in flat and "Saltata." in flat
    assert "Trainer" not in flat and "Skipped" not in flat and "Which" not in flat


def test_the_summary_after_a_game_in_spanish(tmp_path: Path) -> None:
    args = ["--rules", "escoba", "--seed", "4", "--opponent", "random", "--name", "Ana",
            "--lang", "es", "--hints", "--save", str(tmp_path / "s.json")]
    flat = " ".join(play_cli(args, "1\n" * 2000).split())
    assert word("es", "coach", "per_category") in flat and ": ganados " in flat
    assert "Gráfico guardado en" in flat
    assert "Points per category" not in flat and ", lost " not in flat


def test_the_chkobba_familys_help_in_italian(tmp_path: Path) -> None:
    args = ["--rules", "scopa", "--seed", "5", "--opponent", "random", "--name", "Ann",
            "--lang", "it", "--save", str(tmp_path / "h.json")]
    flat = " ".join(play_cli(args, "?\nq\ns\n").split())
    for italian in ("Come rispondere", "questo aiuto", "Semi: s ♠ spade", "Q = fante (8)",
                    "Una carta può prendere", "Allenatore", "(disattivati: avvia con --hints)"):
        assert italian in flat, italian
    for english in ("How to answer", "this help", "Suits:", "Ranks:", "A card may take",
                    "must capture", "show or hide"):
        assert english not in flat, english


def test_the_english_help_in_the_catalogue_is_the_terminals() -> None:
    # The English texts are kept once more in code for the other commands; they must agree.
    from chkobba.tui.session import COMMON_HELP, HELP

    assert word("en", "terminal", "family_help") == HELP
    assert word("en", "terminal", "common_help") == COMMON_HELP


def test_analyze_in_italian(scopa_record: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    scopa_record.save(path)
    result = CliRunner().invoke(
        main,
        ["analyze", str(path), "--samples", "40", "--batches", "2", "--round", "1",
         "--lang", "it"],
    )
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    for italian in ("Analisi di", "decisioni", "Mano 1", "punti persi in tutto", "Cifre:",
                    "stime dell'esperto"):
        assert italian in flat, italian
    for english in ("Analysis of", "points lost", "Biggest mistakes", "Figures:", "expert's",
                    "Better:", "the best play", "laid ", "took "):
        assert english not in flat, english


def test_the_summary_chart_in_the_players_language() -> None:
    s = Summary(("scope",), ("scope",), ((2, 1),), ("Ann", "Bea"), 3)
    assert "Punti per categoria in 3 mani" in chart(s, "svg", "it").decode()
    assert "Points per category over 3 rounds" in chart(s, "svg").decode()
    one = Summary(("scope",), ("scope",), ((2, 1),), ("Ann", "Bea"), 1)
    assert "Punti per categoria in 1 mano:" in chart(one, "svg", "it").decode()
    assert "Points per category over 1 round:" in chart(one, "svg").decode()
    # Matplotlib does not join Arabic letters: the chart stays English there.
    assert "Points per category" in chart(s, "svg", "ar").decode()


def test_the_family_game_begins_in_the_players_language(tmp_path: Path) -> None:
    args = ["--rules", "scopa", "--players", "3", "--seed", "5", "--opponent", "random",
            "--name", "Ann", "--lang", "es", "--save", str(tmp_path / "i.json")]
    first = play_cli(args, "q\ns\n").splitlines()[0]
    assert first.startswith("Scopa: tú contra 2 ordenadores (random), cada uno por su cuenta")
    assert "semilla 5" in first and "Type ? for help" not in first
    # The computers are named by their place in the player's language, in the record too.
    assert GameRecord.load(tmp_path / "i.json").names == ["Ann", "Derecha", "Izquierda"]
