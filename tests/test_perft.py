"""Perft-style counts (python-chess ``examples/perft``): legal moves along fixed seeded
deals and the leaves of the full game tree of a round, pinned in tests/data/perft.json.

After an intended change, run ``.venv/bin/python tests/regen.py`` and review the diff.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from chkobba.fishing.cards import Card
from chkobba.fishing.game import Round
from chkobba.fishing.moves import Cut, parse_move
from chkobba.fishing.rules import preset
from regen import DEALS, PERFT, perft, perft_entry
from test_rules import dealt, oracle_moves, set_up

CHECKED_IN: dict[str, dict[str, Any]] = json.loads(PERFT.read_text(encoding="utf-8"))


def test_every_deal_is_checked_in() -> None:
    """The file holds exactly the seeded deals regen.py counts."""
    assert list(CHECKED_IN) == [d.name for d in DEALS]


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: d.name)
def test_perft_counts_match_the_checked_in_file(deal: Any) -> None:
    """Counting again gives the checked-in numbers, field by field."""
    now = perft_entry(deal)
    before = CHECKED_IN[deal.name]
    changed = {k: (before.get(k), v) for k, v in now.items() if before.get(k) != v}
    assert not changed, (
        "counts changed (checked in, now); if intended run .venv/bin/python tests/regen.py: "
        f"{changed}"
    )


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: d.name)
def test_moves_per_ply_agree_with_a_brute_force_reading_of_the_rules(deal: Any) -> None:
    """Along each checked-in line of play, the number of legal moves at every ply equals a
    brute-force count from docs/rules.md §2.3 (the cut: 2; then per card, match, sums or lay)."""
    entry = CHECKED_IN[deal.name]
    deck = [Card.parse(c) for c in entry["deck"].split()]
    rules = preset("chkobba", entry["options"])
    r = Round(rules, entry["seats"], entry["teams"], entry["dealer"], deck)
    counts = []
    for text in entry["line"].split():
        if r.legal_moves() and isinstance(r.legal_moves()[0], Cut):
            counts.append(2)
        else:
            expected = oracle_moves(r.hands[r.turn], r.table)
            if rules.may_drop_capturing_card:
                expected |= {str(Card(c)) for c in _cards(r.hands[r.turn])}
            counts.append(len(expected))
        r.apply(parse_move(text))
    assert r.is_over
    assert counts == entry["moves_per_ply"]
    assert sum(entry["moves_per_ply"][1:2]) == entry["perft_first_play"][0]
    assert entry["perft_cut"][0] == 2


def _cards(mask: int) -> list[int]:
    return [c for c in range(40) if mask >> c & 1]


def test_perft_of_a_constructed_position_by_hand() -> None:
    """Table 7h 2s 3h; seat 0 holds 7d 5c, seat 1 holds Kd 5h.

    Depth 1: 7d must take 7h (matching first), 5c must take 2s+3h: 2.
    Depth 2: after 7d:7h seat 1 lays Kd or sweeps with 5h:2s+3h; after 5c:2s+3h
    it lays Kd or 5h (neither matches 7h): 4.
    Depth 3: seat 0's last card has one move in each line (5c:2s+3h, lay 5c,
    7d:7h, 7d:7h): 4.
    """
    r = set_up(dealt(), ["7d 5c", "Kd 5h"], "7h 2s 3h")
    assert [perft(r, d) for d in (1, 2, 3)] == [2, 4, 4]


def test_perft_with_may_drop_capturing_card_by_hand() -> None:
    """Same position with ``may_drop_capturing_card``: a capturing card may also be laid.

    Depth 1: 7d:7h, 7d, 5c:2s+3h, 5c: 4.
    Depth 2, seat 1 holding Kd 5h:
    after 7d:7h (table 2s 3h): Kd, 5h:2s+3h, 5h → 3;
    after 7d (table 7h 2s 3h 7d): Kd:3h+7h, Kd:3h+7d, Kd, 5h:2s+3h, 5h → 5;
    after 5c:2s+3h (table 7h): Kd, 5h → 2;
    after 5c (table 7h 2s 3h 5c): Kd:3h+7h, Kd:2s+3h+5c, Kd, 5h:5c (matching first), 5h → 5.
    Total 15.
    """
    rules = preset("chkobba", {"may_drop_capturing_card": True})
    r = set_up(dealt(rules=rules), ["7d 5c", "Kd 5h"], "7h 2s 3h")
    assert perft(r, 1) == 4
    assert perft(r, 2) == 3 + 5 + 2 + 5


def test_perft_of_a_three_seat_position_by_hand() -> None:
    """Table Ah 3h 4c 5s 7c; seat 0 holds Qs and 4d (3 seats).

    Qs (8): no 8 on the table; A+7, 3+5 and A+3+4 add to 8: 3 moves.
    4d matches 4c (and may not take A+3 instead): 1 move. Depth 1: 4.
    """
    r = set_up(dealt(3), ["Qs 4d", "Ks", "Kh"], "Ah 3h 4c 5s 7c")
    assert perft(r, 1) == 4
    assert {str(m) for m in r.legal_moves()} == {"Qs:Ah+7c", "Qs:3h+5s", "Qs:Ah+3h+4c", "4d:4c"}


def test_perft_counts_no_leaves_below_the_end_of_the_round() -> None:
    """The last play ends the round: one leaf at depth 1, none deeper."""
    r = set_up(dealt(), ["", "5s"], "2h 3d", stock=False, turn=1)
    assert [perft(r, d) for d in (0, 1, 2)] == [1, 1, 0]
