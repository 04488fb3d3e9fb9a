"""The environment's observation vectors, fast: the compiled kernel's block or the reference.

:func:`chkobba.rl.spaces.encode` of :func:`chkobba.fishing.observe.observe_round` is the
reference, the one definition of the ``chkobba_v1`` vector. The environment asks
for the same vector many thousands of times a second, so :func:`encode_round`
reads the round directly and lets the compiled block ``encode_v1`` of
:mod:`chkobba._fastcore` fill the vector and the mask; where the kernel is not
built (or ``CHKOBBA_PURE=1``) it runs the reference itself.
``tests/test_rl_fast.py`` checks that both paths write the same vector and mask
along seeded games of every preset, and that redealing the cards a seat has not
seen leaves the fast vector unchanged too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from chkobba.fishing.game import Phase, Round
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.observe import observe_round
from chkobba.fishing.rules import RuleSet
from chkobba.rl.spaces import Choice, action_mask, encode
from chkobba.search import fast

try:
    from chkobba import _fastcore
except ImportError:  # not built: no compiler where the package was installed
    _fastcore = None  # type: ignore[assignment]

KERNEL: Final = fast.AVAILABLE and hasattr(_fastcore, "encode_v1")
"""Whether the compiled block writes the vectors (else the pure reference does)."""

_PLAY: Final = Phase.PLAY
_CUT: Final = Phase.CUT
_SEATING: Final = {(2, False): 0, (3, False): 1, (4, False): 2, (4, True): 3}

PlayPair = tuple[int, int]
Moves = Sequence[Move] | Sequence[PlayPair]
"""Legal moves as the engine lists them, or plays as ``(card, capture)`` pairs."""


def kernel_plays(rules: RuleSet) -> bool:
    """Whether the kernel lists the legal plays of ``rules`` exactly (:func:`fast.supports`)."""
    return KERNEL and fast.supports(rules)


_RULES_SEEN: dict[int, tuple[RuleSet, _fastcore.Rules]] = {}
"""The kernel's rule structs by the identity of their rule set: ``fast.kernel_rules``
hashes the whole frozen RuleSet at every call (a microsecond, every step)."""


def _kernel_rules(rules: RuleSet) -> _fastcore.Rules:
    seen = _RULES_SEEN.get(id(rules))
    if seen is not None and seen[0] is rules:
        return seen[1]
    kernel = fast.kernel_rules(rules)
    if len(_RULES_SEEN) >= 64:
        _RULES_SEEN.clear()
    # The rule set is held with its struct, so that its id is never another's.
    _RULES_SEEN[id(rules)] = (rules, kernel)
    return kernel


def legal_moves(r: Round, use_kernel: bool) -> Moves:
    """The legal moves of the seat to move: plays as pairs from the kernel when
    ``use_kernel`` (which :func:`kernel_plays` must allow), else the engine's."""
    if use_kernel and r.phase is Phase.PLAY:
        return _fastcore.legal_plays(_kernel_rules(r.rules), r.hands[r.turn], r.table, r.wild)
    return r.legal_moves()


def plays_kernel(rules: RuleSet) -> _fastcore.Rules | None:
    """The kernel's rule struct that lists the plays of ``rules`` (for
    :func:`moves_of`), or None where the engine must list them."""
    return _kernel_rules(rules) if kernel_plays(rules) else None


def moves_of(r: Round, kernel: _fastcore.Rules | None) -> Moves:
    """:func:`legal_moves` with the rule struct looked up once (:func:`plays_kernel` of
    ``r.rules``): an environment asks at every step."""
    if kernel is not None and r.phase is _PLAY:
        return _fastcore.legal_plays(kernel, r.hands[r.turn], r.table, r.wild)
    return r.legal_moves()


def encode_round(
    r: Round,
    seat: int,
    totals: Sequence[int],
    target: int,
    moves: Moves,
    choice: Choice | None,
    vec: npt.NDArray[np.float32],
    mask: npt.NDArray[np.int8],
) -> None:
    """Write the ``chkobba_v1`` vector of ``seat`` into ``vec`` and its mask into ``mask``.

    ``moves`` are the seat's legal moves (empty when it is not to move) and
    ``choice`` its open capture choice: the same vector as
    ``encode(observe_round(r, seat, ...) with those legal moves, choice)``.
    """
    if not KERNEL:
        obs = observe_round(r, seat, tuple(totals), 0, target)
        if len(obs.legal_moves) != len(moves):
            obs = dataclasses.replace(obs, legal_moves=tuple(moves))  # type: ignore[arg-type]
        encode(obs, choice, vec)
        action_mask(obs.legal_moves, choice, mask)
        return
    phase = r.phase
    cut_card = -1
    if phase is _CUT and seat == r.cutter and r.cut_card is not None:
        cut_card = r.cut_card
    shown = shown_all = 0
    if r.declarations:
        for s in range(r.seats):
            m = r.shown(s)
            shown_all |= m
            if s != seat:
                shown |= m
    seats = r.seats
    # The history's summary: the card each other seat put down last this round.
    last = [-1] * (seats - 1)
    want = seats - 1
    for turn in reversed(r.history):
        if not want:
            break
        move = turn.move
        if type(move) is Play and turn.seat != seat:
            k = (turn.seat - seat) % seats - 1
            if last[k] < 0:
                last[k] = move.card
                want -= 1
    cut_to_move = bool(moves) and type(moves[0]) is Cut
    lc = r.last_capturer
    _fastcore.encode_v1(
        vec,
        mask,
        seat,
        seats,
        _SEATING[seats, r.sides != seats],
        r.side_of,
        r.dealer,
        0 if phase is _CUT else 1 if phase is _PLAY else 2,
        r.hands,
        r.table,
        r.leftover,
        r.piles,
        cut_card,
        -1 if choice is None else choice.card,
        0 if choice is None else choice.taken,
        shown,
        shown_all,
        last,
        () if cut_to_move else moves,  # type: ignore[arg-type]
        cut_to_move,
        len(r.deck) - r.stock_pos if phase is not _CUT else len(r.deck),
        r.chkobba,
        -1 if lc is None else lc,
        totals,
        target,
    )
    if choice is not None:
        action_mask(moves, choice, mask)  # type: ignore[arg-type]
