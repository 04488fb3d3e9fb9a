"""Which captures a played card allows on a given table (docs/rules.md §2.3 and §3).

Chkobba's rule: matching has priority. If the table holds cards of the played
card's value, the card takes exactly one of them. Otherwise it may take any set
of two or more table cards whose values add up to its value (an *addition*).
Captures are returned as card sets (masks), one per choice the player has.

The Scopa family changes this by options (:class:`~chkobba.fishing.rules.RuleSet`):
captures totalling a number with the played card (``capture_total``: fifteen),
no matching or no addition, no priority of matching, an ace taking the whole
table, at most so many cards (``max_capture_cards``), only the captures taking
the fewest cards (``fewest_cards``). Those rule sets take
:func:`general_captures`; Chkobba's keeps its own short path.

Cirulla's wild 7♠ (``wild_seven_keeps_value``) keeps the value a declaration gave
it for the rest of the round: the caller passes that value as ``wild`` (0: the
7♠ is a 7), and :func:`card_value` gives the value a played card captures with.
"""

from __future__ import annotations

from typing import Final

from chkobba.fishing.cards import VALUE_OF
from chkobba.fishing.rules import RuleSet

_RANK_MASK = tuple(
    (1 << i) | (1 << (10 + i)) | (1 << (20 + i)) | (1 << (30 + i)) for i in range(10)
)

WILD_SEVEN: Final = 6
"""The card number of the 7♠, Cirulla's wild card (``chkobba.fishing.scoring.WILD_CARD``)."""


def card_value(card: int, wild: int = 0) -> int:
    """The value ``card`` captures and is captured with: its face value, or for the 7♠
    the value ``wild`` a declaration gave it this round (0: none, a 7)."""
    return wild if wild and card == WILD_SEVEN else VALUE_OF[card]


def captures(value: int, table: int, rules: RuleSet, wild: int = 0) -> list[int]:
    """Every capture a card of ``value`` may make on ``table``; empty if it must be laid.

    ``wild`` is the value of the 7♠ this round (0: a 7), for the cards on the table.
    """
    if rules.general_captures or (wild and table >> WILD_SEVEN & 1):
        return general_captures(value, table, rules, wild)
    same = table & _RANK_MASK[value - 1]
    if same:
        out = []
        while same:
            low = same & -same
            out.append(low)
            same ^= low
        return out
    sums = sum_captures(value, table, rules.max_capture_cards)
    return fewest(sums) if rules.fewest_cards else sums


def fewest(caps: list[int]) -> list[int]:
    """The captures of ``caps`` that take the fewest cards, in their order."""
    if len(caps) < 2:
        return caps
    least = min(c.bit_count() for c in caps)
    return [c for c in caps if c.bit_count() == least]


def sum_captures(total: int, table: int, max_cards: int = 0, wild: int = 0) -> list[int]:
    """Every set of two or more table cards whose values add up to ``total``.

    ``max_cards`` bounds the set's size (0: no bound); ``wild`` is the 7♠'s value.
    """
    return _subsets(total, table, max_cards, 2, wild)


def _subsets(total: int, table: int, max_cards: int, least: int, wild: int = 0) -> list[int]:
    """Every set of ``least`` or more (and at most ``max_cards``, 0: any) table cards
    adding up to ``total``, in depth-first order over the cards sorted by value."""
    items: list[tuple[int, int]] = []
    m = table
    while m:
        low = m & -m
        v = wild if wild and low == 1 << WILD_SEVEN else VALUE_OF[low.bit_length() - 1]
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


def matches(value: int, table: int, wild: int = 0) -> int:
    """The table cards worth ``value`` (the wild 7♠ counted at ``wild``), as a set."""
    same = table & _RANK_MASK[value - 1]
    if wild and table >> WILD_SEVEN & 1:
        same &= ~(1 << WILD_SEVEN)
        if value == wild:
            same |= 1 << WILD_SEVEN
    return same


def general_captures(value: int, table: int, rules: RuleSet, wild: int = 0) -> list[int]:
    """:func:`captures` under any rule set's capture options.

    Matches first (one card each), then additions, then captures by total; with
    ``matching_priority`` a card that matches takes no addition, but a capture
    by total stays open [decided: Cirulla lets every kind of capture be played].
    With ``fewest_cards`` only the captures taking the fewest cards remain
    (scopa-wikipedia-fr.txt:24). An ace under ``ace_takes_all`` takes the whole
    table, its only capture.
    """
    if not table:
        return []
    if rules.ace_takes_all and value == 1:
        return [table]
    out: list[int] = []
    if rules.capture_match:
        same = matches(value, table, wild)
        while same:
            low = same & -same
            out.append(low)
            same ^= low
    if rules.capture_sum and not (out and rules.matching_priority):
        out.extend(sum_captures(value, table, rules.max_capture_cards, wild))
    if rules.capture_total > value:
        for m in total_captures(rules.capture_total - value, table, rules.max_capture_cards, wild):
            if m not in out:
                out.append(m)
    return fewest(out) if rules.fewest_cards else out


def total_captures(total: int, table: int, max_cards: int = 0, wild: int = 0) -> list[int]:
    """Every set of one or more table cards whose values add up to ``total``.

    ``max_cards`` bounds the set's size (0: no bound); ``wild`` is the 7♠'s value.
    """
    return _subsets(total, table, max_cards, 1, wild)
