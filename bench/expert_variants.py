"""Settings of the expert measured against the same opponent on the same duplicate pairs.

Each ``--variant`` is a name and settings of :class:`chkobba.agents.expert.ExpertAgent`
(``samples``, ``endgame``: sampled splits of a 2-against-2 endgame, ``temperature``);
every variant plays ``--pairs`` duplicate pairs against ``--against`` with the same
seed, so the shuffles are the same for each and the margins compare a change before
and after. Prints each duel's line (margin per deal with its 95% interval, the time a
move), the machine's load before and after, and for every variant after the first the
paired difference from the first (pair by pair on the same shuffles, so with a tighter
interval than the two margins' own).

    python bench/expert_variants.py --rules scopa --players 4 --pairs 150 \\
        --variant eg8:endgame=8 --variant eg48:endgame=48

The duels run in this process, one pair at a time (the variants are registered here).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence

from chkobba.agents.base import register
from chkobba.agents.expert import (
    EXPERT_ENDGAME_SAMPLES,
    EXPERT_SAMPLES,
    EXPERT_TEMPERATURE,
    ExpertAgent,
    budget,
)
from chkobba.duel.harness import DuelResult, duel_spec, play_all
from chkobba.duel.stats import mean_estimate
from chkobba.games.base import table_of
from chkobba.rules import PRESETS

SETTINGS = ("samples", "endgame", "temperature")
"""The settings a variant may change; the others are the registered expert's."""


def parse_variant(text: str) -> tuple[str, dict[str, float]]:
    """``name:key=value,key=value`` as a variant's name and settings."""
    name, colon, rest = text.partition(":")
    if not name:
        raise argparse.ArgumentTypeError(f"a variant is NAME:key=value,..., not {text!r}")
    settings: dict[str, float] = {}
    for item in (rest.split(",") if colon and rest else []):
        key, eq, value = item.partition("=")
        if not eq or key not in SETTINGS:
            raise argparse.ArgumentTypeError(
                f"a setting is one of {', '.join(SETTINGS)} = a number, not {item!r}"
            )
        try:
            settings[key] = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{key} takes a number, not {value!r}") from None
    return name, settings


def register_variant(name: str, settings: dict[str, float]) -> None:
    """Register the expert with ``settings`` under ``name`` (for this process's duels)."""
    samples = int(settings.get("samples", EXPERT_SAMPLES))
    endgame = int(settings.get("endgame", EXPERT_ENDGAME_SAMPLES))
    temperature = settings.get("temperature", EXPERT_TEMPERATURE)

    @register(name)
    def _variant(seed: int) -> ExpertAgent:
        return ExpertAgent(
            seed,
            samples=budget(samples),
            endgame_samples=endgame,
            temperature=temperature,
            name=name,
        )


def load() -> str:
    """The load averages, as ``uptime`` shows them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> None:
    """Duel every variant against the opponent and print the lines."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--rules", default="scopa", choices=list(PRESETS))
    ap.add_argument("--players", default="2", choices=["2", "2v2"])
    ap.add_argument("--against", default="heuristic")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", type=parse_variant, action="append", required=True)
    args = ap.parse_args(argv)
    seats, teams = table_of(args.players)
    rules = PRESETS[args.rules]
    print(f"{args.rules}, table {args.players}, {args.pairs} pairs, seed {args.seed}, "
          f"against {args.against}")
    first: tuple[str, list[float]] | None = None
    for name, settings in args.variant:
        register_variant(name, settings)
        before = load()
        start = time.perf_counter()
        spec = duel_spec(name, args.against, args.seed, seats, rules=rules, teams=teams)
        outcomes = play_all(spec, args.pairs, jobs=1)
        r = DuelResult.of(spec, outcomes)
        print(f"{name} {settings}: {r.line()}  ({time.perf_counter() - start:.0f} s, "
              f"load {before} -> {load()})", flush=True)
        # The pairs' own margins (A minus B): the same sign for every variant.
        margins = [p.margin for p in outcomes]
        if first is None:
            first = (name, margins)
            continue
        d = mean_estimate([b - a for a, b in zip(first[1], margins, strict=True)])
        print(f"  {name} - {first[0]}: {d.mean:+.3f} [{d.low:+.3f}, {d.high:+.3f}] "
              f"over {d.n} pairs", flush=True)


if __name__ == "__main__":
    main()
