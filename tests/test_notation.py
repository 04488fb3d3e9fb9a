"""Round trips and fuzzing of every text form: cards, plays, moves, records (docs/rules.md §1,
docs/records.md), in the manner of python-chess's ``fuzz/``."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.fishing.cards import (
    CARDS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardError,
    cards_of,
    format_cards,
    parse_cards,
)
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Cut, NotationError, Play, parse_move
from chkobba.fishing.record import GameRecord, RecordError, record_of, replay
from chkobba.fishing.rules import preset

card_sets = st.integers(0, (1 << 40) - 1)


@pytest.mark.parametrize("c", CARDS, ids=str)
def test_every_card_parses_from_its_text_and_pretty_forms(c: Card) -> None:
    """§1: rank then suit (``7d``); suit symbols (``7♦``) are accepted on input."""
    text = str(c)
    assert text == RANKS[c % 10] + SUITS[c // 10]
    assert c.pretty() == RANKS[c % 10] + SUIT_SYMBOLS[c // 10]
    assert Card.parse(text) == c
    assert Card.parse(c.pretty()) == c
    assert Card.parse(f"  {text} ") == c
    assert Card.parse(text.lower()) == c and Card.parse(text.upper()) == c
    assert Card.parse(text[0] + "♤♡♢♧"[c // 10]) == c
    assert eval(repr(c), {"Card": Card}) == c
    assert Card.parse(text) is CARDS[c]


def test_card_values_and_names() -> None:
    """§1: the ranks in value order, and the living seven."""
    assert [Card.parse(r + "h").value for r in "A234567QJK"] == list(range(1, 11))
    assert str(CARDS[26]) == "7d"


@pytest.mark.parametrize("text", ["", " ", "Xz", "7", "7x", "1d", "10d", "7dd", "d7", "♦7", "8h"])
def test_malformed_cards_are_errors_naming_the_input(text: str) -> None:
    """§1: anything but a rank and a suit is refused, and the message quotes it."""
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


@given(card_sets)
def test_card_sets_round_trip(mask: int) -> None:
    """A set of cards prints in value order and parses back, in letters or symbols."""
    if not mask:
        assert format_cards(mask) == ""
        return
    assert parse_cards(format_cards(mask)) == mask
    assert parse_cards(format_cards(mask, " ", pretty=True), " ") == mask
    shown = cards_of(mask)
    assert [str(c) for c in shown] == [str(CARDS[c]) for c in sorted(shown)]


plays = st.builds(
    lambda card, capture: Play(card, capture & ~(1 << card)), st.integers(0, 39), card_sets
)


@settings(max_examples=300)
@given(plays)
def test_play_parse_inverts_str(p: Play) -> None:
    """docs/records.md: a lay is the card, a capture ``card:c1+c2``; ``Play.parse(str(p)) == p``."""
    text = str(p)
    assert Play.parse(text) == p
    assert parse_move(text) == p
    assert eval(repr(p), {"Play": Play}) == p
    assert (":" in text) == p.is_capture


@given(plays, st.randoms(use_true_random=False))
def test_capture_order_does_not_matter(p: Play, rng: random.Random) -> None:
    """docs/records.md: the order of the captured cards does not matter."""
    taken = [str(c) for c in cards_of(p.capture)]
    rng.shuffle(taken)
    text = str(CARDS[p.card]) + (":" + "+".join(taken) if taken else "")
    assert Play.parse(text) == p


def test_cut_moves_parse() -> None:
    """§2.2: the cutter's decision is a move written ``keep`` or ``table``."""
    for cut in Cut:
        assert parse_move(str(cut)) is cut
        assert parse_move(f" {str(cut).upper()} ") is cut
        assert eval(repr(cut), {"Cut": Cut}) is cut


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Xz", "malformed card 'Xz'"),
        ("7d:", "nothing named after ':'"),
        ("7d: ", "nothing named after ':'"),
        ("7d:7d", "a card cannot capture itself"),
        ("7d:8h", "malformed card '8h'"),
        ("7d:Ah+Ah", "card Ah is named twice"),
        ("7d:Ah+", "malformed card ''"),
        ("7d:Ah++2s", "malformed card ''"),
        (":Ah", "malformed card ''"),
        ("", "malformed card ''"),
        ("   ", "malformed card ''"),
        ("7d,Ah", "malformed card '7d,Ah'"),
        ("7d:Ah:2s", "malformed card 'Ah:2s'"),
        ("keepx", "malformed card 'keepx'"),
    ],
)
def test_malformed_plays_are_errors_naming_the_input(text: str, reason: str) -> None:
    """docs/records.md notation: a malformed play is a NotationError that quotes the input."""
    with pytest.raises(NotationError) as info:
        Play.parse(text)
    message = str(info.value)
    assert message.startswith(f"malformed play {text!r}"), message
    assert reason in message
    with pytest.raises(NotationError):
        parse_move(text)


@given(st.text(max_size=12))
def test_play_parse_raises_only_notation_errors(text: str) -> None:
    """Any text either reads as a play that prints back equivalently or is a NotationError."""
    try:
        p = Play.parse(text)
    except NotationError as e:
        assert repr(text) in str(e)
        return
    assert Play.parse(str(p)) == p


@given(st.text(max_size=6))
def test_card_parse_raises_only_card_errors(text: str) -> None:
    """Any text either reads as a card or is a CardError."""
    try:
        c = Card.parse(text)
    except CardError:
        return
    assert c in CARDS and Card.parse(str(c)) == c


# -- records --------------------------------------------------------------------


def _finished_record(seats: int, teams: bool, seed: int) -> GameRecord:
    rng = random.Random(seed)
    m = Match(preset("chkobba", {"target": 11}), seats, teams, seed=seed)
    while not m.is_over:
        m.apply_unchecked(rng.choice(m.legal_moves()))
    return record_of(m, names=[f"p{i}" for i in range(seats)], meta={"seed": seed})


SAMPLE = _finished_record(2, False, 4)
SAMPLE_JSON = SAMPLE.to_json()


def test_record_round_trips_through_text(tmp_path: Any) -> None:
    """docs/records.md: a saved record loads back equal and replays to the same result."""
    for seats, teams in [(2, False), (3, False), (4, False), (4, True)]:
        rec = _finished_record(seats, teams, seats + teams)
        again = GameRecord.loads(rec.dumps())
        assert again == rec
        path = tmp_path / f"{seats}{teams}.json"
        rec.save(path)
        assert GameRecord.load(path) == rec
        assert replay(again).to_json() == replay(rec).to_json()
        assert replay(rec).winner is not None


FUZZ_KEYS = (
    *("format", "rules", "options", "seats", "teams", "names", "rounds", "meta"),
    *("dealer", "deck", "cut", "plays", "target", "x"),
)
"""Record and round keys, so that generated objects often look like records."""

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.sampled_from(["7d", "keep", "table", "chkobba", "chkobba-record/1", "Qh:7d+Ah"]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(FUZZ_KEYS),
            inner,
            max_size=6,
        )
    ),
    max_leaves=25,
)


def _mutate(data: Any, path: list[int], value: Any) -> Any:
    """``data`` with the node reached by following ``path`` (indices mod size) replaced."""
    if not path or not isinstance(data, dict | list) or not data:
        return value
    keys = list(data) if isinstance(data, dict) else list(range(len(data)))
    key = keys[path[0] % len(keys)]
    out = dict(data) if isinstance(data, dict) else list(data)
    out[key] = _mutate(data[key], path[1:], value)  # type: ignore[index]
    return out


def _load_and_replay(text: str) -> None:
    """Load and replay; only RecordError may escape."""
    rec = GameRecord.loads(text)
    replay(rec)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fuzz_loads_json_garbage_raises_only_record_errors(data: Any) -> None:
    """docs/records.md: any JSON either loads as a record or raises RecordError (nothing else)."""
    with contextlib.suppress(RecordError):
        _load_and_replay(json.dumps(data))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 1000), max_size=6), json_values)
def test_fuzz_mutated_records_raise_only_record_errors(path: list[int], value: Any) -> None:
    """A valid record with any one part replaced by garbage replays or raises RecordError."""
    with contextlib.suppress(RecordError):
        _load_and_replay(json.dumps(_mutate(SAMPLE_JSON, path, value)))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_fuzz_loads_text_garbage_raises_only_record_errors(text: str) -> None:
    """Text that is not JSON is a RecordError too."""
    with contextlib.suppress(RecordError):
        _load_and_replay(text)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"a":' * 100_000,
        "1" * 5000,
        '{"format": "chkobba-record/1", "seats": ' + "9" * 5000 + "}",
        "",
        "null",
        "NaN",
    ],
    ids=["deep-list", "deep-object", "huge-int", "huge-seats", "empty", "null", "nan"],
)
def test_loads_pathological_json_raises_record_error(text: str) -> None:
    """Deep nesting and oversized numbers are malformed records, not crashes."""
    with pytest.raises(RecordError) as info:
        GameRecord.loads(text)
    assert str(info.value).startswith("record: ")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chkobba-record/2"}, "record: format must be 'chkobba-record/1'"),
        ({"seats": "2"}, "record: seats must be a int"),
        ({"teams": 1}, "record: teams must be true or false"),
        ({"names": ["a"]}, "record: names must be a list of 2 strings"),
        ({"extra": 1}, "record: unknown record keys: extra"),
        ({"rounds": {}}, "record: rounds must be a list"),
        ({"options": {"nope": 1}}, "record: unknown rule option 'nope'"),
        ({"rules": "tresette"}, "record: unknown rules 'tresette'"),
        (
            {"seats": 5, "names": None},
            "record: the game is played by 2, 3 or 4 players (the Scopa family also by 6), not 5",
        ),
    ],
)
def test_record_header_errors_name_the_fault(change: dict[str, Any], message: str) -> None:
    """docs/records.md: a malformed header is reported as ``record: reason``."""
    data = {**SAMPLE_JSON, **change}
    data = {k: v for k, v in data.items() if v is not None}
    with pytest.raises(RecordError) as info:
        _load_and_replay(json.dumps(data))
    assert str(info.value).startswith(message), str(info.value)


def test_record_round_errors_name_round_and_play() -> None:
    """docs/records.md: a bad play is reported with its round and its 1-based play number."""
    data = json.loads(json.dumps(SAMPLE_JSON))
    data["rounds"][1]["plays"][4] = "7d:"
    with pytest.raises(RecordError) as info:
        _load_and_replay(json.dumps(data))
    assert (info.value.round, info.value.play) == (2, 5)
    assert str(info.value).startswith("round 2, play 5: malformed play '7d:'")
    data["rounds"][1]["deck"][3] = data["rounds"][1]["deck"][4]
    with pytest.raises(RecordError, match=r"^round 2: .* appears twice in the deck"):
        _load_and_replay(json.dumps(data))
