"""The Chkobba terminal game reads any typed text without crashing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from chkobba.cli import main
from chkobba.fishing.record import GameRecord


def test_non_ascii_digits_are_explained_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    r = CliRunner().invoke(
        main,
        ["play", "--seed", "1", "--opponent", "random", "--save", str(path)],
        input="²\nq\ny\n",
    )
    assert r.exit_code == 0, r.output
    assert "malformed" in r.output and path.exists()


@pytest.mark.parametrize(("answer", "cut"), [("keep", "keep"), ("k", "keep"), ("TABLE", "table")])
def test_the_cut_is_answered_keep_or_table(tmp_path: Path, answer: str, cut: str) -> None:
    # Issue 18 §5.2: at the cut (seed 5: the player cuts first) a card, a capture or
    # a word is no answer; the player is told to answer keep or table, not that a
    # card is malformed.
    path = tmp_path / "g.json"
    wrong = ["foo", "7c", "Qh:7d", "lay 5s"]
    r = CliRunner().invoke(
        main,
        ["play", "--seed", "5", "--opponent", "random", "--save", str(path)],
        input="\n".join([*wrong, answer, "q", "y", ""]),
    )
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "You cut and are shown" in text
    for w in wrong:
        assert f"✗ {w!r} does not decide the cut: answer keep or table (or 1 to 2)" in text
    assert "malformed" not in text
    assert GameRecord.load(path).rounds[0].cut == cut


@pytest.mark.parametrize(
    ("rules", "said", "unsaid"),
    [
        (
            "chkobba",
            [
                "A card may take a table card of its own value or table cards adding up to its "
                "value.",
                "A card that matches a table card's value takes one such card, not a sum.",
                "A card that can capture must capture.",
            ],
            ["15", "An ace"],
        ),
        (
            "escoba-del-15",
            ["A card may take table cards that make 15 with its value."],
            ["its own value", "adding up", "matches"],
        ),
        (
            "cirulla",
            [
                "A card may take a table card of its own value, table cards adding up to its "
                "value or table cards that make 15 with its value."
            ],
            [],
        ),
        (
            "scopa",
            [
                "adding up to its value (at most 2 of them).",
                "Where a card could take a single card or several, it takes the fewest.",
            ],
            [],
        ),
        ("asso-piglia-tutto", ["An ace takes the whole table."], []),
        (
            "scopa-frac",
            ["A card that can capture must capture."],
            ["takes one such card, not a sum", "the fewest", "may be laid on the table instead"],
        ),
    ],
)
def test_the_help_gives_the_capture_rules_of_the_game_played(
    tmp_path: Path, rules: str, said: list[str], unsaid: list[str]
) -> None:
    # The help said Chkobba's rule (matching, then sums; capturing is compulsory)
    # whatever the game: false for Escoba's fifteens (docs/rules.md §3) or Frac's
    # optional captures.
    args = ["--rules", rules, "--seed", "1", "--opponent", "random"]
    r = CliRunner().invoke(
        main, ["play", *args, "--save", str(tmp_path / "g.json")], input="?\nq\ny\n"
    )
    assert r.exit_code == 0, r.output
    text = " ".join(r.output[r.output.index("How to answer") :].split())
    help_text = text[: text.index("Coach")]
    for sentence in said:
        assert sentence in help_text
    for words in unsaid:
        assert words not in help_text


@pytest.mark.parametrize(
    ("rules", "goal"),
    [
        ("chkobba", "first to 21, seed 1."),
        ("scopa-a-perdere", "to 21, the fewest points win, seed 1."),
    ],
)
def test_the_opening_line_states_the_goal(tmp_path: Path, rules: str, goal: str) -> None:
    # It said "to 21, the fewest points win points" for Scopa a perdere.
    args = ["--rules", rules, "--seed", "1", "--opponent", "random"]
    r = CliRunner().invoke(
        main, ["play", *args, "--save", str(tmp_path / "g.json")], input="q\ny\n"
    )
    assert r.exit_code == 0, r.output
    assert goal in " ".join(r.output.split()[:20])
