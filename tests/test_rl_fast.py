"""The environment's fast observation path against the reference.

``chkobba.rl.spaces.encode(chkobba.fishing.observe.observe_round(...))`` defines the
``chkobba_v1`` vector; ``chkobba.rl.encoder.encode_round`` fills the same vector
from the round through the compiled block ``encode_v1`` (or through the reference
where the kernel is not built). Both must agree on every seat of every state.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe_round
from chkobba.fishing.rules import PRESETS, preset
from chkobba.rl import encoder
from chkobba.rl.encoder import encode_round, kernel_plays, legal_moves
from chkobba.rl.spaces import (
    NUM_ACTIONS,
    OBS_HIGH,
    OBS_SIZE,
    Choice,
    action_mask,
    decide,
    encode,
    legal_actions,
)
from test_rl_env import swap_hidden

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]


def seating_for(rules: str, seats: int, teams: bool) -> tuple[int, bool]:
    """The seating asked for if the preset allows it, else its first one."""
    r = preset(rules)
    if ("2v2" if teams else str(seats)) in r.seatings:
        return seats, teams
    first = r.seatings[0]
    return (4, True) if first == "2v2" else (int(first), False)


def reference(
    r: Round, seat: int, totals: list[int], choice: Choice | None
) -> tuple[np.ndarray, np.ndarray]:
    """The vector and mask by the reference definition."""
    obs = observe_round(r, seat, tuple(totals), 1, r.rules.target)
    return encode(obs, choice if obs.legal_moves else None), action_mask(
        obs.legal_moves, choice if obs.legal_moves else None
    )


def fast(r: Round, seat: int, totals: list[int], choice: Choice | None,
         use_kernel: bool) -> tuple[np.ndarray, np.ndarray]:
    """The vector and mask by the environment's path (garbage-filled buffers)."""
    moves = legal_moves(r, use_kernel) if seat == r.turn and not r.is_over else ()
    vec = np.full(OBS_SIZE, 9.0, np.float32)
    mask = np.full(NUM_ACTIONS, 9, np.int8)
    encode_round(r, seat, totals, r.rules.target, moves, choice if moves else None, vec, mask)
    return vec, mask


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.sampled_from(SEATINGS), st.integers(0, 2**32 - 1))
def test_fast_vectors_equal_the_reference(rules: str, seating: tuple[int, bool], seed: int) -> None:
    """Along a seeded game of every preset, for every seat and at every decision
    (capture choices included), the fast vector and mask are the reference's."""
    seats, teams = seating_for(rules, *seating)
    m = Match(preset(rules), seats, teams, seed=seed)
    rng = random.Random(seed)
    use_kernel = kernel_plays(m.rules)
    m.totals = [rng.randrange(30) for _ in m.totals]  # as in a match under way
    checked = 0
    while not m.is_over and m.round_number <= 1:
        r = m.round
        moves = r.legal_moves()
        choice: Choice | None = None
        # Open a capture choice now and then, to cover choice_card and choice_taken.
        for a in legal_actions(moves, None):
            step = decide(moves, None, a)
            if isinstance(step, Choice) and rng.random() < 0.5:
                choice = step
                break
        for seat in range(seats):
            ref_vec, ref_mask = reference(r, seat, m.totals, choice)
            vec, mask = fast(r, seat, m.totals, choice, use_kernel)
            assert np.array_equal(vec, ref_vec), (seat, np.flatnonzero(vec != ref_vec))
            assert np.array_equal(mask, ref_mask)
            assert (vec >= 0).all() and (vec <= OBS_HIGH).all()
            checked += 1
        m.apply(rng.choice(moves))
    assert checked


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["chkobba", "scopa", "escoba", "scopa-frac"]), st.sampled_from(SEATINGS),
       st.integers(0, 2**32 - 1), st.integers(1, 60))
def test_the_fast_vector_never_holds_hidden_cards(
    rules: str, seating: tuple[int, bool], seed: int, steps: int
) -> None:
    """docs/rules.md §2.7: redealing the cards a seat has not seen leaves its fast vector as it
    was (the same check as the reference's in test_rl_env.py)."""
    seats, teams = seating_for(rules, *seating)
    m = Match(preset(rules), seats, teams, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_moves()))
    r = m.round
    for seat in range(seats):
        base = fast(r, seat, m.totals, None, kernel_plays(m.rules))
        for _ in range(3):
            other = fast(swap_hidden(r, seat, rng), seat, m.totals, None, kernel_plays(m.rules))
            assert np.array_equal(other[0], base[0]) and np.array_equal(other[1], base[1])


def test_the_pure_path_is_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the kernel (not built, or CHKOBBA_PURE=1) the reference itself fills the
    vector, so both paths give the same environment."""
    m = Match(preset("chkobba"), 2, False, seed=4)
    rng = random.Random(4)
    for _ in range(12):
        m.apply(rng.choice(m.legal_moves()))
    with_kernel = [fast(m.round, s, m.totals, None, False) for s in range(2)]
    monkeypatch.setattr(encoder, "KERNEL", False)
    for s in range(2):
        vec, mask = fast(m.round, s, m.totals, None, False)
        ref_vec, ref_mask = reference(m.round, s, m.totals, None)
        assert np.array_equal(vec, ref_vec) and np.array_equal(mask, ref_mask)
        assert np.array_equal(vec, with_kernel[s][0])


@pytest.mark.skipif(not encoder.KERNEL, reason="the C extension chkobba._fastcore is not built")
def test_the_compiled_block_refuses_bad_input() -> None:
    """Wrong buffers or values are one-line errors, not memory corruption."""
    from chkobba import _fastcore

    r = Match(preset("chkobba"), 2, False, seed=1).round
    good = dict(vec=np.zeros(OBS_SIZE, np.float32), mask=np.zeros(NUM_ACTIONS, np.int8))

    def call(vec: object, mask: object, seat: int = 0, hand: int = 0) -> None:
        _fastcore.encode_v1(vec, mask, seat, 2, 0, (0, 1), 0, 0, (hand, 0), 0, 0, (0, 0), -1,
                            -1, 0, 0, 0, [-1], (), False, 40, (0, 0), -1, (0, 0), r.rules.target)

    call(good["vec"], good["mask"])
    with pytest.raises(ValueError, match="868"):
        call(np.zeros(10, np.float32), good["mask"])
    with pytest.raises(ValueError, match="83"):
        call(good["vec"], np.zeros(5, np.int8))
    with pytest.raises(BufferError):
        call(b"\0" * (4 * OBS_SIZE), good["mask"])  # read-only
    with pytest.raises(ValueError, match="868"):
        call(np.zeros(OBS_SIZE, np.float64), good["mask"])
    with pytest.raises(ValueError, match="out of range"):
        call(good["vec"], good["mask"], seat=3)
    with pytest.raises(ValueError, match="2\\*\\*40"):
        call(good["vec"], good["mask"], hand=1 << 41)


def test_the_kernel_rules_are_kept_by_rule_set_identity() -> None:
    """legal_moves finds the kernel's rule struct without hashing the RuleSet at every step:
    the same object gives the same struct, another rule set (even an equal copy) its own
    correct one."""
    import dataclasses

    from chkobba.search import fast

    if not encoder.KERNEL:
        pytest.skip("the compiled kernel is not built")
    scopa = preset("scopa")
    first = encoder._kernel_rules(scopa)
    assert encoder._kernel_rules(scopa) is first
    copy = dataclasses.replace(scopa)
    assert copy is not scopa
    assert encoder._kernel_rules(copy) is fast.kernel_rules(copy)
    assert encoder._kernel_rules(preset("chkobba")) is fast.kernel_rules(preset("chkobba"))
    assert encoder._kernel_rules(preset("chkobba")) is not first
