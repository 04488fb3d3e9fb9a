"""Plays and round breakdowns in words, for the terminal game and ``chkobba replay``."""

from __future__ import annotations

from collections.abc import Sequence

from chkobba.fishing.cards import (
    CARDS,
    DIAMONDS,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    face_name,
    format_cards,
)
from chkobba.fishing.game import Phase, Round, Turn
from chkobba.fishing.moves import Cut, Play
from chkobba.fishing.rules import RuleSet
from chkobba.fishing.scoring import POINT_KEYS, SWEEP_WORDS, Declaration, RoundScore


def seat_name(seat: int, names: Sequence[str] | None) -> str:
    """A seat's player name, or ``seat N``."""
    return names[seat] if names else f"seat {seat}"


def side_name(side: int, side_of: Sequence[int], names: Sequence[str] | None) -> str:
    """A side's name: its player, or its two partners joined by ``&``."""
    members = [s for s, sd in enumerate(side_of) if sd == side]
    return " & ".join(seat_name(s, names) for s in members)


def sweep_word(rules: RuleSet) -> str:
    """The game's word for one sweep of the table: ``chkobba``, ``scopa``, ``escoba``…"""
    key = rules.sweep_key
    return SWEEP_WORDS.get(key, key) if key is not None else "sweep"


def sweeps_label(rules: RuleSet) -> str:
    """The game's word for the sweeps a side has made (``chkobba``, ``scope``…)."""
    key = rules.sweep_key
    return POINT_KEYS[key].label if key is not None else "sweeps"


def ranks_help(rules: RuleSet) -> str:
    """The ranks and their values, the faces named in the rule set's deck (``deck``)."""
    faces = ", ".join(
        f"{r} the {face_name(r, rules.deck)}" + (f" ({RANKS.index(r) + 1})" if r != "A" else "")
        for r in "AQJK"
    )
    return f"Ranks: A 2 3 4 5 6 7 Q J K, worth 1 to 10: {faces}."


def suits_help(rules: RuleSet) -> str:
    """The suit letters and symbols, named in the rule set's deck (the coins suit marked)."""
    names = SUIT_NAMES[rules.deck]
    coins = "dīnārī" if rules.deck == "french" else "the coins"
    parts = [f"{SUITS[i]} {SUIT_SYMBOLS[i]} {names[i]}" for i in range(4)]
    parts[DIAMONDS] += f" ({coins})"
    return "Suits: " + ", ".join(parts) + "."


def goal(rules: RuleSet) -> str:
    """What ends the match, in a few words: ``first to 21``, ``to 21, fewest points win``."""
    if rules.lowest_wins:
        return f"to {rules.target}, the fewest points win"
    return f"first to {rules.target}"


def describe_turn(turn: Turn, names: Sequence[str] | None = None, sweep: str = "chkobba") -> str:
    """One line for one entry of a round's history; ``sweep`` names a sweep that scores."""
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
    return line + f"  — {sweep}!" if turn.chkobba else line


def describe_declaration(d: Declaration, names: Sequence[str] | None = None) -> str:
    """One line for a hand declared at a deal (Cirulla)."""
    who = seat_name(d.seat, names)
    line = f"{who} declares {d.name} ({d.points} points): {format_cards(d.cards, ' ', pretty=True)}"
    if d.wild:
        line += f", the 7♠ counting {d.wild}"
    return line


def breakdown_lines(
    score: RoundScore, side_of: Sequence[int], names: Sequence[str] | None = None
) -> list[str]:
    """The round's points in words, one line per point, in the game's own words.

    A point one side takes names that side (or nobody, in the game's word for a
    tie) and what it was decided on; sweeps and the other points given per side
    list every side. Chkobba's points carry their Arabic names too.
    """
    sides = len(score.cards)
    lines = []
    for item in score.items:
        pk = POINT_KEYS[item.key]
        label = f"{pk.label} ({pk.native})" if pk.native else pk.label
        detail = item.detail
        if item.per_side:
            each = ", ".join(
                f"{side_name(s, side_of, names)} {item.points[s]}" for s in range(sides)
            )
            lines.append(f"{label}: {each}" + (f"  [{detail}]" if detail else ""))
        else:
            side = item.side
            who = side_name(side, side_of, names) if side is not None else f"nobody ({pk.tie})"
            lines.append(f"{label}: {who}" + (f"  [{detail}]" if detail else ""))
    pts = ", ".join(f"{side_name(s, side_of, names)} {score.points[s]}" for s in range(sides))
    lines.append(f"round points: {pts}")
    if score.wins_match is not None:
        lines.append(
            f"{side_name(score.wins_match, side_of, names)} took all ten coins: "
            "the match is won at once"
        )
    return lines


def narrate_round(r: Round, number: int, names: Sequence[str] | None = None) -> list[str]:
    """A whole round, play by play, with the end-of-round sweep and breakdown."""
    if r.rules.cut_choice:
        lines = [
            f"Round {number}: {seat_name(r.dealer, names)} deals, "
            f"{seat_name(r.cutter, names)} cuts"
            + (f" and is shown {CARDS[r.cut_card].pretty()}" if r.cut_card is not None else "")
        ]
    else:
        lines = [
            f"Round {number}: {seat_name(r.dealer, names)} deals, "
            f"{seat_name(r.cutter, names)} leads"
        ]
    sweep = sweep_word(r.rules)
    declared = list(r.declarations)
    number = 0
    for i, turn in enumerate(r.history):
        if isinstance(turn.move, Cut):
            lines.append(f"      {describe_turn(turn, names)}")
            continue
        if number == 0:
            lines.append(f"      table dealt: {initial_table(r)}")
        while declared and declared[0].at <= i:
            lines.append(f"      {describe_declaration(declared.pop(0), names)}")
        number += 1
        lines.append(f"  {number:>2}. {describe_turn(turn, names, sweep)}")
    if number == 0 and r.phase is not Phase.CUT:
        lines.append(f"      table dealt: {initial_table(r)}")
    lines.extend(f"      {describe_declaration(d, names)}" for d in declared)
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
    """The cards the deal put on the table (``(empty)`` when it deals none)."""
    # Only a tabled cut card puts the table first in the deck (docs/records.md); the
    # deck is in dealing order, so the table's cards follow each other in it.
    start = 0 if r.cut is Cut.TABLE else r.rules.hand_size * r.seats
    size = r.rules.table_size
    return " ".join(CARDS[c].pretty() for c in r.deck[start : start + size]) or "(empty)"
