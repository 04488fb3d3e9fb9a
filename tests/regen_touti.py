"""Regenerate the Touti reference playthroughs checked in under tests/data/touti/.

Run ``.venv/bin/python tests/regen_touti.py`` after an intended change in
behaviour and review the diff before committing it; ``tests/test_touti_playthroughs.py``
regenerates the same text and compares, so any unintended change shows as a diff.

A playthrough (after OpenSpiel's ``integration_tests/playthroughs``) is a seeded
match written state by state: the seat to move, its observation
(``ToutiObservation.render()``), every legal move, and the move applied (chosen
by a seeded ``random.Random``, passing often in the bidding so that contracts
stay low); then each deal's score. *Perft* (python-chess ``examples/perft``)
counts the leaves of the move tree along fixed seeded deals, two tricks deep.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chkobba.touti.deal import Deal, Phase
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import Bid, Call, Trump
from chkobba.touti.observe import observe
from chkobba.touti.rules import ToutiRules

DATA = Path(__file__).parent / "data" / "touti"


@dataclass(frozen=True)
class Game:
    """One seeded playthrough: options, the match's seed and the chooser's, deals to play."""

    name: str
    seed: int
    choices: int
    deals: int
    options: dict[str, Any] = field(default_factory=dict)


GAMES = [
    Game("default", seed=1, choices=1, deals=2),
    Game("kaddour-semi", seed=2, choices=2, deals=2, options={"kaddour": True, "talk": "semi"}),
    Game("claims-next-dealer", seed=3, choices=3, deals=3,
         options={"claim": "opponents-take-rest", "all_pass": "next-dealer"}),
    Game("parle-best-three", seed=4, choices=4, deals=3,
         options={"talk": "parle", "claim": "opponents-take-best-three"}),
]


def choose(m: ToutiMatch, rng: random.Random) -> Any:
    """The chooser: uniformly random, except that it passes half the time in the bidding."""
    moves = m.legal_moves()
    if m.deal.phase is Phase.BID and Call.PASS in moves and rng.random() < 0.5:
        return Call.PASS
    return rng.choice(moves)


def playthrough(game: Game) -> str:
    """The playthrough's text."""
    m = ToutiMatch(ToutiRules.from_options(game.options), seed=game.seed)
    rng = random.Random(game.choices)
    out = [f"game {game.name} seed {game.seed} choices {game.choices} options {game.options}"]
    while not m.is_over and len(m.finished) < game.deals:
        obs = observe(m, m.turn)
        out.append(obs.render())
        out.append("  legal: " + " ".join(str(x) for x in obs.legal_moves))
        move = choose(m, rng)
        out.append(f"  seat {m.turn} plays {move}")
        before = len(m.finished)
        m.apply(move)
        if len(m.finished) > before:
            d = m.finished[-1]
            out.append(f"deal over: {d.score.to_json() if d.score else 'no contract'}")
            out.append(f"totals {m.totals}")
    return "\n".join(out) + "\n"


PERFT = DATA / "perft.json"
PERFT_DEALS = (1, 2, 3)
PERFT_DEPTH = 8
"""Two tricks (plus any announcement decisions) from the first lead."""


def perft_start(seed: int) -> Deal:
    """A seeded deal after a fixed bidding: the seat after the dealer bids 70, the
    others pass, and the declarer names the suit of the first card of its hand."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    d = Deal(seed % 4, deck)
    d.apply(Bid(70))
    for _ in range(3):
        d.apply(Call.PASS)
    low = d.hands[d.turn] & -d.hands[d.turn]
    d.apply(Trump((low.bit_length() - 1) // 10))
    return d


def perft(d: Deal, depth: int) -> int:
    """Leaf nodes of the move tree below ``d`` to ``depth`` moves (python-chess perft)."""
    if depth == 0 or d.is_over:
        return 1
    total = 0
    for m in d.legal_moves():
        c = d.copy()
        c.apply_unchecked(m)
        total += perft(c, depth - 1)
    return total


def perft_counts() -> dict[str, list[int]]:
    """For each perft deal, the leaf counts at depths 1 to PERFT_DEPTH."""
    return {
        str(seed): [perft(perft_start(seed), k) for k in range(1, PERFT_DEPTH + 1)]
        for seed in PERFT_DEALS
    }


def path_of(game: Game) -> Path:
    """Where a playthrough is checked in."""
    return DATA / f"{game.name}.txt"


def main() -> None:
    """Write every playthrough."""
    DATA.mkdir(parents=True, exist_ok=True)
    for g in GAMES:
        path_of(g).write_text(playthrough(g), encoding="utf-8")
        print(f"wrote {path_of(g)}", file=sys.stderr)
    PERFT.write_text(json.dumps(perft_counts(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PERFT}", file=sys.stderr)


if __name__ == "__main__":
    main()
