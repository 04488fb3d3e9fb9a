"""A finished game, step by step, for the replay page; and its record for download.

Both are rebuilt from the stored seed and moves through the engine, which
checks every move again on the way. Only finished games are shown this way:
the frames show every hand, and the record every deck. The Chkobba family's
frames (:func:`replay_frames`) are also those of the analysis page; every other
game's steps come from the game interface (:func:`table_steps`).
"""

from __future__ import annotations

from typing import Any

from chkobba.fishing.cards import CARDS
from chkobba.fishing.game import Phase, Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import parse_move
from chkobba.fishing.record import GameRecord, record_of
from chkobba.games import game, open_steps
from chkobba.games.chkobba import point_names
from chkobba.store import StoredGame
from chkobba.web.protocol import card_list, finished_round_json, side_of, turn_json


def match_of(g: StoredGame) -> Match:
    """The stored game's match, replayed move by move (every move checked)."""
    match = Match(g.ruleset(), g.seats, g.teams, g.seed)
    for text in g.moves:
        match.apply(parse_move(text), match.turn)
    return match


def seat_names(g: StoredGame) -> list[str]:
    """Each seat's name, for records and pages."""
    rows = sorted(g.seat_rows, key=lambda r: r.seat)
    return [r.name or (f"computer ({r.agent})" if r.agent else f"seat {r.seat}") for r in rows]


def game_record(g: StoredGame) -> GameRecord:
    """The game's record (docs/records.md)."""
    meta: dict[str, Any] = {"site": "chkobba web", "game": g.id}
    if g.finished_at is not None:
        meta["finished"] = g.finished_at.isoformat()
    return record_of(match_of(g), seat_names(g), meta)


def _frame(
    r: Round, number: int, totals: list[int], turn: dict[str, Any] | None, note: str
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": number,
        "note": note,
        "dealer": r.dealer,
        "turn": r.turn,
        "hands": [card_list(h) for h in r.hands],
        "table": card_list(r.table),
        "piles": [p.bit_count() for p in r.piles],
        "chkobba": list(r.chkobba),
        "stock": r.stock,
        "hand_sizes": [h.bit_count() for h in r.hands],
        "totals": list(totals),
        "move": turn,
        "cut_card": str(CARDS[r.cut_card])
        if r.phase is Phase.CUT and r.cut_card is not None
        else None,
    }
    if r.declarations:
        # Cirulla's declared hands, face up as at the table (and the cards still held).
        out["declarations"] = [
            {"seat": d.seat, "name": d.name, "points": d.points, "cards": card_list(d.cards),
             "wild": d.wild}
            for d in r.declarations
        ]
        out["shown"] = [card_list(r.shown(s)) for s in range(r.seats)]
    if r.is_over:
        out["end"] = finished_round_json(r)
    return out


def replay_frames(g: StoredGame) -> dict[str, Any]:
    """Every step of a game: the deal, then the state after each move, all hands shown."""
    match = Match(g.ruleset(), g.seats, g.teams, g.seed)
    number = 1
    frames = [_frame(match.round, number, match.totals, None, "deal")]
    for text in g.moves:
        before = match.round
        done = len(match.finished)
        seat = match.turn
        match.apply(parse_move(text), seat)
        turn = turn_json(before.history[-1])
        if before.void:
            frames.append(_frame(before, number, match.totals, turn, "void"))
            frames.append(_frame(match.round, number, match.totals, None, "deal"))
            continue
        ended = len(match.finished) > done
        frames.append(_frame(before, number, match.totals, turn, "end" if ended else "play"))
        if ended and not match.is_over:
            number += 1
            frames.append(_frame(match.round, number, match.totals, None, "deal"))
    return {
        "game": g.id,
        "kind": "chkobba",
        "deck": game("chkobba").deck(match.rules),
        "seats": g.seats,
        "teams": g.teams,
        "side_of": side_of(g.seats, g.teams),
        "names": seat_names(g),
        "target": match.rules.target,
        "rules": match.rules.name,
        "points": point_names(match.rules),
        "totals": list(match.totals),
        "winner": g.winner if g.ending else match.winner,
        # A game resigned, lost on time or abandoned ends without being played out: the
        # replay says so.
        "ending": g.ending,
        "resigned": g.resigned,
        "frames": frames,
    }


def table_steps(g: StoredGame) -> dict[str, Any]:
    """Every step of a finished game of any game, through the game interface
    (:func:`chkobba.games.open_steps`): each step the table with every hand face up."""
    played = game(g.game)
    rules = played.make_rules(g.rules, g.options, g.rules_version)
    names = seat_names(g)
    steps = open_steps(played, rules, g.seats, g.teams, g.seed, g.moves, names)
    last = steps[-1]
    return {
        "game": g.id,
        "kind": played.name,
        "seats": g.seats,
        "teams": g.teams,
        "side_of": side_of(g.seats, g.teams),
        "names": names,
        "target": last["target"],
        "rules": played.rules_json(rules)[0],
        "deck": played.deck(rules),
        "points": played.point_names(rules),
        "totals": last["totals"],
        "winner": g.winner,
        "ending": g.ending,
        "resigned": g.resigned,
        "frames": steps,
    }
