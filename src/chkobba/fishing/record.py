"""Game records (docs/records.md): save, load, replay and verify.

A record is JSON: the rule set, the seats, and per round the dealer, the whole
shuffled deck, the cutter's decision and every play in the notation. Replaying
it through the engine checks every move; the first illegal one is reported with
its round and play number (1-based; play 0 means the deal itself).

A record names its preset under a ``rules_version`` (:data:`~chkobba.fishing.rules.RULES_VERSION`;
a record without the key was made under version 1). A version-1 record is read with the
version-1 definition of its preset (:data:`~chkobba.fishing.rules.VERSION_1`) and held, and saved
again, as the preset of this version and the options that make it the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from chkobba.fishing.cards import CARDS, Card, CardError, cards_of
from chkobba.fishing.game import DealError, IllegalMove, Round, check_seating
from chkobba.fishing.match import Match, decide_match
from chkobba.fishing.moves import Cut, NotationError, Play
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
from chkobba.fishing.rules import KNOWN_VERSIONS, RULES_VERSION, RulesError, RuleSet, preset

FORMAT: Final = "chkobba-record/1"
_KEYS: Final = {
    "format",
    "rules",
    "rules_version",
    "options",
    "seats",
    "teams",
    "names",
    "rounds",
    "meta",
}
_ROUND_KEYS: Final = {"dealer", "deck", "cut", "plays"}


class RecordError(LocatedError):
    """A record that is malformed or holds an illegal move.

    ``round`` and ``play`` locate the fault (both 1-based; ``play`` 0 is the deal,
    ``round`` 0 the record's header).
    """

    parts = ("round", "play")

    def __init__(self, round: int, play: int, reason: str) -> None:
        self.round = round
        self.play = play
        super().__init__(round, play, reason)


@dataclass
class RoundRecord:
    """One round of a record: who dealt, the shuffle, the cut and the plays."""

    dealer: int
    deck: list[str]
    cut: str | None
    plays: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The round as docs/records.md writes it (``cut`` omitted when there is none)."""
        out: dict[str, Any] = {"dealer": self.dealer, "deck": self.deck}
        if self.cut is not None:
            out["cut"] = self.cut
        out["plays"] = self.plays
        return out


@dataclass
class GameRecord(RecordFile):
    """A whole game, finished or not, in the form of docs/records.md, under the presets of
    :data:`~chkobba.fishing.rules.RULES_VERSION` (a version-1 record is converted on reading)."""

    rules: str = "chkobba"
    options: dict[str, Any] = field(default_factory=dict)
    seats: int = 2
    teams: bool = False
    names: list[str] | None = None
    rounds: list[RoundRecord] = field(default_factory=list)
    meta: dict[str, Any] | None = None
    """Free-form facts about the game (where it was played, hints used, …)."""

    error = RecordError
    record_format = FORMAT

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules,
            "rules_version": RULES_VERSION,
            "options": self.options,
            "seats": self.seats,
            "teams": self.teams,
        }
        if self.names is not None:
            out["names"] = self.names
        out["rounds"] = [r.to_json() for r in self.rounds]
        if self.meta is not None:
            out["meta"] = self.meta
        return out

    def ruleset(self) -> RuleSet:
        """The rule set the record names, with its options."""
        return preset(self.rules, self.options)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record from parsed JSON; raise :class:`RecordError` if malformed."""
        try:
            data = check_header(data, _KEYS, FORMAT)
            rules = _typed(data, "rules", str, 0)
            seats = _typed(data, "seats", int, 0)
            teams = data.get("teams", False)
            if not isinstance(teams, bool):
                raise RecordError(0, 0, "teams must be true or false")
            _check_seating(seats, teams)
            options, names, meta = options_names_meta(data, seats)
            rules, options = _current_rules(data.get("rules_version", 1), rules, options)
        except (HeaderError, RulesError) as e:
            raise RecordError(0, 0, str(e)) from None
        raw_rounds = data.get("rounds")
        if not isinstance(raw_rounds, list):
            raise RecordError(0, 0, "rounds must be a list")
        rounds = [_round_from_json(r, i) for i, r in enumerate(raw_rounds, 1)]
        return cls(rules, options, seats, teams, names, rounds, meta)


def _check_seating(seats: int, teams: bool) -> None:
    # Before the names, which are counted against the seats: a wrong seat count is
    # the fault to name, not the names that follow from it.
    try:
        check_seating(seats, teams)
    except ValueError as e:
        raise RecordError(0, 0, str(e)) from None


def _current_rules(version: Any, rules: str, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The preset and options of this rules version that play the game a record of
    ``version`` names (a record without ``rules_version`` is of version 1)."""
    if type(version) is not int or version not in KNOWN_VERSIONS:
        raise RulesError(
            f"rules_version {version!r} is unknown: this chkobba reads records of rules "
            f"versions {' and '.join(map(str, KNOWN_VERSIONS))}"
        )
    if version == RULES_VERSION or rules == "chkobba":
        # Chkobba is the same in every version; its options are checked on replay.
        return rules, options
    ruleset = preset(rules, options, version)
    return ruleset.name, ruleset.json_options()


def _typed(data: dict[str, Any], key: str, kind: type, round_no: int) -> Any:
    value = data.get(key)
    if type(value) is not kind:
        raise RecordError(round_no, 0, f"{key} must be a {kind.__name__}, not {value!r}")
    return value


def _round_from_json(raw: Any, i: int) -> RoundRecord:
    raw = check_part(raw, i, _ROUND_KEYS, "round", RecordError)
    dealer = _typed(raw, "dealer", int, i)
    deck = part_deck(raw, i, RecordError)
    cut = raw.get("cut")
    if cut is not None and cut not in ("keep", "table"):
        raise RecordError(i, 0, f"cut must be 'keep' or 'table', not {cut!r}")
    return RoundRecord(dealer, deck, cut, part_moves(raw, i, "plays", "play", RecordError))


def round_record(r: Round) -> RoundRecord:
    """The record of one round as played so far."""
    return RoundRecord(
        dealer=r.dealer,
        deck=[str(CARDS[c]) for c in r.shuffle],
        cut=str(r.cut) if r.cut is not None else None,
        plays=[str(p) for p in r.plays()],
    )


def record_of(
    match: Match, names: Sequence[str] | None = None, meta: dict[str, Any] | None = None
) -> GameRecord:
    """The record of a match so far (a void deal in progress is left out)."""
    rounds = [round_record(r) for r in match.finished]
    current = match.round
    if not current.is_over and not current.void:
        rounds.append(round_record(current))
    return GameRecord(
        rules=match.rules.name,
        options=match.rules.json_options(),
        seats=match.seats,
        teams=match.teams,
        names=list(names) if names is not None else None,
        rounds=rounds,
        meta=meta,
    )


@dataclass
class Replay:
    """The outcome of replaying a record: every round as the engine played it."""

    rules: RuleSet
    rounds: list[Round]
    """Every round of the record, the last one possibly unfinished."""
    totals: list[int]
    winner: int | None

    @property
    def finished(self) -> list[Round]:
        """The rounds played to the end."""
        return [r for r in self.rounds if r.is_over]

    def to_json(self) -> dict[str, Any]:
        """The summary ``chkobba verify --json`` prints (docs/records.md)."""
        return {
            "rounds": [r.score.to_json() for r in self.rounds if r.score is not None],
            "totals": list(self.totals),
            "winner": self.winner,
        }


def replay(record: GameRecord) -> Replay:
    """Replay a record through the engine; raise :class:`RecordError` at the first fault."""
    try:
        rules = record.ruleset()
        check_seating(record.seats, record.teams, rules)
    except (RulesError, ValueError) as e:
        raise RecordError(0, 0, str(e)) from None
    sides = 2 if record.teams else record.seats
    totals = [0] * sides
    winner: int | None = None
    rounds: list[Round] = []
    n = len(record.rounds)
    for i, rr in enumerate(record.rounds, 1):
        if winner is not None:
            raise RecordError(i, 0, f"the match was already won by side {winner}")
        if rounds and rr.dealer != (rounds[-1].dealer + 1) % record.seats:
            expected = (rounds[-1].dealer + 1) % record.seats
            raise RecordError(i, 0, f"the dealer must be seat {expected}, not {rr.dealer}")
        r = _deal(rules, record, rr, i, last=i == n)
        for j, text in enumerate(rr.plays, 1):
            if r.is_over:
                raise RecordError(i, j, "the round is over: every card has been played")
            try:
                r.apply(Play.parse(text))
            except (NotationError, IllegalMove) as e:
                raise RecordError(i, j, str(e)) from None
        rounds.append(r)
        if r.score is not None:
            for side, pts in enumerate(r.score.points):
                totals[side] += pts
            winner = decide_match(totals, rules, r.score)
        elif i != n:
            raise RecordError(
                i, len(rr.plays) + 1, "the round stops here but another round follows"
            )
    return Replay(rules, rounds, totals, winner)


def _deal(rules: RuleSet, record: GameRecord, rr: RoundRecord, i: int, last: bool) -> Round:
    try:
        deck = [Card.parse(c) for c in rr.deck]
        r = Round(rules, record.seats, record.teams, rr.dealer, deck)
    except (CardError, DealError) as e:
        raise RecordError(i, 0, str(e)) from None
    if rules.cut_choice:
        if rr.cut is None:
            if last and not rr.plays:
                return r  # an unfinished game stopped at the cut
            raise RecordError(i, 0, "the cutter's decision (cut: keep or table) is missing")
        r.apply(Cut(rr.cut))
    elif rr.cut is not None:
        raise RecordError(i, 0, f"rules {rules.name!r} have no cut decision")
    if r.void:
        ranks = [c for c in cards_of(r.table)]
        raise RecordError(
            i, 0, f"void deal: the table {' '.join(map(str, ranks))} must be dealt again"
        )
    return r
