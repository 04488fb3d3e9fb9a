"""The Chkobba family (every preset of ``chkobba rules``) behind the game interface.

:data:`CHKOBBA_GAME` is the family's side of :class:`~chkobba.games.base.Game`, and
:class:`ChkobbaTable` its match in progress, over :class:`~chkobba.fishing.match.Match`.
What a seat sees (:meth:`ChkobbaTable.view`) is built from
:func:`chkobba.fishing.observe.observe` of that seat only, so it can carry no card the
seat may not know.
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from chkobba.agents import AGENTS
from chkobba.agents import base as agents_base
from chkobba.agents.base import MEASUREMENT_ONLY, make_agent, playable_agents
from chkobba.fishing.cards import CARDS, cards_of, sort_for_display
from chkobba.fishing.game import IllegalMove, Phase, Round, Turn, check_seating
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Cut, Move, NotationError, parse_move
from chkobba.fishing.narrate import narrate_round, side_name
from chkobba.fishing.observe import Observation, observe, observe_round
from chkobba.fishing.record import FORMAT, GameRecord, replay, round_record
from chkobba.fishing.rules import CHKOBBA, PRESETS, RULES_VERSION, RuleSet, preset
from chkobba.fishing.scoring import POINT_KEYS, SWEEP_WORDS, RoundScore
from chkobba.games.base import Decks, MatchTable, MoveRefused, Player, match_lines

TARGETS: Final = (11, 21, 31)
"""The match targets the lobby offers besides a preset's own."""


# -- what a seat sees, as JSON ---------------------------------------------------


def card_list(mask: int) -> list[str]:
    """A set of cards in the notation, in display order."""
    return [str(c) for c in sort_for_display(cards_of(mask))]


@functools.lru_cache(maxsize=1 << 16)
def turn_json(t: Turn) -> dict[str, Any]:
    """One entry of a round's public history (cached: histories are resent on every move)."""
    return {"seat": t.seat, "move": str(t.move), "chkobba": t.chkobba}


def score_json(score: RoundScore) -> dict[str, Any]:
    """A round's breakdown: who scored each point and the counts behind it."""
    out = score.to_json()
    out["diamonds"] = list(score.diamonds)
    out["sevens"] = list(score.sevens)
    out["sixes"] = list(score.sixes)
    return out


def finished_round_json(r: Round) -> dict[str, Any]:
    """A finished round as everybody may see it: its plays, the final sweep, the points."""
    assert r.score is not None
    return {
        "dealer": r.dealer,
        "history": [turn_json(t) for t in r.history],
        "swept": card_list(r.swept),
        "taker": r.last_capturer,
        "leftover": card_list(r.leftover),
        "score": score_json(r.score),
    }


def observation_json(obs: Observation) -> dict[str, Any]:
    """One seat's observation as JSON: nothing that seat may not know."""
    return {
        "you": obs.seat,
        "phase": obs.phase.value,
        "round": obs.round_number,
        "turn": obs.turn,
        "dealer": obs.dealer,
        "cutter": obs.cutter,
        "hand": card_list(obs.hand),
        "table": card_list(obs.table),
        "cut_card": str(CARDS[obs.cut_card]) if obs.cut_card is not None else None,
        "history": [turn_json(t) for t in obs.history],
        "piles": [p.bit_count() for p in obs.piles],
        "chkobba": list(obs.chkobba),
        "hand_sizes": list(obs.hand_sizes),
        "stock": obs.stock,
        "totals": list(obs.totals),
        "target": obs.target,
        "legal": [str(m) for m in obs.legal_moves],
        **declarations_json(obs),
    }


def declarations_json(obs: Observation) -> dict[str, Any]:
    """The hands declared this round (Cirulla), shown face up to everyone, and per seat
    the shown cards still held; nothing in a game without declarations."""
    if not obs.declarations:
        return {}
    return {
        "declarations": [
            {
                "seat": d.seat,
                "name": d.name,
                "points": d.points,
                "cards": card_list(d.cards),
                "wild": d.wild,
            }
            for d in obs.declarations
        ],
        "shown": [card_list(m) for m in obs.shown],
    }


def finished_json(match: Match) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The breakdown of every finished round, and the last finished round in full."""
    rounds = [score_json(r.score) for r in match.finished if r.score is not None]
    previous = finished_round_json(match.finished[-1]) if match.finished else None
    return rounds, previous


def point_names(rules: RuleSet) -> list[dict[str, str]]:
    """The points of the rule set's breakdown, in its order, in its game's words."""
    return [
        {
            "key": key,
            "name": POINT_KEYS[key].label,
            "native": POINT_KEYS[key].native,
            "rule": POINT_KEYS[key].rule,
            # The word shouted at a sweep of the table (scopa!, escoba!), for its point.
            **({"word": SWEEP_WORDS[key]} if key in SWEEP_WORDS else {}),
        }
        for key in rules.scoring
    ]


# -- the computer players people meet ----------------------------------------------


LEARNED: Final = ("neural",)
"""Learned players offered among the levels when installed (``chkobba.rl.neural``)."""


def levels() -> list[str]:
    """The computer players a game may be given, weakest first (none that sees hidden cards)."""
    make_agent("random", 0)  # loads the built-in players into the registry
    try:
        # The interfaces' named levels, when the AI package provides them.
        named = ["random", *importlib.import_module("chkobba.agents.levels").LEVELS]
    except (ImportError, AttributeError):
        named = sorted(AGENTS)
    # The learned player, where numpy is installed (it registers itself): about as strong
    # as ``medium``, so it is listed next to it.
    for name in LEARNED:
        if name in AGENTS and name not in named:
            named.insert(named.index("medium") + 1 if "medium" in named else len(named), name)
    # Players the server was started with (``chkobba serve --player policy:PATH``).
    named += [n for n in getattr(agents_base, "OFFERED", []) if n not in named]
    return [n for n in named if is_fair(n)]


def is_fair(level: str) -> bool:
    """Whether ``level`` names a player that only ever looks at its own observation."""
    make_agent("random", 0)  # loads the built-in players into the registry
    factory = AGENTS.get(level)
    # Players kept for measurements (they see every card) are never seated against people.
    return (
        factory is not None
        and level not in MEASUREMENT_ONLY
        and not getattr(factory, "sees_all", False)
    )


def void_for_some_cut(
    rules: RuleSet, players: int, teams: bool, dealer: int, deck: Sequence[int]
) -> bool:
    """Whether dealing ``deck`` would be void for at least one cut decision."""
    r = Round(rules, players, teams, dealer, deck)
    if r.phase is not Phase.CUT:
        return r.void
    for cut in Cut:
        trial = r.copy()
        trial.apply_unchecked(cut)
        if trial.void:
            return True
    return False


def draw_deck(
    rng: random.Random, rules: RuleSet, players: int, teams: bool, dealer: int
) -> tuple[int, ...]:
    """A shuffle whose deal is valid whatever the cutter decides (docs/duel.md, void deals)."""
    while True:
        deck = list(range(40))
        rng.shuffle(deck)
        if not void_for_some_cut(rules, players, teams, dealer, deck):
            return tuple(deck)


class ChkobbaTable(MatchTable[Move]):
    """A :class:`~chkobba.fishing.match.Match` of the Chkobba family, as a :class:`Table`.

    With ``decks`` every round after the first is dealt from the pair's shared
    deck of its number (the match's own shuffle for it is set aside), so that the
    games of a duplicate pair play the same cards even when their matches last a
    different number of rounds.
    """

    match: Match

    def __init__(self, match: Match, decks: Decks | None = None) -> None:
        self.match = match
        self.decks = decks
        self._finished: tuple[int, Any] = (-1, None)

    @property
    def side_of(self) -> tuple[int, ...]:
        """The side of each seat."""
        return self.match.side_of

    def observe(self, seat: int) -> Any:
        """The seat's :class:`~chkobba.fishing.observe.Observation`."""
        return observe(self.match, seat)

    def state(self) -> Any:
        """A copy of the round being played."""
        return self.match.round.copy()

    def apply_unchecked(self, move: Any) -> None:
        """Apply the move; with shared decks, deal the next round from them."""
        m = self.match
        done = len(m.finished)
        m.apply_unchecked(move)
        if self.decks is None:
            return
        if m.void_deals:
            # draw_deck rules this out; reaching it would be a bug here, not in a player.
            raise RuntimeError("a void deal was played: the deck should have been redrawn")
        if len(m.finished) > done and not m.is_over:
            r = m.round
            m.round = Round(m.rules, m.seats, m.teams, r.dealer, self.decks(len(m.finished)))

    def round_points(self, k: int) -> tuple[int, ...]:
        """Each side's points in finished round ``k``."""
        score = self.match.finished[k].score
        assert score is not None
        return tuple(score.points)

    def totals(self) -> tuple[int, ...]:
        """Each side's match points."""
        return tuple(self.match.totals)

    def record(self, names: Sequence[str], meta: dict[str, Any]) -> GameRecord:
        """A ``chkobba-record/1`` of the finished rounds."""
        m = self.match
        return GameRecord(
            rules=m.rules.name,
            options=m.rules.changed_options(),
            seats=m.seats,
            teams=m.teams,
            names=list(names),
            rounds=[round_record(r) for r in m.finished],
            meta=meta,
        )

    # -- what a server and its pages need ----------------------------------------

    @property
    def rules_name(self) -> str:
        """The preset's name."""
        return self.match.rules.name

    @property
    def target(self) -> int:
        """The match target."""
        return self.match.rules.target

    @property
    def seats(self) -> int:
        """How many seats play."""
        return self.match.seats

    @property
    def teams(self) -> bool:
        """Whether partners play."""
        return self.match.teams

    notation_error = NotationError

    def _read(self, text: str) -> Move:
        return parse_move(text)

    def _why_illegal(self, move: Move) -> str | None:
        m = self.match
        return None if move in m.legal_moves() else m.round.explain_illegal(move)

    def play(self, seat: int, text: str) -> str:
        """Play ``text`` for ``seat``, checked (:class:`~chkobba.games.base.MoveRefused`)."""
        move = self._checked(seat, text)
        try:
            self.match.apply(move, seat)
        except IllegalMove as e:  # pragma: no cover - legal_moves said it was legal
            raise MoveRefused("illegal_move", str(e)) from None
        return str(move)

    def automatic(self) -> str | None:
        """Every choice in the Chkobba family is a real one."""
        return None

    def fresh(self) -> bool:
        """Whether the round in progress has no move yet, or the match is over."""
        return not self.match.round.history or self.match.is_over

    def _finished_json(self) -> Any:
        # Computed once per finished round: every view of every seat shares it.
        n = len(self.match.finished)
        if self._finished[0] != n:
            self._finished = (n, finished_json(self.match))
        return self._finished[1]

    def view(self, seat: int, names: Sequence[str], full: bool = True) -> dict[str, Any]:
        """The seat's observation (docs/protocol.md, ``state``), every finished round's
        breakdown and, if ``full``, the last finished round in full."""
        out = observation_json(observe(self.match, seat))
        out["over"] = self.match.is_over
        out["winner"] = self.match.winner
        rounds, previous = self._finished_json()
        out["rounds"] = rounds
        if full:
            out["previous"] = previous
        return out

    def open_view(self, names: Sequence[str], ended: bool = False) -> dict[str, Any]:
        """The spectator's view with every hand face up (``hands``) and the last move
        (``events``); with ``ended``, the round the last move finished, as it ended (its
        breakdown in ``end``), instead of the one dealt after it."""
        m = self.match
        r = m.finished[-1] if ended else m.round
        number = len(m.finished) + (0 if ended else 1)
        out = observation_json(observe_round(r, -1, tuple(m.totals), number, m.rules.target))
        out["hands"] = [card_list(h) for h in r.hands]
        out["events"] = [turn_json(r.history[-1])] if r.history else []
        out["over"] = m.is_over
        out["winner"] = m.winner
        if ended:
            out["end"] = finished_round_json(r)
        return out


class ChkobbaGame:
    """Chkobba and every game of the Scopa family (the presets of ``chkobba rules``)."""

    name = "chkobba"
    round_word = "round"
    page = "/g"
    """Where the pages play a game of it: ``/g/CODE``."""

    def players(self) -> list[str]:
        """Every registered player, those for measurements only (the cheater) included."""
        return sorted({*playable_agents(), *MEASUREMENT_ONLY})

    def check_player(self, name: str) -> None:
        """Raise :class:`~chkobba.agents.AgentError` for an unknown player."""
        make_agent(name, 0)

    def make_agent(self, name: str, seed: int) -> Player:
        """The registered player ``name``."""
        return make_agent(name, seed)

    def rules(self, preset_name: str | None = None) -> RuleSet:
        """The preset (default Chkobba)."""
        return CHKOBBA if preset_name is None else preset(preset_name)

    def with_target(self, rules: RuleSet, target: int) -> RuleSet:
        """The rule set with ``target``."""
        return rules.with_options({"target": target})

    def rules_json(self, rules: RuleSet) -> tuple[str, dict[str, Any]]:
        """The preset's name and the options changed from it."""
        return rules.name, rules.changed_options()

    def seatings(self, rules: RuleSet) -> tuple[str, ...]:
        """The rule set's ``seatings``."""
        return rules.seatings

    def check_table(self, rules: RuleSet, seats: int, teams: bool) -> None:
        """The engine's own check of a seating against the rules."""
        check_seating(seats, teams, rules)

    def lowest_wins(self, rules: RuleSet) -> bool:
        """Scopa a perdere: the fewest points win."""
        return rules.lowest_wins

    def draw_deck(
        self, rng: random.Random, rules: RuleSet, seats: int, teams: bool, dealer: int
    ) -> tuple[int, ...]:
        """A shuffle valid for either cut decision (:func:`draw_deck`)."""
        return draw_deck(rng, rules, seats, teams, dealer)

    def start(
        self,
        rules: RuleSet,
        seats: int,
        teams: bool,
        seed: int,
        dealer: int | None = None,
        decks: Decks | None = None,
    ) -> ChkobbaTable:
        """A match, from ``seed`` or on the shared ``decks``."""
        first = decks(0) if decks is not None else None
        match = Match(rules, seats, teams, seed=seed, first_dealer=dealer, first_deck=first)
        return ChkobbaTable(match, decks)

    # -- what a server and its pages need ----------------------------------------

    def make_rules(
        self, preset_name: str | None, options: Mapping[str, Any], version: int | None = None
    ) -> RuleSet:
        """The preset (default Chkobba) with ``options``, as defined in rules ``version``."""
        return preset(
            preset_name or "chkobba", dict(options), RULES_VERSION if version is None else version
        )

    def rule_sets(self) -> list[str]:
        """Every preset of ``chkobba rules``, Chkobba first."""
        return list(PRESETS)

    def levels(self) -> list[str]:
        """The named levels (:func:`levels`)."""
        return levels()

    def default_level(self) -> str:
        """A beginner's opponent: the first named level above random."""
        named = levels()
        return "medium" if "medium" in named else named[0]

    def fair(self, level: str) -> bool:
        """Any registered player that sees only its own cards (:func:`is_fair`)."""
        return is_fair(level)

    def targets(self, rules: RuleSet) -> tuple[int, ...]:
        """The preset's own target, then 11, 21 and 31."""
        return (rules.target, *(t for t in TARGETS if t != rules.target))

    def point_names(self, rules: RuleSet) -> list[dict[str, str]]:
        """The preset's points (:func:`point_names`)."""
        return point_names(rules)

    def deck(self, rules: RuleSet) -> str:
        """The rule option ``deck``."""
        return rules.deck

    def serve(self, rules: RuleSet, seats: int, teams: bool, seed: int) -> ChkobbaTable:
        """A match shuffled from ``seed``."""
        return ChkobbaTable(Match(rules, seats, teams, seed))

    def parse(self, text: str) -> Move:
        """A move in the notation (``keep``, ``5s``, ``Qh:7d+Ah``)."""
        return parse_move(text)

    # -- its records ---------------------------------------------------------------

    record_format = FORMAT

    def read_record(self, path: str | Path) -> GameRecord:
        """A ``chkobba-record/1`` file (:class:`~chkobba.fishing.record.RecordError`)."""
        return GameRecord.load(path)

    def verify(self, record: GameRecord) -> tuple[str, dict[str, Any]]:
        """``valid: R round(s), totals [...], won by side S`` (or ``unfinished``), and the
        rounds' points, the totals and the winner."""
        rep = replay(record)
        state = "unfinished" if rep.winner is None else f"won by side {rep.winner}"
        return f"valid: {len(rep.rounds)} round(s), totals {rep.totals}, {state}", rep.to_json()

    def replay_lines(self, record: GameRecord) -> list[str]:
        """Every round play by play with its breakdown, then the match score and winner."""
        rep = replay(record)
        names = record.names
        out: list[str] = []
        for i, r in enumerate(rep.rounds, 1):
            out += [*narrate_round(r, i, names), ""]
        side_of = rep.rounds[0].side_of if rep.rounds else tuple(range(record.seats))
        totals = ", ".join(f"{side_name(s, side_of, names)} {t}" for s, t in enumerate(rep.totals))
        winner = None if rep.winner is None else side_name(rep.winner, side_of, names)
        return out + match_lines(totals, rep.rules.target, winner)


CHKOBBA_GAME: Final = ChkobbaGame()
"""The Chkobba family, as every surface plays it."""
