"""The expert: determinized Monte Carlo search with an exact endgame solver.

For each decision the expert samples deals consistent with its observation
(:func:`~chkobba.search.determinize.determinize`: the cards it has seen, the
cut, hand sizes and the stock's size), plays every legal move in each sampled
deal, and finishes the round with the fast playout policy. All moves are
compared on the same samples (common random numbers), and the move with the
best mean round-point margin is played. Once the stock is empty and two sides
remain, the rest of the round is solved exactly instead (with two players every
card is then known; with partners, each sampled split is solved). In Scopa with
two players (:meth:`ExpertAgent.stock_to_solve`) each sampled deal is solved
exactly already from the hand before the last, the last deal included, on
:data:`EXPERT_DEAL_SAMPLES` samples.

The budget is a number of sampled deals (deterministic for a seed) and,
optionally, a time limit per move. The compiled kernel plays every game of the
family, so the budget is the same in every game of hands of three; where the
hands are bigger (Scopone's 9 and 10 cards) each sample costs about as many
times more, and the samples are cut in proportion (:meth:`ExpertAgent.samples_for`),
for the same time a move.

With a ``temperature`` (in round points) the samples are weighted by inference
(:mod:`chkobba.search.inference`): each sampled deal counts in proportion to how
likely it makes the other seats' plays in the current deal, under a softmax of
the playout policy's scores, and the moves are compared on weighted sums. None
(the class's default) samples uniformly; the registered ``expert`` player uses
:data:`EXPERT_TEMPERATURE`, and where the A, 2 and 3 of coins score their face value
(Scopone de Trente) :data:`EXPERT_FACES_TEMPERATURE`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

from chkobba.agents.player import register
from chkobba.fishing.game import HAND_SIZE, Phase, Round
from chkobba.fishing.moves import Move
from chkobba.fishing.observe import Observation
from chkobba.fishing.rules import RuleSet
from chkobba.fishing.scoring import has_rule
from chkobba.search import fast, inference
from chkobba.search.determinize import determinize
from chkobba.search.endgame import scores_exactly, solvable, solve
from chkobba.search.policy import rollout, scopa_two

EXPERT_SAMPLES: Final = 6000
"""The full expert's budget: sampled deals per move (deterministic for a seed)."""
EXPERT_TEMPERATURE: Final = 0.1
"""The full expert's inference temperature, in points: weighing sampled deals by how
well they explain the other seats' plays measured stronger than uniform sampling
(+0.08 [+0.01, +0.15] points per deal head to head, 1,000 duplicate pairs at 6,000
samples) for about 10% more time per move."""
EXPERT_FACES_TEMPERATURE: Final = 0.0
"""The full expert's temperature where the A, 2 and 3 of coins score their face value
(Scopone de Trente, :meth:`ExpertAgent.temperature_for`): 0, uniform sampling. Against hard
(2 against 2, bench/expert_variants.py), the inference at :data:`EXPERT_TEMPERATURE` left
the expert at -0.29 [-0.62, +0.05] points a deal (300 duplicate pairs, seed 1); uniform
sampling on the same pairs measured +0.75 [+0.44, +1.06], +1.04 [+0.58, +1.50] over the
inference pair by pair, and on 150 other pairs (seed 2) +0.81 [+0.32, +1.30], +0.60
[-0.06, +1.26] over it. A temperature of 0.3 measured as uniform (+0.02 [-0.39, +0.43]
over it, seed 1). The inference does point at the true deal (mid-deal, the true hands
outweigh 79 to 85% of the sampled deals at 0.1), but against a searching player the
weights of ten-card hands fall on few deals (about 5% of the samples' worth is left, as in
Scopone), and Trente's 6 points of coin faces make each sampled deal's margin the
noisier."""
PURE_DIVISOR: Final = 40
"""Without the compiled kernel the same search is about this much slower, so the
budgets of the levels are divided by it to keep the time per move close (and by the
kernel for a rule set it does not play, :func:`chkobba.search.fast.supports`)."""
BUDGET_HAND: Final = HAND_SIZE
"""The hand size a level's budget is set for: with bigger hands (Scopone) a sample plays
out more cards and more choices, so a level draws ``samples * BUDGET_HAND / hand_size``
(measured in Scopone at 6,000 samples: about three times Chkobba's time a move)."""
ENDGAME_CARDS: Final = 12
"""The search solves the rest of the round exactly once every card is dealt and at most
this many are left in hands (the last deal of a 2-against-2 Chkobba)."""
EXPERT_ENDGAME_SAMPLES: Final = 48
"""The full expert's sampled splits of the other hands in a 2-against-2 endgame, each
solved exactly (with two players every card is known and one solve is exact). Against
heuristic on the same duplicate pairs (bench/expert_variants.py, seed 1), 48 splits
rather than 8 measured +0.67 [+0.41, +0.92] points per deal rather than +0.55 [+0.29,
+0.80] in Scopa 2 against 2 (150 pairs) and +1.53 [+1.17, +1.89] rather than +1.26
[+0.90, +1.61] in Scopone (100 pairs), for a few milliseconds a move more."""
EXPERT_DEAL_SAMPLES: Final = 1000
"""Sampled deals a move where each is solved exactly through the stock
(:attr:`ExpertAgent.solve_stock`): a solve costs more than a playout."""
EXPERT_SOLVE_STOCK: Final = 6
"""The full expert's :attr:`ExpertAgent.solve_stock`: in Scopa with two players (the only
table it reaches), each sampled deal is solved exactly from the hand before the last, the
last deal included. Against heuristic on the same 300 duplicate pairs (seed 1,
bench/expert_variants.py) it measured +0.04 [-0.03, +0.11] points a deal over solving from
the last hand only (+0.03 [-0.05, +0.10] with 400 samples); see docs/variants.md, "The
expert on every preset, measured"."""
EXPERT_SOLVE_LAST: Final = True
"""The full expert's :attr:`ExpertAgent.solve_last`: the playouts of Scopa with two players
(the only table it reaches) solve the last deal exactly rather than play it with the policy,
on :data:`EXPERT_LAST_SAMPLES` sampled deals. Against heuristic, paired with the expert
without it (bench/expert_variants.py, 300 duplicate pairs each): +0.03 [-0.09, +0.14] points
a deal on seed 1 and +0.05 [-0.05, +0.15] on seed 2 (with 6,000 samples, +0.01 [-0.09,
+0.11] on seed 1), then -0.01 [-0.11, +0.09] on seed 3: +0.02 [-0.04, +0.08] over the
900 pairs, a gain within the noise. The expert with it beat heuristic by +0.46 [+0.37,
+0.54] over 1,000 pairs (seed 1; +0.42 [+0.34, +0.50] without it), 29 ms a move median."""
EXPERT_LAST_SAMPLES: Final = 3000
"""Sampled deals a move where the playouts solve the last deal (:attr:`ExpertAgent.solve_last`):
each playout costs about twice as much then."""
EXPERT_REPLY: Final = 0.0
"""The full expert's second ply at the root (:attr:`ExpertAgent.reply`): 0, each move is
played out once (see docs/variants.md, "The expert on every preset, measured")."""
FAST_CHUNK: Final = 256
"""Samples per kernel call when a time limit is checked between calls."""


def margin(points: Sequence[int], side: int) -> float:
    """A side's round points minus the best of the other sides'."""
    others = [p for s, p in enumerate(points) if s != side]
    return float(points[side] - max(others))


class ExpertAgent:
    """Determinized search: ``samples`` deals per move, at most ``seconds`` each."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 64,
        seconds: float | None = None,
        endgame_samples: int = 8,
        name: str = "expert",
        temperature: float | None = None,
        reply: float = 0.0,
        faces_temperature: float | None = None,
        solve_stock: int = 0,
        deal_samples: int = EXPERT_DEAL_SAMPLES,
        solve_last: bool = False,
        last_samples: int = EXPERT_LAST_SAMPLES,
    ) -> None:
        inference.check_temperature(temperature)
        inference.check_temperature(faces_temperature)
        fast.check_reply(reply)
        fast.check_solve_stock(solve_stock)
        if deal_samples < 1:
            raise ValueError(f"deal_samples must be at least 1, not {deal_samples}")
        if last_samples < 1:
            raise ValueError(f"last_samples must be at least 1, not {last_samples}")
        self.reply = reply
        """The second ply's share at the root where :meth:`reply_for` allows it
        (:func:`chkobba.search.fast.reply_margin`); 0: each move is played out once."""
        self.solve_stock = solve_stock
        """With at most this many cards left to deal (and more than none), each sampled
        deal is solved exactly, the last deal included, where :meth:`stock_to_solve`
        allows it; 0: never before the stock is empty."""
        self.deal_samples = deal_samples
        """The deals sampled for a move solved through the stock (:attr:`solve_stock`)."""
        self.solve_last = solve_last
        """Whether each playout, where :meth:`last_to_solve` allows it, plays with the policy
        only until the last deal is in hands and solves that deal exactly (with two players
        every card is known then); False: the policy plays it."""
        self.last_samples = last_samples
        """The deals sampled for a move whose playouts solve the last deal
        (:attr:`solve_last`), in place of :meth:`samples_for`."""
        self.name = name
        self.temperature = temperature
        """Inference's softmax temperature in points; None or 0: uniform sampling."""
        self.faces_temperature = faces_temperature
        """The temperature where the A, 2 and 3 of coins score their face value (Scopone
        de Trente, :meth:`temperature_for`); None: :attr:`temperature` there too."""
        self.rng = random.Random(seed)
        self.samples = samples
        """Sampled deals per move in a game of hands of three (:meth:`samples_for`)."""
        self.seconds = seconds
        self.endgame_samples = endgame_samples

    def choose(self, obs: Observation) -> Move:
        """The move with the best estimated round-point margin."""
        return self.best_move(obs)

    def samples_for(self, rules: RuleSet) -> int:
        """The deals sampled for a move under ``rules``: :attr:`samples`, cut in proportion
        where the hands are bigger than :data:`BUDGET_HAND` cards (Scopone: a third)."""
        if rules.hand_size <= BUDGET_HAND:
            return self.samples
        return max(1, self.samples * BUDGET_HAND // rules.hand_size)

    def temperature_for(self, rules: RuleSet) -> float | None:
        """Inference's temperature under ``rules``: :attr:`faces_temperature` where the A, 2
        and 3 of coins score their face value (the ``coin_faces`` point of Scopone de
        Trente) and it is set; :attr:`temperature` elsewhere."""
        if self.faces_temperature is not None and has_rule(rules.scoring, "coin_faces"):
            return self.faces_temperature
        return self.temperature

    def reply_for(self, rules: RuleSet, seats: int) -> float:
        """The second ply's share under ``rules`` at ``seats``: :attr:`reply` at a table of
        two with Scopa's captures and hands of three (:func:`chkobba.search.policy.scopa_two`),
        where it was measured; 0 elsewhere."""
        return self.reply if seats == 2 and scopa_two(rules) else 0.0

    def stock_to_solve(self, obs: Observation) -> int:
        """:attr:`solve_stock` where ``obs`` is in play at a table of two with Scopa's
        captures (:func:`chkobba.search.policy.scopa_two`) and 1 to :attr:`solve_stock`
        cards are left to deal; 0 elsewhere."""
        if (
            obs.phase is Phase.PLAY
            and obs.seats == 2
            and scopa_two(obs.rules)
            and 0 < obs.stock <= self.solve_stock
        ):
            return self.solve_stock
        return 0

    def last_to_solve(self, obs: Observation) -> bool:
        """:attr:`solve_last` where ``obs`` is in play at a table of two with Scopa's
        captures (:func:`chkobba.search.policy.scopa_two`); False elsewhere."""
        return (
            self.solve_last
            and obs.phase is Phase.PLAY
            and obs.seats == 2
            and scopa_two(obs.rules)
        )

    def plan(self, obs: Observation) -> tuple[int, int, bool]:
        """The sampled deals for a move, the stock to solve through (:meth:`stock_to_solve`)
        and whether the playouts solve the last deal (:meth:`last_to_solve`, only where the
        stock is not solved). Each of the two solves costs more than a playout, so each has
        its own, smaller budget (:attr:`deal_samples`, :attr:`last_samples`)."""
        deep = self.stock_to_solve(obs)
        if deep:
            return self.deal_samples, deep, False
        if self.last_to_solve(obs):
            return self.last_samples, 0, True
        return self.samples_for(obs.rules), 0, False

    def best_move(self, obs: Observation, known: Sequence[int] | None = None) -> Move:
        """The move with the best estimated margin, ``known`` hands fixed (see :meth:`evaluate`)."""
        moves = list(obs.legal_moves)
        if len(moves) == 1:
            return moves[0]
        values = self.evaluate(obs, known)
        return moves[max(range(len(moves)), key=values.__getitem__)]

    def evaluate(self, obs: Observation, known: Sequence[int] | None = None) -> list[float]:
        """The estimated margin of each legal move, in the order of ``obs.legal_moves``.

        Each figure is a sum over the samples, weighted by inference when a
        temperature is set (only the order matters for play). ``known`` (one
        card set per seat, 0 for a hidden hand) fixes hands the player is let
        see: only the peeking player of the measurements uses it.
        """
        values = self._evaluate(obs, known)
        # Scopa a perdere: the fewest points win, so the best margin is the lowest.
        return [-v for v in values] if obs.rules.lowest_wins else values

    def solves_exactly(self, obs: Observation) -> bool:
        """Whether ``obs`` is an endgame the expert solves exactly rather than samples: every
        card dealt, two sides, few cards left, and rules the solver can score."""
        return (
            obs.phase is Phase.PLAY
            and obs.stock == 0
            and obs.sides == 2
            and sum(obs.hand_sizes) <= ENDGAME_CARDS
            and scores_exactly(obs.rules, obs.seats, obs.sides)
        )

    def _evaluate(self, obs: Observation, known: Sequence[int] | None) -> list[float]:
        # Solve exactly once every card is dealt and few are left: always so in
        # Chkobba, not at the start of a Scopone, where all 40 are dealt at once.
        # Where the solver cannot score the rules (Il ponino between partners) the
        # last deal is searched with the whole budget: its few endgame splits, each
        # only played out, left `hard` no better than `medium` there.
        endgame = self.solves_exactly(obs)
        if fast.AVAILABLE and fast.supports(obs.rules, obs.seats):
            return self._evaluate_fast(obs, endgame, known)
        if endgame:
            return self._endgame(obs, known)
        moves = obs.legal_moves
        totals = [0.0] * len(moves)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        side = obs.side
        samples, deep, last = self.plan(obs)
        if fast.AVAILABLE:
            # The budget was set for the kernel, which does not play these rules:
            # keep the time per move close on the pure path.
            samples = max(16, samples // PURE_DIVISOR)
        found = self._decisions(obs)
        reply = 0.0 if obs.phase is Phase.CUT else self.reply_for(obs.rules, obs.seats)
        for _ in range(samples):
            deal = determinize(obs, self.rng, known)
            w = self._weight(found, deal, obs)
            if w > 0.0:  # a deal that cannot explain the plays adds nothing
                for i, m in enumerate(moves):
                    r = deal.copy()
                    r.apply_unchecked(m)
                    if reply or deep or last:
                        totals[i] += w * fast.reply_margin(
                            r, side, self.rng, reply=reply, solve_stock=deep, solve_last=last
                        )
                    else:
                        totals[i] += w * playout_margin(r, side, self.rng)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return totals

    def _decisions(self, obs: Observation) -> tuple[inference.Decision, ...]:
        """The plays to explain, or none without inference."""
        active = inference.active(self.temperature_for(obs.rules))
        return inference.decisions(obs) if active else ()

    def _weight(
        self, found: tuple[inference.Decision, ...], deal: Round, obs: Observation
    ) -> float:
        if not found:
            return 1.0
        t = self.temperature_for(obs.rules) or 0.0
        return inference.weight(found, deal.hands, obs.rules, t, deal.wild)

    def _evaluate_fast(
        self, obs: Observation, endgame: bool, known: Sequence[int] | None
    ) -> list[float]:
        # The compiled kernel runs the same search (chkobba.search.fast proves it agrees).
        if endgame:
            # Two players: every card is known, one exact solve. Partners: each
            # sampled split of the other hands is solved exactly.
            if obs.seats == 2:
                return fast.evaluate(obs, 1, self.rng.getrandbits(63), solve_cards=12)
            return fast.evaluate(
                obs,
                self.endgame_samples,
                self.rng.getrandbits(63),
                solve_cards=12,
                temperature=self.temperature_for(obs.rules),
                known=known,
            )
        t = self.temperature_for(obs.rules)
        samples, deep, last = self.plan(obs)
        reply = 0.0 if deep else self.reply_for(obs.rules, obs.seats)

        def search(n: int) -> list[float]:
            return fast.evaluate(
                obs,
                n,
                self.rng.getrandbits(63),
                temperature=t,
                known=known,
                reply=reply,
                solve_stock=deep,
                solve_last=last,
            )

        if self.seconds is None:
            return search(samples)
        deadline = time.perf_counter() + self.seconds
        totals = [0.0] * len(obs.legal_moves)
        done = 0
        while done < samples:
            chunk = min(FAST_CHUNK, samples - done)
            totals = [a + b for a, b in zip(totals, search(chunk), strict=True)]
            done += chunk
            if time.perf_counter() > deadline:
                break
        return totals

    def _endgame(self, obs: Observation, known: Sequence[int] | None) -> list[float]:
        moves = obs.legal_moves
        totals = [0.0] * len(moves)
        # With two players every card is known; with partners the split is sampled
        # (and weighed by inference).
        n = 1 if obs.seats == 2 else self.endgame_samples
        found = self._decisions(obs) if n > 1 else ()
        for _ in range(n):
            deal = determinize(obs, self.rng, known)
            w = self._weight(found, deal, obs)
            if w == 0.0:
                continue
            _, results = solve(deal)
            by_move = {str(p): v for p, v in results}
            for i, m in enumerate(moves):
                totals[i] += w * by_move[str(m)]
        return totals


def playout_margin(r: Round, side: int, rng: random.Random) -> float:
    """Finish ``r`` (solving the last deal exactly when possible); ``side``'s margin."""
    if r.void:
        return 0.0
    if solvable(r) and r.in_hands <= 6:
        value, _ = solve(r)
        return value if r.side_of[r.turn] == side else -value
    rollout(r, rng)
    if r.score is None:  # a void deal in a playout of the cut: nobody gains
        return 0.0
    return margin(r.score.points, side)


def budget(samples: int) -> int:
    """A level's samples on this machine: as given with the kernel, fewer without it."""
    return samples if fast.AVAILABLE else max(16, samples // PURE_DIVISOR)


@register("expert")
def _expert(seed: int) -> ExpertAgent:
    return ExpertAgent(
        seed,
        samples=budget(EXPERT_SAMPLES),
        endgame_samples=EXPERT_ENDGAME_SAMPLES,
        temperature=EXPERT_TEMPERATURE,
        faces_temperature=EXPERT_FACES_TEMPERATURE,
        reply=EXPERT_REPLY,
        solve_stock=EXPERT_SOLVE_STOCK,
        solve_last=EXPERT_SOLVE_LAST,
    )
