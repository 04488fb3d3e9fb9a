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
from typing import Final

from chkobba.fishing.captures import captures
from chkobba.fishing.cards import (
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
from chkobba.words.cards import card_short, rank_name, suit_name
from chkobba.words.catalogue import DEFAULT_LANGUAGE, word

_HAYA_BIT = 1 << SEVEN_OF_DIAMONDS
_ONE: dict[str, str] = {"diamonds": "diamond", "denari": "denaro", "oros": "oro", "dénars": "dénar"}
"""The coins' unit (:attr:`PointKey.unit`) for one card."""


@dataclass(frozen=True, slots=True)
class Speech:
    """The language a coach's sentences are in, and the deck whose words name the cards
    (the ``coach`` section of the catalogues, keys ``x_*``). The default, English on
    the French deck, is what records and ``chkobba analyze --json`` have always said."""

    lang: str = DEFAULT_LANGUAGE
    deck: str = "french"

    def say(self, key: str, **values: object) -> str:
        """The sentence ``x_KEY`` in this language, its placeholders filled."""
        return word(self.lang, "coach", f"x_{key}", **values)

    def card(self, card: int) -> str:
        """A card as written in a line (``7♦``, ``7 di denari``)."""
        return card_short(card, self.deck, self.lang)

    def cards(self, mask: int) -> str:
        """The cards of a mask, as the French deck writes them (``7♦ A♥``) or in words."""
        if self.deck == "french":
            return format_cards(mask, " ", pretty=True)
        shown = [self.card(c) for c in range(40) if mask >> c & 1]
        return word(self.lang, "cards", "list").join(shown)

    def rank(self, rank: str) -> str:
        """A rank as the deck names it: the letter on French cards (in English), else the
        digit or the court card's name (``Cavallo``)."""
        if rank.isdigit() or (self.deck == "french" and self.lang == DEFAULT_LANGUAGE):
            return rank
        name = rank_name(rank, self.deck, self.lang)
        return name[:1].upper() + name[1:]


ENGLISH: Final = Speech()
"""English on the French deck: the words the coach has always used."""


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


def a_sweep(rules: RuleSet, sp: Speech = ENGLISH) -> str:
    """One sweep in the rule set's word, with its article: ``a chkobba``, ``an escoba``."""
    sweep = sweep_word(rules)
    return sp.say("an_sweep" if sweep[0] in "aeiou" else "a_sweep", sweep=sweep)


def action(obs: Observation, move: Move, sp: Speech = ENGLISH) -> str:
    """The play itself in words: ``laid 2♥ on Q♠``, ``took 7♦ A♥ with Q♥``."""
    if isinstance(move, Cut):
        card = sp.card(obs.cut_card) if obs.cut_card is not None else sp.say("cut_card")
        return sp.say("kept" if move is Cut.KEEP else "put_on_table", card=card)
    card = sp.card(move.card)
    if not move.capture:
        if obs.table:
            return sp.say("laid_on", card=card, on=sp.cards(obs.table))
        return sp.say("laid_empty", card=card)
    taken = sp.cards(move.capture)
    return sp.say("swept" if move.capture == obs.table else "took", taken=taken, card=card)


def _where(obs: Observation, sp: Speech) -> str:
    # Two players and no stock: every unseen card is in the opponent's hand.
    return sp.say("in_opponent_hand" if obs.stock == 0 and obs.seats == 2 else "still_unseen")


def _ranks(obs: Observation, threats: list[Threat], sp: Speech) -> str:
    where = _where(obs, sp)
    parts = [sp.say("rank_unseen", rank=sp.rank(t.rank), n=t.unseen, where=where) for t in threats]
    return sp.say("or").join(parts)


def _offer(obs: Observation, danger: list[Threat], sp: Speech) -> str:
    sweep = a_sweep(obs.rules, sp)
    if len(danger) > 1:
        return sp.say("offers_any", sweep=sweep, ranks=_ranks(obs, danger, sp))
    return sp.say("offers_one", sweep=sweep, rank=sp.rank(danger[0].rank), n=danger[0].unseen,
                  where=_where(obs, sp))


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


def _coins_unit(rules: RuleSet, n: int, sp: Speech = ENGLISH) -> str:
    if sp.lang != DEFAULT_LANGUAGE:
        # The rule set's unit is an English plural: other languages name the suit.
        return suit_name(2, sp.deck, sp.lang)
    key = next(k for k in rules.scoring if k in POINT_KEYS and POINT_KEYS[k].rule == "coins")
    unit = POINT_KEYS[key].unit
    return _ONE.get(unit, unit) if n == 1 else unit


def facts(obs: Observation, move: Move, sp: Speech = ENGLISH) -> list[str]:
    """What the play gains and what it risks, each a short computed clause.

    The 7♦ in the pile, played or captured, is named by its point in the rule
    set's words (``secures sabʿa l-ḥayya``, ``secures settebello``).
    """
    o = _outcome(obs, move)
    out: list[str] = []
    haya_card = sp.card(SEVEN_OF_DIAMONDS)
    if o.sweep:
        out.append(sp.say("sweep_point", sweep=a_sweep(obs.rules, sp)))
    if o.haya:
        out.append(
            sp.say("secures", point=point_name(obs.rules, "seven_of_coins"), haya=haya_card)
        )
    if o.sevens:
        other = "other_" if point_name(obs.rules, "seven_of_coins") else ""
        out.append(sp.say(f"takes_{other}seven{'s' if o.sevens > 1 else ''}", n=o.sevens))
    if o.coins:
        out.append(sp.say("coins_to_pile", n=o.coins, unit=_coins_unit(obs.rules, o.coins, sp)))
    left = table_after(obs, move)
    if o.offered:
        out.append(_offer(obs, o.offered, sp))
    elif left and not o.captures and sweep_can_follow(obs) and not isinstance(move, Cut):
        # Where some sweeps score nothing (an ace taking the table), say what is meant.
        if not obs.rules.no_sweep:
            out.append(sp.say("no_sweeper", total=_total(left)))
        else:
            out.append(
                sp.say("no_scoring_sweeper", sweep=a_sweep(obs.rules, sp), total=_total(left))
            )
    if o.taken_back is not None and isinstance(move, Play):
        # What the laid card gives away: the next player may take it back.
        card = sp.card(move.card)
        reach = o.taken_back
        if not reach:
            out.append(sp.say("none_take", card=card))
        elif len(reach) <= 2:
            out.append(sp.say("taken_by_any", card=card, ranks=_ranks(obs, reach, sp)))
        else:
            ranks = ", ".join(sp.rank(t.rank) for t in reach)
            unseen = sum(t.unseen for t in reach)
            out.append(sp.say("taken_by_many", card=card, ranks=ranks, n=unseen))
    if o.haya_reach:
        out.append(sp.say("leaves_haya", haya=haya_card, ranks=_ranks(obs, o.haya_reach, sp)))
    return out


def _cards(n: int, sp: Speech) -> str:
    if n == 0:
        return sp.say("none")
    return sp.say("unseen_cards" if n > 1 else "unseen_card", n=n)


def difference(obs: Observation, move: Move, best: Move, sp: Speech = ENGLISH) -> str:
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
    sweep = a_sweep(rules, sp)
    # Scopa a perdere: the fewest points win, so a gain counts the other way.
    up = -1 if rules.lowest_wins else 1
    said: list[str] = []
    if up > 0 and b.captures and not m.captures:
        # What it takes is in the better play's own words: no need to list it again.
        said.append(sp.say("better_captures"))
    else:
        said += _gains(rules, b, m, up, sp)
    ob, om = sum(t.unseen for t in b.offered), sum(t.unseen for t in m.offered)
    if (om - ob) * up > 0:
        if ob == 0:
            said.append(sp.say("made_offers_none", offer=_offer(obs, m.offered, sp)))
        else:
            said.append(
                sp.say("offers_compare", sweep=sweep, made=_cards(om, sp), better=_cards(ob, sp))
            )
    hb, hm = sum(t.unseen for t in b.haya_reach), sum(t.unseen for t in m.haya_reach)
    if (hm - hb) * up > 0:
        said.append(
            sp.say("haya_compare", haya=sp.card(SEVEN_OF_DIAMONDS), made=_cards(hm, sp),
                   better=_cards(hb, sp))
        )
    if b.taken_back is not None and m.taken_back is not None:
        tb, tm = sum(t.unseen for t in b.taken_back), sum(t.unseen for t in m.taken_back)
        if (tm - tb) * up > 0:
            said.append(sp.say("taken_compare", made=_cards(tm, sp), better=_cards(tb, sp)))
    if not said:
        return sp.say("no_difference")
    return "; ".join(said)


def _gains(rules: RuleSet, b: _Outcome, m: _Outcome, up: int, sp: Speech) -> list[str]:
    """The points taken at once where the better play ``b`` does better than ``m``."""
    said = []
    sweep = a_sweep(rules, sp)
    haya = point_name(rules, "seven_of_coins")
    if (b.sweep - m.sweep) * up > 0:
        said.append(sp.say("better_scores" if up > 0 else "made_scores", sweep=sweep))
    if (b.haya - m.haya) * up > 0:
        said.append(sp.say("better_secures" if up > 0 else "made_secures", point=haya))
    other = "other_" if haya else ""
    counted: list[tuple[int, int, Callable[[int], str]]] = [
        (b.cards, m.cards, lambda n: sp.say("n_card" if n == 1 else "n_cards", n=n)),
        (b.sevens, m.sevens, lambda n: sp.say(f"n_{other}seven{'' if n == 1 else 's'}", n=n)),
    ]
    if has_rule(rules.scoring, "coins"):
        counted.append(
            (b.coins, m.coins, lambda n: sp.say("n_coins", n=n, unit=_coins_unit(rules, n, sp)))
        )
    for nb, nm, noun in counted:
        if (nb - nm) * up > 0:
            made = noun(nm) if nm else sp.say("none")
            said.append(sp.say("better_takes", better=noun(nb), made=made))
    return said


def _total(table: int) -> int:
    return sum(c % 10 + 1 for c in range(40) if table >> c & 1)


def sentence(obs: Observation, move: Move, sp: Speech = ENGLISH) -> str:
    """The play and its facts in one line: ``laid 2♥ on Q♠: offers a chkobba to any …``
    (in ``sp``'s language and deck: ``posato 2 di coppe su …``)."""
    said = facts(obs, move, sp)
    head = action(obs, move, sp)
    return sp.say("sentence", head=head, facts="; ".join(said)) if said else head
