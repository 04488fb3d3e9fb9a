"""Named levels for the interfaces, from a beginner's opponent to the full search.

Each level is a documented player and budget. ``bench/strength.py --levels`` measures
each level against the one below (1,000 duplicate pairs, seed 1): medium beats easy
by about a point per deal, hard beats medium by +0.26 [+0.17, +0.36], and the expert
beats hard by +0.13 [+0.04, +0.22]. More samples alone gain little beyond a few
hundred (with uniform sampling, 6,000 samples against hard's 300 measured +0.03 ± 0.15
over 300 pairs); weighing the samples by inference
(:data:`~chkobba.agents.expert.EXPERT_TEMPERATURE`) measured +0.08 [+0.01, +0.15]
head to head.

On every preset of ``chkobba rules``, at 2 players and 2 against 2, the four rungs
(medium vs easy, hard vs medium, expert vs hard, expert vs medium) are measured in
docs/variants.md, "The levels on every preset" (``bench/strength.py --duels
hard:medium,expert:hard``), with each interval, time a move and command.

| level | player | budget |
|---|---|---|
| easy | greedy: takes the most valuable capture, no defence | none |
| medium | heuristic: counts cards, avoids offering a chkobba | none |
| hard | expert search | :data:`HARD_SAMPLES` sampled deals per move, uniform |
| expert | expert search | :data:`~chkobba.agents.expert.EXPERT_SAMPLES` deals, inference-weighed¹ |

¹ Uniform in Scopone de Trente (:data:`~chkobba.agents.expert.EXPERT_FACES_TEMPERATURE`).

The compiled kernel plays every preset, so the levels are the same in every game of
the family; where the hands are bigger than three (Scopone's 9 and 10 cards) the
searches sample proportionally fewer deals for the same time a move
(:meth:`~chkobba.agents.expert.ExpertAgent.samples_for`). Without the compiled kernel
they keep their time per move by sampling fewer deals
(:func:`~chkobba.agents.expert.budget`).
"""

from __future__ import annotations

from typing import Final

from chkobba.agents.expert import ExpertAgent, budget
from chkobba.agents.greedy import GreedyAgent
from chkobba.agents.heuristic import HeuristicAgent
from chkobba.agents.player import Agent, register

LEVELS: Final = ("easy", "medium", "hard", "expert")
"""The level names, weakest first."""

HARD_SAMPLES: Final = 300


@register("easy")
def _easy(seed: int) -> Agent:
    return GreedyAgent(seed)


@register("medium")
def _medium(seed: int) -> Agent:
    return HeuristicAgent(seed)


@register("hard")
def _hard(seed: int) -> Agent:
    return ExpertAgent(seed, samples=budget(HARD_SAMPLES), name="hard")
