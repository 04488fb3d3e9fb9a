"""Exact solver for the end of a round once every remaining card is known.

When the stock is empty and the other hands are known (two players: the
opponent holds exactly the unseen cards), the rest of the round is a small
perfect-information game. :func:`solve` searches it completely (negamax with a
transposition table) for two sides, whose seats alternate in play order, and
returns the exact round-point margin for the side to move under best play. Best
play is each side's goal: the highest margin, or where the lowest total wins
(``lowest_wins``, Scopa a perdere) the lowest.
"""

from __future__ import annotations

from chkobba.fishing.captures import captures, card_value
from chkobba.fishing.game import Round
from chkobba.fishing.moves import Play
from chkobba.fishing.rules import RuleSet
from chkobba.fishing.scoring import has_rule, score_round

_State = tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int | None, int]


def scores_exactly(rules: RuleSet, seats: int, sides: int) -> bool:
    """Whether the solver's state is enough to score ``rules``: all but Il ponino
    between partners, which needs to know which partner took which card."""
    return seats == sides or not has_rule(rules.scoring, "ponino")


def solvable(r: Round) -> bool:
    """Whether :func:`solve` applies: two sides, play phase, nothing left to deal
    (and rules the solver scores exactly)."""
    return (
        r.sides == 2
        and r.stock_pos == len(r.deck)
        and r.score is None
        and r.in_hands > 0
        and scores_exactly(r.rules, r.seats, r.sides)
    )


def solvable_dealt(r: Round, stock: int) -> bool:
    """Whether :func:`solve_dealt` applies: as :func:`solvable`, but with at most ``stock``
    cards left to deal (their order known, as in a sampled deal)."""
    return (
        r.sides == 2
        and len(r.deck) - r.stock_pos <= stock
        and r.score is None
        and r.in_hands > 0
        and scores_exactly(r.rules, r.seats, r.sides)
    )


def solve_dealt(r: Round) -> float:
    """The exact margin for the side to move in ``r``, the deals still to come included:
    every card is placed and the stock's order known (a sampled deal), and the round makes
    its deals as it would. Best play for each side's goal, as :func:`solve`; slow (it plays
    on copies of the round), the reference of the kernel's solve with a stock.
    """
    sign = -1.0 if r.rules.lowest_wins else 1.0
    memo: dict[tuple[object, ...], float] = {}

    def value(node: Round) -> float:
        # The side to move's margin times sign; the sides alternate in seat order.
        if node.score is not None:
            pts = node.score.points
            me = node.side_of[node.turn]
            return sign * (pts[me] - pts[1 - me])
        key = (
            tuple(node.hands),
            node.table,
            tuple(node.piles),
            tuple(node.chkobba),
            node.last_capturer,
            node.turn,
            node.stock_pos,
        )
        hit = memo.get(key)
        if hit is not None:
            return hit
        best = -1e9
        for play in node.legal_plays():
            child = node.copy()
            child.apply_unchecked(play)
            best = max(best, -value(child))
        memo[key] = best
        return best

    return sign * value(r)


def solve(r: Round) -> tuple[float, list[tuple[Play, float]]]:
    """The exact margin for the side to move and each legal play's margin.

    The margin is the side's round points minus the other side's, chkobba
    points already made included; the side to move plays for the highest one,
    or for the lowest where the lowest total wins.
    """
    solver = _Solver(r.rules, r.side_of, r.declared() if r.declarations else None, r.wild)
    state: _State = (
        tuple(r.hands),
        r.table,
        tuple(r.piles),
        tuple(r.chkobba),
        r.last_capturer,
        r.turn,
    )
    results = []
    side = r.side_of[r.turn]
    sign = solver.sign
    best = -1e9
    for play, child in solver.children(state):
        # The solver values a position for its side's goal; a margin is that value
        # turned round where the lowest total wins.
        v = solver.value_for(child, side)
        results.append((play, sign * v))
        best = max(best, v)
    return sign * best, results


class _Solver:
    def __init__(
        self,
        rules: RuleSet,
        side_of: tuple[int, ...],
        declared: list[int] | None = None,
        wild: int = 0,
    ) -> None:
        self.rules = rules
        self.wild = wild
        self.side_of = side_of
        self.declared = declared
        self.no_sweep = rules.no_sweep
        self.seats = len(side_of)
        self.sign = -1.0 if rules.lowest_wins else 1.0
        """1, or -1 where the lowest total wins: a position's value is its margin times this."""
        self.memo: dict[_State, float] = {}

    def children(self, state: _State) -> list[tuple[Play, _State]]:
        hands, table, piles, chk, last, turn = state
        side = self.side_of[turn]
        hand = hands[turn]
        remaining = sum(h.bit_count() for h in hands)
        last_play = remaining == 1
        nxt = (turn + 1) % self.seats
        out: list[tuple[Play, _State]] = []
        wild = self.wild
        h = hand
        while h:
            low = h & -h
            h ^= low
            c = low.bit_length() - 1
            new_hands = list(hands)
            new_hands[turn] = hand ^ low
            nh = tuple(new_hands)
            caps = captures(card_value(c, wild), table, self.rules, wild) if table else []
            for cap in caps:
                rest = table ^ cap
                new_piles = list(piles)
                new_piles[side] |= cap | low
                new_chk = chk
                if not rest and not last_play and not self.no_sweep >> c & 1:
                    lst = list(chk)
                    lst[side] += 1
                    new_chk = tuple(lst)
                out.append((Play(c, cap), (nh, rest, tuple(new_piles), new_chk, side, nxt)))
            if not caps or self.rules.may_drop_capturing_card:
                out.append((Play(c, 0), (nh, table | low, piles, chk, last, nxt)))
        return out

    def value_for(self, state: _State, side: int) -> float:
        """The exact value of ``state`` for ``side``'s goal (:meth:`value`)."""
        v = self.value(state)
        return v if self.side_of[state[5]] == side else -v

    def value(self, state: _State) -> float:
        """The exact value of ``state`` for the side to move: its margin under best play,
        times :attr:`sign`."""
        hit = self.memo.get(state)
        if hit is not None:
            return hit
        hands, table, piles, chk, last, turn = state
        if not any(hands):
            final = list(piles)
            if last is not None:
                final[last] |= table
            pts = score_round(final, chk, self.rules, declared=self.declared).points
            mine = self.side_of[turn]
            v = self.sign * (pts[mine] - pts[1 - mine])
        else:
            v = -1e9
            for _, child in self.children(state):
                # Seats alternate sides, so the child's mover is the other side.
                cv = -self.value(child)
                if cv > v:
                    v = cv
        self.memo[state] = v
        return v
