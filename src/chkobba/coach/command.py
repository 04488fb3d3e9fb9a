"""``chkobba analyze``: a finished (or unfinished) game, move by move, by the expert (for
Touti, its search player), through the game interface: the record's game reads it and
its coach (:func:`chkobba.coach.games.coach_of`) weighs it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from chkobba.coach.analysis import Analysis, Decision, analyze, default_seat
from chkobba.coach.estimate import DEFAULT_BATCHES, DEFAULT_SAMPLES
from chkobba.coach.games import Coach, coach_of
from chkobba.fishing.narrate import seat_name
from chkobba.games import RecordFault, game_of_record
from chkobba.search import fast
from chkobba.words import DEFAULT_LANGUAGE, LANGUAGES, locale_language, word

FIGURE_NOTE = (
    "Figures: expected round margin in points (your side's points for the round minus the "
    "best other side's, at the round's end), averaged over deals of the cards you had not "
    "seen; ± is one standard error from {batches} independent batches. Positions with no "
    "hidden card left (2 players, empty stock) are solved exactly."
)
TOUTI_NOTE = (
    "Figures: expected deal worth, as Touti's search player counts it (your team's match "
    "points for the deal minus the opponents', plus a quarter of the difference in card and "
    "announcement points), averaged over deals of the cards you had not seen, finished by "
    "the technique player; ± is one standard error from {batches} independent batches. "
    "Positions where the unseen cards can lie in one way only are solved exactly. Only the "
    "cards played are weighed, not the bidding."
)
NOTES = {"chkobba": FIGURE_NOTE, "touti": TOUTI_NOTE}


def _seats(text: str | None, record: Any, coach: Coach) -> list[int]:
    n = coach.seats(record)
    if text is None:
        return [default_seat(record)]
    if text == "all":
        return list(range(n))
    try:
        seats = [int(s) for s in text.split(",")]
    except ValueError:
        raise click.BadParameter(
            f"{text!r}: give a seat number, numbers joined by commas, or 'all'",
            param_hint="--seat",
        ) from None
    bad = [s for s in seats if not 0 <= s < n]
    if bad:
        raise click.BadParameter(
            f"no seat {bad[0]} in this {n}-player record (seats 0 to {n - 1})",
            param_hint="--seat",
        )
    return seats


@click.command("analyze")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--seat",
    metavar="N|all",
    help="The seat(s) to analyse: a number, numbers joined by commas, or all. "
    "Default: the record's human seat, else 0.",
)
@click.option(
    "--samples",
    type=click.IntRange(2, 1_000_000),
    default=DEFAULT_SAMPLES,
    show_default=True,
    help="Sampled deals per position (more: smaller error bars, slower).",
)
@click.option(
    "--batches",
    type=click.IntRange(2, 1000),
    default=DEFAULT_BATCHES,
    show_default=True,
    help="Independent batches the samples are split into, to measure the error.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sampling.")
@click.option(
    "--round", "round_no", type=click.IntRange(1), help="Analyse only this round (Touti: deal)."
)
@click.option(
    "--top",
    type=click.IntRange(0),
    default=5,
    show_default=True,
    help="How many of the biggest mistakes to list.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    help="The language of the analysis' words and card names: en, fr, it, es or ar. "
    "Default: the locale's, else English. The JSON keeps the English (and every "
    "language under said).",
)
def analyze_cmd(
    file: Path,
    seat: str | None,
    samples: int,
    batches: int,
    seed: int,
    round_no: int | None,
    top: int,
    as_json: bool,
    lang: str | None,
) -> None:
    """Analyse a game record: for every play of a seat, the expert's estimate of each
    legal play, the play made, its loss against the best, and the biggest mistakes
    in words. Touti records: every card played, weighed by Touti's search player.
    """
    g = game_of_record(file)
    coach = coach_of(g)
    try:
        record = g.read_record(file)
        coach.replay(record)
        parts = coach.parts(record)
        if not parts:
            # Bad input, like an invalid record (exit 1), rather than "0 decisions".
            click.echo(
                f"{file}: the record holds no {coach.part}: there is nothing to analyse",
                err=True,
            )
            sys.exit(1)
        seats = _seats(seat, record, coach)
        if round_no is not None and round_no > parts:
            raise click.BadParameter(
                f"the record has {parts} {coach.part}(s), not {round_no}",
                param_hint="--round",
            )
        if samples < batches:
            raise click.BadParameter(
                f"at least one sample per batch: {samples} samples < {batches} batches",
                param_hint="--samples",
            )
        err = Console(stderr=True, highlight=False)
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
            disable=not err.is_terminal,
        ) as bar:
            task = bar.add_task("analysing", total=None)
            result = analyze(
                record,
                seats,
                samples,
                batches,
                seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                rounds=None if round_no is None else [round_no],
            )
    except RecordFault as e:
        click.echo(str(e), err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    show(result, record, Console(highlight=False), top, lang or locale_language())


def _say(lang: str, key: str, **values: object) -> str:
    """The analysis' text ``key`` (the ``coach`` section's ``a_*``) in ``lang``."""
    return word(lang, "coach", f"a_{key}", **values)


def show(
    result: Analysis, record: Any, console: Console, top: int = 5, lang: str = DEFAULT_LANGUAGE
) -> None:
    """Print an analysis: the game's biggest mistakes first, then each round move by move
    (in ``lang``)."""
    names = record.names
    kind = "deal" if result.game == "touti" else "round"
    part = _say(lang, f"part_{kind}")
    who = ", ".join(seat_name(s, names) for s in result.seats)
    head = _say(lang, "head", who=who)
    console.print(
        f"[bold]{escape(head)}[/bold]: "
        + escape(
            _say(lang, "figures", n=len(result.decisions), samples=result.samples,
                 seed=result.seed, s=f"{result.seconds:.1f}")
        )
    )
    used = {
        d.estimates.samples for d in result.decisions if d.estimates and not d.estimates.exact
    }
    if used and used != {result.samples}:
        # The pure-Python search (no compiled kernel, or rules it does not play) is slower.
        used_text = _say(lang, "used", used=", ".join(map(str, sorted(used))),
                         backend=fast.BACKEND)
        console.print(f"[yellow]{escape(used_text)}[/yellow]")
    note = NOTES[result.game] if lang == DEFAULT_LANGUAGE else _say(lang, f"note_{result.game}")
    console.print(f"[dim]{escape(note.format(batches=result.batches))}[/dim]")
    many = len(result.seats) > 1
    _mistakes(console, result.mistakes(top), _say(lang, "game_mistakes"), many, names, kind, lang)
    for r in result.rounds():
        console.print()
        lost = _say(lang, "lost", lost=f"{result.total_loss(r):.2f}")
        console.rule(f"[bold]{escape(part)} {r}[/bold]: {escape(lost)}")
        _mistakes(
            console,
            result.mistakes(min(top, 3), r),
            _say(lang, f"mistakes_{kind}"),
            many,
            names,
            kind,
            lang,
        )
        console.print(
            _table([d for d in result.decisions if d.round == r], names, many, kind, lang)
        )


def _mistakes(
    console: Console,
    found: list[Decision],
    title: str,
    many: bool,
    names: list[str] | None,
    kind: str,
    lang: str = DEFAULT_LANGUAGE,
) -> None:
    if not found:
        console.print(f"[bold]{escape(title)}[/bold]: {escape(_say(lang, 'none'))}")
        return
    console.print(f"[bold]{escape(title)}[/bold]:")
    for d in found:
        by = f"{seat_name(d.seat, names)}, " if many else ""
        where = _say(lang, f"where_{kind}", r=d.round, p=d.play)
        console.print(f"  • ({escape(by + where)}) {escape(d.words(lang))}")


def _table(
    decisions: list[Decision],
    names: list[str] | None,
    many: bool,
    kind: str = "round",
    lang: str = DEFAULT_LANGUAGE,
) -> Table:
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("#", justify="right")
    if many:
        t.add_column(_say(lang, "col_seat"))
    t.add_column(_say(lang, "col_hand"))
    t.add_column(_say(lang, "col_trick" if kind == "deal" else "col_table"))
    t.add_column(_say(lang, "col_played"))
    t.add_column(_say(lang, "col_loss"), justify="right")
    t.add_column(_say(lang, "col_estimates"))
    for d in decisions:
        est = d.estimates
        if est is None:
            loss, figures = "—", _say(lang, "forced")
        elif est.exact:
            loss = f"{d.loss:.2f}"
            figures = "  ".join(f"{p.move} {p.mean:+.2f}" for p in est.ranking()[:4])
            figures += f"  ({_say(lang, 'exact')})"
        else:
            loss = f"{d.loss:.2f}±{d.loss_se:.2f}"
            figures = "  ".join(f"{p.move} {p.mean:+.2f}±{p.se:.2f}" for p in est.ranking()[:4])
            figures += f"  (n={est.samples})"
        style = "bold red" if d.mistake else None
        row = [str(d.play)]
        if many:
            row.append(seat_name(d.seat, names))
        row += [d.hand, d.table or "—", str(d.move), loss, figures]
        t.add_row(*row, style=style)
    return t
