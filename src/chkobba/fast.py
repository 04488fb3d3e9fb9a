"""The fast path for playouts: a compiled kernel, and the pure engine as its reference.

The expert (:mod:`chkobba.agents.expert`) buys strength with simulations. This
module offers the same work through one typed interface, done by the C
extension :mod:`chkobba._fastcore` when it is built (about a hundred times
faster) and by pure-Python code on top of the engine otherwise, so the package
installs and runs where no compiler is available. Set ``CHKOBBA_PURE=1`` in the
environment to force the pure path; :data:`AVAILABLE` says which one is live.

The pure functions (``py_*``) are the reference: ``tests/test_fast.py`` checks
that the kernel plays the same moves, scores the same points, follows the same
policy and solves the same margins.

Card sets are 40-bit masks (:mod:`chkobba.cards`); a play is a
``(card, capture)`` pair of ints, as :class:`~chkobba.moves.Play` holds them.

The kernel knows Chkobba's rules and the few options it takes as arguments
(:data:`KERNEL_OPTIONS`). :func:`supports` says whether a rule set stays within
them; :func:`evaluate` runs the pure path for any rule set that does not, so a
game of the Scopa family is never searched under Chkobba's rules.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Sequence
from typing import Final, NamedTuple

from chkobba.captures import captures
from chkobba.cards import CARDS, FULL_DECK, cards_of
from chkobba.game import HAND_SIZE, Phase, Round, side_map
from chkobba.moves import Cut, Play
from chkobba.observe import Observation
from chkobba.rules import CHKOBBA, RuleSet
from chkobba.search import inference, policy
from chkobba.search.determinize import determinize
from chkobba.search.endgame import solvable
from chkobba.search.endgame import solve as endgame_solve

try:
    from chkobba import _fastcore
except ImportError:  # not built: no compiler where the package was installed
    _fastcore = None  # type: ignore[assignment]

PlayPair = tuple[int, int]
"""A play as ``(card, capture)``: the card number and the captured card set."""

MoveValue = str | PlayPair
"""A move as :func:`play_choices` reports it: ``"keep"``, ``"table"`` or a play pair."""


def _policy_weights() -> tuple[list[int], list[int], float]:
    """The policy's weights as the kernel takes them (see :mod:`chkobba.search.policy`)."""
    named = [policy.CARD, policy.DIAMOND, policy.SEVEN, policy.SIX, policy.HAYA, policy.SWEEP]
    return named, list(policy.LAY_COST), policy.CAUTION


def _kernel_status() -> tuple[bool, str]:
    if os.environ.get("CHKOBBA_PURE", "") not in ("", "0"):
        return False, "CHKOBBA_PURE is set"
    if _fastcore is None:
        return False, "the C extension chkobba._fastcore is not built"
    named, lay, caution = _policy_weights()
    _fastcore.set_policy(named, lay, caution)
    return True, "the C extension chkobba._fastcore"


KERNEL_OPTIONS: Final = frozenset(
    {
        "target",
        "lowest_wins",
        "may_drop_capturing_card",
        "cut_choice",
        "void_deal_count",
        "max_capture_cards",
        "deck",
    }
)
"""The rule options the kernel implements (or that only decide the match, or only name
things, which the kernel does not do): every other option must keep Chkobba's value, but
for ``seatings`` (:func:`supports`)."""

KERNEL_SEATS: Final = (2, 3, 4)
"""The tables the kernel deals: 2, 3 or 4 players (2 against 2 among them), not 6."""

_KERNEL_SEATINGS: Final = frozenset({"2", "3", "4", "2v2"})
_CHKOBBA_OPTIONS: Final = CHKOBBA.options()


def supports(rules: RuleSet, seats: int | None = None) -> bool:
    """Whether the kernel plays ``rules`` exactly: Chkobba but for :data:`KERNEL_OPTIONS`,
    at a table of ``seats`` players (None: at every table ``rules`` allow) among
    :data:`KERNEL_SEATS`. The callers use the pure search for anything else."""
    if seats is None:
        if not _KERNEL_SEATINGS.issuperset(rules.seatings):
            return False
    elif seats not in KERNEL_SEATS:
        return False
    return all(
        v == _CHKOBBA_OPTIONS[k]
        for k, v in rules.options().items()
        if k not in KERNEL_OPTIONS and k != "seatings"
    )


AVAILABLE: bool
"""Whether the compiled kernel does the work (else the pure-Python reference does)."""
BACKEND: str
"""Which path is live, or why the kernel is not used."""
AVAILABLE, BACKEND = _kernel_status()


class FastState(NamedTuple):
    """A full round state in the play phase: every card placed, the stock in deal order."""

    seats: int
    side_of: tuple[int, ...]
    cutter: int
    """The seat after the dealer: later deals start with this seat."""
    hands: tuple[int, ...]
    table: int
    piles: tuple[int, ...]
    """Each side's captured cards."""
    chkobba: tuple[int, ...]
    last_capturer: int
    """The side that captured last, or -1 if nobody has captured yet."""
    turn: int
    stock: tuple[int, ...]
    """The cards still to deal, top first."""
    max_capture_cards: int = 0
    may_drop: bool = False


def state_of(r: Round) -> FastState:
    """The state of a round in the play phase, for :func:`rollout` and :func:`solve`."""
    if r.phase is not Phase.PLAY:
        raise ValueError(f"a fast state needs a round in the play phase, not {r.phase.value}")
    return FastState(
        seats=r.seats,
        side_of=tuple(r.side_of),
        cutter=r.cutter,
        hands=tuple(r.hands),
        table=r.table,
        piles=tuple(r.piles),
        chkobba=tuple(r.chkobba),
        last_capturer=-1 if r.last_capturer is None else r.last_capturer,
        turn=r.turn,
        stock=tuple(r.deck[r.stock_pos :]),
        max_capture_cards=r.rules.max_capture_cards,
        may_drop=r.rules.may_drop_capturing_card,
    )


def round_of(state: FastState) -> Round:
    """The engine's :class:`~chkobba.game.Round` holding ``state`` (checked first)."""
    check_state(state)
    return Round.in_play(
        _rules(state.max_capture_cards, state.may_drop),
        tuple(state.side_of),
        (state.cutter - 1) % state.seats,
        state.stock,
        state.hands,
        state.table,
        state.piles,
        state.chkobba,
        None if state.last_capturer < 0 else state.last_capturer,
        state.turn,
    )


# -- checks shared by both paths -------------------------------------------------


def _rules(max_capture_cards: int, may_drop: bool) -> RuleSet:
    _check_max_cards(max_capture_cards)
    return CHKOBBA.with_options(
        {"max_capture_cards": max_capture_cards, "may_drop_capturing_card": bool(may_drop)}
    )


def _check_max_cards(max_capture_cards: int) -> None:
    if max_capture_cards < 0 or max_capture_cards == 1:
        raise ValueError(
            f"max_capture_cards must be 0 (no limit) or at least 2, not {max_capture_cards}"
        )


def _check_mask(mask: int, what: str) -> None:
    if not isinstance(mask, int):
        raise TypeError(f"{what} must be a card set (an int mask), not {type(mask).__name__}")
    if not 0 <= mask <= FULL_DECK:
        raise ValueError(f"{what} must be a set of the 40 cards (a mask below 2**40)")


def _teams(seats: int, side_of: Sequence[int]) -> bool:
    """Whether ``side_of`` pairs partners; raise unless docs/rules.md §2.1 allows the seating."""
    if seats not in (2, 3, 4):
        raise ValueError(f"Chkobba is played by 2, 3 or 4 players, not {seats}")
    sides = tuple(side_of)
    if sides == side_map(seats, False):
        return False
    if seats == 4 and sides == side_map(4, True):
        return True
    raise ValueError(
        "side_of must give each seat its own side (0, 1, ...) or pair partners opposite "
        "(0, 1, 0, 1)"
    )


def _claim(seen: int, mask: int, what: str) -> int:
    twice = seen & mask
    if twice:
        card = CARDS[(twice & -twice).bit_length() - 1]
        raise ValueError(f"card {card} appears twice in the state (again in {what})")
    return seen | mask


def check_state(state: FastState) -> None:
    """Raise ``ValueError`` unless ``state`` is a round that play can continue from."""
    _teams(state.seats, state.side_of)
    sides = max(state.side_of) + 1
    if not 0 <= state.cutter < state.seats or not 0 <= state.turn < state.seats:
        raise ValueError(f"cutter and turn must be seats from 0 to {state.seats - 1}")
    if len(state.hands) != state.seats:
        raise ValueError(f"hands must hold {state.seats} entries, not {len(state.hands)}")
    if len(state.piles) != sides or len(state.chkobba) != sides:
        raise ValueError(f"piles and chkobba must hold {sides} entries, one per side")
    if not -1 <= state.last_capturer < sides:
        raise ValueError("last_capturer must be a side or -1")
    if any(not 0 <= n <= 40 for n in state.chkobba):
        raise ValueError("chkobba must be from 0 to 40")
    _check_max_cards(state.max_capture_cards)
    seen = 0
    for h in state.hands:
        _check_mask(h, "hands")
        seen = _claim(seen, h, "hands")
    _check_mask(state.table, "table")
    seen = _claim(seen, state.table, "table")
    for p in state.piles:
        _check_mask(p, "piles")
        seen = _claim(seen, p, "piles")
    for c in state.stock:
        if not 0 <= c < 40:
            raise ValueError("stock must be from 0 to 39")
        seen = _claim(seen, 1 << c, "stock")
    if len(state.stock) % (HAND_SIZE * state.seats):
        raise ValueError(
            f"the stock must hold whole deals of 3 cards a seat (a multiple of "
            f"{HAND_SIZE * state.seats}), not {len(state.stock)} cards"
        )
    sizes = [state.hands[(state.turn + i) % state.seats].bit_count() for i in range(state.seats)]
    if sum(sizes) == 0:
        raise ValueError("no cards in hands: the round is over")
    k = sizes[0]
    if k == 0 or any(b > a or b < k - 1 for a, b in itertools.pairwise(sizes)):
        raise ValueError(
            f"the hand sizes do not fit seat {state.turn} to move: from the mover round the "
            "table each hand must hold as many cards as the one before or one fewer"
        )


def _check_solvable(state: FastState) -> None:
    if max(state.side_of) != 1 or state.stock:
        raise ValueError("solve needs two sides and an empty stock (every card known)")


# -- the pure reference ------------------------------------------------------------


def py_legal_plays(
    hand: int, table: int, max_capture_cards: int = 0, may_drop: bool = False
) -> list[PlayPair]:
    """:func:`legal_plays` on the engine: :func:`chkobba.captures.captures` card by card."""
    _check_mask(hand, "hand")
    _check_mask(table, "table")
    if hand & table:
        card = CARDS[((hand & table) & -(hand & table)).bit_length() - 1]
        raise ValueError(f"card {card} is both in the hand and on the table")
    rules = _rules(max_capture_cards, may_drop)
    out: list[PlayPair] = []
    for c in cards_of(hand):
        caps = captures(c.value, table, rules) if table else []
        out.extend((int(c), m) for m in caps)
        if may_drop or not caps:
            out.append((int(c), 0))
    return out


def py_random_rounds(n: int, seed: int) -> int:
    """:func:`random_rounds` on the engine (``random.Random(seed)``, not the kernel's numbers)."""
    if n < 0:
        raise ValueError("the number of rounds must not be negative")
    rng = random.Random(seed)
    deck = list(range(40))
    plays = 0
    for _ in range(n):
        while True:
            rng.shuffle(deck)
            r = Round(CHKOBBA, 2, False, 0, deck)
            r.apply_unchecked(rng.choice(r.legal_moves()))
            if not r.void:
                break
        while r.score is None:
            r.apply_unchecked(rng.choice(r.legal_moves()))
            plays += 1
    return plays


def py_play_choices(
    seats: int,
    side_of: Sequence[int],
    dealer: int,
    deck: Sequence[int],
    cut_choice: bool,
    max_capture_cards: int,
    may_drop: bool,
    void_deal_count: int,
    choices: Sequence[float],
) -> tuple[list[MoveValue], list[int]]:
    """:func:`play_choices` on :class:`~chkobba.game.Round`."""
    teams = _teams(seats, side_of)
    _check_max_cards(max_capture_cards)
    rules = CHKOBBA.with_options(
        {
            "cut_choice": bool(cut_choice),
            "max_capture_cards": max_capture_cards,
            "may_drop_capturing_card": bool(may_drop),
            "void_deal_count": void_deal_count,
        }
    )
    r = Round(rules, seats, teams, dealer, deck)
    moves: list[MoveValue] = []
    if r.void:
        return moves, []
    pos = 0
    while r.score is None:
        legal = r.legal_moves()
        if pos >= len(choices):
            raise ValueError(f"choices ran out after {len(choices)} decisions")
        u = float(choices[pos])
        if not 0.0 <= u < 1.0:
            raise ValueError(f"choice {pos} must be in [0, 1)")
        pos += 1
        move = legal[int(u * len(legal))]
        moves.append(move.value if isinstance(move, Cut) else (move.card, move.capture))
        r.apply_unchecked(move)
        if r.void:
            return moves, []
    return moves, list(r.score.points)


def first_best_play(r: Round) -> Play:
    """The policy's play in ``r`` with ties broken by legal order (no randomness).

    The same scores as :func:`chkobba.search.policy.policy_move`, which draws
    among tied plays at random instead.
    """
    return policy.best_plays(r)[0]


def py_rollout(state: FastState, seed: int, deterministic: bool = False) -> list[int]:
    """:func:`rollout` on the engine with :mod:`chkobba.search.policy`."""
    r = round_of(state)
    rng = random.Random(seed)
    while r.score is None:
        r.apply_unchecked(first_best_play(r) if deterministic else policy.policy_move(r, rng))
    return list(r.score.points)


def py_solve(state: FastState) -> list[tuple[int, int, float]]:
    """:func:`solve` by :func:`chkobba.search.endgame.solve`."""
    r = round_of(state)
    _check_solvable(state)
    _, results = endgame_solve(r)
    return [(p.card, p.capture, v) for p, v in results]


SOLVE_CARDS: Final = 6
"""A playout is solved exactly once two sides hold at most this many cards in all."""


def playout_margin(
    r: Round, side: int, rng: random.Random, solve_cards: int = SOLVE_CARDS
) -> float:
    """Finish ``r`` with the policy, or solve it exactly once two sides are left with
    an empty stock and at most ``solve_cards`` cards in hands; ``side``'s margin.

    The pure expert's playout (:func:`chkobba.agents.expert.playout_margin`), kept
    here so that this module does not import the agents that use it.
    """
    if r.void:
        return 0.0
    if solvable(r) and r.in_hands <= solve_cards:
        value, _ = endgame_solve(r)
        return value if r.side_of[r.turn] == side else -value
    policy.rollout(r, rng)
    if r.score is None:
        return 0.0
    points = r.score.points
    return float(points[side] - max(p for s, p in enumerate(points) if s != side))


def _check_observation(obs: Observation, samples: int) -> None:
    if not obs.legal_moves:
        raise ValueError("the observer must be the seat to move")
    if samples < 0:
        raise ValueError("samples must not be negative")


def py_evaluate(
    obs: Observation,
    samples: int,
    seed: int,
    solve_cards: int = SOLVE_CARDS,
    temperature: float | None = None,
    known: Sequence[int] | None = None,
) -> list[float]:
    """:func:`evaluate` on the engine: determinize, weigh the deal, apply each move, play out."""
    _check_observation(obs, samples)
    found = inference.decisions(obs) if inference.active(temperature) else ()
    rng = random.Random(seed)
    moves = obs.legal_moves
    totals = [0.0] * len(moves)
    for _ in range(samples):
        deal = determinize(obs, rng, known)
        w = 1.0
        if found:
            w = inference.weight(found, deal.hands, obs.rules, temperature or 0.0, deal.wild)
            if w == 0.0:  # a deal that cannot explain the plays adds nothing
                continue
        for i, m in enumerate(moves):
            r = deal.copy()
            r.apply_unchecked(m)
            totals[i] += w * playout_margin(r, obs.side, rng, solve_cards)
    return totals


def py_likelihoods(
    found: Sequence[inference.Decision],
    rules: RuleSet,
    temperature: float,
    deals: Sequence[Sequence[int]],
) -> list[float]:
    """:func:`likelihoods` by :func:`chkobba.search.inference.log_likelihood`."""
    return [inference.log_likelihood(found, hands, rules, temperature) for hands in deals]


# -- the fast path ---------------------------------------------------------------


def legal_plays(
    hand: int, table: int, max_capture_cards: int = 0, may_drop: bool = False
) -> list[PlayPair]:
    """The legal plays of ``hand`` on ``table``, in :meth:`Round.legal_moves` order.

    Cards ascending; for each card its captures in :func:`chkobba.captures.captures`
    order, then the lay when the rules allow it.
    """
    if AVAILABLE:
        return _fastcore.legal_plays(hand, table, max_capture_cards, may_drop)
    return py_legal_plays(hand, table, max_capture_cards, may_drop)


def random_rounds(n: int, seed: int) -> int:
    """Play ``n`` random 2-player rounds; return the number of plays made.

    Dealer 0, a random cut decision, void deals redealt, each play drawn
    uniformly among the legal plays, the round scored in full: the benchmark of
    ``bench/playouts.py``. The kernel and the pure path draw different numbers.
    """
    if AVAILABLE:
        return _fastcore.random_rounds(n, seed)
    return py_random_rounds(n, seed)


def play_choices(
    seats: int,
    side_of: Sequence[int],
    dealer: int,
    deck: Sequence[int],
    cut_choice: bool,
    max_capture_cards: int,
    may_drop: bool,
    void_deal_count: int,
    choices: Sequence[float],
) -> tuple[list[MoveValue], list[int]]:
    """Deal ``deck`` as :class:`~chkobba.game.Round` does and play one round by ``choices``.

    At each decision the move at index ``int(u * len(legal))`` is taken, ``u``
    being the next entry of ``choices`` (at the cut, index 0 keeps and 1 tables).
    Returns the moves (``"keep"``, ``"table"`` or ``(card, capture)``) and each
    side's round points; the points are empty when the deal is void.
    """
    if AVAILABLE:
        return _fastcore.play_choices(
            seats,
            tuple(side_of),
            dealer,
            tuple(deck),
            cut_choice,
            max_capture_cards,
            may_drop,
            void_deal_count,
            choices,
        )
    return py_play_choices(
        seats,
        side_of,
        dealer,
        deck,
        cut_choice,
        max_capture_cards,
        may_drop,
        void_deal_count,
        choices,
    )


def rollout(state: FastState, seed: int, deterministic: bool = False) -> list[int]:
    """Finish the round from ``state`` with the playout policy; each side's points.

    The policy is :mod:`chkobba.search.policy`'s. Ties go to a random tied play,
    or with ``deterministic`` to the first in legal order, which makes the
    kernel and the pure reference play the very same round.
    """
    if AVAILABLE:
        return _fastcore.rollout(state, seed, deterministic)
    return py_rollout(state, seed, deterministic)


def solve(state: FastState) -> list[tuple[int, int, float]]:
    """The exact margin of each legal play, as ``(card, capture, margin)`` in legal order.

    Two sides and an empty stock (every card known), as
    :func:`chkobba.search.endgame.solve`; the margin is the mover's side's round
    points minus the other side's, chkobba points already made included.
    """
    if AVAILABLE:
        return _fastcore.solve(state)
    return py_solve(state)


def likelihoods(
    found: Sequence[inference.Decision],
    rules: RuleSet,
    temperature: float,
    deals: Sequence[Sequence[int]],
) -> list[float]:
    """For each sampled deal (every seat's hand now), the log of its inference weight.

    How likely the deal makes the other seats' plays ``found``
    (:func:`chkobba.search.inference.decisions`), at ``temperature`` points
    (:func:`chkobba.search.inference.log_likelihood`); 0 for a temperature of 0.
    """
    inference.check_temperature(temperature)
    if AVAILABLE and supports(rules):
        return _fastcore.likelihoods(
            _decision_tuples(found),
            rules.max_capture_cards,
            rules.may_drop_capturing_card,
            temperature,
            [tuple(h) for h in deals],
        )
    return py_likelihoods(found, rules, temperature, deals)


def _decision_tuples(
    found: Sequence[inference.Decision],
) -> list[tuple[int, int, int, int, int, int, int, bool, int, int]]:
    return [
        (
            d.seat,
            d.card,
            d.capture,
            d.table,
            d.public,
            d.side,
            -1 if d.last_capturer is None else d.last_capturer,
            d.last_play,
            d.next_hand,
            d.later,
        )
        for d in found
    ]


def evaluate(
    obs: Observation,
    samples: int,
    seed: int,
    solve_cards: int = SOLVE_CARDS,
    temperature: float | None = None,
    known: Sequence[int] | None = None,
) -> list[float]:
    """The summed margin of each of ``obs.legal_moves`` over ``samples`` sampled deals.

    The expert's inner loop: each sample fills the other hands and the stock
    with the unseen cards (:func:`chkobba.search.determinize.determinize`), then
    every legal move is applied and the round finished by the policy, or solved
    exactly once two sides are left with an empty stock and at most
    ``solve_cards`` cards in hands (:func:`playout_margin`; pass 12 to solve
    every sampled split of a 2-against-2 endgame). A move's margin is the
    observer's side's points minus the best other side's. Deterministic for a
    seed.

    With a positive ``temperature`` (in points) each sampled deal's margins are
    weighted by how likely it makes the other seats' plays in the current deal
    (:mod:`chkobba.search.inference`), so the sums are weighted sums; None or 0
    samples uniformly.

    ``known`` (one card set per seat, 0 for a hidden hand) fixes hands the caller
    is let see; only the other hidden cards are sampled (for measurements only:
    the peeking player of :mod:`chkobba.agents.cheater`).
    """
    _check_observation(obs, samples)
    found = inference.decisions(obs) if inference.active(temperature) else ()
    if not AVAILABLE or not supports(obs.rules, obs.seats):
        return py_evaluate(obs, samples, seed, solve_cards, temperature, known)
    cut = obs.phase is Phase.CUT
    if cut and obs.cut_card is None:
        raise ValueError("at the cut only the cutter can evaluate its choice")
    totals = _fastcore.evaluate(
        cut,
        obs.seat,
        obs.side_of,
        obs.turn,
        obs.dealer,
        obs.hand,
        obs.table,
        -1 if obs.cut_card is None else obs.cut_card,
        obs.piles,
        obs.chkobba,
        -1 if obs.last_capturer is None else obs.last_capturer,
        obs.hand_sizes,
        obs.unseen,
        obs.stock,
        obs.rules.max_capture_cards,
        obs.rules.may_drop_capturing_card,
        obs.rules.void_deal_count,
        samples,
        seed,
        solve_cards,
        temperature or 0.0,
        _decision_tuples(found),
        None if known is None else list(known),
    )
    if len(totals) != len(obs.legal_moves):
        raise RuntimeError("the kernel and the observation disagree on the legal moves")
    return totals
