"""The Scopa family (RULES.md §3): every row as a preset of options, tested by its row.

Each test names the row of RULES.md §3 it checks. Positions come from decks
arranged by RECORD.md's dealing order for presets without the cut (the dealer
deals ``hand_size`` cards to each player from the seat after the dealer, then
the table), written here independently of the engine.
"""

from __future__ import annotations

import random

import pytest

from chkobba.cards import CARDS, Card, parse_cards
from chkobba.game import IllegalMove, Phase, Round
from chkobba.match import Match, match_winner
from chkobba.moves import Play
from chkobba.record import GameRecord, record_of, replay
from chkobba.rules import CHKOBBA, PRESETS, RulesError, RuleSet, preset
from chkobba.scoring import primiera, score_round


def card(text: str) -> Card:
    """One card from its notation."""
    return Card.parse(text)


def cards(text: str) -> int:
    """A card set from space-separated notation (``""`` is the empty set)."""
    return parse_cards(text, " ") if text.strip() else 0


def no_cut_deck(
    rules: RuleSet, seats: int, dealer: int, hands: dict[int, str], table: str, stock: str = ""
) -> list[int]:
    """A deck whose deal without a cut (RECORD.md) gives ``hands`` and ``table``.

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
    """§3 Scopa: no cut-card choice; RECORD.md: 3 each from the seat after the dealer,
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
    """§3 Scopa: a card that could take a single card or a combination takes the single."""
    r = set_up(scopa_round(), ["7h", "Ah"], "7s 3c 4c")
    assert moves_text(r) == {"7h:7s"}
    with pytest.raises(IllegalMove, match="matching has priority"):
        r.apply(Play.parse("7h:3c+4c"))


def test_scopa_any_number_of_cards_by_addition() -> None:
    """§3 Scopa: the standard preset takes combinations of any size (the strict preset
    limits them to two)."""
    r = set_up(scopa_round(), ["Kh", "Ah"], "As 2s 3s 4s")
    assert moves_text(r) == {"Kh:As+2s+3s+4s"}


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
    """RECORD.md: a Scopa record omits the cut and replays to the same result."""
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
    """RECORD.md: Chkobba's rounds keep exactly their keys; other presets add their own."""
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
