"""Plays and round breakdowns in words, for the terminal game and ``chkobba replay``."""

from __future__ import annotations

from collections.abc import Sequence

from chkobba.cards import CARDS, format_cards
from chkobba.game import Phase, Round, Turn
from chkobba.moves import Cut, Play
from chkobba.scoring import POINT_ARABIC, POINT_NAMES, RoundScore


def seat_name(seat: int, names: Sequence[str] | None) -> str:
    """A seat's player name, or ``seat N``."""
    return names[seat] if names else f"seat {seat}"


def side_name(side: int, side_of: Sequence[int], names: Sequence[str] | None) -> str:
    """A side's name: its player, or its two partners joined by ``&``."""
    members = [s for s, sd in enumerate(side_of) if sd == side]
    return " & ".join(seat_name(s, names) for s in members)


def describe_turn(turn: Turn, names: Sequence[str] | None = None) -> str:
    """One line for one entry of a round's history."""
    who = seat_name(turn.seat, names)
    move = turn.move
    if isinstance(move, Cut):
        return f"{who} {'keeps' if move is Cut.KEEP else 'tables'} the cut card"
    assert isinstance(move, Play)
    card = CARDS[move.card].pretty()
    if not move.capture:
        return f"{who} lays {card}"
    taken = format_cards(move.capture, " ", pretty=True)
    line = f"{who} plays {card} and captures {taken}"
    return line + "  — chkobba!" if turn.chkobba else line


def breakdown_lines(
    score: RoundScore, side_of: Sequence[int], names: Sequence[str] | None = None
) -> list[str]:
    """The round's points in words, one line per point, with their Arabic names."""
    sides = len(score.cards)
    lines = []
    details = {
        "karta": ("cards", score.cards),
        "dinari": ("diamonds", score.diamonds),
        "barmila": ("7s", score.sevens),
    }
    for key in ("karta", "dinari", "barmila", "haya"):
        winner: int | None = getattr(score, key)
        label = f"{POINT_NAMES[key]} ({POINT_ARABIC[key]})"
        if key == "haya":
            what = "7♦"
        else:
            unit, counts = details[key]
            what = " vs ".join(str(c) for c in counts) + f" {unit}"
            if key == "barmila":
                what += " (6s: " + " vs ".join(str(c) for c in score.sixes) + ")"
        who = side_name(winner, side_of, names) if winner is not None else "nobody (bājī)"
        lines.append(f"{label}: {who}  [{what}]")
    sweeps = ", ".join(f"{side_name(s, side_of, names)} {score.chkobba[s]}" for s in range(sides))
    lines.append(f"{POINT_NAMES['chkobba']} ({POINT_ARABIC['chkobba']}): {sweeps}")
    pts = ", ".join(f"{side_name(s, side_of, names)} {score.points[s]}" for s in range(sides))
    lines.append(f"round points: {pts}")
    return lines


def narrate_round(r: Round, number: int, names: Sequence[str] | None = None) -> list[str]:
    """A whole round, play by play, with the end-of-round sweep and breakdown."""
    lines = [
        f"Round {number}: {seat_name(r.dealer, names)} deals, "
        f"{seat_name(r.cutter, names)} cuts"
        + (f" and is shown {CARDS[r.cut_card].pretty()}" if r.cut_card is not None else "")
    ]
    number = 0
    for turn in r.history:
        if isinstance(turn.move, Cut):
            lines.append(f"      {describe_turn(turn, names)}")
            continue
        if number == 0:
            lines.append(f"      table dealt: {initial_table(r)}")
        number += 1
        lines.append(f"  {number:>2}. {describe_turn(turn, names)}")
    if number == 0 and r.phase is not Phase.CUT:
        lines.append(f"      table dealt: {initial_table(r)}")
    if r.is_over and r.score is not None:
        if r.swept:
            taker = side_name(r.last_capturer or 0, r.side_of, names)
            lines.append(
                f"  {taker} takes the rest of the table: {format_cards(r.swept, ' ', pretty=True)}"
            )
        if r.leftover:
            lines.append(
                f"  nobody captured: {format_cards(r.leftover, ' ', pretty=True)} set aside"
            )
        lines.extend("  " + line for line in breakdown_lines(r.score, r.side_of, names))
    return lines


def initial_table(r: Round) -> str:
    """The four cards the deal put on the table."""
    # Only a tabled cut card puts the table first in the deck (RECORD.md).
    start = 0 if r.cut is Cut.TABLE else 3 * r.seats
    return " ".join(CARDS[c].pretty() for c in r.deck[start : start + 4])
