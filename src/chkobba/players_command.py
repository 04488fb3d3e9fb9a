"""``chkobba players``: every player and level, what it is, and how strong it measured.

The strengths are not computed here: each is a figure a duel printed, copied with the
place it is documented and the command that plays it again (``tests/test_players.py``
checks that every figure is still in the document it cites).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Final

import click


@dataclass(frozen=True, slots=True)
class Strength:
    """One measured margin: A's points minus B's per deal, with its 95% interval."""

    versus: str
    """B, the player measured against."""
    margin: str
    interval: str
    pairs: int
    source: str
    """The document (and section) where the figure is, as it appears there."""
    command: str
    """The command that plays the duel again."""


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player name and what it does; its level's name, and its measured strength."""

    game: str
    name: str
    level: str
    what: str
    strength: Strength | None = None
    note: str = ""


_LEVELS: Final = "docs/variants.md, The levels on every preset (chkobba, 2 players)"
_LADDER: Final = "docs/variants.md, The ladder on every preset (chkobba, 2 players)"
_CHKOBBA_LADDER: Final = "python bench/strength.py --chkobba-ladder --levels --pairs 1000 --seed 1"
_OPENSPIEL: Final = "docs/rl.md, OpenSpiel's bots as players"
_TOUTI: Final = "docs/touti.md, Its strength"

PLAYERS: Final[tuple[PlayerInfo, ...]] = (
    PlayerInfo(
        "chkobba", "random", "", "a uniformly random legal play (the baseline)",
        note="the baseline: greedy beats it (below)",
    ),
    PlayerInfo(
        "chkobba", "greedy", "easy",
        "takes the capture worth most now; lays its least valuable card",
        Strength("random", "+1.86", "+1.51 to +2.22", 100, _LADDER,
                 "chkobba duel greedy random --rules chkobba --pairs 100 --seed 1 --jobs 1"),
    ),
    PlayerInfo(
        "chkobba", "heuristic", "medium",
        "counts the unseen cards, weighs what the next player could take, sets traps",
        Strength("easy", "+0.98", "+0.88 to +1.07", 1000, _LEVELS, _CHKOBBA_LADDER),
    ),
    PlayerInfo(
        "chkobba", "hard", "hard", "the expert's search with 300 sampled deals a move",
        Strength("medium", "+0.26", "+0.17 to +0.36", 1000, _LEVELS, _CHKOBBA_LADDER),
    ),
    PlayerInfo(
        "chkobba", "expert", "expert",
        "determinized search: 6,000 sampled deals a move, weighed by the plays seen; "
        "exact endgames",
        Strength("hard", "+0.13", "+0.04 to +0.22", 1000, _LEVELS, _CHKOBBA_LADDER),
        note="+0.45 (+0.36 to +0.53) over medium, same source",
    ),
    PlayerInfo(
        "chkobba", "neural", "",
        "a learned player, no search: a small network distilled from the expert's "
        "decisions (NumPy, under a millisecond a move; Chkobba's and Scopa's own weights)",
        Strength("heuristic", "+0.02", "-0.07 to +0.11", 1000,
                 "docs/rl.md, The learned player (neural)",
                 "chkobba duel neural heuristic --rules chkobba --pairs 1000 --seed 10002 "
                 "--jobs 1"),
        note="level with heuristic in 2 players (Scopa +0.02, -0.05 to +0.09); above it "
        "2 against 2: Chkobba +0.19, +0.09 to +0.29 (--players 4 --seed 10006; same source)",
    ),
    PlayerInfo(
        "chkobba", "openspiel-ismcts", "",
        "OpenSpiel's ISMCTSBot, 100 simulations (needs chkobba[openspiel])",
        Strength("greedy", "+0.84", "+0.51 to +1.17", 100, _OPENSPIEL,
                 "chkobba duel openspiel-ismcts greedy --pairs 100 --seed 1"),
    ),
    PlayerInfo(
        "chkobba", "openspiel-mcts", "",
        "OpenSpiel's MCTSBot on one sampled deal (needs chkobba[openspiel])",
        Strength("greedy", "+0.28", "-0.11 to +0.66", 100, _OPENSPIEL,
                 "chkobba duel openspiel-mcts greedy --pairs 100 --seed 1"),
    ),
    PlayerInfo(
        "chkobba", "policy:PATH", "",
        "a trained policy file (docs/rl.md); the committed "
        "examples/policies/ppo_vs_random.npz:",
        Strength("random", "+1.25", "+1.09 to +1.40", 500,
                 "docs/rl.md, A worked training example: MaskablePPO",
                 "chkobba duel policy:examples/policies/ppo_vs_random.npz random --pairs 500 "
                 "--seed 2026"),
    ),
    PlayerInfo(
        "chkobba", "engine:COMMAND", "",
        "an outside program speaking docs/engine-protocol.md (engine:COMMAND@2s: 2 s a move)",
        note="as strong as the program: measure it with chkobba duel engine:COMMAND greedy",
    ),
    PlayerInfo(
        "chkobba", "cheater", "",
        "sees every card (duels only: an upper bound for measurements)",
        note="upper bound; bench/strength.py --chkobba-ladder measures it",
    ),
    PlayerInfo(
        "chkobba", "peeker", "",
        "the expert's search shown the other hands, not the stock (duels only)",
        note="upper bound; bench/strength.py --chkobba-ladder measures it",
    ),
    PlayerInfo(
        "chkobba", "peeker-played", "",
        "the peeker, shown only the hands of seats that have played in the deal (duels only)",
        note="bench/information.py measures it",
    ),
    PlayerInfo(
        "chkobba", "peeker-unplayed", "",
        "the peeker, shown only the hands of seats yet to play in the deal (duels only)",
        note="bench/information.py measures it",
    ),
    PlayerInfo(
        "touti", "random", "", "a uniformly random legal move (the baseline)",
        note="the baseline: technique beats it (below)",
    ),
    PlayerInfo(
        "touti", "technique", "",
        "rule-based bidding, signalling and card play (docs/touti.md)",
        Strength("random", "+208.6", "+205.2 to +211.9", 300, _TOUTI,
                 "python bench/touti_strength.py --pairs 300 --seed 1 --jobs 1"),
    ),
    PlayerInfo(
        "touti", "search", "",
        "determinized Monte Carlo, 24 sampled deals a card, technique playouts",
        Strength("technique", "+17.5", "+13.1 to +21.9", 300, _TOUTI,
                 "python bench/touti_strength.py --pairs 300 --seed 1 --jobs 1"),
    ),
    PlayerInfo(
        "touti", "engine:COMMAND", "",
        "an outside program speaking docs/engine-protocol.md",
        note="as strong as the program: measure it with chkobba duel --game touti",
    ),
)  # fmt: skip
"""Every player of each game, in order of strength within its kind."""

_GAME_WORDS: Final = {
    "chkobba": "Chkobba and the Scopa family (points a deal, 2 players, Chkobba)",
    "touti": "Touti (--game touti; match points a deal, 2 against 2)",
}


def player_lines(game: str | None = None) -> list[str]:
    """The players as text: per game a table of level, name, what it does, strength."""
    lines: list[str] = []
    for g, title in _GAME_WORDS.items():
        if game is not None and g != game:
            continue
        rows = [p for p in PLAYERS if p.game == g]
        if lines:
            lines.append("")
        lines.append(title)
        name_w = max(len(p.name) for p in rows)
        level_w = max(len("level"), *(len(p.level) for p in rows))
        lines.append(f"  {'level':<{level_w}}  {'player':<{name_w}}  what it is; strength")
        pad = " " * (6 + level_w + name_w)
        for p in rows:
            lines.append(f"  {p.level or '':<{level_w}}  {p.name:<{name_w}}  {p.what}")
            s = p.strength
            if s is not None:
                lines.append(f"{pad}{s.margin} ({s.interval}) over {s.versus}, {s.pairs:,} pairs")
                lines.append(f"{pad}  from {s.source}; again: {s.command}")
            if p.note:
                lines.append(f"{pad}{p.note}")
    lines += [
        "",
        "Margins: the player's points minus the other's per deal in duplicate deals, "
        "with the 95% interval; each figure is as documented where cited, and its "
        "command plays it again.",
    ]
    return lines


@click.command("players")
@click.option(
    "--game", "game_name", type=click.Choice(list(_GAME_WORDS)), default=None,
    help="Only this game's players (default: every game's).",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the players as JSON.")
def players(game_name: str | None, as_json: bool) -> None:
    """List every player and level with what it does and its measured strength.

    A player is named this way wherever one is asked for (play --opponent,
    duel, tournament, simulate, serve --player). Each strength is a duplicate
    duel's margin, copied from the document cited beside it, with the command
    that plays it again.
    """
    chosen = [p for p in PLAYERS if game_name is None or p.game == game_name]
    if as_json:
        click.echo(json.dumps([asdict(p) for p in chosen], ensure_ascii=False))
        return
    for line in player_lines(game_name):
        click.echo(line)
