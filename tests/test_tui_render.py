"""The terminal game's frames stay square, whatever the terminal makes of combining marks."""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from chkobba.agents import make_agent
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.rules import preset
from chkobba.tui import PlaySession
from chkobba.tui.render import board

FRAME = ("╭", "│", "╰")


def cells(text: str) -> int:
    """Terminal cells by Unicode's own tables: a combining mark takes none, a wide
    character two (measured apart from Rich, to check it)."""
    return sum(
        0
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(c) in ("W", "F")
        else 1
        for c in text
    )


def frames(text: str) -> list[list[str]]:
    """The framed blocks of a transcript, each as its rows."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        row = line.rstrip()
        if row.startswith("╭"):
            blocks.append([row])
        elif blocks and blocks[-1][-1][:1] != "╰" and row.startswith(FRAME[1:]):
            blocks[-1].append(row)
    return blocks


def assert_square(block: list[str]) -> None:
    """Every row ends in the same column, whether a terminal gives a combining mark
    no cell (as Unicode and Rich do) or a cell of its own (as some terminals do)."""
    assert len({cells(row) for row in block}) == 1, block
    assert len({cell_len(row) for row in block}) == 1, block
    assert len({len(row) for row in block}) == 1, block


def first_round(tmp_path: Path, names: list[str], seed: int) -> str:
    """The transcript of a session played to the end of its first round, then quit."""
    match = Match(preset("chkobba"), seats=2, seed=seed)
    out = io.StringIO()
    console = Console(file=out, width=90, record=True, highlight=False)

    def ask(prompt: str) -> str:
        if "Press Enter" in prompt:
            return "q"
        return "y" if "Quit now?" in prompt else "1"

    play = PlaySession(
        match,
        {1: make_agent("random", seed)},
        names,
        tmp_path / "g.json",
        console=console,
        ask=ask,
    )
    play.run()
    assert len(match.finished) == 1
    return console.export_text()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_round_points_panel_is_square_with_the_arabic_point_names(
    tmp_path: Path, seed: int
) -> None:
    # Issue 18 §5.5: the shadda of شكبّة and سبعة الحيّة pushed the panel's border
    # one column on their two rows, on a terminal that gives the mark a cell.
    text = first_round(tmp_path, ["Alice", "cpu1"], seed)
    panel = next(b for b in frames(text) if "Round 1 points" in b[0])
    assert any("chkobba (شكبة)" in row for row in panel)
    assert any("sabʿa l-ḥayya (سبعة الحية)" in row for row in panel)
    assert any("kārṭa (كارطة)" in row for row in panel)
    assert_square(panel)


def test_the_board_is_square_with_names_that_carry_marks() -> None:
    # A name typed with Arabic vowel marks, or with a decomposed accent (macOS).
    names = ["مُحمّد", "Zoe\u0308"]
    match = Match(preset("chkobba"), seats=2, seed=3)
    console = Console(file=io.StringIO(), width=90, record=True, highlight=False)
    for seat in (0, 1):
        console.print(board(observe(match, seat), names))
    text = console.export_text()
    blocks = frames(text)
    assert len(blocks) == 2
    for block in blocks:
        assert_square(block)
    assert "محمد" in text and "Zoë" in text


def test_the_plays_are_listed_in_the_hand_s_order() -> None:
    """The hand is shown by value, then suit; the numbered plays beside it follow that
    order (not the engine's suit order), each card's captures kept together."""
    from chkobba.fishing.cards import cards_of, sort_for_display
    from chkobba.fishing.moves import Play
    from chkobba.tui.render import in_hand_order

    m = Match(seats=2, seed=8)  # the engine lists 4s, Ks:Kh, Ks:Kd, 2h
    m.apply(m.legal_moves()[1])
    obs = observe(m, m.turn)
    hand = sort_for_display(cards_of(obs.hand))
    listed = in_hand_order(obs.legal_moves)
    assert sorted(map(str, listed)) == sorted(map(str, obs.legal_moves))
    cards = [mv.card for mv in listed if isinstance(mv, Play)]
    assert list(dict.fromkeys(cards)) == hand
    assert [str(mv) for mv in listed] == ["2h", "4s", "Ks:Kh", "Ks:Kd"]
