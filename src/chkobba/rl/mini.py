"""A reduced Chkobba for OpenSpiel's exact tools: ``pyspiel.load_game("chkobba_mini")``.

The full game is far too large for CFR or an exact best response. This variant keeps
Chkobba's play (the engine's captures: a card takes a table card of its rank if there
is one, else cards adding up to its value; a sweep scores) on a deck small enough that
OpenSpiel's CFR, CFR+ and ``exploitability`` run over its whole tree in minutes:

* **the deck**: the ranks 1 to ``ranks`` (default 3: ace, 2, 3) of diamonds and
  spades, ``2 * ranks`` cards, numbered as in the full game (:mod:`chkobba.fishing.cards`);
* **one deal**, one chance node: ``table`` cards (default 1) face up, ``hand`` cards
  (default 2) to each of the two players; the cards left are never dealt (so a player
  does not know the other's hand);
* **play**: seat 0 first, then in turn, one card a turn until the hands are empty; the
  last player to capture takes what is left on the table;
* **points** (the returns are seat 0's points minus seat 1's, and the reverse): one to
  the side with more cards, one to the side with more diamonds (none on a tie), one
  for each sweep (a capture that empties the table, except on the last play).

An action is a play: ``slot * MAX_OPTIONS + k``, where ``slot`` is the card's place in
the deck (:meth:`MiniGame.cards`) and ``k`` the index of its capture among the card's
legal captures in ascending order of their card masks (0: the lay, when it is legal).
The information state string is the player's perfect recall: its hand and the table
as dealt, and every play in order.

:func:`observation` turns a state into what a chkobba player (``greedy``,
``heuristic``, the expert) sees at that point, so that a player can be queried on every
information state and its choices turned into a tabular policy (:func:`agent_policy`),
whose exploitability OpenSpiel measures (``bench/openspiel_exact.py``, docs/rl.md).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import pyspiel

from chkobba.fishing.cards import CARDS, format_cards
from chkobba.fishing.game import Phase, Turn
from chkobba.fishing.moves import Move, Play
from chkobba.fishing.observe import Observation
from chkobba.fishing.rules import CHKOBBA, RuleSet
from chkobba.search.fast import legal_plays

GAME_NAME: Final = "chkobba_mini"
MAX_OPTIONS: Final = 8
"""Room for a card's legal captures in the action ids."""
DEFAULTS: Final[dict[str, Any]] = {"ranks": 3, "hand": 2, "table": 1}
"""The variant's parameters and their defaults."""
_SPADES, _DIAMONDS = 0, 2

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Chkobba on a reduced deck, one deal (for exact solving)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=DEFAULTS,
)


@dataclass(frozen=True, slots=True)
class Deal:
    """One outcome of the chance node: the table and the two hands, as card masks."""

    table: int
    hands: tuple[int, int]


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _player_rules(hand: int, table: int) -> RuleSet:
    """Chkobba's rules as the players are told them here: the variant's hand and table
    sizes (so that a player counts the plays of the deal right), no cut. The full
    game's checks (40 cards in whole deals) do not hold for a reduced deck, so the
    copy is made without them."""
    rules = copy.copy(CHKOBBA)
    object.__setattr__(rules, "name", f"chkobba_mini-{hand}-{table}")
    object.__setattr__(rules, "hand_size", hand)
    object.__setattr__(rules, "table_size", table)
    object.__setattr__(rules, "cut_choice", False)
    return rules


class Layout:
    """A variant's cards and deals, made once per parameter set (shared by its states)."""

    def __init__(self, ranks: int, hand: int, table: int) -> None:
        """Check the parameters and list the deals."""
        if not 1 <= ranks <= 10:
            raise ValueError(f"ranks must be 1 to 10, not {ranks}")
        if hand < 1 or table < 0 or table + 2 * hand > 2 * ranks:
            raise ValueError(
                f"{2 * ranks} cards cannot deal {table} to the table and {hand} to each player"
            )
        self.ranks, self.hand, self.table = ranks, hand, table
        self.cards = tuple(sorted(s * 10 + r for s in (_SPADES, _DIAMONDS) for r in range(ranks)))
        self.deck = _mask(self.cards)
        self.rules = _player_rules(hand, table)
        self.deals: list[Deal] = []
        for t in itertools.combinations(self.cards, table):
            rest = [c for c in self.cards if c not in t]
            for h0 in itertools.combinations(rest, hand):
                rest1 = [c for c in rest if c not in h0]
                for h1 in itertools.combinations(rest1, hand):
                    self.deals.append(Deal(_mask(t), (_mask(h0), _mask(h1))))

    def __deepcopy__(self, memo: dict[int, Any]) -> Layout:
        """Immutable: OpenSpiel's clone shares it."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its parameters."""
        return (layout, (self.ranks, self.hand, self.table))


_LAYOUTS: dict[tuple[int, int, int], Layout] = {}


def layout(ranks: int, hand: int, table: int) -> Layout:
    """The variant's :class:`Layout` (made once)."""
    key = (ranks, hand, table)
    got = _LAYOUTS.get(key)
    if got is None:
        got = _LAYOUTS[key] = Layout(*key)
    return got


class MiniGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The reduced game (see the module's docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """Check the parameters and list the deals."""
        p = {**DEFAULTS, **(params or {})}
        unknown = set(p) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown parameter(s) {sorted(unknown)}: known {sorted(DEFAULTS)}")
        self.layout = layout(int(p["ranks"]), int(p["hand"]), int(p["table"]))
        self.cards = self.layout.cards
        self.deals = self.layout.deals
        hand = self.layout.hand
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.cards) * MAX_OPTIONS,
            max_chance_outcomes=len(self.deals),
            num_players=2,
            min_utility=-float(3 + hand),
            max_utility=float(3 + hand),
            utility_sum=0.0,
            max_game_length=1 + 2 * hand,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> MiniState:
        """Before the deal."""
        return MiniState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MiniObserver:
        """Strings only: the information state (perfect recall) or the current view."""
        return MiniObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


def plays_of(hand: int, table: int) -> list[tuple[int, int]]:
    """The legal plays ``(card, capture)`` of ``hand`` on ``table`` (Chkobba's captures)."""
    return legal_plays(hand, table, CHKOBBA)


@dataclass(frozen=True, slots=True)
class Position:
    """Everything a state holds after the deal, immutable (a step makes a new one)."""

    dealt: Deal
    hands: tuple[int, int]
    table: int
    piles: tuple[int, int] = (0, 0)
    sweeps: tuple[int, int] = (0, 0)
    last: int | None = None
    """The seat that captured last."""
    turn: int = 0
    plays: tuple[tuple[int, int, int, bool], ...] = ()
    """``(seat, card, capture, sweep)`` of each play, in order."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        """Immutable: OpenSpiel's clone shares it."""
        return self


class MiniState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A state: the deal, then the plays. It holds two shared immutable values (the
    variant's layout and the position), so that OpenSpiel's clone, which copies each
    attribute, costs almost nothing beyond a new state."""

    def __init__(self, game: MiniGame) -> None:
        """Before the deal."""
        super().__init__(game)
        try:
            self.mini = game.layout
        except AttributeError:  # a game object without its Python attributes
            p = game.get_parameters()
            self.mini = layout(int(p["ranks"]), int(p["hand"]), int(p["table"]))
        self.pos: Position | None = None

    # The position's parts, read as the state's own.
    @property
    def dealt(self) -> Deal | None:
        """The deal (None before it)."""
        return None if self.pos is None else self.pos.dealt

    @property
    def hands(self) -> tuple[int, int]:
        """Each seat's hand now."""
        return (0, 0) if self.pos is None else self.pos.hands

    @property
    def table(self) -> int:
        """The table now."""
        return 0 if self.pos is None else self.pos.table

    @property
    def piles(self) -> tuple[int, int]:
        """The cards each seat captured."""
        return (0, 0) if self.pos is None else self.pos.piles

    @property
    def sweeps(self) -> tuple[int, int]:
        """The sweeps each seat scored."""
        return (0, 0) if self.pos is None else self.pos.sweeps

    @property
    def last(self) -> int | None:
        """The seat that captured last."""
        return None if self.pos is None else self.pos.last

    @property
    def turn(self) -> int:
        """The seat to move."""
        return 0 if self.pos is None else self.pos.turn

    @property
    def plays(self) -> tuple[tuple[int, int, int, bool], ...]:
        """The plays so far."""
        return () if self.pos is None else self.pos.plays

    def current_player(self) -> int:
        """CHANCE before the deal, TERMINAL once the hands are empty, else the seat."""
        pos = self.pos
        if pos is None:
            return int(pyspiel.PlayerId.CHANCE)
        if not (pos.hands[0] | pos.hands[1]):
            return int(pyspiel.PlayerId.TERMINAL)
        return pos.turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every deal, equally likely."""
        n = len(self.mini.deals)
        return [(i, 1.0 / n) for i in range(n)]

    def _options(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for card, cap in plays_of(self.hands[self.turn], self.table):
            out.setdefault(card, []).append(cap)
        return {c: sorted(caps) for c, caps in out.items()}

    def _legal_actions(self, player: int) -> list[int]:
        slots = self.mini.cards
        out = []
        for card, caps in self._options().items():
            if len(caps) > MAX_OPTIONS:
                raise pyspiel.SpielError(f"{CARDS[card]} has {len(caps)} captures: too many")
            out += [slots.index(card) * MAX_OPTIONS + k for k in range(len(caps))]
        return sorted(out)

    def move_of(self, action: int) -> Play:
        """The play an action id names (for the player to move)."""
        card = self.mini.cards[action // MAX_OPTIONS]
        caps = self._options().get(card, [])
        k = action % MAX_OPTIONS
        if k >= len(caps):
            raise pyspiel.SpielError(f"action {action} is illegal now")
        return Play(card, caps[k])

    def action_of(self, move: Move) -> int:
        """The action id of a legal play."""
        assert type(move) is Play
        caps = self._options()[move.card]
        return self.mini.cards.index(move.card) * MAX_OPTIONS + caps.index(move.capture)

    def _apply_action(self, action: int) -> None:
        pos = self.pos
        if pos is None:
            d = self.mini.deals[action]
            self.pos = Position(d, d.hands, d.table)
            return
        card, cap = self.move_of(action)
        seat = pos.turn
        hands = list(pos.hands)
        hands[seat] &= ~(1 << card)
        piles, sweeps = list(pos.piles), list(pos.sweeps)
        last_play = not (hands[0] | hands[1])
        sweep = False
        table, last = pos.table, pos.last
        if cap:
            table &= ~cap
            piles[seat] |= cap | 1 << card
            last = seat
            sweep = table == 0 and not last_play
            sweeps[seat] += sweep
        else:
            table |= 1 << card
        if last_play and last is not None:
            piles[last] |= table
            table = 0
        self.pos = Position(pos.dealt, (hands[0], hands[1]), table, (piles[0], piles[1]),
                            (sweeps[0], sweeps[1]), last, 1 - seat,
                            (*pos.plays, (seat, card, cap, sweep)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            d = self.mini.deals[action]
            return (f"deal table {format_cards(d.table) or '-'} | {format_cards(d.hands[0])} | "
                    f"{format_cards(d.hands[1])}")
        card = self.mini.cards[action // MAX_OPTIONS]
        return f"{CARDS[card]}#{action % MAX_OPTIONS}"

    def is_terminal(self) -> bool:
        """Whether both hands are played out."""
        pos = self.pos
        return pos is not None and not (pos.hands[0] | pos.hands[1])

    def points(self) -> tuple[int, int]:
        """Each seat's points so far (final once the game is over)."""
        pts = list(self.sweeps)
        cards = [p.bit_count() for p in self.piles]
        coins = [(p >> 20 & 0x3FF).bit_count() for p in self.piles]
        for counts in (cards, coins):
            if counts[0] != counts[1]:
                pts[0 if counts[0] > counts[1] else 1] += 1
        return pts[0], pts[1]

    def returns(self) -> list[float]:
        """Seat 0's points minus seat 1's, and the reverse (0 before the end)."""
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self.points()
        return [float(a - b), float(b - a)]

    def __str__(self) -> str:
        """Every card shown (debugging)."""
        if self.dealt is None:
            return "dealing"
        return (f"hands {format_cards(self.hands[0]) or '-'} | {format_cards(self.hands[1]) or '-'}"
                f" table {format_cards(self.table) or '-'} turn {self.turn}")

    def information_state_text(self, player: int) -> str:
        """The player's perfect recall: its hand and the table as dealt, every play."""
        if self.dealt is None:
            return f"p{player}"
        out = [f"p{player} hand {format_cards(self.dealt.hands[player])} "
               f"table {format_cards(self.dealt.table) or '-'}"]
        for seat, card, cap, sweep in self.plays:
            out.append(f"s{seat} {CARDS[card]}x{format_cards(cap) or '-'}{'!' if sweep else ''}")
        return " / ".join(out)

    def observation_for(self, player: int) -> Observation:
        """What a chkobba player in ``player``'s seat sees now, as the full game shows it:
        the cards never dealt are unseen, and stand for the stock (they are never dealt:
        a player of the full game may expect them, which is part of how it plays here)."""
        seen = self.dealt.hands[player] | self.dealt.table if self.dealt else 0
        history = []
        for seat, card, cap, sweep in self.plays:
            seen |= 1 << card
            history.append(Turn(seat, Play(card, cap), sweep))
        to_move = not self.is_terminal() and self.turn == player
        moves = tuple(Play(c, cap) for c, cap in plays_of(self.hands[player], self.table)) \
            if to_move else ()
        last = self.last
        unseen = self.mini.deck & ~seen
        # The cards never dealt are, to a player of the full game, the stock: the cards
        # it has not seen fill the other hand and the stock.
        stock = unseen.bit_count() - self.hands[1 - player].bit_count()
        return Observation(
            seat=player, seats=2, teams=False, rules=self.mini.rules, side_of=(0, 1),
            phase=Phase.OVER if self.is_terminal() else Phase.PLAY, turn=self.turn, dealer=1,
            cutter=0, round_number=1, hand=self.hands[player], table=self.table,
            cut_card=None, history=tuple(history), piles=self.piles, chkobba=self.sweeps,
            last_capturer=last, hand_sizes=(self.hands[0].bit_count(), self.hands[1].bit_count()),
            stock=stock, unseen=unseen, totals=(0, 0), target=CHKOBBA.target,
            legal_moves=moves,
        )


class MiniObserver:
    """OpenSpiel's observer of the reduced game: strings only."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        """The information state (perfect recall) or the current view."""
        if params:
            raise ValueError(f"the chkobba_mini observer takes no parameters, not {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: MiniState, player: int) -> None:
        """No tensor."""

    def string_from(self, state: MiniState, player: int) -> str:
        """The player's recall, or what it sees now."""
        if self.perfect_recall:
            return state.information_state_text(player)
        return (f"p{player} hand {format_cards(state.hands[player]) or '-'} "
                f"table {format_cards(state.table) or '-'} turn {state.turn}")


pyspiel.register_game(_GAME_TYPE, MiniGame)


Chooser = Callable[[Observation], Move]
"""A player's decision: ``Agent.choose``."""


def agent_policy(game: Any, choose: Chooser) -> Any:
    """The tabular policy (OpenSpiel's ``TabularPolicy``) that plays as ``choose`` does at
    every information state of ``game``: the player is asked once per information state,
    from one state of it (a player sees only the information state, so any will do)."""
    from open_spiel.python import policy as os_policy

    table = os_policy.TabularPolicy(game)
    asked: set[str] = set()

    def walk(state: MiniState) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                walk(state.child(a))
            return
        player = state.current_player()
        key = state.information_state_string(player)
        if key not in asked:
            asked.add(key)
            move = choose(state.observation_for(player))
            probs = table.policy_for_key(key)
            probs[:] = 0.0
            probs[state.action_of(move)] = 1.0
        for a in state.legal_actions():
            walk(state.child(a))

    walk(game.new_initial_state())
    return table


class RecallError(AssertionError):
    """An information state that breaks perfect recall or mixes different situations."""


def check_recall(game: Any) -> tuple[int, int]:
    """Check ``game`` over its whole tree before solving it: every information state
    string belongs to one recall of one player (the same sequence of that player's own
    earlier information states and actions), with the same legal actions and the same
    hand in every history it holds. Raise :class:`RecallError` otherwise; return the
    numbers of histories and of information states."""
    recall: dict[str, tuple[Any, ...]] = {}
    facts: dict[str, tuple[Any, ...]] = {}
    histories = 0

    def walk(state: Any, own: tuple[tuple[tuple[str, int], ...], ...]) -> None:
        nonlocal histories
        histories += 1
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                walk(state.child(a), own)
            return
        p = state.current_player()
        key = state.information_state_string(p)
        if recall.setdefault(key, own[p]) != own[p]:
            raise RecallError(f"not perfect recall at {key!r}")
        fact = (p, tuple(state.legal_actions()), state.hands[p])
        if facts.setdefault(key, fact) != fact:
            raise RecallError(f"{key!r} holds different situations")
        for a in state.legal_actions():
            after = list(own)
            after[p] = (*own[p], (key, a))
            walk(state.child(a), tuple(after))

    walk(game.new_initial_state(), ((), ()))
    return histories, len(recall)
