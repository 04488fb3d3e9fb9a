"""Which captures a played card allows on a given table (RULES.md §2.3 and §3).

Chkobba's rule: matching has priority. If the table holds cards of the played
card's value, the card takes exactly one of them. Otherwise it may take any set
of two or more table cards whose values add up to its value (an *addition*).
Captures are returned as card sets (masks), one per choice the player has.

The Scopa family changes this by options (:class:`~chkobba.rules.RuleSet`):
captures totalling a number with the played card (``capture_total``: fifteen),
no matching or no addition, no priority of matching, an ace taking the whole
table. Those rule sets take :func:`general_captures`; Chkobba's keeps its own
short path.
"""

from __future__ import annotations

from chkobba.cards import VALUE_OF
from chkobba.rules import RuleSet

_RANK_MASK = tuple(
    (1 << i) | (1 << (10 + i)) | (1 << (20 + i)) | (1 << (30 + i)) for i in range(10)
)


def captures(value: int, table: int, rules: RuleSet) -> list[int]:
    """Every capture a card of ``value`` may make on ``table``; empty if it must be laid."""
    if rules.general_captures:
        return general_captures(value, table, rules)
    same = table & _RANK_MASK[value - 1]
    if same:
        out = []
        while same:
            low = same & -same
            out.append(low)
            same ^= low
        return out
    return sum_captures(value, table, rules.max_capture_cards)


def sum_captures(total: int, table: int, max_cards: int = 0) -> list[int]:
    """Every set of two or more table cards whose values add up to ``total``.

    ``max_cards`` bounds the set's size (0: no bound).
    """
    return _subsets(total, table, max_cards, least=2)


def _subsets(total: int, table: int, max_cards: int, least: int) -> list[int]:
    """Every set of ``least`` or more (and at most ``max_cards``, 0: any) table cards
    adding up to ``total``, in depth-first order over the cards sorted by value."""
    items: list[tuple[int, int]] = []
    m = table
    while m:
        low = m & -m
        v = VALUE_OF[low.bit_length() - 1]
        if v <= total:
            items.append((v, low))
        m ^= low
    if len(items) < least:
        return []
    items.sort()
    out: list[int] = []
    _extend(items, 0, total, 0, 0, max_cards or len(items), least, out)
    return out


def _extend(
    items: list[tuple[int, int]],
    start: int,
    rest: int,
    acc: int,
    n: int,
    limit: int,
    least: int,
    out: list[int],
) -> None:
    # items are sorted by value, so the first value above what is left ends the scan.
    for i in range(start, len(items)):
        v, bit = items[i]
        if v > rest:
            return
        if v == rest:
            if n + 1 >= least:
                out.append(acc | bit)
        elif n + 1 < limit:
            _extend(items, i + 1, rest - v, acc | bit, n + 1, limit, least, out)


def general_captures(value: int, table: int, rules: RuleSet) -> list[int]:
    """:func:`captures` under any rule set's capture options.

    Matches first (one card each), then additions, then captures by total; with
    ``matching_priority`` a card that matches takes no addition, but a capture
    by total stays open [decided: Cirulla lets every kind of capture be played].
    An ace under ``ace_takes_all`` takes the whole table, its only capture.
    """
    if not table:
        return []
    if rules.ace_takes_all and value == 1:
        return [table]
    out: list[int] = []
    if rules.capture_match:
        same = table & _RANK_MASK[value - 1]
        while same:
            low = same & -same
            out.append(low)
            same ^= low
    if rules.capture_sum and not (out and rules.matching_priority):
        out.extend(sum_captures(value, table, rules.max_capture_cards))
    if rules.capture_total > value:
        for m in total_captures(rules.capture_total - value, table, rules.max_capture_cards):
            if m not in out:
                out.append(m)
    return out


def total_captures(total: int, table: int, max_cards: int = 0) -> list[int]:
    """Every set of one or more table cards whose values add up to ``total``.

    ``max_cards`` bounds the set's size (0: no bound).
    """
    return _subsets(total, table, max_cards, least=1)
