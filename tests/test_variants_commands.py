"""``chkobba rules``, ``chkobba play --rules`` and round breakdowns in each game's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chkobba.cli import main
from chkobba.fishing.cards import CardError, face_name, parse_cards
from chkobba.fishing.narrate import breakdown_lines, describe_turn, narrate_round
from chkobba.fishing.record import GameRecord, replay
from chkobba.fishing.rules import OPTION_HELP, PRESET_DESCRIPTIONS, PRESETS, RulesError, preset
from chkobba.fishing.scoring import score_round
from chkobba.search import fast


def cards(text: str) -> int:
    return parse_cards(text, " ") if text.strip() else 0


def test_chkobba_breakdown_is_unchanged() -> None:
    """The Chkobba breakdown keeps its lines word for word (Arabic names, bājī)."""
    a, b = cards("7d 7s 6h Ad 2d 3d Kc Qc Jc Ks"), cards("7h 6s 5d Qs Js 2c 6c")
    assert breakdown_lines(score_round([a, b], [2, 1]), (0, 1), ["Ann", "Bob"]) == [
        "kārṭa (كارطة): Ann  [10 vs 7 cards]",
        "dīnārī (ديناري): Ann  [4 vs 1 diamonds]",
        "barmīla (برميلة): Ann  [2 vs 1 7s (6s: 1 vs 2)]",
        "sabʿa l-ḥayya (سبعة الحيّة): Ann  [7♦]",
        "chkobba (شكبّة): Ann 2, Bob 1",
        "round points: Ann 6, Bob 1",
    ]
    a, b = cards("7s 6h Ad 2d Kc"), cards("7h 6s 5d Qs Js")
    assert breakdown_lines(score_round([a, b], [0, 0]), (0, 1, 0, 1)) == [
        "kārṭa (كارطة): nobody (bājī)  [5 vs 5 cards]",
        "dīnārī (ديناري): seat 0 & seat 2  [2 vs 1 diamonds]",
        "barmīla (برميلة): nobody (bājī)  [1 vs 1 7s (6s: 1 vs 1)]",
        "sabʿa l-ḥayya (سبعة الحيّة): nobody (bājī)  [7♦]",
        "chkobba (شكبّة): seat 0 & seat 2 0, seat 1 & seat 3 0",
        "round points: seat 0 & seat 2 1, seat 1 & seat 3 0",
    ]


def test_scopa_breakdown_names_its_points_in_italian() -> None:
    """§3 Scopa: carte, denari, settebello, primiera, scope; a tie is patta."""
    a, b = cards("7d 7s 6h Ad 2d Kc Qc Jc Ks"), cards("7h 6s 5d Qs Js 2c 6c 3d 4h")
    lines = breakdown_lines(score_round([a, b], [1, 0], preset("scopa")), (0, 1), ["Ann", "Bob"])
    assert lines == [
        "carte: nobody (patta)  [9 vs 9 cards]",
        "denari: Ann  [3 vs 2 denari]",
        "settebello: Ann  [7♦]",
        "primiera: Bob  [70 vs 72]",
        "scope: Ann 1, Bob 0",
        "round points: Ann 3, Bob 1",
    ]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("escoba", ["cartas", "oros", "siete de velo", "primera", "escobas"]),
        ("chkop", ["cartes", "dénars", "première", "septébel", "scope"]),
        ("re-bello", ["re bello", "K♦"]),
        ("napola", ["napola"]),
        ("scopa-frac", ["frac", "spareggio"]),
    ],
)
def test_each_game_names_its_points_in_its_own_words(name: str, words: list[str]) -> None:
    rules = preset(name)
    s = score_round([cards("7d 7s Ad 2d 3d Kd"), cards("7h 6s 5d Kh")], [0, 0], rules)
    text = "\n".join(breakdown_lines(s, (0, 1)))
    for w in words:
        assert w in text, w
    assert "kārṭa" not in text and "chkobba" not in text


def test_a_sweep_is_called_in_the_games_word() -> None:
    r = replay(GameRecord.load(Path(__file__).parent / "data/cases/scopa/legal-01.json"))
    text = "\n".join(narrate_round(r.rounds[0], 1))
    assert "— scopa!" in text and "— chkobba!" not in text
    assert text.startswith("Round 1: seat 1 deals, seat 0 leads")
    assert "table dealt: 2♦ Q♦ 3♥ K♣" in text
    sweep = next(t for t in r.rounds[0].history if t.chkobba)
    assert describe_turn(sweep).endswith("— chkobba!"), "the default word stays Chkobba's"


# -- chkobba rules -------------------------------------------------------------------


def test_rules_lists_every_preset_with_its_description() -> None:
    result = CliRunner().invoke(main, ["rules"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == [*PRESETS, "touti"]
    for line, name in zip(lines, PRESETS, strict=False):
        assert line.endswith(PRESET_DESCRIPTIONS[name])
    assert "chkobba rules touti" in lines[-1] and "--game touti" in lines[-1]
    assert "touti" in json.loads(CliRunner().invoke(main, ["rules", "--json"]).output)


@pytest.mark.parametrize("name", ["scopa", "chkobba", "cirulla"])
def test_rules_options_help_is_one_column(name: str) -> None:
    """Each option's help starts in the same column, long values (seatings, scoring)
    included."""
    text = CliRunner().invoke(main, ["rules", name]).output
    lines = text.splitlines()
    starts = set()
    for key in PRESETS[name].options():
        line = next(x for x in lines if x.endswith(OPTION_HELP[key]) and x.strip())
        starts.add(len(line) - len(OPTION_HELP[key]))
    assert len(starts) == 1, text


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_name_shows_the_options_and_points(name: str) -> None:
    result = CliRunner().invoke(main, ["rules", name])
    assert result.exit_code == 0, result.output
    text = result.output
    assert PRESET_DESCRIPTIONS[name] in text
    for key in PRESETS[name].options():
        assert f" {key} " in text, key
    for key in PRESETS[name].scoring:
        assert f"  {key}" in text, key
    data = json.loads(CliRunner().invoke(main, ["rules", name, "--json"]).output)
    assert preset(name, data["options"]) == PRESETS[name]


def test_rules_marks_what_differs_from_chkobba() -> None:
    text = CliRunner().invoke(main, ["rules", "scopa"]).output
    assert "* target" in text and "* cut_choice" in text and "  may_drop_capturing_card" in text
    assert "* max_capture_cards       = 2 " in text and "* fewest_cards            = true " in text
    assert "2, 3, 4, 2v2, 6" in text
    text = CliRunner().invoke(main, ["rules", "cirulla"]).output
    assert "* wild_seven_keeps_value  = true " in text


def test_rules_of_version_1_say_what_they_are_now() -> None:
    """scopa-strict and the sum-to-15 escoba were presets of rules version 1."""
    result = CliRunner().invoke(main, ["rules", "scopa-strict"])
    assert result.exit_code == 1
    assert "in records of rules version 1 it is scopa with fewest_cards=false" in result.output
    assert "scopa-many" in CliRunner().invoke(main, ["rules"]).output
    assert "escoba-del-15" in CliRunner().invoke(main, ["rules"]).output


def test_rules_unknown_name_is_an_error() -> None:
    result = CliRunner().invoke(main, ["rules", "tresette"])
    assert result.exit_code == 1
    assert "unknown rules 'tresette'" in result.output


# -- chkobba play --rules ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args", "words"),
    [
        ("scopa", [], ["settebello", "primiera", "leads", "first to 11", "3 more cards each"]),
        ("scopone-scientifico", ["--partner", "random"], ["primiera", "Partner"]),
        ("scopa-a-perdere", [], ["fewest points win"]),
    ],
)
def test_play_a_preset_to_the_end(
    tmp_path: Path, name: str, args: list[str], words: list[str]
) -> None:
    """Issue 5: each preset plays end to end in ``chkobba play`` and verifies from its record."""
    path = tmp_path / "game.json"
    cli = ["play", "--rules", name, "--opponent", "random", "--seed", "4", "--save", str(path)]
    result = CliRunner().invoke(main, [*cli, *args], input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    rec = GameRecord.load(path)
    assert rec.rules == name and rec.options == {}
    assert replay(rec).winner is not None
    for w in words:
        assert w in result.output, w
    assert "chkobba" not in result.output.replace("chkobba replay", "")
    if name == "scopone-scientifico":
        assert "more cards each" not in result.output, "10 cards each at once, no further deal"


def test_play_refuses_a_table_the_rules_do_not_have(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["play", "--rules", "scopone", "--players", "2", "--save", str(tmp_path / "g")]
    )
    assert result.exit_code == 2
    assert "scopone is not played with --players 2" in result.output
    # Only the tables `play` seats, in its own options.
    assert "(its tables: --players 4)" in result.output


def test_play_six_players_against_five_computers(tmp_path: Path) -> None:
    """scopa-wikipedia-fr.txt:11: six players each for themselves; the board lists the
    six seats, one row each."""
    path = tmp_path / "six.json"
    cli = ["play", "--rules", "scopa", "--players", "6", "--opponent", "random", "--seed", "2"]
    result = CliRunner().invoke(main, [*cli, "--save", str(path)], input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert "you against five computers (random)" in result.output
    board = result.output[result.output.index("Players") :]
    board = board[: board.index("Your hand")]
    for name in ("(you)", "Right", "Far right", "Opposite", "Far left", "Left"):
        assert name in board, name
    rec = GameRecord.load(path)
    assert rec.seats == 6 and rec.names is not None and len(rec.names) == 6
    assert replay(rec).winner is not None


@pytest.mark.parametrize(("name", "target"), [("scopa", 16), ("chkobba", 15)])
def test_play_to_any_target(tmp_path: Path, name: str, target: int) -> None:
    """scopa-wikipedia-fr.txt:49: "onze (ou seize, ou vingt et un)": any positive target."""
    path = tmp_path / "game.json"
    cli = ["play", "--rules", name, "--opponent", "random", "--seed", "4", "--save", str(path)]
    result = CliRunner().invoke(main, [*cli, "--target", str(target)], input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert f"first to {target}" in result.output
    rec = GameRecord.load(path)
    assert rec.options == {"target": target}
    assert max(replay(rec).totals) >= target


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("chkobba", ["Q the queen (8), J the jack (9), K the king (10)", "diamonds (dīnārī)"]),
        ("scopa", ["Q the fante (8), J the cavallo (9), K the re (10)", "denari (the coins)"]),
        ("escoba", ["Q the sota (8), J the caballo (9), K the rey (10)", "oros (the coins)"]),
    ],
)
def test_the_help_names_the_faces_in_the_games_deck(
    tmp_path: Path, name: str, words: list[str]
) -> None:
    """scopa-wikipedia-fr.txt:19: 8 fante, 9 cavallo, 10 re; the notation stays Q J K."""
    cli = ["play", "--rules", name, "--opponent", "random", "--seed", "4"]
    result = CliRunner().invoke(
        main, [*cli, "--save", str(tmp_path / "g.json")], input="?\n" + "1\n" * 3000
    )
    assert result.exit_code == 0, result.output[-2000:]
    text = " ".join(result.output.split())
    for w in words:
        assert w in text, w


@pytest.mark.parametrize(
    ("rank", "deck", "name"),
    [
        ("Q", "italian", "fante"),
        ("J", "italian", "cavallo"),
        ("K", "italian", "re"),
        ("Q", "spanish", "sota"),
        ("J", "spanish", "caballo"),
        ("K", "spanish", "rey"),
        ("Q", "french", "queen"),
        ("7", "italian", "7"),
        ("a", "spanish", "as"),
    ],
)
def test_face_names_by_deck(rank: str, deck: str, name: str) -> None:
    """scopa-wikipedia-fr.txt:19 and 53; the deck is a display option only."""
    assert face_name(rank, deck) == name


def test_the_deck_option_changes_no_rule() -> None:
    assert [preset(n).deck for n in ("chkobba", "scopa", "escoba", "escoba-del-15")] == [
        "french",
        "italian",
        "spanish",
        "spanish",
    ]
    italian = preset("chkobba", {"deck": "italian"})
    assert fast.supports(italian), "a display option: the kernel still plays it"
    with pytest.raises(RulesError, match="deck must be one of french, italian, spanish"):
        preset("scopa", {"deck": "tarot"})
    with pytest.raises(CardError, match="unknown deck"):
        face_name("Q", "tarot")
    with pytest.raises(CardError, match="unknown rank"):
        face_name("8", "italian")
