"""Regenerate the reference playthroughs and perft counts checked in under tests/data/.

Run ``.venv/bin/python tests/regen.py`` after a change in behaviour that is
intended, and review the diff of ``tests/data/playthroughs/`` and
``tests/data/perft.json`` before committing it. ``tests/test_playthroughs.py`` and
``tests/test_perft.py`` regenerate the same text with this module and compare it
with the checked-in files, so any unintended change shows as a failing diff.

* A *playthrough* (after OpenSpiel's ``integration_tests/playthroughs``) is one
  seeded match written state by state: the seat to move, that seat's observation
  (``Observation.describe()``), every legal move in the notation, and the move
  applied, chosen by a seeded ``random.Random``; then each round's score.
* *Perft* (after python-chess's ``examples/perft``) counts, along fixed seeded
  deals, the legal moves at every ply of the first round and the leaf nodes of the
  full game tree of that round to a small depth from a few positions. A node
  reached before the depth with no moves (the round over, or a void deal whose
  redeal is chance, not a move) has no leaves below it.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chkobba.fishing.cards import CARDS
from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Move
from chkobba.fishing.observe import observe
from chkobba.fishing.rules import preset

DATA = Path(__file__).parent / "data"
PLAYTHROUGHS = DATA / "playthroughs"
PERFT = DATA / "perft.json"


@dataclass(frozen=True)
class Game:
    """One seeded match: its seating, its options, and the seed of the move chooser."""

    name: str
    seats: int
    teams: bool
    seed: int
    """The match's seed: the shuffles and the first dealer."""
    choices: int
    """The seed of the ``random.Random`` that picks each move among the legal ones."""
    options: dict[str, Any] = field(default_factory=dict)
    rules: str = "chkobba"
    """The preset (docs/rules.md §2, or a row of §3)."""

    def match(self) -> Match:
        """The match, freshly dealt."""
        return Match(preset(self.rules, self.options), self.seats, self.teams, seed=self.seed)


GAMES: tuple[Game, ...] = (
    Game("2-seats", 2, False, seed=2024, choices=1),
    Game("2v2", 4, True, seed=8, choices=2, options={"target": 11}),
    Game("3-seats", 3, False, seed=13, choices=3, options={"target": 11}),
    Game("4-seats", 4, False, seed=21, choices=4, options={"target": 11}),
)
"""The reference playthroughs, one file each in tests/data/playthroughs/."""

PRESET_GAMES: tuple[Game, ...] = (
    Game("scopa", 2, False, seed=31, choices=5, rules="scopa"),
    # The many-card game on the deals and choices of Scopa's: the two files differ where
    # the standard's captures (one card or two, the fewest) do.
    Game("scopa-many", 2, False, seed=31, choices=5, rules="scopa-many"),
    Game("scopone", 4, True, seed=33, choices=7, options={"target": 6}, rules="scopone"),
    Game(
        "scopone-scientifico",
        4,
        True,
        seed=34,
        choices=8,
        options={"target": 6},
        rules="scopone-scientifico",
    ),
    Game(
        "scopa-di-quindici",
        3,
        False,
        seed=35,
        choices=9,
        options={"target": 6},
        rules="scopa-di-quindici",
    ),
    Game("escoba", 2, False, seed=36, choices=10, options={"target": 6}, rules="escoba"),
    Game(
        "escoba-del-15",
        2,
        False,
        seed=36,
        choices=10,
        options={"target": 6},
        rules="escoba-del-15",
    ),
    Game("cirulla", 2, False, seed=37, choices=11, options={"target": 6}, rules="cirulla"),
    Game(
        "asso-piglia-tutto",
        2,
        False,
        seed=38,
        choices=12,
        options={"target": 6},
        rules="asso-piglia-tutto",
    ),
    Game("re-bello", 4, False, seed=39, choices=13, options={"target": 6}, rules="re-bello"),
    Game("napola", 2, False, seed=40, choices=14, options={"target": 6}, rules="napola"),
    Game("ponino", 4, True, seed=41, choices=15, options={"target": 6}, rules="ponino"),
    Game(
        "scopone-de-trente",
        4,
        True,
        seed=42,
        choices=16,
        options={"target": 8},
        rules="scopone-de-trente",
    ),
    Game(
        "scopa-a-perdere",
        2,
        False,
        seed=43,
        choices=17,
        options={"target": 6},
        rules="scopa-a-perdere",
    ),
    Game("scopa-frac", 2, False, seed=44, choices=18, rules="scopa-frac"),
    Game("chkop", 3, False, seed=45, choices=19, options={"target": 6}, rules="chkop"),
)
"""A reference playthrough for each preset of the Scopa family (docs/rules.md §3), most to a
lower target than the preset's to keep the files short; one file each, named after
the preset, in tests/data/playthroughs/."""

DEALS: tuple[Game, ...] = (
    Game("2-seats-a", 2, False, seed=1, choices=10),
    Game("2-seats-b", 2, False, seed=2, choices=20),
    Game("2-seats-drop", 2, False, seed=3, choices=30, options={"may_drop_capturing_card": True}),
    Game("3-seats", 3, False, seed=4, choices=40),
    Game("4-seats", 4, False, seed=5, choices=50),
    Game("2v2", 4, True, seed=6, choices=60),
)
"""The seeded deals whose first round is counted in tests/data/perft.json."""

PERFT_DEPTH = 10
"""Depth of the full-tree counts from the first play of a round (past the first
redeal with 2 or 3 seats)."""


def moves_text(moves: list[Move]) -> str:
    """Moves in the notation, space-separated."""
    return " ".join(str(m) for m in moves)


def _indent(text: str) -> list[str]:
    return ["  " + line for line in text.splitlines()]


def playthrough(game: Game) -> str:
    """The playthrough of ``game`` as text, every state of the match in order."""
    rng = random.Random(game.choices)
    m = game.match()
    rules = m.rules
    lines = [
        "# Chkobba reference playthrough; regenerate with: .venv/bin/python tests/regen.py",
        f"game: {game.name}",
        f"rules: {rules.name} {json.dumps(rules.options(), sort_keys=True)}",
        f"seats: {game.seats}, teams: {str(game.teams).lower()}, "
        f"match seed: {game.seed}, moves: random.Random({game.choices})",
    ]
    state = 0
    shown_round: Round | None = None
    while not m.is_over:
        r = m.round
        if r is not shown_round:
            lines += ["", f"== round {m.round_number}: dealer {r.dealer}, cutter {r.cutter}"]
            shown_round = r
        seat = m.turn
        legal = m.legal_moves()
        move = rng.choice(legal)
        lines += [
            "",
            f"state {state}: seat {seat} to move",
            *_indent(observe(m, seat).describe()),
            f"  legal ({len(legal)}): {moves_text(legal)}",
            f"  apply: {move}",
        ]
        voids = m.void_deals
        m.apply(move, seat=seat)
        state += 1
        if m.void_deals != voids:
            table = " ".join(str(CARDS[c]) for c in _bits(r.table))
            lines.append(f"  void deal (table {table}): seat {r.dealer} deals again")
        if r.is_over:
            lines += ["", *_round_end(r), f"totals: {m.totals}"]
    lines += ["", f"winner: side {m.winner}", ""]
    return "\n".join(lines)


def _round_end(r: Round) -> list[str]:
    assert r.score is not None
    swept = " ".join(str(CARDS[c]) for c in _bits(r.swept)) or "-"
    aside = " ".join(str(CARDS[c]) for c in _bits(r.leftover)) or "-"
    return [
        "round over",
        f"  last capturer: side {r.last_capturer}, takes: {swept}, set aside: {aside}",
        f"  score: {json.dumps(r.score.to_json())}",
    ]


def _bits(mask: int) -> list[int]:
    return [c for c in range(40) if mask >> c & 1]


def perft(r: Round, depth: int) -> int:
    """Leaf nodes of the full game tree of the round, ``depth`` moves below ``r``."""
    if depth == 0:
        return 1
    if r.void:
        return 0
    moves = r.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = r.copy()
        child.apply_unchecked(move)
        total += perft(child, depth - 1)
    return total


def perft_entry(game: Game) -> dict[str, Any]:
    """The counts of one seeded deal: legal moves per ply along a seeded line of play,
    and full-tree leaf counts from the cut, the first play, the last play of the first
    deal (across the redeal) and three plays before the end of the round."""
    rng = random.Random(game.choices)
    r = game.match().round
    line: list[Round] = []
    while not r.is_over:
        if r.void:
            raise ValueError(f"{game.name}: the line of play hits a void deal; pick another seed")
        line.append(r.copy())
        r.apply(rng.choice(r.legal_moves()))
    first_deal_end = 3 * game.seats  # ply 0 is the cut, then one deal of 3 cards each
    return {
        "seats": game.seats,
        "teams": game.teams,
        "options": game.options,
        "seed": game.seed,
        "choices": game.choices,
        "dealer": line[0].dealer,
        "deck": " ".join(str(CARDS[c]) for c in line[0].deck),
        "line": " ".join(str(t.move) for t in r.history),
        "moves_per_ply": [len(p.legal_moves()) for p in line],
        "perft_cut": [perft(line[0], d) for d in range(1, 4)],
        "perft_first_play": [perft(line[1], d) for d in range(1, PERFT_DEPTH + 1)],
        "perft_end_of_first_deal": [perft(line[first_deal_end], d) for d in range(1, 6)],
        "perft_end_of_round": [perft(line[-3], d) for d in range(1, 5)],
    }


def perft_data() -> dict[str, dict[str, Any]]:
    """The counts of every seeded deal, by name."""
    return {game.name: perft_entry(game) for game in DEALS}


def perft_json(data: dict[str, dict[str, Any]]) -> str:
    """The counts as JSON text, one line per field so that a change diffs clearly."""
    out = ["{"]
    for i, (name, entry) in enumerate(data.items()):
        out.append(f"  {json.dumps(name)}: {{")
        fields = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in entry.items()]
        out.append(",\n".join(fields))
        out.append("  }" + ("," if i < len(data) - 1 else ""))
    out.append("}")
    return "\n".join(out) + "\n"


def playthrough_path(game: Game) -> Path:
    """Where the playthrough of ``game`` is checked in."""
    return PLAYTHROUGHS / f"{game.name}.txt"


def main() -> None:
    """Write every playthrough and the perft counts."""
    PLAYTHROUGHS.mkdir(parents=True, exist_ok=True)
    for game in (*GAMES, *PRESET_GAMES):
        path = playthrough_path(game)
        path.write_text(playthrough(game), encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    PERFT.write_text(perft_json(perft_data()), encoding="utf-8")
    print(f"wrote {PERFT}", file=sys.stderr)


if __name__ == "__main__":
    main()
