"""The fast path for playouts: a compiled kernel, and the pure engine as its reference.

The expert (:mod:`chkobba.agents.expert`) buys strength with simulations. This
module offers the same work through one typed interface, done by the C
extension :mod:`chkobba._fastcore` when it is built (about a hundred times
faster) and by pure-Python code on top of the engine otherwise, so the package
installs and runs where no compiler is available. Set ``CHKOBBA_PURE=1`` in the
environment to force the pure path; :data:`AVAILABLE` says which one is live.

The pure functions (``py_*``) are the reference: ``tests/test_fast.py`` checks
that the kernel plays the same moves, scores the same points, follows the same
policy and solves the same margins, for every preset at every table it allows.

Card sets are 40-bit masks (:mod:`chkobba.fishing.cards`); a play is a
``(card, capture)`` pair of ints, as :class:`~chkobba.fishing.moves.Play` holds them.

The kernel plays every option of :class:`~chkobba.fishing.rules.RuleSet`
(:data:`KERNEL_OPTIONS`) and every point rule (:data:`KERNEL_POINT_RULES`) at
tables of 2, 3, 4 and 6 seats and 2 against 2: each rule set is handed to it once
as a compact struct of options and playout values (:func:`kernel_rules`, cached).
:func:`supports` stays the guard: a rule set with an option the kernel does not
know is searched on the pure path, never under rules it does not play.
"""

from __future__ import annotations

import functools
import itertools
import os
import random
from collections.abc import Sequence
from typing import Final, NamedTuple

from chkobba.fishing.cards import CARDS, FULL_DECK, RANKS
from chkobba.fishing.game import PLAYER_COUNTS, Phase, Round, side_map, wild_value
from chkobba.fishing.moves import Cut, Play
from chkobba.fishing.observe import Observation
from chkobba.fishing.rules import CHKOBBA, RuleSet
from chkobba.fishing.scoring import POINT_KEYS, Declaration
from chkobba.search import inference, policy
from chkobba.search.determinize import determinize
from chkobba.search.endgame import solvable, solvable_dealt, solve_dealt
from chkobba.search.endgame import solve as endgame_solve

try:
    from chkobba import _fastcore
except ImportError:  # not built: no compiler where the package was installed
    _fastcore = None  # type: ignore[assignment]

PlayPair = tuple[int, int]
"""A play as ``(card, capture)``: the card number and the captured card set."""

MoveValue = str | PlayPair
"""A move as :func:`play_choices` reports it: ``"keep"``, ``"table"`` or a play pair."""


def _kernel_status() -> tuple[bool, str]:
    if os.environ.get("CHKOBBA_PURE", "") not in ("", "0"):
        return False, "CHKOBBA_PURE is set"
    if _fastcore is None:
        return False, "the C extension chkobba._fastcore is not built"
    if not hasattr(_fastcore, "Rules"):
        return False, "the C extension chkobba._fastcore is out of date: rebuild it"
    return True, "the C extension chkobba._fastcore"


KERNEL_OPTIONS: Final = frozenset(
    {
        "target",
        "may_drop_capturing_card",
        "cut_choice",
        "void_deal_count",
        "max_capture_cards",
        "fewest_cards",
        "void_deal_ranks",
        "distinct_table",
        "hand_size",
        "table_size",
        "seatings",
        "capture_match",
        "capture_sum",
        "capture_total",
        "matching_priority",
        "ace_takes_all",
        "ace_sweep_scores",
        "scoring",
        "all_coins_wins",
        "lowest_wins",
        "wild_seven_keeps_value",
        "deck",
    }
)
"""The rule options the kernel implements, or that only decide the match (``target``,
``all_coins_wins``, ``lowest_wins``: the search's goal), only name things (``deck``) or
only list tables (``seatings``). A rule set with any other option is not played by the
kernel (:func:`supports`)."""

_POINT_ORDER: Final = (
    "cards",
    "coins",
    "sevens",
    "primiera",
    "seven_of_coins",
    "king_of_coins",
    "sweeps",
    "napola",
    "ponino",
    "coin_faces",
    "frac",
    "frac_tie",
    "declarations",
)
"""The point rules in the order the kernel counts them."""

KERNEL_POINT_RULES: Final = frozenset(_POINT_ORDER)
"""The point rules (:data:`chkobba.fishing.scoring.POINT_RULES`) the kernel scores."""

KERNEL_SEATS: Final = (2, 3, 4, 6)
"""The tables the kernel deals: 2, 3, 4 or 6 players (2 against 2 among the four)."""

_KERNEL_SEATINGS: Final = frozenset({"2", "3", "4", "6", "2v2"})


def supports(rules: RuleSet, seats: int | None = None) -> bool:
    """Whether the kernel plays ``rules`` exactly: every option among :data:`KERNEL_OPTIONS`,
    every point among :data:`KERNEL_POINT_RULES`, at a table of ``seats`` players (None:
    at every table ``rules`` allow) among :data:`KERNEL_SEATS`. True for every preset; the
    callers use the pure search for anything else."""
    if seats is None:
        if not _KERNEL_SEATINGS.issuperset(rules.seatings):
            return False
    elif seats not in KERNEL_SEATS:
        return False
    return KERNEL_OPTIONS.issuperset(rules.options()) and all(
        k in POINT_KEYS and POINT_KEYS[k].rule in KERNEL_POINT_RULES for k in rules.scoring
    )


AVAILABLE: bool
"""Whether the compiled kernel does the work (else the pure-Python reference does)."""
BACKEND: str
"""Which path is live, or why the kernel is not used."""
AVAILABLE, BACKEND = _kernel_status()


def kernel_options(rules: RuleSet) -> tuple[int, ...]:
    """The options of ``rules`` as the kernel's struct holds them, in its order: the deal,
    the captures, the sweeps, the declarations, the goal and how many times each point
    rule is scored (:data:`_POINT_ORDER`)."""
    ranks = sum(1 << RANKS.index(r) for r in rules.void_deal_ranks)
    counts = [0] * len(_POINT_ORDER)
    for k in rules.scoring:
        counts[_POINT_ORDER.index(POINT_KEYS[k].rule)] += 1
    return (
        rules.hand_size,
        rules.table_size,
        int(rules.cut_choice),
        rules.void_deal_count,
        ranks,
        int(rules.distinct_table),
        rules.max_capture_cards,
        int(rules.fewest_cards),
        int(rules.may_drop_capturing_card),
        int(rules.capture_match),
        int(rules.capture_sum),
        rules.capture_total,
        int(rules.matching_priority),
        int(rules.ace_takes_all),
        int(rules.general_captures),
        rules.no_sweep,
        int(rules.declares),
        int(rules.wild_seven_keeps_value),
        int(rules.lowest_wins),
        *counts,
    )


@functools.lru_cache(maxsize=64)
def kernel_rules(rules: RuleSet) -> _fastcore.Rules:
    """``rules`` as the kernel takes them: its options and the playout policy's values for
    them (:func:`chkobba.search.policy.weights`), built once per rule set."""
    if not supports(rules):
        raise ValueError(f"the kernel does not play the rules {rules.name!r} with these options")
    w = policy.weights(rules)
    return _fastcore.Rules(
        kernel_options(rules),
        w.card,
        w.lay,
        w.sweep,
        w.caution,
        w.ace_no_sweep,
        w.pairs,
        w.epsilon,
        w.caution_two,
    )


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
    rules: RuleSet = CHKOBBA
    declarations: tuple[Declaration, ...] = ()
    """The hands declared this round (Cirulla): their points and the wild 7♠'s value."""


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
        rules=r.rules,
        declarations=r.declarations,
    )


def round_of(state: FastState) -> Round:
    """The engine's :class:`~chkobba.fishing.game.Round` holding ``state`` (checked first)."""
    check_state(state)
    return Round.in_play(
        state.rules,
        tuple(state.side_of),
        (state.cutter - 1) % state.seats,
        state.stock,
        state.hands,
        state.table,
        state.piles,
        state.chkobba,
        None if state.last_capturer < 0 else state.last_capturer,
        state.turn,
        state.declarations,
    )


def declared(side_of: Sequence[int], declarations: Sequence[Declaration]) -> list[int]:
    """Each side's declaration points (Cirulla) from the declarations made."""
    pts = [0] * (max(side_of) + 1)
    for d in declarations:
        pts[side_of[d.seat]] += d.points
    return pts


def _kernel_state(state: FastState) -> tuple[object, ...]:
    """``state`` as the kernel reads it: the rules as :func:`kernel_rules`, the
    declarations as each side's points and the wild 7♠'s value."""
    if not supports(state.rules, state.seats):
        raise ValueError(f"the kernel does not play {state.rules.name!r} at {state.seats} seats")
    return (
        *state[:10],
        kernel_rules(state.rules),
        tuple(declared(state.side_of, state.declarations)),
        wild_value(state.rules, state.declarations),
    )


# -- checks shared by both paths -------------------------------------------------


def _check_mask(mask: int, what: str) -> None:
    if not isinstance(mask, int):
        raise TypeError(f"{what} must be a card set (an int mask), not {type(mask).__name__}")
    if not 0 <= mask <= FULL_DECK:
        raise ValueError(f"{what} must be a set of the 40 cards (a mask below 2**40)")


def _check_wild(wild: int) -> None:
    if wild not in (0, 1, 2, 3, 4, 5, 6, 8, 9, 10):
        raise ValueError(f"wild must be 0 (the 7♠ is a 7) or a value from 1 to 10, not {wild}")


def _teams(seats: int, side_of: Sequence[int]) -> bool:
    """Whether ``side_of`` pairs partners; raise unless it is a seating the game allows."""
    if seats not in PLAYER_COUNTS:
        raise ValueError(f"a table seats 2, 3, 4 or 6 players, not {seats}")
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
    if any(not 0 <= d.seat < state.seats for d in state.declarations):
        raise ValueError("a declaration's seat is not at the table")
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
    deal = state.rules.hand_size * state.seats
    if len(state.stock) % deal:
        raise ValueError(
            f"the stock must hold whole deals of {state.rules.hand_size} cards a seat "
            f"(a multiple of {deal}), not {len(state.stock)} cards"
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
    hand: int, table: int, rules: RuleSet = CHKOBBA, wild: int = 0
) -> list[PlayPair]:
    """:func:`legal_plays` on the engine: :func:`chkobba.fishing.captures.captures` card by card."""
    _check_mask(hand, "hand")
    _check_mask(table, "table")
    _check_wild(wild)
    if hand & table:
        card = CARDS[((hand & table) & -(hand & table)).bit_length() - 1]
        raise ValueError(f"card {card} is both in the hand and on the table")
    return inference.legal_plays(hand, table, rules, wild)


def py_random_rounds(
    n: int, seed: int, rules: RuleSet = CHKOBBA, seats: int = 2, teams: bool = False
) -> int:
    """:func:`random_rounds` on the engine (``random.Random(seed)``, not the kernel's numbers)."""
    if n < 0:
        raise ValueError("the number of rounds must not be negative")
    rng = random.Random(seed)
    deck = list(range(40))
    plays = 0
    for _ in range(n):
        while True:
            rng.shuffle(deck)
            r = Round(rules, seats, teams, 0, deck)
            if r.phase is Phase.CUT:
                r.apply_unchecked(rng.choice(r.legal_moves()))
            if not r.void:
                break
        while r.score is None:
            r.apply_unchecked(rng.choice(r.legal_moves()))
            plays += 1
    return plays


def py_play_choices(
    rules: RuleSet,
    seats: int,
    side_of: Sequence[int],
    dealer: int,
    deck: Sequence[int],
    choices: Sequence[float],
) -> tuple[list[MoveValue], list[int]]:
    """:func:`play_choices` on :class:`~chkobba.fishing.game.Round`."""
    teams = _teams(seats, side_of)
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
    if not solvable(r):
        raise ValueError("the solver does not score these rules between partners (Il ponino)")
    _, results = endgame_solve(r)
    return [(p.card, p.capture, v) for p, v in results]


SOLVE_CARDS: Final = 6
"""A playout is solved exactly once two sides hold at most this many cards in all."""


def playout_margin(
    r: Round,
    side: int,
    rng: random.Random,
    solve_cards: int = SOLVE_CARDS,
    solve_stock: int = 0,
    solve_last: bool = False,
) -> float:
    """Finish ``r`` with the policy, or solve it exactly once two sides are left with
    an empty stock and at most ``solve_cards`` cards in hands; ``side``'s margin.

    With a positive ``solve_stock`` the sampled deal is solved exactly already once at
    most that many cards are left to deal (their order is the sample's), the deals to
    come included (:func:`chkobba.search.endgame.solve_dealt`). With ``solve_last`` the
    policy plays only until the last deal is in hands (two sides, the stock empty, at
    most ``solve_cards`` cards), which is then solved exactly.

    The pure expert's playout (:func:`chkobba.agents.expert.playout_margin`), kept
    here so that this module does not import the agents that use it.
    """
    if r.void:
        return 0.0
    if solvable(r) and r.in_hands <= solve_cards:
        value, _ = endgame_solve(r)
        return value if r.side_of[r.turn] == side else -value
    if solve_stock and solvable_dealt(r, solve_stock) and r.in_hands <= solve_cards:
        value = solve_dealt(r)
        return value if r.side_of[r.turn] == side else -value
    if solve_last:
        while r.score is None and not r.void and not (solvable(r) and r.in_hands <= solve_cards):
            r.apply_unchecked(policy.policy_move(r, rng))
        if r.void:
            return 0.0
        if r.score is None:
            value, _ = endgame_solve(r)
            return value if r.side_of[r.turn] == side else -value
    policy.rollout(r, rng)
    if r.score is None:
        return 0.0
    points = r.score.points
    return float(points[side] - max(p for s, p in enumerate(points) if s != side))


def reply_margin(
    r: Round,
    side: int,
    rng: random.Random,
    solve_cards: int = SOLVE_CARDS,
    reply: float = 0.0,
    solve_stock: int = 0,
    solve_last: bool = False,
) -> float:
    """``side``'s margin in ``r`` just after its root move, with the next seat's reply
    searched: a second ply at the root (every playout :func:`playout_margin`, with
    ``solve_stock`` and ``solve_last``).

    Where ``reply`` is positive and the next seat is another side's (and the round is
    not over nor already solved exactly, :func:`playout_margin`), each of its legal
    plays is made and played out once; the margin is ``reply`` times the one worst for
    ``side``'s goal (the reply that side would pick, seeing the sampled deal: the lowest
    margin, or where the lowest total wins the highest) plus ``1 - reply`` times the
    margin after the policy's reply (drawn before the playouts). Otherwise one playout.
    """
    if (
        reply <= 0.0
        or r.void
        or r.score is not None
        or r.side_of[r.turn] == side
        or (solvable_dealt(r, solve_stock) and r.in_hands <= solve_cards)
    ):
        return playout_margin(r, side, rng, solve_cards, solve_stock, solve_last)
    replies = r.legal_plays()
    pick = policy.policy_move(r, rng)
    lowest = r.rules.lowest_wins
    worst = chosen = 0.0
    for j, m in enumerate(replies):
        child = r.copy()
        child.apply_unchecked(m)
        v = playout_margin(child, side, rng, solve_cards, solve_stock, solve_last)
        if j == 0 or (v > worst if lowest else v < worst):
            worst = v
        if m == pick:
            chosen = v
    return reply * worst + (1.0 - reply) * chosen


def check_reply(reply: float) -> None:
    """Raise ``ValueError`` unless ``reply`` is a share from 0 to 1."""
    if not 0.0 <= reply <= 1.0:
        raise ValueError(f"reply must be from 0 to 1, not {reply}")


def check_solve_stock(solve_stock: int) -> None:
    """Raise ``ValueError`` unless ``solve_stock`` is a number of cards from 0 to 40."""
    if not 0 <= solve_stock <= 40:
        raise ValueError(f"solve_stock must be from 0 to 40, not {solve_stock}")


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
    reply: float = 0.0,
    solve_stock: int = 0,
    solve_last: bool = False,
) -> list[float]:
    """:func:`evaluate` on the engine: determinize, weigh the deal, apply each move, play out
    (:func:`reply_margin`)."""
    _check_observation(obs, samples)
    check_reply(reply)
    check_solve_stock(solve_stock)
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
            if obs.phase is Phase.CUT:
                totals[i] += w * playout_margin(r, obs.side, rng, solve_cards)
            else:
                totals[i] += w * reply_margin(
                    r, obs.side, rng, solve_cards, reply, solve_stock, solve_last
                )
    return totals


def py_likelihoods(
    found: Sequence[inference.Decision],
    rules: RuleSet,
    temperature: float,
    deals: Sequence[Sequence[int]],
    wild: int = 0,
) -> list[float]:
    """:func:`likelihoods` by :func:`chkobba.search.inference.log_likelihood`."""
    return [
        inference.log_likelihood(found, hands, rules, temperature, wild) for hands in deals
    ]


# -- the fast path ---------------------------------------------------------------


def _kernel(rules: RuleSet, seats: int | None = None) -> bool:
    """Whether the kernel does the work for ``rules`` (at ``seats``)."""
    return AVAILABLE and supports(rules, seats)


def legal_plays(
    hand: int, table: int, rules: RuleSet = CHKOBBA, wild: int = 0
) -> list[PlayPair]:
    """The legal plays of ``hand`` on ``table`` under ``rules``, in
    :meth:`Round.legal_moves` order; ``wild`` is the value the 7♠ keeps this round (0: a 7).

    Cards ascending; for each card its captures in :func:`chkobba.fishing.captures.captures`
    order, then the lay when the rules allow it.
    """
    if _kernel(rules):
        _check_wild(wild)
        return _fastcore.legal_plays(kernel_rules(rules), hand, table, wild)
    return py_legal_plays(hand, table, rules, wild)


def random_rounds(
    n: int, seed: int, rules: RuleSet = CHKOBBA, seats: int = 2, teams: bool = False
) -> int:
    """Play ``n`` random rounds of ``rules`` at ``seats``; return the number of plays made.

    Dealer 0, a random cut decision where the rules have one, void deals redealt,
    each play drawn uniformly among the legal plays, the round scored in full: the
    benchmark of ``bench/playouts.py``. The kernel and the pure path draw different
    numbers.
    """
    if _kernel(rules, seats):
        side_of = side_map(seats, teams)
        _teams(seats, side_of)
        return _fastcore.random_rounds(kernel_rules(rules), seats, side_of, n, seed)
    return py_random_rounds(n, seed, rules, seats, teams)


def play_choices(
    rules: RuleSet,
    seats: int,
    side_of: Sequence[int],
    dealer: int,
    deck: Sequence[int],
    choices: Sequence[float],
) -> tuple[list[MoveValue], list[int]]:
    """Deal ``deck`` as :class:`~chkobba.fishing.game.Round` does and play one round of ``rules``
    by ``choices``.

    At each decision the move at index ``int(u * len(legal))`` is taken, ``u``
    being the next entry of ``choices`` (at the cut, index 0 keeps and 1 tables).
    Returns the moves (``"keep"``, ``"table"`` or ``(card, capture)``) and each
    side's round points; the points are empty when the deal is void.
    """
    if _kernel(rules, seats):
        return _fastcore.play_choices(
            kernel_rules(rules), seats, tuple(side_of), dealer, tuple(deck), choices
        )
    return py_play_choices(rules, seats, side_of, dealer, deck, choices)


def rollout(state: FastState, seed: int, deterministic: bool = False) -> list[int]:
    """Finish the round from ``state`` with the playout policy; each side's points.

    The policy is :mod:`chkobba.search.policy`'s. Ties go to a random tied play,
    or with ``deterministic`` to the first in legal order, which makes the
    kernel and the pure reference play the very same round.
    """
    if _kernel(state.rules, state.seats):
        return _fastcore.rollout(_kernel_state(state), seed, deterministic)
    return py_rollout(state, seed, deterministic)


def solve(state: FastState) -> list[tuple[int, int, float]]:
    """The exact margin of each legal play, as ``(card, capture, margin)`` in legal order.

    Two sides and an empty stock (every card known), as
    :func:`chkobba.search.endgame.solve`; the margin is the mover's side's round
    points minus the other side's, chkobba points already made included, under
    best play for each side's goal.
    """
    if _kernel(state.rules, state.seats):
        return _fastcore.solve(_kernel_state(state))
    return py_solve(state)


def likelihoods(
    found: Sequence[inference.Decision],
    rules: RuleSet,
    temperature: float,
    deals: Sequence[Sequence[int]],
    wild: int = 0,
) -> list[float]:
    """For each sampled deal (every seat's hand now), the log of its inference weight.

    How likely the deal makes the other seats' plays ``found``
    (:func:`chkobba.search.inference.decisions`), at ``temperature`` points
    (:func:`chkobba.search.inference.log_likelihood`); 0 for a temperature of 0.
    ``wild`` is the value the 7♠ keeps this round (0: a 7).
    """
    inference.check_temperature(temperature)
    if _kernel(rules):
        _check_wild(wild)
        hands = [tuple(h) for h in deals]
        return _fastcore.likelihoods(
            _decision_tuples(found), kernel_rules(rules), wild, temperature, hands
        )
    return py_likelihoods(found, rules, temperature, deals, wild)


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
    reply: float = 0.0,
    solve_stock: int = 0,
    solve_last: bool = False,
) -> list[float]:
    """The summed margin of each of ``obs.legal_moves`` over ``samples`` sampled deals.

    The expert's inner loop: each sample fills the other hands and the stock
    with the unseen cards (:func:`chkobba.search.determinize.determinize`: the
    cards a declaration showed stay in their hand), then every legal move is
    applied and the round finished by the policy, or solved exactly once two
    sides are left with an empty stock and at most ``solve_cards`` cards in
    hands (:func:`playout_margin`; pass 12 to solve every sampled split of a
    2-against-2 endgame). A move's margin is the observer's side's points minus
    the best other side's. Deterministic for a seed.

    With a positive ``temperature`` (in points) each sampled deal's margins are
    weighted by how likely it makes the other seats' plays in the current deal
    (:mod:`chkobba.search.inference`), so the sums are weighted sums; None or 0
    samples uniformly.

    ``known`` (one card set per seat, 0 for a hidden hand) fixes hands the caller
    is let see; only the other hidden cards are sampled (for measurements only:
    the peeking player of :mod:`chkobba.agents.cheater`).

    A positive ``reply`` (up to 1) searches a second ply at the root: after each
    move of the play phase, the next seat's replies when it is another side's
    (:func:`reply_margin`); 0 plays each move out once. A positive ``solve_stock``
    solves each sampled deal of two sides exactly, its deals to come included, once at
    most that many cards are left to deal and at most ``solve_cards`` are in hands
    (:func:`playout_margin`). With ``solve_last`` every playout of the play phase solves
    the last deal of a two-sided round exactly once it is in hands, rather than playing
    it with the policy (:func:`playout_margin`).
    """
    _check_observation(obs, samples)
    check_reply(reply)
    check_solve_stock(solve_stock)
    found = inference.decisions(obs) if inference.active(temperature) else ()
    if not _kernel(obs.rules, obs.seats):
        return py_evaluate(
            obs, samples, seed, solve_cards, temperature, known, reply, solve_stock, solve_last
        )
    totals = _kernel_evaluate(
        obs, samples, seed, solve_cards, temperature, found, known, reply, solve_stock,
        solve_last, False,
    )
    if len(totals) != len(obs.legal_moves):
        raise RuntimeError("the kernel and the observation disagree on the legal moves")
    return totals


def evaluate_weighted(
    obs: Observation,
    samples: int,
    seed: int,
    temperature: float | None = None,
    known: Sequence[int] | None = None,
    reply: float = 0.0,
    solve_stock: int = 0,
    solve_last: bool = False,
) -> tuple[list[float], float]:
    """:func:`evaluate` on the kernel, with the samples' total weight: the summed margins
    divided by it are the (weighted) mean margins. Raises ValueError where the kernel does
    not play ``obs``'s rules."""
    _check_observation(obs, samples)
    check_reply(reply)
    check_solve_stock(solve_stock)
    if not _kernel(obs.rules, obs.seats):
        raise ValueError(f"the kernel does not play {obs.rules.name} at {obs.seats} seats")
    found = inference.decisions(obs) if inference.active(temperature) else ()
    out = _kernel_evaluate(
        obs, samples, seed, SOLVE_CARDS, temperature, found, known, reply, solve_stock,
        solve_last, True,
    )
    if len(out) != len(obs.legal_moves) + 1:
        raise RuntimeError("the kernel and the observation disagree on the legal moves")
    return out[:-1], out[-1]


def _kernel_evaluate(
    obs: Observation,
    samples: int,
    seed: int,
    solve_cards: int,
    temperature: float | None,
    found: Sequence[inference.Decision],
    known: Sequence[int] | None,
    reply: float,
    solve_stock: int,
    solve_last: bool,
    with_weight: bool,
) -> list[float]:
    cut = obs.phase is Phase.CUT
    if cut and obs.cut_card is None:
        raise ValueError("at the cut only the cutter can evaluate its choice")
    totals = _fastcore.evaluate(
        kernel_rules(obs.rules),
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
        declared(obs.side_of, obs.declarations),
        obs.wild,
        obs.shown or (0,) * obs.seats,
        samples,
        seed,
        solve_cards,
        temperature or 0.0,
        _decision_tuples(found),
        None if known is None else list(known),
        reply,
        solve_stock,
        solve_last,
        with_weight,
    )
    return totals
