"""Which captures a played card allows on a given table (RULES.md §2.3).

Matching has priority: if the table holds cards of the played card's value, the
card takes exactly one of them. Otherwise it may take any set of two or more
table cards whose values add up to its value (an *addition*). Captures are
returned as card sets (masks), one per choice the player has.
"""

from __future__ import annotations

from chkobba.cards import VALUE_OF
from chkobba.rules import RuleSet

_RANK_MASK = tuple(
    (1 << i) | (1 << (10 + i)) | (1 << (20 + i)) | (1 << (30 + i)) for i in range(10)
)


def captures(value: int, table: int, rules: RuleSet) -> list[int]:
    """Every capture a card of ``value`` may make on ``table``; empty if it must be laid."""
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
    items: list[tuple[int, int]] = []
    m = table
    while m:
        low = m & -m
        v = VALUE_OF[low.bit_length() - 1]
        if v < total:
            items.append((v, low))
        m ^= low
    if len(items) < 2:
        return []
    items.sort()
    out: list[int] = []
    limit = max_cards or len(items)
    _extend(items, 0, total, 0, 0, limit, out)
    return out


def _extend(
    items: list[tuple[int, int]],
    start: int,
    rest: int,
    acc: int,
    n: int,
    limit: int,
    out: list[int],
) -> None:
    # items are sorted by value, so the first value above what is left ends the scan.
    for i in range(start, len(items)):
        v, bit = items[i]
        if v > rest:
            return
        if v == rest:
            if n >= 1:
                out.append(acc | bit)
        elif n + 1 < limit:
            _extend(items, i + 1, rest - v, acc | bit, n + 1, limit, out)
