"""Where a duel's points are won and lost: each prize, and each stage of the deal.

Plays the pairs of ``chkobba duel A B --rules R --seed S`` (two players, one deal a
game, the same shuffles and the same players' seeds as the duel, so the total margin is
the duel's) and splits A's margin per deal into the round's points (``carte``,
``denari``, ``primiera``, ``settebello``, ``scope`` in Scopa; each rule set's own keys)
and A's sweeps, net of B's, by the stage of the deal they were made in: the first hand,
the middle hands, the last hand (the stock empty). The cards each side captured are
split the same way (net cards, coins, 7s, and the settebello), and so is the last
capture's sweep of what is left on the table at the end.

Each figure is A's minus B's, per deal, averaged over the pair's two games, with its 95%
interval over the pairs.

    python bench/prizes.py --rules scopa --pairs 200 --a expert --b heuristic
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections import defaultdict
from collections.abc import Sequence

from chkobba.cards import DIAMONDS_MASK, SEVEN_OF_DIAMONDS, SEVENS_MASK
from chkobba.duel.play import seat_roles, sub_seed
from chkobba.duel.stats import mean_estimate
from chkobba.game import Round
from chkobba.games.base import DuelGame, game
from chkobba.moves import Play
from chkobba.rules import PRESETS, RuleSet

STAGES = ("first", "middle", "last")
"""The first hand, the hands between, the last hand (nothing left to deal)."""


def stage_of(r: Round) -> str:
    """The stage of the deal ``r`` is in."""
    rules = r.rules
    dealt = (r.stock_pos - rules.table_size) // (rules.hand_size * r.seats)
    if r.stock_pos == len(r.deck):
        return "last"
    return "first" if dealt <= 1 else "middle"


def game_figures(g: DuelGame, rules: RuleSet, seed: int, index: int, number: int,
                 a: str, b: str, dealer: int, deck: Sequence[int]) -> dict[str, float]:
    """A's minus B's figures over one game of pair ``index`` (seats by ``number``)."""
    roles = seat_roles_two(number)
    names = [a if role == "a" else b for role in roles]
    agents = [g.make_agent(n, sub_seed(seed, index, number, s)) for s, n in enumerate(names)]
    table = g.start(rules, 2, False, seed=0, dealer=dealer, decks=lambda k: tuple(deck))
    match = table.match  # type: ignore[attr-defined]
    r: Round = match.round
    out: dict[str, float] = defaultdict(float)

    def sign(seat: int) -> int:
        return 1 if roles[seat] == "a" else -1

    while not r.is_over:
        seat = r.turn
        obs = table.observe(seat)
        move = agents[seat].choose(obs)
        if move not in obs.legal_moves:
            raise RuntimeError(f"{names[seat]} chose an illegal move {move!r}")
        stage = stage_of(r)
        chk_before = r.chkobba[seat]
        if isinstance(move, Play) and move.capture:
            won = move.capture | 1 << move.card
            s = sign(seat)
            out[f"cards {stage}"] += s * won.bit_count()
            out[f"coins {stage}"] += s * (won & DIAMONDS_MASK).bit_count()
            out[f"sevens {stage}"] += s * (won & SEVENS_MASK).bit_count()
            out[f"settebello {stage}"] += s * (won >> SEVEN_OF_DIAMONDS & 1)
        r.apply_unchecked(move)
        if r.chkobba[seat] > chk_before:
            out[f"sweeps {stage}"] += sign(seat)
    assert r.score is not None
    if r.swept and r.last_capturer is not None:
        seat_of = 0 if r.side_of[0] == r.last_capturer else 1
        out["cards left to the last capture"] += sign(seat_of) * r.swept.bit_count()
    for item in r.score.items:
        out[f"point {item.key}"] += sum(sign(s) * item.points[s] for s in range(2))
    out["margin"] = sum(sign(s) * r.score.points[s] for s in range(2))
    return out


def seat_roles_two(number: int) -> list[str]:
    """A's and B's seats in game ``number`` of a pair at a table of two."""
    return ["ab"[(s + number) % 2] for s in range(2)]


def main(argv: Sequence[str] | None = None) -> None:
    """Play the pairs and print each figure's mean per deal with its interval."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--rules", default="scopa", choices=list(PRESETS))
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="heuristic")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rules = PRESETS[args.rules]
    g = game("chkobba")
    print(f"{args.a} vs {args.b}, {args.rules}, 2 players, {args.pairs} pairs, seed "
          f"{args.seed}; load {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    start = time.perf_counter()
    per_pair: list[dict[str, float]] = []
    for index in range(args.pairs):
        # The duel's own shuffle and dealer for this pair (chkobba.duel.play.play_pair).
        rng = random.Random(sub_seed(args.seed, index))
        dealer = rng.randrange(2)
        deck = g.draw_deck(rng, rules, 2, False, dealer)
        pair: dict[str, float] = defaultdict(float)
        for number in range(2):
            assert seat_roles_two(number) == seat_roles_like_duel(number)
            for k, v in game_figures(g, rules, args.seed, index, number, args.a, args.b,
                                     dealer, deck).items():
                pair[k] += v / 2
        per_pair.append(pair)
    keys = sorted({k for p in per_pair for k in p})
    print(f"{time.perf_counter() - start:.0f} s; load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'figure (A minus B, per deal)':40} {'mean':>7}  95% interval")
    for k in keys:
        e = mean_estimate([p.get(k, 0.0) for p in per_pair])
        print(f"{k:40} {e.mean:+7.3f}  [{e.low:+.3f}, {e.high:+.3f}]")


def seat_roles_like_duel(number: int) -> list[str]:
    """The duel's own seats for game ``number`` at a table of two (checked to match)."""
    from chkobba.duel.play import DuelSpec

    spec = DuelSpec("a", "b", 2, "round", 0, None)
    return seat_roles(spec, number)


if __name__ == "__main__":
    main()
