"""touti-record/1 (docs/touti.md): save, load, replay, and ``chkobba verify`` / ``replay``."""

from __future__ import annotations

import contextlib
import functools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.cli import main
from chkobba.touti.match import ToutiMatch
from chkobba.touti.observe import observe
from chkobba.touti.record import ToutiRecord, ToutiRecordError, record_of, replay
from chkobba.touti.rules import ToutiRules
from chkobba.touti.technique import technique_move


def finished_match(seed: int = 4) -> ToutiMatch:
    m = ToutiMatch(seed=seed)
    while not m.is_over:
        m.apply(technique_move(observe(m, m.turn)))
    return m


@pytest.fixture(scope="module")
def record() -> ToutiRecord:
    return record_of(finished_match(), names=["Ana", "Badr", "Chama", "Driss"])


def write(tmp_path: Path, data: object) -> Path:
    p = tmp_path / "game.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def test_the_record_form(record: ToutiRecord) -> None:
    data = json.loads(record.dumps())
    assert data["format"] == "touti-record/1"
    assert set(data) == {"format", "options", "names", "deals"}
    deal = data["deals"][0]
    assert set(deal) == {"dealer", "deck", "moves"} and len(deal["deck"]) == 40
    assert all(isinstance(m, str) for m in deal["moves"])


def test_verify_a_valid_record(tmp_path: Path, record: ToutiRecord) -> None:
    path = tmp_path / "g.json"
    record.save(path)
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 0 and "valid Touti record" in r.output
    r = CliRunner().invoke(main, ["verify", "--json", str(path)])
    assert r.exit_code == 0
    summary = json.loads(r.output)
    rep = replay(record)
    assert summary["totals"] == rep.totals and summary["winner"] == rep.winner
    scored = [d for d in summary["deals"] if "bid" in d]
    assert all(sum(d["card_points"]) == 130 for d in scored)
    assert sum(d["points"][0] for d in summary["deals"]) == rep.totals[0]


def test_verify_names_the_deal_and_move_of_an_illegal_move(
    tmp_path: Path, record: ToutiRecord
) -> None:
    data = json.loads(record.dumps())
    moves = data["deals"][1]["moves"]
    first_card = next(i for i, m in enumerate(moves) if len(m) == 2 and not m.isdigit())
    # the second card of the first trick replaced by a card its player does not hold
    moves[first_card + 1] = moves[first_card]
    r = CliRunner().invoke(main, ["verify", str(write(tmp_path, data))])
    assert r.exit_code == 1
    assert r.output.strip().startswith(f"deal 2, move {first_card + 2}: ")
    assert "not in seat" in r.output


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="touti-record/9"), "record: format must be"),
        (lambda d: d.update(options={"kaddour": "yes"}), "record: option kaddour must be a bool"),
        (lambda d: d["deals"][0].update(deck=d["deals"][0]["deck"][:39]), "deal 1: a deck holds"),
        (lambda d: d["deals"][1].update(dealer=(d["deals"][1]["dealer"] + 2) % 4),
         "deal 2: the dealer must be seat"),
        (lambda d: d["deals"][0]["moves"].insert(0, "75"), "deal 1, move 1: malformed bid"),
        (lambda d: d["deals"][0]["moves"].append("pass"), "the deal is over"),
        (lambda d: d["deals"][0]["moves"].pop(), "the deal stops here but another follows"),
        (lambda d: d["deals"].append(d["deals"][-1]), "already won"),
        (lambda d: d.update(names=["x"]), "names must be a list of 4"),
        (lambda d: d.update(extra=1), "unknown record keys: extra"),
    ],
)
def test_malformed_records_are_reported(
    tmp_path: Path, record: ToutiRecord, mutate: object, message: str
) -> None:
    data = json.loads(record.dumps())
    mutate(data)  # type: ignore[operator]
    r = CliRunner().invoke(main, ["verify", str(write(tmp_path, data))])
    assert r.exit_code == 1, r.output
    assert message in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_unfinished_record_verifies(tmp_path: Path) -> None:
    m = ToutiMatch(seed=9)
    for _ in range(30):
        m.apply(technique_move(observe(m, m.turn)))
    path = tmp_path / "u.json"
    record_of(m).save(path)
    r = CliRunner().invoke(main, ["verify", "--json", str(path)])
    assert r.exit_code == 0 and json.loads(r.output)["winner"] is None


def test_verify_text_and_json_count_the_same_deals(tmp_path: Path) -> None:
    """An unfinished game: the text and --json both count every deal of the record, the
    unfinished one listed last and marked (it used to be left out of --json only)."""
    m = ToutiMatch(seed=9)
    while len(m.finished) < 3 or len(m.deal.history) < 12:
        m.apply(technique_move(observe(m, m.turn)))
    path = tmp_path / "u.json"
    record_of(m).save(path)
    text = CliRunner().invoke(main, ["verify", str(path)]).output
    deals = json.loads(CliRunner().invoke(main, ["verify", "--json", str(path)]).output)["deals"]
    assert len(deals) == 4 and "4 deal(s), the last unfinished" in text
    assert deals[-1] == {"unfinished": True, "moves": len(m.deal.history), "points": [0, 0]}
    assert not any("unfinished" in d for d in deals[:-1])


def test_replay_command_tells_the_game(tmp_path: Path, record: ToutiRecord) -> None:
    path = tmp_path / "g.json"
    record.save(path)
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 0
    assert "Deal 1:" in r.output and "names trumps" in r.output and "Winner: " in r.output


def test_not_json_is_a_clear_error(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    p.write_text("{", encoding="utf-8")
    with pytest.raises(ToutiRecordError, match="not valid JSON"):
        ToutiRecord.load(p)


@functools.cache
def _record_text() -> str:
    return record_of(finished_match(6), names=list("abcd")).dumps()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_fuzzed_records_fail_cleanly(data: st.DataObject) -> None:
    """Any mutation of a valid record either replays or raises ToutiRecordError, never crashes."""
    rec = json.loads(_record_text())
    deal = data.draw(st.integers(0, len(rec["deals"]) - 1))
    where = data.draw(st.sampled_from(["move", "deck", "dealer", "options", "top", "moves"]))
    value = data.draw(JSON)
    d = rec["deals"][deal]
    if where == "move" and d["moves"]:
        d["moves"][data.draw(st.integers(0, len(d["moves"]) - 1))] = value
    elif where == "deck":
        d["deck"][data.draw(st.integers(0, 39))] = value
    elif where == "dealer":
        d["dealer"] = value
    elif where == "options":
        rec["options"] = {data.draw(st.sampled_from(["target", "kaddour", "talk", "x"])): value}
    elif where == "moves":
        d["moves"] = value
    else:
        rec[data.draw(st.sampled_from(["format", "names", "deals", "meta"]))] = value
    with contextlib.suppress(ToutiRecordError):
        replay(ToutiRecord.from_json(rec))


def test_what_is_said_is_recorded_and_checked(tmp_path: Path) -> None:
    """Parlé questions and answers, and a zadtak, are moves of the record: it replays, and a
    false answer or a pass that a zadtak forbids names its deal and move."""
    m = ToutiMatch(ToutiRules(talk="parle"), seed=5)
    while len(m.finished) < 2:
        m.apply(technique_move(observe(m, m.turn)))
    data = json.loads(record_of(m).dumps())
    moves = data["deals"][0]["moves"]
    told = next(i for i, t in enumerate(moves) if t.startswith("tell:"))
    assert moves[told - 1].startswith("ask:")
    path = write(tmp_path, data)
    assert CliRunner().invoke(main, ["verify", str(path)]).exit_code == 0
    topic, _, value = moves[told].partition("=")
    if topic == "tell:aces":
        moves[told] = f"{topic}={(int(value) + 1) % 5}"
    else:
        moves[told] = f"{topic}={'0t' if value == 'none' else 'none'}"
    r = CliRunner().invoke(main, ["verify", str(write(tmp_path, data))])
    assert r.exit_code == 1
    assert r.output.startswith(f"deal 1, move {told + 1}: ") and "answer is not true" in r.output
    semi = {"format": "touti-record/1", "options": {"talk": "semi"},
            "deals": [{"dealer": 3, "deck": data["deals"][0]["deck"],
                       "moves": ["100", "pass", "zadtak", "pass", "pass"]}]}
    r = CliRunner().invoke(main, ["verify", str(write(tmp_path, semi))])
    assert r.exit_code == 1 and r.output.startswith("deal 1, move 5: seat 0 must bid at least 120")
