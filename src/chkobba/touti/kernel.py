"""The search player's hot loops, compiled: the Python face of :mod:`chkobba.touti._playout`
and :mod:`chkobba.touti._deals`.

A playout finishes a deal with the rule-based technique at every seat
(:func:`chkobba.touti.search.playout`, the pure reference); a draw deals the
hidden hands consistently with an observation
(:meth:`chkobba.touti.search.DealSampler.draw`, the reference, with the same
random generator). The C extensions do the same in a few microseconds; they are
built with the package where a C compiler is available, and the search falls
back to Python where they are not. Set ``CHKOBBA_PURE=1`` in the environment to
force the pure path; :data:`AVAILABLE` says which one is live.
``tests/test_touti_kernel.py`` checks that both paths finish every deal with the
same cards, announcements and points, draw the same hands from the same
generator, and that the search chooses the same cards either way.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

from chkobba.touti.deal import SEATS, Deal, Phase, canto_value, team_of
from chkobba.touti.scoring import DealScore

try:
    from chkobba.touti import _playout
except ImportError:  # not built: no compiler where the package was installed
    _playout = None  # type: ignore[assignment]
try:
    from chkobba.touti import _deals
except ImportError:
    _deals = None  # type: ignore[assignment]

__all__ = [
    "AVAILABLE",
    "BACKEND",
    "KernelError",
    "card_totals",
    "draw_hands",
    "finish",
    "state_of",
]


def _status() -> tuple[bool, str]:
    if os.environ.get("CHKOBBA_PURE", "") not in ("", "0"):
        return False, "CHKOBBA_PURE is set"
    for name, module in (("_playout", _playout), ("_deals", _deals)):
        if module is None:
            return False, f"the C extension chkobba.touti.{name} is not built"
    return True, "the C extensions chkobba.touti._playout and _deals"


AVAILABLE, BACKEND = _status()
"""Whether the compiled playouts are live, and which path the search takes (in words)."""


class KernelError(ValueError):
    """A deal the compiled playouts cannot take (not in its play, or claims allowed)."""


State = tuple[object, ...]
"""A deal in its play as the kernel reads it (:func:`state_of`)."""


def state_of(d: Deal) -> State:
    """Pack a deal in its play (or its announcements) for the kernel.

    Playouts never claim (:func:`chkobba.touti.search.world` marks every seat as
    having claimed), so neither does the kernel: a deal where a seat may still
    claim is refused rather than finished under other rules.
    """
    if d.phase not in (Phase.PLAY, Phase.CANTO):
        raise KernelError(f"the kernel plays out the play of a deal, not its {d.phase.value}")
    if d.rules.claim != "off" and d.claims != 0b1111:
        raise KernelError("the kernel's playouts never claim: mark every seat as claimed")
    assert d.declarer is not None
    sung = 0
    cantos = [0, 0]
    for a in d.announcements:
        sung |= 1 << a.suit
        cantos[team_of(a.seat)] += canto_value(a.suit, d.trump)
    return (
        tuple(d.hands),
        tuple(d.current),
        d.leader,
        d.turn,
        -1 if d.trump is None else d.trump,
        d.declarer,
        d.bid,
        d.played,
        d.won[0],
        d.won[1],
        len(d.tricks),
        sung,
        cantos[0],
        cantos[1],
        0 if d.phase is Phase.PLAY else 1,
        d.canto_stage,
        int(d.rules.kaddour),
        int(d.rules.failure == "declarer-loses"),
    )


def _require() -> None:
    if not AVAILABLE:
        raise KernelError(f"the compiled playouts are not available: {BACKEND}")


def finish(d: Deal) -> DealScore:
    """The score of ``d`` finished by the technique at every seat, computed by the kernel
    (``d`` itself is left as it is)."""
    _require()
    card_points, cantos, points, made, last = _playout.finish(state_of(d))
    assert d.declarer is not None
    return DealScore(
        declarer=d.declarer,
        declarer_team=team_of(d.declarer),
        bid=d.bid,
        trump=d.trump,
        card_points=card_points,
        last_trick=last,
        cantos=cantos,
        made=made,
        points=points,
    )


def card_totals(
    base: Deal,
    samples: Sequence[Sequence[int]],
    cards: Sequence[int],
    team: int,
    points_weight: float,
) -> list[float]:
    """For each of ``cards``, its worth to ``team`` summed over ``samples`` (four hands
    each, put in ``base``'s place): the card played, the deal finished by the technique,
    scored as :func:`chkobba.touti.search.evaluate` scores it."""
    _require()
    if base.phase is not Phase.PLAY:
        raise KernelError("cards are chosen in the play of a deal")
    for hands in samples:
        if len(hands) != SEATS:
            raise KernelError(f"a sample holds four hands, not {len(hands)}")
    return _playout.card_totals(state_of(base), samples, cards, team, points_weight)


def draw_hands(
    rng: random.Random,
    seat: int,
    hands: Sequence[int],
    pool: int,
    sizes: Sequence[int],
    excluded: Sequence[int],
    n: int,
) -> list[list[int]]:
    """``n`` draws of the four hands with ``rng``, as
    :meth:`~chkobba.touti.search.DealSampler.draw` makes them when no seat has said
    anything about its hand: ``hands`` holds the observer's own and the cards known in
    each other hand, ``pool`` the cards to deal among the others. ``rng`` is moved on
    as the Python draws move it; the list stops at a draw that failed (fewer than ``n``)."""
    _require()
    version, internal, gauss = rng.getstate()
    out, internal = _deals.draw(internal, seat, hands, pool, sizes, excluded, n)
    rng.setstate((version, internal, gauss))
    return out
