"""The learned player's time a move: CPU time (this thread's) and wall-clock, per decision.

Plays ``--deals`` seeded deals of ``neural`` against ``heuristic`` and times every call of
``neural``'s ``choose`` twice: by the thread's CPU clock (what the move costs, whatever
else the machine runs) and by the wall clock (what a player waits, the load included).
Prints the median, 95th percentile and mean of each, the same for the decisions the
exact last-deal solve makes (``NeuralAgent.solves_last``, with a choice of moves), and
the load average.

    python bench/neural_speed.py --rules scopa --deals 200
    python bench/neural_speed.py --players 4 --solve-partners   # 2 against 2, searched last deal
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from chkobba.agents.base import make_agent
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.rules import preset
from chkobba.rl.neural import NeuralAgent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="chkobba")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=10_003)
    parser.add_argument("--players", type=int, default=2, help="2, or 4: 2 against 2")
    parser.add_argument("--solve-partners", action="store_true",
                        help="NeuralAgent(solve_partners=True): the last deal of 2 against 2 "
                             "searched too (not the level)")
    args = parser.parse_args()
    cpu: list[float] = []
    wall: list[float] = []
    solved: list[float] = []
    neural = (NeuralAgent(solve_last=True, solve_partners=True) if args.solve_partners
              else make_agent("neural", 0))
    other = make_agent("heuristic", 0)
    for deal in range(args.deals):
        m = Match(preset(args.rules), args.players, args.players == 4, seed=args.seed + deal)
        me = deal % args.players
        while m.round_number == 1 and not m.is_over:
            obs = observe(m, m.turn)
            if m.turn == me:
                c0, w0 = time.thread_time_ns(), time.perf_counter_ns()
                move = neural.choose(obs)
                cpu.append((time.thread_time_ns() - c0) / 1e6)
                wall.append((time.perf_counter_ns() - w0) / 1e6)
                if len(obs.legal_moves) > 1 and neural.solves_last(obs):  # type: ignore[attr-defined]
                    solved.append(cpu[-1])
            else:
                move = other.choose(obs)
            m.apply(move)
    for name, xs in (("CPU", cpu), ("wall-clock", wall), ("last-deal solve, CPU", solved)):
        if not xs:
            continue
        xs.sort()
        print(f"{args.rules}: {len(xs)} moves of neural, {name} ms a move: median "
              f"{statistics.median(xs):.3f}, p95 {xs[int(0.95 * len(xs))]:.3f}, "
              f"mean {statistics.fmean(xs):.3f}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
