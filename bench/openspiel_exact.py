"""Exact solving of the reduced Chkobba (``chkobba_mini``) and the exploitability of the players.

1. Checks the game before solving it: over the whole tree, every information state
   string belongs to one player's one recall (the same sequence of its own earlier
   information states and actions: perfect recall), with the same legal actions and the
   same hand everywhere in it.
2. Runs OpenSpiel's CFR+ (``open_spiel.python.algorithms.cfr.CFRPlusSolver``) and prints
   the exploitability of its average policy (``exploitability.exploitability``: the mean
   of the two best responses' gains, in points a game) as the iterations go.
3. Prints the exploitability of each player as a tabular policy over every information
   state of the variant (:func:`chkobba.rl.mini.agent_policy`: the player is asked once
   at each): ``uniform`` (OpenSpiel's uniform random policy), ``greedy``, ``heuristic``
   and ``expert`` (``--expert-samples`` deals a move), and any other registered player
   named with ``--players`` (the learned player ``neural``, once it is on this branch).

The load average is printed at the start and the end, and the CPU time of each part.

    python bench/openspiel_exact.py [--ranks 3 --hand 2 --table 1] [--iterations 100]
        [--players greedy heuristic expert] [--expert-samples 16]
"""

from __future__ import annotations

import argparse
import os
import time

import pyspiel
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr, exploitability

from chkobba.agents.base import make_agent
from chkobba.rl import mini


def main() -> None:
    """Check, solve, measure and print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=3)
    ap.add_argument("--hand", type=int, default=2)
    ap.add_argument("--table", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=100, help="CFR+ iterations")
    ap.add_argument("--report", type=int, nargs="+", default=[1, 10, 30, 100],
                    help="iterations after which the exploitability is printed")
    ap.add_argument("--players", nargs="+", default=["greedy", "heuristic", "expert"])
    ap.add_argument("--expert-samples", type=int, default=16,
                    help="the expert's sampled deals a move (its default is 64)")
    args = ap.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} at the start, {os.cpu_count()} cores")
    game = pyspiel.load_game(mini.GAME_NAME, {"ranks": args.ranks, "hand": args.hand,
                                              "table": args.table})
    print(f"chkobba_mini ranks={args.ranks} hand={args.hand} table={args.table}: "
          f"{game.max_chance_outcomes()} deals, {game.num_distinct_actions()} action ids")
    t = time.process_time()
    histories, infostates = mini.check_recall(game)
    print(f"perfect recall and information states checked: {histories:,} histories, "
          f"{infostates:,} information states ({time.process_time() - t:.0f} s CPU)")

    t = time.process_time()
    solver = cfr.CFRPlusSolver(game)
    for i in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if i in args.report or i == args.iterations:
            expl = exploitability.exploitability(game, solver.average_policy())
            print(f"CFR+ {i:4d} iterations: exploitability {expl:.4f} points a game "
                  f"({time.process_time() - t:.0f} s CPU)")

    print("exploitability of each player as a tabular policy (points a game; 0 is a Nash "
          "equilibrium):")
    uniform = os_policy.UniformRandomPolicy(game)
    print(f"  {'uniform':10s} {exploitability.exploitability(game, uniform):.4f}")
    for name in args.players:
        t = time.process_time()
        agent = make_agent(name, 1)
        if name == "expert":
            agent.samples = args.expert_samples  # type: ignore[attr-defined]
        try:
            table = mini.agent_policy(game, agent.choose)
        except ValueError as e:  # a player that cannot take this variant's view
            print(f"  {name:10s} not measured: {e}")
            continue
        expl = exploitability.exploitability(game, table)
        print(f"  {name:10s} {expl:.4f}  ({time.process_time() - t:.0f} s CPU to ask it at "
              "every information state and measure)")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} at the end")


if __name__ == "__main__":
    main()
