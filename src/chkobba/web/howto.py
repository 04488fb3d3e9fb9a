"""How to play each game, for its rules page (``/rules/NAME``): a few paragraphs, then a
worked example (a small position, the cards played, what they take and why, a sweep,
and how a round is counted), before the options.

The texts are in ``chkobba/words/howto/LANG.json``, one object of keys and paragraphs
per language (:data:`HOWTO`). The Chkobba family shares two base texts, Chkobba's and
Scopa's, and each other preset adds one paragraph on what it changes (``diff_NAME``);
Touti has its own. A card in a text is written ``{7d}`` and named by the page in the
deck it draws and its language (static/cardnames.js); other placeholders are filled
here.

The worked example is played by the engine: each capture it shows is the one the
preset's rules allow (:func:`chkobba.fishing.captures.captures`), and the round is
counted by :func:`chkobba.fishing.scoring.score_round`, so the page cannot say
something the game does not do (the tests check the words against the moves).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Final, NamedTuple

from chkobba.fishing.captures import captures
from chkobba.fishing.cards import CARDS, VALUE_OF, parse_cards, sort_for_display
from chkobba.fishing.rules import PRESETS, RuleSet
from chkobba.fishing.scoring import POINT_KEYS, SWEEP_WORDS, primiera, score_round
from chkobba.words import LANGUAGES
from chkobba.words.catalogue import fill

HOWTO_DIR: Final = Path(__file__).resolve().parent.parent / "words" / "howto"
"""Where the how-to texts are: one JSON per language, like the catalogues."""


@cache
def howto(lang: str) -> dict[str, str]:
    """Every how-to text of ``lang`` by key."""
    data = json.loads((HOWTO_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{lang}.json is not an object of texts")
    return data


def words(key: str, **values: object) -> dict[str, str]:
    """The text ``key`` in every language, its placeholders filled (cards kept)."""
    return {lang: fill(howto(lang)[key], values) for lang in LANGUAGES}


# -- the texts of each game -------------------------------------------------------------

CHKOBBA_TEXT: Final = (
    "chkobba_goal", "chkobba_deal", "chkobba_turn", "chkobba_sweep", "chkobba_count",
    "chkobba_match",
)
"""Chkobba's how to play, paragraph by paragraph."""

SCOPA_TEXT: Final = (
    "scopa_goal", "scopa_deal", "scopa_turn", "scopa_sweep", "scopa_count", "scopa_match",
)
"""Scopa's, the base of every other preset of the family."""

TOUTI_TEXT: Final = (
    "touti_goal", "touti_deal", "touti_bid", "touti_play", "touti_announce", "touti_score",
)
"""Touti's (docs/rules.md §4)."""


REPLACED: Final[dict[str, tuple[str, ...]]] = {
    "scopa-many": ("scopa_turn",),
    "scopone": ("scopa_deal",),
    "scopone-scientifico": ("scopa_deal",),
    "scopone-de-trente": ("scopa_deal",),
    "scopa-di-quindici": ("scopa_turn",),
    "escoba-del-15": ("scopa_turn",),
    "cirulla": ("scopa_turn",),
    "chkop": ("scopa_turn", "scopa_count"),
    "scopa-frac": ("scopa_turn", "scopa_sweep", "scopa_count", "scopa_match"),
    "scopa-a-perdere": ("scopa_match",),
}
"""Scopa's paragraphs a preset's own difference says otherwise, left out of its page."""


def paragraph_keys(name: str) -> tuple[str, ...]:
    """The paragraphs of a game's how to play: Chkobba's and Touti's own; every other
    preset Scopa's with its difference after the first (``diff_NAME``), without the
    paragraphs that difference replaces (:data:`REPLACED`)."""
    if name == "chkobba":
        return CHKOBBA_TEXT
    if name == "touti":
        return TOUTI_TEXT
    if name == "scopa":
        return SCOPA_TEXT
    left_out = REPLACED.get(name, ())
    return (SCOPA_TEXT[0], f"diff_{name}", *(k for k in SCOPA_TEXT[1:] if k not in left_out))


def text_values(name: str) -> dict[str, object]:
    """What fills a game's paragraphs: its target, its word for a sweep and its points'
    names by the rule they follow (``{cards_pt}``: *carte*, *cartas*)."""
    if name == "touti":
        from chkobba.touti.rules import DEFAULT

        return {"target": DEFAULT.target}
    rules = PRESETS[name]
    values: dict[str, object] = {"target": rules.target}
    by_rule = {POINT_KEYS[k].rule: POINT_KEYS[k].label for k in rules.scoring}
    for rule, slot in (("cards", "cards_pt"), ("coins", "coins_pt"),
                       ("seven_of_coins", "seven_pt"), ("primiera", "primiera_pt"),
                       ("sweeps", "sweeps_pt")):
        if rule in by_rule:
            values[slot] = by_rule[rule]
    sweep = sweep_key(rules)
    if sweep:
        values["sweep"] = SWEEP_WORDS[sweep]
    return values


# -- the worked example ------------------------------------------------------------------


class Step(NamedTuple):
    """One card played in the example: who plays it, on what, and the words saying why."""

    who: str
    """``you``, ``opponent`` (Touti: ``right``, ``partner``, ``left``)."""
    table: tuple[str, ...]
    """The table before the play (Touti: the trick so far)."""
    play: str
    take: tuple[str, ...]
    """What it takes (empty: laid, or a card played to a trick)."""
    text: str
    """The key of its words."""


START: Final = ("3c", "4h", "7s", "Kd")
"""The table of the example by value (Chkobba, Scopa and the games that capture alike)."""

START_15: Final = ("5c", "3h", "Qd", "6s")
"""The table of the example by fifteen (Scopa di quindici, Escoba del 15)."""

YOU_PILE: Final = (
    "Ad 2d 3d 5d 7d Kd 7s 7c 6s As 2s 3s 4s Ac 2c 5c Qh Jh Kh Qs Js Ks"
)
"""Your cards at the end of the example's round (22, the opponent's the 18 others): the
cards the example shows you taking are among them, the opponent's among the others."""

SWEEPS: Final = (1, 2)
"""The sweeps of the example's round: yours in the example, the opponent's two before."""


def by_fifteen(rules: RuleSet) -> bool:
    """Whether a preset captures by fifteen only (the example then adds up to 15)."""
    return rules.capture_total == 15 and not rules.capture_match


def sweep_key(rules: RuleSet) -> str | None:
    """The preset's sweep point (``chkobba``, ``scope``, ``escobas``), or None."""
    return next((k for k in rules.scoring if POINT_KEYS[k].rule == "sweeps"), None)


def steps(name: str) -> list[Step]:
    """The example's plays under preset ``name`` (the words depend on its rules)."""
    rules = PRESETS[name]
    sweep = sweep_key(rules)
    sweep_text = f"ex_sweep_{sweep}" if sweep else "ex_sweep_none"
    if by_fifteen(rules):
        return [
            Step("you", START_15, "Kd", ("5c",), "ex15_first"),
            Step("opponent", ("3h", "Qd", "6s"), "4c", ("3h", "Qd"), "ex15_second"),
            Step("you", ("6s",), "Js", ("6s",), f"ex15_sweep_{sweep}"),
        ]
    first = "ex_first" if rules.matching_priority else "ex_first_free"
    return [
        Step("you", START, "7d", ("7s",), first),
        Step("opponent", ("3c", "4h", "Kd"), "7h", ("3c", "4h"), "ex_second"),
        Step("you", ("Kd",), "Ks", ("Kd",), sweep_text),
    ]


def legal_takes(rules: RuleSet, table: tuple[str, ...], play: str) -> list[tuple[str, ...]]:
    """Every capture the engine allows ``play`` on ``table``, as cards in display order."""
    mask = parse_cards("+".join(table)) if table else 0
    card = CARDS[parse_cards(play).bit_length() - 1]
    return [
        tuple(str(c) for c in sort_for_display(CARDS[i] for i in range(40) if cap >> i & 1))
        for cap in captures(VALUE_OF[card], mask, rules)
    ]


def piles() -> tuple[int, int]:
    """Your pile and the opponent's at the end of the example's round."""
    you = parse_cards(YOU_PILE, " ")
    return you, ((1 << 40) - 1) ^ you


def _counts(rule: str, mask: int) -> str | None:
    # The facts behind a point, in numbers that read the same in every language.
    if rule == "cards":
        return str(mask.bit_count())
    if rule == "coins":
        return str(sum(1 for i in range(20, 30) if mask >> i & 1))
    if rule == "sevens":
        sevens = sum(1 for s in range(4) if mask >> (s * 10 + 6) & 1)
        sixes = sum(1 for s in range(4) if mask >> (s * 10 + 5) & 1)
        return f"7 × {sevens} · 6 × {sixes}"
    if rule == "primiera":
        return str(primiera(mask))
    return None


def count(name: str) -> dict[str, Any]:
    """How the example's round is counted under preset ``name``: each point with what
    each side scores, as the engine scores it."""
    rules = PRESETS[name]
    you, them = piles()
    declared = (0, 3) if any(POINT_KEYS[k].rule == "declarations" for k in rules.scoring) else None
    score = score_round((you, them), SWEEPS, rules, declared=declared)
    rows = []
    for key, points, *_ in score.results:
        pk = POINT_KEYS[key]
        mine, theirs = _counts(pk.rule, you), _counts(pk.rule, them)
        rows.append({
            "key": key,
            "name": pk.label,
            "native": pk.native,
            "rule": pk.rule,
            "points": list(points),
            "counts": None if mine is None else [mine, theirs],
        })
    sweep = sweep_key(rules)
    return {
        "text": words(
            "ex_count_declared" if declared else "ex_count",
            you=you.bit_count(), them=them.bit_count(),
            mine=SWEEPS[0], theirs=SWEEPS[1],
        ),
        "sweeps": bool(sweep),
        "rows": rows,
        "totals": list(score.points),
        "after": words("ex_count_after", you=score.points[0], them=score.points[1]),
    }


def example(name: str) -> dict[str, Any]:
    """The worked example of preset ``name``, every text in every language."""
    rules = PRESETS[name]
    fifteen = by_fifteen(rules)
    extra = []
    if rules.ace_takes_all:
        extra.append(words("ex_ace"))
    if any(POINT_KEYS[k].rule == "declarations" for k in rules.scoring):
        extra.append(words("ex_cirulla"))
    if rules.capture_total == 15 and rules.capture_match:
        extra.append(words("ex_cirulla_fifteen"))
    return {
        "intro": words("ex15_intro" if fifteen else "ex_intro"),
        "steps": [
            {
                "who": s.who,
                "table": list(s.table),
                "play": s.play,
                "take": list(s.take),
                "sweep": len(s.take) == len(s.table) and bool(s.take),
                "text": words(s.text),
            }
            for s in steps(name)
        ],
        "extra": extra,
        "count": count(name),
    }


# -- Touti's example: a trick ----------------------------------------------------------------

TOUTI_TRUMP: Final = "d"
"""The trumps of Touti's example: oros."""

TOUTI_TRICK: Final = (
    # (who, their cards before playing, the card played, the words)
    ("you", ("3s", "Kh"), "3s", "tx_lead"),
    ("right", ("As", "5s", "Kc"), "As", "tx_follow"),
    ("partner", ("4d", "Ah"), "4d", "tx_trump"),
    ("left", ("Jd", "2d", "Qc"), "Jd", "tx_overtrump"),
)
"""The example's trick, each player's cards shown so that the card played is the one
the rules allow (a test checks it with :func:`chkobba.touti.deal.legal_cards`)."""


def touti_example() -> dict[str, Any]:
    """Touti's worked example: one trick, then how a deal is counted."""
    out = []
    played: list[str] = []
    for who, hand, card, key in TOUTI_TRICK:
        out.append({
            "who": who,
            "table": list(played),
            "hand": list(hand),
            "play": card,
            "take": [],
            "sweep": False,
            "text": words(key),
        })
        played.append(card)
    return {
        "intro": words("tx_intro"),
        "steps": out,
        "extra": [words("tx_won")],
        "count": {"text": words("tx_count"), "sweeps": False, "rows": [], "totals": [],
                  "after": words("tx_count_after")},
    }


def howto_json(name: str) -> dict[str, Any]:
    """What a rules page shows before the options: the paragraphs and the example."""
    return {
        "paragraphs": [words(k, **text_values(name)) for k in paragraph_keys(name)],
        "example": touti_example() if name == "touti" else example(name),
    }
