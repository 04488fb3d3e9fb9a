"""How well the network's model of the other seat points at its true hand (issue 29 §2).

Plays ``--deals`` seeded first rounds of two players (``--player`` against itself) and, at
each of seat 0's decisions, for each play the other seat made earlier in the current deal,
the log of the network's probability of that play (``chkobba.rl.expertnet``: the other
seat's view rebuilt from the public history) given the other seat's true hand, and given a
hand of the same size drawn uniformly from the cards seat 0 has not seen. The same for the
expert's own model (``chkobba.search.inference`` at the expert's temperature), per decision
summed over the deal's plays and divided by their number. Prints the means (the wider the
gap, the better the model tells hands apart) and the load average.

    python bench/expertnet_likelihood.py --rules scopa --deals 30
"""

from __future__ import annotations

import argparse
import os
import random
import statistics

from chkobba.agents.base import make_agent
from chkobba.agents.expert import EXPERT_TEMPERATURE
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.rules import preset
from chkobba.rl.expertnet import past_views, play_log_likelihood
from chkobba.rl.neural import load_network, weights_for
from chkobba.search import fast, inference


def main() -> None:
    """Measure and print the two mean log-likelihoods."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--rules", default="scopa")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--player", default="heuristic")
    args = ap.parse_args()
    net = load_network(weights_for(args.rules))
    player = make_agent(args.player, 0)
    rng = random.Random(args.seed)
    true: list[float] = []
    drawn: list[float] = []
    policy_true: list[float] = []
    policy_drawn: list[float] = []
    for deal in range(args.deals):
        m = Match(preset(args.rules), 2, False, seed=args.seed + deal)
        while m.round_number == 1 and not m.is_over:
            obs = observe(m, m.turn)
            if m.turn == 0 and obs.legal_moves:
                hand = observe(m, 1).hand
                unseen = [c for c in range(40) if obs.unseen >> c & 1]
                pasts = past_views(obs)
                for past in pasts:
                    true.append(play_log_likelihood(net, past, hand))
                    other = sum(1 << c for c in rng.sample(unseen, hand.bit_count()))
                    drawn.append(play_log_likelihood(net, past, other))
                if pasts:
                    found = inference.decisions(obs)
                    other = sum(1 << c for c in rng.sample(unseen, hand.bit_count()))
                    ll = fast.likelihoods(found, obs.rules, EXPERT_TEMPERATURE,
                                          [[obs.hand, hand], [obs.hand, other]], obs.wild)
                    policy_true.append(ll[0] / len(found))
                    policy_drawn.append(ll[1] / len(found))
            m.apply(player.choose(obs))
    print(f"{args.rules}, {args.player} against itself, {args.deals} deals, {len(true)} plays "
          f"of the other seat: log-likelihood a play, true hand {statistics.fmean(true):+.3f}, "
          f"drawn hand {statistics.fmean(drawn):+.3f}; the expert's inference (temperature "
          f"{EXPERT_TEMPERATURE}): true {statistics.fmean(policy_true):+.3f}, drawn "
          f"{statistics.fmean(policy_drawn):+.3f}; load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
