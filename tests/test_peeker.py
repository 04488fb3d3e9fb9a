"""Known hands in the search, and the peeking player built on them (a measurement bound)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from chkobba.agents import make_agent
from chkobba.agents.base import AgentError, check_playable
from chkobba.agents.cheater import PeekerAgent
from chkobba.duel.harness import run_duel
from chkobba.fishing.game import Phase
from chkobba.fishing.match import Match
from chkobba.fishing.observe import Observation, observe
from chkobba.search import fast
from chkobba.search.determinize import determinize
from test_fast import _assert_same_mean, needs_kernel, observation_at


def true_hands(seed: int, seats: int, teams: bool, plays: int) -> tuple[Observation, list[int]]:
    """An observation in a seeded match and the true hands of the other seats."""
    rng = random.Random(seed)
    m = Match(seats=seats, teams=teams, seed=seed)
    count = 0
    while True:
        obs = observe(m, m.turn)
        if obs.phase is Phase.PLAY and count >= plays and len(obs.legal_moves) > 1:
            r = m.round
            return obs, [0 if s == obs.seat else h for s, h in enumerate(r.hands)]
        m.apply_unchecked(rng.choice(m.legal_moves()))
        count += obs.phase is Phase.PLAY
        if m.round.is_over:
            m = Match(seats=seats, teams=teams, seed=seed + 1000 + count)
            count = 0


@pytest.mark.parametrize(("seats", "teams"), [(2, False), (3, False), (4, True)])
def test_determinize_keeps_the_known_hands_and_draws_the_rest(seats: int, teams: bool) -> None:
    for seed in range(20):
        obs, hands = true_hands(seed, seats, teams, seed % 9)
        # Show only the next seat's hand: the others are still drawn.
        nxt = (obs.seat + 1) % seats
        known = [h if s == nxt else 0 for s, h in enumerate(hands)]
        drawn_elsewhere = set()
        for k in range(30):
            deal = determinize(obs, random.Random(k), known)
            assert deal.hands[nxt] == hands[nxt]
            assert deal.hands[obs.seat] == obs.hand
            rest = 0
            for s, h in enumerate(deal.hands):
                assert h.bit_count() == obs.hand_sizes[s]
                if s not in (nxt, obs.seat):
                    assert h & hands[nxt] == 0
                    rest |= h
            for c in deal.deck[deal.stock_pos :]:
                rest |= 1 << c
            # Every unseen card not shown is in another hand or the stock, once.
            assert rest == obs.unseen & ~hands[nxt]
            drawn_elsewhere.add(rest)
        if seats > 2 or obs.stock:
            assert len(drawn_elsewhere) >= 1


def test_determinize_refuses_hands_that_cannot_be_known() -> None:
    obs, hands = true_hands(3, 2, False, 4)
    other = 1 - obs.seat
    bad = {
        "own hand": [obs.hand if s == obs.seat else 0 for s in range(2)],
        "a seen card": [(hands[other] & (hands[other] - 1)) | (obs.table & -obs.table)
                        if s == other else 0 for s in range(2)],
        "too few cards": [hands[other] & (hands[other] - 1) if s == other else 0
                          for s in range(2)],
        "wrong length": [hands[other]],
    }
    for what, known in bad.items():
        with pytest.raises(ValueError, match="known"):
            determinize(obs, random.Random(0), known)
        if fast.AVAILABLE:
            with pytest.raises(ValueError, match="known"):
                fast.evaluate(obs, 4, 0, known=known)
        assert what
    cut = observe(Match(seed=4), Match(seed=4).turn)
    assert cut.phase is Phase.CUT
    with pytest.raises(ValueError, match="cut"):
        determinize(cut, random.Random(0), [0, 0])


@needs_kernel
@pytest.mark.parametrize(("seats", "teams", "plays"), [(2, False, 4), (3, False, 3), (4, True, 6)])
def test_kernel_with_known_hands_agrees_with_the_pure_search(
    seats: int, teams: bool, plays: int
) -> None:
    obs, hands = true_hands(seats * 10 + plays, seats, teams, plays)
    n = 150
    k = [fast.evaluate(obs, 1, s, known=hands) for s in range(n)]
    p = [fast.py_evaluate(obs, 1, s, known=hands) for s in range(n)]
    for i in range(len(obs.legal_moves)):
        _assert_same_mean([x[i] for x in k], [x[i] for x in p])


@needs_kernel
def test_knowing_every_hand_and_an_empty_stock_leaves_nothing_to_sample() -> None:
    # Three players, last deal: shown both other hands, every sample is the same deal.
    obs = observation_at(11, 3, False, 0, lambda o: o.stock == 0 and sum(o.hand_sizes) >= 5)
    m_hands = _hands_from_unseen(obs)
    one = fast.evaluate(obs, 1, 0, known=m_hands)
    for seed in range(1, 6):
        assert fast.evaluate(obs, 1, seed, known=m_hands) == one


def _hands_from_unseen(obs: Observation) -> list[int]:
    """A split of the unseen cards into the other hands (any split is a legal deal)."""
    cards = [c for c in range(40) if obs.unseen >> c & 1]
    hands = [0] * obs.seats
    for s, size in enumerate(obs.hand_sizes):
        if s != obs.seat:
            for c in cards[:size]:
                hands[s] |= 1 << c
            cards = cards[size:]
    return hands


def test_the_peeker_is_for_measurements_only() -> None:
    agent = make_agent("peeker", 1)
    assert isinstance(agent, PeekerAgent)
    with pytest.raises(TypeError, match="choose_state"):
        agent.choose(observe(Match(seed=1), 0))
    with pytest.raises(AgentError):
        check_playable("peeker")


def test_the_peeker_plays_legal_duels_and_beats_random() -> None:
    r = run_duel("peeker", "random", pairs=4, seed=2, jobs=1)
    assert r.games == 8
    assert r.margin.mean > 0


def test_peekers_see_the_hands_their_name_says() -> None:
    m = Match(seed=7)
    rng = random.Random(7)
    # Play the cut and one card: seat to move now faces a seat that has played.
    while m.round.phase is not Phase.PLAY or m.round.hands[m.round.turn].bit_count() == 3:
        m.apply_unchecked(rng.choice(m.legal_moves()))
    r = m.round
    other = (r.turn + 1) % 2
    assert r.hands[other].bit_count() < 3
    shown = {show: PeekerAgent(1, show=show).shown(r) for show in ("all", "played", "unplayed")}
    assert shown["all"][other] == shown["played"][other] == r.hands[other]
    assert shown["unplayed"] == [0, 0]
    assert all(known[r.turn] == 0 for known in shown.values())
    with pytest.raises(ValueError, match="show"):
        PeekerAgent(1, show="some")


def test_a_known_hand_may_hold_the_cards_a_declaration_showed() -> None:
    # In Cirulla a declared hand is shown: its cards are no longer unseen.
    obs, hands = true_hands(5, 2, False, 2)
    other = 1 - obs.seat
    card = hands[other] & -hands[other]
    shown = tuple(card if s == other else 0 for s in range(2))
    shown_obs = replace(obs, shown=shown, unseen=obs.unseen & ~card)
    deal = determinize(shown_obs, random.Random(1), hands)
    assert deal.hands[other] == hands[other]
    # A known hand without the card its seat showed cannot be.
    spare = shown_obs.unseen & ~hands[other]
    without = (hands[other] ^ card) | (spare & -spare)
    known = [without if s == other else 0 for s in range(2)]
    with pytest.raises(ValueError, match="known"):
        determinize(shown_obs, random.Random(1), known)
