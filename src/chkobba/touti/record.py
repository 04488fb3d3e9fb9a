"""Touti game records, ``touti-record/1`` (docs/touti.md): save, load, replay, verify.

A record is JSON: the options that differ from the defaults, the four names,
and per deal the dealer, the whole shuffled deck and every move in the
notation (bids and passes, the trump, the cards, the announcements). Replaying
it through the engine checks every move; the first fault is reported with its
deal and move number (both 1-based; move 0 is the deal itself, deal 0 the header).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from chkobba.fishing.cards import CARDS, Card, CardError
from chkobba.fishing.recordfile import (
    HeaderError,
    LocatedError,
    RecordFile,
    check_header,
    check_part,
    options_names_meta,
    part_deck,
    part_moves,
)
from chkobba.touti.deal import Deal, DealError, IllegalMove
from chkobba.touti.match import ToutiMatch, after_deal
from chkobba.touti.moves import NotationError, parse_move
from chkobba.touti.rules import RulesError, ToutiRules

FORMAT: Final = "touti-record/1"
_KEYS: Final = {"format", "options", "names", "deals", "meta"}
_DEAL_KEYS: Final = {"dealer", "deck", "moves"}


class ToutiRecordError(LocatedError):
    """A record that is malformed or holds an illegal move; ``deal``/``move`` locate it."""

    parts = ("deal", "move")

    def __init__(self, deal: int, move: int, reason: str) -> None:
        self.deal = deal
        self.move = move
        super().__init__(deal, move, reason)


@dataclass
class DealRecord:
    """One deal: who dealt, the shuffle (top first) and every move."""

    dealer: int
    deck: list[str]
    moves: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The deal as docs/touti.md writes it."""
        return {"dealer": self.dealer, "deck": self.deck, "moves": self.moves}


@dataclass
class ToutiRecord(RecordFile):
    """A whole game of Touti, finished or not."""

    options: dict[str, Any] = field(default_factory=dict)
    names: list[str] | None = None
    deals: list[DealRecord] = field(default_factory=list)
    meta: dict[str, Any] | None = None

    error = ToutiRecordError
    record_format = FORMAT

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        out: dict[str, Any] = {"format": FORMAT, "options": self.options}
        if self.names is not None:
            out["names"] = self.names
        out["deals"] = [d.to_json() for d in self.deals]
        if self.meta is not None:
            out["meta"] = self.meta
        return out

    @classmethod
    def from_json(cls, data: Any) -> ToutiRecord:
        """Read a record from parsed JSON; raise :class:`ToutiRecordError` if malformed."""
        try:
            data = check_header(data, _KEYS, FORMAT)
            options, names, meta = options_names_meta(data, 4)
        except HeaderError as e:
            raise ToutiRecordError(0, 0, str(e)) from None
        raw = data.get("deals")
        if not isinstance(raw, list):
            raise ToutiRecordError(0, 0, "deals must be a list")
        return cls(options, names, [_deal_from_json(d, i) for i, d in enumerate(raw, 1)], meta)


def _deal_from_json(raw: Any, i: int) -> DealRecord:
    raw = check_part(raw, i, _DEAL_KEYS, "deal", ToutiRecordError)
    dealer = raw.get("dealer")
    if type(dealer) is not int:
        raise ToutiRecordError(i, 0, f"dealer must be a seat number, not {dealer!r}")
    deck = part_deck(raw, i, ToutiRecordError)
    return DealRecord(dealer, deck, part_moves(raw, i, "moves", "move", ToutiRecordError))


def deal_record(d: Deal) -> DealRecord:
    """The record of one deal as played so far."""
    return DealRecord(d.dealer, [str(CARDS[c]) for c in d.deck], [str(m) for _, m in d.history])


def record_of(
    match: ToutiMatch, names: Sequence[str] | None = None, meta: dict[str, Any] | None = None
) -> ToutiRecord:
    """The record of a match so far."""
    deals = [deal_record(d) for d in match.finished]
    if match.deal not in match.finished:
        deals.append(deal_record(match.deal))
    return ToutiRecord(
        options=match.rules.json_options(),
        names=list(names) if names is not None else None,
        deals=deals,
        meta=meta,
    )


@dataclass
class ToutiReplay:
    """The outcome of replaying a record: every deal as the engine played it."""

    rules: ToutiRules
    deals: list[Deal]
    totals: list[int]
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        """The summary ``chkobba verify --json`` prints for a Touti record: one entry per
        deal of the record, an unfinished last deal included (marked, with its moves)."""
        out: list[dict[str, Any]] = []
        for d in self.deals:
            if d.score is not None:
                out.append(d.score.to_json())
            elif d.redeal:
                out.append({"redeal": True, "points": [0, 0]})
            else:
                out.append({"unfinished": True, "moves": len(d.history), "points": [0, 0]})
        return {"deals": out, "totals": list(self.totals), "winner": self.winner}

    def summary(self) -> str:
        """The line ``chkobba verify`` prints: the deals (as many as ``--json`` lists),
        the totals and the state of the match."""
        unfinished = bool(self.deals) and not self.deals[-1].is_over
        deals = f"{len(self.deals)} deal(s)" + (", the last unfinished" if unfinished else "")
        state = "unfinished" if self.winner is None else f"won by team {self.winner}"
        return f"valid Touti record: {deals}, totals {self.totals}, {state}"


def replay(record: ToutiRecord) -> ToutiReplay:
    """Replay a record through the engine; raise :class:`ToutiRecordError` at the first fault."""
    try:
        rules = ToutiRules.from_options(record.options)
    except RulesError as e:
        raise ToutiRecordError(0, 0, str(e)) from None
    totals = [0, 0]
    winner: int | None = None
    deals: list[Deal] = []
    streak = 0
    expected: int | None = None
    n = len(record.deals)
    for i, dr in enumerate(record.deals, 1):
        if winner is not None:
            raise ToutiRecordError(i, 0, f"the match was already won by team {winner}")
        if expected is not None and dr.dealer != expected:
            raise ToutiRecordError(i, 0, f"the dealer must be seat {expected}, not {dr.dealer}")
        try:
            deck = [Card.parse(c) for c in dr.deck]
            d = Deal(dr.dealer, deck, rules)
        except (CardError, DealError) as e:
            raise ToutiRecordError(i, 0, str(e)) from None
        for j, text in enumerate(dr.moves, 1):
            if d.is_over:
                raise ToutiRecordError(i, j, "the deal is over")
            try:
                d.apply(parse_move(text))
            except (NotationError, IllegalMove) as e:
                raise ToutiRecordError(i, j, str(e)) from None
        deals.append(d)
        if not d.is_over:
            if i != n:
                raise ToutiRecordError(
                    i, len(dr.moves) + 1, "the deal stops here but another follows"
                )
            continue
        if d.score is not None:
            for t in (0, 1):
                totals[t] += d.score.points[t]
            winner = next((t for t in (0, 1) if totals[t] >= rules.target), None)
        expected, streak = after_deal(rules, d, streak)
    return ToutiReplay(rules, deals, totals, winner)
