"""Chkobba and its family as an OpenSpiel game: ``pyspiel.load_game("chkobba")``.

Importing this module registers the Python game ``chkobba`` with OpenSpiel
(``pip install 'chkobba[openspiel]'``), so that OpenSpiel's algorithms (CFR and
MCCFR, NFSP, PSRO, its MCTS and ISMCTS bots, the exploitability tools) run on
every preset of the engine. Parameters: ``preset`` (a preset name, ``chkobba``),
``players`` (2, 3 or 4), ``teams`` (2 against 2), ``episode`` (``round``, one
deal of the 40 cards, or ``match``, rounds to the preset's target) and
``max_rounds`` (a match still undecided after that many rounds is a draw).

**Chance is explicit.** The first chance node picks the first dealer (one
outcome per seat); then each shuffle is 39 chance nodes, each drawing the next
card of the deck uniformly among the cards not drawn yet (the 40th is what is
left). A void deal (docs/rules.md §2.2) is shuffled again by the same chance nodes,
as at a real table. Everything after the shuffle is the engine
(:class:`chkobba.fishing.game.Round`): the cutter's keep-or-table decision is a player
decision, and the players' actions are the 83 ``chkobba_v1`` actions of
:mod:`chkobba.rl.spaces` (a capture among several is chosen card by card).

**Returns**, all at the end: for a round, each seat's side's points minus the
other sides' mean (the margin with two sides, as in :mod:`chkobba.rl.aec`); for
a match, +1 to the winning side's seats and ``-1 / (sides - 1)`` to the others,
0 to all for a match undecided after ``max_rounds``. Zero-sum either way.

**Observations** (:class:`ChkobbaObserver`): the information state string is
the player's perfect recall (every card it was dealt or shown, every public
play, its own partial capture choice, void deals included, across the match);
the information state tensor is the ``chkobba_v1+history`` vector of the round
(:class:`~chkobba.rl.spaces.ObsSpec`) and the cut card the player saw as cutter;
the observation string and tensor are the current ``chkobba_v1`` view; the
public observation (``private_info=NONE``) leaves out the player's hand, cut
card and choice. On the fast path the compiled kernel's round writes the observation
and information state tensors (:class:`ChkobbaObserver`), and the state's
``observation_tensor`` and ``information_state_tensor`` answer in Python.
``resample_from_infostate`` deals the cards the player has not
seen at random among the places they may be, which is what ISMCTS needs.

Players for ``chkobba duel`` and ``tournament``: ``openspiel-ismcts`` and
``openspiel-mcts`` (:func:`bot_agent`), registered by :mod:`chkobba.agents.base`
when OpenSpiel is installed.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import pyspiel

from chkobba.fishing.cards import CARDS, format_cards
from chkobba.fishing.game import Phase, Round, side_map
from chkobba.fishing.match import decide_match
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.observe import Observation, observe_round
from chkobba.fishing.rules import RuleSet, preset
from chkobba.fishing.scoring import has_rule
from chkobba.rl.aec import round_rewards
from chkobba.rl.encoder import Moves, encode_round, kernel_plays, legal_moves, plays_kernel
from chkobba.rl.spaces import (
    HISTORY_ENTRY,
    KEEP,
    NUM_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    TABLE,
    Choice,
    IllegalAction,
    ObsSpec,
    action_name,
    actions_for,
    decide,
    encode,
    encode_history,
    history_length,
    legal_actions,
)
from chkobba.search import fast

try:
    from chkobba import _fastcore
except ImportError:  # not built: no compiler where the package was installed
    _fastcore = None  # type: ignore[assignment]

_SPIEL_ROUND: Final = fast.AVAILABLE and hasattr(_fastcore, "SpielRound")
_KERNEL_TENSORS: Final = _SPIEL_ROUND and hasattr(_fastcore.SpielRound, "observe")
"""Whether the kernel's round writes the observers' tensors itself (:class:`ChkobbaObserver`)."""
FAST = True
"""Whether new states play their rounds on the compiled kernel where it can (the rules
and table it supports, ``CHKOBBA_PURE`` unset): the fast path. False: the engine plays
them (the pure path, the reference; ``tests/test_rl_openspiel_fast.py`` checks that both
agree)."""

GAME_NAME: Final = "chkobba"
"""The short name the game is registered under."""
DEFAULTS: Final[dict[str, Any]] = {
    "preset": "chkobba",
    "players": 2,
    "teams": False,
    "episode": "round",
    "max_rounds": 30,
    "infostate": "round",
}
"""The game's parameters and their defaults."""
MAX_VOID_DEALS: Final = 20
"""Void deals in a row that :data:`max_game_length` allows for: each deal is void
with a probability of a few percent, so a longer history is below 1e-30."""

_OUTCOMES: Final = [[(c, 1.0 / n) for c in range(40)] if n else [] for n in range(41)]
"""``_OUTCOMES[n][c]``: the chance outcome of drawing card ``c`` among ``n`` cards left."""
_FULL_DECK: Final = (1 << 40) - 1
"""The mask of a shuffle's cards before its first draw."""


def _outcomes_py(left: int) -> list[tuple[int, float]]:
    """The chance outcomes of drawing one card of the mask ``left``: ``(card, 1/n)`` for
    each of its ``n`` cards, ascending (the reference of the kernel's ``spiel_outcomes``)."""
    row = _OUTCOMES[left.bit_count()]
    out = []
    while left:
        low = left & -left
        out.append(row[low.bit_length() - 1])
        left ^= low
    return out


def _tolist(tensor: np.ndarray) -> list[float]:
    """A tensor as OpenSpiel's list of floats (the reference of the kernel's ``float_list``)."""
    return tensor.tolist()  # type: ignore[no-any-return]


float_list = _fastcore.float_list if _KERNEL_TENSORS else _tolist
"""A float32 tensor as a list of Python floats, what OpenSpiel's ``observation_tensor``
returns: the kernel's where it is live (several times faster than ``tolist``), else
:func:`_tolist`."""

outcomes_of = (_fastcore.spiel_outcomes if _SPIEL_ROUND and hasattr(_fastcore, "spiel_outcomes")
               else _outcomes_py)
"""The chance outcomes of a draw among the cards of a mask: the compiled kernel's where
it is live (the same list, made in one C call), else :func:`_outcomes_py`."""
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Chkobba (and the Scopa family)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=DEFAULTS,
)


def max_round_points(rules: RuleSet) -> int:
    """An upper bound of the points one side can score in a round under ``rules``."""
    bound = 0
    for key in rules.scoring:
        if has_rule([key], "sweeps"):
            # At most one sweep a play; Il ponino doubles them.
            bound += 40 * (2 if has_rule(rules.scoring, "ponino") else 1)
        elif has_rule([key], "napola"):
            bound += 10
        elif has_rule([key], "coin_faces"):
            bound += 6
        elif has_rule([key], "frac"):
            bound += 16
        elif has_rule([key], "declarations"):
            bound += 10 * (40 // rules.hand_size)  # a cirullone at most, each hand dealt
        else:
            bound += 1
    return bound


@dataclass(frozen=True, slots=True)
class Settings:
    """The game's parameters, checked, as the engine takes them."""

    rules: RuleSet
    players: int
    teams: bool
    episode: str
    max_rounds: int
    side_of: tuple[int, ...]
    sides: int
    kernel: bool
    """Whether the compiled kernel lists the legal plays (:func:`kernel_plays`)."""
    fast: bool
    """Whether the compiled kernel can play the rounds (the fast path, :data:`FAST`)."""
    infostate: str
    """``round``: the information state tensor holds the round being played; ``match``:
    every earlier round of the match too."""
    core_rules: Any
    """The kernel's rule struct (the fast path), or None."""
    key: tuple[tuple[str, Any], ...]
    """The parameters, as :func:`settings_of` files them."""
    observers: dict[bool, ChkobbaObserver] = field(default_factory=dict, compare=False,
                                                   repr=False)
    """The observers that answer the states' ``observation_tensor`` (False) and
    ``information_state_tensor`` (True) calls, made when first asked for."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Settings:
        """Immutable: OpenSpiel's ``clone`` shares it."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its parameters (the kernel's struct is made again)."""
        return (settings_of, (dict(self.key),))


_SETTINGS: dict[tuple[tuple[str, Any], ...], Settings] = {}


def settings_of(params: dict[str, Any]) -> Settings:
    """The settings of a game's parameters (the states read them from the parameters:
    OpenSpiel may hand a state a game object without its Python attributes)."""
    p = {**DEFAULTS, **params}
    key = tuple(sorted(p.items()))
    got = _SETTINGS.get(key)
    if got is not None:
        return got
    unknown = set(p) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}: known {sorted(DEFAULTS)}")
    rules = preset(str(p["preset"]))
    players, teams = int(p["players"]), bool(p["teams"])
    episode, max_rounds = str(p["episode"]), int(p["max_rounds"])
    if episode not in ("round", "match"):
        raise ValueError(f"episode must be 'round' or 'match', not {episode!r}")
    infostate = str(p["infostate"])
    if infostate not in ("round", "match"):
        raise ValueError(f"infostate must be 'round' or 'match', not {infostate!r}")
    if infostate == "match" and episode != "match":
        raise ValueError("infostate='match' needs episode='match' (a round episode has one round)")
    if max_rounds < 1:
        raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
    if not 2 <= players <= 4:
        # The observation vectors have room for 4 seats (chkobba_v1).
        raise ValueError(f"the chkobba game is played by 2, 3 or 4 players, not {players}")
    Round(rules, players, teams, 0, list(range(40)))  # checks the seating
    side_of = side_map(players, teams)
    kernel = kernel_plays(rules)
    spiel_round = kernel and _SPIEL_ROUND and fast.supports(rules, players)
    got = Settings(rules, players, teams, episode, max_rounds, side_of, max(side_of) + 1,
                   kernel, spiel_round, infostate, plays_kernel(rules) if spiel_round else None,
                   key)
    _SETTINGS[key] = got
    return got


class ChkobbaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The game: a preset, a seating and an episode (see the module's docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """Check the parameters and set the game's sizes from them."""
        p = {**DEFAULTS, **(params or {})}
        self.settings = settings_of(p)
        st = self.settings
        self.rules = st.rules
        self.players = st.players
        self.episode = st.episode
        self.max_rounds = st.max_rounds
        rounds = 1 if self.episode == "round" else self.max_rounds
        plays = 40 - self.rules.table_size
        # A round's decisions: the cut, one play(c) per card and at most one done per
        # play, and one take(t) per table card ever captured (each at most once).
        decisions = (1 if self.rules.cut_choice else 0) + 2 * plays + 40
        shuffles = 39 * (1 + MAX_VOID_DEALS)
        if self.episode == "round":
            lo, hi = -float(max_round_points(self.rules)), float(max_round_points(self.rules))
        else:
            lo, hi = -1.0, 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=40,
            num_players=self.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0,
            max_game_length=1 + rounds * (decisions + shuffles),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> ChkobbaState:
        """Before the first chance node: nobody has dealt yet."""
        return ChkobbaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ChkobbaObserver:
        """The observer for ``iig_obs_type`` (default: the observation, not perfect recall)."""
        return ChkobbaObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


@dataclass(slots=True)
class Deal:
    """One shuffle and what each seat saw of it: ``log`` holds ``(seat, event)`` in the
    order they happened, seat -1 for what everyone sees; an event is ``(kind, value)``,
    turned into text only when a string is asked for (:func:`event_text`).

    On the fast path the compiled kernel (``core``) plays the deal: the players'
    actions go to it alone, and the engine's round (:attr:`round`, dealt when first
    asked for), the log and the capture being chosen catch up (:meth:`sync`) only when a
    view of the state is asked for. ``actions`` holds every player action of the deal,
    the first ``synced`` of them applied to the engine's round.
    """

    game: Settings
    dealer: int
    deck: bytes
    """The shuffle as drawn, top first."""
    start: int = 0
    """Where the shuffle's chance nodes start in the state's history."""
    built: Round | None = None
    """The engine's round, once dealt."""
    log: list[tuple[int, tuple[str, Any]]] = field(default_factory=list)
    declared: int = 0
    """How many of the round's declarations are logged."""
    texts: list[tuple[int, str]] = field(default_factory=list)
    """The first events of ``log`` as text, made when a string was asked for."""
    choice: Choice | None = None
    """The capture being chosen in the engine's round (as of its ``synced`` actions)."""
    core: Any = None
    """The kernel's ``SpielRound`` playing the deal (the fast path), or None."""
    actions: list[int] = field(default_factory=list)
    synced: int = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        """A copy for OpenSpiel's ``clone``: the round's cheap copy, the rules shared."""
        return Deal(self.game, self.dealer, self.deck, self.start,
                    None if self.built is None else self.built.copy(), list(self.log),
                    self.declared, list(self.texts), self.choice,
                    None if self.core is None else self.core.copy(), list(self.actions),
                    self.synced)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's serialization) without the kernel's round, rebuilt from
        the deck and the actions when next needed."""
        self.sync()
        return (_unpickle_deal, (self.game.key, self.dealer, self.deck, self.start,
                                 self.built, self.log, self.declared, self.choice,
                                 self.actions, self.core is not None))

    @property
    def round(self) -> Round:
        """The engine's round (dealt, and its deal logged, when first asked for)."""
        r = self.built
        if r is None:
            g = self.game
            r = self.built = Round(g.rules, g.players, g.teams, self.dealer, list(self.deck))
            if r.phase is Phase.CUT:
                self.log.append((r.cutter, ("cut", r.deck[0])))
            else:
                self.log_deal([0] * g.players, 0)
                if r.void:
                    self.log.append((-1, ("void deal", None)))
        return r

    def kernel(self) -> Any:
        """The kernel's round (rebuilt by replaying the actions after unpickling)."""
        if self.core is None:
            g = self.game
            core = _fastcore.SpielRound(g.core_rules, g.players, list(g.side_of), self.dealer,
                                        self.deck)
            for a in self.actions:
                core.act(a)
            self.core = core
        return self.core

    def sync(self) -> None:
        """Apply to ``round`` (and the log) the actions only the kernel has seen."""
        actions = self.actions
        while self.synced < len(actions):
            action = actions[self.synced]
            self.synced += 1
            r = self.round
            step = decide(legal_moves(r, True), self.choice, action)  # type: ignore[arg-type]
            if type(step) is Choice:
                self.choice = step
            else:
                self.choice = None
                self.advance(step)  # type: ignore[arg-type]

    def advance(self, move: Move) -> None:
        """Apply ``move`` to the round and log what it showed."""
        r = self.round
        seat = r.turn
        before = list(r.hands)
        if type(move) is Play:
            before[seat] &= ~(1 << move.card)
        table_before = r.table
        r.apply_unchecked(move)
        turn = r.history[-1]
        self.log.append((-1, ("turn", (seat, move, turn.chkobba))))
        self.log_deal(before, table_before)
        if r.void:
            self.log.append((-1, ("void deal", None)))

    def log_deal(self, before: Sequence[int], table_before: int) -> None:
        """Log what a deal just showed: each seat its new cards, everyone the table."""
        r = self.built
        assert r is not None
        for s in range(r.seats):
            got = r.hands[s] & ~before[s]
            if got:
                self.log.append((s, ("hand", got)))
        if (r.table & ~table_before and not r.history) or (
            r.history and type(r.history[-1].move) is Cut
        ):
            self.log.append((-1, ("table", r.table)))
        for decl in r.declarations[self.declared :]:
            self.log.append((-1, ("declares", decl)))
        self.declared = len(r.declarations)

    def text_log(self) -> list[tuple[int, str]]:
        """``log`` as ``(seat, text)``."""
        self.sync()
        texts = self.texts
        for seat, ev in self.log[len(texts) :]:
            texts.append((seat, event_text(ev)))
        return texts


def _unpickle_deal(key: tuple[tuple[str, Any], ...], dealer: int, deck: bytes, start: int,
                   built: Round | None, log: list[tuple[int, tuple[str, Any]]], declared: int,
                   choice: Choice | None, actions: list[int], fast: bool) -> Deal:
    d = Deal(settings_of(dict(key)), dealer, deck, start, built, log, declared, [], choice,
             None, actions, len(actions))
    if fast:
        d.kernel()
    return d


def event_text(event: tuple[str, Any]) -> str:
    """One logged event as text."""
    kind, value = event
    if kind == "turn":
        seat, move, sweep = value
        return f"s{seat} {move}{' sweep' if sweep else ''}"
    if kind in ("hand", "table"):
        return f"{kind} {format_cards(value)}"
    if kind == "cut":
        return f"cut {CARDS[value]}"
    if kind == "declares":
        return f"declares s{value.seat} {value.name} {format_cards(value.cards)}"
    return str(kind)


class StateData:
    """What a :class:`ChkobbaState` holds, in one plain object.

    The state itself is a pybind11 instance, whose attributes CPython 3.11 reads and
    writes by its slow generic path (it specializes attribute access only on objects
    with a managed dictionary); a slotted object's are among its fastest, and a step
    touches several. One object also suits OpenSpiel's ``clone``, which copies each of
    the state's attributes on its own: this one is copied whole (:meth:`__deepcopy__`).
    """

    __slots__ = ("dealer", "dealing", "deals", "drawn", "fast", "game", "kernel", "left", "moves",
                 "over", "result", "rounds_played", "shuffle_start", "to_move", "totals")

    def __init__(self, game: Settings) -> None:
        """The data of a game's initial state."""
        self.game = game
        self.dealer: int | None = None
        """The dealer of the shuffle being drawn or of the round being played (None
        before the first chance node)."""
        self.drawn: list[int] = []
        """The cards of the shuffle drawn so far, in order."""
        self.left = _FULL_DECK
        """The cards of the shuffle not drawn yet, as a mask (bit ``c``: card ``c``)."""
        self.deals: list[Deal] = []
        """Every deal of the match, void ones included: the round being played is the
        last deal's (:attr:`ChkobbaState.round`)."""
        self.dealing = True
        """Whether a shuffle is being drawn (chance nodes)."""
        self.moves: Moves | None = None
        """The engine's legal moves of the seat to move, once asked for."""
        self.totals = [0] * game.sides
        self.rounds_played = 0
        self.over = False
        self.result = [0.0] * game.players
        """Each seat's return, once over."""
        self.shuffle_start = 0
        """Where the shuffle being drawn starts in the state's history."""
        self.to_move = _CHANCE
        """:meth:`ChkobbaState.current_player`, kept up to date by each action (it is
        asked for several times a step, through OpenSpiel's C++ layer too)."""
        self.kernel = game.kernel
        """Whether the compiled kernel lists the engine's legal plays."""
        self.fast = FAST and game.fast
        """Whether the compiled kernel plays the rounds (:class:`Deal`)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> StateData:
        """A copy for OpenSpiel's ``clone``: the settings shared, each deal copied
        (:meth:`Deal.__deepcopy__`), the legal moves listed again when asked for."""
        c = StateData.__new__(StateData)
        c.game = self.game
        c.dealer = self.dealer
        c.drawn = list(self.drawn)
        c.left = self.left
        c.deals = [copy.deepcopy(d, memo) for d in self.deals]
        c.dealing = self.dealing
        c.moves = None
        c.totals = list(self.totals)
        c.rounds_played = self.rounds_played
        c.over = self.over
        c.result = list(self.result)
        c.shuffle_start = self.shuffle_start
        c.to_move = self.to_move
        c.kernel = self.kernel
        c.fast = self.fast
        return c


class ChkobbaState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A state of the game: chance nodes, then the engine's round, round after round."""

    def __init__(self, game: ChkobbaGame) -> None:
        """The initial state (the first dealer is the first chance node)."""
        super().__init__(game)
        try:
            settings = game.settings
        except AttributeError:  # a game object without its Python attributes
            settings = settings_of(game.get_parameters())
        self.data = StateData(settings)
        """Everything the state holds, in one plain object (:class:`StateData`)."""

    # The state's data, for the views and the tools around the game.

    @property
    def game(self) -> Settings:
        """The game's settings."""
        return self.data.game

    @property
    def deals(self) -> list[Deal]:
        """Every deal of the match so far, void ones included, the current one last."""
        return self.data.deals

    @property
    def totals(self) -> list[int]:
        """Each side's points in the match, from the rounds played."""
        return self.data.totals

    @property
    def rounds_played(self) -> int:
        """How many rounds are over."""
        return self.data.rounds_played

    @property
    def over(self) -> bool:
        """Whether the round (or match) is over."""
        return self.data.over

    @property
    def fast(self) -> bool:
        """Whether the compiled kernel plays the rounds (:class:`Deal`)."""
        return self.data.fast

    @property
    def round(self) -> Round | None:
        """The round being played (None while a shuffle is being drawn)."""
        s = self.data
        if s.dealing:
            return None
        d = s.deals[-1]
        d.sync()
        return d.round

    @property
    def choice(self) -> Choice | None:
        """The capture the player to move is choosing card by card, if any."""
        s = self.data
        if s.dealing:
            return None
        d = s.deals[-1]
        d.sync()
        return d.choice

    # -- whose turn, what is legal -------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, CHANCE while dealing, TERMINAL at the end."""
        return self.data.to_move

    def _update_to_move(self) -> None:
        s = self.data
        if s.over:
            s.to_move = _TERMINAL
        elif s.dealing:
            s.to_move = _CHANCE
        elif s.fast:
            s.to_move = s.deals[-1].core.turn()
        else:
            s.to_move = s.deals[-1].round.turn

    # OpenSpiel's C++ State answers these by calling back into Python several times
    # (current_player, is_terminal, _legal_actions: a few microseconds each way); the
    # same answers given here directly are what makes a Python caller's step cheap.
    # C++ callers (the C++ algorithms, random_sim_test) still go through OpenSpiel's own.

    def is_chance_node(self) -> bool:
        """Whether a chance outcome is next (OpenSpiel's ``IsChanceNode``)."""
        return self.data.to_move == _CHANCE

    def is_player_node(self) -> bool:
        """Whether a player decides next (OpenSpiel's ``IsPlayerNode``)."""
        return self.data.to_move >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``LegalActions``: the chance outcomes at a chance node, the
        ``chkobba_v1`` action ids of the player to move, none for the others."""
        s = self.data
        to_move = s.to_move
        if to_move >= 0:  # a player's decision, the common case first
            if player is None or player == to_move:
                if s.fast:
                    return s.deals[-1].core.legal()  # type: ignore[no-any-return]
                return self._legal_actions(to_move)
            if player < 0:
                raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
            return []
        if to_move == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return []  # terminal

    def _legal_moves(self) -> Moves:
        """The engine's legal moves of the seat to move (the round caught up first)."""
        s = self.data
        if s.moves is None:
            r = self.round
            assert r is not None
            s.moves = legal_moves(r, s.kernel)
        return s.moves

    def _legal_actions(self, player: int) -> list[int]:
        """The legal ``chkobba_v1`` action ids of the player to move, ascending."""
        s = self.data
        if s.fast:
            return s.deals[-1].core.legal()  # type: ignore[no-any-return]
        return legal_actions(self._legal_moves(), self.choice)  # type: ignore[arg-type]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first dealer (one outcome per seat), or the next card of the shuffle."""
        s = self.data
        if s.dealer is None:
            n = s.game.players
            return [(seat, 1.0 / n) for seat in range(n)]
        return outcomes_of(s.left)

    # -- applying actions -------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        """A chance outcome, or a ``chkobba_v1`` action of the player to move."""
        s = self.data
        if s.dealing:
            drawn = s.drawn
            if len(drawn) < 38 and s.dealer is not None:  # a draw that ends no shuffle
                left = s.left
                if action < 0 or not left >> action & 1:
                    raise pyspiel.SpielError(f"draw {action}: not a card left to draw")
                s.left = left ^ 1 << action
                drawn.append(action)
            elif self._chance(action):
                self._update_to_move()
            return
        if s.fast:
            d = s.deals[-1]
            try:
                code = d.core.act(action)
            except (ValueError, TypeError, OverflowError):
                # The engine's own error, the same as the pure path's.
                decide(self._legal_moves(), self.choice, action)  # type: ignore[arg-type]
                raise IllegalAction(f"{action} is illegal now") from None
            d.actions.append(action)
            s.moves = None
            if code >= 0:  # the seat to move next: the common case, kept short
                s.to_move = code
            else:
                self._kernel_end(d, code)
                self._update_to_move()
            return
        d = s.deals[-1]
        step = decide(self._legal_moves(), d.choice, action)  # type: ignore[arg-type]
        d.actions.append(action)
        d.synced += 1
        if type(step) is Choice:
            d.choice = step
            return
        d.choice = None
        s.moves = None
        self._play(d, step)  # type: ignore[arg-type]
        self._update_to_move()

    def _kernel_end(self, d: Deal, code: int) -> None:
        """The fast path after the kernel's round ended (-1) or its deal was void (-2)."""
        s = self.data
        if code == -2:
            self._redeal()
            return
        if s.game.episode == "round":
            s.rounds_played += 1
            s.result = round_rewards(d.core.points(), s.game.side_of)
            s.over = True
            return
        d.sync()
        self._end_round(d.round)

    def _chance(self, outcome: int) -> bool:
        """Apply a chance outcome; whether it ended the shuffle."""
        s = self.data
        if s.dealer is None:
            s.dealer = outcome
            s.shuffle_start = len(self.history()) + 1
            return False
        left = s.left
        if outcome < 0 or not left >> outcome & 1:
            raise pyspiel.SpielError(f"draw {outcome}: not a card left to draw")
        s.left = left = left ^ 1 << outcome
        s.drawn.append(outcome)
        if len(s.drawn) < 39:
            return False
        deck = [*s.drawn, left.bit_length() - 1]  # the one card left
        s.drawn = []
        s.left = _FULL_DECK
        d = Deal(s.game, s.dealer, bytes(deck), s.shuffle_start)
        s.deals.append(d)
        # On the fast path the engine's round is dealt only if a view asks for it.
        void = d.kernel().void if s.fast else d.round.void
        if void:
            self._redeal()
        else:
            s.dealing = False
        return True

    def _redeal(self) -> None:
        """A void deal: shuffled again by the same dealer (§2.2), chance nodes once more."""
        s = self.data
        s.dealing = True
        s.shuffle_start = len(self.history()) + 1

    def _play(self, d: Deal, move: Move) -> None:
        s = self.data
        d.advance(move)
        r = d.round
        if type(move) is Cut:
            if r.void:
                self._redeal()
            else:
                s.dealing = False
            return
        if r.phase is Phase.OVER:
            self._end_round(r)

    def _end_round(self, r: Round) -> None:
        s = self.data
        g = s.game
        assert r.score is not None
        s.rounds_played += 1
        if g.episode == "round":
            s.result = round_rewards(r.score.points, r.side_of)
            s.over = True
            return
        for side, pts in enumerate(r.score.points):
            s.totals[side] += pts
        winner = decide_match(s.totals, g.rules, r.score)
        if winner is not None or s.rounds_played >= g.max_rounds:
            s.over = True
            if winner is not None:
                lose = -1.0 / (g.sides - 1)
                s.result = [1.0 if g.side_of[seat] == winner else lose for seat in range(g.players)]
            return
        s.dealer = (r.dealer + 1) % g.players
        self._redeal()

    # -- results and text ---------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether the round (or match) is over."""
        return self.data.over

    def returns(self) -> list[float]:
        """Each seat's return: zero until the end."""
        s = self.data
        return list(s.result) if s.over else [0.0] * s.game.players

    def _action_to_string(self, player: int, action: int) -> str:
        s = self.data
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if s.dealer is None else f"draw {CARDS[action]}"
        return action_name(action)

    def __str__(self) -> str:
        """The whole table, for debugging (every hand shown)."""
        s = self.data
        if self.round is None:
            return f"dealing (dealer {s.dealer}, {len(s.drawn)} cards drawn)"
        r = self.round
        hands = " | ".join(format_cards(h) for h in r.hands)
        return f"{r.phase.value} turn {r.turn} hands {hands} table {format_cards(r.table)}"

    # -- views of one player --------------------------------------------------------

    def view_round(self) -> Round | None:
        """The round being played, or the last one once it is over (None before any)."""
        s = self.data
        if s.deals and (not s.dealing or s.over):
            d = s.deals[-1]
            d.sync()
            return d.round
        return None

    # OpenSpiel's C++ State answers these through the observer too, but first makes a new
    # initial state to size the tensor (at every call), then copies the tensor twice: the
    # same list given here directly costs a fraction of it. C++ callers still go that way.

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """OpenSpiel's ``observation_tensor``: the default observer's tensor of ``player``
        (the player to move if None), as a list of floats."""
        return _tensor_observer(self.data.game, False).tensor_list(self, player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """OpenSpiel's ``information_state_tensor``: the perfect-recall observer's tensor of
        ``player`` (the player to move if None), as a list of floats."""
        return _tensor_observer(self.data.game, True).tensor_list(self, player)

    def observation_of(self, player: int) -> Observation | None:
        """The engine's observation of ``player`` (None while nothing is dealt)."""
        s = self.data
        r = self.view_round()
        if r is None:
            return None
        return observe_round(r, player, tuple(s.totals), s.rounds_played + 1,
                             s.game.rules.target)

    def recall(self, player: int) -> str:
        """Everything ``player`` has seen, in order: the perfect-recall string."""
        s = self.data
        out = [f"p{player}"]
        if s.dealer is not None and not s.deals:
            out.append(f"dealer {s.dealer}")
        for i, d in enumerate(s.deals):
            out.append(f"[{i}] dealer {d.round.dealer}")
            out += [text for seat, text in d.text_log() if seat in (-1, player)]
        if self.choice is not None and self.round is not None and self.round.turn == player:
            out.append(f"choosing {CARDS[self.choice.card]} taking "
                       f"{format_cards(self.choice.taken) or '-'}")
        return "\n".join(out)

    # -- sampling the hidden cards (ISMCTS) ----------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ChkobbaState:
        """A state drawn uniformly among those ``player_id`` cannot tell from this one.

        The cards the player has not seen (the other hands, the stock) are dealt
        again at random among the places they occupy; earlier deals and rounds are
        kept as they were (nothing in them bears on what follows). ``probability_sampler``
        (OpenSpiel's) seeds the draw.
        """
        s = self.data
        rng = random.Random(int(probability_sampler() * 2**53))
        r = self.round
        if r is None:
            return self.clone()  # type: ignore[no-any-return]
        d = s.deals[-1]
        want = self.recall(player_id)
        obs = observe_round(r, player_id, tuple(s.totals), 1, s.game.rules.target)
        hidden = obs.unseen
        places = [i for i, c in enumerate(r.deck) if hidden >> c & 1]
        for _ in range(200):
            cards = [r.deck[i] for i in places]
            rng.shuffle(cards)
            deck = list(r.deck)
            for i, c in zip(places, cards, strict=True):
                deck[i] = c
            state = self._replay(d, deck)
            # A redeal that changes anything the player saw (a hand declared in Cirulla)
            # is not a state it cannot tell apart: draw again.
            if state is not None and state.recall(player_id) == want:
                return state
        raise pyspiel.SpielError("resample_from_infostate: no consistent deal found")

    def _replay(self, d: Deal, deck: Sequence[int]) -> ChkobbaState | None:
        """This state with the current deal's shuffle replaced by ``deck``."""
        history = self.history()
        state: ChkobbaState = self.get_game().new_initial_state()
        for a in history[: d.start]:
            state.apply_action(a)
        for c in deck[:39]:
            state.apply_action(c)
        try:
            for a in history[d.start + 39 :]:
                state.apply_action(a)
        except (IllegalAction, pyspiel.SpielError):
            return None  # a play the new deal does not allow
        return state


def _tensor_observer(game: Settings, perfect_recall: bool) -> ChkobbaObserver:
    """The observer of OpenSpiel's default observation (``perfect_recall`` False) or
    information state (True) of ``game``, one per game's settings."""
    got = game.observers.get(perfect_recall)
    if got is None:
        got = game.observers[perfect_recall] = ChkobbaObserver(
            game, pyspiel.IIGObservationType(perfect_recall=perfect_recall), None)
    return got


class ChkobbaObserver:
    """OpenSpiel's observer of the game (``python/observation.py``'s interface).

    On the fast path the kernel's round writes the tensor of the default observation, of
    the information state and of their public views straight into :attr:`tensor`
    (``SpielRound.observe`` and ``history``), with no catching up of the engine's round;
    the factored private part and the pure path write it from the engine's round (the reference:
    ``tests/test_rl_openspiel_tensors.py`` checks that both write the same tensors).
    """

    def __init__(self, game: ChkobbaGame | Settings, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        """The tensor's pieces for this kind of observation."""
        if params:
            raise ValueError(f"the chkobba observer takes no parameters, not {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("the chkobba observer shows one player's cards, never all players'")
        self.game = game if isinstance(game, Settings) else settings_of(game.get_parameters())
        self.public = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        # Factored observations: the player's own part alone (public_info=False).
        self.private_only = not iig_obs_type.public_info
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.kernel = _KERNEL_TENSORS and not self.private_only
        """Whether the kernel's round writes the tensor of a state on the fast path."""
        self.spec = ObsSpec(self.game.rules, history=self.perfect_recall)
        self.entries = history_length(self.game.rules)
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("observation", OBS_SIZE, (OBS_SIZE,))]
        if self.perfect_recall:
            n = self.entries
            pieces.append(("history", n * HISTORY_ENTRY, (n, HISTORY_ENTRY)))
            pieces.append(("cut_seen", 40, (40,)))
            if self.game.infostate == "match":
                # Each earlier round of the match, in order: its history and its cut card.
                rows, width = self.game.max_rounds - 1, n * HISTORY_ENTRY + 40
                pieces.append(("earlier_rounds", rows * width, (rows, width)))
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size
        self._observation = self.dict["observation"]

    def tensor_list(self, state: ChkobbaState, player: int | None) -> list[float]:
        """The tensor of ``state`` as ``player`` sees it (the player to move if None), as
        OpenSpiel's ``observation_tensor`` returns it: a list of floats."""
        s = state.data
        if player is None:
            player = s.to_move
        if not 0 <= player < s.game.players:
            raise pyspiel.SpielError(
                f"a tensor is a player's: player {player} is not among 0 to {s.game.players - 1}")
        self.set_from(state, player)
        return float_list(self.tensor)

    def set_from(self, state: ChkobbaState, player: int) -> None:
        """Fill the tensor with ``state`` as ``player`` sees it (all 0 before the deal)."""
        s = state.data
        if self.kernel and s.fast:
            self._set_from_kernel(s, player)
            return
        self.tensor.fill(0)
        r = state.view_round()
        if r is None:
            return
        vec = self.dict["observation"]
        if self.public:
            obs = state.observation_of(player)
            assert obs is not None
            encode(public_view(obs), None, vec)
        else:
            to_move = not state.over and r.turn == player
            moves = state._legal_moves() if to_move else ()
            mask = np.empty(NUM_ACTIONS, np.int8)
            choice = state.choice if to_move else None
            encode_round(r, player, state.totals, state.game.rules.target, moves, choice, vec,
                         mask)
        if self.private_only:
            # Only what the player alone knows: its hand, the cut card, its choice.
            keep = np.zeros(OBS_SIZE, bool)
            if not self.public:
                for name in _PRIVATE_PLANES:
                    keep[OBS_LAYOUT[name]] = True
            vec[~keep] = 0
        if self.perfect_recall:
            if not self.private_only:
                self.dict["history"].ravel()[:] = encode_history(
                    r.history, player, r.seats, history_length(r.rules)
                )
            if not self.public and r.rules.cut_choice and player == r.cutter:
                self.dict["cut_seen"][r.shuffle[0]] = 1.0
            if "earlier_rounds" in self.dict:
                self._earlier_rounds(state, r, player)

    def _set_from_kernel(self, s: StateData, player: int) -> None:
        """:meth:`set_from` on the fast path: the kernel's rounds write the tensor."""
        deals = s.deals
        if not deals or (s.dealing and not s.over):
            self.tensor.fill(0)  # nothing dealt yet (see ChkobbaState.view_round)
            return
        d = deals[-1]
        core = d.core if d.core is not None else d.kernel()
        g = s.game
        # Every entry of the observation is written: no fill first.
        core.observe(self._observation, player, s.totals, g.rules.target, self.public)
        if not self.perfect_recall:
            return
        pieces = self.dict
        core.history(pieces["history"], player)
        cut_seen = pieces["cut_seen"]
        cut_seen.fill(0)
        # The cut card is the cutter's alone: never in a public view.
        cut_choice = g.rules.cut_choice and not self.public
        players = g.players
        if cut_choice and player == (d.dealer + 1) % players:  # the cutter saw the top card
            cut_seen[d.deck[0]] = 1.0
        rows = pieces.get("earlier_rounds")
        if rows is None:
            return
        # As _earlier_rounds: one row per earlier round, void deals left out.
        rows.fill(0)
        n = self.entries * HISTORY_ENTRY
        k = 0
        for e in deals[:-1]:
            if k >= len(rows):
                break
            core = e.core if e.core is not None else e.kernel()
            if core.void:
                continue
            row = rows[k]
            core.history(row[:n], player)
            if cut_choice and player == (e.dealer + 1) % players:
                row[n + e.deck[0]] = 1.0
            k += 1

    def _earlier_rounds(self, state: ChkobbaState, now: Round, player: int) -> None:
        """The rounds of the match before ``now`` (void deals left out: they were dealt
        again and bear on nothing after), one row each, as the round's own pieces."""
        rows = self.dict["earlier_rounds"]
        n = history_length(now.rules)
        k = 0
        for d in state.deals:
            d.sync()
            r = d.round
            if r is now or r.void or k >= len(rows):
                continue
            if not self.private_only:
                rows[k, : n * HISTORY_ENTRY] = encode_history(r.history, player, r.seats, n).ravel()
            if not self.public and r.rules.cut_choice and player == r.cutter:
                rows[k, n * HISTORY_ENTRY + r.shuffle[0]] = 1.0
            k += 1

    def string_from(self, state: ChkobbaState, player: int) -> str:
        """The observation as text: the whole recall, or the current view."""
        if self.private_only:
            if self.public:
                return ""
            if self.perfect_recall:
                own = [line for line in state.recall(player).splitlines()
                       if line.startswith(("hand", "cut", "choosing"))]
            else:
                obs = state.observation_of(player)
                own = [] if obs is None else [f"hand {format_cards(obs.hand) or '-'}"]
                if obs is not None and obs.cut_card is not None:
                    own.append(f"cut {CARDS[obs.cut_card]}")
                last = state.recall(player).splitlines()[-1]
                if last.startswith("choosing"):
                    own.append(last)
            return f"p{player} " + " | ".join(own)
        if self.perfect_recall:
            text = state.recall(player)
            if self.public:
                text = "\n".join(line for line in text.splitlines()
                                 if not line.startswith(("hand", "cut", "choosing")))
            return text
        obs = state.observation_of(player)
        if obs is None:
            return f"p{player} dealing"
        if self.public:
            return public_view(obs).describe()
        text = obs.describe()
        if state.choice is not None and obs.turn == player and not state.over:
            text += (f"\nchoosing: {CARDS[state.choice.card]} taking "
                     f"{format_cards(state.choice.taken) or '-'}")
        return text


_PRIVATE_PLANES: Final = ("hand", "cut_card", "choice_card", "choice_taken")
"""The planes of the vector that only the observer knows."""


def public_view(obs: Observation) -> Observation:
    """``obs`` without what only its seat knows: the hand, the cut card, the legal moves."""
    hidden = obs.hand | (0 if obs.cut_card is None else 1 << obs.cut_card)
    return Observation(**{
        **{f: getattr(obs, f) for f in Observation.__dataclass_fields__},
        "hand": 0,
        "cut_card": None,
        "legal_moves": (),
        "unseen": obs.unseen | hidden,
    })


pyspiel.register_game(_GAME_TYPE, ChkobbaGame)


# -- OpenSpiel's bots as players of chkobba duel and tournament ----------------------

BOTS: Final = ("openspiel-ismcts", "openspiel-mcts")
"""The players :func:`bot_agent` makes."""


def state_from_observation(game: ChkobbaGame, obs: Observation, rng: random.Random) -> ChkobbaState:
    """A state of ``game`` (one round) that ``obs.seat`` cannot tell from the real one:
    the round's history replayed on a deal that agrees with everything ``obs`` shows."""
    for _ in range(200):
        state = _try_state(game, obs, rng)
        if state is not None:
            return state
    raise ValueError("no deal agrees with this observation")


def _slots(rules: RuleSet, seats: int, teams: bool, dealer: int, cut: Cut | None) -> list[int]:
    """For each position of a shuffle, the seat whose hand it goes to (-1: the table),
    read off a probe round dealt from the positions themselves."""
    probe = Round(rules, seats, teams, dealer, list(range(40)))
    if probe.phase is Phase.CUT:
        probe.apply_unchecked(cut or Cut.KEEP)
    out = [-1] * 40
    for s, h in enumerate(probe.hands):
        for c in range(40):
            if h >> c & 1:
                out[c] = s
    # Later deals give each seat hand_size cards in turn from the cutter on.
    pos = probe.stock_pos
    hs = rules.hand_size
    while pos < 40:
        for i in range(seats):
            for k in range(hs):
                if pos + k < 40:
                    out[pos + k] = (probe.cutter + i) % seats
            pos += hs
    return out


def _try_state(game: ChkobbaGame, obs: Observation, rng: random.Random) -> ChkobbaState | None:
    st = settings_of(game.get_parameters())
    rules = st.rules
    seats = st.players
    cut = next((t.move for t in obs.history if type(t.move) is Cut), None)
    slots = _slots(rules, seats, st.teams, obs.dealer, cut)
    per_deal = seats * rules.hand_size
    # Which cards each (seat, deal) held: its plays, the observer's own hand, the hands
    # declared.
    known: dict[tuple[int, int], set[int]] = {}
    plays = [t for t in obs.history if type(t.move) is Play]
    for j, t in enumerate(plays):
        known.setdefault((t.seat, j // per_deal), set()).add(t.move.card)  # type: ignore[union-attr]
    deal_now = len(plays) // per_deal if obs.phase is not Phase.CUT else 0
    known.setdefault((obs.seat, deal_now), set()).update(
        c for c in range(40) if obs.hand >> c & 1)
    for decl in obs.declarations:
        # A declared hand (Cirulla) was shown whole at its deal.
        before = sum(1 for t in obs.history[: decl.at] if type(t.move) is Play)
        known.setdefault((decl.seat, before // per_deal), set()).update(
            c for c in range(40) if decl.cards >> c & 1)
    # The table as dealt: the table now with every play undone.
    table = obs.table
    for t in reversed(obs.history):
        m = t.move
        if type(m) is Play:
            table = table | m.capture if m.capture else table & ~(1 << m.card)
    deck: list[int | None] = [None] * 40
    placed = 0
    if obs.phase is Phase.CUT:
        if obs.cut_card is not None:
            deck[0] = obs.cut_card
            placed |= 1 << obs.cut_card
    else:
        table_pos = [i for i in range(40) if slots[i] == -1]
        for i, c in zip(table_pos, [c for c in range(40) if table >> c & 1], strict=True):
            deck[i] = c
            placed |= 1 << c
        counts: dict[tuple[int, int], int] = {}
        for i in range(40):
            if slots[i] >= 0:
                key = (slots[i], _deal_of(slots, i, rules.hand_size, seats))
                counts[key] = counts.get(key, 0) + 1
                mine = sorted(known.get(key, set()))
                k = counts[key] - 1
                if k < len(mine):
                    deck[i] = mine[k]
                    placed |= 1 << mine[k]
    rest = [c for c in range(40) if not placed >> c & 1]
    rng.shuffle(rest)
    it = iter(rest)
    full = [c if c is not None else next(it) for c in deck]
    state = game.new_initial_state()
    state.apply_action(obs.dealer)
    for c in full[:39]:
        state.apply_action(c)
    try:
        for t in obs.history:
            assert state.round is not None
            if type(t.move) is Cut:
                state.apply_action(KEEP if t.move is Cut.KEEP else TABLE)
                continue
            for a in actions_for(state._legal_moves(), t.move):  # type: ignore[arg-type]
                state.apply_action(a)
    except (IllegalAction, AssertionError, pyspiel.SpielError):
        return None
    seen = state.observation_of(obs.seat)
    # A deal that shows anything otherwise (a hand declared in Cirulla) is drawn again.
    if seen is None or (seen.hand, seen.table, seen.piles, seen.unseen, seen.hand_sizes,
                        seen.declarations, seen.turn) != (
        obs.hand, obs.table, obs.piles, obs.unseen, obs.hand_sizes, obs.declarations, obs.turn
    ):
        return None
    return state


def _deal_of(slots: list[int], pos: int, hand_size: int, seats: int) -> int:
    """Which deal of its seat position ``pos`` belongs to (0: the first)."""
    seat = slots[pos]
    return sum(1 for i in range(pos) if slots[i] == seat) // hand_size


@dataclass
class BotAgent:
    """An OpenSpiel bot playing from a chkobba observation, one round searched at a time.

    Each decision rebuilds a state that the seat cannot tell from the real one
    (:func:`state_from_observation`) and asks the bot for actions until a whole move
    is chosen (a capture among several is several actions).
    """

    name: str
    seed: int
    simulations: int = 100
    games: dict[tuple[str, int, bool], ChkobbaGame] = field(default_factory=dict)

    def choose(self, obs: Observation) -> Move:
        """The bot's move for ``obs``."""
        key = (obs.rules.name, obs.seats, obs.teams)
        game = self.games.get(key)
        if game is None:
            if obs.rules != preset(obs.rules.name):  # the game knows presets by name only
                raise ValueError(f"{self.name} plays the named presets only, not modified rules")
            game = pyspiel.load_game(GAME_NAME, {"preset": obs.rules.name, "players": obs.seats,
                                                 "teams": obs.teams})
            self.games[key] = game
        rng = random.Random(hash((self.seed, len(obs.history), obs.hand, obs.table)))
        state = state_from_observation(game, obs, rng)
        bot = self._bot(game, rng)
        while True:
            assert state.round is not None
            moves = state._legal_moves()
            action = bot.step(state) if len(state.legal_actions()) > 1 \
                else state.legal_actions()[0]
            step = decide(moves, state.choice, action)  # type: ignore[arg-type]
            if not isinstance(step, Choice):
                return step
            state.apply_action(action)

    def _bot(self, game: ChkobbaGame, rng: random.Random) -> Any:
        from open_spiel.python.algorithms import ismcts

        np_rng = np.random.RandomState(rng.getrandbits(32))
        evaluator = RoundRolloutEvaluator(random.Random(rng.getrandbits(64)))
        # Returns are round margins of a few points: the exploration constant is scaled
        # to them.
        if self.name == "openspiel-ismcts":
            return ismcts.ISMCTSBot(game, evaluator, uct_c=4.0, max_simulations=self.simulations,
                                    random_state=np_rng)
        return _DeterminizedMCTS(game, evaluator, self.simulations, np_rng)


class RoundRolloutEvaluator:
    """OpenSpiel's random-rollout evaluator for one round, played on the engine itself:
    the same uniform random play as ``mcts.RandomRolloutEvaluator`` (uniform among the
    legal moves, not among action ids), without an OpenSpiel state per rollout."""

    def __init__(self, rng: random.Random) -> None:
        """Rollouts drawn from ``rng``."""
        self.rng = rng

    def evaluate(self, state: ChkobbaState) -> np.ndarray:
        """The returns of one random play-out of the round from ``state``."""
        if state.is_terminal():
            return np.array(state.returns())
        if state.round is None or state.game.episode != "round":
            return self._openspiel(state)
        r = state.round.copy()
        rng = self.rng
        if state.choice is not None:
            r.apply_unchecked(Play(state.choice.card, rng.choice(state.choice.options)))
        kernel = state.game.kernel
        while r.phase is not Phase.OVER:
            move = rng.choice(legal_moves(r, kernel))
            # The kernel's plays are (card, capture) pairs: the engine takes a Play.
            r.apply_unchecked(Play(*move) if type(move) is tuple else move)  # type: ignore[arg-type]
            if r.void:
                # A void deal after the cut is dealt again: chance nodes, OpenSpiel's way.
                return self._openspiel(state)
        assert r.score is not None
        return np.array(round_rewards(r.score.points, r.side_of))

    def _openspiel(self, state: ChkobbaState) -> np.ndarray:
        from open_spiel.python.algorithms import mcts

        seed = self.rng.getrandbits(32)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        return evaluator.evaluate(state)  # type: ignore[no-any-return]

    def prior(self, state: ChkobbaState) -> list[tuple[int, float]]:
        """Uniform priors (chance nodes: their probabilities)."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class _DeterminizedMCTS:
    """OpenSpiel's MCTS bot on one deal drawn from the player's information state
    (perfect-information search cannot see hidden cards, so it is given a guess)."""

    def __init__(self, game: ChkobbaGame, evaluator: Any, simulations: int,
                 np_rng: np.random.RandomState) -> None:
        from open_spiel.python.algorithms import mcts

        self.np_rng = np_rng
        self.bot = mcts.MCTSBot(game, uct_c=4.0, max_simulations=simulations,
                                evaluator=evaluator, random_state=np_rng)

    def step(self, state: ChkobbaState) -> int:
        world = state.resample_from_infostate(state.current_player(), self.np_rng.uniform)
        return int(self.bot.step(world))


def bot_agent(name: str, seed: int, simulations: int = 100) -> BotAgent:
    """The player ``openspiel-ismcts`` or ``openspiel-mcts``."""
    if name not in BOTS:
        raise ValueError(f"unknown OpenSpiel player {name!r} (known: {', '.join(BOTS)})")
    return BotAgent(name, seed, simulations)
