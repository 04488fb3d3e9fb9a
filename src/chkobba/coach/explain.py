"""Plays in words, from facts computed on the observation (never canned).

What a coach says about a play is what a good player checks (the seeds): the
cards it takes (the 7♦, 7s, diamonds, a chkobba), and what it leaves to the
next player: which ranks would sweep the table it leaves, and how many cards of
those ranks the player has not seen yet (:attr:`Observation.unseen`: they may
be in an opponent's hand); and whether it leaves the 7♦ within reach.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chkobba.captures import captures
from chkobba.cards import (
    CARDS,
    DIAMONDS_MASK,
    RANKS,
    SEVEN_OF_DIAMONDS,
    SEVENS_MASK,
    format_cards,
    rank_mask,
)
from chkobba.moves import Cut, Move, Play
from chkobba.narrate import sweep_word
from chkobba.observe import Observation

_HAYA_BIT = 1 << SEVEN_OF_DIAMONDS


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


def facts(obs: Observation, move: Move) -> list[str]:
    """What the play gains and what it risks, each a short computed clause."""
    out: list[str] = []
    if isinstance(move, Play) and move.capture:
        gained = move.capture | 1 << move.card
        last = obs.plays_left <= 1
        if move.capture == obs.table and not last and not obs.rules.no_sweep >> move.card & 1:
            out.append(f"a {sweep_word(obs.rules)} (1 point)")
        if move.capture & _HAYA_BIT:
            out.append("takes the 7♦")
        sevens = (gained & SEVENS_MASK & ~_HAYA_BIT).bit_count()
        if sevens:
            out.append(f"takes {sevens} other 7{'s' if sevens > 1 else ''}")
        diamonds = (gained & DIAMONDS_MASK).bit_count()
        if diamonds:
            out.append(f"{diamonds} diamond{'s' if diamonds > 1 else ''} to the pile")
    left = table_after(obs, move)
    # Nothing to fear once nobody plays again; a cut decision is followed by the deal.
    if obs.plays_left > 1 and not isinstance(move, Cut):
        danger = [t for t in sweepers(obs, left) if t.unseen]
        if danger:
            word = sweep_word(obs.rules)
            out.append(
                f"offers a {word} to any {_ranks(obs, danger)}"
                if len(danger) > 1
                else f"offers a {word} to any {danger[0].rank} — "
                f"{danger[0].unseen} of 4 {_where(obs)}"
            )
        elif left and not (isinstance(move, Play) and move.capture):
            out.append(f"no unseen card sweeps the table it leaves (total {_total(left)})")
        if isinstance(move, Play) and not move.capture and move.card != SEVEN_OF_DIAMONDS:
            # What the laid card gives away: the next player may take it back.
            card = CARDS[move.card].pretty()
            reach = [t for t in takers(obs, left, move.card) if t.unseen]
            if not reach:
                out.append(f"no unseen card can take {card}")
            elif len(reach) <= 2:
                out.append(f"{card} can be taken by any {_ranks(obs, reach)}")
            else:
                ranks = ", ".join(t.rank for t in reach)
                unseen = sum(t.unseen for t in reach)
                out.append(f"{card} can be taken by any {ranks} ({unseen} such cards unseen)")
        if left & _HAYA_BIT and not (isinstance(move, Play) and move.capture & _HAYA_BIT):
            reach = [t for t in takers(obs, left, SEVEN_OF_DIAMONDS) if t.unseen]
            if reach:
                out.append(f"leaves the 7♦ to any {_ranks(obs, reach)}")
    return out


def _total(table: int) -> int:
    return sum(c % 10 + 1 for c in range(40) if table >> c & 1)


def sentence(obs: Observation, move: Move) -> str:
    """The play and its facts in one line: ``laid 2♥ on Q♠: offers a chkobba to any …``."""
    said = facts(obs, move)
    head = action(obs, move)
    return f"{head}: {'; '.join(said)}" if said else head


_CARD = re.compile(r"[A2-7QJK][♠♥♦♣]")
_RANK = re.compile(r"\b(any) [A2-7QJK]\b")


def kinds(said: list[str]) -> set[str]:
    """The facts without their cards and figures, to tell whether two plays differ in kind."""
    return {re.sub(r"\d+", "#", _RANK.sub(r"\1 R", _CARD.sub("C", f))) for f in said}
