"""What one seat may know (docs/rules.md §2.7): the observation built by ``observe()``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.fishing.cards import CARDS, FULL_DECK, iter_bits
from chkobba.fishing.game import Phase, Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Cut
from chkobba.fishing.observe import Observation, observe, observe_round
from chkobba.fishing.rules import CHKOBBA, preset

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]


def swapped(r: Round, a: int, b: int) -> Round:
    """A copy of ``r`` with cards ``a`` and ``b`` trading places (hands, stock, cut card)."""

    def swap_mask(m: int) -> int:
        has_a, has_b = m >> a & 1, m >> b & 1
        return m & ~(1 << a | 1 << b) | has_a << b | has_b << a

    def swap_card(c: int) -> int:
        return b if c == a else a if c == b else c

    out = r.copy()
    out.hands = [swap_mask(h) for h in r.hands]
    out.deck = tuple(swap_card(c) for c in r.deck)
    if r.cut_card is not None:
        out.cut_card = swap_card(r.cut_card)
    return out


def observed(m: Match, r: Round, seat: int) -> Observation:
    return observe_round(r, seat, tuple(m.totals), m.round_number, m.rules.target)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(SEATINGS),
    st.integers(0, 2**32 - 1),
    st.integers(0, 150),
    st.integers(0, 2**32 - 1),
)
def test_observation_does_not_depend_on_hidden_cards(
    seating: tuple[int, bool], seed: int, steps: int, choices: int
) -> None:
    """§2.7: trading any two cards the seat has not seen (other hands, stock, a hidden cut
    card) changes nothing in its observation: nothing hidden can leak through it."""
    seats, teams = seating
    rng = random.Random(choices)
    m = Match(preset("chkobba", {"target": 11}), seats, teams, seed=seed)
    for _ in range(steps):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_moves()))
    r = m.round
    for seat in range(-1, seats):
        obs = observed(m, r, seat)
        assert obs == observe(m, seat)
        hidden = list(iter_bits(obs.unseen))
        if len(hidden) < 2:
            continue
        for _ in range(5):
            a, b = rng.sample(hidden, 2)
            assert observed(m, swapped(r, a, b), seat) == obs, (seat, CARDS[a], CARDS[b])
        # The rendering names no hidden card either.
        words = set(obs.describe().replace(",", " ").split())
        assert not {str(CARDS[c]) for c in hidden} & words


@pytest.mark.parametrize(("seats", "teams"), SEATINGS)
def test_only_the_cutter_sees_the_cut_card(seats: int, teams: bool) -> None:
    """§2.7: in the cut only the cutter knows the cut card until it is placed."""
    m = Match(CHKOBBA, seats, teams, seed=11)
    r = m.round
    assert r.phase is Phase.CUT
    shown = CARDS[r.deck[0]]
    for seat in range(seats):
        obs = observe(m, seat)
        assert obs.stock == 40 and obs.hand == 0 and obs.table == 0
        if seat == r.cutter:
            assert obs.cut_card == shown
            assert f"cut card: {shown}" in obs.describe()
            assert obs.unseen == FULL_DECK & ~shown.bit
            assert obs.legal_moves == (Cut.KEEP, Cut.TABLE) and obs.to_move
        else:
            assert obs.cut_card is None
            assert "cut card" not in obs.describe()
            assert obs.unseen == FULL_DECK
            assert obs.legal_moves == () and not obs.to_move
    m.apply(Cut.TABLE)
    if m.void_deals == 0:
        for seat in range(seats):
            obs = observe(m, seat)
            assert obs.cut_card is None
            assert obs.table >> shown & 1, "a tabled cut card is public"
            assert obs.history[0].move is Cut.TABLE


def test_a_kept_cut_card_stays_hidden_from_the_others() -> None:
    """§2.7: a kept cut card is in the cutter's hand, unseen by the others."""
    m = Match(CHKOBBA, 2, seed=3)
    shown = m.round.deck[0]
    cutter = m.turn
    m.apply(Cut.KEEP)
    assert m.void_deals == 0
    assert observe(m, cutter).hand >> shown & 1
    other = observe(m, 1 - cutter)
    assert other.unseen >> shown & 1 and not other.hand >> shown & 1


def test_public_history_and_counts() -> None:
    """§2.7: plays, captures, pile sizes, chkobba markers, hand sizes, stock and score."""
    rng = random.Random(2)
    m = Match(preset("chkobba", {"target": 11}), 4, True, seed=9)
    while m.round_number < 2 or len(m.round.history) < 10:
        m.apply(rng.choice(m.legal_moves()))
    r = m.round
    for seat in (-1, 0, 1, 2, 3):
        obs = observe(m, seat)
        assert obs.history == tuple(r.history)
        assert obs.piles == tuple(r.piles) and obs.chkobba == tuple(r.chkobba)
        assert obs.last_capturer == r.last_capturer
        assert obs.hand_sizes == tuple(h.bit_count() for h in r.hands)
        assert obs.stock == r.stock
        assert obs.plays_left == r.in_hands + r.stock
        assert obs.totals == tuple(m.totals) and obs.round_number == 2
        assert obs.teams and obs.sides == 2 and obs.side_of == (0, 1, 0, 1)
        assert obs.side == (seat % 2 if seat >= 0 else -1)
        assert obs.dealer == r.dealer and obs.cutter == r.cutter and obs.turn == r.turn
        assert obs.target == 11 and obs.rules == m.rules


def test_describe_shows_own_hand_table_and_score() -> None:
    """The readable rendering shows what the seat may know."""
    m = Match(CHKOBBA, 2, seed=5)
    m.apply(Cut.KEEP)
    seat = m.turn
    obs = observe(m, seat)
    text = obs.describe()
    lines = text.splitlines()
    assert lines[0] == f"seat {seat} (side {seat}) round 1, seat {seat} to move"
    assert sorted(lines[1].removeprefix("hand: ").split()) == sorted(
        str(c) for c in map(CARDS.__getitem__, iter_bits(obs.hand))
    )
    assert sorted(lines[2].removeprefix("table: ").split()) == sorted(
        str(CARDS[c]) for c in iter_bits(obs.table)
    )
    assert lines[4] == "stock: 30 score: [0, 0] / 21"


def test_no_moves_for_anyone_once_the_match_is_over() -> None:
    """After the match no seat has a move; the last round is shown as over."""
    rng = random.Random(0)
    m = Match(preset("chkobba", {"target": 1}), 3, seed=1)
    while not m.is_over:
        m.apply(rng.choice(m.legal_moves()))
    for seat in range(-1, 3):
        obs = observe(m, seat)
        assert obs.legal_moves == () and obs.phase is Phase.OVER
        assert obs.unseen == 0 and obs.hand == 0


@pytest.mark.parametrize("seat", [-2, 2, 5])
def test_observing_a_missing_seat_is_an_error(seat: int) -> None:
    """Only the seats of the match (or -1, a spectator) can be observed."""
    with pytest.raises(ValueError, match=f"no seat {seat} in a 2-player match"):
        observe(Match(CHKOBBA, 2, seed=1), seat)
