"""Touti players: legal, deterministic from their seed, and sampling only consistent deals."""

from __future__ import annotations

import random

import pytest

from chkobba.touti.agents import ToutiAgentError, make_touti_agent, touti_players
from chkobba.touti.deal import Deal
from chkobba.touti.duplicate import play_deal
from chkobba.touti.observe import observe_deal
from chkobba.touti.search import SearchAgent, sample_hands
from chkobba.touti.technique import hand_value, technique_move


def test_registry() -> None:
    assert touti_players() == ["random", "search", "technique"]
    with pytest.raises(ToutiAgentError, match="unknown Touti player"):
        make_touti_agent("nobody")


@pytest.mark.parametrize("name", ["random", "technique", "search"])
def test_players_play_legal_games(name: str) -> None:
    rng = random.Random(2)
    deck = list(range(40))
    rng.shuffle(deck)
    agents = [make_touti_agent(name, s) if s % 2 == 0 else make_touti_agent("technique", s)
              for s in range(4)]
    if name == "search":
        agents[0] = agents[2] = SearchAgent(1, samples=4)
    out = play_deal(agents, 1, deck)  # play_deal checks every move
    assert out.deal.is_over


def test_search_with_sampled_bidding_plays_legal_deals() -> None:
    rng = random.Random(8)
    for dealer in range(2):
        deck = list(range(40))
        rng.shuffle(deck)
        a = SearchAgent(3, samples=4, bidding="sampled")
        out = play_deal([a, make_touti_agent("technique"), a, make_touti_agent("technique")],
                        dealer, deck)
        assert out.deal.is_over
    with pytest.raises(ValueError, match="bidding"):
        SearchAgent(bidding="psychic")


def test_safe_bid() -> None:
    from chkobba.touti.search import safe_bid

    assert safe_bid([100, 90, 80, 70, 60], 0.6) == 80
    assert safe_bid([75] * 5, 1.0) == 70


def test_search_is_deterministic_from_its_seed() -> None:
    deck = list(range(40))
    random.Random(3).shuffle(deck)

    def history() -> list[object]:
        a = SearchAgent(5, samples=4)
        b = make_touti_agent("technique")
        return list(play_deal([a, b, a, b], 2, deck).deal.history)

    assert history() == history()


def test_sampled_hands_agree_with_the_observation() -> None:
    rng = random.Random(7)
    for g in range(20):
        deck = list(range(40))
        rng.shuffle(deck)
        d = Deal(g % 4, deck)
        steps = rng.randrange(10, 60)
        while not d.is_over and steps:
            d.apply(technique_move(observe_deal(d, d.turn)))
            steps -= 1
        seat = rng.randrange(4)
        obs = observe_deal(d, seat)
        for _ in range(5):
            hands = sample_hands(obs, rng)
            assert hands[seat] == d.hands[seat]
            assert [h.bit_count() for h in hands] == [h.bit_count() for h in d.hands]
            assert hands[0] | hands[1] | hands[2] | hands[3] | d.played == (1 << 40) - 1
            for s in range(4):
                if s != seat:
                    assert hands[s] & obs.excluded[s] == 0
                    assert hands[s] & obs.known[s] == obs.known[s]


def test_hand_value_prefers_long_strong_trumps() -> None:
    from chkobba.cards import parse_cards

    hand = parse_cards("Ad+3d+Kd+Jd+Qd+7d+As+2c+4h+5h")
    assert hand_value(hand, 2) > hand_value(hand, 0) + 50
