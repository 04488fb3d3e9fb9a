"""Named levels for the interfaces, from a beginner's opponent to the full search.

Each level is a documented player and budget. ``bench/strength.py --levels`` measures
each level against the one below: medium beats easy by about a point per deal and
hard beats medium by about a quarter of a point; the expert's 6,000 samples were
not measurably stronger than hard's 300 in 300 duplicate pairs (+0.03 ± 0.15), the
search's gains flattening out beyond a few hundred samples.

| level | player | budget |
|---|---|---|
| easy | greedy: takes the most valuable capture, no defence | none |
| medium | heuristic: counts cards, avoids offering a chkobba | none |
| hard | expert search | :data:`HARD_SAMPLES` sampled deals per move |
| expert | expert search | :data:`~chkobba.agents.expert.EXPERT_SAMPLES` sampled deals per move |

Without the compiled kernel the searches keep their time per move by sampling
fewer deals (:func:`~chkobba.agents.expert.budget`).
"""

from __future__ import annotations

from typing import Final

from chkobba.agents.base import Agent, make_agent, register
from chkobba.agents.expert import ExpertAgent, budget

LEVELS: Final = ("easy", "medium", "hard", "expert")
"""The level names, weakest first."""

HARD_SAMPLES: Final = 300


@register("easy")
def _easy(seed: int) -> Agent:
    return make_agent("greedy", seed)


@register("medium")
def _medium(seed: int) -> Agent:
    return make_agent("heuristic", seed)


@register("hard")
def _hard(seed: int) -> Agent:
    return ExpertAgent(seed, samples=budget(HARD_SAMPLES), name="hard")
