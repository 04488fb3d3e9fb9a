"""Scopone de Trente's points as the search values them: the kernel, its pure reference
and :mod:`chkobba.fishing.scoring` agree prize by prize (docs/rules.md §3.5, §2.6); and the
expert there samples uniformly (:data:`~chkobba.agents.expert.EXPERT_FACES_TEMPERATURE`)."""

from __future__ import annotations

import random

import pytest

from chkobba.agents import make_agent
from chkobba.agents.expert import EXPERT_FACES_TEMPERATURE, EXPERT_TEMPERATURE, ExpertAgent
from chkobba.fishing.cards import DIAMONDS, DIAMONDS_MASK
from chkobba.fishing.game import Round, side_map
from chkobba.fishing.observe import Observation, observe_round
from chkobba.fishing.rules import PRESETS, RuleSet
from chkobba.search import fast, inference
from chkobba.search.endgame import solvable
from chkobba.search.endgame import solve as endgame_solve

needs_kernel = pytest.mark.skipif(not fast.AVAILABLE, reason=f"no kernel: {fast.BACKEND}")

TRENTE = PRESETS["scopone-de-trente"]
FACES = {DIAMONDS * 10 + face - 1: face for face in (1, 2, 3)}
"""The A, 2 and 3 of coins and their face values."""


def played(seed: int) -> tuple[list[int], list[float], Round]:
    """A deck, the choices that play it out, and the round they make (2 against 2)."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    choices = [rng.random() for _ in range(45)]
    r = Round(TRENTE, 4, True, 1, deck)
    it = iter(choices)
    while r.score is None:
        legal = r.legal_moves()
        r.apply_unchecked(legal[int(next(it) * len(legal))])
    return deck, choices, r


def test_trente_scores_the_coin_faces_to_the_side_that_took_them() -> None:
    for seed in range(200):
        _, _, r = played(seed)
        assert r.score is not None
        item = r.score.item("trente")
        assert item is not None
        expected = [sum(f for c, f in FACES.items() if pile >> c & 1) for pile in r.piles]
        assert list(item.points) == expected
        assert sum(expected) == 6  # every card is taken by the end of the round
        whole = [s for s, pile in enumerate(r.piles) if pile & DIAMONDS_MASK == DIAMONDS_MASK]
        assert r.score.wins_match == (whole[0] if whole else None)


@pytest.mark.parametrize(
    "impl",
    [
        pytest.param(fast.py_play_choices, id="pure"),
        pytest.param(fast.play_choices, id="kernel", marks=needs_kernel),
    ],
)
def test_each_prize_of_trente_is_scored_as_scoring_does(impl: object) -> None:
    """Each point of Trente's scoring alone, through the search's playout, gives the
    points :func:`chkobba.fishing.scoring.score_round` gives that point in the whole round."""
    assert callable(impl)
    for seed in range(60):
        deck, choices, r = played(seed)
        assert r.score is not None
        for key in TRENTE.scoring:
            alone = TRENTE.with_options({"scoring": (key,)})
            _, points = impl(alone, 4, side_map(4, True), 1, deck, choices)
            item = r.score.item(key)
            assert item is not None
            assert points == list(item.points), (seed, key)
        _, points = impl(TRENTE, 4, side_map(4, True), 1, deck, choices)
        assert points == list(r.score.points), seed


@needs_kernel
def test_trente_endgames_are_solved_alike_by_the_kernel_and_the_reference() -> None:
    """The last 12 cards of a 2-against-2 deal (the expert's exact endgame), the coin
    faces still to take: the kernel's values are the pure solver's."""
    rng = random.Random(14)
    checked = 0
    while checked < 25:
        deck = list(range(40))
        rng.shuffle(deck)
        r = Round(TRENTE, 4, True, rng.randrange(4), deck)
        while r.in_hands > 8:
            r.apply_unchecked(rng.choice(r.legal_moves()))
        left = sum(1 << c for c in FACES) & ~(r.table | sum(r.piles))
        if not left or not solvable(r):
            continue  # a coin face still in a hand is what is checked
        _, results = endgame_solve(r.copy())
        expected = [(p.card, p.capture, v) for p, v in results]
        state = fast.state_of(r)
        assert fast.solve(state) == expected
        assert fast.py_solve(state) == expected
        checked += 1


def mid_deal(rules: RuleSet, seed: int, plies: int = 10) -> Observation:
    """A 2-against-2 position after ``plies`` random plays, the seat to move with a choice
    and the other seats' plays of the deal to explain."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    r = Round(rules, 4, True, rng.randrange(4), deck)
    for _ in range(plies):
        r.apply_unchecked(rng.choice(r.legal_moves()))
    while len(r.legal_moves()) < 2:
        r.apply_unchecked(rng.choice(r.legal_moves()))
    return observe_round(r, r.turn, (0, 0), 1, rules.target)


def twin(expert: ExpertAgent, temperature: float | None) -> ExpertAgent:
    """The registered expert's budget and seed, with one ``temperature`` everywhere."""
    return ExpertAgent(
        3,
        samples=expert.samples,
        endgame_samples=expert.endgame_samples,
        temperature=temperature,
        reply=expert.reply,
        solve_stock=expert.solve_stock,
    )


def test_the_expert_samples_uniformly_in_trente_only() -> None:
    expert = make_agent("expert", 3)
    assert isinstance(expert, ExpertAgent)
    assert expert.temperature_for(TRENTE) == EXPERT_FACES_TEMPERATURE == 0.0
    assert expert.temperature_for(PRESETS["scopone"]) == EXPERT_TEMPERATURE
    hard = make_agent("hard", 3)
    assert isinstance(hard, ExpertAgent) and hard.temperature_for(TRENTE) is None
    for seed in range(3):
        obs = mid_deal(TRENTE, seed)
        assert inference.decisions(obs)
        got = make_agent("expert", 3)
        assert isinstance(got, ExpertAgent)
        assert got.evaluate(obs) == twin(got, None).evaluate(obs)
    # Elsewhere (Scopone, the same deal without Trente's points) the inference stays, and
    # it does change the values.
    obs = mid_deal(PRESETS["scopone"], 0)
    values = expert.evaluate(obs)
    assert values == twin(expert, EXPERT_TEMPERATURE).evaluate(obs)
    assert values != twin(expert, None).evaluate(obs)
