"""The Touti search's speed: pure Python against its compiled draws and playouts, in one run.

The decisions are every card choice with more than one legal card in deals played
by the technique at all four seats (reproducible from the seed). For each, the
search (:class:`~chkobba.touti.search.SearchAgent`) values the legal cards twice,
all in Python (``compiled=False``: the search before its kernel) and with the
compiled draws and playouts (:mod:`chkobba.touti.kernel`), from the same seed, and
the script checks that both give the same values.

Prints, for each path: the mean and median milliseconds per decision (sampling
the deals included), the playouts per second that makes, and the playouts per
second of the playouts alone (the same sampled deals, drawn beforehand); then the
ratios, and how many samples the compiled search can afford in the pure
search's time per decision (time per decision taken as proportional to samples).

    python bench/touti_playouts.py --deals 20 --samples 24 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from chkobba.touti import kernel
from chkobba.touti.deal import Deal, Phase, team_of
from chkobba.touti.moves import CardPlay
from chkobba.touti.observe import ToutiObservation, observe_deal
from chkobba.touti.search import (
    POINTS_WEIGHT,
    SearchAgent,
    evaluate,
    playout,
    sample_hands,
    world,
)
from chkobba.touti.technique import technique_move


def decisions(deals: int, seed: int) -> list[ToutiObservation]:
    """The card choices with more than one legal card in ``deals`` deals of the technique."""
    rng = random.Random(seed)
    out = []
    for k in range(deals):
        deck = list(range(40))
        rng.shuffle(deck)
        d = Deal(k % 4, deck)
        while not d.is_over:
            obs = observe_deal(d, d.turn)
            cards = [m for m in obs.legal_moves if isinstance(m, CardPlay)]
            if d.phase is Phase.PLAY and len(cards) > 1:
                out.append(obs)
            d.apply(technique_move(obs))
    return out


def time_decisions(
    obs: list[ToutiObservation], samples: int, compiled: bool
) -> tuple[list[float], list[list[tuple[CardPlay, float]]]]:
    """Seconds per decision, and the values the search gave each card."""
    seconds = []
    values = []
    for i, o in enumerate(obs):
        agent = SearchAgent(i, samples, compiled=compiled)
        start = time.perf_counter()
        values.append(agent.card_values(o))
        seconds.append(time.perf_counter() - start)
    return seconds, values


def time_playouts(obs: list[ToutiObservation], samples: int, compiled: bool) -> float:
    """Seconds spent in the playouts alone (and their scoring) over the same sampled deals."""
    total = 0.0
    for i, o in enumerate(obs):
        rng = random.Random(i)
        hands = [sample_hands(o, rng) for _ in range(samples)]
        cards = [m for m in o.legal_moves if isinstance(m, CardPlay)]
        team = team_of(o.seat)
        start = time.perf_counter()
        if compiled:
            kernel.card_totals(
                world(o, hands[0]), hands, [m.card for m in cards], team, POINTS_WEIGHT
            )
        else:
            for h in hands:
                base = world(o, h)
                for m in cards:
                    d = base.copy()
                    d.apply_unchecked(m)
                    playout(d)
                    evaluate(d, team)
        total += time.perf_counter() - start
    return total


def main() -> None:
    """Measure both paths and print the comparison."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--deals", type=int, default=20, help="deals whose card choices are timed")
    ap.add_argument("--samples", type=int, default=24, help="the search's sampled deals")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not kernel.AVAILABLE:
        raise SystemExit(f"the compiled playouts are not available: {kernel.BACKEND}")
    obs = decisions(args.deals, args.seed)
    playouts = sum(
        args.samples * sum(isinstance(m, CardPlay) for m in o.legal_moves) for o in obs
    )
    print(
        f"{len(obs)} decisions from {args.deals} deals (seed {args.seed}), "
        f"{args.samples} samples each: {playouts} playouts per path"
    )
    rows = {}
    for name, compiled in (("pure", False), ("compiled", True)):
        seconds, values = time_decisions(obs, args.samples, compiled)
        alone = time_playouts(obs, args.samples, compiled)
        rows[name] = (seconds, values, alone)
        total = sum(seconds)
        print(
            f"{name:>8}: {1000 * total / len(obs):8.2f} ms/decision (mean), "
            f"{1000 * statistics.median(seconds):8.2f} (median); "
            f"{playouts / total:10.0f} playouts/s in decisions, "
            f"{playouts / alone:10.0f} playouts/s alone",
            flush=True,
        )
    same = rows["pure"][1] == rows["compiled"][1]
    pure_t, comp_t = sum(rows["pure"][0]), sum(rows["compiled"][0])
    print(f"same card values on both paths: {'yes' if same else 'NO'}")
    print(f"speed-up per decision: {pure_t / comp_t:.1f}x; "
          f"playouts alone: {rows['pure'][2] / rows['compiled'][2]:.1f}x")  # fmt: skip
    print(
        f"samples the compiled search affords in the pure search's time: "
        f"{round(args.samples * pure_t / comp_t)}"
    )
    if not same:
        raise SystemExit("the two paths disagree")


if __name__ == "__main__":
    main()
