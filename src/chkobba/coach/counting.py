"""The card-counting trainer: questions on the cards still unseen, and their answers.

What separates a good player from a beginner (the seeds) is counting the cards
that have fallen and not offering a chkobba. At moments of the game the trainer
asks one of: which cards of a rank are still unseen, which cards of a suit are,
or whether laying a card from the hand is safe from a sweep. Every answer is
computed from the player's :class:`~chkobba.fishing.observe.Observation` (its
``unseen`` cards, and the rule set's captures), never from hidden cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from chkobba.coach.explain import ENGLISH, Speech, a_sweep, sweep_can_follow, sweep_threats
from chkobba.fishing.cards import (
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    CardError,
    cards_of,
    format_cards,
    parse_cards,
    rank_mask,
)
from chkobba.fishing.moves import Play
from chkobba.fishing.narrate import sweep_word
from chkobba.fishing.observe import Observation
from chkobba.words import DEFAULT_LANGUAGE, LANGUAGES
from chkobba.words.cards import suit_name

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


@dataclass(frozen=True, slots=True)
class Question:
    """One trainer question and its computed answer."""

    kind: str
    """``rank``, ``suit`` or ``safe``."""
    prompt: str
    answer: int | bool
    """A card set (``rank``, ``suit``) or whether the lay is safe (``safe``)."""
    why: str
    """The answer explained, in words."""
    rank: int = 0
    """The value asked about (``rank``), or the suit index (``suit``)."""
    said: dict[str, tuple[str, str]] = field(default_factory=dict)
    """:attr:`prompt` and :attr:`why` in every language, the cards in the deck's words."""

    def prompt_in(self, lang: str) -> str:
        """:attr:`prompt` in ``lang`` (the English when the question was not asked in it)."""
        return self.said[lang][0] if lang in self.said else self.prompt

    def why_in(self, lang: str) -> str:
        """:attr:`why` in ``lang``."""
        return self.said[lang][1] if lang in self.said else self.why

    def answer_text(self) -> str:
        """The right answer as the player would type it."""
        if isinstance(self.answer, bool):
            return "yes" if self.answer else "no"
        return format_cards(self.answer, " ", pretty=True) or "none"

    def to_json(self) -> dict[str, Any]:
        """The question for the web page (the answer included: the page checks it)."""
        return {
            "kind": self.kind,
            "prompt": self.prompt,
            "answer": self.answer
            if isinstance(self.answer, bool)
            else [str(c) for c in cards_of(self.answer)],
            "answer_text": self.answer_text(),
            "choices": self.choices(),
            "why": self.why,
            "said": {lang: {"prompt": p, "why": w} for lang, (p, w) in self.said.items()},
        }

    def choices(self) -> list[str]:
        """What the player picks from: the rank's 4 cards, the suit's 10, or yes/no."""
        if self.kind == "rank":
            return [str(c) for c in cards_of(rank_mask(self.rank))]
        if self.kind == "suit":
            return [str(c) for c in cards_of(suit_mask(self.rank))]
        return ["yes", "no"]


def suit_mask(suit: int) -> int:
    """The ten cards of one suit."""
    return 0x3FF << (10 * suit)


def ask(obs: Observation, rng: random.Random) -> Question:
    """A question about ``obs``: a rank or suit count, or a lay's safety when the
    observer is to move and may lay a card."""
    lays = [m for m in obs.legal_moves if isinstance(m, Play) and not m.capture]
    # A lay is only asked about when the next play may score a sweep at all.
    kinds = ["rank", "suit"] + (["safe", "safe"] if lays and sweep_can_follow(obs) else [])
    kind = rng.choice(kinds)
    if kind == "safe":
        lay = rng.choice(lays)
        return in_every_language(obs, safe_question(obs, lay.card))
    if kind == "suit":
        return in_every_language(obs, suit_question(obs, rng.randrange(4)))
    # Ask about a rank that matters now: one on the table or in the hand when there is one.
    present = {c % 10 + 1 for c in cards_of(obs.table | obs.hand)}
    value = rng.choice(sorted(present)) if present else rng.randint(1, 10)
    return in_every_language(obs, rank_question(obs, value))


def in_every_language(obs: Observation, q: Question) -> Question:
    """``q`` with its prompt and explanation in every language (:attr:`Question.said`),
    the cards in the words of ``obs``'s deck."""
    make = {"rank": rank_question, "suit": suit_question, "safe": safe_question}[q.kind]
    said = {}
    for lang in LANGUAGES:
        other = make(obs, q.rank, Speech(lang, obs.rules.deck))
        said[lang] = (other.prompt, other.why)
    return replace(q, said=said)


def _cards(mask: int, sp: Speech) -> str:
    return sp.cards(mask) if mask else sp.say("none")


def rank_question(obs: Observation, value: int, sp: Speech = ENGLISH) -> Question:
    """Which cards of this rank has the player not seen yet?"""
    unseen = obs.unseen & rank_mask(value)
    rank = sp.rank(RANKS[value - 1])
    seen = 4 - unseen.bit_count()
    return Question(
        "rank",
        sp.say("t_rank_q", rank=rank),
        unseen,
        sp.say("t_rank_why", seen=seen, rank=rank, cards=_cards(unseen, sp)),
        value,
    )


def suit_question(obs: Observation, suit: int, sp: Speech = ENGLISH) -> Question:
    """Which cards of this suit has the player not seen yet?"""
    unseen = obs.unseen & suit_mask(suit)
    english = sp.lang == DEFAULT_LANGUAGE and sp.deck == "french"
    name = SUIT_NAMES[suit] if english else suit_name(suit, sp.deck, sp.lang)
    # The sign only where the deck has it.
    sign = f" ({SUIT_SYMBOLS[suit]})" if sp.deck == "french" else ""
    return Question(
        "suit",
        sp.say("t_suit_q", suit=name, sign=sign),
        unseen,
        sp.say("t_suit_why", n=unseen.bit_count(), suit=name, cards=_cards(unseen, sp)),
        suit,
    )


def safe_question(obs: Observation, card: int, sp: Speech = ENGLISH) -> Question:
    """Would laying ``card`` be safe from a sweep by a card the player has not seen?

    The same answer as the plays in words (:func:`~chkobba.coach.explain.sweep_threats`):
    a sweep on the round's last play scores nothing (docs/rules.md §2.4).
    """
    left = obs.table | 1 << card
    danger = sweep_threats(obs, left)
    if danger:
        threats = ", ".join(sp.say("t_threat", rank=sp.rank(t.rank), n=t.unseen) for t in danger)
        why = sp.say("t_safe_no", threats=threats)
    elif not sweep_can_follow(obs):
        why = sp.say("t_safe_last", sweep=sweep_word(obs.rules))
    elif obs.rules.no_sweep:
        why = sp.say("t_safe_no_scoring", sweep=a_sweep(obs.rules, sp))
    else:
        why = sp.say("t_safe_yes")
    return Question(
        "safe",
        sp.say("t_safe_q", card=sp.card(card)),
        not danger,
        why,
        card,
    )


def read_answer(q: Question, text: str) -> int | bool:
    """The player's answer as a card set (or yes/no); ``ValueError`` if unreadable.

    For a rank question the suits alone are enough (``h c``); for a suit
    question the ranks alone (``A 7 K``); ``none`` or ``-`` is the empty set.
    """
    t = text.strip().lower()
    if q.kind == "safe":
        if t in ("y", "yes", "safe"):
            return True
        if t in ("n", "no"):
            return False
        raise ValueError("answer yes or no")
    if t in ("none", "-", "0"):
        return 0
    if not t:
        raise ValueError("type the cards, or none")
    mask = 0
    for token in t.replace(",", " ").split():
        if q.kind == "rank" and len(token) == 1 and (token in SUITS or token in SUIT_SYMBOLS):
            suit = SUITS.index(token) if token in SUITS else SUIT_SYMBOLS.index(token)
            mask |= 1 << (suit * 10 + q.rank - 1)
        elif q.kind == "suit" and len(token) == 1 and token.upper() in RANKS:
            mask |= 1 << (q.rank * 10 + RANKS.index(token.upper()))
        else:
            try:
                mask |= parse_cards(token, "+")
            except CardError as e:
                raise ValueError(str(e)) from None
    return mask


@dataclass
class TrainerScore:
    """Questions asked and answered right in a game."""

    asked: int = 0
    right: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)

    def mark(self, q: Question, given: int | bool) -> bool:
        """Score one answer; return whether it was right."""
        ok = given == q.answer
        self.asked += 1
        self.right += ok
        self.log.append({"kind": q.kind, "right": ok})
        return ok

    def to_json(self) -> dict[str, int]:
        """The score as the record's ``meta.coach.trainer`` holds it."""
        return {"asked": self.asked, "right": self.right}
