"""The record cases of tests/data/cases: `chkobba verify` must give their results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chkobba.cli import main
from chkobba.fishing.record import GameRecord, RecordError, replay

CASES = Path(__file__).parent / "data" / "cases"
LEGAL = sorted((CASES / "chkobba").glob("legal-[0-9][0-9].json"))
ILLEGAL = sorted(
    p for p in (CASES / "chkobba").glob("illegal-*.json") if not p.name.endswith(".expected.json")
)


def expected(path: Path) -> dict[str, object]:
    return json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())  # type: ignore[no-any-return]


def test_cases_are_present() -> None:
    assert len(LEGAL) == 20
    assert len(ILLEGAL) == 8


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: p.name)
def test_legal_record_verifies_with_expected_json(path: Path) -> None:
    result = CliRunner().invoke(main, ["verify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == expected(path)


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.name)
def test_illegal_record_is_rejected_at_the_right_play(path: Path) -> None:
    exp = expected(path)
    with pytest.raises(RecordError) as info:
        replay(GameRecord.load(path))
    assert (info.value.round, info.value.play) == (exp["round"], exp["play"])
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1
    line = result.output.strip()
    assert "\n" not in line
    where = f"round {exp['round']}" + (f", play {exp['play']}" if exp["play"] else "")
    assert line.startswith(where + ":"), line


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: p.name)
def test_record_round_trips_through_json(path: Path) -> None:
    rec = GameRecord.load(path)
    again = GameRecord.loads(rec.dumps())
    assert again == rec
    assert replay(again).to_json() == replay(rec).to_json()


# -- the Scopa family (docs/rules.md §3) ------------------------------------------------

SCOPA_LEGAL = sorted((CASES / "scopa").glob("legal-[0-9][0-9].json"))
SCOPA_POINTS = ("carte", "denari", "settebello", "primiera", "scope")


def test_scopa_cases_are_present() -> None:
    assert len(SCOPA_LEGAL) == 3


@pytest.mark.parametrize("path", SCOPA_LEGAL, ids=lambda p: p.name)
def test_scopa_record_verifies_with_expected_points_cards_totals_winner(path: Path) -> None:
    """cases/README.md: the expected output holds ``points`` and ``cards`` per round, the
    ``totals`` and the ``winner``; Scopa's own point keys are printed beside them."""
    result = CliRunner().invoke(main, ["verify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)
    exp = expected(path)
    assert got["totals"] == exp["totals"] and got["winner"] == exp["winner"]
    rounds = exp["rounds"]
    assert isinstance(rounds, list) and len(got["rounds"]) == len(rounds)
    for mine, theirs in zip(got["rounds"], rounds, strict=True):
        assert {"points": mine["points"], "cards": mine["cards"]} == theirs
        assert set(mine) == {"points", "cards", *SCOPA_POINTS}
        assert not {"karta", "dinari", "barmila", "haya", "chkobba"} & set(mine)


@pytest.mark.parametrize("path", SCOPA_LEGAL, ids=lambda p: p.name)
def test_scopa_record_round_trips_and_a_changed_play_is_refused(path: Path) -> None:
    rec = GameRecord.load(path)
    # The cases were made under rules version 1 (no rules_version): their scopa took any
    # number of cards, which is the scopa-many preset now.
    assert (rec.rules, rec.options) == ("scopa-many", {})
    assert GameRecord.loads(rec.dumps()) == rec
    assert replay(rec).to_json() == replay(GameRecord.loads(rec.dumps())).to_json()
    # The same record read as Chkobba misses its cut decisions: the rules matter.
    with pytest.raises(RecordError, match="cut"):
        replay(GameRecord.loads(rec.dumps().replace('"rules": "scopa-many"', '"rules": "chkobba"')))
