"""Plays in words, from facts computed on the observation (never canned).

What a coach says about a play is what a good player checks (the seeds): the
cards it takes (the 7♦, 7s, diamonds, a chkobba), and what it leaves to the
next player: which ranks would sweep the table it leaves, and how many cards of
those ranks the player has not seen yet (:attr:`Observation.unseen`: they may
be in an opponent's hand); and whether it leaves the 7♦ within reach. Points
are named in the rule set's own words (:data:`chkobba.fishing.scoring.POINT_KEYS`), and
a fact about a point the rule set does not score is left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from chkobba.fishing.captures import captures
from chkobba.fishing.cards import (
    CARDS,
    DIAMONDS_MASK,
    FULL_DECK,
    RANKS,
    SEVEN_OF_DIAMONDS,
    SEVENS_MASK,
    format_cards,
    rank_mask,
)
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.narrate import sweep_word
from chkobba.fishing.observe import Observation
from chkobba.fishing.rules import RuleSet
from chkobba.fishing.scoring import POINT_KEYS, has_rule

_HAYA_BIT = 1 << SEVEN_OF_DIAMONDS
_ONE: dict[str, str] = {"diamonds": "diamond", "denari": "denaro", "oros": "oro", "dénars": "dénar"}
"""The coins' unit (:attr:`PointKey.unit`) for one card."""


@dataclass(frozen=True, slots=True)
class Threat:
    """Cards of one rank that could take something from the table a play leaves."""

    rank: str
    """The rank letter (A … K)."""
    unseen: int
    """How many of the rank's four cards the player has not seen."""


def sweepers(obs: Observation, table: int) -> list[Threat]:
    """The ranks whose card would sweep ``table`` (every card of it in one capture).

    Computed with the rule set's captures (matching first, additions, fifteen…).
    """
    if not table:
        return []
    out = []
    for value in range(1, 11):
        if any(c == table for c in captures(value, table, obs.rules)):
            out.append(Threat(RANKS[value - 1], (obs.unseen & rank_mask(value)).bit_count()))
    return out


def sweep_can_follow(obs: Observation) -> bool:
    """Whether the play after the observer's may score a sweep.

    :attr:`Observation.plays_left` counts the observer's own play, so the plays
    left after it, every seat's counted, are one fewer. The next play scores no
    sweep when it is the round's last (docs/rules.md §2.4): at least two plays must
    remain after the observer's. (Nor in a rule set whose sweeps score nothing.)
    """
    return obs.plays_left - 1 >= 2 and obs.rules.no_sweep != FULL_DECK


def sweep_threats(obs: Observation, table: int) -> list[Threat]:
    """The ranks of which an unseen card would score a sweep of ``table`` at the next play.

    None when the next play is the round's last (:func:`sweep_can_follow`); a
    card whose sweep the rules give no point (an ace taking the table, Scopa
    Frac) is not counted. The plays in words and the trainer's "is this lay
    safe?" both ask this.
    """
    if not sweep_can_follow(obs):
        return []
    out = []
    for t in sweepers(obs, table):
        scoring = obs.unseen & rank_mask(RANKS.index(t.rank) + 1) & ~obs.rules.no_sweep
        if scoring:
            out.append(Threat(t.rank, scoring.bit_count()))
    return out


def takers(obs: Observation, table: int, target: int) -> list[Threat]:
    """The ranks whose card could capture the card ``target`` from ``table``."""
    out = []
    for value in range(1, 11):
        if any(c >> target & 1 for c in captures(value, table, obs.rules)):
            out.append(Threat(RANKS[value - 1], (obs.unseen & rank_mask(value)).bit_count()))
    return out


def table_after(obs: Observation, move: Move) -> int:
    """The table once ``move`` is made (a cut decision leaves it unknown here: unchanged)."""
    if isinstance(move, Cut):
        if move is Cut.TABLE and obs.cut_card is not None:
            return obs.table | 1 << obs.cut_card
        return obs.table
    return obs.table ^ move.capture if move.capture else obs.table | 1 << move.card


def point_name(rules: RuleSet, rule: str) -> str | None:
    """The rule set's own name for the point following ``rule`` (``sabʿa l-ḥayya``,
    ``settebello``…), or None if the rule set does not score it."""
    key = next((k for k in rules.scoring if k in POINT_KEYS and POINT_KEYS[k].rule == rule), None)
    return None if key is None else POINT_KEYS[key].label


def a_sweep(rules: RuleSet) -> str:
    """One sweep in the rule set's word, with its article: ``a chkobba``, ``an escoba``."""
    word = sweep_word(rules)
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def action(obs: Observation, move: Move) -> str:
    """The play itself in words: ``laid 2♥ on Q♠``, ``took 7♦ A♥ with Q♥``."""
    if isinstance(move, Cut):
        card = CARDS[obs.cut_card].pretty() if obs.cut_card is not None else "the cut card"
        return f"kept {card}" if move is Cut.KEEP else f"put {card} on the table"
    card = CARDS[move.card].pretty()
    if not move.capture:
        on = format_cards(obs.table, " ", pretty=True)
        return f"laid {card} on {on}" if on else f"laid {card} on the empty table"
    taken = format_cards(move.capture, " ", pretty=True)
    if move.capture == obs.table:
        return f"swept {taken} with {card}"
    return f"took {taken} with {card}"


def _where(obs: Observation) -> str:
    # Two players and no stock: every unseen card is in the opponent's hand.
    return "in the opponent's hand" if obs.stock == 0 and obs.seats == 2 else "still unseen"


def _ranks(obs: Observation, threats: list[Threat]) -> str:
    parts = [f"{t.rank} ({t.unseen} of 4 {_where(obs)})" for t in threats]
    return " or ".join(parts)


def _offer(obs: Observation, danger: list[Threat]) -> str:
    word = a_sweep(obs.rules)
    if len(danger) > 1:
        return f"offers {word} to any {_ranks(obs, danger)}"
    return f"offers {word} to any {danger[0].rank} — {danger[0].unseen} of 4 {_where(obs)}"


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What a play does at once, counted for the points the rule set scores."""

    captures: bool
    sweep: int
    """1 if the play scores a sweep."""
    haya: int
    """1 if the play puts the 7♦ in the side's pile and the 7♦ scores a point."""
    cards: int
    """The cards it puts in the pile (0 for a lay, or if the rules do not count cards)."""
    sevens: int
    """The 7s it puts in the pile (the 7♦ not among them when it is a point of its own)."""
    coins: int
    """The diamonds (the game's coins) it puts in the pile."""
    offered: list[Threat]
    """The unseen cards that would score a sweep of the table it leaves."""
    haya_reach: list[Threat]
    """The unseen cards that could take the 7♦ it leaves on the table."""
    taken_back: list[Threat] | None
    """For a lay (of another card than the 7♦), the unseen cards that could take it."""


def _outcome(obs: Observation, move: Move) -> _Outcome:
    rules = obs.rules
    scoring = rules.scoring
    haya_scores = point_name(rules, "seven_of_coins") is not None
    gained = move.capture | 1 << move.card if isinstance(move, Play) and move.capture else 0
    sweep = int(
        isinstance(move, Play)
        and bool(move.capture)
        and move.capture == obs.table
        and obs.plays_left > 1  # not the round's last play (docs/rules.md §2.4)
        and not rules.no_sweep >> move.card & 1
    )
    sevens = gained & SEVENS_MASK & ~(_HAYA_BIT if haya_scores else 0)
    left = table_after(obs, move)
    # Nothing to fear once nobody plays again; a cut decision is followed by the deal.
    follows = obs.plays_left > 1 and not isinstance(move, Cut)
    offered = sweep_threats(obs, left) if follows else []
    haya_reach: list[Threat] = []
    if follows and haya_scores and left & _HAYA_BIT:
        haya_reach = [t for t in takers(obs, left, SEVEN_OF_DIAMONDS) if t.unseen]
    taken_back = None
    if follows and isinstance(move, Play) and not move.capture and move.card != SEVEN_OF_DIAMONDS:
        taken_back = [t for t in takers(obs, left, move.card) if t.unseen]
    return _Outcome(
        captures=bool(gained),
        sweep=sweep,
        haya=int(haya_scores and bool(gained & _HAYA_BIT)),
        cards=gained.bit_count() if has_rule(scoring, "cards") else 0,
        sevens=sevens.bit_count()
        if has_rule(scoring, "sevens") or has_rule(scoring, "primiera")
        else 0,
        coins=(gained & DIAMONDS_MASK).bit_count() if has_rule(scoring, "coins") else 0,
        offered=offered,
        haya_reach=haya_reach,
        taken_back=taken_back,
    )


def _coins_unit(rules: RuleSet, n: int) -> str:
    key = next(k for k in rules.scoring if k in POINT_KEYS and POINT_KEYS[k].rule == "coins")
    unit = POINT_KEYS[key].unit
    return _ONE.get(unit, unit) if n == 1 else unit


def facts(obs: Observation, move: Move) -> list[str]:
    """What the play gains and what it risks, each a short computed clause.

    The 7♦ in the pile, played or captured, is named by its point in the rule
    set's words (``secures sabʿa l-ḥayya``, ``secures settebello``).
    """
    o = _outcome(obs, move)
    out: list[str] = []
    if o.sweep:
        out.append(f"{a_sweep(obs.rules)} (1 point)")
    if o.haya:
        out.append(f"secures {point_name(obs.rules, 'seven_of_coins')} (the 7♦, 1 point)")
    if o.sevens:
        other = " other" if point_name(obs.rules, "seven_of_coins") else ""
        out.append(f"takes {o.sevens}{other} 7{'s' if o.sevens > 1 else ''}")
    if o.coins:
        out.append(f"{o.coins} {_coins_unit(obs.rules, o.coins)} to the pile")
    left = table_after(obs, move)
    if o.offered:
        out.append(_offer(obs, o.offered))
    elif left and not o.captures and sweep_can_follow(obs) and not isinstance(move, Cut):
        # Where some sweeps score nothing (an ace taking the table), say what is meant.
        verb = "sweeps" if not obs.rules.no_sweep else f"scores {a_sweep(obs.rules)} on"
        out.append(f"no unseen card {verb} the table it leaves (total {_total(left)})")
    if o.taken_back is not None and isinstance(move, Play):
        # What the laid card gives away: the next player may take it back.
        card = CARDS[move.card].pretty()
        reach = o.taken_back
        if not reach:
            out.append(f"no unseen card can take {card}")
        elif len(reach) <= 2:
            out.append(f"{card} can be taken by any {_ranks(obs, reach)}")
        else:
            ranks = ", ".join(t.rank for t in reach)
            unseen = sum(t.unseen for t in reach)
            out.append(f"{card} can be taken by any {ranks} ({unseen} such cards unseen)")
    if o.haya_reach:
        out.append(f"leaves the 7♦ to any {_ranks(obs, o.haya_reach)}")
    return out


def _cards(n: int) -> str:
    return "none" if n == 0 else f"{n} unseen card{'s' if n > 1 else ''}"


def difference(obs: Observation, move: Move, best: Move) -> str:
    """Why ``best`` is better than ``move``, as far as it shows at once, in words.

    Each clause is a computed difference in the better play's favour: it
    captures where the play made lays, it takes more of what scores, or the play
    made offers a sweep (or the 7♦, or its laid card) to more unseen cards. When
    nothing differs at once the words say that the difference comes later in the
    round, as the expert's search sees it. Under ``lowest_wins`` (Scopa a
    perdere) taking fewer points and offering more is what is better.
    """
    b, m = _outcome(obs, best), _outcome(obs, move)
    rules = obs.rules
    word = a_sweep(rules)
    # Scopa a perdere: the fewest points win, so a gain counts the other way.
    up = -1 if rules.lowest_wins else 1
    said: list[str] = []
    if up > 0 and b.captures and not m.captures:
        # What it takes is in the better play's own words: no need to list it again.
        said.append("the better play captures, the play made lays")
    else:
        said += _gains(rules, b, m, up)
    ob, om = sum(t.unseen for t in b.offered), sum(t.unseen for t in m.offered)
    if (om - ob) * up > 0:
        if ob == 0:
            said.append(f"the play made {_offer(obs, m.offered)}; the better play offers none")
        else:
            said.append(
                f"the play made offers {word} to {_cards(om)}, the better play to {_cards(ob)}"
            )
    hb, hm = sum(t.unseen for t in b.haya_reach), sum(t.unseen for t in m.haya_reach)
    if (hm - hb) * up > 0:
        said.append(f"the play made leaves the 7♦ to {_cards(hm)}, the better play to {_cards(hb)}")
    if b.taken_back is not None and m.taken_back is not None:
        tb, tm = sum(t.unseen for t in b.taken_back), sum(t.unseen for t in m.taken_back)
        if (tm - tb) * up > 0:
            said.append(
                f"the card laid can be taken by {_cards(tm)}, the better play's by {_cards(tb)}"
            )
    if not said:
        return "no difference shows at once: it comes later in the round"
    return "; ".join(said)


def _gains(rules: RuleSet, b: _Outcome, m: _Outcome, up: int) -> list[str]:
    """The points taken at once where the better play ``b`` does better than ``m``."""
    said = []
    word = a_sweep(rules)
    haya = point_name(rules, "seven_of_coins")
    if (b.sweep - m.sweep) * up > 0:
        said.append(
            f"the better play scores {word}"
            if up > 0
            else f"the play made scores {word}, the better play does not"
        )
    if (b.haya - m.haya) * up > 0:
        said.append(
            f"the better play secures {haya}"
            if up > 0
            else f"the play made secures {haya}, the better play does not"
        )
    other = " other" if haya else ""
    counted: list[tuple[int, int, Callable[[int], str]]] = [
        (b.cards, m.cards, lambda n: f"{n} card{'s' if n != 1 else ''}"),
        (b.sevens, m.sevens, lambda n: f"{n}{other} 7{'s' if n != 1 else ''}"),
    ]
    if has_rule(rules.scoring, "coins"):
        counted.append((b.coins, m.coins, lambda n: f"{n} {_coins_unit(rules, n)}"))
    for nb, nm, noun in counted:
        if (nb - nm) * up > 0:
            said.append(f"the better play takes {noun(nb)}, the play made {nm or 'none'}")
    return said


def _total(table: int) -> int:
    return sum(c % 10 + 1 for c in range(40) if table >> c & 1)


def sentence(obs: Observation, move: Move) -> str:
    """The play and its facts in one line: ``laid 2♥ on Q♠: offers a chkobba to any …``."""
    said = facts(obs, move)
    head = action(obs, move)
    return f"{head}: {'; '.join(said)}" if said else head
