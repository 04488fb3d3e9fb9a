"""End-of-round points (RULES.md §2.5), as a breakdown a UI can show.

The four points of a round, each scored by one side or by nobody (a tie, *bājī*):

* *kārṭa* (cards): strictly the most cards;
* *dīnārī* (diamonds, the coins suit): strictly the most diamonds;
* *barmīla* (from Italian *primiera*): strictly the most 7s, and among sides tied
  for the most 7s, strictly the most 6s;
* *sabʿa l-ḥayya*: holding the 7 of diamonds.

Chkobba points (sweeps of the table) are counted during play and added here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from chkobba.cards import DIAMONDS_MASK, SEVEN_OF_DIAMONDS, SEVENS_MASK, SIXES_MASK

POINT_NAMES: Final = {
    "karta": "kārṭa",
    "dinari": "dīnārī",
    "barmila": "barmīla",
    "haya": "sabʿa l-ḥayya",
    "chkobba": "chkobba",
}
"""The Arabic names of the points, transliterated, keyed by their record names."""

POINT_ARABIC: Final = {
    "karta": "كارطة",
    "dinari": "ديناري",
    "barmila": "برميلة",
    "haya": "سبعة الحيّة",
    "chkobba": "شكبّة",
}
"""The points' names in Arabic script."""


def strict_best(values: Sequence[int]) -> int | None:
    """The index of the strictly highest value, or None when the top is tied."""
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    return winners[0] if len(winners) == 1 else None


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The breakdown of one round's points, one entry per side."""

    cards: tuple[int, ...]
    """Cards in each side's pile, the last capturer's sweep included."""
    diamonds: tuple[int, ...]
    sevens: tuple[int, ...]
    sixes: tuple[int, ...]
    chkobba: tuple[int, ...]
    """Chkobba points each side made during the round."""
    karta: int | None
    dinari: int | None
    barmila: int | None
    haya: int | None
    """The side holding the 7♦, or None if nobody captured it."""

    @property
    def points(self) -> tuple[int, ...]:
        """Each side's points for the round, chkobba points included."""
        pts = list(self.chkobba)
        for side in (self.karta, self.dinari, self.barmila, self.haya):
            if side is not None:
                pts[side] += 1
        return tuple(pts)

    def to_json(self) -> dict[str, Any]:
        """The round's entry in ``chkobba verify --json`` (RECORD.md)."""
        return {
            "points": list(self.points),
            "karta": self.karta,
            "dinari": self.dinari,
            "barmila": self.barmila,
            "haya": self.haya,
            "chkobba": list(self.chkobba),
            "cards": list(self.cards),
        }


def score_round(piles: Sequence[int], chkobba: Sequence[int]) -> RoundScore:
    """Score a finished round from each side's pile (a card set) and chkobba count."""
    cards = tuple(p.bit_count() for p in piles)
    diamonds = tuple((p & DIAMONDS_MASK).bit_count() for p in piles)
    sevens = tuple((p & SEVENS_MASK).bit_count() for p in piles)
    sixes = tuple((p & SIXES_MASK).bit_count() for p in piles)
    top = max(sevens)
    tied = [i for i, s in enumerate(sevens) if s == top]
    if len(tied) == 1:
        barmila: int | None = tied[0]
    else:
        # Among the sides tied on 7s, strictly the most 6s; a side behind on 7s
        # cannot win on 6s.
        best6 = max(sixes[i] for i in tied)
        six_winners = [i for i in tied if sixes[i] == best6]
        barmila = six_winners[0] if len(six_winners) == 1 else None
    haya = next((i for i, p in enumerate(piles) if p >> SEVEN_OF_DIAMONDS & 1), None)
    return RoundScore(
        cards=cards,
        diamonds=diamonds,
        sevens=sevens,
        sixes=sixes,
        chkobba=tuple(chkobba),
        karta=strict_best(cards),
        dinari=strict_best(diamonds),
        barmila=barmila,
        haya=haya,
    )
