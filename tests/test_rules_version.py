"""Records of rules version 1 stay valid (issue 18, section 1.7).

The presets of version 2 follow the seed scopa-wikipedia-fr.txt (captures of one card or
two, the fewest: lines 24-25). A record without ``rules_version`` was made under version 1
and is read with the version-1 definition of its preset; a record of version 2 is read
with today's; any other version is refused.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from chkobba.cli import main
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Play
from chkobba.fishing.record import GameRecord, RecordError, record_of, replay
from chkobba.fishing.rules import PRESETS, RULES_VERSION, VERSION_1, RulesError, preset


def version_1_record(name: str, seed_from: int = 0) -> tuple[dict[str, Any], int, int]:
    """A whole match of the version-1 preset ``name`` played at random, as a version-1
    record (no ``rules_version``), holding a capture of three cards or more; and the
    round and play (1-based) of the first such capture."""
    rules = preset(name, {"target": 3}, version=1)
    for seed in range(seed_from, seed_from + 200):
        rng = random.Random(seed)
        m = Match(rules, 2, seed=seed)
        while not m.is_over:
            m.apply(rng.choice(m.legal_moves()))
        data = record_of(m).to_json()
        where = [
            (i, j)
            for i, rr in enumerate(data["rounds"], 1)
            for j, p in enumerate(rr["plays"], 1)
            if Play.parse(p).capture.bit_count() >= 3
        ]
        if where:
            del data["rules_version"]
            data["rules"] = name
            data["options"] = {"target": 3}
            return data, *where[0]
    raise AssertionError(f"no capture of three cards in 200 matches of {name}")


def verify(tmp_path: Path, data: dict[str, Any]) -> Any:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return CliRunner().invoke(main, ["verify", str(path), "--json"])


def test_a_version_1_scopa_record_with_a_three_card_capture_verifies(tmp_path: Path) -> None:
    """Version 1's scopa took any number of cards: its records verify as they always did."""
    data, _, _ = version_1_record("scopa")
    result = verify(tmp_path, data)
    assert result.exit_code == 0, result.output
    rep = replay(GameRecord.from_json(data))
    assert json.loads(result.output) == rep.to_json() and rep.winner is not None
    assert rep.rules == PRESETS["scopa-many"].with_options({"target": 3})


def test_the_same_record_marked_version_2_is_refused_at_that_play(tmp_path: Path) -> None:
    """scopa-wikipedia-fr.txt:25: under version 2 a capture takes one card or two, so the
    record fails exactly at its first capture of three cards, saying why."""
    data, round_no, play_no = version_1_record("scopa")
    data["rules_version"] = 2
    with pytest.raises(RecordError) as info:
        replay(GameRecord.from_json(data))
    assert (info.value.round, info.value.play) == (round_no, play_no)
    assert "a capture takes at most 2 cards" in info.value.reason
    result = verify(tmp_path, data)
    assert result.exit_code == 1
    line = result.output.strip()
    assert "\n" not in line and line.startswith(f"round {round_no}, play {play_no}: ")


@pytest.mark.parametrize("version", [0, 3, "2", None, 2.0])
def test_an_unknown_rules_version_is_refused(tmp_path: Path, version: object) -> None:
    data, _, _ = version_1_record("scopa")
    data["rules_version"] = version
    with pytest.raises(RecordError, match=r"rules_version .* is unknown") as info:
        GameRecord.from_json(data)
    assert (info.value.round, info.value.play) == (0, 0)
    result = verify(tmp_path, data)
    assert result.exit_code == 1
    assert result.output.strip().startswith("record: rules_version ")
    assert "\n" not in result.output.strip()


def test_saving_a_version_1_record_writes_version_2_of_the_same_game(tmp_path: Path) -> None:
    data, _, _ = version_1_record("scopa")
    rec = GameRecord.from_json(data)
    saved = rec.to_json()
    assert saved["rules_version"] == RULES_VERSION
    assert (saved["rules"], saved["options"]) == ("scopa-many", {"target": 3})
    again = GameRecord.loads(rec.dumps())
    assert again == rec
    assert replay(again).to_json() == replay(rec).to_json()


def test_a_version_1_scopa_strict_record_loads_as_scopa_without_the_fewest(
    tmp_path: Path,
) -> None:
    """``scopa-strict`` is no longer a preset; its version-1 records still load."""
    assert "scopa-strict" not in PRESETS
    rules = preset("scopa-strict", version=1)
    assert (rules.name, rules.max_capture_cards, rules.fewest_cards) == ("scopa", 2, False)
    rng = random.Random(5)
    m = Match(rules.with_options({"target": 3}), 2, seed=5)
    while not m.is_over:
        m.apply(rng.choice(m.legal_moves()))
    data = record_of(m).to_json()
    assert (data["rules"], data["options"]) == ("scopa", {"fewest_cards": False, "target": 3})
    del data["rules_version"]
    data["rules"], data["options"] = "scopa-strict", {"target": 3}
    assert verify(tmp_path, data).exit_code == 0
    rec = GameRecord.from_json(data)
    assert (rec.rules, rec.options) == ("scopa", {"fewest_cards": False, "target": 3})
    with pytest.raises(RecordError, match="unknown rules 'scopa-strict'"):
        replay(GameRecord.from_json({**data, "rules_version": 2}))


def test_version_1_knows_only_its_own_names() -> None:
    with pytest.raises(RulesError, match="unknown rules 'scopa-many' in rules version 1"):
        preset("scopa-many", version=1)
    with pytest.raises(RecordError, match="unknown rules 'escoba-del-15' in rules version 1"):
        GameRecord.from_json(
            {"format": "chkobba-record/1", "rules": "escoba-del-15", "seats": 2, "rounds": []}
        )


@pytest.mark.parametrize("name", sorted(VERSION_1))
def test_every_version_1_preset_is_a_preset_of_today_with_options(name: str) -> None:
    """The version-1 definitions: no cap and no rule of the fewest in every Scopa preset
    (version 1 took any number of cards) but scopa-strict's cap of two; escoba captured
    by fifteen; Frac's captures were optional, the single card first; Cirulla's wild 7♠
    was a 7 again in play."""
    rules = preset(name, version=1)
    assert rules.name in PRESETS and rules == preset(rules.name, rules.json_options())
    assert not rules.fewest_cards and not rules.wild_seven_keeps_value
    assert rules.max_capture_cards == (2 if name == "scopa-strict" else 0)
    assert rules.matching_priority
    assert rules.may_drop_capturing_card == (name == "scopa-frac")
    assert (rules.capture_total == 15) == (name in ("scopa-di-quindici", "escoba", "cirulla"))


def test_the_shared_scopa_cases_are_version_1_records() -> None:
    """tests/data/cases/scopa (from the shared cases) have no rules_version: they are read
    as scopa-many, the version-1 scopa (tests/test_cases.py checks their results)."""
    cases = sorted((Path(__file__).parent / "data" / "cases" / "scopa").glob("legal-0?.json"))
    assert cases
    for path in cases:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert "rules_version" not in data and data["rules"] == "scopa"
        assert GameRecord.from_json(data).rules == "scopa-many"
