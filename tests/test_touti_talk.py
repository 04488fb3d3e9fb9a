"""Touti parlé (*Balhadra*) and the semi-parlé *zadtak âachra*, each case citing the seed
as docs/rules.md gives it (Touti's talk options: §2.1.3, touti:338–354; §2.1.2 a,
touti:324–326)."""

from __future__ import annotations

import random

import pytest

from chkobba.fishing.cards import parse_cards
from chkobba.touti.deal import IllegalMove, Phase
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import Ask, NotationError, Tell, parse_move
from chkobba.touti.observe import observe
from chkobba.touti.parle import TOPICS, answer, answer_words, format_answer, parse_answer
from chkobba.touti.rules import ToutiRules
from touti_helpers import make_deal, play, texts

PARLE = ToutiRules(talk="parle")
SEMI = ToutiRules(talk="semi")

HANDS = [
    "Ah+3h+Kh+Jh+Ks+Js+As+2d+3d+4d",  # seat 0: pairs in copas and espadas, each with its ace
    "2h+4h+5h+6h+7h+Qh+2s+3s+4s+5d",
    "Kd+Jd+Ad+6d+7d+Qd+Ac+3c+5s+6s",  # seat 2: a pair in oros with its ace
    "Kc+Jc+2c+4c+5c+6c+7c+Qc+7s+Qs",  # seat 3: a pair in bastos without its ace
]


def told(hand: str, topic: str) -> str:
    return format_answer(topic, answer(parse_cards(hand), topic))


# -- parlé: the questions and their true answers (lines 340-350) -----------------------


def test_the_answers_of_a_hand() -> None:
    """Lines 340-350: voids (je coupe en 1er), singletons (en 2e), the distribution by
    counts, the card points by rank, the tchanek, the announcements with the cards that
    go with them, matayhach or tayha; no answer names a suit."""
    h = HANDS[0]  # copas A 3 12 11, espadas 1 12 11, oros 2 3 4, no bastos
    assert [told(h, t) for t in TOPICS] == [
        "1", "0", "4-3-3-0", "2", "2", "2", "2", "0", "2", "2m+1m"
    ]
    assert told(HANDS[2], "shape") == "6-2-2-0" and told(HANDS[2], "cantos") == "4m"
    assert told(HANDS[3], "voids") == "2" and told(HANDS[3], "cantos") == "6t"
    assert told(HANDS[1], "cantos") == "none" and told(HANDS[1], "tchanek") == "8"
    assert told("2h+4h+5h+6h+7h+Qh+2s+3s+4s+Ad", "singletons") == "1"
    assert answer_words("voids", (1,)) == "one void: je coupe en 1er"
    assert answer_words("singletons", (2,)) == "2 singletons: je coupe en 2e"
    assert "tayha" in answer_words("cantos", (6, 0)) and "matayhach" in answer_words(
        "cantos", (4, 1)
    )


def test_answer_text_round_trips_and_bad_text_is_refused() -> None:
    for text in ["tell:shape=4-4-2-0", "tell:cantos=3m+0t", "tell:cantos=none", "tell:aces=0",
                 "ask:tchanek", "zadtak"]:
        assert str(parse_move(text)) == text
    assert parse_move("tell:shape=2-4-0-4") == Tell("shape", (4, 4, 2, 0))
    for bad, why in [
        ("ask:suits", "TOPIC one of voids"),
        ("tell:aces=5", "a number from 0 to 4"),
        ("tell:shape=4-4-4-0", "make 10 cards, not 12"),
        ("tell:cantos=3x", r"written like 3m\+0t"),
        ("tell:aces", "expected tell:TOPIC=ANSWER"),
    ]:
        with pytest.raises(NotationError, match=why):
            parse_move(bad)
    with pytest.raises(ValueError, match="unknown question"):
        parse_answer("suits", "1")


# -- parlé: asking and answering in the bidding (line 338) ---------------------------------


def test_a_seat_asks_its_partner_who_answers_at_once_and_truly() -> None:
    """Line 338: the player informs its partner "en se limitant à répondre à ses questions"."""
    d = make_deal(HANDS, dealer=3, rules=PARLE)
    assert {f"ask:{t}" for t in TOPICS} <= set(texts(d))
    play(d, "ask:aces")
    assert d.phase is Phase.ANSWER and d.turn == 2
    assert texts(d) == ["tell:aces=2"]  # the only answer is the true one
    with pytest.raises(IllegalMove, match="answer is not true: it must answer 2, not 1"):
        play(d, "tell:aces=1")
    with pytest.raises(IllegalMove, match="must answer seat 0's question first"):
        play(d, "pass")
    play(d, "tell:aces=2")
    # Back to the asker, who now bids or passes: one question per turn to speak.
    assert d.phase is Phase.BID and d.turn == 0
    assert not any(t.startswith("ask:") for t in texts(d)) and "70" in texts(d)
    with pytest.raises(IllegalMove, match="has asked its question this turn"):
        play(d, "ask:cantos")
    play(d, "80")
    play(d, "ask:cantos")  # seat 1 asks seat 3
    assert d.turn == 3 and texts(d) == ["tell:cantos=6t"]
    play(d, "tell:cantos=6t", "pass", "90")  # seat 1 passes, seat 2 bids
    play(d, "pass")  # seat 3
    assert d.turn == 0 and "ask:aces" not in texts(d) and "ask:voids" in texts(d)
    with pytest.raises(IllegalMove, match="already asked its partner about aces"):
        play(d, "ask:aces")


def test_questions_belong_to_the_parle_game() -> None:
    """Lines 308-314: kalyado gives no indication; semi-parlé has its calls, not questions."""
    for rules in (ToutiRules(), SEMI):
        d = make_deal(HANDS, dealer=3, rules=rules)
        assert not any(t.startswith("ask:") for t in texts(d))
        with pytest.raises(IllegalMove, match="talk=parle"):
            play(d, "ask:aces")
        with pytest.raises(IllegalMove, match="no question to answer"):
            play(d, "tell:aces=2")
    d = make_deal(HANDS, dealer=3, rules=PARLE)
    assert "alla" not in texts(d) and "zadtak" not in texts(d)


def test_a_question_keeps_the_first_turn_for_a_redeal() -> None:
    """Book §2.5.4 with parlé: asking is not speaking, so a redeal may still be asked."""
    zero = ["2s+4s+5s+6s+7s+2h+4h+5h+6h+7h", "As+3s+Ks+Js+Qs+Ah+3h+Kh+Jh+Qh",
            "Ad+3d+Kd+Jd+Qd+Ac+3c+Kc+Jc+Qc", "2d+4d+5d+6d+7d+2c+4c+5c+6c+7c"]
    d = make_deal(zero, dealer=3, rules=ToutiRules(talk="parle", zero_point_redeal=True))
    play(d, "ask:aces", "tell:aces=2")
    assert "redeal" in texts(d)


def test_every_seat_hears_every_answer() -> None:
    """What is said at the table is public: every seat's observation (and a spectator's)
    holds the question and the answer."""
    m = ToutiMatch(PARLE, seed=3)
    seat = m.turn
    m.apply(Ask("shape"))
    m.apply(m.legal_moves()[0])
    tell = m.deal.history[-1]
    assert tell[0] == (seat + 2) % 4 and isinstance(tell[1], Tell)
    for s in (-1, 0, 1, 2, 3):
        obs = observe(m, s)
        assert obs.history[-2:] == ((seat, Ask("shape")), tell)
        assert obs.answers == ((tell[0], tell[1]),)


def test_bidding_always_ends_with_questions() -> None:
    """[decided] bound: one question per turn to speak, each topic once per seat, so a
    seat asks at most 10 questions a deal and the bidding ends as without them."""
    rng = random.Random(8)
    m = ToutiMatch(PARLE, seed=8)
    while not m.is_over and len(m.finished) < 8:
        moves = m.legal_moves()
        asks = [x for x in moves if isinstance(x, Ask)]
        # Ask whenever possible, else any move: the longest biddings.
        m.apply(rng.choice(asks or moves))
    assert len(m.finished) >= 3
    for d in m.finished:
        asked = [(s, x.topic) for s, x in d.history if isinstance(x, Ask)]
        assert len(asked) == len(set(asked)) <= 4 * len(TOPICS)
        assert all(sum(1 for s2, _ in asked if s2 == s) <= len(TOPICS) for s in range(4))


# -- semi-parlé: zadtak âachra (lines 324-326) ------------------------------------------------


def test_zadtak_obliges_the_partner_to_bid_twenty_more() -> None:
    """Line 326: "Zadtak âachra sur une enchère de 100 signifie que le déclarant doit dire
    120 ; l'intervenant ne peut faire qu'une enchère supérieure à 120"."""
    d = make_deal(HANDS, dealer=3, rules=SEMI)
    play(d, "100", "pass")  # seat 0 bids 100, seat 1 passes
    assert "zadtak" in texts(d)
    play(d, "zadtak")  # seat 2: 10 more, so 110
    assert d.bid == 110 and d.high_bidder == 2 and d.turn == 3
    assert "120" not in texts(d) and "130" in texts(d)  # the intervening opponent
    with pytest.raises(IllegalMove, match="opponents may only bid above 120, not 120"):
        play(d, "120")
    play(d, "pass")
    # The declarer must now say 120 at least: no pass, no call.
    assert texts(d) == [str(a) for a in range(120, 240, 10)]
    with pytest.raises(IllegalMove, match="must bid at least 120: its partner's zadtak"):
        play(d, "pass")
    play(d, "120")
    assert d.zadtak is None and d.turn == 2 and "pass" in texts(d)
    play(d, "pass")
    assert d.phase is Phase.TRUMP and d.declarer == 0 and d.bid == 120


def test_zadtak_is_lifted_by_the_next_opponents_overbid() -> None:
    """Line 324: "cette obligation disparaît si l'adversaire suivant intervient par une
    surenchère équivalente"."""
    d = make_deal(HANDS, dealer=3, rules=SEMI)
    play(d, "100", "pass", "zadtak", "130")
    assert d.zadtak is None and d.turn == 0 and "pass" in texts(d)
    play(d, "pass")
    assert d.turn == 2


def test_zadtak_raises_only_the_partners_first_bid_while_it_stands() -> None:
    """Line 324: "sa 1re enchère augmentée de 20"; [decided] zadtak answers the partner's
    first bid, and only while it is the highest, up to the highest possible bid, 230."""
    d = make_deal(HANDS, dealer=3, rules=SEMI)
    play(d, "80", "90")  # seat 1 overbids seat 0: seat 2 may not zadtak
    assert "zadtak" not in texts(d)
    with pytest.raises(IllegalMove, match="raises the partner's first bid"):
        play(d, "zadtak")
    play(d, "100", "pass", "110", "pass")  # seat 0's second bid stands
    assert d.turn == 2 and d.high_bidder == 0 and "zadtak" not in texts(d)
    d = make_deal(HANDS, dealer=3, rules=SEMI)
    play(d, "220", "pass")
    with pytest.raises(IllegalMove, match="oblige the partner to bid 240, above 230"):
        play(d, "zadtak")
    d = make_deal(HANDS, dealer=3, rules=SEMI)
    play(d, "210", "pass", "zadtak", "pass")
    assert texts(d) == ["230"]
    for rules in (ToutiRules(), PARLE):
        d = make_deal(HANDS, dealer=3, rules=rules)
        play(d, "100", "pass")
        with pytest.raises(IllegalMove, match="talk=semi"):
            play(d, "zadtak")
