"""The Scopa family (docs/rules.md §3): every row as a preset of options, tested by its row.

Each test names the row of docs/rules.md §3 it checks. Positions come from decks
arranged by docs/records.md's dealing order for presets without the cut (the dealer
deals ``hand_size`` cards to each player from the seat after the dealer, then
the table), written here independently of the engine.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.fishing.captures import captures, card_value
from chkobba.fishing.cards import CARDS, Card, parse_cards
from chkobba.fishing.game import IllegalMove, Phase, Round
from chkobba.fishing.match import Match, match_winner
from chkobba.fishing.moves import Cut, Play
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord, record_of, replay
from chkobba.fishing.rules import CHKOBBA, PRESETS, RulesError, RuleSet, preset
from chkobba.fishing.scoring import primiera, score_round


def card(text: str) -> Card:
    """One card from its notation."""
    return Card.parse(text)


def cards(text: str) -> int:
    """A card set from space-separated notation (``""`` is the empty set)."""
    return parse_cards(text, " ") if text.strip() else 0


def no_cut_deck(
    rules: RuleSet, seats: int, dealer: int, hands: dict[int, str], table: str, stock: str = ""
) -> list[int]:
    """A deck whose deal without a cut (docs/records.md) gives ``hands`` and ``table``.

    Unnamed hands and the rest of the stock take the remaining cards in card order.
    """
    named = [card(c) for text in [*hands.values(), table, stock] for c in text.split()]
    assert len(set(named)) == len(named)
    spare = iter(c for c in range(40) if c not in named)

    def take(text: str | None, n: int) -> list[int]:
        got = [card(c) for c in text.split()] if text else []
        assert len(got) in (0, n)
        return got or [next(spare) for _ in range(n)]

    deck: list[int] = []
    for i in range(seats):
        deck += take(hands.get((dealer + 1 + i) % seats), rules.hand_size)
    deck += take(table, rules.table_size) if rules.table_size else []
    deck += [card(c) for c in stock.split()]
    deck += list(spare)
    assert sorted(deck) == list(range(40))
    return deck


def set_up(r: Round, hands: list[str], table: str, stock: bool = True, turn: int = 0) -> Round:
    """Give a dealt round these hands and table; ``stock=False`` empties the stock."""
    r.hands = [cards(h) for h in hands]
    r.in_hands = sum(h.bit_count() for h in r.hands)
    r.table = cards(table)
    if not stock:
        r.stock_pos = len(r.deck)
    r.turn = turn
    return r


def moves_text(r: Round) -> set[str]:
    """The legal moves as notation."""
    return {str(m) for m in r.legal_moves()}


SCOPA = preset("scopa")
PLAIN_TABLE = "As 2s 3s 4s"


def scopa_round(rules: RuleSet = SCOPA, seats: int = 2, teams: bool = False) -> Round:
    """A dealt round of ``rules`` on a table that voids nothing."""
    table = " ".join(PLAIN_TABLE.split()[: rules.table_size])
    return Round(rules, seats, teams, 0, no_cut_deck(rules, seats, 0, {}, table))


# -- Scopa (Italian standard) -------------------------------------------------------


@pytest.mark.parametrize(("seats", "teams"), [(2, False), (3, False), (4, False), (4, True)])
def test_scopa_the_dealer_deals_three_each_from_the_next_seat_then_four_to_the_table(
    seats: int, teams: bool
) -> None:
    """§3 Scopa: no cut-card choice; docs/records.md: 3 each from the seat after the dealer,
    then 4 to the table; the seat after the dealer leads."""
    rng = random.Random(seats)
    for dealer in range(seats):
        deck = list(range(40))
        rng.shuffle(deck)
        r = Round(SCOPA, seats, teams, dealer, deck)
        if r.void:
            continue
        assert r.phase is Phase.PLAY and r.cut is None and r.cut_card is None
        assert all(not isinstance(m, str) for m in r.legal_moves())
        for i in range(seats):
            seat = (dealer + 1 + i) % seats
            assert r.hands[seat] == sum(1 << c for c in deck[3 * i : 3 * i + 3])
        assert r.table == sum(1 << c for c in deck[3 * seats : 3 * seats + 4])
        assert r.turn == (dealer + 1) % seats
        assert r.stock == 40 - 3 * seats - 4


@pytest.mark.parametrize(
    ("table", "void"),
    [
        ("Ks Kh Kd 4s", True),
        ("Ks Kh Kd Kc", True),
        ("Ks Kh 4d 4s", False),
        ("Qs Qh Qd 4s", False),
        ("7s 7h 7d 7c", False),
    ],
)
def test_scopa_three_or_four_kings_void_the_deal_and_only_kings(table: str, void: bool) -> None:
    """§3 Scopa: void deal if 3 or 4 kings on the table (and no other rank voids it)."""
    r = Round(SCOPA, 2, False, 0, no_cut_deck(SCOPA, 2, 0, {}, table))
    assert r.void is void


def test_scopa_a_void_deal_is_redone_before_anyone_plays() -> None:
    """§3 Scopa with §2.2: the same dealer deals again from a fresh shuffle."""
    seed = next(s for s in range(5000) if Match(SCOPA, 2, seed=s).void_deals)
    m = Match(SCOPA, 2, seed=seed)
    kings = (m.round.table & sum(1 << c for c in range(9, 40, 10))).bit_count()
    assert not m.round.void and kings < 3 and not m.round.history
    again = Match(SCOPA, 2, seed=seed)
    assert again.round.deck == m.round.deck, "deterministic for a seed"
    with pytest.raises(RulesError, match="void_deal_ranks"):
        preset("scopa", {"void_deal_ranks": "X"})


def test_scopa_the_single_card_before_a_combination() -> None:
    """scopa-wikipedia-fr.txt:24: a card that could take a single card or a combination
    must take the fewest cards: the single one."""
    r = set_up(scopa_round(), ["7h", "Ah"], "7s 3c 4c")
    assert moves_text(r) == {"7h:7s"}
    with pytest.raises(IllegalMove, match="matching has priority"):
        r.apply(Play.parse("7h:3c+4c"))


def test_scopa_the_seeds_capture_example() -> None:
    """scopa-wikipedia-fr.txt:20-23: with 2♦ 5♠ 7♣ in hand on A♦ 5♥ 6♠ the player may lay
    the 2, take the 5 with the 5, or take the ace and the 6 with the 7."""
    r = set_up(scopa_round(), ["2d 5s 7c", "Ah"], "Ad 5h 6s")
    assert moves_text(r) == {"2d", "5s:5h", "7c:Ad+6s"}


def test_scopa_a_capturing_card_may_not_be_laid() -> None:
    """scopa-wikipedia-fr.txt:24: a 6 may not be laid on a 2 and a 4."""
    r = set_up(scopa_round(), ["6h Kc", "Ah"], "2s 4c")
    assert moves_text(r) == {"6h:2s+4c", "Kc"}
    with pytest.raises(IllegalMove, match="6h cannot be laid on the table: it captures 2s\\+4c"):
        r.apply(Play.parse("6h"))


def test_scopa_a_capture_takes_one_card_or_two_never_three() -> None:
    """scopa-wikipedia-fr.txt:25: "un joueur ne peut capturer qu'une ou deux cartes (mais
    pas trois ni quatre)": a king on A 2 3 4 is laid."""
    r = set_up(scopa_round(), ["Kh", "Ah"], "As 2s 3s 4s")
    assert moves_text(r) == {"Kh"}
    with pytest.raises(IllegalMove, match="a capture takes at most 2 cards"):
        r.apply(Play.parse("Kh:As+2s+3s+4s"))


def test_scopa_takes_the_fewest_cards_and_at_most_two() -> None:
    """scopa-wikipedia-fr.txt:24-25: on A♦ 2♥ 3♣ 4♠ a 7 takes exactly 3♣ 4♠ (A 2 4 is
    three cards); with many-card captures (line 25, scopa-many) both are open."""
    r = set_up(scopa_round(), ["7s", "Ah"], "Ad 2h 3c 4s")
    assert moves_text(r) == {"7s:3c+4s"}
    with pytest.raises(IllegalMove, match="a capture takes at most 2 cards; 7s may take 3c\\+4s"):
        r.apply(Play.parse("7s:Ad+2h+4s"))
    many = set_up(scopa_round(preset("scopa-many")), ["7s", "Ah"], "Ad 2h 3c 4s")
    assert moves_text(many) == {"7s:3c+4s", "7s:Ad+2h+4s"}


def test_fewest_cards_without_a_cap_in_any_rule_set() -> None:
    """scopa-wikipedia-fr.txt:24 as the option ``fewest_cards``: among every capture only
    those taking the fewest cards, with or without a cap, in any rule set."""
    rules = preset("scopa-many", {"fewest_cards": True})
    r = set_up(scopa_round(rules), ["Kh", "Ah"], "As 2s 3s 4s 6c")
    assert moves_text(r) == {"Kh:4s+6c"}
    with pytest.raises(IllegalMove, match="it must take the fewest cards: Kh:4s\\+6c takes 2"):
        r.apply(Play.parse("Kh:As+2s+3s+4s"))
    r = set_up(scopa_round(rules), ["Kh", "Ah"], "As 2s 3s 4s")
    assert moves_text(r) == {"Kh:As+2s+3s+4s"}, "no cap: four cards when nothing takes fewer"
    for fewest, moves in [(True, {"Kh:4s+6c"}), (False, {"Kh:4s+6c", "Kh:As+3s+6c", KING_ALL})]:
        r = Round(preset("chkobba", {"fewest_cards": fewest}), 2, False, 0, list(range(40)))
        r.apply(Cut.TABLE)
        assert moves_text(set_up(r, ["Kh", "Ah"], "As 2s 3s 4s 6c")) == moves


KING_ALL = "Kh:As+2s+3s+4s"


def test_scopa_primiera_example_of_the_seed() -> None:
    """§3 primiera: 7♥ 7♦ 6♣ A♠ make 21 + 21 + 18 + 16 = 76 (the seed's example)."""
    assert primiera(cards("7h 7d 6c As")) == 76
    assert primiera(cards("7h 2h Kh")) == 21, "the best card of a suit only"
    assert primiera(cards("Kd Qs Jc Kh")) == 40
    assert primiera(cards("")) == 0
    assert primiera(cards("6s 6h 6d")) == 54, "a missing suit counts 0"


@pytest.mark.parametrize(
    ("piles", "winner"),
    [
        (["7s 7h 7d 7c", "6s 6h 6d 6c As Ah Ad Ac"], 0),  # 84 vs 72
        (["6s 6h 6d", "7s 7h"], 0),  # 54 vs 42: a missing suit counts 0
        (["7s 6h", "7h 6s"], None),  # 39 vs 39: nobody
        (["As Ah Ad Ac", "7s 7h 5d 5c"], 1),  # 64 vs 72
    ],
)
def test_scopa_primiera_strictly_the_highest(piles: list[str], winner: int | None) -> None:
    """§3 primiera: strictly the highest total scores."""
    s = score_round([cards(p) for p in piles], [0, 0], SCOPA)
    item = s.item("primiera")
    assert item is not None and item.side == winner


def test_scopa_points_most_cards_most_coins_settebello_primiera_and_each_scopa() -> None:
    """§3 Scopa: most cards, most coins, settebello (7♦), primiera, 1 per scopa."""
    a = cards("7d 7s 6h Ad 2d 3d Kc Qc Jc Ks")  # 10 cards, 4 coins, 7♦
    b = cards("7h 6s 5d Qs Js 2c")
    s = score_round([a, b], [2, 1], SCOPA)
    assert [p.key for p in s.items] == ["carte", "denari", "settebello", "primiera", "scope"]
    assert (s.item("carte"), s.item("denari")) != (None, None)
    assert [s.item(k).side for k in ("carte", "denari", "settebello")] == [0, 0, 0]  # type: ignore[union-attr]
    # primiera: a 21 (7♦) + 21 (7♠) + 18 (6♥) + 10 (clubs) = 70; b 21 + 18 + 15 + 12 = 66
    assert s.item("primiera").side == 0  # type: ignore[union-attr]
    assert s.points == (4 + 2, 1)
    assert s.karta is None and s.haya is None, "Chkobba's points are not Scopa's"


def test_scopa_no_scopa_on_the_last_play() -> None:
    """§3 Scopa with §2.4: taking the whole table on the round's last play scores no scopa."""
    r = set_up(scopa_round(), ["", "7h"], "3c 4c", stock=False, turn=1)
    r.apply(Play.parse("7h:3c+4c"))
    assert r.is_over and r.score is not None and r.score.chkobba == (0, 0)


def test_scopa_a_sweep_before_the_end_scores_a_scopa() -> None:
    r = set_up(scopa_round(), ["7h 2c", "5s"], "3c 4c")
    r.apply(Play.parse("7h:3c+4c"))
    assert r.chkobba == [1, 0] and r.history[-1].chkobba


@pytest.mark.parametrize(
    ("totals", "winner"),
    [
        ([11, 9], 0),
        ([10, 10], None),
        ([11, 11], None),
        ([12, 11], 0),
        ([9, 13], 1),
        ([11, 11, 3], None),
    ],
)
def test_scopa_target_11_won_by_strictly_more_than_every_other_side(
    totals: list[int], winner: int | None
) -> None:
    """§3 Scopa: target 11 and strictly more than every other side."""
    assert SCOPA.target == 11
    assert match_winner(totals, SCOPA.target, SCOPA.lowest_wins) == winner


def test_scopa_other_targets_are_options() -> None:
    """§3 Scopa: target 11 (or 16, 21)."""
    for t in (11, 16, 21):
        assert preset("scopa", {"target": t}).target == t


@pytest.mark.parametrize("seed", range(6))
def test_scopa_matches_record_and_replay(seed: int) -> None:
    """docs/records.md: a Scopa record omits the cut and replays to the same result."""
    rng = random.Random(seed)
    m = Match(SCOPA, 2 + seed % 3, seed=seed)
    while not m.is_over:
        m.apply(rng.choice(m.legal_moves()))
    rec = record_of(m)
    data = rec.to_json()
    assert data["rules"] == "scopa" and data["options"] == {}
    assert all("cut" not in r for r in data["rounds"])
    rep = replay(GameRecord.loads(rec.dumps()))
    assert rep.totals == m.totals and rep.winner == m.winner
    assert max(m.totals) >= 11


def test_chkobba_json_keeps_its_own_keys() -> None:
    """docs/records.md: Chkobba's rounds keep exactly their keys; other presets add their own."""
    s = score_round([cards("7d 7s"), cards("Kh")], [1, 0])
    assert list(s.to_json()) == [
        "points", "karta", "dinari", "barmila", "haya", "chkobba", "cards"
    ]  # fmt: skip
    assert score_round([cards("7d 7s"), cards("Kh")], [1, 0], CHKOBBA) == s


def test_every_preset_is_valid_and_named() -> None:
    for name, rules in PRESETS.items():
        assert rules.name == name
        rules.validate()
        assert preset(name) == rules
    assert CARDS[0] == card("As")


# -- Scopone and Scopone scientifico ---------------------------------------------------

SCOPONE = preset("scopone")
SCIENTIFICO = preset("scopone-scientifico")


def test_scopone_nine_cards_each_and_four_on_the_table_no_further_deal() -> None:
    """§3 Scopone: 4 players in teams; 9 cards each and 4 on the table, no further deal."""
    rng = random.Random(9)
    deck = list(range(40))
    rng.shuffle(deck)
    r = Round(SCOPONE, 4, True, 2, deck)
    if r.void:
        pytest.skip("the shuffle put three kings on the table")
    for i in range(4):
        seat = (2 + 1 + i) % 4
        assert r.hands[seat] == sum(1 << c for c in deck[9 * i : 9 * i + 9])
    assert r.table == sum(1 << c for c in deck[36:40]) and r.stock == 0
    plays = 0
    while not r.is_over:
        r.apply(rng.choice(r.legal_moves()))
        plays += 1
        assert r.stock == 0
    assert plays == 36
    assert r.score is not None and sum(r.score.cards) + r.leftover.bit_count() == 40


@pytest.mark.parametrize(("seats", "teams"), [(2, False), (3, False), (4, False)])
def test_scopone_is_played_only_by_two_teams(seats: int, teams: bool) -> None:
    """§3 Scopone: 4 players in teams."""
    with pytest.raises(ValueError, match="scopone is played by 4 players in two teams"):
        Match(SCOPONE, seats, teams, seed=1)
    with pytest.raises(ValueError, match="scopone-scientifico is played by 4 players in two"):
        Match(SCIENTIFICO, seats, teams, seed=1)


def test_scopone_scientifico_ten_each_an_empty_table_the_next_seat_leads() -> None:
    """§3 Scopone scientifico: 10 cards each, empty table; the player after the dealer leads."""
    deck = list(range(40))
    random.Random(4).shuffle(deck)
    r = Round(SCIENTIFICO, 4, True, 3, deck)
    assert not r.void and r.table == 0 and r.stock == 0
    assert r.turn == 0
    for i in range(4):
        assert r.hands[i] == sum(1 << c for c in deck[10 * i : 10 * i + 10])
    assert all(m.capture == 0 for m in r.legal_plays()), "on an empty table the leader lays"
    assert len(r.legal_moves()) == 10


def test_scopone_rules_refuse_decks_that_do_not_make_whole_deals() -> None:
    """§3 Scopone: the 40 cards are dealt in whole (9 × 4 + 4, 10 × 4)."""
    with pytest.raises(RulesError, match="cannot be dealt 9 cards each"):
        preset("scopone", {"seatings": ["2v2", "3"]})
    with pytest.raises(RulesError, match="cut_choice needs table cards"):
        preset("scopone-scientifico", {"cut_choice": True})


# -- Scopa di quindici, Escoba del 15, Escoba ------------------------------------------------

QUINDICI = preset("scopa-di-quindici")
ESCOBA_15 = preset("escoba-del-15")
ESCOBA = preset("escoba")


@pytest.mark.parametrize(
    ("hand", "table", "quindici", "escoba_15"),
    [
        # The seed's examples (scopa-wikipedia-fr.txt:67): 7 takes 8 and 8 takes 7, the J
        # takes a 6, the K a 5, the K takes 4 and ace, the 7 takes 4 and 4.
        ("7h", "Qs 5c", {"7h:Qs"}, {"7h:Qs"}),
        ("Qh", "7s 5c", {"Qh:7s"}, {"Qh:7s"}),
        ("Jh", "6s Qc", {"Jh:6s"}, {"Jh:6s"}),
        # "Les règles sont identiques" (line 67): Scopa's fewest cards (line 24) makes the
        # K take the single 5 before 4 and ace, the 7 the single Q before 4 and 4.
        ("Kh", "5s 4c As Qc", {"Kh:5s"}, {"Kh:5s", "Kh:As+4c"}),
        ("7h", "4s 4c Qc", {"7h:Qc"}, {"7h:4s+4c", "7h:Qc"}),
        ("2h", "Kc As 2s Qd 5c", {"2h:5c+Qd"}, {"2h:5c+Qd", "2h:As+2s+Kc"}),
        ("5h", "As 2s 3c 4d", {"5h"}, {"5h:As+2s+3c+4d"}),
        # No capture by value or by sum: 7 + 7 is 14, and 3 + 4 is not 15 - 7.
        ("7h", "7s 3c 4d", {"7h"}, {"7h"}),
    ],
)
def test_fifteen_captures_total_15_with_the_played_card(
    hand: str, table: str, quindici: set[str], escoba_15: set[str]
) -> None:
    """scopa-wikipedia-fr.txt:67: a capture is a set of table cards whose values plus the
    played card's value total 15; Scopa's other rules hold (at most two cards, the fewest,
    lines 24-25). Escoba del 15 [decided]: any number of cards, not only the fewest."""
    r = set_up(scopa_round(QUINDICI), [hand, "Ah"], table)
    assert moves_text(r) == quindici
    r = set_up(scopa_round(ESCOBA_15), [hand, "Ah"], table)
    assert moves_text(r) == escoba_15


def test_fifteen_errors_say_what_may_be_taken() -> None:
    r = set_up(scopa_round(ESCOBA_15), ["Kh", "Ah"], "5s 4c Qc")
    with pytest.raises(
        IllegalMove,
        match=r"Kh cannot capture 4c: it is worth 4, not 5 \(to make 15 with it\); "
        "Kh may take 5s",
    ):
        r.apply(Play.parse("Kh:4c"))
    with pytest.raises(IllegalMove, match="cannot be laid"):
        r.apply(Play.parse("Kh"))


@pytest.mark.parametrize("rules", [ESCOBA, ESCOBA_15], ids=["escoba", "escoba-del-15"])
def test_escoba_is_scored_in_spanish(rules: RuleSet) -> None:
    """scopa-wikipedia-fr.txt:80: the Spanish names (escobas for the sweeps)."""
    sweep = "Qh:3c+5d" if rules is ESCOBA else "7h:3c+5d"  # 8 = 3 + 5; 7 + 3 + 5 = 15
    r = set_up(scopa_round(rules), [sweep[:2] + " 2c", "5s"], "3c 5d")
    r.apply(Play.parse(sweep))
    assert r.chkobba == [1, 0]
    assert rules.sweep_key == "escobas" and rules.scoring[:4] == (
        "cartas",
        "oros",
        "velo",
        "primera",
    )
    assert rules.deck == "spanish"


def test_escoba_is_the_standard_scopa() -> None:
    """scopa-wikipedia-fr.txt:80: "Le jeu est identique à son homologue italien": every
    rule of the standard Scopa but the words (and the deck's face names)."""
    differs = {k for k, v in ESCOBA.options().items() if SCOPA.options()[k] != v}
    assert differs == {"scoring", "deck"}
    r = set_up(scopa_round(ESCOBA), ["7s", "Ah"], "Ad 2h 3c 4s")
    assert moves_text(r) == {"7s:3c+4s"}, "one card or two, the fewest (lines 24-25)"
    r = set_up(scopa_round(ESCOBA), ["7h", "Ah"], "Qs 5c")
    assert moves_text(r) == {"7h"}, "no capture by fifteen"


# -- Cirulla ---------------------------------------------------------------------------------

CIRULLA = preset("cirulla")


def test_cirulla_captures_by_equal_value_by_sum_and_by_fifteen() -> None:
    """scopa-wikipedia-fr.txt:82: captures by equal value, by sum, and by totalling 15 with
    one table card or more; "elle se joue avec toutes les règles": the fewest cards
    (line 24) [decided], no cap of two (line 82: "une ou plus")."""
    r = set_up(scopa_round(CIRULLA), ["7h", "Ah"], "3s 4s 2d 6d")
    # sum 3+4 = 7; fifteen: 7 + 2 + 6 = 15; both take two cards.
    assert moves_text(r) == {"7h:3s+4s", "7h:2d+6d"}
    r = set_up(scopa_round(CIRULLA), ["7h", "Ah"], "3s 4s Qc 2d 6d")
    assert moves_text(r) == {"7h:Qc"}, "7 + Q = 15 takes one card: the fewest"
    r = set_up(scopa_round(CIRULLA), ["7h", "Ah"], "7s 3s 4s Qc")
    assert moves_text(r) == {"7h:7s", "7h:Qc"}, "the single 7 and the single Q"
    r = set_up(scopa_round(CIRULLA), ["7h", "Ah"], "As 2s 4c Kd")
    assert moves_text(r) == {"7h:As+2s+4c"}, "three cards when nothing takes fewer"
    many = preset("cirulla", {"fewest_cards": False})
    r = set_up(scopa_round(many), ["7h", "Ah"], "3s 4s Qc 2d 6d")
    assert moves_text(r) == {"7h:3s+4s", "7h:Qc", "7h:2d+6d"}


@pytest.mark.parametrize(
    ("hand", "declared"),
    [
        ("5s Ad 2h", ("cirulla", 3, 0)),  # the seed's example: 8
        ("3s 3h 3d", ("cirullone", 10, 0)),
        ("As Ah Ad", ("cirullone", 10, 0)),  # 3 in all too: the cirullone only
        ("7s Ad Ah", ("cirullone", 10, 1)),  # the seed: the 7♠ becomes an ace
        ("7s 2d 5h", ("cirulla", 3, 1)),  # 7 + 2 + 5 = 14; as an ace 8
        ("7s 7h 7d", ("cirullone", 10, 0)),
        ("7s Ad Ac", ("cirullone", 10, 1)),
        ("7s Qd Kc", None),
        ("4s 3h 3d", None),  # 10
        ("4s 3h 2d", ("cirulla", 3, 0)),  # 9
    ],
)
def test_cirulla_declarations(hand: str, declared: tuple[str, int, int] | None) -> None:
    """§3 Cirulla: a hand totalling 9 or less scores 3 (cirulla), three equal cards 10
    (cirullone); the 7 of spades may take any value to make one of these."""
    from chkobba.fishing.scoring import declaration

    assert declaration(cards(hand)) == declared


def test_cirulla_declarations_score_at_each_deal_and_show_the_hand() -> None:
    """§3 Cirulla: after each deal a qualifying hand is declared (automatically) for its
    points; the hand is shown to everyone."""
    from chkobba.fishing.observe import observe_round

    deck = no_cut_deck(CIRULLA, 2, 1, {0: "As 2s 3s", 1: "Kd Kh Kc"}, "5d 6d Qd Jd")
    r = Round(CIRULLA, 2, False, 1, deck)
    assert [(d.seat, d.name, d.points) for d in r.declarations] == [
        (0, "cirulla", 3),
        (1, "cirullone", 10),
    ]
    obs = observe_round(r, 0, (0, 0), 1, 11)
    assert obs.shown[1] == cards("Kd Kh Kc") and not obs.unseen & cards("Kd Kh Kc")
    r.apply(Play.parse("3s"))
    obs = observe_round(r, 1, (0, 0), 1, 11)
    assert obs.shown[0] == cards("As 2s"), "a played card is no longer in the shown hand"
    from chkobba.search.determinize import determinize

    for seed in range(5):
        d = determinize(obs, random.Random(seed))
        assert d.hands[0] == cards("As 2s") and d.declarations == r.declarations
    while not r.is_over:
        r.apply(r.legal_moves()[0])
    assert r.score is not None
    item = r.score.item("cirulla")
    assert item is not None and item.points[0] >= 3 and item.points[1] >= 10
    assert r.score.points == tuple(sum(p.points[s] for p in r.score.items) for s in range(2))


def wild_round(rules: RuleSet = CIRULLA) -> Round:
    """A Cirulla round where seat 0 is dealt 7♠ A♦ A♥: a cirullone, the 7♠ made an ace
    (scopa-wikipedia-fr.txt:83, the seed's own example)."""
    deck = no_cut_deck(rules, 2, 1, {0: "7s Ad Ah", 1: "As 3h 6c"}, "2c Kd Qh Jc")
    r = Round(rules, 2, False, 1, deck)
    assert [(d.seat, d.name, d.wild) for d in r.declarations] == [(0, "cirullone", 1)]
    return r


def test_cirulla_the_wild_seven_keeps_its_value_when_played() -> None:
    """scopa-wikipedia-fr.txt:83: "Le 7 d'épées, transformé en as ici, garde sa nouvelle
    valeur pour la manche !": played later in the round, it captures an ace, not a 7."""
    r = wild_round()
    assert r.wild == 1
    set_up(r, ["7s Ad Ah", "As 3h 6c"], "Ac 7h Kd", turn=0)
    seven = {m for m in moves_text(r) if m.startswith("7s")}
    assert seven == {"7s:Ac"}, "worth 1: the ace, not the 7♥ (and 1 + K + … is not 15)"
    with pytest.raises(IllegalMove, match="7s cannot capture 7h: it is worth 7, not 1"):
        r.apply(Play.parse("7s:7h"))
    r.apply(Play.parse("7s:Ac"))
    assert r.piles[0] == cards("7s Ac")


def test_cirulla_the_wild_seven_on_the_table_counts_its_new_value() -> None:
    """scopa-wikipedia-fr.txt:83: on the table the 7♠ made an ace is taken by an ace and
    counts 1 in sums and in captures by fifteen."""
    r = wild_round()
    set_up(r, ["7s Ad Ah", "As 3h 6c"], "2c Kd Qh", turn=0)
    assert "7s" in moves_text(r), "worth 1, it captures nothing here: it is laid"
    r.apply(Play.parse("7s"))
    moves = moves_text(r)
    assert "As:7s" in moves, "an ace takes it"
    assert "3h:2c+7s" in moves, "2 + 1 = 3"
    assert "6c:7s+Qh" in moves, "6 + 1 + 8 = 15"
    obs = observe(Match(CIRULLA, 2, seed=1), 0)
    assert obs.wild == 0
    from chkobba.fishing.observe import observe_round

    seen = observe_round(r, 1, (0, 0), 1, 11)
    assert seen.wild == 1 and "the 7s counts 1" in seen.describe()
    score = score_round([cards("7s"), cards("6s")], [0, 0], CIRULLA)
    assert score.item("primiera").counts[0] == (21, 18), "the points count it as a 7"  # type: ignore[union-attr]


def test_cirulla_with_the_option_off_the_seven_is_a_seven_again() -> None:
    """Option ``wild_seven_keeps_value=false`` (rules version 1): wild in the declaration
    only, a 7 again in play."""
    rules = preset("cirulla", {"wild_seven_keeps_value": False})
    r = wild_round(rules)
    assert r.wild == 0
    set_up(r, ["7s Ad Ah", "As 3h 6c"], "Ac 7h Kd", turn=0)
    assert {m for m in moves_text(r) if m.startswith("7s")} == {"7s:7h"}
    set_up(r, ["7s Ad Ah", "As 3h 6c"], "2c Kd Qh 7s", turn=1)
    assert "As:7s" not in moves_text(r), "an ace does not take a 7"


def test_cirulla_the_search_plays_the_wild_seven_at_its_value() -> None:
    """The exact endgame solver, the sampled deals and inference use the 7♠'s value."""
    from chkobba.fishing.observe import observe_round
    from chkobba.search.determinize import determinize
    from chkobba.search.endgame import solve
    from chkobba.search.inference import legal_plays

    r = wild_round()
    set_up(r, ["7s Ad", "As 3h"], "Ac 7h Kd", stock=False, turn=0)
    _, results = solve(r)
    assert {str(p) for p, _ in results} == moves_text(r)
    assert "7s:Ac" in {str(p) for p, _ in results}
    obs = observe_round(r, 1, (0, 0), 1, 11)
    deal = determinize(obs, random.Random(3))
    assert deal.wild == 1 and {str(m) for m in deal.legal_moves()} >= {"Ad:Ac"}
    assert (6, cards("Ac")) in legal_plays(cards("7s"), cards("Ac 7h"), CIRULLA, wild=1)
    assert (6, cards("7h")) in legal_plays(cards("7s"), cards("Ac 7h"), CIRULLA, wild=0)


# -- Asso piglia tutto ------------------------------------------------------------------------

ASSO = preset("asso-piglia-tutto")


def test_an_ace_takes_the_whole_table_without_a_scopa() -> None:
    """§3 Asso piglia tutto: an ace takes the whole table (by default not a scopa)."""
    r = set_up(scopa_round(ASSO), ["Ah 2c", "5s"], "3c 5d Ks")
    assert {str(m) for m in r.legal_moves() if m.card == card("Ah")} == {"Ah:3c+5d+Ks"}
    with pytest.raises(IllegalMove, match="an ace: it takes the whole table"):
        r.apply(Play.parse("Ah:Ks"))
    r.apply(Play.parse("Ah:3c+5d+Ks"))
    assert r.table == 0 and r.chkobba == [0, 0] and not r.history[-1].chkobba


def test_an_ace_sweep_counts_as_a_scopa_by_option() -> None:
    """§3 Asso piglia tutto: option, the ace's sweep counts as a scopa."""
    rules = preset("asso-piglia-tutto", {"ace_sweep_scores": True})
    r = set_up(scopa_round(rules), ["Ah 2c", "5s"], "3c 5d")
    r.apply(Play.parse("Ah:3c+5d"))
    assert r.chkobba == [1, 0]
    r = set_up(scopa_round(ASSO), ["2c Ah", "5s"], "3c 5d")
    assert moves_text(r) == {"Ah:3c+5d", "2c"}
    r = set_up(scopa_round(ASSO), ["Ah", "5s"], "")
    assert moves_text(r) == {"Ah"}, "on an empty table the ace is laid"


def test_other_sweeps_still_score_under_asso_piglia_tutto() -> None:
    r = set_up(scopa_round(ASSO), ["7h 2c", "5s"], "3c 4d")
    r.apply(Play.parse("7h:3c+4d"))
    assert r.chkobba == [1, 0]


# -- Re bello, Napola, Il ponino, Scopone de Trente ---------------------------------------------


def test_re_bello_the_king_of_coins_scores_one() -> None:
    """§3 Re bello: the king of coins also scores 1 point."""
    rules = preset("re-bello")
    s = score_round([cards("Kd 2s"), cards("7d 3s 4s")], [0, 0], rules)
    assert s.item("rebello") is not None and s.item("rebello").side == 0  # type: ignore[union-attr]
    plain = score_round([cards("Kd 2s"), cards("7d 3s 4s")], [0, 0], SCOPA)
    assert s.points == (plain.points[0] + 1, plain.points[1])


@pytest.mark.parametrize(
    ("coins", "points"),
    [
        ("Ad 2d 3d", 3),
        ("Ad 2d 3d 4d", 4),
        ("Ad 2d 3d 4d 5d 6d", 6),
        ("Ad 2d 3d 5d 6d", 3),  # the run stops at the missing 4
        ("Ad 2d 4d 5d", 0),
        ("2d 3d 4d 5d", 0),
        ("Ad 2d 3d 4d 5d 6d 7d Qd Jd", 9),
        ("Ad 2d 3d 4d 5d 6d 7d Qd Jd Kd", 10),
    ],
)
def test_napola_runs_of_coins(coins: str, points: int) -> None:
    """§3 Napola: A, 2, 3 of coins score 3, extended by each further consecutive coin;
    all ten coins score 10."""
    s = score_round([cards(coins), cards("Ks")], [0, 0], preset("napola"))
    item = s.item("napola")
    assert item is not None and item.points == (points, 0)


def test_napola_all_ten_coins_win_the_match_at_once_by_option() -> None:
    """§3 Napola: all ten coins score 10 (option: win the match at once)."""
    all_coins = cards("Ad 2d 3d 4d 5d 6d 7d Qd Jd Kd")
    plain = score_round([cards("Ks"), all_coins], [0, 0], preset("napola"))
    assert plain.wins_match is None
    rules = preset("napola", {"all_coins_wins": True})
    s = score_round([cards("Ks"), all_coins], [0, 0], rules)
    assert s.wins_match == 1
    from chkobba.fishing.match import decide_match

    assert decide_match([9, 3], rules, s) == 1, "even behind and below the target"
    assert decide_match([9, 3], preset("napola"), plain) is None


def test_napola_combines_with_re_bello() -> None:
    """§3: options combine where the sources allow (the seed names the re bello and the
    napola's coins among the cards to guard)."""
    rules = preset("napola", {"scoring": [*SCOPA.scoring, "napola", "rebello"]})
    s = score_round([cards("Ad 2d 3d Kd"), cards("Ks")], [0, 0], rules)
    assert s.item("napola").points == (3, 0) and s.item("rebello").side == 0  # type: ignore[union-attr]


def test_ponino_four_knights_double_the_sides_scope() -> None:
    """§3 Il ponino: taking all four knights (J, 9) doubles that side's scopa points."""
    rules = preset("ponino")
    s = score_round([cards("Js Jh Jd Jc"), cards("Ks")], [2, 1], rules)
    assert s.item("ponino").points == (2, 0)  # type: ignore[union-attr]
    s = score_round([cards("Js Jh Jd"), cards("Jc")], [2, 1], rules)
    assert s.item("ponino").points == (0, 0)  # type: ignore[union-attr]


def test_ponino_with_partners_one_player_must_take_the_four_knights() -> None:
    """§3 Il ponino (the seed): in teams the same player must have taken the four knights,
    and the team's scope double."""
    rules = preset("ponino")
    knights = cards("Js Jh Jd Jc")
    side_piles = [knights | cards("2s"), cards("Ks")]
    one = score_round(
        side_piles, [1, 0], rules, seat_piles=[0, 0, knights, cards("Ks")], side_of=(0, 1, 0, 1)
    )
    assert one.item("ponino").points == (1, 0)  # type: ignore[union-attr]
    split = score_round(
        side_piles,
        [1, 0],
        rules,
        seat_piles=[cards("Js Jh"), 0, cards("Jd Jc"), cards("Ks")],
        side_of=(0, 1, 0, 1),
    )
    assert split.item("ponino").points == (0, 0)  # type: ignore[union-attr]


def test_ponino_seat_piles_come_from_the_history() -> None:
    """The round knows which partner took which cards, the last capturer's sweep included."""
    rules = preset("ponino", {"seatings": ["2v2"]})
    rng = random.Random(2)
    for _ in range(5):
        m = Match(rules, 4, True, seed=rng.randrange(1000))
        r = m.round
        while not r.is_over:
            r.apply(rng.choice(r.legal_moves()))
        piles = r.seat_piles()
        assert piles[0] | piles[2] == r.piles[0] and piles[1] | piles[3] == r.piles[1]
        assert not piles[0] & piles[2]


def test_scopone_de_trente_ace_two_three_of_coins_add_their_face_value() -> None:
    """§3 Scopone de Trente: target 21; ace, 2, 3 of coins add their face value in points;
    all coins win at once."""
    rules = preset("scopone-de-trente")
    assert rules.target == 21 and rules.seatings == ("2v2",) and rules.hand_size == 9
    s = score_round([cards("Ad 3d"), cards("2d Ks")], [0, 0], rules)
    assert s.item("trente").points == (4, 2)  # type: ignore[union-attr]
    coins = cards("Ad 2d 3d 4d 5d 6d 7d Qd Jd Kd")
    assert score_round([cards("Ks"), coins], [0, 0], rules).wins_match == 1


# -- Scopa a perdere -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "winner"),
    [
        ([21, 15], 1),
        ([15, 21], 0),
        ([20, 3], None),
        ([22, 21], 1),
        ([21, 21], None),
        ([25, 9, 9], None),
        ([25, 9, 12], 1),
    ],
)
def test_scopa_a_perdere_the_most_points_at_21_loses(totals: list[int], winner: int | None) -> None:
    """§3 Scopa a perdere: the side with the most points at 21 loses (the fewest wins)."""
    rules = preset("scopa-a-perdere")
    assert rules.target == 21
    assert match_winner(totals, rules.target, rules.lowest_wins) == winner


def test_scopa_a_perdere_whole_matches() -> None:
    rules = preset("scopa-a-perdere")
    for seed in range(3):
        rng = random.Random(seed)
        m = Match(rules, 2, seed=seed)
        while not m.is_over:
            m.apply(rng.choice(m.legal_moves()))
        assert max(m.totals) >= 21 and m.winner == m.totals.index(min(m.totals))


# -- Scopa Frac ---------------------------------------------------------------------------------

FRAC = preset("scopa-frac")


def test_frac_only_aces_and_faces_score_16_a_round() -> None:
    """§3 Scopa Frac: only aces, Qs, Js and Ks score, 1 each (16 a round)."""
    rng = random.Random(3)
    for seed in range(4):
        m = Match(FRAC, 2, seed=seed)
        r = m.round
        while not r.is_over:
            r.apply(rng.choice(r.legal_moves()))
        assert r.score is not None
        frac = r.score.item("frac")
        assert frac is not None
        assert sum(frac.points) + (r.leftover & _FRAC).bit_count() == 16
        assert r.chkobba == [0, 0], "sweeps score nothing"
        tie = r.score.item("spareggio")
        assert tie is not None
        assert sum(r.score.points) == sum(frac.points) + (tie.side is not None)


_FRAC = cards("As Ah Ad Ac Qs Qh Qd Qc Js Jh Jd Jc Ks Kh Kd Kc")


def test_frac_an_8_8_tie_is_decided_by_the_king_of_coins() -> None:
    """§3 Scopa Frac: 8-8 is decided by the K of coins."""
    a = cards("As Ah Ad Ac Qs Qh Qd Kd")
    b = cards("Qc Js Jh Jd Jc Ks Kh Kc")
    s = score_round([a, b], [0, 0], FRAC)
    assert s.item("frac").points == (8, 8)  # type: ignore[union-attr]
    assert s.item("spareggio").side == 0 and s.points == (9, 8)  # type: ignore[union-attr]
    assert match_winner(list(s.points), FRAC.target) == 0, "one round decides"
    s = score_round([a ^ cards("Kd") | cards("Kc"), b ^ cards("Kc") | cards("Kd")], [0, 0], FRAC)
    assert s.points == (8, 9)
    s = score_round([a | cards("Kc"), b ^ cards("Kc")], [0, 0], FRAC)
    assert s.item("spareggio").side is None and s.points == (9, 7)  # type: ignore[union-attr]


def test_frac_the_single_card_is_not_compulsory() -> None:
    """scopa-wikipedia-fr.txt:78: with one card of the same value and two adding up to
    it on the table, "il n'est pas obligatoire de prendre la carte seule"; a capturing
    card must still capture (line 24: the seed never makes captures optional)."""
    r = set_up(scopa_round(FRAC), ["7h 2c", "5s"], "3c 4d 7s")
    assert moves_text(r) == {"7h:7s", "7h:3c+4d", "2c"}
    with pytest.raises(IllegalMove, match="7h cannot be laid on the table"):
        r.apply(Play.parse("7h"))
    r = set_up(scopa_round(FRAC), ["Kh", "5s"], "As 2s 3s 4s")
    assert moves_text(r) == {"Kh"}, "still one card or two (line 25)"
    assert (FRAC.max_capture_cards, FRAC.fewest_cards, FRAC.matching_priority) == (2, False, False)
    assert not FRAC.may_drop_capturing_card and FRAC.target == 1


# -- Chkop --------------------------------------------------------------------------------------

CHKOP = preset("chkop")


def test_chkop_the_first_table_holds_no_two_cards_of_a_rank() -> None:
    """§3 Chkop: the initial table may not hold two cards of one rank (a duplicate is
    returned to the deck and replaced) [decided: under the stock]."""
    deck = no_cut_deck(CHKOP, 2, 0, {}, "5s 5h 9s 3c".replace("9s", "Js"), stock="5d 7c 3h Kh")
    r = Round(CHKOP, 2, False, 0, deck)
    assert r.table == cards("5s Js 3c 7c")
    assert r.shuffle == tuple(deck)
    assert r.deck[-2:] == (card("5h"), card("5d")), "duplicates go under the stock"
    assert sorted(r.deck) == list(range(40))
    plays = 0
    rng = random.Random(1)
    while not r.is_over:
        r.apply(rng.choice(r.legal_moves()))
        plays += 1
    assert plays == 36


@pytest.mark.parametrize("seed", range(8))
def test_chkop_records_hold_the_shuffle_and_replay(seed: int) -> None:
    """docs/records.md: the deck is the shuffle; replaying it puts the duplicates back again."""
    rng = random.Random(seed)
    m = Match(CHKOP, 2 + seed % 3, seed=seed)
    while not m.is_over:
        r = m.round
        ranks = [c % 10 for c in range(40) if r.table >> c & 1]
        if not r.history:
            assert len(set(ranks)) == len(ranks)
        m.apply(rng.choice(m.legal_moves()))
    rec = record_of(m)
    assert [r.deck for r in rec.rounds] == [[str(CARDS[c]) for c in r.shuffle] for r in m.finished]
    rep = replay(GameRecord.loads(rec.dumps()))
    assert rep.totals == m.totals and rep.winner == m.winner


def test_chkop_points_premiere_septebel_denars_cartes_and_scope() -> None:
    """§3 Chkop: target 21; captures of any size; points: settebello, most coins, most cards,
    première (most 7s, then most 6s; a tie scores nothing)."""
    assert CHKOP.target == 21 and CHKOP.max_capture_cards == 0
    s = score_round([cards("7s 7h 6s Ad"), cards("7d 7c 6h 6c 2d")], [1, 0], CHKOP)
    keys = {p.key: p for p in s.items}
    assert list(keys) == ["cartes", "denar", "premiere", "septebel", "scope"]
    assert keys["premiere"].side == 1 and keys["septebel"].side == 1
    assert keys["cartes"].side == 1 and keys["denar"].side == 1
    s = score_round([cards("7s 7h 6s 6d"), cards("7d 7c 6h 6c")], [0, 0], CHKOP)
    assert s.item("premiere").side is None, "pat: the point is not given"  # type: ignore[union-attr]


# -- the preset table ----------------------------------------------------------------------

ALL = ("2", "3", "4", "2v2")
SIX = (*ALL, "6")
ITALIAN = ("carte", "denari", "settebello", "primiera", "scope")
SPANISH = ("cartas", "oros", "velo", "primera", "escobas")

# name, variant (docs/variants.md), target, cut, hand, table, tables played at,
# at most this many cards in a capture, the fewest cards, points
PRESET_TABLE = [
    ("chkobba", "Chkobba (Tunisia)", 21, True, 3, 4, ALL, 0, False,
     ("karta", "dinari", "barmila", "haya", "chkobba")),
    ("scopa", "Scopa (Italian standard)", 11, False, 3, 4, SIX, 2, True, ITALIAN),
    ("scopa-many", "Scopa, many-card captures", 11, False, 3, 4, SIX, 0, False, ITALIAN),
    ("scopone", "Scopone", 11, False, 9, 4, ("2v2",), 2, True, ITALIAN),
    ("scopone-scientifico", "Scopone scientifico", 11, False, 10, 0, ("2v2",), 2, True, ITALIAN),
    ("scopa-di-quindici", "Scopa di quindici", 11, False, 3, 4, SIX, 2, True, ITALIAN),
    ("escoba", "Escoba", 11, False, 3, 4, SIX, 2, True, SPANISH),
    ("escoba-del-15", "Escoba del 15", 11, False, 3, 4, SIX, 0, False, SPANISH),
    ("cirulla", "Cirulla", 11, False, 3, 4, SIX, 0, True, (*ITALIAN, "cirulla")),
    ("asso-piglia-tutto", "Asso piglia tutto", 11, False, 3, 4, SIX, 2, True, ITALIAN),
    ("re-bello", "Re bello", 11, False, 3, 4, SIX, 2, True, (*ITALIAN, "rebello")),
    ("napola", "Napola", 11, False, 3, 4, SIX, 2, True, (*ITALIAN, "napola")),
    ("ponino", "Il ponino", 11, False, 3, 4, SIX, 2, True, (*ITALIAN, "ponino")),
    ("scopone-de-trente", "Scopone de Trente", 21, False, 9, 4, ("2v2",), 2, True,
     (*ITALIAN, "trente")),
    ("scopa-a-perdere", "Scopa a perdere", 21, False, 3, 4, SIX, 2, True, ITALIAN),
    ("scopa-frac", "Scopa Frac", 1, False, 3, 4, SIX, 2, False, ("frac", "spareggio")),
    ("chkop", "Chkop (Algeria, Bône)", 21, False, 3, 4, SIX, 0, True,
     ("cartes", "denar", "premiere", "septebel", "scope")),
]  # fmt: skip

VARIANTS_MD = Path(__file__).parent.parent / "docs" / "variants.md"


@pytest.mark.parametrize("row", PRESET_TABLE, ids=lambda r: r[0])
def test_preset_table(row: tuple[object, ...]) -> None:
    """Every preset, its row of docs/variants.md and its deal, captures, match and points
    at a glance."""
    name, variant, target, cut, hand, table_size, seatings, most, fewest, scoring = row
    rules = PRESETS[str(name)]
    assert (rules.target, rules.cut_choice, rules.hand_size, rules.table_size) == (
        target,
        cut,
        hand,
        table_size,
    )
    assert (rules.max_capture_cards, rules.fewest_cards) == (most, fewest)
    assert (rules.seatings, rules.scoring) == (seatings, scoring)
    assert f"| `{name}` | {variant} |" in VARIANTS_MD.read_text(encoding="utf-8")


def test_the_preset_table_covers_every_preset() -> None:
    assert [r[0] for r in PRESET_TABLE] == list(PRESETS)


# -- invariants of the capture options ----------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)),
    st.integers(0, 39),
    st.sets(st.integers(0, 39), max_size=9),
    st.sampled_from([0, 2, 3]),
    st.sampled_from([0, 1, 5, 9]),
)
def test_fewest_cards_keeps_exactly_the_smallest_captures(
    name: str, card: int, table: set[int], cap: int, wild: int
) -> None:
    """scopa-wikipedia-fr.txt:24-25 as options, in any rule set: ``fewest_cards`` keeps
    exactly the captures of the fewest cards among those the rule set allows without it,
    and ``max_capture_cards`` bounds every capture (but the ace that takes the table)."""
    table.discard(card)
    mask = sum(1 << c for c in table)
    base = PRESETS[name].with_options({"max_capture_cards": cap})
    value = card_value(card, wild)
    every = captures(value, mask, base.with_options({"fewest_cards": False}), wild)
    fewest = captures(value, mask, base.with_options({"fewest_cards": True}), wild)
    least = min((m.bit_count() for m in every), default=0)
    assert fewest == [m for m in every if m.bit_count() == least]
    assert all(m & ~mask == 0 and m for m in every)
    if cap and not (base.ace_takes_all and value == 1):
        assert all(m.bit_count() <= cap for m in every)
