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
To run variants in two processes at once, write the first's margins (``--margins
FILE``) and pair the second's with one of them (``--base FILE:NAME``).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence

from chkobba.agents.expert import (
    EXPERT_DEAL_SAMPLES,
    EXPERT_ENDGAME_SAMPLES,
    EXPERT_FACES_TEMPERATURE,
    EXPERT_LAST_SAMPLES,
    EXPERT_REPLY,
    EXPERT_SAMPLES,
    EXPERT_SOLVE_LAST,
    EXPERT_SOLVE_STOCK,
    EXPERT_TEMPERATURE,
    ExpertAgent,
    budget,
)
from chkobba.agents.player import register
from chkobba.duel.harness import DuelResult, duel_spec, play_all
from chkobba.duel.stats import mean_estimate
from chkobba.fishing.cards import VALUE_OF
from chkobba.fishing.rules import PRESETS, RuleSet
from chkobba.games.base import table_of
from chkobba.rl.expertnet import PRIOR_CANDIDATES, NetExpertAgent
from chkobba.search import fast, policy

_WEIGHTS = policy.weights

NET_SETTINGS = ("prior", "candidates", "blend", "both")
"""The network's options (:class:`chkobba.rl.expertnet.NetExpertAgent`, issue 29 §2):
``prior`` the temperature of the network's model of the other seat (0: off), ``candidates``
the other seat's hands it weighs a move, ``blend`` the weight of the network's
log-probability beside the searched mean at the root (0: off), ``both`` (1 or 0) whether the
candidates' weights are the network's times the expert's own inference weights."""
POLICY_SETTINGS = ("caution", "hold", "sweep", "worth", "seven", "pairs", "epsilon")
SETTINGS = (
    "samples",
    "endgame",
    "temperature",
    "faces",
    "reply",
    "stock",
    "deal_samples",
    "last",
    "last_samples",
    *NET_SETTINGS,
    *POLICY_SETTINGS,
)
"""The settings a variant may change; the others are the registered expert's. ``reply`` is
the second ply's share at the root (:attr:`ExpertAgent.reply`, where
:meth:`ExpertAgent.reply_for` allows it); ``stock`` and ``deal_samples`` solve each
sampled deal exactly through the stock once it holds at most ``stock`` cards, on that many
samples (:attr:`ExpertAgent.solve_stock`); ``last`` (1 or 0) whether the playouts solve
the last deal exactly (:attr:`ExpertAgent.solve_last`), on ``last_samples`` samples.
``faces`` is the temperature where the A, 2 and 3 of coins score their face value
(:attr:`ExpertAgent.faces_temperature`, Scopone de Trente); without it a variant's
``temperature`` holds there too, and with neither the registered expert's. The last seven
change the playout policy's values for the duel's rule set (:func:`policy_values`)."""


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
    faces = settings.get(
        "faces", settings.get("temperature", EXPERT_FACES_TEMPERATURE)
    )
    reply = settings.get("reply", EXPERT_REPLY)
    stock = int(settings.get("stock", EXPERT_SOLVE_STOCK))
    deal_samples = int(settings.get("deal_samples", EXPERT_DEAL_SAMPLES))
    last = bool(settings.get("last", EXPERT_SOLVE_LAST))
    last_samples = int(settings.get("last_samples", EXPERT_LAST_SAMPLES))
    net = {k: v for k, v in settings.items() if k in NET_SETTINGS}
    # The network's options make the variant a NetExpertAgent; without them, the expert.
    kind: type[ExpertAgent] = NetExpertAgent if net else ExpertAgent
    options: dict[str, object] = {}
    if net:
        options = {
            "prior": net.get("prior", 0.0),
            "candidates": int(net.get("candidates", PRIOR_CANDIDATES)),
            "blend": net.get("blend", 0.0),
            "both": bool(net.get("both", 0.0)),
        }

    @register(name)
    def _variant(seed: int) -> ExpertAgent:
        return kind(
            seed,
            samples=budget(samples),
            endgame_samples=endgame,
            temperature=temperature,
            faces_temperature=faces,
            name=name,
            reply=reply,
            solve_stock=stock,
            deal_samples=deal_samples,
            solve_last=last,
            last_samples=last_samples,
            **options,  # type: ignore[arg-type]
        )


def policy_values(rules: RuleSet, settings: dict[str, float]) -> None:
    """Play this process's playouts (kernel and pure) under ``rules`` with the policy's
    values changed by ``settings``: ``caution`` (the next player's threat), ``hold`` (the
    share of a laid card's worth), ``sweep`` and ``worth`` (factors on the sweep's and every
    card's worth), ``seven`` (a factor on the 7s' worth, after ``worth``), ``pairs`` (1 or
    0: whether the threat counts pairs of table cards at a table of two), ``epsilon`` (a
    playout's chance of a play drawn among all at a table of two). No such setting: the
    policy's own values."""
    fast.kernel_rules.cache_clear()
    changes = {k: v for k, v in settings.items() if k in POLICY_SETTINGS}
    if not changes:
        policy.weights = _WEIGHTS
        return
    base = _WEIGHTS(rules)
    card = [round(x * changes.get("worth", 1.0)) for x in base.card]
    # The 7s weigh in the primiera and, the 7 of coins, the settebello: their own factor.
    card = [
        round(x * changes.get("seven", 1.0)) if VALUE_OF[c] == 7 else x
        for c, x in enumerate(card)
    ]
    hold = changes.get("hold", policy.HOLD)
    changed = base._replace(
        card=tuple(card),
        suits=tuple(policy._suit_table(card[s * 10 : s * 10 + 10]) for s in range(4)),
        lay=tuple(int(hold * x + 0.5) for x in card),
        sweep=round(base.sweep * changes.get("sweep", 1.0)),
        caution=changes.get("caution", base.caution),
        caution_two=changes.get("caution", base.caution_two),
        pairs=bool(changes.get("pairs", base.pairs)),
        epsilon=changes.get("epsilon", base.epsilon),
    )

    def weights(r: RuleSet) -> policy.Weights:
        return changed if r == rules else _WEIGHTS(r)

    policy.weights = weights  # type: ignore[assignment]


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
    ap.add_argument(
        "--margins",
        help="write each variant's pair margins to this new JSON file (to pair runs made "
        "in other processes on the same seed)",
    )
    ap.add_argument(
        "--base",
        metavar="FILE:NAME",
        help="pair every variant with variant NAME of a --margins FILE written by another "
        "process on the same seed, rules and table (rather than with this run's first)",
    )
    args = ap.parse_args(argv)
    if args.margins and os.path.exists(args.margins):
        ap.error(f"{args.margins} exists: give a new path")
    saved: dict[str, list[float]] = {}
    first: tuple[str, list[float]] | None = None
    if args.base:
        path, colon, base_name = args.base.rpartition(":")
        try:
            with open(path, encoding="utf-8") as f:
                base_margins = json.load(f)[base_name]
        except (OSError, ValueError, KeyError) as e:
            ap.error(f"--base {args.base}: no variant {base_name!r} in {path!r} ({e})")
        if not colon or len(base_margins) < args.pairs:
            ap.error(f"--base {args.base}: give FILE:NAME with at least {args.pairs} pairs")
        first = (base_name, [float(x) for x in base_margins[: args.pairs]])
    seats, teams = table_of(args.players)
    rules = PRESETS[args.rules]
    print(f"{args.rules}, table {args.players}, {args.pairs} pairs, seed {args.seed}, "
          f"against {args.against}")
    for name, settings in args.variant:
        register_variant(name, settings)
        policy_values(rules, settings)
        before = load()
        start = time.perf_counter()
        spec = duel_spec(name, args.against, args.seed, seats, rules=rules, teams=teams)
        outcomes = play_all(spec, args.pairs, jobs=1)
        r = DuelResult.of(spec, outcomes)
        print(f"{name} {settings}: {r.line()}  ({time.perf_counter() - start:.0f} s, "
              f"load {before} -> {load()})", flush=True)
        # The pairs' own margins (A minus B): the same sign for every variant.
        margins = [p.margin for p in outcomes]
        saved[name] = margins
        if args.margins:
            with open(args.margins, "w", encoding="utf-8") as f:
                json.dump(saved, f)
        if first is None:
            first = (name, margins)
            continue
        d = mean_estimate([b - a for a, b in zip(first[1], margins, strict=True)])
        print(f"  {name} - {first[0]}: {d.mean:+.3f} [{d.low:+.3f}, {d.high:+.3f}] "
              f"over {d.n} pairs", flush=True)


if __name__ == "__main__":
    main()
