"""Touti players: legal, deterministic from their seed, and sampling only consistent deals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.touti import search
from chkobba.touti.agents import ToutiAgentError, make_touti_agent, touti_players
from chkobba.touti.cards import ACE_MASK, PAIRS
from chkobba.touti.deal import Deal, Phase
from chkobba.touti.duplicate import play_deal
from chkobba.touti.moves import Ask, Bid, Call, Tell
from chkobba.touti.observe import ToutiObservation, observe_deal
from chkobba.touti.parle import answer
from chkobba.touti.rules import ToutiRules
from chkobba.touti.search import DealSampler, SearchAgent, played_by, sample_hands, statements
from chkobba.touti.technique import hand_value, technique_move
from touti_helpers import make_deal, play


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
    from chkobba.fishing.cards import parse_cards

    hand = parse_cards("Ad+3d+Kd+Jd+Qd+7d+As+2c+4h+5h")
    assert hand_value(hand, 2) > hand_value(hand, 0) + 50


def _talking_deal(seed: int, talk: str) -> Deal:
    """A deal whose seats talk as much as they may (parlé questions, semi-parlé calls),
    bidding while under a random ceiling, then played on at random for a few tricks."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    d = Deal(rng.randrange(4), deck, ToutiRules(talk=talk))
    caps = [rng.choice([70, 120, 180, 230]) for _ in range(4)]
    while d.phase in (Phase.BID, Phase.ANSWER):
        legal = d.legal_moves()
        talk_moves = [m for m in legal if isinstance(m, Ask | Tell) or m in SIGNALS]
        bids = [m for m in legal if isinstance(m, Bid)]
        if d.phase is Phase.ANSWER or (talk_moves and rng.random() < 0.9):
            d.apply(rng.choice(talk_moves))
        elif bids and (bids[0].amount <= caps[d.turn] or Call.PASS not in legal):
            d.apply(bids[0])
        else:
            d.apply(Call.PASS)
    tricks = rng.randrange(0, 9)
    while not d.is_over and len(d.tricks) < tricks:
        d.apply(rng.choice(d.legal_moves()))
    return d


SIGNALS = (Call.ALLA, Call.MACHARICH, Call.ZADTAK)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["parle", "semi"]), st.integers(0, 3))
def test_sampled_hands_agree_with_what_was_said(seed: int, talk: str, seat: int) -> None:
    """Seed §2.1.3 (parlé): a determinization agrees with every answer heard (of the hand
    as dealt: the hand plus the cards its seat has played); §2.1.2 (semi-parlé): with every
    alla and macharich (so many aces, so many announcements at least)."""
    d = _talking_deal(seed, talk)
    if d.is_over:
        return
    obs = observe_deal(d, seat)
    gone = played_by(obs)
    rng = random.Random(seed)
    for _ in range(4):
        hands = sample_hands(obs, rng)
        assert hands[seat] == d.hands[seat]
        assert all(hands[s] & obs.excluded[s] == 0 for s in range(4) if s != seat)
        for s, move in d.history:
            dealt = hands[s] | gone[s]
            if isinstance(move, Tell):
                assert answer(dealt, move.topic) == move.answer
            elif move is Call.ALLA:
                assert (dealt & ACE_MASK).bit_count() >= d.alla[s]
            elif move is Call.MACHARICH:
                assert sum(dealt & p == p for p in PAIRS) >= d.macharich[s]


def _sample_hands_as_first_written(obs: ToutiObservation, rng: random.Random) -> list[int]:
    """The sampler as it was first written, everything worked out again at each draw and
    ``rng.choices`` called: :class:`DealSampler` must draw exactly the same hands."""
    me = obs.seat
    said = {s: f for s, f in statements(obs).items() if s != me}
    gone = played_by(obs) if said else [0] * 4
    hands = [0] * 4
    hands[me] = obs.hand
    pool = obs.unseen
    for s in range(4):
        if s != me:
            hands[s] |= obs.known[s]
            pool &= ~obs.known[s]
    cards = [c for c in range(40) if pool >> c & 1]
    others = [s for s in range(4) if s != me]
    for attempt in range(search._TRIES * 2):
        strict = attempt < search._TRIES
        room = {s: obs.hand_sizes[s] - hands[s].bit_count() for s in others}
        allowed = {
            c: [s for s in others if not (obs.excluded[s] >> c & 1)] if strict else others
            for c in cards
        }
        order = cards[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        out = {s: hands[s] for s in others}
        ok = True
        for c in order:
            choices = [s for s in allowed[c] if room[s] > 0]
            if not choices:
                ok = False
                break
            s = rng.choices(choices, [room[s] for s in choices])[0]
            out[s] |= 1 << c
            room[s] -= 1
        if ok and said and not search._repair(out, obs, said, gone, strict, rng):
            ok = False
        if ok:
            for s in others:
                hands[s] = out[s]
            return hands
    raise search.SamplingError("no deal agrees with the observation")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["parle", "semi", "kalyado"]),
       st.integers(0, 3))  # fmt: skip
def test_the_sampler_draws_what_it_first_drew(seed: int, talk: str, seat: int) -> None:
    """Working out once what does not change between draws changes no draw: the same
    hands from the same seed, and the generator left in the same state."""
    d = _talking_deal(seed, talk)
    if d.is_over:
        return
    obs = observe_deal(d, seat)
    sampler = DealSampler(obs)
    fast, slow = random.Random(seed), random.Random(seed)
    for _ in range(6):
        assert sampler.draw(fast) == _sample_hands_as_first_written(obs, slow)
    assert fast.random() == slow.random()


def test_statements_are_those_heard() -> None:
    d = _talking_deal(11, "parle")
    obs = observe_deal(d, 0)
    said = statements(obs)
    tells = [s for s, m in d.history if isinstance(m, Tell)]
    assert tells and sorted(said) == sorted(set(tells))
    assert all(len(said[s]) == tells.count(s) for s in said)
    # every statement is true of the real hands as dealt
    dealt = d.initial_hands
    assert all(f(dealt[s]) == 0 for s in said for f in said[s])


def test_the_technique_asks_answers_and_obeys_a_zadtak() -> None:
    """Parlé: near a bid it asks its partner (aces, then announcements) and answers truly;
    semi-parlé: it raises its partner's first bid with zadtak, and bids when forced."""
    hands = [
        "Ad+3d+Kd+Jd+Qd+7d+As+2c+4h+5h",  # seat 0: strong in oros
        "2s+3s+4s+5s+6s+7s+Qs+2h+3h+6h",
        "Ah+Ac+3c+Kc+Jc+Qc+7c+Kh+Jh+Ks",  # seat 2: aces and pairs
        "Js+7h+Qh+2d+4d+5d+6d+4c+5c+6c",
    ]
    d = make_deal(hands, dealer=3, rules=ToutiRules(talk="parle"))
    tech = make_touti_agent("technique")
    assert tech.choose(observe_deal(d, 0)) == Ask("aces")
    d.apply(Ask("aces"))
    d.apply(tech.choose(observe_deal(d, 2)))
    assert d.history[-1] == (2, Tell("aces", (2,)))
    d.apply(tech.choose(observe_deal(d, 0)))
    assert isinstance(d.history[-1][1], Bid)
    d = make_deal(hands, dealer=3, rules=ToutiRules(talk="semi"))
    play(d, "80", "pass")
    assert tech.choose(observe_deal(d, 2)) is Call.ZADTAK
    play(d, "zadtak", "pass")
    forced = tech.choose(observe_deal(d, 0))
    assert forced == Bid(100)
