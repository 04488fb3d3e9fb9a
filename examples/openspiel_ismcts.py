"""OpenSpiel's ISMCTS against a uniform random player on the OpenSpiel game ``chkobba``.

A worked example of :mod:`chkobba.rl.openspiel`: the game is loaded through
``pyspiel.load_game``, OpenSpiel's own ISMCTS bot (which resamples the hidden cards
with ``resample_from_infostate`` at every simulation) plays one seat and a
uniform random player the other, seats swapped every round; chance nodes are
drawn from their ``chance_outcomes``. It prints the mean
margin of ISMCTS per round with a 95% interval and writes a JSON summary.

    pip install -e '.[openspiel]'
    python examples/openspiel_ismcts.py --rounds 20 --simulations 100

The summary goes to a new file (``openspiel-ismcts-<date>-<time>.json`` in the
current directory unless ``--out`` names one); an existing file is never
overwritten.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from chkobba.rl import openspiel  # noqa: F401 - registers the game "chkobba"


def main() -> int:
    """Play, print, write the summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="chkobba", help="the rule preset (chkobba rules)")
    ap.add_argument("--rounds", type=int, default=20, help="rounds to play")
    ap.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per action")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="the JSON summary to write (new)")
    args = ap.parse_args()
    out = args.out or Path(f"openspiel-ismcts-{time.strftime('%Y%m%d-%H%M%S')}.json")
    if out.exists():
        print(f"error: {out} exists; name a new file with --out", file=sys.stderr)
        return 2
    game = pyspiel.load_game("chkobba", {"preset": args.preset})
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=4.0, max_simulations=args.simulations,
                                random_state=rng)
    margins = []
    start = time.perf_counter()
    for k in range(args.rounds):
        seat = k % 2  # ISMCTS plays seat 0, then seat 1, and so on
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            elif state.current_player() == seat:
                state.apply_action(searcher.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        margins.append(float(returns[seat]))
        print(f"round {k + 1}: ISMCTS at seat {seat} {returns[seat]:+.0f}", flush=True)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else 0.0
    summary = {
        "game": str(game),
        "rounds": args.rounds,
        "simulations": args.simulations,
        "seed": args.seed,
        "mean_margin": mean,
        "interval_95": [mean - half, mean + half],
        "margins": margins,
        "seconds": time.perf_counter() - start,
    }
    print(f"ISMCTS vs random over {args.rounds} rounds: {mean:+.2f} points per round "
          f"[{mean - half:+.2f}, {mean + half:+.2f}]")
    with out.open("x") as f:
        json.dump(summary, f, indent=2)
    print(f"summary: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
