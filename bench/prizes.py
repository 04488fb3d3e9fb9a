"""Where a duel's points are won and lost: each prize, and each stage of the deal.

Plays the pairs of ``chkobba duel A B --rules R --seed S`` (two players, or with
``--players 2v2`` two against two; one deal a game, the same shuffles and the same
players' seeds as the duel, so the total margin is the duel's) and splits A's margin per
deal into the round's points (``carte``, ``denari``, ``primiera``, ``settebello``,
``scope`` in Scopa; each rule set's own keys) and A's sweeps, net of B's, by the stage of
the deal they were made in (:func:`stage_of`). The cards each side captured are split the
same way (net cards, coins, 7s, the settebello, and where the A, 2 and 3 of coins score
their face value, Scopone de Trente, those faces), and so is the last capture's sweep of
what is left on the table at the end.

Each figure is A's minus B's, per deal, averaged over the pair's games, with its 95%
interval over the pairs.

    python bench/prizes.py --rules scopa --pairs 200 --a expert --b heuristic
    python bench/prizes.py --rules scopone-de-trente --players 2v2 --pairs 150 --a expert --b hard
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections import defaultdict
from collections.abc import Sequence

from chkobba.agents.expert import ENDGAME_CARDS
from chkobba.duel.play import DuelSpec, seat_roles, sub_seed
from chkobba.duel.stats import mean_estimate
from chkobba.fishing.cards import DIAMONDS, DIAMONDS_MASK, SEVEN_OF_DIAMONDS, SEVENS_MASK
from chkobba.fishing.game import Round
from chkobba.fishing.moves import Play
from chkobba.fishing.rules import PRESETS, RuleSet
from chkobba.fishing.scoring import has_rule
from chkobba.games.base import DuelGame, game, table_of

STAGES = ("first", "middle", "last")
"""The first hand, the hands between, the last hand (nothing left to deal)."""

COIN_FACES = {DIAMONDS * 10 + face - 1: face for face in (1, 2, 3)}
"""The A, 2 and 3 of coins and the points each scores where they score their face value."""


def stage_of(r: Round) -> str:
    """The stage of the deal ``r`` is in: the first hand, the hands between, the last
    hand (nothing left to deal). Where every card is dealt at once (Scopone) the one hand
    is split by the cards left in hands: first while more than 28 are, last once at most
    :data:`~chkobba.agents.expert.ENDGAME_CARDS` are (the expert's exact endgame), middle
    between."""
    rules = r.rules
    if r.seats * rules.hand_size + rules.table_size >= len(r.deck):
        left = r.in_hands
        return "first" if left > 28 else "last" if left <= ENDGAME_CARDS else "middle"
    dealt = (r.stock_pos - rules.table_size) // (rules.hand_size * r.seats)
    if r.stock_pos == len(r.deck):
        return "last"
    return "first" if dealt <= 1 else "middle"


def game_figures(g: DuelGame, rules: RuleSet, seed: int, index: int, number: int,
                 a: str, b: str, dealer: int, deck: Sequence[int],
                 seats: int = 2, teams: bool = False) -> dict[str, float]:
    """A's minus B's figures over one game of pair ``index`` (seats by ``number``)."""
    roles = seat_roles(DuelSpec("a", "b", seats, "round", 0, None, teams=teams), number)
    names = [a if role == "a" else b for role in roles]
    agents = [g.make_agent(n, sub_seed(seed, index, number, s)) for s, n in enumerate(names)]
    table = g.start(rules, seats, teams, seed=0, dealer=dealer, decks=lambda k: tuple(deck))
    match = table.match  # type: ignore[attr-defined]
    r: Round = match.round
    out: dict[str, float] = defaultdict(float)
    faces = has_rule(rules.scoring, "coin_faces")
    # A side's seats all play for A or all for B (partners sit opposite).
    side_sign = {r.side_of[s]: 1 if roles[s] == "a" else -1 for s in range(seats)}

    def sign(seat: int) -> int:
        return 1 if roles[seat] == "a" else -1

    while not r.is_over:
        seat = r.turn
        obs = table.observe(seat)
        move = agents[seat].choose(obs)
        if move not in obs.legal_moves:
            raise RuntimeError(f"{names[seat]} chose an illegal move {move!r}")
        stage = stage_of(r)
        side = r.side_of[seat]
        chk_before = r.chkobba[side]
        if isinstance(move, Play) and move.capture:
            won = move.capture | 1 << move.card
            s = sign(seat)
            out[f"cards {stage}"] += s * won.bit_count()
            out[f"coins {stage}"] += s * (won & DIAMONDS_MASK).bit_count()
            out[f"sevens {stage}"] += s * (won & SEVENS_MASK).bit_count()
            out[f"settebello {stage}"] += s * (won >> SEVEN_OF_DIAMONDS & 1)
            if faces:
                out[f"coin faces {stage}"] += s * sum(
                    f for c, f in COIN_FACES.items() if won >> c & 1
                )
        r.apply_unchecked(move)
        if r.chkobba[side] > chk_before:
            out[f"sweeps {stage}"] += sign(seat)
    assert r.score is not None
    if r.swept and r.last_capturer is not None:
        out["cards left to the last capture"] += side_sign[r.last_capturer] * r.swept.bit_count()
        if faces:
            out["coin faces left to the last capture"] += side_sign[r.last_capturer] * sum(
                f for c, f in COIN_FACES.items() if r.swept >> c & 1
            )
    for item in r.score.items:
        out[f"point {item.key}"] += sum(sign * item.points[s] for s, sign in side_sign.items())
    out["margin"] = sum(sign * r.score.points[s] for s, sign in side_sign.items())
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Play the pairs and print each figure's mean per deal with its interval."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--rules", default="scopa", choices=list(PRESETS))
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="heuristic")
    ap.add_argument("--players", default="2", choices=["2", "2v2"])
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rules = PRESETS[args.rules]
    seats, teams = table_of(args.players)
    games = DuelSpec("a", "b", seats, "round", 0, None, teams=teams).rotations
    g = game("chkobba")
    print(f"{args.a} vs {args.b}, {args.rules}, table {args.players}, {args.pairs} pairs, seed "
          f"{args.seed}; load {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    start = time.perf_counter()
    per_pair: list[dict[str, float]] = []
    for index in range(args.pairs):
        # The duel's own shuffle and dealer for this pair (chkobba.duel.play.play_pair).
        rng = random.Random(sub_seed(args.seed, index))
        dealer = rng.randrange(seats)
        deck = g.draw_deck(rng, rules, seats, teams, dealer)
        pair: dict[str, float] = defaultdict(float)
        for number in range(games):
            for k, v in game_figures(g, rules, args.seed, index, number, args.a, args.b,
                                     dealer, deck, seats, teams).items():
                pair[k] += v / games
        per_pair.append(pair)
    keys = sorted({k for p in per_pair for k in p})
    print(f"{time.perf_counter() - start:.0f} s; load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'figure (A minus B, per deal)':40} {'mean':>7}  95% interval")
    for k in keys:
        e = mean_estimate([p.get(k, 0.0) for p in per_pair])
        print(f"{k:40} {e.mean:+7.3f}  [{e.low:+.3f}, {e.high:+.3f}]")


if __name__ == "__main__":
    main()
