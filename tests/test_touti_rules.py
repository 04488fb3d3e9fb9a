"""Rule cases for Touti, each citing the point of docs/rules.md §4 it checks."""

from __future__ import annotations

import pytest

from chkobba.fishing.cards import Card
from chkobba.touti.cards import BEATS, CARD_POINTS, STRENGTH
from chkobba.touti.deal import Deal, DealError, IllegalMove, Phase, claim_holds, deal_hands
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import Bid, Call, NotationError, parse_move
from chkobba.touti.rules import RulesError, ToutiRules
from touti_helpers import H0, H1, H2, H3, deck_for, make_deal, play, texts


def C(t: str) -> int:
    return Card.parse(t)


# -- §4 cards -------------------------------------------------------------------


def test_trick_order_and_card_points() -> None:
    """§4: order 1, 3, 12, 11, 10, 7, 6, 5, 4, 2; points 11, 10, 4, 3, 2; 120 in the deck."""
    order = ["Ad", "3d", "Kd", "Jd", "Qd", "7d", "6d", "5d", "4d", "2d"]
    strengths = [STRENGTH[C(c)] for c in order]
    assert strengths == sorted(strengths, reverse=True)
    assert [CARD_POINTS[C(c)] for c in order[:5]] == [11, 10, 4, 3, 2]
    assert sum(CARD_POINTS) == 120
    assert BEATS[C("Kd")] == (1 << C("Ad")) | (1 << C("3d"))


# -- §4 deal ----------------------------------------------------------------------


def test_deal_in_fives_from_the_dealers_right() -> None:
    """§4 Deal: 10 cards each, five at a time in two rounds, from the player after the dealer."""
    deck = list(range(40))
    hands = deal_hands(deck, dealer=1)
    assert hands[2] == sum(1 << c for c in [*range(0, 5), *range(20, 25)])
    assert hands[1] == sum(1 << c for c in [*range(15, 20), *range(35, 40)])
    assert all(h.bit_count() == 10 for h in hands)


def test_bad_deck_and_dealer_are_errors() -> None:
    with pytest.raises(DealError, match="twice"):
        Deal(0, [0, *range(39)])
    with pytest.raises(DealError, match="dealer"):
        Deal(4, list(range(40)))


# -- §4 bidding ------------------------------------------------------------------


def test_bidding_starts_after_the_dealer_in_tens_from_70_to_230() -> None:
    """§4 Bidding: the player after the dealer speaks first; bids 70..230 by tens."""
    d = make_deal([H0, H1, H2, H3], dealer=3)
    assert d.turn == 0
    assert texts(d)[0] == "70" and texts(d)[-2] == "230" and texts(d)[-1] == "pass"
    play(d, "100")
    assert d.turn == 1
    assert "100" not in texts(d) and "110" in texts(d)
    with pytest.raises(IllegalMove, match="above 100"):
        play(d, "90")
    with pytest.raises(NotationError):
        parse_move("75")


def test_a_pass_is_final_and_three_passes_after_a_bid_end_the_bidding() -> None:
    """§4 Bidding: a pass is final; three players in a row passing after a bid end it."""
    d = make_deal([H0, H1, H2, H3], dealer=3)
    play(d, "pass", "80", "pass", "90")  # seat 0 passes, 1 bids, 2 passes, 3 bids
    assert d.turn == 1  # seat 0 has passed and is skipped
    play(d, "pass")
    assert d.phase is Phase.TRUMP and d.declarer == 3 and d.bid == 90
    assert d.turn == 3


def test_a_passed_player_may_not_bid() -> None:
    """§4 Bidding: a pass is final (the move list offers the passed seat nothing)."""
    d = make_deal([H0, H1, H2, H3], dealer=3)
    play(d, "pass", "80", "90", "100")
    assert d.turn == 1
    play(d, "110", "pass", "pass")
    assert d.phase is Phase.TRUMP and d.declarer == 1


def test_four_passes_redeal_by_the_same_dealer() -> None:
    """§4 [decided]: four passes and the same dealer deals again."""
    m = ToutiMatch(seed=5, first_dealer=2)
    for _ in range(4):
        m.apply(Call.PASS)
    assert len(m.finished) == 1 and m.finished[0].redeal
    assert m.deal.dealer == 2 and m.deal.deck != m.finished[0].deck
    assert m.totals == [0, 0]


def test_four_passes_option_next_dealer() -> None:
    """Book §2.5.3 c: option all_pass=next-dealer."""
    m = ToutiMatch(ToutiRules(all_pass="next-dealer"), seed=5, first_dealer=2)
    for _ in range(4):
        m.apply(Call.PASS)
    assert m.deal.dealer == 3


def test_four_passes_option_third_next() -> None:
    """Book §2.5.3 b: redeal twice, then the deal passes on at the third time."""
    m = ToutiMatch(ToutiRules(all_pass="third-next"), seed=5, first_dealer=2)
    dealers = []
    for _ in range(3):
        for _ in range(4):
            m.apply(Call.PASS)
        dealers.append(m.deal.dealer)
    assert dealers == [2, 2, 3]


def test_the_declarer_names_trumps_and_the_player_after_the_dealer_leads() -> None:
    """§4 Bidding/Play: the declarer names trumps; the player after the dealer leads."""
    d = make_deal([H0, H1, H2, H3], dealer=3)
    play(d, "pass", "pass", "70", "pass")
    assert d.phase is Phase.TRUMP and d.turn == 2
    assert texts(d) == ["trump:s", "trump:h", "trump:d", "trump:c"]
    play(d, "trump:d")
    assert d.phase is Phase.PLAY and d.trump == 2 and d.turn == 0


def test_min_trump_length_option() -> None:
    """Book §2.5.5: the declarer may name only a suit held at least so many times."""
    d = make_deal([H0, H1, H2, H3], dealer=3, rules=ToutiRules(min_trump_length=2))
    play(d, "70", "pass", "pass", "pass")
    assert texts(d) == ["trump:s"]  # seat 0 holds nine spades and one heart
    with pytest.raises(IllegalMove, match="at least 2"):
        play(d, "trump:h")


# -- §4 play ----------------------------------------------------------------------

MIXED = [
    "As+3s+2s+Ah+2h+Ad+2d+Ac+2c+4c",
    "Ks+Js+4s+Kh+Jh+Kd+Jd+Kc+Jc+3c",
    "Qs+7s+6s+Qh+7h+Qd+7d+Qc+7c+6c",
    "5s+3h+6h+5h+4h+3d+6d+5d+4d+5c",
]


def started(trump: str = "h", rules: ToutiRules | None = None) -> Deal:
    d = make_deal(MIXED, dealer=3, rules=rules or ToutiRules())
    play(d, "pass", "70", "pass", "pass", f"trump:{trump}")
    return d


def test_must_follow_suit_and_beat_the_highest_card() -> None:
    """§4 Play: follow suit, beating the highest card of the trick if able."""
    d = started()
    play(d, "2s")
    assert set(texts(d)) == {"Ks", "Js", "4s"}  # all beat the 2
    play(d, "Js")
    assert set(texts(d)) == {"Qs", "7s", "6s"}  # none beats the J: any spade
    play(d, "7s")
    assert texts(d) == ["5s"]
    with pytest.raises(IllegalMove, match="does not follow suit"):
        play(d, "3h")


def test_must_beat_when_able() -> None:
    """§4 Play: a player holding a higher card of the suit must play one."""
    d = started()
    play(d, "2d")
    assert set(texts(d)) == {"Kd", "Jd"}
    play(d, "Jd", "7d")
    assert texts(d) == ["3d"]  # of 3d 6d 5d 4d only the 3 beats the J
    with pytest.raises(IllegalMove, match="does not beat the Jd"):
        play(d, "4d")


TRUMPING = [
    "As+3s+2s+Ah+Ad+2d+Ac+2c+4c+5c",
    "Kh+Jh+Qh+7h+6h+5h+4h+3h+2h+3d",  # void in spades
    "Ks+Js+Qs+7s+6s+Kd+Jd+Qd+7d+6d",
    "5s+4s+5d+4d+Kc+Jc+Qc+7c+6c+3c",
]


def test_follow_when_trumped_any_card_of_the_suit() -> None:
    """§4 Play: once the trick is trumped, following suit cannot beat it: any card of the suit."""
    d = make_deal(TRUMPING, dealer=3)
    play(d, "pass", "70", "pass", "pass", "trump:h", "2s", "2h")
    assert set(texts(d)) == {"Ks", "Js", "Qs", "7s", "6s"}


def test_void_must_trump() -> None:
    """§4 Play: void in the suit led, a player must trump."""
    d = make_deal(TRUMPING, dealer=3)
    play(d, "pass", "70", "pass", "pass", "trump:h", "As")
    assert len(texts(d)) == 9 and all(t.endswith("h") for t in texts(d))
    with pytest.raises(IllegalMove, match="must trump"):
        play(d, "3d")


def test_over_trump_required_when_able() -> None:
    """§4 Play: void in the suit led, over-trump a previous trump if able."""
    d = make_deal(
        [
            "As+3s+2s+Ah+Ad+2d+Ac+2c+4c+5c",
            "7h+6h+5h+4h+3h+2h+3d+Qd+7d+6d",  # void in spades, low trumps
            "Kh+Jh+Qh+Kd+Jd+5d+4d+Kc+Jc+Qc",  # void in spades, high trumps
            "Ks+Js+Qs+7s+6s+5s+4s+7c+6c+3c",
        ],
        dealer=3,
    )
    play(d, "pass", "70", "pass", "pass", "trump:h", "2s", "7h")
    assert set(texts(d)) == {"Kh", "Jh", "Qh"}
    with pytest.raises(IllegalMove, match="does not over-trump the 7h"):
        play(d, "Kd")


def test_under_trump_forced_without_kaddour_and_discard_allowed_with_it() -> None:
    """§4 Play: unable to over-trump, a void player must still trump; option Kaddour:
    it may discard any card instead (book §2.2.2)."""
    hands = [
        "As+3s+2s+Ah+Ad+2d+Ac+2c+4c+5c",
        "Kh+Jh+Qh+7h+6h+4h+3h+3d+Qd+7d",  # void in spades
        "2h+Kd+Jd+6d+5d+4d+Kc+Jc+Qc+7c",  # void in spades, one low trump
        "Ks+Js+Qs+7s+6s+5s+4s+5h+6c+3c",
    ]
    d = make_deal(hands, dealer=3)
    play(d, "pass", "70", "pass", "pass", "trump:h", "2s", "Kh")
    assert texts(d) == ["2h"]
    with pytest.raises(IllegalMove, match="must trump"):
        play(d, "Kd")
    d = make_deal(hands, dealer=3, rules=ToutiRules(kaddour=True))
    play(d, "pass", "70", "pass", "pass", "trump:h", "2s", "Kh")
    assert len(texts(d)) == 10
    play(d, "Kd")


# -- §4 announcements ---------------------------------------------------------------

CANTO_HANDS = [
    "Ah+3h+Kh+Jh+Ks+Js+As+2d+3d+4d",  # seat 0: pairs in hearts and spades
    "2h+4h+5h+6h+7h+Qh+2s+3s+4s+5d",
    "Kd+Jd+Ad+6d+7d+Qd+Ac+3c+5s+6s",  # seat 2: pair in diamonds
    "Kc+Jc+2c+4c+5c+6c+7c+Qc+7s+Qs",  # seat 3: pair in clubs (a defender)
]


def canto_deal() -> Deal:
    d = make_deal(CANTO_HANDS, dealer=3)
    play(d, "100", "pass", "pass", "pass", "trump:h")
    return d


def test_announcement_after_a_trick_won_40_in_trumps() -> None:
    """§4 Announcements: the declarer's team, on a trick it wins, announces 11+12: 40 in trumps."""
    d = canto_deal()
    play(d, "Ah", "2h", "6d", "2c")  # seat 0 wins
    assert d.phase is Phase.CANTO and d.turn == 0
    assert set(texts(d)) == {"canto:s", "canto:h", "nocanto"}
    play(d, "canto:h")
    assert d.phase is Phase.PLAY and d.turn == 0
    assert d.canto_points(0) == 40


def test_one_announcement_per_trick_and_20_outside_trumps() -> None:
    """§4 Announcements: at most one per trick won; 20 in a suit other than trumps."""
    d = canto_deal()
    play(d, "Ah", "2h", "6d", "2c", "canto:s")
    assert d.phase is Phase.PLAY  # no second announcement on the same trick
    assert d.canto_points(0) == 20


def test_the_partner_may_announce_when_the_winner_does_not() -> None:
    """§4 Announcements: the announcer is either member of the declarer's team."""
    d = canto_deal()
    play(d, "Ah", "2h", "6d", "2c", "nocanto")
    assert d.phase is Phase.CANTO and d.turn == 2
    assert set(texts(d)) == {"canto:d", "nocanto"}
    play(d, "canto:d")
    assert d.turn == 0 and d.phase is Phase.PLAY


def test_no_announcement_for_the_defenders() -> None:
    """§4 Announcements: only the declarer's team announces; a defender's trick asks nothing."""
    d = make_deal(CANTO_HANDS, dealer=3)
    play(d, "100", "pass", "pass", "pass", "trump:c")
    play(d, "2d", "5d", "Ad", "2c")  # seat 3, void in diamonds, trumps and wins
    assert d.phase is Phase.PLAY and d.turn == 3
    assert "canto:c" not in texts(d)
    with pytest.raises(IllegalMove, match="must play a card"):
        play(d, "canto:c")


def test_both_cards_must_still_be_in_hand() -> None:
    """§4 Announcements: both cards of the pair still in the announcer's hand."""
    d = canto_deal()
    play(d, "Kh", "2h", "6d", "2c")  # seat 0 wins with its 12 of hearts
    assert "canto:h" not in texts(d)
    with pytest.raises(IllegalMove, match="needs both"):
        play(d, "canto:h")
    play(d, "canto:s")
    assert d.canto_points(0) == 20


# -- §4 scoring -------------------------------------------------------------------------


def _finish_with_technique(d: Deal) -> None:
    from chkobba.touti.observe import observe_deal
    from chkobba.touti.technique import technique_move

    while not d.is_over:
        d.apply(technique_move(observe_deal(d, d.turn)))


def test_card_points_and_the_last_trick_total_130() -> None:
    """§4: 120 card points plus 10 for the last trick = 130 per deal."""
    d = canto_deal()
    _finish_with_technique(d)
    sc = d.score
    assert sc is not None and sum(sc.card_points) == 130
    assert sc.last_trick == d.tricks[-1].winner % 2


def test_contract_made_scores_the_bid_only_for_the_declarers() -> None:
    """§4 Scoring: made (card points + announcements ≥ bid): the declarers score the bid."""
    d = make_deal([H0, H1, H2, H3], dealer=3)
    play(d, "70", "pass", "pass", "pass", "trump:s")
    _finish_with_technique(d)
    sc = d.score
    assert sc is not None and sc.made
    assert sc.points == (70, 0)


def test_contract_failed_opponents_score_the_bid() -> None:
    """§4 Scoring [decided]: on failure the opponents score the bid; option declarer-loses."""
    for rules, points in ((ToutiRules(), (0, 230)), (ToutiRules(failure="declarer-loses"),
                                                      (-230, 0))):
        d = make_deal([H0, H1, H2, H3], dealer=3, rules=rules)
        play(d, "230", "pass", "pass", "pass", "trump:s")
        _finish_with_technique(d)
        sc = d.score
        assert sc is not None and not sc.made and sc.points == points


def test_match_ends_when_a_team_reaches_the_target() -> None:
    """§4: the match to 600 (options 800, 1000); the first team to reach it wins."""
    from chkobba.touti.observe import observe
    from chkobba.touti.technique import technique_move

    for target in (600, 800):
        m = ToutiMatch(ToutiRules(target=target), seed=11)
        while not m.is_over:
            m.apply(technique_move(observe(m, m.turn)))
        assert m.winner is not None
        assert m.totals[m.winner] >= target > m.totals[1 - m.winner]
        before = [sum(d.score.points[t] for d in m.finished[:-1] if d.score) for t in (0, 1)]
        assert max(before) < target
        with pytest.raises(IllegalMove, match="over"):
            m.apply(Bid(70))


# -- options --------------------------------------------------------------------------


def test_unknown_or_bad_options_are_errors() -> None:
    with pytest.raises(RulesError, match="unknown Touti option"):
        ToutiRules.from_options({"trumps": 1})
    with pytest.raises(RulesError, match="must be a bool"):
        ToutiRules.from_options({"kaddour": 1})
    with pytest.raises(RulesError, match="all_pass"):
        ToutiRules(all_pass="never")
    assert ToutiRules.from_options({"target": 800}).json_options() == {"target": 800}


def test_semi_parle_calls_must_be_true() -> None:
    """Book §2.1.2: alla (I hold an ace), macharich (I hold an announcement), checked."""
    rules = ToutiRules(talk="semi")
    d = make_deal(CANTO_HANDS, dealer=3, rules=rules)
    assert {"alla", "macharich"} <= set(texts(d))  # seat 0: aces and pairs
    play(d, "alla")
    assert "alla" not in texts(d)  # seat 1 holds no ace
    with pytest.raises(IllegalMove, match="does not hold 1 ace"):
        play(d, "alla")
    play(d, "90", "pass", "pass")
    # seat 0 said alla: it may not bid, but still speaks (a second ace)
    assert d.turn == 0 and "100" not in texts(d) and "alla" in texts(d)
    play(d, "alla")
    assert d.phase is Phase.TRUMP and d.declarer == 1


def test_semi_parle_calls_refused_in_kalyado() -> None:
    d = make_deal(CANTO_HANDS, dealer=3)
    with pytest.raises(IllegalMove, match="semi-parlé"):
        play(d, "alla")


def test_zero_point_redeal_option() -> None:
    """Book §2.5.4: a hand without card points may ask for a redeal (option)."""
    zero = ["As+3s+Ks+Js+Qs+Ah+3h+Kh+Jh+Qh", "2s+4s+5s+6s+7s+2h+4h+5h+6h+7h",
            "Ad+3d+Kd+Jd+Qd+Ac+3c+Kc+Jc+Qc", "2d+4d+5d+6d+7d+2c+4c+5c+6c+7c"]
    d = make_deal(zero, dealer=3)
    play(d, "pass")
    assert "redeal" not in texts(d)
    d = make_deal(zero, dealer=3, rules=ToutiRules(zero_point_redeal=True))
    play(d, "pass")
    assert "redeal" in texts(d)
    play(d, "redeal")
    assert d.is_over and d.redeal and d.score is None
    m = ToutiMatch(ToutiRules(zero_point_redeal=True), first_dealer=3, first_deck=deck_for(zero, 3))
    m.apply(Call.PASS)
    m.apply(Call.REDEAL)
    assert m.deal.dealer == 3 and m.all_pass_streak == 0


def _five_tricks(d: Deal) -> None:
    while len(d.tricks) < 5 or d.phase is not Phase.PLAY:
        d.apply(next(m for m in d.legal_moves() if m is not Call.CLAIM))


def test_claims() -> None:
    """Book §2.5.6 (Tarraq): at the end of the deal (5 tricks or fewer left) the player on lead
    may claim the rest: a right claim takes it; a wrong one is forgiven or punished."""
    # Seat 0 holds every spade but the 2: with spades trumps it wins every trick.
    for claim in ("forgive", "opponents-take-rest"):
        d = make_deal([H0, H1, H2, H3], dealer=3, rules=ToutiRules(claim=claim))
        play(d, "70", "pass", "pass", "pass", "trump:s")
        assert "claim" not in texts(d)  # too early: ten tricks remain
        with pytest.raises(IllegalMove, match="5 tricks or fewer"):
            play(d, "claim")
        _five_tricks(d)
        assert d.turn == 0 and "claim" in texts(d)
        play(d, "claim")
        assert d.is_over and d.claimed == (0, True)
        assert d.score is not None and d.score.card_points[0] == 130
    for claim in ("forgive", "opponents-take-rest"):
        d = make_deal(MIXED, dealer=3, rules=ToutiRules(claim=claim))
        play(d, "70", "pass", "pass", "pass", "trump:h")
        _five_tricks(d)
        leader = d.turn
        assert not claim_holds(d, leader)
        taken = d.won[leader % 2]
        play(d, "claim")
        if claim == "forgive":
            assert not d.is_over and d.turn == leader and "claim" not in texts(d)
        else:
            assert d.is_over and d.claimed == (leader, False)
            assert d.won[leader % 2] == taken  # every remaining card went to the opponents
            assert d.score is not None and d.score.last_trick != leader % 2
    d = make_deal(MIXED, dealer=3)
    play(d, "70", "pass", "pass", "pass", "trump:h")
    with pytest.raises(IllegalMove, match="claim is off"):
        play(d, "claim")


def test_wrong_claim_variant_b_gives_the_last_trick_with_the_three_best_cards() -> None:
    """Book §2.5.6 b (seed line 410): the opponents may "prendre le dernier pli (en marquant
    le 10 de der) avec les 3 meilleures cartes (en valeur) restantes en jeu"; the claimer's
    team keeps the other remaining cards."""
    d = make_deal(MIXED, dealer=3, rules=ToutiRules(claim="opponents-take-best-three"))
    play(d, "70", "pass", "pass", "pass", "trump:h")
    _five_tricks(d)
    leader = d.turn
    assert not claim_holds(d, leader)
    rest = [c for h in d.hands for c in range(40) if h >> c & 1]
    ours, theirs = d.won[leader % 2], d.won[1 - leader % 2]
    play(d, "claim")
    assert d.is_over and d.claimed == (leader, False)
    gained = [c for c in rest if d.won[1 - leader % 2] >> c & 1 and not theirs >> c & 1]
    kept = [c for c in rest if d.won[leader % 2] >> c & 1 and not ours >> c & 1]
    assert len(gained) == 3 and sorted(gained + kept) == sorted(rest)
    # "les 3 meilleures cartes (en valeur)": no card left to the claimer is worth more.
    assert min(CARD_POINTS[c] for c in gained) >= max(CARD_POINTS[c] for c in kept)
    sc = d.score
    assert sc is not None and sc.last_trick == 1 - leader % 2
    assert sum(sc.card_points) == 130


def test_a_move_of_another_kind_is_not_taken_for_a_legal_one() -> None:
    """Moves are small tuples: trump:s has the number of the card As, yet during the play it
    is refused, not read as a card (nor as a claim)."""
    d = make_deal([H0, H1, H2, H3], dealer=3, rules=ToutiRules(claim="forgive"))
    play(d, "70", "pass", "pass", "pass", "trump:s")
    assert "As" in texts(d)
    before = len(d.history)
    with pytest.raises(IllegalMove, match="must play a card"):
        play(d, "trump:s")
    with pytest.raises(IllegalMove, match="must play a card"):
        play(d, "canto:s")
    assert len(d.history) == before and d.claims == 0
