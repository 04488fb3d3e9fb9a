"""The strength ladder of every preset: duplicate duels between the players, from a seed.

For each preset of ``chkobba rules`` and each of its tables among 2 players and 2
against 2, prints the ladder's duels (greedy vs random, heuristic vs greedy,
expert vs heuristic, expert vs greedy): the mean point margin per deal (A − B;
B − A where the fewest points win) with its 95% interval, the Elo difference,
wins/draws/losses, and each side's median and 95th-percentile milliseconds per
move. ``--markdown`` writes the same table as Markdown, for docs/variants.md.

    python bench/strength.py --presets scopa,escoba --pairs 200 --seed 1 --markdown

The players are the registered ones, so each plays with the budget it has in
``chkobba duel`` and ``chkobba play``: the compiled kernel plays every preset, so
the expert searches with its full budget everywhere (tens of milliseconds a move;
Scopone's bigger hands cost more a sample, and it samples fewer deals). Only
without the kernel does the search run in pure Python with its budget divided by
:data:`chkobba.agents.expert.PURE_DIVISOR`.

``--chkobba-ladder`` prints the Chkobba ladder instead (what this script printed
before the presets): the expert, heuristic, greedy and random, then how much of
the gap between greedy and the cheater (who sees every card) the expert closes,
how much of that gap seeing the other hands alone is worth (the peeker: the
expert's search shown the other hands but not the stock), and with ``--levels``
the levels' order.

    python bench/strength.py --chkobba-ladder --pairs 1000 --seed 1

Everything but the timings is reproducible from the seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from chkobba.duel.harness import DuelResult, run_duel
from chkobba.games.base import seating_words, table_of
from chkobba.rules import PRESETS

PRESET_LADDER = [
    ("greedy", "random"),
    ("heuristic", "greedy"),
    ("expert", "heuristic"),
    ("expert", "greedy"),
]
"""The duels played on every preset, by registered player names."""
TABLES = ("2", "2v2")
"""The tables the ladder is measured at, where a preset allows them."""

LADDER = [
    ("expert", "greedy"),
    ("expert", "heuristic"),
    ("heuristic", "greedy"),
    ("greedy", "random"),
    ("cheater", "expert"),
    ("cheater", "greedy"),
    ("peeker", "greedy"),
]
"""The Chkobba ladder (``--chkobba-ladder``)."""
LEVELS = [("medium", "easy"), ("hard", "medium"), ("expert", "hard")]


def line(r: DuelResult) -> str:
    """One row of the Chkobba ladder."""
    return r.line()


def chkobba_ladder(args: argparse.Namespace) -> None:
    """The Chkobba ladder, with the cheater's and the peeker's gaps."""
    duels = LADDER + (LEVELS if args.levels else [])
    print(f"{args.pairs} duplicate pairs per duel, {args.players} players, seed {args.seed}")
    print("margin = points per deal, A − B, with its 95% interval")
    results: dict[tuple[str, str], DuelResult] = {}
    for a, b in duels:
        start = time.perf_counter()
        r = run_duel(a, b, pairs=args.pairs, seed=args.seed, players=args.players, jobs=args.jobs)
        results[(a, b)] = r
        print(line(r), f" ({time.perf_counter() - start:.0f} s)", flush=True)
    expert = results[("expert", "greedy")].margin.mean
    cheater = results[("cheater", "greedy")].margin.mean
    above = results[("cheater", "expert")].margin.mean
    if cheater > 0:
        # Margins against different opponents do not add up, so the expert's place in
        # the gap is read from both ends: its own margin over greedy, and what the
        # cheater's margin over it leaves of the cheater's margin over greedy.
        print(
            f"gap greedy → cheater: {cheater:+.3f}; the expert closes {expert / cheater:.0%} "
            f"of it by its margin over greedy, {1 - above / cheater:.0%} by the cheater's "
            "margin over it"
        )
        peeker = results[("peeker", "greedy")].margin.mean
        if peeker > 0:
            # What seeing the hands is worth bounds what inference from the plays can give.
            print(
                f"the same search shown the other hands (not the stock) beats greedy by "
                f"{peeker:+.3f}: {peeker / cheater:.0%} of the gap; the expert's margin is "
                f"{expert / peeker:.0%} of it"
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({f"{a} vs {b}": r.to_json() for (a, b), r in results.items()}, f, indent=1)


Row = tuple[str, str, DuelResult]
"""A preset's name, its table (``2`` or ``2v2``) and a duel played there."""


def preset_ladder(
    presets: Sequence[str],
    duels: Sequence[tuple[str, str]],
    pairs: int,
    seed: int,
    jobs: int | None,
    on_row: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Play the duels on every preset and table; print each and hand it to ``on_row``
    as it ends."""
    out: list[Row] = []
    for name in presets:
        rules = PRESETS[name]
        for seating in (s for s in TABLES if s in rules.seatings):
            seats, teams = table_of(seating)
            print(f"{name}, {seating_words(seats, teams)}:", flush=True)
            for a, b in duels:
                start = time.perf_counter()
                r = run_duel(
                    a, b, pairs, seed=seed, rules=rules, players=seats, teams=teams, jobs=jobs
                )
                out.append((name, seating, r))
                print(f"  {r.line()}  ({time.perf_counter() - start:.0f} s)", flush=True)
                if on_row is not None:
                    on_row(out[-1])
    return out


def markdown_head(pairs: int, seed: int) -> str:
    """The Markdown table's introduction and header."""
    return (
        f"Duplicate duels, {pairs} pairs each (seed {seed}): the margin is A's points minus "
        "B's per deal (B's minus A's in scopa-a-perdere, where the fewest points win), "
        "with its 95% interval; the time is each player's median per move.\n\n"
        "| preset | table | A vs B | margin per deal | 95% interval | ms/move A | ms/move B |\n"
        "|---|---|---|---:|---|---:|---:|\n"
    )


def markdown_row(row: Row) -> str:
    """One duel as a row of the Markdown table."""
    name, seating, r = row
    m = r.margin
    table = "2 players" if seating == "2" else "2 against 2"
    return (
        f"| {name} | {table} | {r.a} vs {r.b} | {m.mean:+.2f} | "
        f"{m.low:+.2f} to {m.high:+.2f} | {ms(r.a_timing.median_ms)} | "
        f"{ms(r.b_timing.median_ms)} |\n"
    )


def ms(x: float) -> str:
    """Milliseconds to three significant digits, without an exponent."""
    return f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def new_path(now: datetime | None = None) -> Path:
    """A file name for the Markdown table that does not exist yet, in this directory."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = Path(f"strength-{stamp}.md")
    n = 2
    while path.exists():
        path = Path(f"strength-{stamp}-{n}.md")
        n += 1
    return path


def parse_duels(text: str) -> list[tuple[str, str]]:
    """``a:b,c:d`` as duels."""
    duels = []
    for item in text.split(","):
        a, colon, b = item.partition(":")
        if not colon or not a or not b:
            raise argparse.ArgumentTypeError(f"a duel is A:B, not {item!r}")
        duels.append((a, b))
    return duels


def main(argv: Sequence[str] | None = None) -> None:
    """Run the ladder and print it."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--presets", default=",".join(PRESETS),
                    help="comma-separated presets (default: all of them)")
    ap.add_argument("--duels", type=parse_duels, default=PRESET_LADDER,
                    help="comma-separated duels A:B (default: the ladder)")
    ap.add_argument("--pairs", type=int, default=None,
                    help="duplicate pairs per duel (default 200; 1000 with --chkobba-ladder)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all)")
    ap.add_argument("--markdown", nargs="?", const="", metavar="PATH", default=None,
                    help="also write the table as Markdown to PATH, a new file (default: "
                         "strength-DATE.md here)")
    ap.add_argument("--chkobba-ladder", action="store_true",
                    help="the Chkobba ladder with the cheater and the peeker instead")
    ap.add_argument("--players", type=int, default=2, choices=[2, 4],
                    help="with --chkobba-ladder: 2 players, or 2 against 2")
    ap.add_argument("--levels", action="store_true",
                    help="with --chkobba-ladder: also check the levels' order")
    ap.add_argument("--json", help="with --chkobba-ladder: also write every duel's JSON here")
    args = ap.parse_args(argv)  # fmt: skip
    if args.chkobba_ladder:
        args.pairs = args.pairs or 1000
        chkobba_ladder(args)
        return
    args.pairs = args.pairs or 200
    presets = [p for p in args.presets.split(",") if p]
    unknown = [p for p in presets if p not in PRESETS]
    if unknown:
        ap.error(f"unknown preset {unknown[0]!r} (known: {', '.join(PRESETS)})")
    path = None
    if args.markdown is not None:
        path = Path(args.markdown) if args.markdown else new_path()
        if path.exists():
            ap.error(f"{path} exists: the table is written only to a new file")
    print(f"{args.pairs} duplicate pairs per duel, seed {args.seed}")
    print("margin = points per deal, A − B (B − A where the fewest win), with its 95% interval")
    if path is None:
        preset_ladder(presets, args.duels, args.pairs, args.seed, args.jobs)
        return
    # Created first and written row by row: hours of duels are not lost to a late error.
    with path.open("x", encoding="utf-8") as f:
        f.write(markdown_head(args.pairs, args.seed))
        f.flush()

        def write(row: Row) -> None:
            f.write(markdown_row(row))
            f.flush()

        preset_ladder(presets, args.duels, args.pairs, args.seed, args.jobs, write)
    print(f"Markdown table written to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
