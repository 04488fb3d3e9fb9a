"""Invariants that hold in every state of random legal play (PettingZoo ``api_test``,
OpenSpiel ``random_sim_test``): 2, 3 and 4 seats and 2 against 2."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.fishing.cards import CARDS, DIAMONDS_MASK, FULL_DECK, SEVEN_OF_DIAMONDS, cards_of
from chkobba.fishing.game import Phase, Round
from chkobba.fishing.match import Match, match_winner
from chkobba.fishing.moves import Play
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord, record_of, replay
from chkobba.fishing.rules import preset

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]

seatings = st.sampled_from(SEATINGS)
seeds = st.integers(0, 2**32 - 1)
targets = st.sampled_from([5, 11])
"""Short matches keep the suite fast and still span several rounds."""

EXAMPLES = settings(max_examples=40, deadline=None)


def walk(seats: int, teams: bool, seed: int, choices: int, target: int) -> Iterator[Match]:
    """Every state of a match played with random legal moves, the final one included."""
    rng = random.Random(choices)
    m = Match(preset("chkobba", {"target": target}), seats, teams, seed=seed)
    while not m.is_over:
        yield m
        m.apply(rng.choice(m.legal_moves()), seat=m.turn)
    yield m


def snapshot(r: Round) -> tuple[Any, ...]:
    """Every field of a round, lists frozen, for equality checks."""
    return tuple(
        tuple(v) if isinstance(v, list) else v for v in (getattr(r, s) for s in Round.__slots__)
    )


def check_cards_accounted(r: Round) -> None:
    """Hands, table, piles, stock and the set-aside cards are the 40 cards, disjoint."""
    parts = [*r.hands, r.table, *r.piles, r.stock_mask(), r.leftover]
    seen = 0
    for p in parts:
        assert not seen & p, f"{[str(c) for c in cards_of(seen & p)]} in two places"
        seen |= p
    assert seen == FULL_DECK
    assert sum(p.bit_count() for p in parts) == 40
    assert r.in_hands == sum(h.bit_count() for h in r.hands)
    assert r.stock == r.stock_mask().bit_count()


def oracle_points(piles: list[int]) -> list[int | None]:
    """kārṭa, dīnārī, barmīla, sabʿa l-ḥayya by docs/rules.md §2.5, counted card by card."""

    def strictly_most(counts: list[int], among: list[int]) -> int | None:
        best = max(counts[i] for i in among)
        top = [i for i in among if counts[i] == best]
        return top[0] if len(top) == 1 else None

    sides = list(range(len(piles)))
    held = [cards_of(p) for p in piles]
    n_cards = [len(h) for h in held]
    diamonds = [sum(1 for c in h if c.suit == 2) for h in held]
    sevens = [sum(1 for c in h if c.value == 7) for h in held]
    sixes = [sum(1 for c in h if c.value == 6) for h in held]
    top7 = max(sevens)
    tied = [i for i in sides if sevens[i] == top7]
    barmila = tied[0] if len(tied) == 1 else strictly_most(sixes, tied)
    haya = next((i for i in sides if CARDS[26] in held[i]), None)
    return [strictly_most(n_cards, sides), strictly_most(diamonds, sides), barmila, haya]


def check_round_score(r: Round) -> None:
    """A finished round's points add up and match a card-by-card count."""
    s = r.score
    assert s is not None
    awarded = [s.karta, s.dinari, s.barmila, s.haya]
    assert awarded == oracle_points(r.piles)
    assert sum(s.points) == sum(s.chkobba) + sum(a is not None for a in awarded)
    assert list(s.chkobba) == r.chkobba
    sweeps = [0] * r.sides
    for t in r.history:
        if t.chkobba:
            sweeps[r.side_of[t.seat]] += 1
    assert sweeps == r.chkobba
    assert s.cards == tuple(p.bit_count() for p in r.piles)
    assert sum(s.cards) + r.leftover.bit_count() == 40
    assert sum(s.diamonds) + (r.leftover & DIAMONDS_MASK).bit_count() == 10
    if r.leftover >> SEVEN_OF_DIAMONDS & 1:
        assert s.haya is None


@EXAMPLES
@given(seatings, seeds, seeds, targets)
def test_every_card_is_in_exactly_one_place(
    seating: tuple[int, bool], seed: int, choices: int, target: int
) -> None:
    """All 40 cards are accounted for in every state: hands, table, piles, stock, set aside."""
    for m in walk(*seating, seed, choices, target):
        r = m.round
        check_cards_accounted(r)
        if r.phase is Phase.CUT:
            assert r.stock == 40 and r.cut_card == r.deck[0]
        if r.phase is Phase.PLAY:
            sizes = {h.bit_count() for h in r.hands}
            assert max(sizes) - min(sizes) <= 1, "hands differ by at most the card just played"
            assert m.legal_moves(), "a player to move always has a move (no passing)"
            assert all(isinstance(mv, Play) for mv in m.legal_moves())
        assert not r.void, "a void deal never stays in play"


@EXAMPLES
@given(seatings, seeds, seeds, targets)
def test_points_add_up(seating: tuple[int, bool], seed: int, choices: int, target: int) -> None:
    """Each round's points are its chkobba points plus the points awarded; totals add them."""
    *_, m = walk(*seating, seed, choices, target)
    assert m.is_over
    totals = [0] * m.sides
    for r in m.finished:
        check_round_score(r)
        assert r.score is not None
        totals = [t + p for t, p in zip(totals, r.score.points, strict=True)]
    assert totals == m.totals
    assert m.winner == match_winner(totals, target)


def compare_rounds(played: Round, replayed: Round) -> None:
    """Two rounds are the same game: same deal, moves, piles, chkobba counts and score."""
    assert replayed.deck == played.deck
    assert replayed.history == played.history
    assert replayed.hands == played.hands
    assert replayed.table == played.table
    assert replayed.piles == played.piles
    assert replayed.chkobba == played.chkobba
    assert replayed.turn == played.turn
    assert replayed.score == played.score


@EXAMPLES
@given(seatings, seeds, seeds, targets, st.floats(0, 1))
def test_save_load_replay_gives_the_same_state(
    seating: tuple[int, bool], seed: int, choices: int, target: int, stop_at: float
) -> None:
    """record → JSON → load → replay reproduces the match, mid-game and at the end."""
    states = walk(*seating, seed, choices, target)
    m = next(states)
    rng = random.Random(seed)
    for m in states:
        # Check a few states along the way, and always the last one.
        if m.is_over or rng.random() < stop_at / 20:
            rec = GameRecord.loads(record_of(m).dumps())
            rep = replay(rec)
            rounds = m.finished if m.is_over else [*m.finished, m.round]
            assert len(rep.rounds) == len(rounds)
            for played, replayed in zip(rounds, rep.rounds, strict=True):
                compare_rounds(played, replayed)
            assert rep.totals == m.totals
            assert rep.winner == m.winner


@EXAMPLES
@given(seatings, seeds, seeds, st.integers(0, 120))
def test_round_copy_is_independent(
    seating: tuple[int, bool], seed: int, choices: int, at: int
) -> None:
    """``Round.copy()`` shares nothing mutable: playing on one leaves the other unchanged."""
    rng = random.Random(choices)
    for i, m in enumerate(walk(*seating, seed, choices, 11)):
        if i == at or m.is_over:
            break
    original = m.round
    before = snapshot(original)
    copy = original.copy()
    assert snapshot(copy) == before
    while not copy.is_over:
        copy.apply(rng.choice(copy.legal_moves()))
    assert snapshot(original) == before
    if not original.is_over:
        copy = original.copy()
        frozen = snapshot(copy)
        original.apply(rng.choice(original.legal_moves()))
        assert snapshot(copy) == frozen


def _played(seats: int, teams: bool, seed: int, choices: int) -> tuple[str, list[str]]:
    """A whole match's record and every observation's rendering along the way."""
    seen: list[str] = []
    m = None
    for m in walk(seats, teams, seed, choices, 11):
        seen.append(observe(m, m.turn).describe())
    assert m is not None
    return record_of(m).dumps(), seen


@settings(max_examples=10, deadline=None)
@given(seatings, seeds, seeds)
def test_same_seed_and_choices_give_the_same_game(
    seating: tuple[int, bool], seed: int, choices: int
) -> None:
    """Determinism: the same seed and the same choices give identical records and states."""
    first = _played(*seating, seed, choices)
    assert _played(*seating, seed, choices) == first
    other = Match(preset("chkobba"), *seating, seed=seed)
    again = Match(preset("chkobba"), *seating, seed=seed)
    assert other.round.deck == again.round.deck and other.round.dealer == again.round.dealer


@EXAMPLES
@given(seatings, seeds, seeds, targets)
def test_observation_hides_other_hands_and_the_stock(
    seating: tuple[int, bool], seed: int, choices: int, target: int
) -> None:
    """§2.7: a seat's observation holds its own hand; ``unseen`` is exactly the other hands
    and the stock (the cut card included for everyone but the cutter during the cut)."""
    for m in walk(*seating, seed, choices, target):
        r = m.round
        stock = r.stock_mask()
        all_hands = 0
        for h in r.hands:
            all_hands |= h
        for seat in range(m.seats):
            obs = observe(m, seat)
            assert obs.hand == r.hands[seat]
            expected = (all_hands & ~r.hands[seat]) | stock
            if r.phase is Phase.CUT and seat == r.cutter:
                assert r.cut_card is not None
                expected &= ~(1 << r.cut_card)
                assert obs.cut_card == r.cut_card
            else:
                assert obs.cut_card is None
            assert obs.unseen == expected
            assert obs.hand_sizes == tuple(h.bit_count() for h in r.hands)
            assert obs.legal_moves == (tuple(m.legal_moves()) if seat == m.turn else ())
            assert obs.table == r.table and obs.piles == tuple(r.piles)
        spectator = observe(m, -1)
        assert spectator.hand == 0 and spectator.cut_card is None
        assert spectator.unseen == all_hands | stock
        assert spectator.legal_moves == ()
