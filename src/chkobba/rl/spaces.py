"""The ``chkobba_v1`` action and observation spaces (documented in ``docs/rl.md``).

**Actions** are 83 fixed integers:

======  ==========================  ===============================================
id      name                        meaning
======  ==========================  ===============================================
0-39    ``play(c)``                 play card ``c`` from the hand
40-79   ``take(t)``                 take table card ``t = id - 40`` into the capture
80      ``done``                    the capture is complete (nothing taken: lay)
81      ``keep``                    the cutter keeps the cut card (docs/rules.md §2.2)
82      ``table``                   the cutter puts the cut card on the table
======  ==========================  ===============================================

A play is one decision when the card allows one play only (a lay, or its one
capture): ``play(c)`` applies it. When the card allows several, ``play(c)``
opens a *choice* and the same seat then names the captured table cards one by
one, lowest card number first, with ``take(t)``; as soon as only one legal play
is left it is applied, and ``done`` ends a capture that is complete while a
larger one is still open (or lays the card, where laying a capturing card is
allowed). Every legal play has exactly one sequence of actions, whatever the
number of captures a card has, so no cap is needed.

**Observations** are a float32 vector of :data:`OBS_SIZE` entries, built only
from the seat's :class:`~chkobba.fishing.observe.Observation` and its own pending
choice; :data:`OBS_LAYOUT` names its slices. Seats and sides are relative to
the observer: offset 0 is the observer's own seat (side), offset 1 the next.
"""

from __future__ import annotations

import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from chkobba.fishing.cards import DIAMONDS_MASK, SEVEN_OF_DIAMONDS, SEVENS_MASK, VALUE_OF, iter_bits
from chkobba.fishing.game import Phase, Round, Turn
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.observe import Observation
from chkobba.fishing.rules import RuleSet

VERSION: Final = "chkobba_v1"
"""The name and version of these spaces; any change to them makes a new version."""

PLAY: Final = 0
"""First ``play(card)`` action: ``PLAY + card``."""
TAKE: Final = 40
"""First ``take(table card)`` action: ``TAKE + card``."""
DONE: Final = 80
"""End the capture being chosen with the cards taken so far (none taken: a lay)."""
KEEP: Final = 81
"""The cutter keeps the cut card."""
TABLE: Final = 82
"""The cutter puts the cut card on the table."""
NUM_ACTIONS: Final = 83
"""The size of the action space."""

MAX_SEATS: Final = 4


class IllegalAction(ValueError):
    """An action id that the mask does not allow now; the message says why."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A play being chosen: the card, the table cards taken so far, the plays still open."""

    card: int
    taken: int
    """The table cards named so far (a set)."""
    options: tuple[int, ...]
    """The captures of ``card`` (0: a lay) that start with ``taken``, in card order."""


def action_name(action: int) -> str:
    """A readable name: ``play(7d)``, ``take(Ah)``, ``done``, ``keep``, ``table``."""
    from chkobba.fishing.cards import CARDS

    if PLAY <= action < TAKE:
        return f"play({CARDS[action - PLAY]})"
    if TAKE <= action < DONE:
        return f"take({CARDS[action - TAKE]})"
    names = {DONE: "done", KEEP: "keep", TABLE: "table"}
    if action in names:
        return names[action]
    return f"action {action}"


def _next_takes(choice: Choice) -> tuple[int, bool]:
    """The table cards that may be taken next (a set), and whether ``done`` is allowed."""
    taken = choice.taken
    nxt = 0
    done = False
    for cap in choice.options:
        rest = cap & ~taken
        if rest:
            nxt |= rest & -rest
        else:
            done = True
    return nxt, done


def legal_actions(moves: Sequence[Move], choice: Choice | None) -> list[int]:
    """The legal action ids, in increasing order, for these legal moves and pending choice.

    A play may also be given as a plain ``(card, capture)`` pair, as
    :func:`chkobba.search.fast.legal_plays` returns them (here and in :func:`decide`).
    """
    if choice is not None:
        nxt, done = _next_takes(choice)
        out = []
        while nxt:
            low = nxt & -nxt
            out.append(TAKE + low.bit_length() - 1)
            nxt ^= low
        if done:
            out.append(DONE)
        return out
    if not moves:
        return []
    if type(moves[0]) is Cut:
        return [KEEP, TABLE]
    cards = 0
    for m in moves:
        cards |= 1 << m[0]  # type: ignore[index]
    out = []
    while cards:
        low = cards & -cards
        out.append(PLAY + low.bit_length() - 1)
        cards ^= low
    return out


def action_mask(
    moves: Sequence[Move], choice: Choice | None, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]:
    """The action mask: 1 for each legal action id, 0 for the others."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8) if out is None else out
    if out is not None:
        mask[:] = 0
    mask[legal_actions(moves, choice)] = 1
    return mask


_new_tuple: Final = tuple.__new__


def decide(moves: Sequence[Move], choice: Choice | None, action: int) -> Move | Choice:
    """The move an action makes, or the choice it opens or narrows.

    Raise :class:`IllegalAction` for an action the mask does not allow.
    """
    if type(action) is not int:
        try:
            action = int(action)
        except (TypeError, ValueError):
            raise IllegalAction(f"an action is an integer, not {action!r}") from None
    if choice is not None:
        return _narrow(choice, action)
    if not moves:
        raise IllegalAction("this seat has no move to make now")
    if type(moves[0]) is Cut:
        if action == KEEP:
            return Cut.KEEP
        if action == TABLE:
            return Cut.TABLE
        raise IllegalAction(f"{action_name(action)} is illegal: the cut must be decided first")
    if not PLAY <= action < TAKE:
        raise IllegalAction(f"{action_name(action)} is illegal: no play is being chosen")
    card = action - PLAY
    options = [m[1] for m in moves if m[0] == card]  # type: ignore[index]
    if not options:
        raise IllegalAction(f"{action_name(action)} is illegal: that card is not in the hand")
    if len(options) == 1:
        # tuple.__new__ skips the NamedTuple's Python-level __new__ (a step's hot path).
        return _new_tuple(Play, (card, options[0]))
    return Choice(card, 0, tuple(sorted(options)))


def _narrow(choice: Choice, action: int) -> Move | Choice:
    nxt, done = _next_takes(choice)
    if action == DONE:
        if not done:
            raise IllegalAction("done is illegal: the cards taken so far are not a capture")
        return Play(choice.card, choice.taken)
    if not TAKE <= action < DONE or not nxt >> (action - TAKE) & 1:
        raise IllegalAction(
            f"{action_name(action)} is illegal: the capture of the card being played "
            "goes on with a take among the mask's, or done"
        )
    bit = 1 << (action - TAKE)
    taken = choice.taken | bit
    low = (bit << 1) - 1
    options = tuple(c for c in choice.options if c & low == taken)
    if len(options) == 1:
        return Play(choice.card, options[0])
    return Choice(choice.card, taken, options)


def actions_for(moves: Sequence[Move], move: Move) -> list[int]:
    """The action ids that make ``move`` (which must be legal), in order."""
    if isinstance(move, Cut):
        return [KEEP if move is Cut.KEEP else TABLE]
    out = [PLAY + move.card]
    step = decide(moves, None, out[0])
    while isinstance(step, Choice):
        rest = move.capture & ~step.taken
        a = TAKE + (rest & -rest).bit_length() - 1 if rest else DONE
        out.append(a)
        step = decide(moves, step, a)
    if step != move:
        raise IllegalAction(f"{move} is not among the legal moves")
    return out


# -- observations ----------------------------------------------------------------

_CARD_PLANES: Final = (
    "hand",
    "table",
    "unseen",
    "pile_0",
    "pile_1",
    "pile_2",
    "pile_3",
    "cut_card",
    "choice_card",
    "choice_taken",
    "shown",
    "last_play_1",
    "last_play_2",
    "last_play_3",
    "captures",
    "sweeps",
    "takes_seven_of_diamonds",
    "lay_risk",
    "most_taken",
    "diamonds_taken",
    "sevens_taken",
)
_SCALARS: Final = (
    ("phase", 2),
    ("hand_sizes", MAX_SEATS),
    ("stock", 1),
    ("chkobba", MAX_SEATS),
    ("last_capturer", MAX_SEATS + 1),
    ("totals", MAX_SEATS),
    ("seating", 4),
    ("position", MAX_SEATS),
)


def _layout() -> dict[str, slice]:
    out: dict[str, slice] = {}
    at = 0
    for name in _CARD_PLANES:
        out[name] = slice(at, at + 40)
        at += 40
    for name, n in _SCALARS:
        out[name] = slice(at, at + n)
        at += n
    return out


OBS_LAYOUT: Final[dict[str, slice]] = _layout()
"""The named slices of the observation vector (see ``docs/rl.md``)."""
OBS_SIZE: Final = max(s.stop for s in OBS_LAYOUT.values())
"""The length of the observation vector."""

_PLANES: Final = len(_CARD_PLANES) - 3
"""The card planes that are sets (the last three hold counts)."""
_COUNT_AT: Final = _PLANES * 40
_SCALAR_AT: Final = _COUNT_AT + 3 * 40
_SEVEN_OF_DIAMONDS: Final = int(SEVEN_OF_DIAMONDS)
_SEATING: Final = {(2, False): 0, (3, False): 1, (4, False): 2, (4, True): 3}
_SCALAR_SIZE: Final = OBS_SIZE - _SCALAR_AT
_PHASE: Final = OBS_LAYOUT["phase"].start - _SCALAR_AT
_HAND_SIZES: Final = OBS_LAYOUT["hand_sizes"].start - _SCALAR_AT
_STOCK: Final = OBS_LAYOUT["stock"].start - _SCALAR_AT
_CHKOBBA: Final = OBS_LAYOUT["chkobba"].start - _SCALAR_AT
_LAST_CAPTURER: Final = OBS_LAYOUT["last_capturer"].start - _SCALAR_AT
_TOTALS: Final = OBS_LAYOUT["totals"].start - _SCALAR_AT
_SEATING_AT: Final = OBS_LAYOUT["seating"].start - _SCALAR_AT
_POSITION: Final = OBS_LAYOUT["position"].start - _SCALAR_AT
TOTALS_CLIP: Final = 4.0
"""``totals`` is clipped here (four times the target), so that every entry is bounded:
only a long run of tied rounds past the target could reach it."""


def _high() -> npt.NDArray[np.float32]:
    high = np.ones(OBS_SIZE, dtype=np.float32)
    # A capture takes at most 39 table cards; a round has at most 40 sweeps.
    high[OBS_LAYOUT["most_taken"]] = 4.0
    high[OBS_LAYOUT["chkobba"]] = 4.0
    high[OBS_LAYOUT["totals"]] = TOTALS_CLIP
    return high


OBS_HIGH: Final = _high()
"""The upper bound of each entry of the vector (the lower bound is 0)."""
_BITS: Final = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1,
                             bitorder="little").astype(np.float32)
"""Byte value -> its 8 bits, lowest first, as floats."""
_ZERO_SCALARS: Final = [0.0] * _SCALAR_SIZE


def encode(
    obs: Observation, choice: Choice | None = None, out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]:
    """The ``chkobba_v1`` observation vector of ``obs`` and the seat's pending choice."""
    seats = obs.seats
    if seats > MAX_SEATS:
        raise ValueError(f"the {VERSION} observation holds at most {MAX_SEATS} seats, not {seats}")
    vec = np.empty(OBS_SIZE, dtype=np.float32) if out is None else out
    seat = obs.seat
    side_of = obs.side_of
    sides = obs.sides
    my_side = side_of[seat]
    planes = [0] * _PLANES
    planes[0] = obs.hand
    planes[1] = obs.table
    planes[2] = obs.unseen
    for s in range(sides):
        planes[3 + (s - my_side) % sides] = obs.piles[s]
    if obs.cut_card is not None:
        planes[7] = 1 << obs.cut_card
    if choice is not None:
        planes[8] = 1 << choice.card
        planes[9] = choice.taken
    if obs.shown:
        shown = 0
        for s, m in enumerate(obs.shown):
            if s != seat:
                shown |= m
        planes[10] = shown
    # The history's summary: the card each other seat put down last this round.
    found = 0
    want = seats - 1
    for turn in reversed(obs.history):
        if found == want:
            break
        move = turn.move
        if type(move) is Play and turn.seat != seat:
            k = 10 + (turn.seat - seat) % seats
            if not planes[k]:
                planes[k] = 1 << move.card
                found += 1
    # What each card of the hand can do now, read off the legal moves (the observer's
    # own knowledge, spelled out so that a learner need not rediscover the sums).
    table = obs.table
    counts = bytearray(3 * 40)  # most_taken, diamonds_taken, sevens_taken
    caps = sweeps = living = risky = 0
    table_total = -1
    for move in obs.legal_moves:
        if type(move) is not Play:
            break
        c = move.card
        cap = move.capture
        if cap:
            caps |= 1 << c
            if cap == table:
                sweeps |= 1 << c
            taken = cap | 1 << c
            if taken >> _SEVEN_OF_DIAMONDS & 1:
                living |= 1 << c
            n = cap.bit_count()
            if n > counts[c]:
                counts[c] = n
            n = (taken & DIAMONDS_MASK).bit_count()
            if n > counts[40 + c]:
                counts[40 + c] = n
            n = (taken & SEVENS_MASK).bit_count()
            if n > counts[80 + c]:
                counts[80 + c] = n
        else:
            if table_total < 0:
                table_total = sum(VALUE_OF[t] for t in iter_bits(table))
            # Laid, the card leaves a table one card could sweep (a chkobba offered).
            if table_total + VALUE_OF[c] <= 10:
                risky |= 1 << c
    planes[14] = caps
    planes[15] = sweeps
    planes[16] = living
    planes[17] = risky
    # Each plane is 5 bytes; each byte turns into its 8 bits through one table lookup,
    # written straight into the vector (numpy's conversions of Python lists are slow).
    raw = np.frombuffer(b"".join([p.to_bytes(5, "little") for p in planes]), dtype=np.uint8)
    np.take(_BITS, raw, axis=0, out=vec[:_COUNT_AT].reshape(-1, 8))
    if caps:
        np.multiply(np.frombuffer(counts, dtype=np.uint8), 0.1, out=vec[_COUNT_AT:_SCALAR_AT],
                    casting="unsafe")
    else:
        vec[_COUNT_AT:_SCALAR_AT] = 0
    sc = array.array("f", _ZERO_SCALARS)
    phase = obs.phase
    if phase is Phase.CUT:
        sc[_PHASE] = 1.0
    elif phase is Phase.PLAY:
        sc[_PHASE + 1] = 1.0
    sizes = obs.hand_sizes
    for s in range(seats):
        sc[_HAND_SIZES + (s - seat) % seats] = sizes[s] / 10
    sc[_STOCK] = obs.stock / 40
    target = max(obs.target, 1)
    chk = obs.chkobba
    totals = obs.totals
    for s in range(sides):
        k = (s - my_side) % sides
        sc[_CHKOBBA + k] = chk[s] / 10
        sc[_TOTALS + k] = min(totals[s] / target, TOTALS_CLIP)
    lc = obs.last_capturer
    sc[_LAST_CAPTURER + (MAX_SEATS if lc is None else (lc - my_side) % sides)] = 1.0
    sc[_SEATING_AT + _SEATING[seats, obs.teams]] = 1.0
    sc[_POSITION + (seat - obs.dealer) % seats] = 1.0
    vec[_SCALAR_AT:] = np.frombuffer(sc, dtype=np.float32)
    return vec


# -- observation options: without the engineered planes, with the whole history -------

ENGINEERED: Final = slice(int(OBS_LAYOUT["captures"].start), int(OBS_LAYOUT["sevens_taken"].stop))
"""The planes read off the legal moves (``captures`` … ``sevens_taken``), which
``planes=False`` leaves out."""

HISTORY_FIELDS: Final = (("seat", MAX_SEATS), ("card", 40), ("capture", 40), ("sweep", 1),
                         ("cut", 2))
"""One entry of the history: the relative seat that moved (one-hot), the card it
played (one-hot) and the table cards it captured, whether the play swept the table,
and a cut decision (one-hot: keep, table)."""
HISTORY_ENTRY: Final = sum(n for _, n in HISTORY_FIELDS)
"""The floats of one history entry."""


def history_length(rules: RuleSet) -> int:
    """The most entries a round's history can hold under ``rules``: every card dealt
    into a hand is played once, and the cut decision is one more entry."""
    return 40 - rules.table_size + (1 if rules.cut_choice else 0)


@dataclass(frozen=True, slots=True)
class ObsSpec:
    """Which observation vector an environment gives, and its layout.

    ``planes=False`` drops the engineered planes; ``history=True`` appends the round's
    whole public history (perfect recall within the round), ``history_length(rules)``
    entries of :data:`HISTORY_ENTRY` floats, the unused ones 0.
    """

    rules: RuleSet
    planes: bool = True
    history: bool = False

    @property
    def name(self) -> str:
        """The vector's name: ``chkobba_v1``, with ``-planes`` and ``+history`` if chosen."""
        return VERSION + ("" if self.planes else "-planes") + ("+history" if self.history else "")

    @property
    def entries(self) -> int:
        """How many history entries the vector holds (0 without the history)."""
        return history_length(self.rules) if self.history else 0

    @property
    def size(self) -> int:
        """The length of the vector."""
        base: int = OBS_SIZE - (0 if self.planes else ENGINEERED.stop - ENGINEERED.start)
        return base + self.entries * HISTORY_ENTRY

    @property
    def layout(self) -> dict[str, slice]:
        """The named slices of this vector (``history`` is entries × fields, row-major)."""
        out: dict[str, slice] = {}
        cut = 0 if self.planes else ENGINEERED.stop - ENGINEERED.start
        for name, sl in OBS_LAYOUT.items():
            if sl.start >= ENGINEERED.stop:
                out[name] = slice(sl.start - cut, sl.stop - cut)
            elif self.planes or sl.stop <= ENGINEERED.start:
                out[name] = sl
        if self.history:
            at = OBS_SIZE - cut
            out["history"] = slice(at, at + self.entries * HISTORY_ENTRY)
        return out

    @property
    def high(self) -> npt.NDArray[np.float32]:
        """The upper bound of each entry (the lower bound is 0)."""
        return self.assemble(OBS_HIGH, np.ones(self.entries * HISTORY_ENTRY, np.float32))

    def assemble(
        self, v1: npt.NDArray[np.float32], history: npt.NDArray[np.float32] | None
    ) -> npt.NDArray[np.float32]:
        """This vector from the ``chkobba_v1`` vector and the encoded history."""
        if self.planes and not self.history:
            return v1.copy()
        parts = [v1] if self.planes else [v1[: ENGINEERED.start], v1[ENGINEERED.stop :]]
        if self.history:
            assert history is not None
            parts.append(history)
        return np.concatenate(parts)

    def encode(self, obs: Observation, choice: Choice | None = None) -> npt.NDArray[np.float32]:
        """The vector of ``obs`` (the reference: :func:`encode` and :func:`encode_history`)."""
        v1 = encode(obs, choice)
        hist = encode_history(obs.history, obs.seat, obs.seats, self.entries) if self.history \
            else None
        return self.assemble(v1, hist)


_FIELD_AT: Final = dict(
    zip([n for n, _ in HISTORY_FIELDS],
        np.cumsum([0] + [n for _, n in HISTORY_FIELDS[:-1]]).tolist(), strict=True)
)


def encode_history(
    history: Sequence[Turn], seat: int, seats: int, entries: int
) -> npt.NDArray[np.float32]:
    """The public history of a round as ``entries`` rows of :data:`HISTORY_FIELDS`,
    seats relative to ``seat``; rows past the history are 0."""
    if len(history) > entries:
        raise ValueError(f"a history of {len(history)} turns does not fit in {entries} entries")
    rows = np.zeros((entries, HISTORY_ENTRY), dtype=np.float32)
    card_at = _FIELD_AT["card"]
    cap_at = _FIELD_AT["capture"]
    for i, turn in enumerate(history):
        row = rows[i]
        row[(turn.seat - seat) % seats] = 1.0
        move = turn.move
        if type(move) is Play:
            row[card_at + move.card] = 1.0
            if move.capture:
                raw = np.frombuffer(move.capture.to_bytes(5, "little"), dtype=np.uint8)
                row[cap_at : cap_at + 40] = _BITS[raw].ravel()
            row[_FIELD_AT["sweep"]] = float(turn.chkobba)
        else:
            row[_FIELD_AT["cut"] + (0 if move is Cut.KEEP else 1)] = 1.0
    return rows.ravel()


# -- the full state, for centralised critics ---------------------------------------

_STATE_PARTS: Final = (
    ("hands", MAX_SEATS * 40),
    ("table", 40),
    ("stock", 40),
    ("piles", MAX_SEATS * 40),
    ("cut_card", 40),
    ("choice_card", 40),
    ("choice_taken", 40),
    ("phase", 2),
    ("turn", MAX_SEATS),
    ("dealer", MAX_SEATS),
    ("stock_size", 1),
    ("chkobba", MAX_SEATS),
    ("last_capturer", MAX_SEATS + 1),
    ("totals", MAX_SEATS),
    ("seating", 4),
)


def _state_layout() -> dict[str, slice]:
    out: dict[str, slice] = {}
    at = 0
    for name, n in _STATE_PARTS:
        out[name] = slice(at, at + n)
        at += n
    return out


STATE_LAYOUT: Final[dict[str, slice]] = _state_layout()
"""The named slices of the full state vector (``docs/rl.md``); seats and sides absolute."""
STATE_SIZE: Final = max(s.stop for s in STATE_LAYOUT.values())
"""The length of the full state vector."""


def _state_high() -> npt.NDArray[np.float32]:
    high = np.ones(STATE_SIZE, dtype=np.float32)
    high[STATE_LAYOUT["chkobba"]] = 4.0
    high[STATE_LAYOUT["totals"]] = TOTALS_CLIP
    return high


STATE_HIGH: Final = _state_high()
"""The upper bound of each entry of the state vector (the lower bound is 0)."""


def encode_state(
    r: Round, totals: Sequence[int], target: int, choice: Choice | None = None
) -> npt.NDArray[np.float32]:
    """The whole state of round ``r`` (every hand, the stock's cards, the pending choice),
    for a centralised critic during training: never give it to a playing policy."""
    planes = [0] * (STATE_LAYOUT["phase"].start // 40)
    for s, h in enumerate(r.hands):
        planes[s] = h
    planes[4] = r.table
    planes[5] = r.stock_mask() if r.phase is not Phase.OVER else 0
    for s, p in enumerate(r.piles):
        planes[6 + s] = p
    if r.phase is Phase.CUT and r.cut_card is not None:
        planes[10] = 1 << r.cut_card
    if choice is not None:
        planes[11] = 1 << choice.card
        planes[12] = choice.taken
    raw = np.frombuffer(b"".join([p.to_bytes(5, "little") for p in planes]), dtype=np.uint8)
    vec = np.zeros(STATE_SIZE, dtype=np.float32)
    vec[: len(planes) * 40] = _BITS[raw].ravel()

    def at(name: str, k: int = 0) -> int:
        return int(STATE_LAYOUT[name].start) + k

    if r.phase is not Phase.OVER:
        vec[at("phase", 0 if r.phase is Phase.CUT else 1)] = 1.0
        vec[at("turn", r.turn)] = 1.0
    vec[at("dealer", r.dealer)] = 1.0
    vec[at("stock_size")] = r.stock / 40
    goal = max(target, 1)
    for side in range(r.sides):
        vec[at("chkobba", side)] = r.chkobba[side] / 10
        vec[at("totals", side)] = min(totals[side] / goal, TOTALS_CLIP)
    lc = r.last_capturer
    vec[at("last_capturer", MAX_SEATS if lc is None else lc)] = 1.0
    vec[at("seating", _SEATING[r.seats, r.sides != r.seats])] = 1.0
    return vec
