"""The strength ladder of every preset: duplicate duels between the players, from a seed.

For each preset of ``chkobba rules`` and each of the tables of ``--tables`` it allows
(default 2 players and 2 against 2; also 3, 4 and 6 players each for themselves),
prints the ladder's duels (``--duels``; default greedy vs random, heuristic vs
greedy, expert vs heuristic, expert vs greedy): the mean point margin per deal (A − B;
B − A where the fewest points win) with its 95% interval, the Elo difference,
wins/draws/losses, and each side's median and 95th-percentile milliseconds per
move. ``--markdown`` writes the same table as Markdown, for docs/variants.md, each
row with the load average around its duel and the ``chkobba duel`` command that
reproduces it.

    python bench/strength.py --presets scopa,escoba --pairs 200 --seed 1 --markdown
    python bench/strength.py --presets scopa --tables 3,4,6 --duels expert:heuristic \
        --pairs 100 --seed 1 --jobs 1 --markdown

**A duel at a table of 3, 4 or 6 each for themselves** is the harness's
(:mod:`chkobba.duel.play`): A and B alternate around the table, A at the even seats
(A B A at 3, A B A B at 4, A B A B A B at 6), and each pair plays the same shuffles
once per turn of that lineup until it comes back: three games at 3 players (so each
seat is A's twice and B's once), two at 4 and 6 (each seat A's once, B's once). A's
points are the mean of its seats' points in a deal, B's likewise, and the margin is
A's minus B's per deal, averaged over the pair's games; its 95% interval is over
the pairs, the unit of independence. Every seat plays for itself: A's copies do not
cooperate, and each takes points from the other copies as much as from B. At 3
players A holds two seats of three, so two A's and one B share the deal's points;
the margin still is zero in expectation between equal players.

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
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from chkobba.duel.harness import DuelResult, run_duel
from chkobba.fishing.rules import PRESETS, SEATINGS
from chkobba.games.base import seating_words, table_of

PRESET_LADDER = [
    ("greedy", "random"),
    ("heuristic", "greedy"),
    ("expert", "heuristic"),
    ("expert", "greedy"),
]
"""The duels played on every preset, by registered player names."""
TABLES = ("2", "2v2")
"""The tables the ladder is measured at by default, where a preset allows them."""

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


@dataclass(frozen=True)
class Row:
    """A duel of the ladder, where it was played, and the machine's load around it."""

    preset: str
    seating: str
    """The table, as ``chkobba rules`` names it (``2``, ``3``, ``4``, ``2v2``, ``6``)."""
    result: DuelResult
    jobs: int | None
    load_start: float
    """The 1-minute load average (``uptime``) when the duel started."""
    load_end: float

    def command(self) -> str:
        """The ``chkobba duel`` command that plays this duel again (the same figures, all
        but the times)."""
        r = self.result
        seats, teams = table_of(self.seating)
        table = ""
        if seats != 2:
            table = f" --players {seats}" + ("" if teams or seats != 4 else " --no-teams")
        jobs = "" if self.jobs is None else f" --jobs {self.jobs}"
        return (
            f"chkobba duel {r.a} {r.b} --rules {self.preset}{table} --pairs {r.pairs} "
            f"--seed {r.seed}{jobs}"
        )


def ordered(r: DuelResult) -> str:
    """Whether A is above B on this rung: ``yes`` when the margin's interval is above
    zero, ``no`` when below, ``not shown`` when it holds zero."""
    if r.margin.low > 0:
        return "yes"
    if r.margin.high < 0:
        return "no"
    return "not shown"


def load() -> float:
    """The machine's 1-minute load average (NaN where the system does not give it)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def preset_ladder(
    presets: Sequence[str],
    duels: Sequence[tuple[str, str]],
    pairs: int,
    seed: int,
    jobs: int | None,
    on_row: Callable[[Row], None] | None = None,
    tables: Sequence[str] = TABLES,
) -> list[Row]:
    """Play the duels on every preset and each of ``tables`` it allows; print each and
    hand it to ``on_row`` as it ends."""
    out: list[Row] = []
    for name in presets:
        rules = PRESETS[name]
        missing = [s for s in tables if s not in rules.seatings]
        if missing:
            words = ", ".join(seating_words(*table_of(s)) for s in missing)
            print(f"{name}: not played at {words} (the rules do not allow it)", flush=True)
        for seating in (s for s in tables if s in rules.seatings):
            seats, teams = table_of(seating)
            print(f"{name}, {seating_words(seats, teams)}:", flush=True)
            for a, b in duels:
                start = time.perf_counter()
                before = load()
                r = run_duel(
                    a, b, pairs, seed=seed, rules=rules, players=seats, teams=teams, jobs=jobs
                )
                out.append(Row(name, seating, r, jobs, before, load()))
                print(
                    f"  {r.line()}  ({time.perf_counter() - start:.0f} s, load "
                    f"{before:.1f} → {out[-1].load_end:.1f}; ordered: {ordered(r)})",
                    flush=True,
                )
                if on_row is not None:
                    on_row(out[-1])
    return out


def markdown_head(pairs: int, seed: int) -> str:
    """The Markdown table's introduction and header."""
    return (
        f"Duplicate duels, {pairs} pairs each (seed {seed}): the margin is A's points minus "
        "B's per deal (B's minus A's in scopa-a-perdere, where the fewest points win), "
        "with its 95% interval; at 3, 4 and 6 players each for themselves A and B "
        "alternate around the table and the margin is the mean of A's seats minus the "
        "mean of B's. A above B is shown when the interval is above zero. The time is "
        "each player's median per move; the load is the 1-minute load average at the "
        "duel's start and end.\n\n"
        "| preset | table | A vs B | margin per deal | 95% interval | A above B | "
        "ms/move A | ms/move B | load | command |\n"
        "|---|---|---|---:|---|---|---:|---:|---|---|\n"
    )


def markdown_row(row: Row) -> str:
    """One duel as a row of the Markdown table."""
    r = row.result
    m = r.margin
    seats, teams = table_of(row.seating)
    table = "2 against 2" if teams else f"{seats} players"
    if seats == 4 and not teams:
        table += " each for themselves"
    return (
        f"| {row.preset} | {table} | {r.a} vs {r.b} | {m.mean:+.2f} | "
        f"{m.low:+.2f} to {m.high:+.2f} | {ordered(r)} | {ms(r.a_timing.median_ms)} | "
        f"{ms(r.b_timing.median_ms)} | {row.load_start:.1f} → {row.load_end:.1f} | "
        f"`{row.command()}` |\n"
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


def parse_tables(text: str) -> list[str]:
    """``2,2v2,3`` as tables, each one ``chkobba rules`` names."""
    tables = [t for t in text.split(",") if t]
    for t in tables:
        if t not in SEATINGS:
            raise argparse.ArgumentTypeError(
                f"a table is one of {', '.join(SEATINGS)}, not {t!r}"
            )
    if not tables:
        raise argparse.ArgumentTypeError("name at least one table")
    return list(dict.fromkeys(tables))


def main(argv: Sequence[str] | None = None) -> None:
    """Run the ladder and print it."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--presets", default=",".join(PRESETS),
                    help="comma-separated presets (default: all of them)")
    ap.add_argument("--duels", type=parse_duels, default=PRESET_LADDER,
                    help="comma-separated duels A:B (default: the ladder)")
    ap.add_argument("--tables", type=parse_tables, default=list(TABLES),
                    help="comma-separated tables among " + ", ".join(SEATINGS) + " (2v2: "
                         "partners; 4: each for themselves), each where a preset allows "
                         "it (default: 2,2v2)")
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
        preset_ladder(presets, args.duels, args.pairs, args.seed, args.jobs, None, args.tables)
        return
    # Created first and written row by row: hours of duels are not lost to a late error.
    with path.open("x", encoding="utf-8") as f:
        f.write(markdown_head(args.pairs, args.seed))
        f.flush()

        def write(row: Row) -> None:
            f.write(markdown_row(row))
            f.flush()

        preset_ladder(presets, args.duels, args.pairs, args.seed, args.jobs, write, args.tables)
    print(f"Markdown table written to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
